// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// DashboardText: GPU-hours, energy, open-to-stop times, and after a preemption what was stopped, for whom and when it
// starts again (by the policy's start rule), and when the card stops telling of it.
#include "policy/policy.h"
#include "status/dashboardtext.h"

#include <QtTest>

namespace {
constexpr qint64 kNowMs = 50'000'000;
const QDateTime kWallNow(QDate(2026, 11, 5), QTime(14, 0), Qt::UTC);
const qint64 kWallNowMs = kWallNow.toMSecsSinceEpoch();

PreemptionRecord preemption(qint64 agoMs, std::optional<double> openToStopMs = 4.0)
{
    PreemptionRecord record;
    record.wallMs = kWallNowMs - agoMs;
    record.gpu = 1;
    record.workloadName = QStringLiteral("miner");
    record.culpritProgram = QStringLiteral("python3");
    record.culpritUser = QStringLiteral("alice");
    record.culpritPid = 4711;
    record.openToStopMs = openToStopMs;
    return record;
}

GpuStatus gpu1(GpuState state)
{
    GpuStatus gpu;
    gpu.index = 1;
    gpu.state = state;
    gpu.workloadId = QStringLiteral("process-miner");
    return gpu;
}

MonitorState withDelay(int seconds)
{
    MonitorState state;
    state.config.startDelaySeconds = seconds;
    WorkloadConfig miner;
    miner.id = QStringLiteral("process-miner");
    miner.name = QStringLiteral("miner");
    state.config.workloads = {miner};
    return state;
}
} // namespace

class TestDashboardText : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void gpuHours_data();
    void gpuHours();
    void energy_data();
    void energy();
    void openToStop();
    void wallTime();
    void hiddenCulprit();
    void noteWhileBusy();
    void noteWhileWaitingNamesTheTime();
    void noteWhileHeldBack();
    void pendingUntilTheWorkloadRunsAgain();
    void activityShares();
};

void TestDashboardText::gpuHours_data()
{
    QTest::addColumn<qint64>("ms");
    QTest::addColumn<QString>("text");
    QTest::newRow("nothing") << qint64(0) << QStringLiteral("0.00 GPU-h");
    QTest::newRow("a quarter hour") << qint64(900'000) << QStringLiteral("0.25 GPU-h");
    QTest::newRow("12 h 24 min") << qint64(12 * 3'600'000 + 24 * 60'000) << QStringLiteral("12.4 GPU-h");
    QTest::newRow("a month on two GPUs") << qint64(1440LL * 3'600'000) << QStringLiteral("1,440 GPU-h");
}

void TestDashboardText::gpuHours()
{
    QFETCH(qint64, ms);
    QFETCH(QString, text);
    QCOMPARE(DashboardText::gpuHours(ms), text);
}

void TestDashboardText::energy_data()
{
    QTest::addColumn<double>("joules");
    QTest::addColumn<QString>("text");
    QTest::newRow("3.2 Wh") << 3.2 * 3600 << QStringLiteral("3.2 Wh");
    QTest::newRow("640 Wh") << 640.0 * 3600 << QStringLiteral("640 Wh");
    QTest::newRow("1 kWh") << 1000.0 * 3600 << QStringLiteral("1.00 kWh");
    QTest::newRow("12.4 kWh") << 12'400.0 * 3600 << QStringLiteral("12.4 kWh");
}

void TestDashboardText::energy()
{
    QFETCH(double, joules);
    QFETCH(QString, text);
    QCOMPARE(DashboardText::energy(joules), text);
}

void TestDashboardText::openToStop()
{
    QCOMPARE(DashboardText::openToStop(4.0), QStringLiteral("4.0 ms"));
    QCOMPARE(DashboardText::openToStop(0.36), QStringLiteral("0.4 ms"));
    QCOMPARE(DashboardText::openToStop(38.4), QStringLiteral("38 ms"));
    QCOMPARE(DashboardText::openToStop(1250.0), QStringLiteral("1.3 s"));
    QCOMPARE(DashboardText::openToStop(std::nullopt), QString()); // a scan found the job
    QCOMPARE(DashboardText::energy(std::nullopt), QString());
}

void TestDashboardText::wallTime()
{
    QCOMPARE(DashboardText::wallTime(kWallNowMs - 3 * 60'000, kWallNow), QStringLiteral("13:57"));
    QCOMPARE(DashboardText::wallTime(kWallNowMs - 15 * 3'600'000LL, kWallNow), QStringLiteral("Wed 23:00"));
    QCOMPARE(DashboardText::wallTime(kWallNowMs - 10 * 24 * 3'600'000LL, kWallNow), QStringLiteral("2026-10-26 14:00"));
}

void TestDashboardText::hiddenCulprit()
{
    PreemptionRecord record = preemption(60'000);
    record.culpritProgram.clear();
    record.culpritPid = 0;
    QCOMPARE(DashboardText::culprit(record), QStringLiteral("a process of another user (not visible without root)"));
    QCOMPARE(DashboardText::culprit(preemption(60'000)), QStringLiteral("python3 (alice, pid 4711)"));
}

// The job still holds the GPU: the workload starts the start delay after it lets go.
void TestDashboardText::noteWhileBusy()
{
    const MonitorState state = withDelay(120);
    QCOMPARE(DashboardText::preemptionNote(preemption(3 * 60'000), gpu1(GpuState::Busy), state, kNowMs, kWallNow),
             QStringLiteral("Stopped miner at 13:57 for python3 (alice, pid 4711), 4.0 ms after its open; "
                            "starts again 2 min after the GPU is free"));
    QCOMPARE(DashboardText::restartText(gpu1(GpuState::Busy), withDelay(0), kNowMs, kWallNow),
             QStringLiteral("starts again as soon as the GPU is free"));
    // Found by a scan: no open-to-stop time to tell.
    QCOMPARE(DashboardText::preemptionNote(preemption(3 * 60'000, std::nullopt), gpu1(GpuState::Busy), state, kNowMs,
                                           kWallNow),
             QStringLiteral("Stopped miner at 13:57 for python3 (alice, pid 4711); "
                            "starts again 2 min after the GPU is free"));
}

// Free again: the moment by Policy::settledAtMs, the same the policy waits for (a negative delay counts as none).
void TestDashboardText::noteWhileWaitingNamesTheTime()
{
    GpuStatus waiting = gpu1(GpuState::Waiting);
    waiting.freeSinceMs = kNowMs - 30'000;
    QCOMPARE(DashboardText::restartText(waiting, withDelay(120), kNowMs, kWallNow),
             QStringLiteral("starts again at 14:01:30"));
    QCOMPARE(Policy::settledAtMs(waiting.freeSinceMs, withDelay(120).config), kNowMs + 90'000);
    QCOMPARE(DashboardText::restartText(waiting, withDelay(-5), kNowMs, kWallNow),
             QStringLiteral("starts again at 13:59:30"));
}

void TestDashboardText::noteWhileHeldBack()
{
    MonitorState state = withDelay(120);
    state.decision.hold = HoldReason::Paused;
    GpuStatus idle = gpu1(GpuState::Idle);
    idle.reason = QStringLiteral("paused");
    QCOMPARE(DashboardText::restartText(idle, state, kNowMs, kWallNow),
             QStringLiteral("does not start again for now (idle — paused)"));
}

void TestDashboardText::pendingUntilTheWorkloadRunsAgain()
{
    LedgerSummary ledger;
    PreemptionRecord other = preemption(60'000);
    other.gpu = 0;
    ledger.recentPreemptions = {other, preemption(3 * 60'000), preemption(40 * 60'000)}; // newest first
    ledger.lastDay[1] = {
        {kWallNowMs - 5 * 3'600'000LL, kWallNowMs - 3 * 60'000, GpuActivity::Workload},
        {kWallNowMs - 3 * 60'000, kWallNowMs, GpuActivity::ForeignUse},
    };
    const auto pending = DashboardText::pendingPreemption(ledger, gpu1(GpuState::Busy), kWallNowMs);
    QVERIFY(pending);
    QCOMPARE(pending->wallMs, kWallNowMs - 3 * 60'000); // GPU 1's newest, not GPU 0's
    QCOMPARE(pending->culpritPid, 4711);

    QVERIFY(!DashboardText::pendingPreemption(ledger, gpu1(GpuState::RunningWorkload), kWallNowMs));
    // The workload ran again since (and stopped for another reason): nothing pending.
    ledger.lastDay[1].append({kWallNowMs - 60'000, kWallNowMs, GpuActivity::Workload});
    ledger.lastDay[1][1].toWallMs = kWallNowMs - 60'000;
    QVERIFY(!DashboardText::pendingPreemption(ledger, gpu1(GpuState::Idle), kWallNowMs));
    // Older than the timeline can tell.
    ledger.lastDay.clear();
    QVERIFY(DashboardText::pendingPreemption(ledger, gpu1(GpuState::Idle), kWallNowMs));
    QVERIFY(!DashboardText::pendingPreemption(ledger, gpu1(GpuState::Idle), kWallNowMs + 25 * 3'600'000LL));
    // No preemption on this GPU at all.
    ledger.recentPreemptions = {other};
    QVERIFY(!DashboardText::pendingPreemption(ledger, gpu1(GpuState::Busy), kWallNowMs));
}

void TestDashboardText::activityShares()
{
    const QList<ActivitySegment> segments = {
        {0, 3'600'000, GpuActivity::Idle},
        {3'600'000, 3'600'000 + 9 * 3'600'000LL + 12 * 60'000, GpuActivity::Workload},
        {40'000'000, 40'000'000 + 185 * 60'000, GpuActivity::ForeignUse},
        {60'000'000, 60'000'000 + 30'000, GpuActivity::Workload},
    };
    QCOMPARE(DashboardText::activityShares(segments),
             QStringLiteral("workload 9 h 12 min, your jobs 3 h 05 min, idle 1 h 00 min"));
    QCOMPARE(DashboardText::activityShares({}), QString());
}

QTEST_GUILESS_MAIN(TestDashboardText)
#include "tst_dashboardtext.moc"
