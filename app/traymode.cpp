// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "config/runtimefolder.h"
#include "traymode.h"

#include "config/configstatefolder.h"

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
#include "bus/busnames.h"
#include "bus/remotemonitor.h"
#include "bus/servicefinder.h"
#include "status/statuswindow.h"
#include "tray/trayapplication.h"
#include "tray/traycontroller.h"
#include "tray/trayhostwatcher.h"
#include "tray/traylogging.h"
#include "unixsignals.h"
#include "run/containment.h"
#include "config/useraccount.h"

#include <QApplication>
#include <QDBusConnection>
#include <QDBusServiceWatcher>
#include <QElapsedTimer>
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

// The log goes to idlegpu.log in the config's state folder too ("Open log"; the demo's in its temporary folder).
// Started afresh when it grows past kMaxLogBytes.
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

// Opens `path` as the log; the folder is made by its owner (ConfigStateFolder::prepare, the demo).
void openLogFile(const QString &path)
{
    QString error;
    if (QFile *file = openTrustedLog(path, &error)) {
        g_logFile = file;
        g_previousHandler = qInstallMessageHandler(logToFile);
    } else {
        qCWarning(lcTray, "cannot write the log file %s: %s", qPrintable(path), qPrintable(error));
    }
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
    // The demo's private folder (0700, removed at its end): the only place it writes to.
    QString folder() const { return m_dir.path(); }

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

QDBusConnection busOf(ServiceFinder::Where where)
{
    return where == ServiceFinder::Where::System ? QDBusConnection::systemBus() : QDBusConnection::sessionBus();
}

// The tray as a client of the idlegpu service on `where`'s bus: no monitor of its own.
class ClientTray
{
public:
    ClientTray(ServiceFinder::Where where, const QString &logPath, const ServiceNotifier &serviceManager)
        : m_remote(busOf(where)), m_tray(&m_remote, logPath)
    {
        qCInfo(lcTray, "idlegpu %s in the tray, showing the idlegpu service on the %s bus (pid %lld)", IDLEGPU_VERSION,
               qPrintable(ServiceFinder::whereName(where)), QCoreApplication::applicationPid());
        const auto quit = [&serviceManager] {
            serviceManager.stopping();
            QCoreApplication::quit();
        };
        QObject::connect(m_tray.controller(), &TrayController::quitRequested, qApp, quit);
        if (auto *signals_ = qApp->findChild<UnixSignalWatcher *>())
            QObject::connect(signals_, &UnixSignalWatcher::terminateRequested, qApp, quit);
        m_remote.start();
        serviceManager.ready(QStringLiteral("in the tray, showing the idlegpu service"));
        serviceManager.feedWatchdogFrom(&m_remote);
        m_trayHost = watchForTray(m_tray);
    }

private:
    RemoteMonitor m_remote;
    TrayApplication m_tray;
    std::unique_ptr<TrayHostWatcher> m_trayHost;
};

// The tray with a monitor of its own, published on the session bus (not the demo's, which is no real monitor), that
// hands over to a system service that starts later. Made once the config's lock is this tray's.
class OwnMonitorTray
{
public:
    // `acceptMissingConfig`: a missing file at the default place means "not set up yet", not an error.
    // `stateFolder`: the config's (ConfigStateFolder), for its pause and ledger; empty: kept in memory only.
    OwnMonitorTray(const QString &path, bool demo, bool offTheBus, bool acceptMissingConfig, Demo *demoSetup,
                   const QString &stateFolder, std::unique_ptr<BusServiceHost> busService, const QString &logPath,
                   const ServiceNotifier &serviceManager)
        : m_path(path), m_serviceManager(serviceManager), m_busService(std::move(busService))
    {
        // The monitor and its runner live on the host's thread, made there; the tray only talks to the host. Without
        // a file at the default place idlegpu is not set up yet: the tray shows the GPUs and offers to set it up.
        MonitorPaths paths;
        if (!demo) { // the demo's simulated GPUs leave no figures, and its pause no trace, behind
            paths.slurmGuardFolder = rootRuntimeFolderPath();
            if (!stateFolder.isEmpty()) {
                paths.ledgerPath = LedgerStore::pathIn(stateFolder);
                paths.pausePath = PauseStore::pathIn(stateFolder);
            }
        }
        m_monitor = std::make_unique<MonitorHost>(path, [path, paths, acceptMissingConfig] {
            MonitorParts parts;
            parts.runner = makeWorkloadRunner();
            parts.monitor = std::make_unique<Monitor>(path, parts.runner.get(), SystemClock::instance(), paths);
            parts.monitor->setGpuBackend(std::make_unique<NvmlBackend>());
            if (acceptMissingConfig)
                parts.monitor->acceptMissingConfig();
            return parts;
        });
        MonitorHost &monitor = *m_monitor;
        if (m_busService)
            m_busService->attach(&monitor);
        m_tray = std::make_unique<TrayApplication>(&monitor, logPath);
        TrayApplication &tray = *m_tray;
        tray.controller()->setDemoMode(demo);
        QObject::connect(tray.controller(), &TrayController::simulateJobRequested, &monitor, [demoSetup](int gpu) {
            if (demoSetup)
                demoSetup->simulateJob(gpu);
        });

        // Quit: stop the workloads (they get their grace time), then leave; the host's thread ends after the event
        // loop, when the host goes.
        const auto quit = [this] {
            m_quitting = true;
            m_serviceManager.stopping();
            if (m_systemService)
                QCoreApplication::quit(); // the own monitor stopped already
            else
                m_monitor->shutdown();
        };
        QObject::connect(tray.controller(), &TrayController::quitRequested, &monitor, quit);
        QObject::connect(&monitor, &MonitorHost::shutdownFinished, qApp, [this] {
            if (!m_handingOver || m_quitting) {
                QCoreApplication::quit();
                return;
            }
            // The workloads have stopped: from now on the tray shows the system service, and serves nothing itself.
            m_busService.reset();
            m_systemService = std::make_unique<RemoteMonitor>(QDBusConnection::systemBus());
            m_tray->setLink(m_systemService.get());
            m_systemService->start();
            qCInfo(lcTray, "the tray shows the idlegpu system service now");
        });

        // A system service that starts later decides for the whole machine: this tray's monitor stops its workloads
        // and the tray shows the service (never two monitors on one machine). Its owner must run as root, as at start.
        if (!demo && !offTheBus) {
            m_systemServiceWatcher = std::make_unique<QDBusServiceWatcher>(
                BusNames::service, QDBusConnection::systemBus(), QDBusServiceWatcher::WatchForRegistration);
            m_lateFinder = std::make_unique<ServiceFinder>(QDBusConnection::systemBus(), QDBusConnection::sessionBus());
            QObject::connect(m_systemServiceWatcher.get(), &QDBusServiceWatcher::serviceRegistered, &monitor, [this] {
                if (!m_quitting && !m_handingOver)
                    m_lateFinder->start(true);
            });
            QObject::connect(
                m_lateFinder.get(), &ServiceFinder::finished, &monitor, [this](ServiceFinder::Where where) {
                    if (where != ServiceFinder::Where::System || m_quitting || m_handingOver)
                        return;
                    qCWarning(lcTray,
                              "the idlegpu system service started: stopping this tray's monitor to show the service");
                    m_handingOver = true;
                    m_monitor->shutdown();
                });
            // One look now that the watch is on: a system service that took its name after the tray looked at start
            // is not missed either.
            m_lateFinder->start(true);
        }
        if (auto *signals_ = qApp->findChild<UnixSignalWatcher *>()) {
            QObject::connect(signals_, &UnixSignalWatcher::terminateRequested, &monitor, quit);
            QObject::connect(signals_, &UnixSignalWatcher::reloadRequested, &monitor, &MonitorHost::reloadConfig);
        }

        // A configuration that cannot be used does not end the tray: it shows the problem and starts the monitor
        // once the file is fixed (the monitor watches the file itself only after a good start).
        // Retried when a write of the file is whole (ConfigFileWatcher), never in the middle of one.
        QObject::connect(&monitor, &MonitorHost::started, &monitor, [this](bool ok) {
            const bool first = std::exchange(m_firstStart, false);
            if (first) { // up, with a usable config or showing what is wrong with it
                m_serviceManager.ready(ok ? QStringLiteral("in the tray")
                                          : QStringLiteral("in the tray; the config has errors"));
                m_serviceManager.feedWatchdogFrom(m_monitor->monitorThreadContext());
            }
            if (ok) {
                if (first)
                    qCInfo(lcMonitor, "idlegpu %s in the tray with %s (pid %lld)", IDLEGPU_VERSION, qPrintable(m_path),
                           QCoreApplication::applicationPid());
                else
                    qCInfo(lcConfig, "%s is usable now; monitoring", qPrintable(m_path));
                m_configWatcher.disconnect(); // the monitor watches the file itself from now on
                return;
            }
            if (first) {
                m_tray->reportConfigProblems();
                m_configWatcher.watch(m_path);
            }
        });
        QObject::connect(&m_configWatcher, &ConfigFileWatcher::changed, &monitor, [this] {
            if (!m_quitting)
                m_monitor->start(); // ignored by a monitor that started meanwhile
        });
        monitor.start();
        m_trayHost = watchForTray(tray);
    }

private:
    QString m_path;
    const ServiceNotifier &m_serviceManager;
    std::unique_ptr<MonitorHost> m_monitor;
    std::unique_ptr<BusServiceHost> m_busService;
    std::unique_ptr<RemoteMonitor> m_systemService; // the service the tray hands over to, when one starts later
    std::unique_ptr<TrayApplication> m_tray;
    bool m_quitting = false;
    bool m_handingOver = false;
    std::unique_ptr<QDBusServiceWatcher> m_systemServiceWatcher;
    std::unique_ptr<ServiceFinder> m_lateFinder;
    ConfigFileWatcher m_configWatcher;
    bool m_firstStart = true;
    std::unique_ptr<TrayHostWatcher> m_trayHost;
};

// How the tray starts, in the application's own event loop: nothing waits in a loop of its own, and the tray's start
// goes on from each answer.
//   Finding     the ServiceFinder asks the system bus, then the session bus, then systemd (an enabled system unit that
//               is on its way is waited for, up to ServiceFinder::kUnitWaitMs); found: Client, else OwnMonitor.
//   Client      the tray shows that service through a RemoteMonitor; no monitor of its own.
//   OwnMonitor  the tray takes the config's lock and runs its own monitor, published on the session bus.
//   AskingOwner the lock is held, or the session bus's name taken, by another idlegpu: where that is this user's own
//               idlegpu publishing on the session bus (it answered the finder late, or had not published yet), the
//               tray becomes its client; else "already running".
// The demo and IDLEGPU_BUS=none go to OwnMonitor at once, as before: they neither look for a service nor serve.
class TrayStart : public QObject
{
public:
    enum class Phase { Idle, Finding, Client, OwnMonitor, AskingOwner, Ended };

    // How long a held lock waits for its holder's name on the session bus before "already running".
    static constexpr int kOwnerWaitMs = 3000;

    // `demoSetup`: the demo's, made and set up; null outside the demo. `stateFolder`: the config's, made (empty where
    // it could not be).
    TrayStart(const QString &configPath, std::unique_ptr<Demo> demoSetup, const QString &stateFolder,
              const QString &logPath, const ServiceNotifier &serviceManager)
        : m_configPath(configPath), m_demo(demoSetup != nullptr),
          m_offTheBus(qEnvironmentVariable("IDLEGPU_BUS") == QLatin1String("none")), m_logPath(logPath),
          m_stateFolder(stateFolder), m_serviceManager(serviceManager), m_demoSetup(std::move(demoSetup))
    {
        // Before the tray is up, an end asked for ends at once (the phases after this one handle it themselves).
        if (auto *signals_ = qApp->findChild<UnixSignalWatcher *>())
            QObject::connect(signals_, &UnixSignalWatcher::terminateRequested, this, [this] {
                if (m_phase == Phase::Finding || m_phase == Phase::AskingOwner)
                    finish(0);
            });
    }

    // Starts, from the event loop (call before QApplication::exec(): the first step is queued).
    void begin()
    {
        QMetaObject::invokeMethod(
            this,
            [this] {
                if (m_demo || m_offTheBus) {
                    startOwnMonitor();
                    return;
                }
                // One monitor per machine: where an idlegpu runs already (the system service, or this user's own), the
                // tray shows it instead of starting a second.
                m_phase = Phase::Finding;
                m_finder = std::make_unique<ServiceFinder>(QDBusConnection::systemBus(), QDBusConnection::sessionBus());
                m_finder->waitForSystemUnit();
                QObject::connect(m_finder.get(), &ServiceFinder::finished, this, &TrayStart::onFound);
                m_sinceStart.start();
                m_finder->start();
            },
            Qt::QueuedConnection);
    }

    Phase phase() const { return m_phase; }

private:
    void onFound(ServiceFinder::Where where)
    {
        if (m_phase == Phase::Ended)
            return;
        if (m_phase == Phase::Finding) {
            if (m_finder->waitedMs() >= 0)
                qCInfo(lcTray, "%s after waiting %lld ms for the idlegpu system service",
                       where == ServiceFinder::Where::None ? "no service" : "the service came", m_finder->waitedMs());
            if (where != ServiceFinder::Where::None)
                startClient(where);
            else
                startOwnMonitor();
            return;
        }
        // AskingOwner: the lock's holder, or the name's owner, is this user's idlegpu on the session bus.
        if (where == ServiceFinder::Where::Session) {
            qCInfo(lcTray, "this user's idlegpu answered on the session bus after %lld ms: showing it",
                   m_sinceStart.elapsed());
            startClient(where);
            return;
        }
        alreadyRunning();
    }

    void startClient(ServiceFinder::Where where)
    {
        m_phase = Phase::Client;
        m_instance.reset(); // the lock, where this tray took it before the name turned out taken
        m_client = std::make_unique<ClientTray>(where, m_logPath, m_serviceManager);
    }

    void startOwnMonitor()
    {
        m_phase = Phase::OwnMonitor;
        if (m_demo) {
            // The demo's config is new and its own: no lock (which would be a file in the runtime folder) is needed.
            m_path = m_demoSetup->configPath();
            runOwnMonitor(nullptr);
            return;
        }
        m_path = ConfigLoader::locate(m_configPath).path;

        m_instance = std::make_unique<SingleInstance>(m_path);
        if (!m_instance->acquire()) {
            if (!m_instance->error().isEmpty()) {
                qCCritical(lcTray, "%s", qPrintable(m_instance->error()));
                QMessageBox::critical(nullptr, TrayMode::tr("idlegpu"), m_instance->error());
                finish(1);
                return;
            }
            askOwner();
            return;
        }

        // The tray's own monitor serves on the session bus (docs/dbus.md); not the demo's, which is no real monitor.
        std::unique_ptr<BusServiceHost> busService;
        if (!m_demo && !m_offTheBus) {
            BusServiceHost::Options busOptions;
            busOptions.bus = BusServiceHost::Bus::Session;
            busOptions.configPath = m_path;
            busService = std::make_unique<BusServiceHost>(busOptions);
            QString detail;
            switch (busService->start(&detail)) {
            case BusServiceHost::Result::Published: break;
            // Another idlegpu took the name since the tray looked for one: where it is this user's own, the tray shows
            // it (never two monitors); else this tray's monitor runs unpublished.
            case BusServiceHost::Result::NameTaken:
                qCInfo(lcTray, "another idlegpu is running: %s", qPrintable(detail));
                m_nameTaken = true;
                askOwner();
                return;
            case BusServiceHost::Result::NoBus: // a desktop without a session bus: nothing asks the tray there
                qCInfo(lcTray, "%s; the tray's monitor runs without the D-Bus service", qPrintable(detail));
                busService.reset();
                break;
            }
        }
        runOwnMonitor(std::move(busService));
    }

    void runOwnMonitor(std::unique_ptr<BusServiceHost> busService)
    {
        m_phase = Phase::OwnMonitor;
        if (!m_demo) {
            // The workloads' containment (a cgroup of their own, or this process as their subreaper): set up only by a
            // tray that runs workloads, not by a client (the demo's is set up before runTray()).
            Containment::establish();
            Containment::reapAdoptedOrphansPeriodically(qApp);
        }
        m_own = std::make_unique<OwnMonitorTray>(m_path, m_demo, m_offTheBus, !m_demo && m_configPath.isEmpty(),
                                                 m_demoSetup.get(), m_stateFolder, std::move(busService), m_logPath,
                                                 m_serviceManager);
    }

    // The lock is held, or the name taken: ask the session bus whether this user's own idlegpu owns the name, waiting
    // a moment for one that is still starting.
    void askOwner()
    {
        m_phase = Phase::AskingOwner;
        if (m_offTheBus || m_demo) {
            alreadyRunning();
            return;
        }
        m_ownerFinder = std::make_unique<ServiceFinder>(QDBusConnection::systemBus(), QDBusConnection::sessionBus());
        QObject::connect(m_ownerFinder.get(), &ServiceFinder::finished, this, &TrayStart::onFound);
        m_ownerFinder->startSessionOnly(kOwnerWaitMs);
    }

    void alreadyRunning()
    {
        if (m_nameTaken) {
            // The name's owner is no idlegpu of this user's that answers: this tray's monitor runs unpublished.
            qCInfo(lcTray, "this tray's monitor runs without the D-Bus service");
            runOwnMonitor(nullptr);
            return;
        }
        const QString message =
            TrayMode::tr("idlegpu is already running for %1 (pid %2).").arg(m_path).arg(m_instance->ownerPid());
        QTextStream(stderr) << message << Qt::endl;
        QMessageBox::information(nullptr, TrayMode::tr("idlegpu"), message);
        finish(2);
    }

    void finish(int code)
    {
        m_phase = Phase::Ended;
        QCoreApplication::exit(code);
    }

    QString m_configPath;
    bool m_demo;
    bool m_offTheBus;
    QString m_logPath;
    QString m_stateFolder;
    const ServiceNotifier &m_serviceManager;
    Phase m_phase = Phase::Idle;
    QElapsedTimer m_sinceStart;
    QString m_path;                    // the config file the own monitor uses
    bool m_nameTaken = false;          // the own monitor's bus service found the name taken
    std::unique_ptr<Demo> m_demoSetup; // the demo's fake GPUs and config
    std::unique_ptr<SingleInstance> m_instance;
    std::unique_ptr<ServiceFinder> m_finder;
    std::unique_ptr<ServiceFinder> m_ownerFinder;
    std::unique_ptr<ClientTray> m_client;
    std::unique_ptr<OwnMonitorTray> m_own;
};

} // namespace

int runTray(const QString &configPath, bool demo, const ServiceNotifier &serviceManager)
{
    loadTranslations();
    QApplication::setQuitOnLastWindowClosed(false); // closing the status window does not stop the monitor
    // The demo writes into its temporary folder alone; anything else into its config's state folder.
    std::unique_ptr<Demo> demoSetup;
    QString stateFolder;
    QString logPath;
    if (demo) {
        demoSetup = std::make_unique<Demo>();
        if (!demoSetup->setUp()) {
            qCCritical(lcTray, "cannot create the demo's temporary folder");
            return 1;
        }
        logPath = demoSetup->folder() + QStringLiteral("/idlegpu.log");
    } else {
        const QString config = ConfigLoader::locate(configPath).path;
        const SecureFile::Opened opened = ConfigStateFolder::prepare(config);
        if (opened.ok())
            stateFolder = opened.path;
        else
            qCWarning(lcTray, "cannot keep the state of %s: %s; its pause and ledger are kept in memory only",
                      qPrintable(config), qPrintable(opened.error));
        logPath = ConfigStateFolder::pathFor(config) + QStringLiteral("/idlegpu.log");
    }
    if (demo || !stateFolder.isEmpty())
        openLogFile(logPath);
    TrayStart start(configPath, std::move(demoSetup), stateFolder, logPath, serviceManager);
    start.begin();
    return QApplication::exec();
}
