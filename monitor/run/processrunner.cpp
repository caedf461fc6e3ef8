// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "run/processrunner.h"

#include "run/containment.h"
#include "run/launchplan.h"
#include "run/workloadlog.h"
#include "run/workloadsweep.h"

#include "base/logging.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTimer>

#include <functional>
#include <memory>
#include <utility>

#include <errno.h>
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
    WorkloadLog log;             // log=, open while the workload runs
    QByteArray partialLine;      // output after the last newline, capped
    bool allGpus = false;        // started with gpus=ALL: no CUDA_VISIBLE_DEVICES
    QString cgroup;              // the workload's own cgroup while it runs and is swept; empty: none
    unsigned long long reaperStartTime = 0;
    WorkloadSweep *sweep = nullptr; // after the reaper ended: what it left, still being ended

    QString name() const { return config.name.isEmpty() ? config.id : config.name; }
};

namespace {

QString signalName(int sig)
{
    const char *abbreviation = sigabbrev_np(sig);
    return abbreviation ? QStringLiteral("SIG") + QLatin1String(abbreviation) : QStringLiteral("unknown signal");
}

} // namespace

QString ProcessRunner::describeExit(QProcess::ExitStatus status, int code)
{
    if (status == QProcess::CrashExit)
        return QStringLiteral("killed by signal %1 (%2)").arg(code).arg(signalName(code));
    return QStringLiteral("exit code %1").arg(code);
}

QString ProcessRunner::describeGpus(const QList<int> &gpus, bool allGpus)
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

qint64 ProcessRunner::backoffMs(int consecutiveFailures)
{
    qint64 ms = ProcessRunner::kFirstBackoffMs;
    for (int i = 1; i < consecutiveFailures && ms < ProcessRunner::kMaxBackoffMs; ++i)
        ms *= 2;
    return qMin(ms, ProcessRunner::kMaxBackoffMs);
}

ProcessRunner::ProcessRunner(const Clock *clock, const QString &reaperPath, QObject *parent)
    : WorkloadRunner(parent),
      m_clock(clock),
      m_reaperPath(reaperPath.isEmpty() ? defaultReaperPath() : reaperPath),
      m_cgroupParent(Containment::workloadCgroupParent())
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
        if (entry->sweep) // nobody would end what its dead reaper left
            entry->sweep->killNow();
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

    const LaunchPlan plan =
        LaunchPlan::make(config, gpus, allGpus, {m_reaperPath, m_gpuUuids, m_gpuDevices, UserLookup::system()});
    if (!plan.ready())
        return failToStart(entry, plan.error());
    const std::optional<UserAccount> &switchTo = plan.switchTo;

    // log= is opened by the workload's process, as its user (WorkloadLog); a refusal comes back in onFinished().
    QString error;
    QProcess *process = plan.makeProcess(this, &entry.log, &error);
    if (!process)
        return failToStart(entry, error);
    const QString id = config.id;
    int cgroupProcs = -1; // open on the workload's cgroup.procs until the reaper has started
    if (!m_cgroupParent.isEmpty()) {
        const QString cgroup = WorkloadCgroup::pathFor(m_cgroupParent, id);
        QString cgroupError;
        if (WorkloadCgroup::create(cgroup, &cgroupError)
            && (cgroupProcs = WorkloadCgroup::openProcs(cgroup, &cgroupError)) >= 0) {
            entry.cgroup = cgroup;
            const std::function<void()> previous = process->childProcessModifier();
            process->setChildProcessModifier([cgroupProcs, previous] {
                // In the forked child before the reaper's exec: the reaper and all it starts live in the cgroup.
                // A workload that cannot be put there does not run (a plain write: async-signal-safe).
                if (::write(cgroupProcs, "0", 1) != 1) {
                    static const char message[] = "idlegpu: cannot enter the workload's cgroup\n";
                    [[maybe_unused]] const ssize_t ignored = ::write(STDERR_FILENO, message, sizeof message - 1);
                    ::_exit(127);
                }
                if (previous)
                    previous();
            });
        } else {
            qCWarning(lcRunner).noquote()
                << QStringLiteral("%1 runs without a cgroup of its own: %2").arg(entry.name(), cgroupError);
        }
    }
    connect(process, &QProcess::readyReadStandardOutput, this, [this, id, process] {
        // Bounded reads: a flooding workload cannot make one call hold much memory.
        while (process->bytesAvailable() > 0)
            appendOutput(id, process->read(64 * 1024));
    });
    const QString asUser = switchTo ? QStringLiteral(" as user %1").arg(switchTo->name) : QString();
    connect(process, &QProcess::started, this, [this, id, process, asUser] {
        Entry *entry = m_entries.value(id);
        entry->runtime.pid = process->processId();
        entry->reaperStartTime = WorkloadSweep::startTimeOf(pid_t(entry->runtime.pid));
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
        releaseCgroup(*entry);
        failToStart(*entry, QStringLiteral("cannot run %1: %2").arg(m_reaperPath, process->errorString()));
        maybeEmitAllStopped();
    });

    entry.process = process;
    entry.runtime.state = WorkloadRuntime::Running;
    entry.runtime.startedAtMs = m_clock->nowMs();
    entry.runtime.retryAtMs = 0;
    process->start();
    if (cgroupProcs >= 0)
        ::close(cgroupProcs); // the child has its copy (or failed to start)
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
        if (!entry->cgroup.isEmpty())
            WorkloadCgroup::kill(entry->cgroup);
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
    if (entry->process || entry->sweep) {
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

    // The reaper ends the workload's tree before it exits; one that was killed leaves it running, re-parented to
    // idlegpu. Nothing counts as stopped, and nothing restarts, before that is gone.
    WorkloadSweep::Target target;
    target.name = entry->name();
    target.reaperPid = pid_t(entry->runtime.pid);
    target.reaperStartTime = entry->reaperStartTime;
    target.cgroup = entry->cgroup;
    target.reaperName = QFileInfo(m_reaperPath).fileName();
    target.graceMs = entry->killRequested ? 0 : qMax(0, entry->config.stopTimeoutSeconds) * 1000;
    auto *sweep = new WorkloadSweep(target, this);
    if (target.reaperPid <= 0 || sweep->start()) {
        delete sweep;
        finishRun(id, exitStatus, exitCode);
        return;
    }
    qCWarning(lcRunner).noquote() << QStringLiteral("idlegpu-reaper of %1 (pid %2) ended (%3) leaving %4 of its "
                                                    "processes: ending them")
                                         .arg(entry->name())
                                         .arg(target.reaperPid)
                                         .arg(describeExit(exitStatus, exitCode))
                                         .arg(sweep->remaining());
    entry->sweep = sweep;
    entry->runtime.state = WorkloadRuntime::Stopping; // its processes still hold the GPUs
    connect(sweep, &WorkloadSweep::finished, this, [this, id, exitStatus, exitCode] {
        Entry *entry = m_entries.value(id);
        if (!entry || !entry->sweep)
            return;
        entry->sweep->deleteLater();
        entry->sweep = nullptr;
        finishRun(id, exitStatus, exitCode);
    });
    emit runtimeChanged(id);
}

void ProcessRunner::finishRun(const QString &id, QProcess::ExitStatus exitStatus, int exitCode)
{
    Entry *entry = m_entries.value(id);
    entry->runtime.pid = 0;
    releaseCgroup(*entry);
    entry->log.collect();

    if (entry->stopRequested) {
        entry->runtime.state = WorkloadRuntime::Stopped;
        entry->runtime.lastExit = QStringLiteral("stopped: %1").arg(entry->stopReason);
        qCInfo(lcRunner).noquote() << QStringLiteral("stopped %1: %2").arg(entry->name(), entry->stopReason);
        writeLogLine(*entry, QStringLiteral("stopped %1: %2").arg(entry->name(), entry->stopReason));
        entry->log.close();
        emit runtimeChanged(id);
    } else if (const QString refused = entry->log.failure(); !refused.isEmpty()) {
        failToStart(*entry, refused); // the workload's process refused its log file: the program never ran
    } else {
        writeLogLine(*entry, exitStatus == QProcess::CrashExit
                                 ? QStringLiteral("%1 was killed by signal %2 (%3)")
                                       .arg(entry->name())
                                       .arg(exitCode)
                                       .arg(signalName(exitCode))
                                 : QStringLiteral("%1 exited with code %2").arg(entry->name()).arg(exitCode));
        entry->log.close();
        const bool ranClean = m_clock->nowMs() - entry->runtime.startedAtMs >= kCleanRunMs;
        if (ranClean)
            entry->runtime.consecutiveFailures = 0; // a long healthy run: start the backoff over
        const QString exit = describeExit(exitStatus, exitCode);
        backOff(*entry, exit, QStringLiteral("%1 ended without being asked to (%2)").arg(entry->name(), exit));
    }
    maybeEmitAllStopped();
}

void ProcessRunner::releaseCgroup(Entry &entry)
{
    if (entry.cgroup.isEmpty())
        return;
    if (!WorkloadCgroup::remove(entry.cgroup))
        qCWarning(lcRunner).noquote() << QStringLiteral("cannot remove the cgroup %1: %2")
                                             .arg(entry.cgroup, QString::fromLocal8Bit(strerror(errno)));
    entry.cgroup.clear();
}

bool ProcessRunner::failToStart(Entry &entry, const QString &message)
{
    if (entry.log.isOpen()) {
        writeLogLine(entry, QStringLiteral("cannot start %1: %2").arg(entry.name(), message));
        entry.log.close();
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
    entry->log.writeOutput(bytes, entry->name());
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
    if (!entry.log.isOpen())
        qCInfo(lcWorkload).noquote() << entry.name() + QStringLiteral(": ") + text;
    QStringList &lastOutput = entry.runtime.lastOutput;
    lastOutput.append(text);
    while (lastOutput.size() > kMaxOutputLines)
        lastOutput.removeFirst();
}

void ProcessRunner::writeLogLine(Entry &entry, const QString &line)
{
    entry.log.writeLine(line);
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
