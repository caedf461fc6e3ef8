// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The dashboard's translated words beyond StatusText's: GPU-hours and energy, the metrics' values, the 24-hour
// timeline, and what a preemption stopped, for whom and when it starts again. It holds no widget.
#include "model/monitorstate.h"
#include "status/metrichistory.h"

#include <QCoreApplication>
#include <QDateTime>

#include <optional>

class DashboardText
{
    Q_DECLARE_TR_FUNCTIONS(DashboardText)
public:
    // Returns workload time as GPU-hours: "0.25 GPU-h", "12.4 GPU-h", "1,250 GPU-h".
    static QString gpuHours(qint64 workloadMs);
    // Returns an energy: "45 Wh", "3.2 Wh", "12.40 kWh"; empty when absent (no backend measured it).
    static QString energy(const std::optional<double> &joules);
    // Returns the time from the foreign open to the stop: "4.2 ms", "38 ms", "1.3 s"; empty when absent (a scan found
    // the job).
    static QString openToStop(const std::optional<double> &ms);
    // Returns a moment on the wall clock (ms since the epoch), seen from `wallNow`: "14:02" today, "Tue 14:02" within
    // the last week, "2026-11-02 14:02" before.
    static QString wallTime(qint64 wallMs, const QDateTime &wallNow);
    // Returns who made the workload stop, in StatusText::holder's words: "python3 (alice, pid 4711)".
    static QString culprit(const PreemptionRecord &record);

    static QString metricTitle(GpuMetric metric); // "Utilization"
    static QString metricValue(GpuMetric metric, double value); // "37 %", "12.0 GiB", "54 °C", "231 W"
    static QString metricAxisValue(GpuMetric metric, double value); // whole numbers: "141 GiB"

    static QString activityName(GpuActivity activity); // "workload", "your jobs", "idle", "not watched"
    // Returns the time of each activity in `segments`: "workload 9 h 12 min, your jobs 3 h 05 min, idle 11 h 43 min".
    static QString activityShares(const QList<ActivitySegment> &segments);

    // Returns the preemption that the card of `gpu` still tells of: its newest one, unless a workload ran on the GPU
    // since (by its state or the ledger's timeline) or it is older than the timeline's 24 hours.
    static std::optional<PreemptionRecord> pendingPreemption(const LedgerSummary &ledger, const GpuStatus &gpu,
                                                             qint64 wallNowMs);
    // Returns when the stopped workload may start again, by the policy's start rule (Policy::settledAtMs): "starts
    // again 2 min after the GPU is free" while busy, "starts again at 14:05:07" while waiting, or why it does not yet.
    static QString restartText(const GpuStatus &gpu, const MonitorState &state, qint64 nowMs, const QDateTime &wallNow);
    // "Stopped miner at 14:02 for python3 (alice, pid 4711), 4.0 ms after its open; starts again 2 min after the
    // GPU is free".
    static QString preemptionNote(const PreemptionRecord &record, const GpuStatus &gpu, const MonitorState &state,
                                  qint64 nowMs, const QDateTime &wallNow);

    // Returns the GPUs a workload's gpus= names: "All GPUs", "GPU 2", "GPUs 2, 3".
    static QString workloadGpus(const GpuSelection &gpus);
    // Returns the GPUs of gpus= that are not on the machine (none for gpus = ALL).
    static QList<int> missingGpus(const WorkloadConfig &workload, const MonitorState &state);
    // Returns what a workload does, for its line in the status window: "Paused until 14:05", "Running on GPU 0 since
    // 13:50", "Failing (exit code 3); tries again at 14:03", "Waiting: its GPUs (2, 3) are not on this machine —
    // choose other GPUs in Settings", "Waiting: <the policy's reason>".
    static QString workloadActivity(const WorkloadConfig &workload, const MonitorState &state, qint64 nowMs,
                                    const QDateTime &wallNow);
};
