// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "status/dashboardtext.h"

#include "status/statustext.h"

#include <QLocale>
#include <QTimeZone>

#include <algorithm>

namespace {
// Three significant digits at most, as a dashboard reads: 0.25, 4.20, 12.4, 1,250.
QString figure(double value)
{
    const double magnitude = qAbs(value);
    const int decimals = magnitude < 10 ? 2 : magnitude < 100 ? 1 : 0;
    return QLocale().toString(value, 'f', decimals);
}
} // namespace

QString DashboardText::gpuHours(qint64 workloadMs)
{
    return tr("%1 GPU-h").arg(figure(qMax<qint64>(0, workloadMs) / 3'600'000.0));
}

QString DashboardText::energy(const std::optional<double> &joules)
{
    if (!joules)
        return QString();
    const double wattHours = qMax(0.0, *joules) / 3600.0;
    if (wattHours < 1000)
        return tr("%1 Wh").arg(QLocale().toString(wattHours, 'f', wattHours < 10 ? 1 : 0));
    return tr("%1 kWh").arg(figure(wattHours / 1000.0));
}

QString DashboardText::openToStop(const std::optional<double> &ms)
{
    if (!ms)
        return QString();
    if (*ms < 10)
        return tr("%1 ms").arg(QLocale().toString(qMax(0.0, *ms), 'f', 1));
    if (*ms < 1000)
        return tr("%1 ms").arg(QLocale().toString(*ms, 'f', 0));
    return tr("%1 s").arg(QLocale().toString(*ms / 1000.0, 'f', 1));
}

QString DashboardText::wallTime(qint64 wallMs, const QDateTime &wallNow)
{
    const QDateTime at = QDateTime::fromMSecsSinceEpoch(wallMs, wallNow.timeZone());
    if (at.date() == wallNow.date())
        return QLocale().toString(at, QStringLiteral("HH:mm"));
    if (at.date() > wallNow.date().addDays(-7) && at.date() < wallNow.date())
        return QLocale().toString(at, QStringLiteral("ddd HH:mm"));
    return QLocale().toString(at, QStringLiteral("yyyy-MM-dd HH:mm"));
}

QString DashboardText::culprit(const PreemptionRecord &record)
{
    Holder holder;
    holder.comm = record.culpritProgram;
    holder.user = record.culpritUser;
    holder.pid = record.culpritPid;
    holder.hidden = record.culpritProgram.isEmpty();
    return StatusText::holder(holder);
}

QString DashboardText::metricTitle(GpuMetric metric)
{
    switch (metric) {
    case GpuMetric::Utilization: return tr("Utilization");
    case GpuMetric::Memory: return tr("Memory");
    case GpuMetric::Temperature: return tr("Temperature");
    case GpuMetric::Power: return tr("Power");
    }
    return QString();
}

QString DashboardText::metricValue(GpuMetric metric, double value)
{
    const QLocale locale;
    switch (metric) {
    case GpuMetric::Utilization: return tr("%1 %").arg(locale.toString(value, 'f', 0));
    case GpuMetric::Memory: return tr("%1 GiB").arg(locale.toString(value, 'f', 1));
    case GpuMetric::Temperature: return tr("%1 °C").arg(locale.toString(value, 'f', 0));
    case GpuMetric::Power: return tr("%1 W").arg(locale.toString(value, 'f', 0));
    }
    return QString();
}

QString DashboardText::metricAxisValue(GpuMetric metric, double value)
{
    if (metric == GpuMetric::Memory)
        return tr("%1 GiB").arg(QLocale().toString(value, 'f', 0));
    return metricValue(metric, value);
}

QString DashboardText::activityName(GpuActivity activity)
{
    switch (activity) {
    case GpuActivity::Workload: return tr("workload");
    case GpuActivity::ForeignUse: return tr("your jobs");
    case GpuActivity::Idle: return tr("idle");
    case GpuActivity::Unwatched: return tr("not watched");
    }
    return QString();
}

QString DashboardText::activityShares(const QList<ActivitySegment> &segments)
{
    QHash<GpuActivity, qint64> spent;
    for (const ActivitySegment &segment : segments)
        spent[segment.activity] += qMax<qint64>(0, segment.toWallMs - segment.fromWallMs);
    QStringList parts;
    for (GpuActivity activity : {GpuActivity::Workload, GpuActivity::ForeignUse, GpuActivity::Idle,
                                 GpuActivity::Unwatched})
        if (spent.value(activity) > 0)
            parts.append(tr("%1 %2").arg(activityName(activity), StatusText::duration(spent.value(activity))));
    return parts.join(tr(", "));
}

std::optional<PreemptionRecord> DashboardText::pendingPreemption(const LedgerSummary &ledger, const GpuStatus &gpu,
                                                                 qint64 wallNowMs)
{
    if (gpu.state == GpuState::RunningWorkload)
        return std::nullopt;
    for (const PreemptionRecord &record : ledger.recentPreemptions) { // newest first
        if (record.gpu != gpu.index)
            continue;
        if (wallNowMs - record.wallMs > LedgerSummary::kTimelineSpanMs)
            return std::nullopt;
        for (const ActivitySegment &segment : ledger.lastDay.value(gpu.index))
            if (segment.activity == GpuActivity::Workload && segment.fromWallMs > record.wallMs)
                return std::nullopt;
        return record;
    }
    return std::nullopt;
}

QString DashboardText::restartText(const GpuStatus &gpu, const MonitorState &state, qint64 nowMs,
                                   const QDateTime &wallNow)
{
    switch (gpu.state) {
    case GpuState::Busy: {
        const qint64 delayMs = Policy::startDelayMs(state.config);
        if (delayMs == 0)
            return tr("starts again as soon as the GPU is free");
        return tr("starts again %1 after the GPU is free").arg(StatusText::duration(delayMs));
    }
    case GpuState::Waiting: {
        const QDateTime at = wallNow.addMSecs(Policy::settledAtMs(gpu.freeSinceMs, state.config) - nowMs);
        return tr("starts again at %1").arg(QLocale().toString(at, QStringLiteral("HH:mm:ss")));
    }
    case GpuState::Idle:
        return tr("does not start again for now (%1)")
            .arg(StatusText::gpuActivity(gpu, state, nowMs, wallNow, false));
    case GpuState::RunningWorkload: return tr("running again");
    }
    return QString();
}

QString DashboardText::preemptionNote(const PreemptionRecord &record, const GpuStatus &gpu, const MonitorState &state,
                                      qint64 nowMs, const QDateTime &wallNow)
{
    const QString name = record.workloadName.isEmpty() ? tr("the workload") : record.workloadName;
    QString stopped = tr("Stopped %1 at %2 for %3").arg(name, wallTime(record.wallMs, wallNow), culprit(record));
    if (record.openToStopMs)
        stopped = tr("%1, %2 after its open").arg(stopped, openToStop(record.openToStopMs));
    return tr("%1; %2").arg(stopped, restartText(gpu, state, nowMs, wallNow));
}

namespace {
QString gpuList(const QList<int> &gpus)
{
    QStringList numbers;
    for (int gpu : gpus)
        numbers.append(QString::number(gpu));
    return numbers.join(DashboardText::tr(", "));
}
} // namespace

QString DashboardText::workloadGpus(const GpuSelection &gpus)
{
    if (gpus.all)
        return tr("All GPUs");
    if (gpus.indices.size() == 1)
        return tr("GPU %1").arg(gpus.indices.first());
    return tr("GPUs %1").arg(gpuList(gpus.indices));
}

QList<int> DashboardText::missingGpus(const WorkloadConfig &workload, const MonitorState &state)
{
    QList<int> missing;
    if (workload.gpus.all)
        return missing;
    for (int gpu : workload.gpus.indices) {
        const bool present = std::any_of(state.snapshot.devices.gpus.cbegin(), state.snapshot.devices.gpus.cend(),
                                         [gpu](const GpuDevice &device) { return device.index == gpu; });
        if (!present)
            missing.append(gpu);
    }
    return missing;
}

QString DashboardText::workloadActivity(const WorkloadConfig &workload, const MonitorState &state, qint64 nowMs,
                                        const QDateTime &wallNow)
{
    const WorkloadRuntime runtime = state.runtimes.value(workload.id);
    const auto clock = [&](qint64 atMs) { return StatusText::clockTime(atMs, nowMs, wallNow); };
    // The user's pause first, with until when: a running workload is on its way out. Only a stop that failed says more.
    if (runtime.state != WorkloadRuntime::StopFailed) {
        if (state.pause.workloadPausedAt(workload.id, nowMs)) {
            const qint64 until = state.pause.workloadUntilMs.value(workload.id);
            return until > 0 ? tr("Paused until %1").arg(clock(until)) : tr("Paused");
        }
        if (state.pause.allPausedAt(nowMs))
            return state.pause.allUntilMs > 0
                       ? tr("Paused with all workloads until %1").arg(clock(state.pause.allUntilMs))
                       : tr("Paused with all workloads");
    }
    switch (runtime.state) {
    case WorkloadRuntime::Running: {
        const QString where = runtime.gpus.size() == 1 ? tr("GPU %1").arg(runtime.gpus.first())
                                                       : tr("GPUs %1").arg(gpuList(runtime.gpus));
        if (runtime.startedAtMs == 0)
            return tr("Running on %1").arg(where);
        return tr("Running on %1 since %2").arg(where, clock(runtime.startedAtMs));
    }
    case WorkloadRuntime::Stopping: return tr("Stopping");
    case WorkloadRuntime::BackingOff:
        if (runtime.lastExit.isEmpty())
            return tr("Failing; tries again at %1").arg(clock(runtime.retryAtMs));
        return tr("Failing (%1); tries again at %2").arg(runtime.lastExit, clock(runtime.retryAtMs));
    case WorkloadRuntime::StopFailed:
        return tr("Failed to stop, its GPUs stay lent; tries again at %1").arg(clock(runtime.retryAtMs));
    case WorkloadRuntime::Stopped: break;
    }
    // Stopped: what the user can change first, then the policy's reason.
    const QList<int> missing = missingGpus(workload, state);
    if (missing.size() == 1)
        return tr("Waiting: its GPU %1 is not on this machine — choose another GPU in Settings").arg(missing.first());
    if (!missing.isEmpty())
        return tr("Waiting: its GPUs (%1) are not on this machine — choose other GPUs in Settings")
            .arg(gpuList(missing));
    if (workload.gpus.all && state.snapshot.devices.gpus.isEmpty())
        return tr("Waiting: there is no GPU on this machine yet");
    const WorkloadReason reason = state.decision.workloadReasons.value(workload.id);
    if (reason.hold == HoldReason::Disabled)
        return tr("Off — turn it on in Settings");
    if (!reason.text.isEmpty())
        return tr("Waiting: %1").arg(reason.text);
    return tr("Starting");
}
