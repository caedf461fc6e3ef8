// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "config/runtimefolder.h"
#include "traymode.h"

#include "base/errnotext.h"
#include "config/securefile.h"

#include "config/config.h"
#include "config/configwatcher.h"
#include "devices/fakegpufolder.h"
#include "ledger/ledgerstore.h"
#include "base/logging.h"
#include "monitorhost.h"
#include "busservicehost.h"
#include "pausestore.h"
#include "backends/nvmlbackend.h"
#include "slurm/runnerrouter.h"
#include "servicenotifier.h"
#include "singleinstance.h"
#include "base/statefolder.h"
#include "bus/busnames.h"
#include "bus/remotemonitor.h"
#include "bus/servicefinder.h"
#include "status/statuswindow.h"
#include "tray/trayapplication.h"
#include "tray/traycontroller.h"
#include "tray/trayhostwatcher.h"
#include "tray/traylogging.h"
#include "unixsignals.h"
#include "config/useraccount.h"

#include <QApplication>
#include <QDBusConnection>
#include <QDBusServiceWatcher>
#include <QEventLoop>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QLocale>
#include <QMessageBox>
#include <QMutex>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTextStream>
#include <QTimer>
#include <QTranslator>

#include <cstdio>
#include <utility>

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

constexpr qint64 kMaxLogBytes = 4 * 1024 * 1024;

class TrayMode
{
    Q_DECLARE_TR_FUNCTIONS(TrayMode)
};

// Without a terminal, the log goes to $XDG_STATE_HOME/idlegpu/idlegpu.log too ("Open log"). Started afresh when it
// grows past kMaxLogBytes.
QFile *g_logFile = nullptr;
QtMessageHandler g_previousHandler = nullptr;
QMutex g_logMutex; // the monitor's thread logs too

void logToFile(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    const QMutexLocker lock(&g_logMutex);
    if (g_logFile) {
        g_logFile->write(qFormatLogMessage(type, context, message).toUtf8() + '\n');
        g_logFile->flush();
    }
    if (g_previousHandler)
        g_previousHandler(type, context, message);
}

// The log, opened in the trusted state folder (SecureFile) without following a link or waiting on a FIFO: this user's
// regular file, private. Null with *error.
QFile *openTrustedLog(const QString &path, QString *error)
{
    const SecureFile::Opened folder = SecureFile::openTrustedFolder(QFileInfo(path).absolutePath(), ::geteuid());
    if (!folder.ok()) {
        *error = folder.error;
        return nullptr;
    }
    UniqueFd fd(::openat(folder.fd.get(), QFile::encodeName(QFileInfo(path).fileName()).constData(),
                         O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0600));
    struct stat st{};
    if (!fd.valid() || ::fstat(fd.get(), &st) != 0) {
        *error = errnoText(errno);
        return nullptr;
    }
    if (!S_ISREG(st.st_mode) || st.st_uid != ::geteuid()) {
        *error = QStringLiteral("not a regular file of this user's");
        return nullptr;
    }
    ::fchmod(fd.get(), 0600);
    if (st.st_size > kMaxLogBytes)
        (void)::ftruncate(fd.get(), 0);
    auto *file = new QFile(qApp);
    if (!file->open(fd.get(), QIODevice::WriteOnly | QIODevice::Append, QFileDevice::AutoCloseHandle)) {
        *error = file->errorString();
        delete file;
        return nullptr;
    }
    fd.release();
    return file;
}

QString openLogFile()
{
    const QString path = idlegpuStateFolder() + QStringLiteral("/idlegpu.log");
    QDir().mkpath(QFileInfo(path).absolutePath());
    QString error;
    if (QFile *file = openTrustedLog(path, &error)) {
        g_logFile = file;
        g_previousHandler = qInstallMessageHandler(logToFile);
    } else {
        qCWarning(lcTray, "cannot write the log file %s: %s", qPrintable(path), qPrintable(error));
    }
    return path;
}

// The system's language: our translations (embedded under :/i18n) and Qt's own.
void loadTranslations()
{
    auto *ours = new QTranslator(qApp);
    if (ours->load(QLocale(), QStringLiteral("idlegpu"), QStringLiteral("_"), QStringLiteral(":/i18n")))
        QCoreApplication::installTranslator(ours);
    auto *qt = new QTranslator(qApp);
    if (qt->load(QLocale(), QStringLiteral("qtbase"), QStringLiteral("_"),
                 QLibraryInfo::path(QLibraryInfo::TranslationsPath)))
        QCoreApplication::installTranslator(qt);
}

// The demo: two fake GPUs as plain files and a workload that only sleeps; "Simulate a job on GPU N" runs a
// process named python3 that holds the fake nodes of a CUDA job open for 30 s.
class Demo
{
public:
    Demo() = default;
    Demo(const Demo &) = delete;
    Demo &operator=(const Demo &) = delete;

    // After the event loop: simulated jobs still running end with the demo. Left to ~QProcess, each would
    // log "Destroyed while process is still running" at every quit.
    ~Demo()
    {
        for (QProcess *job : m_jobs.findChildren<QProcess *>(Qt::FindDirectChildrenOnly)) {
            job->kill();
            job->waitForFinished(1000);
        }
    }

    bool setUp()
    {
        if (!m_dir.isValid())
            return false;
        const QString dev = devFolder();
        if (!FakeGpuFolder::make(dev, 2))
            return false;
        const QString sleep = QStandardPaths::findExecutable(QStringLiteral("sleep"));
        QDir().mkpath(m_dir.filePath(QStringLiteral("bin")));
        QFile::link(sleep, m_dir.filePath(QStringLiteral("bin/python3")));

        QFile config(configPath());
        if (!config.open(QIODevice::WriteOnly))
            return false;
        // The workloads run as whoever runs the demo, named as a user would name them (as root that still warns).
        const std::optional<UserAccount> me = UserLookup::findAccount(QString::number(::geteuid()));
        const QString user = me ? me->name : QString::number(::geteuid());
        QTextStream(&config) << "[defaults]\n"
                             << "interval_seconds = 10\n"
                             << "start_delay_seconds = 5\n"
                             << "device_root = " << dev << "\n\n"
                             // One workload per GPU, so that a job on one GPU visibly leaves the other running.
                             << "[process-demo0]\n"
                             << "name = demo-miner-0\n"
                             << "cmd = sleep 86400\n"
                             << "user = " << user << "\n"
                             << "gpus = 0\n\n"
                             << "[process-demo1]\n"
                             << "name = demo-miner-1\n"
                             << "cmd = sleep 86401\n"
                             << "user = " << user << "\n"
                             << "gpus = 1\n";
        return true;
    }
    QString configPath() const { return m_dir.filePath(QStringLiteral("demo.conf")); }

    void simulateJob(int gpu)
    {
        auto *job = new QProcess(&m_jobs);
        QObject::connect(job, &QProcess::finished, job, &QObject::deleteLater);
        // The shell opens the GPU's node, nvidiactl and nvidia-uvm, as every CUDA job does (nvidia-uvm makes it a
        // compute client, which busy_when = auto stops the workload for), and becomes the "python3" (a sleep).
        job->start(QStringLiteral("sh"), {QStringLiteral("-c"), QStringLiteral("exec \"$0\" 30 <\"$1\" 3<\"$2\" 4<\"$3\""),
                                          m_dir.filePath(QStringLiteral("bin/python3")),
                                          FakeGpuFolder::gpuNode(devFolder(), gpu), FakeGpuFolder::ctlNode(devFolder()),
                                          FakeGpuFolder::uvmNode(devFolder())});
    }

private:
    QString devFolder() const { return m_dir.filePath(QStringLiteral("dev")); }

    QTemporaryDir m_dir;
    QObject m_jobs; // the simulated jobs' parent
};

// Shows the tray's icon once a tray is there. The tray may not be there yet at login, and Qt chooses the kind of icon
// once, when the first is made: it is made when TrayHostWatcher says the right tray is there. Meanwhile the menu and
// the monitor work; after kTrayWaitMs without a tray the status window shows instead, and the icon still comes
// whenever a tray does.
std::unique_ptr<TrayHostWatcher> watchForTray(TrayApplication &tray)
{
    auto trayHost = std::make_unique<TrayHostWatcher>(QDBusConnection::sessionBus(), TrayHostWatcher::x11XEmbedProbe());
    QObject::connect(trayHost.get(), &TrayHostWatcher::trayReady, &tray, [&tray] { tray.showTrayIcon(); });
    QObject::connect(trayHost.get(), &TrayHostWatcher::trayLate, &tray, [&tray] {
        qCWarning(lcTray, "no system tray after %d s; showing the status window instead",
                  TrayHostWatcher::kTrayWaitMs / 1000);
        tray.showStatusWindow();
    });
    trayHost->start();
    return trayHost;
}

// Asks the system bus, then the session bus, for a running idlegpu. The tray is not up yet: its event loop runs here,
// in a loop of its own, for ServiceFinder::kStepTimeoutMs per step at most (a bus that does not answer).
ServiceFinder::Where findService()
{
    ServiceFinder finder(QDBusConnection::systemBus(), QDBusConnection::sessionBus());
    QEventLoop loop;
    bool done = false;
    QObject::connect(&finder, &ServiceFinder::finished, &loop, [&] {
        done = true;
        loop.quit();
    });
    finder.start();
    if (!done) // without a bus it answers at once
        loop.exec();
    return finder.where();
}

QDBusConnection busOf(ServiceFinder::Where where)
{
    return where == ServiceFinder::Where::System ? QDBusConnection::systemBus() : QDBusConnection::sessionBus();
}

// The tray as a client of the idlegpu service on `bus`: no monitor of its own.
int runClientTray(ServiceFinder::Where where, const QString &logPath, const ServiceNotifier &serviceManager)
{
    qCInfo(lcTray, "idlegpu %s in the tray, showing the idlegpu service on the %s bus (pid %lld)", IDLEGPU_VERSION,
           qPrintable(ServiceFinder::whereName(where)), QCoreApplication::applicationPid());
    RemoteMonitor remote(busOf(where));
    TrayApplication tray(&remote, logPath);
    QObject::connect(tray.controller(), &TrayController::quitRequested, qApp, &QCoreApplication::quit);
    if (auto *signals_ = qApp->findChild<UnixSignalWatcher *>())
        QObject::connect(signals_, &UnixSignalWatcher::terminateRequested, qApp, &QCoreApplication::quit);
    remote.start();
    serviceManager.ready(QStringLiteral("in the tray, showing the idlegpu service"));
    serviceManager.feedWatchdogFrom(&remote);
    const std::unique_ptr<TrayHostWatcher> trayHost = watchForTray(tray);
    const int code = QApplication::exec();
    serviceManager.stopping();
    return code;
}

} // namespace

int runTray(const QString &configPath, bool demo, const ServiceNotifier &serviceManager)
{
    loadTranslations();
    QApplication::setQuitOnLastWindowClosed(false); // closing the status window does not stop the monitor
    const QString logPath = openLogFile();

    // One monitor per machine: where an idlegpu runs already (the system service, or this user's own), the tray shows
    // it instead of starting a second. The demo's fake GPUs are its own business; IDLEGPU_BUS=none (docs/dbus.md)
    // keeps the tray off D-Bus altogether: it neither looks for a service nor serves.
    const bool offTheBus = qEnvironmentVariable("IDLEGPU_BUS") == QLatin1String("none");
    if (!demo && !offTheBus) {
        const ServiceFinder::Where where = findService();
        if (where != ServiceFinder::Where::None)
            return runClientTray(where, logPath, serviceManager);
    }

    Demo demoSetup;
    QString path;
    if (demo) {
        if (!demoSetup.setUp()) {
            qCCritical(lcTray, "cannot create the demo's temporary folder");
            return 1;
        }
        path = demoSetup.configPath();
    } else {
        path = ConfigLoader::locate(configPath).path;
    }

    SingleInstance instance(path);
    if (!instance.acquire()) {
        if (!instance.error().isEmpty()) {
            qCCritical(lcTray, "%s", qPrintable(instance.error()));
            QMessageBox::critical(nullptr, TrayMode::tr("idlegpu"), instance.error());
            return 1;
        }
        const QString message = TrayMode::tr("idlegpu is already running for %1 (pid %2).").arg(path).arg(instance.ownerPid());
        QTextStream(stderr) << message << Qt::endl;
        QMessageBox::information(nullptr, TrayMode::tr("idlegpu"), message);
        return 2;
    }

    // The monitor and its runner live on the host's thread, made there; the tray only talks to the host. Without a
    // file at the default place idlegpu is not set up yet: the tray shows the GPUs and offers to set it up.
    const bool acceptMissingConfig = !demo && configPath.isEmpty();
    MonitorPaths paths;
    if (!demo) { // the demo's simulated GPUs leave no figures behind
        paths.ledgerPath = LedgerStore::defaultPath();
        paths.slurmGuardFolder = rootRuntimeFolderPath();
        paths.pausePath = PauseStore::defaultPath();
    }
    MonitorHost monitor(path, [path, paths, acceptMissingConfig] {
        MonitorParts parts;
        parts.runner = makeWorkloadRunner();
        parts.monitor = std::make_unique<Monitor>(path, parts.runner.get(), SystemClock::instance(), paths);
        parts.monitor->setGpuBackend(std::make_unique<NvmlBackend>());
        if (acceptMissingConfig)
            parts.monitor->acceptMissingConfig();
        return parts;
    });
    // The tray's own monitor serves on the session bus (docs/dbus.md); not the demo's, which is no real monitor.
    std::unique_ptr<BusServiceHost> busService;
    if (!demo && qEnvironmentVariable("IDLEGPU_BUS") != QLatin1String("none")) {
        BusServiceHost::Options busOptions;
        busOptions.bus = BusServiceHost::Bus::Session;
        busOptions.configPath = path;
        busService = std::make_unique<BusServiceHost>(busOptions);
        QString detail;
        switch (busService->start(&detail)) {
        case BusServiceHost::Result::Published: busService->attach(&monitor); break;
        // Another idlegpu took the name since the tray looked for one at start: this one runs unpublished.
        case BusServiceHost::Result::NameTaken:
            qCInfo(lcTray, "another idlegpu is running: %s; this tray's monitor runs without the D-Bus service",
                   qPrintable(detail));
            busService.reset();
            break;
        case BusServiceHost::Result::NoBus: // a desktop without a session bus: nothing asks the tray there
            qCInfo(lcTray, "%s; the tray's monitor runs without the D-Bus service", qPrintable(detail));
            busService.reset();
            break;
        }
    }
    std::unique_ptr<RemoteMonitor> systemService; // the service the tray hands over to, when one starts later
    TrayApplication tray(&monitor, logPath);
    tray.controller()->setDemoMode(demo);
    QObject::connect(tray.controller(), &TrayController::simulateJobRequested, &monitor,
                     [&demoSetup](int gpu) { demoSetup.simulateJob(gpu); });

    // Quit: stop the workloads (they get their grace time), then leave; the host's thread ends after the event
    // loop, when the host goes.
    bool quitting = false;
    bool handingOver = false;
    const auto quit = [&monitor, &quitting, &serviceManager, &systemService] {
        quitting = true;
        serviceManager.stopping();
        if (systemService)
            QCoreApplication::quit(); // the own monitor stopped already
        else
            monitor.shutdown();
    };
    QObject::connect(tray.controller(), &TrayController::quitRequested, &monitor, quit);
    QObject::connect(&monitor, &MonitorHost::shutdownFinished, qApp, [&] {
        if (!handingOver || quitting) {
            QCoreApplication::quit();
            return;
        }
        // The workloads have stopped: from now on the tray shows the system service, and serves nothing itself.
        busService.reset();
        systemService = std::make_unique<RemoteMonitor>(QDBusConnection::systemBus());
        tray.setLink(systemService.get());
        systemService->start();
        qCInfo(lcTray, "the tray shows the idlegpu system service now");
    });

    // A system service that starts later decides for the whole machine: this tray's monitor stops its workloads and
    // the tray shows the service (never two monitors on one machine). Its owner must run as root, as at start.
    QDBusServiceWatcher systemServiceWatcher(BusNames::service, QDBusConnection::systemBus(),
                                             QDBusServiceWatcher::WatchForRegistration);
    ServiceFinder lateFinder(QDBusConnection::systemBus(), QDBusConnection::sessionBus());
    QObject::connect(&systemServiceWatcher, &QDBusServiceWatcher::serviceRegistered, &monitor, [&] {
        if (!demo && !offTheBus && !quitting && !handingOver)
            lateFinder.start(true);
    });
    QObject::connect(&lateFinder, &ServiceFinder::finished, &monitor, [&](ServiceFinder::Where where) {
        if (where != ServiceFinder::Where::System || quitting || handingOver)
            return;
        qCWarning(lcTray, "the idlegpu system service started: stopping this tray's monitor to show the service");
        handingOver = true;
        monitor.shutdown();
    });
    if (auto *signals_ = qApp->findChild<UnixSignalWatcher *>()) {
        QObject::connect(signals_, &UnixSignalWatcher::terminateRequested, &monitor, quit);
        QObject::connect(signals_, &UnixSignalWatcher::reloadRequested, &monitor, &MonitorHost::reloadConfig);
    }

    // A configuration that cannot be used does not end the tray: it shows the problem and starts the monitor
    // once the file is fixed (the monitor watches the file itself only after a good start).
    // Retried when a write of the file is whole (ConfigFileWatcher), never in the middle of one.
    ConfigFileWatcher configWatcher;
    bool firstStart = true;
    QObject::connect(&monitor, &MonitorHost::started, &monitor, [&](bool ok) {
        const bool first = std::exchange(firstStart, false);
        if (first) { // up, with a usable config or showing what is wrong with it
            serviceManager.ready(ok ? QStringLiteral("in the tray") : QStringLiteral("in the tray; the config has errors"));
            serviceManager.feedWatchdogFrom(monitor.monitorThreadContext());
        }
        if (ok) {
            if (first)
                qCInfo(lcMonitor, "idlegpu %s in the tray with %s (pid %lld)", IDLEGPU_VERSION, qPrintable(path),
                       QCoreApplication::applicationPid());
            else
                qCInfo(lcConfig, "%s is usable now; monitoring", qPrintable(path));
            configWatcher.disconnect(); // the monitor watches the file itself from now on
            return;
        }
        if (first) {
            tray.reportConfigProblems();
            configWatcher.watch(path);
        }
    });
    const auto retry = [&] {
        if (!quitting)
            monitor.start(); // ignored by a monitor that started meanwhile
    };
    QObject::connect(&configWatcher, &ConfigFileWatcher::changed, &monitor, retry);
    monitor.start();

    const std::unique_ptr<TrayHostWatcher> trayHost = watchForTray(tray);
    return QApplication::exec();
}
