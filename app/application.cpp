// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "application.h"

#include "base/duration.h"
#include "base/nearestword.h"
#include "bus/busnames.h"
#include "clientcommands.h"

#include "config/config.h"
#include "config/configstatefolder.h"
#include "config/runtimefolder.h"
#include "config/workloadchecks.h"
#include "ledger/ledgerstore.h"
#include "base/logging.h"
#include "monitor.h"
#include "busservicehost.h"
#include "bus/busnames.h"
#include "pausestore.h"
#include "backends/nvmlbackend.h"
#include "run/containment.h"
#include "slurm/runnerrouter.h"
#include "servicenotifier.h"
#include "singleinstance.h"
#include "slurmguard.h"
#include "slurm/slurmcommands.h"
#include "devices/devicescanner.h"
#include "statusreport.h"
#include "unixsignals.h"

#include "settings/settingsdialog.h"
#include "tray/trayiconrenderer.h"
#include "traymode.h"

#include <QApplication>
#include <QIcon>
#include <QCommandLineParser>
#include <QCoreApplication>
#include <QFileInfo>
#include <QJsonDocument>
#include <QSet>
#include <QTextStream>
#include <QThread>

#include <cstdio>
#include <memory>
#include <optional>

#include <sys/stat.h>
#include <unistd.h>

namespace {

// The context "idlegpu" of translations/*.ts; lupdate finds the strings through Cli::tr() and QT_TRANSLATE_NOOP.
struct Cli
{
    Q_DECLARE_TR_FUNCTIONS(idlegpu)
};

struct Options
{
    bool json = false;
    QString configPath; // as given with --config; empty: the default location
    QString workload;   // --pause's and --resume's WORKLOAD; empty: every workload
    std::optional<qint64> pauseSeconds; // --for; nothing: until resumed
};

void printErr(const QString &text)
{
    QTextStream(stderr) << text << Qt::endl;
}

void printOut(const QString &text)
{
    QTextStream out(stdout);
    out << text;
    out.flush();
}

// Whether stderr is a stream to the journal: JOURNAL_STREAM names its device and inode (systemd.exec(5)), and a
// child that inherited the variable with another stderr does not match.
bool stderrIsJournal()
{
    const QByteArray stream = qgetenv("JOURNAL_STREAM");
    const qsizetype colon = stream.indexOf(':');
    bool deviceOk = false;
    bool inodeOk = false;
    const qulonglong device = stream.left(colon).toULongLong(&deviceOk);
    const qulonglong inode = stream.mid(colon + 1).toULongLong(&inodeOk);
    struct stat st; // filled by fstat() below, read only when it succeeds
    return colon > 0 && deviceOk && inodeOk && ::fstat(STDERR_FILENO, &st) == 0 && qulonglong(st.st_dev) == device
           && qulonglong(st.st_ino) == inode;
}

// Under systemd each line starts with its syslog priority ("<4>" for a warning), which journald takes as the line's
// priority and strips (SyslogLevelPrefix=, on by default): `journalctl -p warning` shows the warnings and nothing
// else. Debian's Qt is built without its own journald backend, so Qt's default handler logs every line at "info".
void logToJournalStream(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    const char *priority = "<6>";
    switch (type) {
    case QtDebugMsg: priority = "<7>"; break;
    case QtInfoMsg: priority = "<6>"; break;
    case QtWarningMsg: priority = "<4>"; break;
    case QtCriticalMsg: priority = "<3>"; break;
    case QtFatalMsg: priority = "<2>"; break;
    }
    QByteArray text = qFormatLogMessage(type, context, message).toLocal8Bit();
    text.replace('\n', QByteArray("\n") + priority); // journald reads each line alone
    const QByteArray line = priority + text + '\n';
    std::fwrite(line.constData(), 1, size_t(line.size()), stderr);
    std::fflush(stderr);
}

// Timestamps for supervisord and terminals; journald adds its own but they do no harm. QT_MESSAGE_PATTERN
// in the environment overrides it.
void setUpLogging()
{
    qSetMessagePattern(QStringLiteral("%{time yyyy-MM-dd hh:mm:ss.zzz} "
                                      "%{if-warning}warning: %{endif}%{if-critical}error: %{endif}"
                                      "%{category}: %{message}"));
    if (stderrIsJournal())
        qInstallMessageHandler(logToJournalStream);
}

// The default file does not exist (neither does gpu_mon's): idlegpu is not set up yet. A file given with --config
// that does not exist is an error as any other unreadable file.
bool notSetUp(const Options &options, const ConfigLoader::Location &location)
{
    return options.configPath.isEmpty() && !QFileInfo::exists(location.path);
}

int checkConfig(const Options &options)
{
    const ConfigLoader::Location location = ConfigLoader::locate(options.configPath);
    if (notSetUp(options, location)) {
        const QString configHome = QFileInfo(QFileInfo(location.path).absolutePath()).absolutePath();
        printErr(Cli::tr("No configuration file: %1 does not exist, nor does gpu_mon's %2.")
                     .arg(location.path, configHome + QStringLiteral("/gpu_mon.conf")));
        printErr(StatusReport::howToSetUp(location.path).trimmed());
        return 1;
    }
    const UserLookup users = UserLookup::system();
    // Read once and kept: the workload checks name the lines of the keys. A file that cannot be read is left to
    // load(), which says why.
    IniDocument document;
    QString unread; // load() says it in its own words
    const std::optional<QByteArray> contents = readIniFile(location.path, &unread);
    if (contents)
        document = IniDocument::parse(*contents);
    const ConfigLoadResult result = contents ? ConfigLoader::read(document, location.path, users)
                                             : ConfigLoader::load(location.path, users);
    // The file's problems, then what this machine says of each workload: the settings dialog's verdict (WorkloadChecks).
    QList<ConfigDiagnostic> problems = result.diagnostics;
    QSet<QString> failing; // the workloads that would not start
    for (const ConfigDiagnostic &refused : result.refusedWorkloads())
        failing.insert(refused.refusedWorkload);
    for (const WorkloadConfig &workload : result.config.workloads) {
        for (const WorkloadProblem &problem : WorkloadChecks::machineProblems(workload, users, &document)) {
            problems.append(problem.diagnostic(location.path));
            if (problem.severity == ConfigDiagnostic::Error)
                failing.insert(workload.id);
        }
    }
    sortProblemsByLine(&problems);
    for (const ConfigDiagnostic &problem : std::as_const(problems))
        printErr(problem.toString());
    if (!result.ok()) {
        printErr(Cli::tr("%1: the configuration has errors and would not be used.").arg(location.path));
        return 1;
    }
    if (location.usedLegacy)
        printOut(Cli::tr("Using gpu_mon's configuration file (no idlegpu.conf exists).") + QLatin1Char('\n'));
    printOut(StatusReport::formatConfig(result.config));
    if (!failing.isEmpty()) {
        // English has two forms, "one workload" and "%n workloads"; a translation gives each language its own.
        printErr((failing.size() == 1 ? Cli::tr("%1: one workload would not start (see the errors above); the rest of "
                                                "the configuration would be used.")
                                      : Cli::tr("%1: %n workloads would not start (see the errors above); the rest of "
                                                "the configuration would be used.",
                                                nullptr, int(failing.size())))
                     .arg(location.path));
        return 1;
    }
    return 0;
}

// --print-slurm-conf: the slurm.conf and gres.conf lines for the GPUs found under device_root, with [slurm]'s node,
// partition and gres_type (or their defaults, without a config file).
int printSlurmConf(const Options &options)
{
    const ConfigLoader::Location location = ConfigLoader::locate(options.configPath);
    ConfigLoadResult result = ConfigLoader::parse(QByteArray(), location.path); // the defaults, the host name as node
    if (!notSetUp(options, location))
        result = ConfigLoader::load(location.path);
    for (const ConfigDiagnostic &problem : result.diagnostics)
        printErr(problem.toString());
    if (!result.ok()) {
        printErr(Cli::tr("%1: the configuration has errors; run idlegpu --check-config.").arg(location.path));
        return 1;
    }
    const DeviceNodes devices = scanDevices(result.config.deviceRoot);
    printOut(Slurm::slurmConfText(result.config.slurm, devices.gpus, QThread::idealThreadCount()));
    return devices.gpus.isEmpty() ? 1 : 0;
}

// The running service's state where one answers (idlegpu.service on the system bus, then the user's own on the session
// bus), else a look of its own; --config names a file of its own, so it always looks for itself.
int printStatus(const Options &options)
{
    if (options.configPath.isEmpty()) {
        QStringList notes;
        const std::optional<ClientCommands::ServiceState> answer = ClientCommands::askState(&notes);
        for (const QString &note : std::as_const(notes))
            printErr(note);
        if (answer) {
            if (options.json) {
                QJsonObject object = answer->state;
                object.insert(QStringLiteral("source"), ClientCommands::sourceName(answer->source));
                printOut(QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented)));
            } else {
                printOut(ClientCommands::formatText(*answer));
            }
            return 0;
        }
    }
    const ConfigLoader::Location location = ConfigLoader::locate(options.configPath);
    const bool setUp = !notSetUp(options, location);
    // Not set up yet: the GPUs and their holders all the same, with no workloads and how to add one.
    ConfigLoadResult result;
    result.config.filePath = location.path;
    if (setUp)
        result = ConfigLoader::load(location.path);
    for (const ConfigDiagnostic &problem : result.diagnostics)
        printErr(problem.toString());
    // A file with errors is not used, so no workload runs; the GPUs and their holders are shown all the same, with
    // what the file says of the device root and the ignore lists where those lines read.
    Config config = result.config;
    if (!result.ok()) {
        printErr(Cli::tr("%1: the configuration has errors, so no workload would run; run idlegpu --check-config.")
                     .arg(location.path));
        config.workloads.clear();
    }
    MonitorPaths paths;
    paths.ledgerPath = LedgerStore::pathIn(ConfigStateFolder::pathFor(location.path)); // this config's history only
    MonitorState state = Monitor::lookOnce(config, paths, std::make_unique<NvmlBackend>());
    state.notSetUp = !setUp;
    state.configProblems = result.diagnostics;
    if (options.json) {
        QJsonObject object = StatusReport::toJson(state);
        object.insert(QStringLiteral("source"), QStringLiteral("local"));
        printOut(QString::fromUtf8(QJsonDocument(object).toJson(QJsonDocument::Indented)));
    } else {
        printOut(ClientCommands::localSourceLine(!options.configPath.isEmpty()) + QLatin1Char('\n')
                 + StatusReport::formatText(state));
    }
    return result.ok() ? 0 : 1;
}

// The settings dialog on its own, for a monitor running headless (or not at all): a running idlegpu applies
// the saved file through its own watch on it.
int runSettings(const Options &options)
{
    const ConfigLoader::Location location = ConfigLoader::locate(options.configPath);
    SettingsDialog dialog(location.path);
    const ConfigLoadResult result = ConfigLoader::load(location.path);
    Config config = result.config;
    if (!result.ok())
        config = Config(); // the dialog shows the file's problems itself; GPUs are looked for under /dev
    dialog.setMonitorState(Monitor::lookOnce(config));
    dialog.show();
    QObject::connect(&dialog, &QDialog::finished, qApp, [] { QCoreApplication::quit(); });
    return QCoreApplication::exec();
}

// One line for `systemctl status`: the GPUs by state, and what holds every workload back.
QString serviceStatus(const MonitorState &state)
{
    int running = 0, busy = 0, waiting = 0, idle = 0;
    for (const GpuStatus &gpu : state.decision.gpus) {
        switch (gpu.state) {
        case GpuState::RunningWorkload: ++running; break;
        case GpuState::Busy: ++busy; break;
        case GpuState::Waiting: ++waiting; break;
        case GpuState::Idle: ++idle; break;
        }
    }
    const qsizetype gpus = state.decision.gpus.size();
    QString line = QStringLiteral("%1 %2: %3 running a workload, %4 busy, %5 waiting, %6 idle")
                       .arg(gpus)
                       .arg(gpus == 1 ? QStringLiteral("GPU") : QStringLiteral("GPUs"))
                       .arg(running)
                       .arg(busy)
                       .arg(waiting)
                       .arg(idle);
    if (!state.decision.holdText.isEmpty())
        line += QStringLiteral("; ") + state.decision.holdText;
    return line;
}

int runHeadless(const Options &options, UnixSignalWatcher *signalWatcher, const ServiceNotifier &serviceManager)
{
    const ConfigLoader::Location location = ConfigLoader::locate(options.configPath);
    if (notSetUp(options, location)) {
        // Headless, nobody would see a set-up state: say what to do, and fail so that a service manager shows it.
        printErr(Cli::tr("idlegpu is not set up yet: %1 does not exist.").arg(location.path));
        printErr(StatusReport::howToSetUp(location.path).trimmed());
        return 1;
    }
    SingleInstance instance(location.path);
    if (!instance.acquire()) {
        if (!instance.error().isEmpty()) {
            qCCritical(lcMonitor, "%s", qPrintable(instance.error()));
            return 1;
        }
        printErr(Cli::tr("idlegpu is already running for %1 (pid %2); not starting a second one.")
                     .arg(location.path)
                     .arg(instance.ownerPid()));
        return 2;
    }

    const std::unique_ptr<RunnerRouter> runner = makeWorkloadRunner();
    MonitorPaths paths;
    paths.slurmGuardFolder = rootRuntimeFolderPath();
    // The pause and the ledger are this config's (ConfigStateFolder): another config's idlegpu keeps its own.
    if (const SecureFile::Opened stateFolder = ConfigStateFolder::prepare(location.path); stateFolder.ok()) {
        paths.ledgerPath = LedgerStore::pathIn(stateFolder.path);
        paths.pausePath = PauseStore::pathIn(stateFolder.path);
    } else {
        qCWarning(lcMonitor, "cannot keep the state of %s: %s; its pause and ledger are kept in memory only",
                  qPrintable(location.path), qPrintable(stateFolder.error));
    }
    Monitor monitor(location.path, runner.get(), SystemClock::instance(), paths);
    monitor.setGpuBackend(std::make_unique<NvmlBackend>());
    // The D-Bus service (docs/dbus.md): root's on the system bus, another user's on the session bus. Its name is the
    // machine's one monitor: taken by another idlegpu, this one does not start a second. Without a bus (none, or one
    // whose policy refuses the name) idlegpu runs all the same, unseen by the trays and the command line.
    std::unique_ptr<BusServiceHost> busService;
    if (const std::optional<BusServiceHost::Bus> bus = BusServiceHost::busOfProcess()) {
        BusServiceHost::Options busOptions;
        busOptions.bus = *bus;
        busOptions.usePolkit = *bus == BusServiceHost::Bus::System;
        busOptions.configPath = location.path;
        busService = std::make_unique<BusServiceHost>(busOptions);
        QString detail;
        switch (busService->start(&detail)) {
        case BusServiceHost::Result::Published: break;
        case BusServiceHost::Result::NameTaken:
            printErr(Cli::tr("idlegpu is already running: %1; not starting a second one.").arg(detail));
            return 2;
        case BusServiceHost::Result::NoBus:
            qCWarning(lcMonitor,
                      "%s; running without the D-Bus service (trays and idlegpu --status cannot see this "
                      "idlegpu)",
                      qPrintable(detail));
            busService.reset();
            break;
        }
    }
    if (!monitor.start()) {
        for (const ConfigDiagnostic &problem : monitor.state().configProblems)
            printErr(problem.toString());
        printErr(Cli::tr("%1: cannot start with this configuration.").arg(location.path));
        return 1;
    }
    qCInfo(lcMonitor, "idlegpu %s monitoring with %s (pid %lld)", IDLEGPU_VERSION, qPrintable(location.path),
           QCoreApplication::applicationPid());
    if (busService) {
        busService->attach(&monitor);
        qCInfo(lcMonitor, "serving %s on the %s", BusNames::service.data(),
               qPrintable(BusServiceHost::busName(*BusServiceHost::busOfProcess())));
    }
    // Ready: the config is loaded and the first scan done (start() did both). The watchdog is fed from the monitor's
    // thread, here the main one.
    QString status = serviceStatus(monitor.state());
    serviceManager.ready(status);
    serviceManager.feedWatchdogFrom(&monitor);
    QObject::connect(&monitor, &Monitor::stateChanged, &monitor, [&] {
        if (QString now = serviceStatus(monitor.state()); now != status) {
            status = std::move(now);
            serviceManager.setStatus(status);
        }
    });

    QObject::connect(signalWatcher, &UnixSignalWatcher::terminateRequested, &monitor,
                     [&monitor, &serviceManager](int signal) {
        qCInfo(lcMonitor, "signal %d: stopping workloads, then exiting", signal);
        serviceManager.stopping();
        monitor.shutdown();
    });
    QObject::connect(signalWatcher, &UnixSignalWatcher::reloadRequested, &monitor, [&monitor] {
        qCInfo(lcConfig, "SIGHUP: reloading the configuration");
        monitor.reloadConfig();
    });
    QObject::connect(&monitor, &Monitor::shutdownFinished, qApp, [] { QCoreApplication::exit(0); });
    return QCoreApplication::exec();
}

// "--a, --b and --c"
QString listOfOptions(QStringList names)
{
    for (QString &name : names)
        name.prepend(QLatin1String("--"));
    const QString last = names.takeLast();
    return names.isEmpty() ? last : Cli::tr("%1 and %2").arg(names.join(Cli::tr(", ")), last);
}

// What a mode runs with.
struct ModeContext
{
    const Options &options;
    UnixSignalWatcher *signalWatcher;
    const ServiceNotifier &serviceManager;
};

// One option of the command line: a mode, or an option that a mode reads.
struct CommandLineOption
{
    enum class Kind {
        Setting, // read by the modes (--config, --json)
        OneShot, // a mode that does its work and exits, and runs no workload
        Monitor, // a mode that runs the monitor and its workloads
        Desktop, // a mode that needs a display
    };
    const char *name;
    const char *shortName; // nullptr: none
    const char *help;      // for Cli::tr()
    const char *valueName; // for Cli::tr(); nullptr: the option takes no value
    Kind kind;
    int (*run)(const ModeContext &); // a mode's; nullptr for a setting
};
using Kind = CommandLineOption::Kind;

// The command line, in the order --help lists it. Without a mode idlegpu runs in the tray, or headless without a
// display.
constexpr CommandLineOption kCommandLine[] = {
    {"headless", nullptr,
     QT_TRANSLATE_NOOP("idlegpu", "Run the monitor without a tray icon, logging to stderr (for systemd or "
                                  "supervisord)."),
     nullptr, Kind::Monitor,
     [](const ModeContext &mode) { return runHeadless(mode.options, mode.signalWatcher, mode.serviceManager); }},
    {"status", nullptr,
     QT_TRANSLATE_NOOP("idlegpu", "Print each GPU, who holds it and what runs, as the running idlegpu service sees it "
                                  "(the system bus's, else the session bus's), or as a look of its own finds it where "
                                  "none answers; then exit."),
     nullptr, Kind::OneShot, [](const ModeContext &mode) { return printStatus(mode.options); }},
    {"json", nullptr, QT_TRANSLATE_NOOP("idlegpu", "With --status: print JSON."), nullptr, Kind::Setting, nullptr},
    {"pause", nullptr,
     QT_TRANSLATE_NOOP("idlegpu", "Ask the running idlegpu service to pause every workload, or the workload WORKLOAD "
                                  "(its id, process-miner, or its name, miner); until resumed, or for --for's "
                                  "DURATION. polkit decides who may."),
     nullptr, Kind::OneShot,
     [](const ModeContext &mode) { return ClientCommands::pause(mode.options.workload, mode.options.pauseSeconds); }},
    {"for", nullptr,
     QT_TRANSLATE_NOOP("idlegpu", "With --pause: for how long: 90s, 30m, 1h, 2h30m, 1d (at most 30 days)."),
     QT_TRANSLATE_NOOP("idlegpu", "DURATION"), Kind::Setting, nullptr},
    {"resume", nullptr,
     QT_TRANSLATE_NOOP("idlegpu", "Ask the running idlegpu service to resume every workload (ending every pause), or "
                                  "the workload WORKLOAD."),
     nullptr, Kind::OneShot, [](const ModeContext &mode) { return ClientCommands::resume(mode.options.workload); }},
    {"check-config", nullptr,
     QT_TRANSLATE_NOOP("idlegpu", "Check the configuration file: print it as understood and exit 0, or print every "
                                  "problem as FILE:LINE: message and exit 1."),
     nullptr, Kind::OneShot, [](const ModeContext &mode) { return checkConfig(mode.options); }},
    {"demo", nullptr,
     QT_TRANSLATE_NOOP("idlegpu", "Show the tray with two simulated GPUs and a harmless workload, to see preemption "
                                  "without an NVIDIA card. Leaves nothing behind."),
     nullptr, Kind::Desktop,
     [](const ModeContext &mode) { return runTray(mode.options.configPath, true, mode.serviceManager); }},
    {"settings", nullptr,
     QT_TRANSLATE_NOOP("idlegpu", "Open the settings dialog on the configuration file (a running idlegpu applies what "
                                  "you save at once)."),
     nullptr, Kind::Desktop, [](const ModeContext &mode) { return runSettings(mode.options); }},
    {"config", "c",
     QT_TRANSLATE_NOOP("idlegpu", "Use FILE instead of ~/.config/idlegpu/idlegpu.conf (or gpu_mon's "
                                  "~/.config/gpu_mon.conf)."),
     QT_TRANSLATE_NOOP("idlegpu", "FILE"), Kind::Setting, nullptr},
    {"print-slurm-conf", nullptr,
     QT_TRANSLATE_NOOP("idlegpu", "Print the lines of slurm.conf and gres.conf that lend this computer's GPUs to a "
                                  "Slurm queue ([slurm] in the configuration), for the cluster's admin to paste; then "
                                  "exit."),
     nullptr, Kind::OneShot, [](const ModeContext &mode) { return printSlurmConf(mode.options); }},
    {"slurm-prolog", nullptr,
     QT_TRANSLATE_NOOP("idlegpu", "Slurm's Prolog (also as the link idlegpu-slurm-prolog): exit 0 to let the job run, "
                                  "or to send it back to the queue while idlegpu holds one of its GPUs or a process "
                                  "idlegpu did not count uses one; drain the node and exit 1 while idlegpu is not "
                                  "running."),
     nullptr, Kind::OneShot, [](const ModeContext &) { return runSlurmGuard(SlurmGuardMode::Prolog); }},
    {"slurm-health", nullptr,
     QT_TRANSLATE_NOOP("idlegpu", "Slurm's HealthCheckProgram (also as the link idlegpu-slurm-health): drain the node "
                                  "while idlegpu is not running; exit 0."),
     nullptr, Kind::OneShot, [](const ModeContext &) { return runSlurmGuard(SlurmGuardMode::Health); }},
};

const CommandLineOption &commandLineOption(const char *name)
{
    for (const CommandLineOption &option : kCommandLine)
        if (qstrcmp(option.name, name) == 0)
            return option;
    Q_UNREACHABLE();
}

// The names of the modes that need a desktop, or of those that run anywhere.
QStringList modeNames(bool desktop)
{
    QStringList names;
    for (const CommandLineOption &option : kCommandLine)
        if (option.kind != Kind::Setting && (option.kind == Kind::Desktop) == desktop)
            names.append(QLatin1String(option.name));
    return names;
}

// The name the usage texts give, whatever path idlegpu was started by.
const QString kProgramName = QStringLiteral("idlegpu");

// GNU's words for a command line that does not parse: "idlegpu: unrecognized option '--stauts'", and the nearest
// option where one is close ("Did you mean '--status'?").
QString optionError(const QCommandLineParser &parser, const QStringList &arguments)
{
    const QStringList unknown = parser.unknownOptionNames();
    if (unknown.isEmpty()) {
        // An option that takes a value, last with none after it: --config, -c, --for.
        const QString last = arguments.size() > 1 ? arguments.last() : QString();
        for (const CommandLineOption &option : kCommandLine)
            if (option.valueName
                && (last == QLatin1String("--") + QLatin1String(option.name)
                    || (option.shortName && last == QLatin1Char('-') + QLatin1String(option.shortName))))
                return Cli::tr("%1: option '%2' requires an argument").arg(kProgramName, last);
        return QStringLiteral("%1: %2").arg(kProgramName, parser.errorText());
    }
    const QString name = unknown.first();
    // A long option's name, as typed (--stauts, or --stauts=x), or a letter of -x or of -abc.
    bool isLong = name.size() > 1;
    for (const QString &argument : arguments.mid(1)) {
        if (argument == QLatin1String("--"))
            break;
        if (argument == QLatin1String("--") + name
            || argument.startsWith(QLatin1String("--") + name + QLatin1Char('=')))
            isLong = true;
    }
    if (!isLong)
        return Cli::tr("%1: invalid option -- '%2'").arg(kProgramName, name);
    QString text = Cli::tr("%1: unrecognized option '--%2'").arg(kProgramName, name);
    QStringList known;
    for (const CommandLineOption &option : kCommandLine)
        known.append(QLatin1String(option.name));
    known += {QStringLiteral("help"), QStringLiteral("version")};
    if (const QString nearest = nearestWord(name, known); !nearest.isEmpty())
        text += QLatin1Char('\n') + Cli::tr("Did you mean '--%1'?").arg(nearest);
    return text;
}

// Qt's help text, with "idlegpu" for the path idlegpu was started by in its usage line.
QString helpText(const QCommandLineParser &parser)
{
    QString text = parser.helpText();
    const qsizetype endOfUsage = text.indexOf(QLatin1Char('\n'));
    const QString started = QCoreApplication::arguments().value(0);
    if (const qsizetype at = started.isEmpty() ? -1 : text.indexOf(started); at >= 0 && at < endOfUsage)
        text.replace(at, started.size(), kProgramName);
    return text;
}

} // namespace

// Tray mode needs a display. Without one (a server, supervisord without --headless) idlegpu runs headless
// instead of failing, as gpu_mon did under supervisord. The modes that need none, and --help and --version, ask for
// no display.
static bool wantsTray(int argc, char **argv)
{
    static const QList<QByteArray> qtOwn{"--help", "-h", "--version", "-v"};
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg = argv[i];
        if (qtOwn.contains(arg))
            return false;
        for (const CommandLineOption &option : kCommandLine)
            if ((option.kind == Kind::OneShot || option.kind == Kind::Monitor) && arg.startsWith("--")
                && arg.mid(2) == option.name)
                return false;
    }
    return true;
}

static bool hasDisplay()
{
    return !qEnvironmentVariableIsEmpty("DISPLAY") || !qEnvironmentVariableIsEmpty("WAYLAND_DISPLAY")
           || !qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM");
}

int runIdlegpu(int argc, char **argv)
{
    // Slurm's Prolog and HealthCheckProgram, run through their links without arguments: first, since the prolog
    // decides whether a job starts and must do so in milliseconds.
    if (const SlurmGuardMode mode = slurmGuardModeOfProgram(argc > 0 ? argv[0] : nullptr);
        mode != SlurmGuardMode::None) {
        const QCoreApplication app(argc, argv);
        return runSlurmGuard(mode);
    }
    // Before any thread exists, so that every thread leaves SIGTERM/SIGINT/SIGHUP to the signalfd.
    UnixSignalWatcher::blockHandledSignals();
    // Before any child exists: what a killed idlegpu-reaper leaves is re-parented to idlegpu, which sweeps it.
    Containment::becomeSubreaper();
    setUpLogging();
    // Before any thread too: it rids the environment of systemd's variables, which no workload may inherit.
    const ServiceNotifier serviceManager = ServiceNotifier::fromEnvironment();
    if (serviceManager.active())
        qCInfo(lcMonitor, "systemd: %s", qPrintable(serviceManager.describe()));
    else
        qCDebug(lcMonitor, "systemd: %s", qPrintable(serviceManager.describe()));
    const bool tray = wantsTray(argc, argv) && hasDisplay();
    std::unique_ptr<QCoreApplication> app = tray ? std::make_unique<QApplication>(argc, argv)
                                                 : std::make_unique<QCoreApplication>(argc, argv);
    QCoreApplication::setApplicationName(QStringLiteral("idlegpu"));
    QCoreApplication::setApplicationVersion(QStringLiteral(IDLEGPU_VERSION));
    if (tray) {
        // Every window carries the app's icon (KWin shows a generic X otherwise); on Wayland the compositor finds the
        // .desktop file by this name.
        QGuiApplication::setDesktopFileName(QStringLiteral("idlegpu"));
        // Drawn, not from the icon theme: a theme engine may answer for "idlegpu" with an icon that draws nothing
        // (Plasma's, where the package's SVG is not installed), and the window then has none.
        QApplication::setWindowIcon(TrayIconRenderer::icon(OverallState::Idle));
    }
    auto *signalWatcher = new UnixSignalWatcher(app.get());

    QCommandLineParser parser;
    parser.setApplicationDescription(
        Cli::tr("Runs idle workloads (a miner, BOINC, any batch job) on GPUs that nobody else uses, and stops them "
                "the moment another program opens the GPU. Without a mode option it runs in the system tray."));
    parser.addPositionalArgument(QStringLiteral("WORKLOAD"),
                                 Cli::tr("With --pause or --resume: the workload to pause or resume (all without)."),
                                 QStringLiteral("[WORKLOAD]"));
    for (const CommandLineOption &option : kCommandLine) {
        QStringList names{QLatin1String(option.name)};
        if (option.shortName)
            names.prepend(QLatin1String(option.shortName));
        parser.addOption(option.valueName ? QCommandLineOption(names, Cli::tr(option.help), Cli::tr(option.valueName))
                                          : QCommandLineOption(names, Cli::tr(option.help)));
    }
    // Ours rather than Qt's (addHelpOption() lists Qt's --help-all first; its usage line shows the path idlegpu was
    // started by), last as GNU programs list them.
    const QCommandLineOption helpOption({QStringLiteral("h"), QStringLiteral("help")},
                                        Cli::tr("Print this help and exit."));
    const QCommandLineOption versionOption({QStringLiteral("v"), QStringLiteral("version")},
                                           Cli::tr("Print the version and exit."));
    parser.addOption(helpOption);
    parser.addOption(versionOption);
    if (!parser.parse(QCoreApplication::arguments())) {
        printErr(optionError(parser, QCoreApplication::arguments()));
        printErr(Cli::tr("Try '%1 --help' for more information.").arg(kProgramName));
        return 2;
    }
    if (parser.isSet(helpOption)) {
        printOut(helpText(parser));
        return 0;
    }
    if (parser.isSet(versionOption)) {
        printOut(QStringLiteral("%1 %2\n").arg(kProgramName, QCoreApplication::applicationVersion()));
        return 0;
    }

    Options options;
    options.configPath = parser.value(QStringLiteral("config"));
    options.json = parser.isSet(QStringLiteral("json"));
    const CommandLineOption *mode = nullptr;
    for (const CommandLineOption &option : kCommandLine) {
        if (option.kind == Kind::Setting || !parser.isSet(QLatin1String(option.name)))
            continue;
        if (mode) {
            printErr(Cli::tr("Choose one of %1.").arg(listOfOptions(modeNames(false) + modeNames(true))));
            return 2;
        }
        mode = &option;
    }
    if (options.json && mode != &commandLineOption("status")) {
        printErr(Cli::tr("--json goes with --status."));
        return 2;
    }
    const bool acts = mode == &commandLineOption("pause") || mode == &commandLineOption("resume");
    if (const QStringList words = parser.positionalArguments(); words.size() > (acts ? 1 : 0)) {
        printErr(acts ? Cli::tr("Name one workload, or none for all: %1.").arg(words.join(QLatin1Char(' ')))
                      : Cli::tr("Unexpected argument: %1 (only --pause and --resume take a workload).")
                            .arg(words.join(QLatin1Char(' '))));
        return 2;
    } else if (acts && !words.isEmpty()) {
        options.workload = words.first();
        if (options.workload.toUtf8().size() > BusNames::Limit::workloadIdBytes) {
            printErr(Cli::tr("A workload's id or name has at most %1 bytes.").arg(BusNames::Limit::workloadIdBytes));
            return 2;
        }
    }
    if (acts && !options.configPath.isEmpty()) {
        printErr(Cli::tr("--pause and --resume act on the running idlegpu service, which has its own configuration: "
                         "leave out --config."));
        return 2;
    }
    if (parser.isSet(QStringLiteral("for"))) {
        if (mode != &commandLineOption("pause")) {
            printErr(Cli::tr("--for goes with --pause."));
            return 2;
        }
        QString error;
        options.pauseSeconds = parseDuration(parser.value(QStringLiteral("for")), &error);
        if (!options.pauseSeconds) {
            printErr(error);
            return 2;
        }
        if (quint64(*options.pauseSeconds) > BusNames::Limit::pauseSeconds) {
            printErr(
                Cli::tr("--for %1: a pause lasts at most 30 days (30d).").arg(parser.value(QStringLiteral("for"))));
            return 2;
        }
    }
    const ModeContext context{options, signalWatcher, serviceManager};
    if (mode && mode->kind == Kind::OneShot)
        return mode->run(context);
    // The tray sets up the workloads' containment itself, once it knows it runs a monitor of its own (not as a client
    // of the idlegpu service).
    if (!mode && tray)
        return runTray(options.configPath, false, serviceManager);
    Containment::establish(); // the modes below run workloads
    Containment::reapAdoptedOrphansPeriodically(app.get());
    if (!mode) {
        qCInfo(lcMonitor, "no display (DISPLAY and WAYLAND_DISPLAY are unset): running headless");
        mode = &commandLineOption("headless");
    }
    if (mode->kind == Kind::Desktop && !tray) {
        printErr(Cli::tr("%1 need a desktop (no DISPLAY or WAYLAND_DISPLAY is set).")
                     .arg(listOfOptions(modeNames(true))));
        return 2;
    }
    return mode->run(context);
}
