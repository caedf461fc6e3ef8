// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "status/statustext.h"

#include "policy/holdwords.h"

QString StatusText::overallTitle(OverallState state)
{
    switch (state) {
    case OverallState::Idle: return tr("Waiting: GPUs free, nothing running");
    case OverallState::Busy: return tr("GPUs in use by your jobs");
    case OverallState::Running: return tr("Running idle workloads");
    case OverallState::Paused: return tr("Paused");
    case OverallState::Held: return tr("Paused by a rule");
    case OverallState::NoGpu: return tr("No GPU found");
    case OverallState::Failing: return tr("Needs attention");
    case OverallState::NotSetUp: return tr("Not set up yet");
    }
    return QString();
}

QString StatusText::holdReason(const Decision &decision)
{
    if (decision.hold == HoldReason::Paused)
        return QString(); // the user's own pause: overallTitle() and the menu's Resume say it
    const QString words = HoldWords::ofDecision(decision, HoldWords::Language::Translated);
    if (words.isEmpty())
        return QString();
    return tr("Paused: %1").arg(words);
}

QStringList StatusText::headlines(const MonitorState &state)
{
    const OverallState overall = overallState(state);
    const QString hold = holdReason(state.decision);
    if (hold.isEmpty())
        return {overallTitle(overall)};
    if (overall == OverallState::Held)
        return {hold};
    return {overallTitle(overall), hold};
}

QStringList StatusText::headlines(const MonitorState &state, qint64 nowMs, const QDateTime &wallNow)
{
    QStringList lines = headlines(state);
    if (overallState(state) == OverallState::Paused && state.pause.allPausedAt(nowMs) && state.pause.allUntilMs > 0)
        lines.first() = tr("Paused until %1").arg(clockTime(state.pause.allUntilMs, nowMs, wallNow));
    return lines;
}

QString StatusText::holder(const Holder &holder)
{
    if (holder.hidden && holder.pid == 0)
        return tr("a process of another user (not visible without root)");
    const QString name = holder.comm.isEmpty() ? QStringLiteral("?") : holder.comm;
    return tr("%1 (%2, pid %3)").arg(name, holder.user).arg(holder.pid);
}

QString StatusText::holders(const QList<Holder> &holders)
{
    QStringList texts;
    for (const Holder &h : holders)
        texts.append(holder(h));
    return texts.join(tr(", "));
}

QString StatusText::clientKind(Policy::ClientKind kind)
{
    switch (kind) {
    case Policy::ClientKind::Compute: return tr("compute client");
    case Policy::ClientKind::Graphics: return tr("graphics client");
    case Policy::ClientKind::Unseen: return tr("unseen");
    }
    return QString();
}

// "python3 (alice, pid 4242), compute client"
static QString holderWithKind(const Holder &holder, int gpu, const Config &config)
{
    return StatusText::tr("%1, %2")
        .arg(StatusText::holder(holder), StatusText::clientKind(Policy::explainHolder(holder, gpu, config).kind));
}

QString StatusText::gpuHolders(const GpuStatus &gpu, const Config &config)
{
    const auto withKinds = [&](const QList<Holder> &list) {
        QStringList texts;
        for (const Holder &h : list)
            texts.append(holderWithKind(h, gpu.index, config));
        return texts.join(tr("; "));
    };
    QStringList parts;
    if (!gpu.foreignHolders.isEmpty())
        parts.append(withKinds(gpu.foreignHolders));
    if (!gpu.openOnlyHolders.isEmpty())
        parts.append(tr("open, not busy: %1").arg(withKinds(gpu.openOnlyHolders)));
    return parts.join(tr("; "));
}

QString StatusText::gpuHoldersWhy(const GpuStatus &gpu, const Config &config)
{
    QStringList lines;
    for (const QList<Holder> *list : {&gpu.foreignHolders, &gpu.openOnlyHolders})
        for (const Holder &h : *list)
            lines.append(tr("%1: %2").arg(holderWithKind(h, gpu.index, config),
                                          Policy::explainHolder(h, gpu.index, config).why));
    return lines.join(QLatin1Char('\n'));
}

QString StatusText::workloadName(const Config &config, const QString &id)
{
    const WorkloadConfig *workload = config.workload(id);
    return workload && !workload->name.isEmpty() ? workload->name : id;
}

QString StatusText::workloadState(WorkloadRuntime::State state)
{
    switch (state) {
    case WorkloadRuntime::Stopped: return tr("stopped");
    case WorkloadRuntime::Running: return tr("running");
    case WorkloadRuntime::Stopping: return tr("stopping");
    case WorkloadRuntime::BackingOff: return tr("failing");
    case WorkloadRuntime::StopFailed: return tr("failed to stop, still lent");
    }
    return QString();
}

QString StatusText::clockTime(qint64 atMs, qint64 nowMs, const QDateTime &wallNow)
{
    const QDateTime at = wallNow.addMSecs(atMs - nowMs);
    if (at.date() == wallNow.date())
        return at.toString(QStringLiteral("HH:mm"));
    return at.toString(QStringLiteral("yyyy-MM-dd HH:mm"));
}

QString StatusText::duration(qint64 ms)
{
    const qint64 seconds = qMax<qint64>(0, ms) / 1000;
    if (seconds < 60)
        return tr("%1 s").arg(seconds);
    if (seconds < 3600)
        return tr("%1 min").arg(seconds / 60);
    return tr("%1 h %2 min").arg(seconds / 3600).arg((seconds % 3600) / 60, 2, 10, QLatin1Char('0'));
}

QString StatusText::slurmActivity(const GpuStatus &gpu, const MonitorState &state, qint64 nowMs,
                                  const QDateTime &wallNow, bool countdown)
{
    if (!state.config.slurm.enabled)
        return QString();
    const auto runtime = state.runtimes.constFind(Config::slurmWorkloadId(gpu.index));
    if (runtime == state.runtimes.cend())
        return QString();
    if (!runtime->unreachable.isEmpty())
        return tr("Slurm unreachable: %1").arg(runtime->unreachable);
    if (runtime->state == WorkloadRuntime::Running) {
        if (runtime->labJobs.isEmpty())
            return tr("lent to the lab (no job yet)");
        QStringList jobs;
        for (const WorkloadRuntime::LabJob &job : runtime->labJobs)
            jobs.append(tr("job %1 (%2)").arg(job.id).arg(job.user));
        return tr("lent to the lab: %1").arg(jobs.join(tr(", ")));
    }
    switch (gpu.state) {
    case GpuState::Busy: return tr("held for you — %1").arg(holders(gpu.foreignHolders));
    case GpuState::Waiting: {
        const qint64 lendAtMs = Policy::settledAtMs(gpu.freeSinceMs, state.config);
        if (!countdown)
            return tr("held for you, lent to the lab at %1")
                .arg(wallNow.addMSecs(lendAtMs - nowMs).toString(QStringLiteral("HH:mm:ss")));
        return tr("held for you, lent to the lab in %1 s").arg(qMax<qint64>(0, (lendAtMs - nowMs + 999) / 1000));
    }
    default: return state.decision.hold != HoldReason::None ? tr("held for you — paused") : tr("held for you");
    }
}

QString StatusText::gpuActivity(const GpuStatus &gpu, const MonitorState &state, qint64 nowMs,
                                const QDateTime &wallNow, bool countdown)
{
    if (const QString lending = slurmActivity(gpu, state, nowMs, wallNow, countdown); !lending.isEmpty())
        return lending;
    switch (gpu.state) {
    case GpuState::RunningWorkload: {
        const QString name = workloadName(state.config, gpu.workloadId);
        if (gpu.tooHot) // its stop is under way
            return tr("too hot, stopping %1").arg(name);
        const auto runtime = state.runtimes.constFind(gpu.workloadId);
        if (runtime == state.runtimes.cend() || runtime->startedAtMs == 0)
            return tr("running %1").arg(name);
        return tr("running %1 since %2").arg(name, clockTime(runtime->startedAtMs, nowMs, wallNow));
    }
    case GpuState::Busy:
        return tr("busy — %1").arg(holders(gpu.foreignHolders));
    case GpuState::Waiting: {
        const qint64 startAtMs = Policy::settledAtMs(gpu.freeSinceMs, state.config);
        if (!countdown)
            return tr("waiting, starting at %1")
                .arg(wallNow.addMSecs(startAtMs - nowMs).toString(QStringLiteral("HH:mm:ss")));
        const qint64 secondsLeft = qMax<qint64>(0, (startAtMs - nowMs + 999) / 1000);
        return tr("waiting, starting in %1 s").arg(secondsLeft);
    }
    case GpuState::Idle: {
        // The policy's reason is then the hold in English, and may count seconds: the hold's own line says why.
        if (state.decision.hold != HoldReason::None)
            return tr("idle — paused");
        if (gpu.tooHot) {
            const int below = state.config.maxTemperatureC - Config::kCoolDownCelsius + 1;
            const auto celsius = state.snapshot.temperatures.constFind(gpu.index);
            const bool withReading = countdown && celsius != state.snapshot.temperatures.cend();
            return tr("idle — %1")
                .arg(HoldWords::tooHot(withReading ? std::optional(*celsius) : std::nullopt, below,
                                       HoldWords::Language::Translated));
        }
        if (gpu.reason.isEmpty())
            return tr("idle");
        return tr("idle — %1").arg(gpu.reason);
    }
    }
    return QString();
}
