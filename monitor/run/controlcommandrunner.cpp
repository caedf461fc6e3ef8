// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "run/controlcommandrunner.h"

// Each command runs as a workload's process would (a LaunchPlan through idlegpu-reaper: user=, env=, dir=, no shell,
// output to log=), for at most command_timeout_seconds; then its whole tree is killed.
//
//   Stopped ─start()─► Running (start_cmd runs) ─exit 0─► Running (lent) ─stop()─► Stopping (stop_cmd runs)
//                          │ fails, times out                                          │ exit 0      │ fails
//                          ▼                                                           ▼             ▼
//                      Stopping (stop_cmd, to undo what the start may have done) ─► Stopped     StopFailed
//                          └─ then BackingOff (not started again before retryAtMs)             (stop_cmd again
//                                                                                               at retryAtMs)
// Stopped means the last stop command succeeded: only then are the GPUs free for another workload. A failed stop
// leaves the workload StopFailed, still holding its GPUs (the service may compute there), until a retry succeeds.
// Since idlegpu cannot know how a service was left (killed idlegpu, a reboot), setWorkloads() runs the stop command of
// each control workload it has not seen yet before the first start.

#include "base/logging.h"
#include "run/containment.h"

#include <QProcess>
#include <QTimer>

#include <utility>

#include <signal.h>

ControlCommandRunner::ControlCommandRunner(const Clock *clock, const QString &reaperPath, QObject *parent)
    : ReaperRunnerOf(clock, reaperPath, parent)
{
}

ControlCommandRunner::~ControlCommandRunner()
{
    for (const auto &[id, entry] : m_entries) {
        if (entry->phase != Entry::Phase::Idle)
            qCWarning(lcRunner).noquote() << QStringLiteral("idlegpu exits while %1 may still compute on %2")
                                                 .arg(entry->name(), entry->gpus());
    }
}

ControlCommandRunner::Entry &ControlCommandRunner::entryFor(const QString &id)
{
    return ReaperRunnerOf::entryFor(id, [this, id](Entry &made) {
        made.timeout.setSingleShot(true);
        made.retry.setSingleShot(true);
        connect(&made.timeout, &QTimer::timeout, this, [this, id] { onTimeout(id); });
        connect(&made.retry, &QTimer::timeout, this, [this, id] {
            Entry *entry = entryOf(id);
            if (entry && entry->phase == Entry::Phase::StopFailed && !entry->process)
                takeBack(*entry);
        });
    });
}

QString ControlCommandRunner::whyKept(const Entry &entry) const
{
    if (entry.process || entry.phase != Entry::Phase::Idle)
        return QStringLiteral("it is %1").arg(workloadStateName(entry.runtime.state));
    return QString();
}

bool ControlCommandRunner::stopPending(const Entry &entry) const
{
    return entry.process || entry.phase == Entry::Phase::Starting || entry.phase == Entry::Phase::Lent
        || entry.phase == Entry::Phase::Stopping;
}

bool ControlCommandRunner::start(const WorkloadConfig &config, const QList<int> &gpus, bool allGpus)
{
    Entry &entry = entryFor(config.id);
    if (entry.phase != Entry::Phase::Idle) {
        qCWarning(lcRunner).noquote() << "not lending to" << entry.name() << "again: it is"
                                      << workloadStateName(entry.runtime.state);
        return false;
    }
    beginRun(entry, config, gpus, allGpus);
    entry.stopAsked = false;
    entry.startFailure.clear();
    entry.phase = Entry::Phase::Starting;
    entry.runtime.state = WorkloadRuntime::Running;
    entry.runtime.startedAtMs = m_clock->nowMs();
    entry.runtime.retryAtMs = 0;
    if (!runCommand(entry, Command::Start))
        return false; // nothing ran: backed off, nothing to undo
    qCInfo(lcRunner).noquote()
        << QStringLiteral("lending %1 to %2: %3").arg(entry.gpus(), entry.name(), config.startCmd);
    emit runtimeChanged(config.id);
    return true;
}

bool ControlCommandRunner::runCommand(Entry &entry, Command command)
{
    entry.command = command;
    entry.log.setOwner(entry.name());
    WorkloadConfig asWorkload = entry.config;
    asWorkload.cmd = command == Command::Start ? entry.config.startCmd : entry.config.stopCmd;
    asWorkload.argv = command == Command::Start ? entry.config.startArgv : entry.config.stopArgv;
    const LaunchPlan plan = LaunchPlan::make(asWorkload, entry.runtime.gpus, entry.allGpus, launchContext());
    QString error;
    QProcess *process = nullptr;
    // Its log writer goes where the workloads' go; a command has no cgroup of its own to leave, so without that
    // cgroup it stays beside its reaper.
    QString logWritersError;
    const QString logWriters = asWorkload.log.isEmpty()
                                   ? QString()
                                   : logWritersCgroup(Containment::workloadCgroupParent(), &logWritersError);
    if (!logWritersError.isEmpty())
        qCWarning(lcRunner).noquote() << QStringLiteral("the log writer of %1 stays in idlegpu's cgroup: %2")
                                             .arg(entry.name(), logWritersError);
    if (!plan.ready())
        error = plan.error();
    else // log= is written by the command's log writer, as its user; the last command's writer ends with its lines
        process = plan.makeProcess(this, &entry.log, &error, logWriters);
    if (!process) {
        notRun(entry, QStringLiteral("cannot run %1: %2").arg(entry.key(), error));
        return false;
    }

    entry.output.clear();
    entry.timedOut = false;
    entry.reaperKillSent = false;
    entry.log.writeLine(
        QStringLiteral("running %1 of %2 (%3): %4").arg(entry.key(), entry.name(), entry.gpus(), asWorkload.cmd));
    const QString id = entry.config.id;
    connect(process, &QProcess::readyReadStandardOutput, this, [this, id, process] {
        Entry *entry = entryOf(id);
        entry->output.append(process->readAll());
        if (entry->output.size() > kMaxOutputBytes)
            entry->output.remove(0, entry->output.size() - kMaxOutputBytes);
    });
    connect(process, &QProcess::finished, this, [this, id](int code, QProcess::ExitStatus status) {
        onCommandEnded(id, status == QProcess::NormalExit && code == 0, describeExit(status, code));
    });
    // Queued: a start that fails at once reports it from start(), before runCommand() has returned.
    connect(
        process, &QProcess::errorOccurred, this,
        [this, id, process](QProcess::ProcessError error) {
            if (error == QProcess::FailedToStart)
                onCommandEnded(id, false,
                               QStringLiteral("cannot run %1: %2").arg(reaperPath(), process->errorString()));
        },
        Qt::QueuedConnection);
    entry.process = process;
    entry.timeout.start(qMax(1, entry.config.commandTimeoutSeconds) * 1000);
    process->start();
    entry.runtime.pid = process->processId();
    return true;
}

void ControlCommandRunner::notRun(Entry &entry, const QString &outcome)
{
    entry.log.writeLine(QStringLiteral("%1: %2").arg(entry.name(), outcome));
    entry.log.close();
    if (entry.command == Command::Start) {
        entry.phase = Entry::Phase::Idle;
        backOff(entry, outcome, QStringLiteral("%1 of %2: not lent").arg(outcome, entry.name()));
    } else {
        stopFailed(entry, outcome);
    }
}

void ControlCommandRunner::onTimeout(const QString &id)
{
    Entry *entry = entryOf(id);
    if (!entry || !entry->process)
        return;
    const pid_t pid = pid_t(entry->process->processId());
    if (pid <= 0) // never kill(0, ...): that would be idlegpu's own process group
        return;
    if (!entry->reaperKillSent) {
        entry->timedOut = true;
        entry->reaperKillSent = true;
        qCWarning(lcRunner).noquote() << QStringLiteral("%1 of %2 did not finish within %3 s: killing it")
                                             .arg(entry->key(), entry->name())
                                             .arg(entry->config.commandTimeoutSeconds);
        ::kill(pid, SIGUSR1); // the reaper SIGKILLs the whole tree
        entry->timeout.start(kReaperKillDelayMs);
    } else {
        ::kill(-pid, SIGKILL);
        ::kill(pid, SIGKILL);
    }
}

void ControlCommandRunner::onCommandEnded(const QString &id, bool succeeded, const QString &exit)
{
    Entry *entry = entryOf(id);
    if (!entry || !entry->process)
        return;
    QProcess *process = entry->process;
    entry->output.append(process->readAll());
    disconnect(process, nullptr, this, nullptr);
    process->deleteLater();
    entry->process = nullptr;
    entry->timeout.stop();
    entry->runtime.pid = 0;
    entry->log.collect();
    if (const QString refused = entry->log.failure(); !refused.isEmpty()) {
        notRun(*entry, QStringLiteral("cannot run %1: %2").arg(entry->key(), refused)); // the command never ran
        maybeEmitAllStopped();
        return;
    }

    QStringList lines = QString::fromUtf8(entry->output).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    while (lines.size() > kMaxOutputLines)
        lines.removeFirst();
    for (QString &line : lines)
        line = line.left(kMaxOutputLineChars);
    entry->runtime.lastOutput = lines;
    if (!entry->log.isOpen())
        for (const QString &line : std::as_const(lines))
            qCInfo(lcWorkload).noquote() << entry->name() + QStringLiteral(": ") + line;

    const QString outcome =
        entry->timedOut ? QStringLiteral("timed out after %1 s").arg(entry->config.commandTimeoutSeconds) : exit;
    succeeded = succeeded && !entry->timedOut;
    entry->log.writeLine(succeeded ? QStringLiteral("%1 of %2 succeeded").arg(entry->key(), entry->name())
                                   : QStringLiteral("%1 of %2 failed (%3)").arg(entry->key(), entry->name(), outcome));

    if (entry->command == Command::Start) {
        if (entry->stopAsked) {
            takeBack(*entry); // whatever the start did, stop_cmd undoes it
        } else if (succeeded) {
            entry->phase = Entry::Phase::Lent;
            entry->runtime.consecutiveFailures = 0;
            qCInfo(lcRunner).noquote() << QStringLiteral("lent %1 to %2").arg(entry->gpus(), entry->name());
            emit runtimeChanged(id);
        } else {
            // A command that failed or was killed half-way may have done part of its work: undo it before backing off.
            entry->startFailure = QStringLiteral("start_cmd failed (%1)").arg(outcome);
            entry->stopReason = entry->startFailure;
            qCWarning(lcRunner).noquote() << QStringLiteral("%1 of %2: running its stop_cmd in case it lent the GPUs")
                                                 .arg(entry->startFailure, entry->name());
            takeBack(*entry);
        }
    } else if (succeeded) {
        if (!entry->startFailure.isEmpty()) {
            entry->phase = Entry::Phase::Idle;
            const QString failure = std::exchange(entry->startFailure, QString());
            backOff(*entry, failure, QStringLiteral("%1 of %2: not lent").arg(failure, entry->name()));
        } else {
            entry->phase = Entry::Phase::Idle;
            entry->runtime.state = WorkloadRuntime::Stopped;
            entry->runtime.retryAtMs = 0;
            entry->runtime.lastExit = QStringLiteral("stopped: %1").arg(entry->stopReason);
            qCInfo(lcRunner).noquote() << QStringLiteral("stopped %1: %2").arg(entry->name(), entry->stopReason);
            entry->log.writeLine(QStringLiteral("stopped %1: %2").arg(entry->name(), entry->stopReason));
            emit runtimeChanged(id);
        }
    } else {
        stopFailed(*entry, outcome);
    }
    if (!entry->process)
        entry->log.close();
    maybeEmitAllStopped();
}

void ControlCommandRunner::takeBack(Entry &entry)
{
    entry.retry.stop();
    entry.stopAsked = false;
    entry.phase = Entry::Phase::Stopping;
    entry.runtime.state = WorkloadRuntime::Stopping;
    if (runCommand(entry, Command::Stop))
        emit runtimeChanged(entry.config.id);
}

void ControlCommandRunner::stopFailed(Entry &entry, const QString &outcome)
{
    WorkloadRuntime &runtime = entry.runtime;
    entry.phase = Entry::Phase::StopFailed;
    runtime.state = WorkloadRuntime::StopFailed;
    runtime.pid = 0;
    runtime.lastExit = QStringLiteral("stop_cmd failed (%1)").arg(outcome);
    ++runtime.consecutiveFailures;
    QString message;
    if (stoppingAll()) {
        runtime.retryAtMs = 0;
        message = QStringLiteral("%1 of %2: idlegpu exits while it may still compute on %3")
                      .arg(runtime.lastExit, entry.name(), entry.gpus());
    } else {
        const qint64 delayMs = backoffMs(runtime.consecutiveFailures);
        runtime.retryAtMs = m_clock->nowMs() + delayMs;
        entry.retry.start(int(delayMs));
        message = QStringLiteral("%1 of %2: it may still compute on %3, which stay its own; failure %4 in a row, "
                                 "next try in %5 s")
                      .arg(runtime.lastExit, entry.name(), entry.gpus())
                      .arg(runtime.consecutiveFailures)
                      .arg(delayMs / 1000);
    }
    reportFailure(entry, message);
}

void ControlCommandRunner::stop(const QString &id, const QString &reason)
{
    Entry *entry = entryOf(id);
    if (!entry)
        return;
    if (entry->phase == Entry::Phase::Lent) {
        entry->stopReason = reason;
        qCInfo(lcRunner).noquote() << QStringLiteral("stopping %1: %2").arg(entry->name(), reason);
        takeBack(*entry);
    } else if (entry->phase == Entry::Phase::Starting && !entry->stopAsked) {
        // The start command is cut short (SIGTERM to its tree, SIGKILL after stop_timeout_seconds); stop_cmd follows.
        entry->stopAsked = true;
        entry->stopReason = reason;
        entry->runtime.state = WorkloadRuntime::Stopping;
        qCInfo(lcRunner).noquote() << QStringLiteral("stopping %1 while its start_cmd runs: %2").arg(entry->name(), reason);
        if (entry->process && entry->process->processId() > 0)
            ::kill(pid_t(entry->process->processId()), SIGTERM);
        emit runtimeChanged(id);
    }
}

void ControlCommandRunner::stopForAll(const QString &id, const QString &reason)
{
    Entry *entry = entryOf(id);
    if (entry->phase == Entry::Phase::StopFailed && !entry->process) {
        entry->stopReason = reason;
        takeBack(*entry); // one last try, now
    } else {
        stop(id, reason);
    }
}

void ControlCommandRunner::setWorkloads(const QList<WorkloadConfig> &workloads)
{
    for (const WorkloadConfig &workload : workloads) {
        if (workload.kind() != WorkloadKind::ControlCommands || !workload.enabled || !workload.refusal.isEmpty())
            continue;
        if (Entry *known = entryOf(workload.id)) {
            if (known->phase == Entry::Phase::Idle && !known->process)
                known->config = workload; // a lent one keeps the stop_cmd that matches what lent it
            continue;
        }
        // How the service was left is unknown (idlegpu killed while it was lent, a reboot): take it back first.
        QList<int> gpus = workload.gpus.indices;
        if (workload.gpus.all) {
            gpus.clear();
            const QList<GpuDevice> devices = gpuDevices();
            for (const GpuDevice &device : devices)
                gpus.append(device.index);
        }
        Entry *entry = &entryFor(workload.id);
        entry->config = workload;
        entry->runtime.gpus = gpus;
        entry->allGpus = workload.gpus.all;
        entry->stopReason = QStringLiteral("idlegpu takes it back before lending it (how it was left is unknown)");
        qCInfo(lcRunner).noquote() << QStringLiteral("taking %1 back before lending it: %2")
                                          .arg(entry->name(), workload.stopCmd);
        takeBack(*entry);
    }
}
