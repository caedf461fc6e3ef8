// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The fullest ledger summary a monitor hands on: every GPU's timeline at WorkLedger's bound of segments (a GPU that
// changed hands every 42 seconds all day), the 50 recent preemptions, totals and workload times on every GPU. For
// the tests that measure what the state's JSON weighs (tst_statejson, tst_it_busservice).
#include "model/ledgersummary.h"

#include <QString>

namespace TestSupport {

inline LedgerSummary fullLedger(qint64 nowWallMs, int gpus = 8, int segmentsPerGpu = 2048)
{
    LedgerSummary ledger;
    ledger.sinceWallMs = nowWallMs - 90LL * 24 * 3'600'000;
    const qint64 startMs = nowWallMs - LedgerSummary::kTimelineSpanMs;
    const qint64 stepMs = LedgerSummary::kTimelineSpanMs / segmentsPerGpu;
    // Every third segment idle; the others foreign use in one 5-minute stretch, workload in the next: the heaviest
    // timeline to send, since even on the coarsest grid (statejson.h) each cell differs from the one before.
    for (int gpu = 0; gpu < gpus; ++gpu) {
        QList<ActivitySegment> segments;
        for (int i = 0; i < segmentsPerGpu; ++i) {
            const qint64 fromMs = startMs + i * stepMs;
            const GpuActivity activity = (i + gpu) % 3 == 2            ? GpuActivity::Idle
                                         : (fromMs / 300'000) % 2 == 0 ? GpuActivity::ForeignUse
                                                                       : GpuActivity::Workload;
            segments.append({fromMs, i + 1 == segmentsPerGpu ? nowWallMs : fromMs + stepMs, activity});
        }
        ledger.lastDay.insert(gpu, segments);
        WorkPeriods periods{{3'600'000, 12, 1.5e6}, {20'000'000, 80, 9e6}, {700'000'000, 4000, 3e8}};
        ledger.byGpu.insert(gpu, periods);
        ledger.all.today.workloadMs += periods.today.workloadMs;
        ledger.all.week.workloadMs += periods.week.workloadMs;
        ledger.all.total.workloadMs += periods.total.workloadMs;
        ledger.workloadMs.insert(
            gpu, {{QStringLiteral("process-miner"), 500'000'000}, {QStringLiteral("process-boinc"), 200'000'000}});
    }
    ledger.all.today.preemptions = 12 * gpus;
    for (int i = 0; i < LedgerSummary::kRecentPreemptions; ++i) {
        PreemptionRecord record;
        record.wallMs = nowWallMs - i * 600'000LL;
        record.gpu = i % gpus;
        record.workloadName = QStringLiteral("miner");
        record.culpritProgram = QStringLiteral("python3");
        record.culpritUser = QStringLiteral("alice");
        record.culpritPid = 100'000 + i;
        if (i % 5 != 0)
            record.openToStopMs = 3.25 + i;
        ledger.recentPreemptions.append(record);
        ledger.openToStop.add(3.25 + i);
    }
    return ledger;
}

} // namespace TestSupport
