// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The status window: a row per GPU from a MonitorState, run-time counters (also while hidden, across midnight)
// and each GPU's history over the last hour.
#include "config/config.h"
#include "status/statuswindow.h"

#include <QLabel>
#include <QTableWidget>
#include <QtTest>

namespace {

constexpr qint64 kNowMs = 50'000'000;
const QDateTime kWallNow(QDate(2026, 11, 5), QTime(14, 0), Qt::UTC);

// GPU 0 runs "miner", python3 of alice holds GPU 1.
MonitorState twoGpus(WorkloadRuntime::State minerState = WorkloadRuntime::Running)
{
    MonitorState state;
    WorkloadConfig miner;
    miner.id = QStringLiteral("process-miner");
    miner.name = QStringLiteral("miner");
    state.config.workloads = {miner};
    state.snapshot.takenAtMs = kNowMs;
    state.snapshot.devices.gpus = {{0, QStringLiteral("/dev/nvidia0")}, {1, QStringLiteral("/dev/nvidia1")}};

    WorkloadRuntime runtime;
    runtime.id = miner.id;
    runtime.state = minerState;
    runtime.startedAtMs = kNowMs - 600'000;
    runtime.gpus = {0};
    state.runtimes.insert(runtime.id, runtime);

    GpuStatus gpu0;
    gpu0.index = 0;
    gpu0.state = minerState == WorkloadRuntime::Running ? GpuState::RunningWorkload : GpuState::Idle;
    gpu0.workloadId = miner.id;
    GpuStatus gpu1;
    gpu1.index = 1;
    gpu1.state = GpuState::Busy;
    Holder alice;
    alice.comm = QStringLiteral("python3");
    alice.user = QStringLiteral("alice");
    alice.pid = 4242;
    alice.gpus = {1};
    alice.holdsSharedNode = true;
    alice.holdsComputeNode = true; // a CUDA job
    gpu1.foreignHolders = {alice};
    state.decision.gpus = {gpu0, gpu1};
    return state;
}

QString cell(const StatusWindow &window, int row, int column)
{
    const QTableWidgetItem *item = window.table()->item(row, column);
    return item ? item->text() : QStringLiteral("<no item>");
}

} // namespace

class TestStatusWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void rowPerGpu();
    void holdReasonInSummary();
    void runsAsRootInSummaryAndRow();
    void hiddenWindowOnlyCounts();
    void runTimeCountsOnlyRunningTime();
    void todayStartsAtMidnight();
    void historyKeepsTheLastHour();
    void graphPerGpu();
    void backendNamesAndMetrics();
    void holdersSayTheirKindAndWhy();
    void samplingWantedWhileShown();
};

void TestStatusWindow::rowPerGpu()
{
    StatusWindow window;
    window.applyState(twoGpus(), kNowMs, kWallNow);
    window.show();
    QCOMPARE(window.table()->rowCount(), 2);
    QCOMPARE(window.table()->columnCount(), int(StatusWindow::ColumnCount));

    QCOMPARE(cell(window, 0, StatusWindow::GpuColumn), QStringLiteral("0"));
    QCOMPARE(cell(window, 0, StatusWindow::NameColumn), QString()); // node-only: no backend names it
    QCOMPARE(cell(window, 0, StatusWindow::ActivityColumn), QStringLiteral("running miner since 13:50"));
    QCOMPARE(cell(window, 0, StatusWindow::HoldersColumn), QString());
    QCOMPARE(cell(window, 0, StatusWindow::WorkloadColumn), QStringLiteral("miner"));
    QCOMPARE(cell(window, 0, StatusWindow::WorkloadStateColumn), QStringLiteral("running"));
    QCOMPARE(cell(window, 0, StatusWindow::TodayColumn), QStringLiteral("0 s"));

    QCOMPARE(cell(window, 1, StatusWindow::GpuColumn), QStringLiteral("1"));
    QCOMPARE(cell(window, 1, StatusWindow::ActivityColumn), QStringLiteral("busy — python3 (alice, pid 4242)"));
    QCOMPARE(cell(window, 1, StatusWindow::HoldersColumn), QStringLiteral("python3 (alice, pid 4242), compute client"));
    QCOMPARE(cell(window, 1, StatusWindow::WorkloadColumn), QString());
    QCOMPARE(window.findChild<QLabel *>(QStringLiteral("summary"))->text(), QStringLiteral("Running idle workloads"));

    // A GPU goes away: its row and graph go too.
    MonitorState oneGpu = twoGpus();
    oneGpu.decision.gpus.removeLast();
    oneGpu.snapshot.devices.gpus.removeLast();
    window.applyState(oneGpu, kNowMs + 1000, kWallNow.addSecs(1));
    QCOMPARE(window.table()->rowCount(), 1);
    QVERIFY(!window.findChild<GpuHistoryGraph *>(QStringLiteral("history1")));
}

// Why every workload is held back heads the window, as in the tray; the GPUs' rows say they are paused.
void TestStatusWindow::holdReasonInSummary()
{
    MonitorState state = twoGpus(WorkloadRuntime::Stopped);
    state.decision.hold = HoldReason::OutsideSchedule;
    state.decision.holdText = QStringLiteral("outside the schedule until Mon 18:00");
    state.decision.holdEndsAt = QDateTime(QDate(2026, 11, 9), QTime(18, 0));
    state.decision.gpus[0].reason = state.decision.holdText;
    StatusWindow window;
    window.applyState(state, kNowMs, kWallNow);
    window.show();
    QCOMPARE(window.findChild<QLabel *>(QStringLiteral("summary"))->text(),
             QStringLiteral("Paused: outside the schedule (until Mon 18:00)"));
    QCOMPARE(cell(window, 0, StatusWindow::ActivityColumn), QStringLiteral("idle — paused"));
    QCOMPARE(cell(window, 1, StatusWindow::ActivityColumn), QStringLiteral("busy — python3 (alice, pid 4242)"));
}

// A root idlegpu with a workload that names no user (gpu_mon's files): the loader's warning, with the way out, heads
// the window as the monitor passes it on, and the workload's row says it runs as root.
void TestStatusWindow::runsAsRootInSummaryAndRow()
{
    UserLookup root;
    root.effectiveUid = 0;
    root.find = [](const QString &) { return std::optional<UserAccount>(); };
    const ConfigLoadResult loaded =
        ConfigLoader::parse("[process-miner]\nname = miner\ncmd = miner-run\n", QStringLiteral("/c.conf"), root);
    QVERIFY(loaded.ok());
    MonitorState state = twoGpus();
    state.config.workloads = loaded.config.workloads;
    state.configProblems = loaded.diagnostics;
    StatusWindow window;
    window.applyState(state, kNowMs, kWallNow);
    window.show();
    QCOMPARE(window.findChild<QLabel *>(QStringLiteral("summary"))->text(),
             QStringLiteral("Running idle workloads\n/c.conf:1: warning: [process-miner] runs as root, as gpu_mon ran "
                            "it: add `user = NAME` to run it as that user"));
    QCOMPARE(cell(window, 0, StatusWindow::WorkloadColumn), QStringLiteral("miner (as root)"));
}

void TestStatusWindow::hiddenWindowOnlyCounts()
{
    StatusWindow window;
    window.applyState(twoGpus(), kNowMs, kWallNow);
    window.applyState(twoGpus(), kNowMs + 90'000, kWallNow.addSecs(90));
    QCOMPARE(window.refreshCount(), 0); // hidden: no table work
    QCOMPARE(window.table()->rowCount(), 0);
    QCOMPARE(window.ledger().todayMs(QStringLiteral("process-miner")), 90'000);

    window.show();
    QCOMPARE(window.refreshCount(), 1);
    QCOMPARE(cell(window, 0, StatusWindow::TodayColumn), QStringLiteral("1 min"));
    window.applyState(twoGpus(), kNowMs + 200'000, kWallNow.addSecs(200));
    QCOMPARE(window.refreshCount(), 2);
    QCOMPARE(cell(window, 0, StatusWindow::TotalColumn), QStringLiteral("3 min"));

    window.hide();
    window.applyState(twoGpus(), kNowMs + 300'000, kWallNow.addSecs(300));
    QCOMPARE(window.refreshCount(), 2);
    QCOMPARE(window.ledger().totalMs(QStringLiteral("process-miner")), 300'000);
}

void TestStatusWindow::runTimeCountsOnlyRunningTime()
{
    RunTimeLedger ledger;
    const QString miner = QStringLiteral("process-miner");
    ledger.update(twoGpus(WorkloadRuntime::Stopped), kNowMs, kWallNow);
    ledger.update(twoGpus(WorkloadRuntime::Running), kNowMs + 10'000, kWallNow.addSecs(10));
    QCOMPARE(ledger.totalMs(miner), 0); // it was stopped until now
    ledger.update(twoGpus(WorkloadRuntime::Stopping), kNowMs + 70'000, kWallNow.addSecs(70));
    QCOMPARE(ledger.totalMs(miner), 60'000);
    ledger.update(twoGpus(WorkloadRuntime::BackingOff), kNowMs + 80'000, kWallNow.addSecs(80));
    QCOMPARE(ledger.totalMs(miner), 60'000); // stopping is not running
    QCOMPARE(ledger.todayMs(miner), 60'000);
}

void TestStatusWindow::todayStartsAtMidnight()
{
    RunTimeLedger ledger;
    const QString miner = QStringLiteral("process-miner");
    const QDateTime lateEvening(QDate(2026, 11, 5), QTime(23, 50), Qt::LocalTime); // the test runs with TZ=UTC
    ledger.update(twoGpus(), kNowMs, lateEvening);
    ledger.update(twoGpus(), kNowMs + 20 * 60'000, lateEvening.addSecs(20 * 60)); // 00:10 the next day
    QCOMPARE(ledger.totalMs(miner), 20 * 60'000);
    QCOMPARE(ledger.todayMs(miner), 10 * 60'000);
    ledger.update(twoGpus(), kNowMs + 30 * 60'000, lateEvening.addSecs(30 * 60));
    QCOMPARE(ledger.todayMs(miner), 20 * 60'000);
}

void TestStatusWindow::historyKeepsTheLastHour()
{
    GpuHistory history;
    history.record(GpuState::Idle, 0);
    history.record(GpuState::Idle, 60'000); // no change: nothing stored
    history.record(GpuState::RunningWorkload, 600'000);
    history.record(GpuState::Busy, 3'000'000);

    const QList<GpuHistory::Segment> early = history.segments(3'600'000);
    QCOMPARE(early.size(), 3);
    QCOMPARE(early.at(0).fromMs, 0);
    QCOMPARE(early.at(0).toMs, 600'000);
    QCOMPARE(early.at(0).state, GpuState::Idle);
    QCOMPARE(early.at(1).state, GpuState::RunningWorkload);
    QCOMPARE(early.at(2).fromMs, 3'000'000);
    QCOMPARE(early.at(2).toMs, 3'600'000);

    // Two hours in: only the busy spell is left, clipped to the hour.
    history.record(GpuState::Busy, 7'200'000);
    const QList<GpuHistory::Segment> late = history.segments(7'200'000);
    QCOMPARE(late.size(), 1);
    QCOMPARE(late.at(0).fromMs, 3'600'000);
    QCOMPARE(late.at(0).toMs, 7'200'000);
    QCOMPARE(late.at(0).state, GpuState::Busy);
}

void TestStatusWindow::graphPerGpu()
{
    StatusWindow window;
    window.applyState(twoGpus(), kNowMs, kWallNow);
    // Histories are kept while hidden.
    QCOMPARE(window.history(1).segments(kNowMs + 1000).size(), 1);
    window.show();
    QVERIFY(window.findChild<GpuHistoryGraph *>(QStringLiteral("history0")));
    QVERIFY(window.findChild<GpuHistoryGraph *>(QStringLiteral("history1")));
    QVERIFY(!window.grab().isNull()); // paints without trouble
}

// With a GPU backend: the model in the Name column, UUID and bus id in its tooltip, the metrics over the graph.
void TestStatusWindow::backendNamesAndMetrics()
{
    MonitorState state = twoGpus();
    GpuInfo info;
    info.index = 1;
    info.backendIndex = 0;
    info.name = QStringLiteral("NVIDIA H200");
    info.uuid = QStringLiteral("GPU-aaaa");
    info.busId = QStringLiteral("00000000:19:00.0");
    info.utilizationPercent = 37;
    state.gpuMetrics.backend = QStringLiteral("NVML");
    state.gpuMetrics.available = true;
    state.gpuMetrics.gpus.insert(1, info);
    StatusWindow window;
    window.applyState(state, kNowMs, kWallNow);
    window.show();
    QCOMPARE(cell(window, 0, StatusWindow::NameColumn), QString());
    QCOMPARE(cell(window, 1, StatusWindow::NameColumn), QStringLiteral("NVIDIA H200"));
    const QString tooltip = window.table()->item(1, StatusWindow::NameColumn)->toolTip();
    QVERIFY2(tooltip.contains(QLatin1String("GPU-aaaa")) && tooltip.contains(QLatin1String("00000000:19:00.0"))
                 && tooltip.contains(QLatin1String("nvidia-smi index 0")),
             qPrintable(tooltip));
    bool metricsShown = false;
    for (const QLabel *label : window.findChildren<QLabel *>())
        metricsShown = metricsShown || label->text().contains(QLatin1String("37% busy"));
    QVERIFY(metricsShown);
}

// Each holder with its kind (busy_when = auto); why it counts or not in the Held by cell's tooltip, in the
// policy's words.
void TestStatusWindow::holdersSayTheirKindAndWhy()
{
    MonitorState state = twoGpus();
    Holder browser;
    browser.comm = QStringLiteral("firefox");
    browser.user = QStringLiteral("bob");
    browser.pid = 77;
    browser.gpus = {0};
    browser.holdsSharedNode = true; // nvidiactl, no nvidia-uvm
    state.decision.gpus[0].openOnlyHolders = {browser};
    Holder unseen;
    unseen.hidden = true;
    unseen.user = QStringLiteral("?");
    unseen.gpus = {1};
    state.decision.gpus[1].foreignHolders.append(unseen);
    StatusWindow window;
    window.applyState(state, kNowMs, kWallNow);
    window.show();

    QCOMPARE(cell(window, 0, StatusWindow::HoldersColumn),
             QStringLiteral("open, not busy: firefox (bob, pid 77), graphics client"));
    QCOMPARE(window.table()->item(0, StatusWindow::HoldersColumn)->toolTip(),
             QStringLiteral("firefox (bob, pid 77), graphics client: ")
                 + Policy::judgeHolder(browser, 0, BusyRule()).why);
    QVERIFY(Policy::judgeHolder(browser, 0, BusyRule()).why.contains(QLatin1String("no backend measures")));

    QCOMPARE(cell(window, 1, StatusWindow::HoldersColumn),
             QStringLiteral("python3 (alice, pid 4242), compute client; "
                            "a process of another user (not visible without root), unseen"));
    const QStringList why = window.table()->item(1, StatusWindow::HoldersColumn)->toolTip().split(QLatin1Char('\n'));
    QCOMPARE(why.size(), 2);
    QCOMPARE(why.at(0), QStringLiteral("python3 (alice, pid 4242), compute client: a compute client: it holds "
                                       "nvidia-uvm or /dev/kfd"));
    QVERIFY2(why.at(1).startsWith(QLatin1String("a process of another user (not visible without root), unseen: ")),
             qPrintable(why.at(1)));

    // busy_when = opened: the same browser counts, and the tooltip says why.
    GpuGroupConfig opened;
    opened.id = QStringLiteral("gpu-all");
    opened.gpus.all = true;
    opened.busyWhen = BusyWhen::Opened;
    state.config.gpuGroups = {opened};
    state.decision.gpus[0].openOnlyHolders.clear();
    state.decision.gpus[0].foreignHolders = {browser};
    window.applyState(state, kNowMs + 1000, kWallNow.addSecs(1));
    QCOMPARE(window.table()->item(0, StatusWindow::HoldersColumn)->toolTip(),
             QStringLiteral("firefox (bob, pid 77), graphics client: it has the GPU open (busy_when = opened)"));
}

void TestStatusWindow::samplingWantedWhileShown()
{
    StatusWindow window;
    QSignalSpy visibility(&window, &StatusWindow::visibilityChanged);
    window.show();
    QCOMPARE(visibility.count(), 1);
    QCOMPARE(visibility.last().at(0).toBool(), true);
    window.hide();
    QCOMPARE(visibility.count(), 2);
    QCOMPARE(visibility.last().at(0).toBool(), false);
}

QTEST_MAIN(TestStatusWindow)
#include "tst_statuswindow.moc"
