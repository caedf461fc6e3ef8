// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The monitor's account of what the idle GPUs did, behind LedgerSummary: what each GPU was doing when, the workload
// time and the energy by local day, and the preemptions. It is bookkeeping only, over a Clock: the monitor feeds it
// at every decision and sample, and LedgerStore keeps it across restarts as JSON (toJson / restore).
#include "base/clock.h"
#include "model/gpumetrics.h"
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
    // The shortest change that is drawn, so that an open/close storm makes no thousands of segments; a shorter one
    // takes the activity that follows, and its time still counts in the totals.
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

    // Sets what each GPU present does from now on, after counting the time since the last call; a GPU left out is
    // Unwatched. `workloads` gives the ids of the workloads on each GPU doing Workload.
    void setActivity(const QHash<int, GpuActivity> &activity, const QHash<int, QStringList> &workloads = {});
    // Counts the time up to now under the activities in force.
    void advance();
    // Ends the watch when idlegpu stops watching: the time up to now counts, and nothing counts until the next
    // setActivity().
    void stopWatching();
    // Adds a backend's sample of each GPU's energy counter or, without one, its power.
    void addEnergySample(const QHash<int, GpuInfo> &gpus);
    // Adds a workload stopped for a foreign job; a wallMs of 0 means now.
    void addPreemption(PreemptionRecord record);

    LedgerSummary summary() const;

    // Returns the whole ledger as LedgerStore writes it.
    QByteArray toJson() const;
    // Replaces this ledger with the one that `json` holds, every GPU Unwatched from then on. Returns false, with
    // *error set and this ledger unchanged, when it is no ledger.
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
    static void addSpan(GpuTrack &track, qint64 fromWallMs, qint64 toWallMs, GpuActivity activity);
    void trimTimeline(GpuTrack &track, qint64 nowWallMs) const;
    void addWorkloadTime(int gpu, qint64 fromWallMs, qint64 toWallMs);
    WorkTotals &dayTotals(qint64 wallMs, int gpu);
    void dropOldDays(const QDate &today);
    void clampToNow(qint64 nowWallMs, const QDate &today);
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

// Returns the sum of two totals; the energy is present when either has it.
WorkTotals &operator+=(WorkTotals &into, const WorkTotals &more);

// Returns the totals as the ledger file stores them and --status --json shows them: {"workload_ms": 5000,
// "preemptions": 2, "energy_joules": 1234.5}, without energy_joules when it was not measured.
QJsonObject workTotalsToJson(const WorkTotals &totals);
