// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "run/processrunner.h"

#include "base/errnotext.h"
#include "run/containment.h"

#include "base/logging.h"

#include <QFileInfo>
#include <QProcess>
#include <QTimer>

#include <functional>
#include <utility>

#include <errno.h>
#include <signal.h>
#include <unistd.h>

ProcessRunner::ProcessRunner(const Clock *clock, const QString &reaperPath, QObject *parent)
    : ReaperRunnerOf(clock, reaperPath, parent), m_cgroupParent(Containment::workloadCgroupParent())
{
}

ProcessRunner::~ProcessRunner()
{
    for (const auto &[id, entry] : m_entries) {
        if (entry->process) // ~ReaperRunnerOf() tells its reaper to end it
            entry->log.writeLine(QStringLiteral("stopped %1: idlegpu is exiting").arg(entry->name()));
        if (entry->sweep) // nobody would end what its dead reaper left
            entry->sweep->killNow();
    }
}

QString ProcessRunner::whyKept(const Entry &entry) const
{
    return entry.process || entry.sweep ? QStringLiteral("it still runs") : QString();
}

bool ProcessRunner::stopPending(const Entry &entry) const
{
    return entry.runtime.occupiesGpus();
}

bool ProcessRunner::start(const WorkloadConfig &config, const QList<int> &gpus, bool allGpus)
{
    Entry &entry = entryFor(config.id, [this, id = config.id](Entry &made) {
        connect(&made.escalation, &QTimer::timeout, this, [this, id] { onEscalation(id); });
        made.escalation.setSingleShot(true);
    });
    if (entry.runtime.occupiesGpus()) {
        qCWarning(lcRunner).noquote() << "not starting" << entry.name() << "again: it is"
                                      << workloadStateName(entry.runtime.state);
        return false;
    }
    beginRun(entry, config, gpus, allGpus);
    entry.partialLine.clear();
    entry.stopRequested = false;
    entry.killRequested = false;

    const LaunchPlan plan = LaunchPlan::make(config, gpus, allGpus, launchContext());
    if (!plan.ready())
        return failToStart(entry, plan.error());
    const std::optional<UserAccount> &switchTo = plan.switchTo;

    const QString id = config.id;
    // Where the workload's processes go (a cgroup of its own), and its log writer (beside it, never in it).
    QString logWriters;
    int cgroupProcs = -1; // open on the workload's cgroup.procs until the reaper has started
    if (!m_cgroupParent.isEmpty()) {
        const QString cgroup = WorkloadCgroup::pathFor(m_cgroupParent, id);
        QString cgroupError;
        if (WorkloadCgroup::create(cgroup, &cgroupError)
            && (config.log.isEmpty() || !(logWriters = logWritersCgroup(m_cgroupParent, &cgroupError)).isEmpty())
            && (cgroupProcs = WorkloadCgroup::openProcs(cgroup, &cgroupError)) >= 0) {
            entry.cgroup = cgroup;
        } else {
            qCWarning(lcRunner).noquote()
                << QStringLiteral("%1 runs without a cgroup of its own: %2").arg(entry.name(), cgroupError);
            logWriters.clear();
            WorkloadCgroup::remove(cgroup); // made empty, if made at all
        }
    }
    // log= is written by the reaper's log writer, as the workload's user (WorkloadLog); a refusal comes back in
    // onFinished().
    entry.log.setOwner(entry.name());
    QString error;
    QProcess *process = plan.makeProcess(this, &entry.log, &error, logWriters);
    if (!process) {
        if (cgroupProcs >= 0)
            ::close(cgroupProcs);
        releaseCgroup(entry);
        return failToStart(entry, error);
    }
    if (cgroupProcs >= 0) {
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
    }
    connect(process, &QProcess::readyReadStandardOutput, this, [this, id, process] {
        // Bounded reads: a flooding workload cannot make one call hold much memory.
        while (process->bytesAvailable() > 0)
            appendOutput(id, process->read(64 * 1024));
    });
    const QString asUser = switchTo ? QStringLiteral(" as user %1").arg(switchTo->name) : QString();
    connect(process, &QProcess::started, this, [this, id, process] {
        Entry *entry = entryOf(id);
        entry->runtime.pid = process->processId();
        entry->reaperStartTime = WorkloadSweep::startTimeOf(pid_t(entry->runtime.pid));
    });
    connect(process, &QProcess::finished, this, [this, id] { onFinished(id); });
    connect(process, &QProcess::errorOccurred, this, [this, id, process](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart)
            return; // crashes and exits come through finished()
        Entry *entry = entryOf(id);
        disconnect(process, nullptr, this, nullptr);
        process->deleteLater();
        entry->process = nullptr;
        entry->escalation.stop();
        releaseCgroup(*entry);
        failToStart(*entry, QStringLiteral("cannot run %1: %2").arg(reaperPath(), process->errorString()));
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
    // The log writer lets the workload run once it has this line: the first in the file, whatever it prints.
    entry.log.writeLine(QStringLiteral("started %1 (pid %2) on %3%4")
                            .arg(entry.name())
                            .arg(entry.runtime.pid)
                            .arg(entry.gpus(), asUser));
    qCInfo(lcRunner).noquote() << QStringLiteral("started %1 (pid %2) on %3%4: %5")
                                      .arg(entry.name())
                                      .arg(entry.runtime.pid)
                                      .arg(entry.gpus(), asUser, config.cmd);
    emit runtimeChanged(id);
    return true;
}

void ProcessRunner::stop(const QString &id, const QString &reason)
{
    Entry *entry = entryOf(id);
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
    Entry *entry = entryOf(id);
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

void ProcessRunner::onFinished(const QString &id)
{
    Entry *entry = entryOf(id);
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
    target.reaperName = QFileInfo(reaperPath()).fileName();
    target.graceMs = entry->killRequested ? 0 : qMax(0, entry->config.stopTimeoutSeconds) * 1000;
    auto sweep = std::make_unique<WorkloadSweep>(target);
    if (target.reaperPid <= 0 || sweep->start()) {
        finishRun(id, exitStatus, exitCode);
        return;
    }
    qCWarning(lcRunner).noquote() << QStringLiteral("idlegpu-reaper of %1 (pid %2) ended (%3) leaving %4 of its "
                                                    "processes: ending them")
                                         .arg(entry->name())
                                         .arg(target.reaperPid)
                                         .arg(describeExit(exitStatus, exitCode))
                                         .arg(sweep->remaining());
    connect(sweep.get(), &WorkloadSweep::finished, this, [this, id, exitStatus, exitCode] {
        Entry *entry = entryOf(id);
        if (!entry || !entry->sweep)
            return;
        // This runs inside the sweep's own finished(): deleting it here would pull the object out from under its
        // signal emission. The event loop deletes it once the emission is over.
        entry->sweep.release()->deleteLater();
        finishRun(id, exitStatus, exitCode);
    });
    entry->sweep = std::move(sweep);
    entry->runtime.state = WorkloadRuntime::Stopping; // its processes still hold the GPUs
    emit runtimeChanged(id);
}

void ProcessRunner::finishRun(const QString &id, QProcess::ExitStatus exitStatus, int exitCode)
{
    Entry *entry = entryOf(id);
    entry->runtime.pid = 0;
    releaseCgroup(*entry);
    entry->log.collect();

    if (entry->stopRequested) {
        entry->runtime.state = WorkloadRuntime::Stopped;
        entry->runtime.lastExit = QStringLiteral("stopped: %1").arg(entry->stopReason);
        qCInfo(lcRunner).noquote() << QStringLiteral("stopped %1: %2").arg(entry->name(), entry->stopReason);
        entry->log.writeLine(QStringLiteral("stopped %1: %2").arg(entry->name(), entry->stopReason));
        entry->log.close();
        emit runtimeChanged(id);
    } else if (const QString refused = entry->log.failure(); !refused.isEmpty()) {
        failToStart(*entry, refused); // the workload's process refused its log file: the program never ran
    } else {
        const QString exit = describeExit(exitStatus, exitCode);
        entry->log.writeLine(exitStatus == QProcess::CrashExit
                                 ? QStringLiteral("%1 was %2").arg(entry->name(), exit)
                                 : QStringLiteral("%1 exited with code %2").arg(entry->name()).arg(exitCode));
        entry->log.close();
        const bool ranClean = m_clock->nowMs() - entry->runtime.startedAtMs >= kCleanRunMs;
        if (ranClean)
            entry->runtime.consecutiveFailures = 0; // a long healthy run: start the backoff over
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
                                             .arg(entry.cgroup, errnoText(errno));
    entry.cgroup.clear();
}

bool ProcessRunner::failToStart(Entry &entry, const QString &message)
{
    if (entry.log.isOpen()) {
        entry.log.writeLine(QStringLiteral("cannot start %1: %2").arg(entry.name(), message));
        entry.log.close();
    }
    backOff(entry, message, QStringLiteral("cannot start %1: %2").arg(entry.name(), message));
    return false;
}

void ProcessRunner::appendOutput(const QString &id, const QByteArray &bytes)
{
    Entry *entry = entryOf(id);
    if (!entry || bytes.isEmpty())
        return;
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
