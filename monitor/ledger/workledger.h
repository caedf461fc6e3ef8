// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The monitor's account of what the idle GPUs did, behind LedgerSummary: what each GPU was doing when, the workload
// time and the energy by local day, and the preemptions. It is bookkeeping only, over a Clock: the monitor feeds it
// at every decision and sample, and LedgerStore keeps it across restarts as JSON (toJson / restore).
//
// Time is counted by the monotonic clock (a suspend or a step of the wall clock counts nothing) and placed on the
// wall clock, where the timeline and the local days live: a stretch nobody counted (idlegpu not running, the
// machine asleep) is Unwatched.
#include "model/gpumetrics.h"
#include "base/clock.h"
#include "model/ledgersummary.h"
#include "model/workloadruntime.h"

#include <QByteArray>
#include <QDate>
#include <QHash>
#include <QJsonObject>
#include <QMap>

struct GpuStatus;

class WorkLedger
{
public:
    // The shortest change that is drawn. A shorter one takes the activity that follows (an open/close storm must not
    // make thousands of segments), though its time still counts in the totals.
    static constexpr qint64 kMinSegmentMs = 1000;
    // The most segments of one GPU in 24 h; past it, the oldest two become one.
    static constexpr int kMaxSegmentsPerGpu = 2048;
    // The number of local days kept apart: this week from Monday, and today.
    static constexpr int kDaysKept = 8;

    explicit WorkLedger(const Clock *clock = SystemClock::instance());

    // Returns what a GPU does by the monitor's decision and the runner: ForeignUse when a foreign holder makes it
    // busy, else Workload when a workload occupies it (also while it stops), else Idle.
    static GpuActivity activityOf(const GpuStatus &gpu, const QHash<QString, WorkloadRuntime> &runtimes);

    // Returns the ids of the workloads that occupy a GPU by the runner, as activityOf() counts them.
    static QStringList workloadsOn(int gpu, const QHash<QString, WorkloadRuntime> &runtimes);

    // Sets what each GPU present does from now on; a GPU left out is absent (Unwatched). `workloads` gives the ids of
    // the workloads that occupy each GPU doing Workload, whose time counts for each of them too. The time since the
    // last call counts under what each GPU did until now.
    void setActivity(const QHash<int, GpuActivity> &activity, const QHash<int, QStringList> &workloads = {});
    // Counts the time up to now under the activities in force.
    void advance();
    // Ends the watch when idlegpu stops watching: the time up to now counts, and nothing counts until the next
    // setActivity().
    void stopWatching();
    // Adds a backend's sample: each GPU's energy counter or, without one, its power. The energy since the GPU's
    // previous sample counts for the share of that time a workload ran on it (for power, the mean of the two samples).
    void addEnergySample(const QHash<int, GpuInfo> &gpus);
    // Adds a workload stopped for a foreign job; a wallMs of 0 means now.
    void addPreemption(PreemptionRecord record);

    LedgerSummary summary() const;

    // Returns the whole ledger as LedgerStore writes it.
    QByteArray toJson() const;
    // Replaces this ledger with the one that `json` holds (what idlegpu did up to then; every GPU is Unwatched from
    // there). Returns false, with `error` saying why and this ledger unchanged, when it is not one: bad JSON, wrong
    // types, values that no ledger holds.
    bool restore(const QByteArray &json, QString *error);

private:
    struct GpuTrack
    {
        GpuActivity activity = GpuActivity::Unwatched; // in force since the last advance
        QStringList workloads;                         // with Workload, the ids whose time it is
        QList<ActivitySegment> segments;               // oldest first, contiguous except for Unwatched gaps
        // The previous energy sample, and the workload time since.
        qint64 sampledAtMs = -1; // monotonic; -1 means none
        std::optional<qint64> energyMillijoules;
        std::optional<int> powerMilliwatts;
        qint64 workloadMsSinceSample = 0;
    };

    qint64 wallNowMs() const;
    // Adds [fromWallMs, toWallMs] under `activity` to the GPU's timeline: an uncounted gap before it is Unwatched,
    // a stretch too short to draw takes the activity after it, and like neighbours merge.
    static void addSpan(GpuTrack &track, qint64 fromWallMs, qint64 toWallMs, GpuActivity activity);
    void trimTimeline(GpuTrack &track, qint64 nowWallMs) const;
    // Adds the workload time on `gpu` in [fromWallMs, toWallMs], split at local midnights.
    void addWorkloadTime(int gpu, qint64 fromWallMs, qint64 toWallMs);
    WorkTotals &dayTotals(qint64 wallMs, int gpu);
    void dropOldDays(const QDate &today);
    // Repairs the ledger after the wall clock was set back, since nothing may lie after now. Days after today add to
    // today (their time was counted by the monotonic clock, so it happened, just not then); segments and preemptions
    // end at now.
    void clampToNow(qint64 nowWallMs, const QDate &today);
    // Returns the GPUs with totals or a timeline: those with totals first, in no particular order.
    QList<int> knownGpus() const;

    const Clock *m_clock;
    QMap<int, GpuTrack> m_gpus;
    QMap<QDate, QHash<int, WorkTotals>> m_days; // by local date, the last kDaysKept
    QHash<int, WorkTotals> m_totals;            // since the ledger began
    QHash<int, QHash<QString, qint64>> m_workloadMs; // by GPU, then workload id, since the ledger began
    LatencyHistogram m_openToStop;
    QList<PreemptionRecord> m_recent;           // newest first
    qint64 m_sinceWallMs = 0;
    qint64 m_countedToMs = -1; // the monotonic time counted up to; -1 when not counting (before setActivity())
};

// The sum of two totals; the energy is present when either has it.
WorkTotals &operator+=(WorkTotals &into, const WorkTotals &more);

// Returns the totals as the ledger file stores them and --status --json shows them: {"workload_ms": 5000,
// "preemptions": 2, "energy_joules": 1234.5}, without energy_joules when it was not measured.
QJsonObject workTotalsToJson(const WorkTotals &totals);
