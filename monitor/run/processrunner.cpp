#include "run/processrunner.h"

#include "logging.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QTimer>

#include <algorithm>
#include <memory>
#include <utility>

#include <signal.h>
#include <string.h>
#include <unistd.h>

struct ProcessRunner::Entry
{
    WorkloadConfig config;
    WorkloadRuntime runtime;
    QProcess *process = nullptr; // the reaper while the workload runs; null otherwise
    QTimer escalation;           // after a stop: SIGUSR1 at the stop timeout, SIGKILL to the reaper later
    bool killRequested = false;  // the escalation has sent SIGUSR1
    bool stopRequested = false;
    QString stopReason;
    std::unique_ptr<QFile> log;  // log=, open while the workload runs
    bool logAtLineStart = true;  // so that idlegpu's own lines never start in the middle of output
    bool logWriteFailed = false; // warned once already
    QByteArray partialLine;      // output after the last newline, capped
    bool allGpus = false;        // started with gpus=ALL: no CUDA_VISIBLE_DEVICES

    QString name() const { return config.name.isEmpty() ? config.id : config.name; }
};

namespace {

QString signalName(int sig)
{
    const char *abbreviation = sigabbrev_np(sig);
    return abbreviation ? QStringLiteral("SIG") + QLatin1String(abbreviation) : QStringLiteral("unknown signal");
}

// The reaper exits the way the workload did, so its exit is the workload's.
QString describeExit(QProcess::ExitStatus status, int code)
{
    if (status == QProcess::CrashExit)
        return QStringLiteral("killed by signal %1 (%2)").arg(code).arg(signalName(code));
    return QStringLiteral("exit code %1").arg(code);
}

QString describeGpus(const QList<int> &gpus, bool allGpus)
{
    if (allGpus)
        return QStringLiteral("all GPUs");
    if (gpus.isEmpty())
        return QStringLiteral("no GPU");
    QStringList numbers;
    for (int gpu : gpus)
        numbers.append(QString::number(gpu));
    return QStringLiteral("GPUs ") + numbers.join(QLatin1Char(','));
}

qint64 backoffMs(int consecutiveFailures)
{
    qint64 ms = ProcessRunner::kFirstBackoffMs;
    for (int i = 1; i < consecutiveFailures && ms < ProcessRunner::kMaxBackoffMs; ++i)
        ms *= 2;
    return qMin(ms, ProcessRunner::kMaxBackoffMs);
}

} // namespace

namespace {

QString joinNumbers(const QList<int> &numbers)
{
    QStringList parts;
    for (int number : numbers)
        parts.append(QString::number(number));
    return parts.join(QLatin1Char(','));
}

// Sets the variables through which each vendor's stack selects the workload's GPUs (see the header).
void selectGpus(QProcessEnvironment &result, const QList<int> &gpus, const QHash<int, QString> &uuidsByIndex,
                const QList<GpuDevice> &devices)
{
    // A GPU the device list does not know is numbered as CUDA numbers it, as before DRM support.
    auto vendorOf = [&devices](int index) {
        for (const GpuDevice &device : devices)
            if (device.index == index)
                return device.vendor;
        return GpuVendor::Nvidia;
    };
    QList<const GpuDevice *> amdPresent;
    QList<const GpuDevice *> intelPresent;
    bool nvidiaPresent = devices.isEmpty();
    for (const GpuDevice &device : devices) { // in index order, which for AMD and Intel is PCI order
        if (device.vendor == GpuVendor::Amd)
            amdPresent.append(&device);
        else if (device.vendor == GpuVendor::Intel)
            intelPresent.append(&device);
        else
            nvidiaPresent = true;
    }

    QStringList cudaNumbers;
    QStringList cudaUuids;
    for (int gpu : gpus) {
        if (vendorOf(gpu) != GpuVendor::Nvidia)
            continue;
        cudaNumbers.append(QString::number(gpu));
        if (!uuidsByIndex.value(gpu).isEmpty())
            cudaUuids.append(uuidsByIndex.value(gpu));
    }
    const QString cudaVisible = QStringLiteral("CUDA_VISIBLE_DEVICES");
    if (!cudaNumbers.isEmpty())
        result.insert(cudaVisible, (cudaUuids.size() == cudaNumbers.size() ? cudaUuids : cudaNumbers)
                                       .join(QLatin1Char(',')));
    else if (devices.isEmpty())
        result.insert(cudaVisible, QString()); // no GPU at all, as before DRM support
    else if (nvidiaPresent)
        result.insert(cudaVisible, QStringLiteral("-1"));
    else
        result.remove(cudaVisible);

    if (!amdPresent.isEmpty()) {
        QList<const GpuDevice *> selected;
        QList<int> ordinals;
        for (int ordinal = 0; ordinal < amdPresent.size(); ++ordinal) {
            if (gpus.contains(amdPresent.at(ordinal)->index)) {
                selected.append(amdPresent.at(ordinal));
                ordinals.append(ordinal);
            }
        }
        const bool allHaveIds = std::all_of(selected.cbegin(), selected.cend(),
                                            [](const GpuDevice *gpu) { return !gpu->uniqueId.isEmpty(); });
        QStringList ids;
        for (const GpuDevice *gpu : std::as_const(selected))
            ids.append(QStringLiteral("GPU-") + gpu->uniqueId);
        result.insert(QStringLiteral("ROCR_VISIBLE_DEVICES"),
                      allHaveIds ? ids.join(QLatin1Char(',')) : joinNumbers(ordinals));
        result.remove(QStringLiteral("GPU_DEVICE_ORDINAL"));
        QList<int> exposed;
        for (int i = 0; i < selected.size(); ++i)
            exposed.append(i);
        if (exposed.isEmpty())
            result.remove(QStringLiteral("HIP_VISIBLE_DEVICES"));
        else
            result.insert(QStringLiteral("HIP_VISIBLE_DEVICES"), joinNumbers(exposed));
    }

    if (!intelPresent.isEmpty()) {
        QList<int> ordinals;
        for (int ordinal = 0; ordinal < intelPresent.size(); ++ordinal)
            if (gpus.contains(intelPresent.at(ordinal)->index))
                ordinals.append(ordinal);
        if (ordinals.isEmpty())
            ordinals.append(int(intelPresent.size())); // out of range: Level Zero shows no device
        result.insert(QStringLiteral("ZE_ENABLE_PCI_ID_DEVICE_ORDER"), QStringLiteral("1"));
        result.insert(QStringLiteral("ZE_FLAT_DEVICE_HIERARCHY"), QStringLiteral("COMPOSITE"));
        result.insert(QStringLiteral("ZE_AFFINITY_MASK"), joinNumbers(ordinals));
    }
}

} // namespace

QProcessEnvironment ProcessRunner::workloadEnvironment(const QList<QPair<QString, QString>> &env,
                                                       const QList<int> &gpus, bool allGpus,
                                                       const QHash<int, QString> &uuidsByIndex,
                                                       const QList<GpuDevice> &devices)
{
    QProcessEnvironment result = QProcessEnvironment::systemEnvironment();
    result.insert(QStringLiteral("CUDA_DEVICE_ORDER"), QStringLiteral("PCI_BUS_ID"));
    if (!allGpus)
        selectGpus(result, gpus, uuidsByIndex, devices);
    for (const auto &[key, value] : env)
        result.insert(key, value);
    return result;
}

QProcessEnvironment ProcessRunner::userEnvironment(const QProcessEnvironment &base, const UserAccount &account,
                                                   const QList<QPair<QString, QString>> &env)
{
    QProcessEnvironment result = base;
    // idlegpu's own per-user folders (root's, under sudo) are no place for another user's files.
    for (const char *name : {"XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_CACHE_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME",
                             "MAIL"})
        result.remove(QLatin1String(name));
    result.insert(QStringLiteral("HOME"), account.home);
    result.insert(QStringLiteral("USER"), account.name);
    result.insert(QStringLiteral("LOGNAME"), account.name);
    result.insert(QStringLiteral("SHELL"), account.shell.isEmpty() ? QStringLiteral("/bin/sh") : account.shell);
    for (const auto &[key, value] : env) // env= has the last word, as always
        result.insert(key, value);
    return result;
}

QString ProcessRunner::resolveProgram(const QString &argv0, const QString &workingDir, const QString &pathVariable,
                                      bool *notExecutable)
{
    if (notExecutable)
        *notExecutable = false;
    if (argv0.contains(QLatin1Char('/'))) {
        const QFileInfo info(QDir(workingDir).absoluteFilePath(argv0));
        if (info.isFile() && info.isExecutable())
            return info.absoluteFilePath();
        if (notExecutable)
            *notExecutable = info.exists();
        return QString();
    }
    const QStringList searchPath = pathVariable.split(QLatin1Char(':'), Qt::SkipEmptyParts);
    const QString found = QStandardPaths::findExecutable(argv0, searchPath);
    if (found.isEmpty() && notExecutable)
        for (const QString &folder : searchPath)
            if (QFileInfo(QDir(folder).filePath(argv0)).isFile())
                *notExecutable = true;
    return found;
}

ProcessRunner::ProcessRunner(const Clock *clock, const QString &reaperPath, QObject *parent)
    : WorkloadRunner(parent), m_clock(clock), m_reaperPath(reaperPath.isEmpty() ? defaultReaperPath() : reaperPath)
{
}

ProcessRunner::~ProcessRunner()
{
    for (Entry *entry : std::as_const(m_entries)) {
        if (QProcess *process = entry->process) {
            // ~QProcess would SIGKILL the reaper and wait, orphaning the tree. Instead the reaper gets SIGTERM
            // and ends the tree itself (SIGKILL after the grace); its QProcess deletes itself when it exits.
            disconnect(process, nullptr, this, nullptr);
            process->setParent(nullptr);
            connect(process, &QProcess::finished, process, &QObject::deleteLater);
            if (process->processId() > 0)
                ::kill(pid_t(process->processId()), SIGTERM);
            writeLogLine(*entry, QStringLiteral("stopped %1: idlegpu is exiting").arg(entry->name()));
        }
        delete entry;
    }
}

QString ProcessRunner::defaultReaperPath()
{
    const QString ourDir = QCoreApplication::applicationDirPath();
    const QString besideUs = ourDir + QStringLiteral("/idlegpu-reaper");
    if (QFileInfo(besideUs).isExecutable())
        return besideUs;
    // The installed layout (<prefix>/bin/idlegpu, <prefix>/libexec/idlegpu/idlegpu-reaper), found relative to
    // the binary: a package installs to /usr while the build was configured for /usr/local, and a DESTDIR or
    // unpacked package lives elsewhere again.
    const QString underOurPrefix = QDir::cleanPath(ourDir + QStringLiteral("/../libexec/idlegpu/idlegpu-reaper"));
    if (QFileInfo(underOurPrefix).isExecutable())
        return underOurPrefix;
    const QString installed = QStringLiteral(IDLEGPU_LIBEXEC_DIR "/idlegpu-reaper");
    if (QFileInfo(installed).isExecutable())
        return installed;
    return QStringLiteral(IDLEGPU_BUILD_REAPER);
}

bool ProcessRunner::start(const WorkloadConfig &config, const QList<int> &gpus, bool allGpus)
{
    Entry *&slot = m_entries[config.id];
    if (!slot) {
        slot = new Entry;
        slot->runtime.id = config.id;
        connect(&slot->escalation, &QTimer::timeout, this, [this, id = config.id] { onEscalation(id); });
        slot->escalation.setSingleShot(true);
    }
    Entry &entry = *slot;
    if (entry.runtime.occupiesGpus()) {
        qCWarning(lcRunner).noquote() << "not starting" << entry.name() << "again: it is"
                                      << workloadStateName(entry.runtime.state);
        return false;
    }
    entry.config = config;
    entry.runtime.gpus = gpus;
    entry.allGpus = allGpus;
    entry.runtime.lastOutput.clear();
    entry.partialLine.clear();
    entry.stopRequested = false;
    entry.stopReason.clear();
    entry.killRequested = false;

    if (config.argv.isEmpty())
        return failToStart(entry, QStringLiteral("no command given (cmd= is empty)"));
    if (!config.refusal.isEmpty())
        return failToStart(entry, QStringLiteral("refused: %1").arg(config.refusal));
    // Checked again at each start: the account may have gone, or changed, since the config was read.
    const WorkloadUserCheck userCheck = checkWorkloadUser(config.user, UserLookup::system());
    if (!userCheck.error.isEmpty())
        return failToStart(entry, userCheck.error);
    const std::optional<UserAccount> &account = userCheck.account;
    const bool switchUser = account && account->uid != ::geteuid();
    const QString workingDir = !config.dir.isEmpty() ? config.dir : account ? account->home : QDir::homePath();
    if (!QFileInfo(workingDir).isDir())
        return failToStart(entry, QStringLiteral("working folder does not exist: %1").arg(workingDir));

    QProcessEnvironment env = workloadEnvironment(config.env, gpus, allGpus, m_gpuUuids, m_gpuDevices);
    if (switchUser)
        env = userEnvironment(env, *account, config.env);
    const QString program = resolveProgram(config.argv.first(), workingDir, env.value(QStringLiteral("PATH")));
    if (program.isEmpty())
        return failToStart(entry, QStringLiteral("command not found: %1").arg(config.argv.first()));
    if (!QFileInfo(m_reaperPath).isExecutable())
        return failToStart(entry, QStringLiteral("idlegpu-reaper not found at %1").arg(m_reaperPath));

    if (!config.log.isEmpty()) {
        auto log = std::make_unique<QFile>(config.log);
        // Append: the log outlives runs. Owner-only: workload output may hold wallet addresses or tokens.
        bool opened = false;
        if (switchUser) {
            // Opened as the user: the file is theirs, and a path they control cannot make root write elsewhere.
            QString error;
            const int fd = openAppendAsUser(config.log, *account, &error);
            if (fd < 0)
                return failToStart(entry, QStringLiteral("cannot open log file %1: %2").arg(config.log, error));
            opened = log->open(fd, QIODevice::WriteOnly | QIODevice::Append | QIODevice::Unbuffered,
                               QFileDevice::AutoCloseHandle);
            if (!opened)
                ::close(fd);
        } else {
            opened = log->open(QIODevice::WriteOnly | QIODevice::Append | QIODevice::Unbuffered,
                               QFileDevice::ReadOwner | QFileDevice::WriteOwner);
        }
        if (!opened)
            return failToStart(entry, QStringLiteral("cannot open log file %1: %2").arg(config.log, log->errorString()));
        entry.log = std::move(log);
        entry.logAtLineStart = true;
        entry.logWriteFailed = false;
    }

    auto *process = new QProcess(this);
    process->setProgram(m_reaperPath);
    QStringList arguments{QStringLiteral("--parent"), QString::number(QCoreApplication::applicationPid()),
                          QStringLiteral("--grace-ms"), QString::number(qMax(0, config.stopTimeoutSeconds) * 1000LL)};
    // Another user's workload enters its folder after the switch, with that user's permissions: a folder the
    // user may not enter fails the start with a message instead of leaving the program in it.
    if (switchUser)
        arguments += {QStringLiteral("--user"), account->name, QStringLiteral("--dir"), workingDir};
    arguments += {QStringLiteral("--"), program};
    arguments += config.argv.mid(1);
    process->setArguments(arguments);
    process->setProcessEnvironment(env);
    process->setWorkingDirectory(switchUser ? QStringLiteral("/") : workingDir);
    process->setProcessChannelMode(QProcess::MergedChannels);
    process->setStandardInputFile(QProcess::nullDevice()); // a workload that reads stdin must not hang
    const QString id = config.id;
    connect(process, &QProcess::readyReadStandardOutput, this, [this, id, process] {
        // Bounded reads: a flooding workload cannot make one call hold much memory.
        while (process->bytesAvailable() > 0)
            appendOutput(id, process->read(64 * 1024));
    });
    const QString asUser = switchUser ? QStringLiteral(" as user %1").arg(account->name) : QString();
    connect(process, &QProcess::started, this, [this, id, process, asUser] {
        Entry *entry = m_entries.value(id);
        entry->runtime.pid = process->processId();
        writeLogLine(*entry, QStringLiteral("started %1 (pid %2) on %3%4")
                                 .arg(entry->name())
                                 .arg(entry->runtime.pid)
                                 .arg(describeGpus(entry->runtime.gpus, entry->allGpus), asUser));
    });
    connect(process, &QProcess::finished, this, [this, id] { onFinished(id); });
    connect(process, &QProcess::errorOccurred, this, [this, id, process](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return; // crashes and exits come through finished()
        Entry *entry = m_entries.value(id);
        disconnect(process, nullptr, this, nullptr);
        process->deleteLater();
        entry->process = nullptr;
        entry->escalation.stop();
        failToStart(*entry, QStringLiteral("cannot run %1: %2").arg(m_reaperPath, process->errorString()));
        maybeEmitAllStopped();
    });

    entry.process = process;
    entry.runtime.state = WorkloadRuntime::Running;
    entry.runtime.startedAtMs = m_clock->nowMs();
    entry.runtime.retryAtMs = 0;
    process->start();
    if (process->state() == QProcess::NotRunning)
        return false; // failed at once: errorOccurred() has backed off already (and may have let go of entry)
    entry.runtime.pid = process->processId();
    qCInfo(lcRunner).noquote() << QStringLiteral("started %1 (pid %2) on %3%4: %5")
                                      .arg(entry.name())
                                      .arg(entry.runtime.pid)
                                      .arg(describeGpus(gpus, allGpus), asUser, config.cmd);
    emit runtimeChanged(id);
    return true;
}

void ProcessRunner::stop(const QString &id, const QString &reason)
{
    Entry *entry = m_entries.value(id);
    if (!entry || entry->runtime.state != WorkloadRuntime::Running)
        return; // not running, or already stopping
    entry->stopRequested = true;
    entry->stopReason = reason;
    entry->runtime.state = WorkloadRuntime::Stopping;
    qCInfo(lcRunner).noquote() << QStringLiteral("stopping %1: %2").arg(entry->name(), reason);
    // The reaper passes SIGTERM on to the whole tree; the escalation timer follows up if the tree lingers.
    if (entry->runtime.pid > 0) // never kill(0, ...): that would be idlegpu's own process group
        ::kill(pid_t(entry->runtime.pid), SIGTERM);
    entry->escalation.start(qMax(0, entry->config.stopTimeoutSeconds) * 1000);
    emit runtimeChanged(id);
}

void ProcessRunner::onEscalation(const QString &id)
{
    Entry *entry = m_entries.value(id);
    if (!entry || !entry->process)
        return;
    const pid_t pid = pid_t(entry->runtime.pid);
    if (pid <= 0) // never kill(0, ...) or kill(-0, ...): that would be idlegpu's own process group
        return;
    if (!entry->killRequested) {
        entry->killRequested = true;
        qCWarning(lcRunner).noquote() << QStringLiteral("%1 did not stop within %2 s: killing it")
                                             .arg(entry->name())
                                             .arg(entry->config.stopTimeoutSeconds);
        ::kill(pid, SIGUSR1); // the reaper SIGKILLs the whole tree
        entry->escalation.start(kReaperKillDelayMs);
    } else {
        // The reaper itself is stuck (stopped, or swapped out): kill its process group, the reaper included.
        // Escapees in other groups lose their supervisor; this is the last resort.
        qCWarning(lcRunner).noquote()
            << QStringLiteral("idlegpu-reaper of %1 (pid %2) does not exit: killing it").arg(entry->name()).arg(pid);
        ::kill(-pid, SIGKILL);
        ::kill(pid, SIGKILL);
    }
}

void ProcessRunner::stopAll(const QString &reason)
{
    m_stoppingAll = true;
    const QStringList ids = m_entries.keys(); // stop() emits signals whose slots may change m_entries
    for (const QString &id : ids)
        stop(id, reason);
    // From the event loop, even when nothing ran: the caller connects to allStopped() after calling.
    QMetaObject::invokeMethod(this, &ProcessRunner::maybeEmitAllStopped, Qt::QueuedConnection);
}

void ProcessRunner::forget(const QString &id)
{
    Entry *entry = m_entries.value(id);
    if (!entry)
        return;
    if (entry->process) {
        qCWarning(lcRunner).noquote() << QStringLiteral("not forgetting %1: it still runs").arg(entry->name());
        return;
    }
    m_entries.remove(id);
    delete entry;
}

QHash<QString, WorkloadRuntime> ProcessRunner::runtimes() const
{
    QHash<QString, WorkloadRuntime> result;
    for (auto it = m_entries.cbegin(); it != m_entries.cend(); ++it)
        result.insert(it.key(), it.value()->runtime);
    return result;
}

void ProcessRunner::onFinished(const QString &id)
{
    Entry *entry = m_entries.value(id);
    if (!entry || !entry->process)
        return;
    QProcess *process = entry->process;
    while (process->bytesAvailable() > 0)
        appendOutput(id, process->read(64 * 1024));
    if (!entry->partialLine.isEmpty()) // the last line had no newline
        addOutputLine(*entry, std::exchange(entry->partialLine, QByteArray()));
    const QProcess::ExitStatus exitStatus = process->exitStatus();
    const int exitCode = process->exitCode();
    disconnect(process, nullptr, this, nullptr);
    process->deleteLater();
    entry->process = nullptr;
    entry->escalation.stop();
    entry->runtime.pid = 0;

    if (entry->stopRequested) {
        entry->runtime.state = WorkloadRuntime::Stopped;
        entry->runtime.lastExit = QStringLiteral("stopped: %1").arg(entry->stopReason);
        qCInfo(lcRunner).noquote() << QStringLiteral("stopped %1: %2").arg(entry->name(), entry->stopReason);
        writeLogLine(*entry, QStringLiteral("stopped %1: %2").arg(entry->name(), entry->stopReason));
        entry->log.reset();
        emit runtimeChanged(id);
    } else {
        writeLogLine(*entry, exitStatus == QProcess::CrashExit
                                 ? QStringLiteral("%1 was killed by signal %2 (%3)")
                                       .arg(entry->name())
                                       .arg(exitCode)
                                       .arg(signalName(exitCode))
                                 : QStringLiteral("%1 exited with code %2").arg(entry->name()).arg(exitCode));
        entry->log.reset();
        const bool ranClean = m_clock->nowMs() - entry->runtime.startedAtMs >= kCleanRunMs;
        if (ranClean)
            entry->runtime.consecutiveFailures = 0; // a long healthy run: start the backoff over
        const QString exit = describeExit(exitStatus, exitCode);
        backOff(*entry, exit, QStringLiteral("%1 ended without being asked to (%2)").arg(entry->name(), exit));
    }
    maybeEmitAllStopped();
}

bool ProcessRunner::failToStart(Entry &entry, const QString &message)
{
    if (entry.log) {
        writeLogLine(entry, QStringLiteral("cannot start %1: %2").arg(entry.name(), message));
        entry.log.reset();
    }
    backOff(entry, message, QStringLiteral("cannot start %1: %2").arg(entry.name(), message));
    return false;
}

void ProcessRunner::backOff(Entry &entry, const QString &lastExit, const QString &what)
{
    WorkloadRuntime &runtime = entry.runtime;
    runtime.state = WorkloadRuntime::BackingOff;
    runtime.pid = 0;
    runtime.lastExit = lastExit;
    ++runtime.consecutiveFailures;
    const qint64 delayMs = backoffMs(runtime.consecutiveFailures);
    runtime.retryAtMs = m_clock->nowMs() + delayMs;
    QString message = QStringLiteral("%1; failure %2 in a row, next try in %3 s")
                          .arg(what)
                          .arg(runtime.consecutiveFailures)
                          .arg(delayMs / 1000);
    if (!runtime.lastOutput.isEmpty())
        message += QStringLiteral("; last output:\n    ") + runtime.lastOutput.join(QStringLiteral("\n    "));
    qCWarning(lcRunner).noquote() << message;
    emit runtimeChanged(runtime.id);
    emit workloadFailed(runtime.id, runtime);
}

void ProcessRunner::appendOutput(const QString &id, const QByteArray &bytes)
{
    Entry *entry = m_entries.value(id);
    if (!entry || bytes.isEmpty())
        return;
    if (entry->log) {
        if (entry->log->write(bytes) != bytes.size() && !entry->logWriteFailed) {
            entry->logWriteFailed = true; // say it once, not once per line of output
            qCWarning(lcRunner).noquote() << QStringLiteral("cannot write to log file %1 of %2: %3")
                                                 .arg(entry->log->fileName(), entry->name(), entry->log->errorString());
        }
        entry->logAtLineStart = bytes.endsWith('\n');
    }
    // A line may hold up to 4 UTF-8 bytes per character; longer ones are cut, never buffered whole.
    const int maxLineBytes = kMaxOutputLineChars * 4;
    qsizetype lineStart = 0;
    for (;;) {
        const qsizetype newline = bytes.indexOf('\n', lineStart);
        const qsizetype end = newline < 0 ? bytes.size() : newline;
        const qsizetype room = maxLineBytes - entry->partialLine.size();
        if (room > 0)
            entry->partialLine.append(bytes.constData() + lineStart, qMin(room, end - lineStart));
        if (newline < 0)
            break;
        addOutputLine(*entry, std::exchange(entry->partialLine, QByteArray()));
        lineStart = newline + 1;
    }
}

void ProcessRunner::addOutputLine(Entry &entry, const QByteArray &line)
{
    QString text = QString::fromUtf8(line);
    if (text.endsWith(QLatin1Char('\r')))
        text.chop(1);
    text.truncate(kMaxOutputLineChars);
    if (!entry.log)
        qCInfo(lcWorkload).noquote() << entry.name() + QStringLiteral(": ") + text;
    QStringList &lastOutput = entry.runtime.lastOutput;
    lastOutput.append(text);
    while (lastOutput.size() > kMaxOutputLines)
        lastOutput.removeFirst();
}

void ProcessRunner::writeLogLine(Entry &entry, const QString &line)
{
    if (!entry.log)
        return;
    const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss"));
    QByteArray bytes = (stamp + QStringLiteral(" idlegpu: ") + line + QLatin1Char('\n')).toUtf8();
    if (!entry.logAtLineStart)
        bytes.prepend('\n');
    entry.log->write(bytes);
    entry.logAtLineStart = true;
}

void ProcessRunner::maybeEmitAllStopped()
{
    if (!m_stoppingAll)
        return;
    for (const Entry *entry : std::as_const(m_entries))
        if (entry->runtime.occupiesGpus())
            return;
    m_stoppingAll = false;
    emit allStopped();
}
