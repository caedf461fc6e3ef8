// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The value types of what the idle GPUs did, as the front ends show it: workload time and energy, preemptions, and
// each GPU's last 24 hours. WorkLedger hands this summary on in MonitorState.
#include <QHash>
#include <QList>
#include <QString>

#include <array>
#include <optional>

// The activity of a GPU in the 24-hour timeline.
enum class GpuActivity {
    Unwatched, // idlegpu was not running, or the GPU was absent
    Idle,      // nobody used it and no workload ran (held by a rule, waiting, nothing configured)
    Workload,  // an idle workload ran on it
    ForeignUse // the owner's (or another foreign) job used it
};

// A stretch of the timeline with one activity.
struct ActivitySegment
{
    qint64 fromWallMs = 0; // ms since the epoch
    qint64 toWallMs = 0;
    GpuActivity activity = GpuActivity::Unwatched;
};

// One preemption as the ledger records it.
struct PreemptionRecord
{
    qint64 wallMs = 0; // when the workload was stopped, ms since the epoch
    int gpu = -1;
    QString workloadName;
    QString culpritProgram; // the foreign process's program name; empty when it could not be seen
    QString culpritUser;
    qint64 culpritPid = 0;
    // The time from the moment idlegpu read the foreign open's inotify event to the SIGTERM; absent when a poll or a
    // backend found the job rather than an open event.
    std::optional<double> openToStopMs;
};

// The work done in a period: workload time, preemptions and energy.
struct WorkTotals
{
    qint64 workloadMs = 0; // GPU time with a workload running: GPU-hours = workloadMs / 3'600'000
    int preemptions = 0;
    // The GPU's energy while a workload ran on it; absent where no backend measures energy or power.
    std::optional<double> energyJoules;
};

// The open-to-stop times (PreemptionRecord::openToStopMs) of every preemption that had one, counted into fixed
// buckets: the recent list keeps only the last kRecentPreemptions, a fleet's latency histogram needs them all.
struct LatencyHistogram
{
    // The inclusive upper bounds; a last bucket without a bound follows. They run from 1 ms (an inotify-driven stop
    // takes a few) to 10 s (the fallback poll's default interval).
    static constexpr std::array<double, 13> kBoundsMs{1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000};
    std::array<qint64, kBoundsMs.size() + 1> counts{}; // per bucket, not cumulative; the last is above 10 s
    double sumMs = 0;

    void add(double ms)
    {
        std::size_t bucket = 0;
        while (bucket < kBoundsMs.size() && ms > kBoundsMs[bucket])
            ++bucket;
        ++counts[bucket];
        sumMs += ms;
    }
    qint64 count() const
    {
        qint64 total = 0;
        for (qint64 n : counts)
            total += n;
        return total;
    }
    bool operator==(const LatencyHistogram &) const = default;
};

// The totals of today and of this week in local time (the week from Monday 00:00), and since the ledger began.
struct WorkPeriods
{
    WorkTotals today;
    WorkTotals week;
    WorkTotals total;
};

// The summary of the ledger that MonitorState carries to the front ends.
struct LedgerSummary
{
    static constexpr int kRecentPreemptions = 50;
    static constexpr qint64 kTimelineSpanMs = 24 * 3'600'000LL;

    WorkPeriods all;                            // every GPU together
    QHash<int, WorkPeriods> byGpu;              // by GPU index
    QList<PreemptionRecord> recentPreemptions;  // newest first, at most kRecentPreemptions
    QHash<int, QList<ActivitySegment>> lastDay; // by GPU index: oldest first, within the last kTimelineSpanMs
    qint64 sinceWallMs = 0;                     // when the ledger began; 0 when nothing is recorded yet
    // By GPU index, then workload id: the time that each workload occupied the GPU since the ledger began keeping it
    // (a GPU's total.workloadMs is its time with any workload; two workloads at once on one GPU count each).
    QHash<int, QHash<QString, qint64>> workloadMs;
    LatencyHistogram openToStop; // every GPU together
};
