// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The status window, a dashboard: a card per GPU from a MonitorState (state, holders and whether they count,
// workload, the last preemption and when it starts again, graphs for the metrics a backend gives, the 24-hour
// timeline), the last preemptions, the totals; only recording while hidden; no sideways scrolling at 1280×800. And the
// place to act: pause and resume all or one workload, for a while too, Settings and the log, Esc and Ctrl+W; a card per
// workload even without its GPUs, a failing one's last output; the config's problems as a banner.
#include "config/config.h"
#include "status/configbanner.h"
#include "status/gpucard.h"
#include "status/metricgraph.h"
#include "status/preemptionlist.h"
#include "status/statuswindow.h"
#include "status/timelinestrip.h"
#include "status/totalspanel.h"
#include "status/workloadcard.h"

#include <QApplication>
#include <QLabel>
#include <QMenu>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QScrollBar>
#include <QTreeWidget>
#include <QtTest>

namespace {

constexpr qint64 kNowMs = 50'000'000;
const QDateTime kWallNow(QDate(2026, 11, 5), QTime(14, 0), Qt::UTC);
const qint64 kWallNowMs = kWallNow.toMSecsSinceEpoch();
constexpr qint64 kHour = 3'600'000;
constexpr qint64 kGiB = 1024LL * 1024 * 1024;

Holder python3(int gpu, qint64 pid = 4242)
{
    Holder holder;
    holder.comm = QStringLiteral("python3");
    holder.user = QStringLiteral("alice");
    holder.pid = pid;
    holder.gpus = {gpu};
    holder.holdsSharedNode = true;
    holder.holdsComputeNode = true; // a CUDA job
    return holder;
}

// GPU 0 runs "miner", python3 of alice holds GPU 1.
MonitorState twoGpus(WorkloadRuntime::State minerState = WorkloadRuntime::Running)
{
    MonitorState state;
    WorkloadConfig miner;
    miner.id = QStringLiteral("process-miner");
    miner.name = QStringLiteral("miner");
    state.config.workloads = {miner};
    state.config.startDelaySeconds = 120;
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
    gpu1.foreignHolders = {python3(1)};
    state.decision.gpus = {gpu0, gpu1};
    return state;
}

// Three minutes ago python3 of alice (pid 4711) opened GPU 1, and miner stopped 4 ms later.
MonitorState afterPreemption()
{
    MonitorState state = twoGpus();
    state.decision.gpus[1].foreignHolders = {python3(1, 4711)};
    PreemptionRecord record;
    record.wallMs = kWallNowMs - 3 * 60'000;
    record.gpu = 1;
    record.workloadName = QStringLiteral("miner");
    record.culpritProgram = QStringLiteral("python3");
    record.culpritUser = QStringLiteral("alice");
    record.culpritPid = 4711;
    record.openToStopMs = 4.0;
    PreemptionRecord earlier = record;
    earlier.wallMs = kWallNowMs - 5 * kHour;
    earlier.gpu = 0;
    earlier.culpritProgram = QStringLiteral("nvidia-smi");
    earlier.culpritPid = 900;
    earlier.openToStopMs.reset();
    state.ledger.recentPreemptions = {record, earlier};
    state.ledger.lastDay[0] = {{kWallNowMs - 10 * kHour, kWallNowMs, GpuActivity::Workload}};
    state.ledger.lastDay[1] = {{kWallNowMs - 24 * kHour, kWallNowMs - 8 * kHour, GpuActivity::Unwatched},
                               {kWallNowMs - 8 * kHour, kWallNowMs - 3 * 60'000, GpuActivity::Workload},
                               {kWallNowMs - 3 * 60'000, kWallNowMs, GpuActivity::ForeignUse}};
    state.ledger.all.today = {18 * kHour, 2, std::nullopt};
    state.ledger.all.week = {90 * kHour, 7, std::nullopt};
    state.ledger.all.total = {1200 * kHour, 31, std::nullopt};
    state.ledger.byGpu[1].today.workloadMs = 8 * kHour;
    state.ledger.sinceWallMs = QDateTime(QDate(2026, 9, 1), QTime(9, 0), Qt::UTC).toMSecsSinceEpoch();
    return state;
}

GpuCard *cardOf(const StatusWindow &window, int gpu)
{
    GpuCard *card = window.card(gpu);
    if (!card)
        qFatal("no card for GPU %d", gpu);
    return card;
}

QString text(const GpuCard *card, const char *name)
{
    const QLabel *label = card->findChild<QLabel *>(QLatin1String(name));
    return label ? label->text() : QStringLiteral("<no %1>").arg(QLatin1String(name));
}

QString tooltip(const GpuCard *card, const char *name)
{
    const QLabel *label = card->findChild<QLabel *>(QLatin1String(name));
    return label ? label->toolTip() : QStringLiteral("<no %1>").arg(QLatin1String(name));
}

QList<GpuMetric> metricsOf(const GpuCard *card)
{
    QList<GpuMetric> metrics;
    for (const MetricGraph *graph : card->graphs())
        metrics.append(graph->metric());
    return metrics;
}

void settle()
{
    for (int i = 0; i < 3; ++i)
        QCoreApplication::processEvents(); // layout requests, the scroll area's bars
}

// No GPU on the machine, and a miner configured for GPUs 2 and 3.
MonitorState minerOnMissingGpus()
{
    MonitorState state;
    WorkloadConfig miner;
    miner.id = QStringLiteral("process-miner");
    miner.name = QStringLiteral("miner");
    miner.gpus = GpuSelection::of({2, 3});
    state.config.workloads = {miner};
    state.snapshot.takenAtMs = kNowMs;
    return state;
}

// A realistic dashboard after a preemption on two H200s: GPU 1's miner stopped 3 minutes ago for alice's python3.
MonitorState dashboardState()
{
    MonitorState state = afterPreemption();
    state.snapshot.devices.gpus = {{0, QStringLiteral("/dev/nvidia0")}, {1, QStringLiteral("/dev/nvidia1")}};
    state.gpuMetrics.backend = QStringLiteral("NVML");
    state.gpuMetrics.available = true;
    state.ledger.all.today = {qint64(14.6 * kHour), 2, 14.6 * 560 * 3600};
    state.ledger.all.week = {qint64(71.3 * kHour), 9, 71.3 * 545 * 3600};
    state.ledger.all.total = {qint64(1284.5 * kHour), 142, 1284.5 * 530 * 3600};
    state.ledger.byGpu[0] = {{qint64(8.9 * kHour), 0, {}}, {qint64(39.0 * kHour), 3, {}}, {qint64(655 * kHour), 61, {}}};
    state.ledger.byGpu[1] = {{qint64(5.7 * kHour), 2, {}}, {qint64(32.3 * kHour), 6, {}}, {qint64(629.5 * kHour), 81, {}}};
    // Both GPUs' last day: the night's workload, a reboot, the owner's jobs in the afternoon.
    const auto at = [](double hoursAgo) { return kWallNowMs - qint64(hoursAgo * kHour); };
    state.ledger.lastDay[0] = {{at(24), at(15.5), GpuActivity::Workload},  {at(15.5), at(15.2), GpuActivity::Unwatched},
                               {at(15.2), at(6.1), GpuActivity::Workload}, {at(6.1), at(5.0), GpuActivity::ForeignUse},
                               {at(5.0), at(4.95), GpuActivity::Idle},     {at(4.95), at(0), GpuActivity::Workload}};
    state.ledger.lastDay[1] = {{at(24), at(15.5), GpuActivity::Workload},  {at(15.5), at(15.2), GpuActivity::Unwatched},
                               {at(15.2), at(9.0), GpuActivity::Workload}, {at(9.0), at(7.4), GpuActivity::ForeignUse},
                               {at(7.4), at(7.35), GpuActivity::Idle},     {at(7.35), at(3.0), GpuActivity::Workload},
                               {at(3.0), at(2.2), GpuActivity::ForeignUse}, {at(2.2), at(2.15), GpuActivity::Idle},
                               {at(2.15), at(0.05), GpuActivity::Workload}, {at(0.05), at(0), GpuActivity::ForeignUse}};
    const QStringList culprits = {"python3", "nvidia-smi", "torchrun", "python3", "jupyter-lab", "python3"};
    QList<PreemptionRecord> records = {state.ledger.recentPreemptions.first()};
    for (int i = 0; i < culprits.size(); ++i) {
        PreemptionRecord record = records.first();
        record.wallMs = at(2.2 + i * 1.7);
        record.gpu = i % 2;
        record.culpritProgram = culprits.at(i);
        record.culpritPid = 3100 + 97 * i;
        record.openToStopMs = i == 1 ? std::optional<double>() : std::optional<double>(3.1 + i * 0.7);
        records.append(record);
    }
    state.ledger.recentPreemptions = records;
    return state;
}

// Feeds the window the last hour of `state`, sampled every 10 s as while hidden: miner on the even GPUs throughout, on
// the odd ones until the job came 3 minutes ago.
void feedLastHour(StatusWindow &window, const MonitorState &state)
{
    for (qint64 t = kNowMs - kHour; t <= kNowMs; t += 10'000) {
        const double minute = double(t - (kNowMs - kHour)) / 60'000;
        const bool preempted = t >= kNowMs - 3 * 60'000;
        MonitorState moment = state;
        for (GpuStatus &status : moment.decision.gpus) {
            if (status.index % 2 == 0)
                continue;
            status.state = preempted ? GpuState::Busy : GpuState::RunningWorkload;
            if (!preempted)
                status.foreignHolders.clear();
        }
        for (const GpuStatus &status : state.decision.gpus) {
            const int gpu = status.index;
            const bool job = gpu % 2 == 1 && preempted;
            GpuInfo info;
            info.index = gpu;
            info.backendIndex = gpu;
            info.name = QStringLiteral("NVIDIA H200");
            info.uuid = QStringLiteral("GPU-%1f0c2d1e-3b4a-4c5d-9e6f-0a1b2c3d4e5f").arg(gpu);
            info.busId = QStringLiteral("00000000:%1:00.0").arg(0x19 + 0x22 * gpu, 2, 16, QLatin1Char('0'));
            const double wave = std::sin(minute / (3.0 + gpu)) * 0.5 + std::sin(minute * 1.7 + gpu) * 0.5;
            info.utilizationPercent = job ? int(55 + 30 * wave) : int(96 + 3 * wave);
            info.memoryUsedBytes = qint64((job ? 71.5 + 4 * wave : 119.0 + wave) * kGiB);
            info.memoryTotalBytes = 141 * kGiB;
            info.temperatureCelsius = job ? int(58 + 3 * wave) : int(67 + 2 * wave);
            info.powerMilliwatts = job ? int(420'000 + 60'000 * wave) : int(612'000 + 25'000 * wave);
            moment.gpuMetrics.gpus.insert(gpu, info);
        }
        moment.gpuMetrics.sampledAtMs = t;
        window.applyState(moment, t, kWallNow.addMSecs(t - kNowMs));
    }
}

} // namespace

class TestStatusWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void cardPerGpu();
    void holdReasonInSummary();
    void runsAsRootInSummaryAndCard();
    void hiddenWindowOnlyRecords();
    void historyKeepsTheLastHour();
    void backendNamesAndMetrics();
    void graphsOnlyForGivenMetrics();
    void holdersSayTheirKindAndWhy();
    void afterAPreemption();
    void timelinePerGpu();
    void totals();
    void fitsWithoutSidewaysScrolling_data();
    void fitsWithoutSidewaysScrolling();
    void samplingWantedWhileShown();
    void twoGpusFitOnOneScreen();
    void pauseButtonsAskTheMonitor();
    void pausedUntilInHeadingAndCards();
    void settingsAndLogOneClickAway();
    void escapeAndCtrlWClose_data();
    void escapeAndCtrlWClose();
    void tabReachesEveryControl();
    void problemsAsOneBanner();
    void workloadCardWithoutItsGpus();
    void failingWorkloadShowsItsLastOutput();
    void opensWithinTheScreen();
    void screenshot();
};

void TestStatusWindow::cardPerGpu()
{
    StatusWindow window;
    window.applyState(twoGpus(), kNowMs, kWallNow);
    window.show();
    QCOMPARE(window.cards().size(), 2);

    const GpuCard *gpu0 = cardOf(window, 0);
    QCOMPARE(text(gpu0, "title"), QStringLiteral("GPU 0")); // node-only: no backend names it
    QCOMPARE(tooltip(gpu0, "title"), QStringLiteral("/dev/nvidia0"));
    QCOMPARE(text(gpu0, "state"), QStringLiteral("Running"));
    QCOMPARE(text(gpu0, "activity"), QStringLiteral("running miner since 13:50"));
    QCOMPARE(text(gpu0, "holders"), QStringLiteral("none"));
    QCOMPARE(text(gpu0, "workload"), QStringLiteral("miner — running"));
    QCOMPARE(text(gpu0, "figures"), QStringLiteral("0.00 GPU-h today, 0.00 GPU-h this week, 0.00 GPU-h in total"));
    QCOMPARE(gpu0->preemptionNote(), QString());
    QVERIFY(gpu0->findChild<GpuHistoryGraph *>(QStringLiteral("history0"))); // busy/idle: always

    const GpuCard *gpu1 = cardOf(window, 1);
    QCOMPARE(text(gpu1, "state"), QStringLiteral("Busy"));
    QCOMPARE(text(gpu1, "activity"), QStringLiteral("busy — python3 (alice, pid 4242)"));
    QCOMPARE(text(gpu1, "holders"), QStringLiteral("python3 (alice, pid 4242), compute client"));
    QCOMPARE(text(gpu1, "workload"), QStringLiteral("none"));
    QCOMPARE(window.findChild<QLabel *>(QStringLiteral("summary"))->text(), QStringLiteral("Running idle workloads"));
    QVERIFY(!window.configBanner()->isVisible());

    // A GPU goes away: its card goes too; one left takes the whole width.
    MonitorState oneGpu = twoGpus();
    oneGpu.decision.gpus.removeLast();
    oneGpu.snapshot.devices.gpus.removeLast();
    window.resize(1200, 700);
    window.applyState(oneGpu, kNowMs + 1000, kWallNow.addSecs(1));
    settle();
    QCOMPARE(window.cards().size(), 1);
    QVERIFY(!window.card(1));
    QVERIFY(!window.findChild<GpuHistoryGraph *>(QStringLiteral("history1")));
    QVERIFY2(window.card(0)->width() > window.width() * 3 / 4, qPrintable(QString::number(window.card(0)->width())));

    // User with user=: who it runs as.
    MonitorState asBob = twoGpus();
    asBob.config.workloads[0].user = QStringLiteral("bob");
    window.applyState(asBob, kNowMs + 2000, kWallNow.addSecs(2));
    QCOMPARE(text(window.card(0), "workload"), QStringLiteral("miner (as bob) — running"));
}

// Why every workload is held back heads the window, as in the tray; the GPUs' cards say they are paused.
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
             QStringLiteral("Paused: outside the schedule until Mon 18:00"));
    QCOMPARE(text(cardOf(window, 0), "activity"), QStringLiteral("idle — paused"));
    QCOMPARE(text(cardOf(window, 0), "state"), QStringLiteral("Idle"));
    QCOMPARE(text(cardOf(window, 1), "activity"), QStringLiteral("busy — python3 (alice, pid 4242)"));
}

// Hidden, the window records each GPU's last hour (states and metric samples) and fills no widget.
// A root idlegpu with a workload that names no user (gpu_mon's files): the loader's warning, with the way out, heads
// the window as the monitor passes it on, and the workload's card says it runs as root.
void TestStatusWindow::runsAsRootInSummaryAndCard()
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
    QCOMPARE(window.findChild<QLabel *>(QStringLiteral("summary"))->text(), QStringLiteral("Running idle workloads"));
    QVERIFY(window.configBanner()->isVisible());
    QCOMPARE(window.configBanner()->heading(), QStringLiteral("The configuration has 1 problem."));
    QCOMPARE(window.configBanner()->problemsText(),
             QStringLiteral("Line 1: [process-miner] runs as root, as gpu_mon ran it: add user = NAME to run it as "
                            "that user"));
    QCOMPARE(text(cardOf(window, 0), "workload"), QStringLiteral("miner (as root) — running"));
    QCOMPARE(window.workloadCard(QStringLiteral("process-miner"))->findChild<QLabel *>("workloadTitle")->text(),
             QStringLiteral("miner (as root)"));
}

void TestStatusWindow::hiddenWindowOnlyRecords()
{
    MonitorState state = twoGpus();
    GpuInfo info;
    info.index = 0;
    info.utilizationPercent = 90;
    state.gpuMetrics.gpus.insert(0, info);
    StatusWindow window;
    for (int i = 0; i < 5; ++i) {
        state.gpuMetrics.sampledAtMs = kNowMs + i * 10'000;
        window.applyState(state, kNowMs + i * 10'000, kWallNow.addSecs(i * 10));
        window.applyState(state, kNowMs + i * 10'000 + 1000, kWallNow.addSecs(i * 10 + 1)); // the same sample
    }
    QCOMPARE(window.refreshCount(), 0); // hidden: no widget work
    QVERIFY(window.cards().isEmpty());
    QCOMPARE(window.metricHistory(0).sampleCount(), 5);
    QCOMPARE(window.history(1).segments(kNowMs + 60'000).size(), 1);

    window.show();
    QCOMPARE(window.refreshCount(), 1);
    QCOMPARE(metricsOf(cardOf(window, 0)), QList<GpuMetric>{GpuMetric::Utilization});
    QCOMPARE(cardOf(window, 0)->graphs().first()->lines().first().size(), 5);
    window.applyState(state, kNowMs + 60'000, kWallNow.addSecs(60));
    QCOMPARE(window.refreshCount(), 2);

    window.hide();
    window.applyState(state, kNowMs + 70'000, kWallNow.addSecs(70));
    QCOMPARE(window.refreshCount(), 2);
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

// With a GPU backend: the model in the card's title, UUID and bus id in its tooltip.
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
    state.gpuMetrics.sampledAtMs = kNowMs;
    StatusWindow window;
    window.applyState(state, kNowMs, kWallNow);
    window.show();
    QCOMPARE(text(cardOf(window, 0), "title"), QStringLiteral("GPU 0"));
    QCOMPARE(text(cardOf(window, 1), "title"), QStringLiteral("GPU 1 · NVIDIA H200"));
    const QString details = tooltip(cardOf(window, 1), "title");
    QVERIFY2(details.contains(QLatin1String("GPU-aaaa")) && details.contains(QLatin1String("00000000:19:00.0"))
                 && details.contains(QLatin1String("nvidia-smi index 0")),
             qPrintable(details));
    const QList<MetricGraph *> graphs = cardOf(window, 1)->graphs();
    QCOMPARE(graphs.size(), 1);
    QVERIFY2(graphs.first()->toolTip().contains(QLatin1String("now 37 %")), qPrintable(graphs.first()->toolTip()));
    QVERIFY(!window.grab().isNull()); // paints without trouble
}

// A graph for each metric the backend gives, none for the others; a node-only GPU has its busy/idle strip alone.
void TestStatusWindow::graphsOnlyForGivenMetrics()
{
    MonitorState state = twoGpus();
    GpuInfo full;
    full.index = 0;
    full.utilizationPercent = 97;
    full.memoryUsedBytes = 120 * kGiB;
    full.memoryTotalBytes = 140 * kGiB;
    full.temperatureCelsius = 66;
    full.powerMilliwatts = 610'000;
    GpuInfo sparse; // an Intel GPU through DRM: its temperature only
    sparse.index = 1;
    sparse.temperatureCelsius = 48;
    state.gpuMetrics.gpus = {{0, full}, {1, sparse}};
    state.gpuMetrics.sampledAtMs = kNowMs;
    StatusWindow window;
    window.applyState(state, kNowMs, kWallNow);
    window.show();
    QCOMPARE(metricsOf(cardOf(window, 0)), MetricHistory::allMetrics());
    QCOMPARE(metricsOf(cardOf(window, 1)), QList<GpuMetric>{GpuMetric::Temperature});
    QVERIFY(cardOf(window, 1)->findChild<GpuHistoryGraph *>(QStringLiteral("history1")));

    // The backend stops giving the power: its graph stays while the hour still holds samples of it, then goes.
    state.gpuMetrics.gpus[0].powerMilliwatts.reset();
    state.gpuMetrics.sampledAtMs = kNowMs + 2000;
    window.applyState(state, kNowMs + 2000, kWallNow.addSecs(2));
    QCOMPARE(metricsOf(cardOf(window, 0)).size(), 4);
    state.gpuMetrics.sampledAtMs = kNowMs + kHour + 1000;
    window.applyState(state, kNowMs + kHour + 1000, kWallNow.addSecs(3601));
    QCOMPARE(metricsOf(cardOf(window, 0)),
             QList<GpuMetric>({GpuMetric::Utilization, GpuMetric::Memory, GpuMetric::Temperature}));
    for (const MetricGraph *graph : cardOf(window, 0)->findChildren<MetricGraph *>())
        QCOMPARE(graph->isHidden(), graph->metric() == GpuMetric::Power);
}

// Each holder with its kind and whether it counts (busy_when = auto); why, in the holders' tooltip, in the policy's
// words.
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

    QCOMPARE(text(cardOf(window, 0), "holders"), QStringLiteral("open, not busy: firefox (bob, pid 77), graphics client"));
    QCOMPARE(tooltip(cardOf(window, 0), "holders"),
             QStringLiteral("firefox (bob, pid 77), graphics client: ") + Policy::judgeHolder(browser, 0, BusyRule()).why);
    QVERIFY(Policy::judgeHolder(browser, 0, BusyRule()).why.contains(QLatin1String("no backend measures")));

    QCOMPARE(text(cardOf(window, 1), "holders"),
             QStringLiteral("python3 (alice, pid 4242), compute client; "
                            "a process of another user (not visible without root), unseen"));
    const QStringList why = tooltip(cardOf(window, 1), "holders").split(QLatin1Char('\n'));
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
    QCOMPARE(text(cardOf(window, 0), "holders"), QStringLiteral("firefox (bob, pid 77), graphics client"));
    QCOMPARE(tooltip(cardOf(window, 0), "holders"),
             QStringLiteral("firefox (bob, pid 77), graphics client: it has the GPU open (busy_when = opened)"));
}

// After a preemption the card says what was stopped, by whom, how fast, and when it starts again; the list has it.
void TestStatusWindow::afterAPreemption()
{
    MonitorState state = afterPreemption();
    StatusWindow window;
    window.applyState(state, kNowMs, kWallNow);
    window.show();
    QCOMPARE(cardOf(window, 1)->preemptionNote(),
             QStringLiteral("Stopped miner at 13:57 for python3 (alice, pid 4711), 4.0 ms after its open; "
                            "starts again 2 min after the GPU is free"));
    QCOMPARE(cardOf(window, 0)->preemptionNote(), QString()); // GPU 0's was long ago: miner runs there again

    const QTreeWidget *list = window.preemptions()->tree();
    QVERIFY(list->isVisibleTo(&window));
    QCOMPARE(list->topLevelItemCount(), 2);
    const QTreeWidgetItem *newest = list->topLevelItem(0);
    QCOMPARE(newest->text(PreemptionList::WhenColumn), QStringLiteral("13:57"));
    QCOMPARE(newest->text(PreemptionList::GpuColumn), QStringLiteral("1"));
    QCOMPARE(newest->text(PreemptionList::WorkloadColumn), QStringLiteral("miner"));
    QCOMPARE(newest->text(PreemptionList::CulpritColumn), QStringLiteral("python3 (alice, pid 4711)"));
    QCOMPARE(newest->text(PreemptionList::OpenToStopColumn), QStringLiteral("4.0 ms"));
    QCOMPARE(list->topLevelItem(1)->text(PreemptionList::OpenToStopColumn), QStringLiteral("by a scan"));
    QCOMPARE(list->topLevelItem(1)->text(PreemptionList::WhenColumn), QStringLiteral("09:00"));

    // The job let go 30 s ago: the card names the moment the policy will start miner.
    state.decision.gpus[1].state = GpuState::Waiting;
    state.decision.gpus[1].foreignHolders.clear();
    state.decision.gpus[1].freeSinceMs = kNowMs - 30'000;
    state.decision.gpus[1].workloadId = QStringLiteral("process-miner");
    window.applyState(state, kNowMs, kWallNow);
    QCOMPARE(cardOf(window, 1)->preemptionNote(),
             QStringLiteral("Stopped miner at 13:57 for python3 (alice, pid 4711), 4.0 ms after its open; "
                            "starts again at 14:01:30"));
    QCOMPARE(text(cardOf(window, 1), "state"), QStringLiteral("Waiting"));

    // Running again: the card no longer tells of it; the list still does.
    state.decision.gpus[1].state = GpuState::RunningWorkload;
    window.applyState(state, kNowMs + 90'000, kWallNow.addSecs(90));
    QCOMPARE(cardOf(window, 1)->preemptionNote(), QString());
    QVERIFY(cardOf(window, 1)->findChild<QLabel *>(QStringLiteral("preemption"))->isHidden());
    QCOMPARE(list->topLevelItemCount(), 2);

    // None yet: the list says so.
    StatusWindow fresh;
    fresh.applyState(twoGpus(), kNowMs, kWallNow);
    fresh.show();
    QVERIFY(!fresh.preemptions()->tree()->isVisibleTo(&fresh));
    QVERIFY(fresh.preemptions()->findChild<QLabel *>(QStringLiteral("noPreemptions"))->isVisibleTo(&fresh));
}

void TestStatusWindow::timelinePerGpu()
{
    const MonitorState state = afterPreemption();
    StatusWindow window;
    window.applyState(state, kNowMs, kWallNow);
    window.show();
    const QList<ActivitySegment> &day = cardOf(window, 1)->timeline()->segments();
    QCOMPARE(day.size(), 3);
    QCOMPARE(day.at(1).activity, GpuActivity::Workload);
    QCOMPARE(day.at(2).activity, GpuActivity::ForeignUse);
    QCOMPARE(day.at(2).fromWallMs, kWallNowMs - 3 * 60'000);
    QCOMPARE(cardOf(window, 1)->timeline()->toolTip(),
             QStringLiteral("The last 24 hours: workload 7 h 57 min, your jobs 3 min, not watched 16 h 00 min"));
    QCOMPARE(cardOf(window, 0)->timeline()->segments().size(), 1);
    QCOMPARE(text(cardOf(window, 1), "figures"), QStringLiteral("8.00 GPU-h today, 0.00 GPU-h this week, "
                                                                "0.00 GPU-h in total"));
}

void TestStatusWindow::totals()
{
    MonitorState state = afterPreemption();
    StatusWindow window;
    window.applyState(state, kNowMs, kWallNow);
    window.show();
    const TotalsPanel *totals = window.totals();
    QCOMPARE(totals->figure(TotalsPanel::HoursRow, TotalsPanel::Today), QStringLiteral("18.0 GPU-h"));
    QCOMPARE(totals->figure(TotalsPanel::HoursRow, TotalsPanel::Week), QStringLiteral("90.0 GPU-h"));
    QCOMPARE(totals->figure(TotalsPanel::HoursRow, TotalsPanel::Total), QStringLiteral("1,200 GPU-h"));
    QCOMPARE(totals->figure(TotalsPanel::PreemptionsRow, TotalsPanel::Today), QStringLiteral("2"));
    QCOMPARE(totals->figure(TotalsPanel::PreemptionsRow, TotalsPanel::Total), QStringLiteral("31"));
    QVERIFY(!totals->energyShown()); // no backend measured energy
    QCOMPARE(totals->findChild<QLabel *>(QStringLiteral("since"))->text(),
             QStringLiteral("Since 2026-09-01; kept across restarts."));

    state.ledger.all.today.energyJoules = 640.0 * 3600;   // 640 Wh
    state.ledger.all.week.energyJoules = 4200.0 * 3600;   // 4.2 kWh
    state.ledger.all.total.energyJoules = 98'500.0 * 3600; // 98.5 kWh
    window.applyState(state, kNowMs + 1000, kWallNow.addSecs(1));
    QVERIFY(totals->energyShown());
    QCOMPARE(totals->figure(TotalsPanel::EnergyRow, TotalsPanel::Today), QStringLiteral("640 Wh"));
    QCOMPARE(totals->figure(TotalsPanel::EnergyRow, TotalsPanel::Week), QStringLiteral("4.20 kWh"));
    QCOMPARE(totals->figure(TotalsPanel::EnergyRow, TotalsPanel::Total), QStringLiteral("98.5 kWh"));
}

void TestStatusWindow::fitsWithoutSidewaysScrolling_data()
{
    QTest::addColumn<int>("gpus");
    QTest::newRow("1 GPU") << 1;
    QTest::newRow("2 GPUs") << 2;
    QTest::newRow("4 GPUs") << 4;
    QTest::newRow("8 GPUs") << 8;
}

// At 1280×800 (less a window frame and a panel) nothing scrolls sideways, with long names, holders and notes and
// every graph.
void TestStatusWindow::fitsWithoutSidewaysScrolling()
{
    QFETCH(int, gpus);
    MonitorState state = afterPreemption();
    state.decision.gpus.clear();
    state.snapshot.devices.gpus.clear();
    for (int index = 0; index < gpus; ++index) {
        state.snapshot.devices.gpus.append({index, QStringLiteral("/dev/nvidia%1").arg(index)});
        GpuStatus gpu;
        gpu.index = index;
        gpu.state = GpuState::Busy;
        for (int pid = 0; pid < 3; ++pid) {
            Holder holder = python3(index, 100'000 + pid);
            holder.comm = QStringLiteral("a-long-program-name-%1").arg(pid);
            holder.user = QStringLiteral("someone-with-a-long-login");
            gpu.foreignHolders.append(holder);
        }
        state.decision.gpus.append(gpu);
        PreemptionRecord record = state.ledger.recentPreemptions.first();
        record.gpu = index;
        record.workloadName = QStringLiteral("folding-at-home-client-with-a-long-name");
        state.ledger.recentPreemptions.prepend(record);
        GpuInfo info;
        info.index = index;
        info.name = QStringLiteral("NVIDIA RTX 6000 Ada Generation with a long board name");
        info.utilizationPercent = 100;
        info.memoryUsedBytes = 40 * kGiB;
        info.memoryTotalBytes = 48 * kGiB;
        info.temperatureCelsius = 81;
        info.powerMilliwatts = 299'000;
        state.gpuMetrics.gpus.insert(index, info);
    }
    state.gpuMetrics.sampledAtMs = kNowMs;
    state.ledger.all.total.energyJoules = 123'456'789.0;

    StatusWindow window;
    window.resize(1264, 740);
    window.applyState(state, kNowMs, kWallNow);
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    settle();
    const QScrollArea *scroll = window.scrollArea();
    QVERIFY2(!scroll->horizontalScrollBar()->isVisible(),
             qPrintable(QStringLiteral("content %1 wide in %2").arg(scroll->widget()->minimumSizeHint().width())
                            .arg(scroll->viewport()->width())));
    QVERIFY(scroll->widget()->width() <= scroll->viewport()->width());
    QCOMPARE(window.cards().size(), gpus);
    for (const GpuCard *card : window.cards())
        QVERIFY(card->geometry().right() <= scroll->widget()->width());
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

// Two GPUs after a preemption fit a 1280×800 screen (less a window frame and a panel) without any scrolling.
void TestStatusWindow::twoGpusFitOnOneScreen()
{
    StatusWindow window;
    window.resize(1264, 740);
    feedLastHour(window, dashboardState());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    settle();
    const QScrollArea *scroll = window.scrollArea();
    QVERIFY2(!scroll->verticalScrollBar()->isVisible() && !scroll->horizontalScrollBar()->isVisible(),
             qPrintable(QStringLiteral("content %1×%2 in %3×%4")
                            .arg(scroll->widget()->minimumSizeHint().width())
                            .arg(scroll->widget()->heightForWidth(scroll->viewport()->width()))
                            .arg(scroll->viewport()->width())
                            .arg(scroll->viewport()->height())));
    QCOMPARE(cardOf(window, 1)->graphs().size(), 4);
    QVERIFY(!cardOf(window, 1)->preemptionNote().isEmpty());
}

namespace {
QPushButton *button(const QWidget &window, const char *name)
{
    auto *found = window.findChild<QPushButton *>(QLatin1String(name));
    if (!found)
        qFatal("no button %s", name);
    return found;
}

// Chooses `choice` ("pause1Hour", "pauseUntilMorning"...) in the menu of a "Pause for…" button.
void choose(QPushButton *pauseFor, const char *choice)
{
    QVERIFY(pauseFor->menu());
    auto *action = pauseFor->menu()->findChild<QAction *>(QLatin1String(choice));
    QVERIFY2(action, choice);
    action->trigger();
}

QString activityOf(const StatusWindow &window, const QString &id)
{
    const WorkloadCard *card = window.workloadCard(id);
    return card ? card->activityText() : QStringLiteral("<no card for %1>").arg(id);
}
} // namespace

// The window's buttons ask what the tray's menu asks: pause or resume all, all for a while, one workload, one for a
// while, with the lengths the menu names.
void TestStatusWindow::pauseButtonsAskTheMonitor()
{
    StatusWindow window;
    QSignalSpy pauseAll(&window, &StatusWindow::pauseAllRequested);
    QSignalSpy pauseFor(&window, &StatusWindow::pauseForRequested);
    QSignalSpy workload(&window, &StatusWindow::workloadPauseRequested);
    QSignalSpy workloadFor(&window, &StatusWindow::workloadPauseForRequested);
    window.applyState(twoGpus(), kNowMs, kWallNow);
    window.show();

    QPushButton *all = button(window, "pauseAll");
    QCOMPARE(all->text(), QStringLiteral("Pause all"));
    QTest::mouseClick(all, Qt::LeftButton);
    QCOMPARE(pauseAll.count(), 1);
    QCOMPARE(pauseAll.last().at(0).toBool(), true);

    QPushButton *allFor = button(window, "pauseAllFor");
    QCOMPARE(allFor->text(), QStringLiteral("Pause all for…"));
    choose(allFor, "pause30Minutes");
    choose(allFor, "pause1Hour");
    choose(allFor, "pause4Hours");
    // At 14:00 the morning is tomorrow's 08:00, 18 hours on.
    QCOMPARE(allFor->menu()->findChild<QAction *>("pauseUntilMorning")->text(), QStringLiteral("Until 08:00 tomorrow"));
    choose(allFor, "pauseUntilMorning");
    QCOMPARE(pauseFor.count(), 4);
    QCOMPARE(pauseFor.at(0).at(0).toLongLong(), 30 * 60'000LL);
    QCOMPARE(pauseFor.at(1).at(0).toLongLong(), kHour);
    QCOMPARE(pauseFor.at(2).at(0).toLongLong(), 4 * kHour);
    QCOMPARE(pauseFor.at(3).at(0).toLongLong(), 18 * kHour);

    // Paused: the same button resumes.
    MonitorState paused = twoGpus(WorkloadRuntime::Stopped);
    paused.pause.all = true;
    window.applyState(paused, kNowMs + 1000, kWallNow.addSecs(1));
    QCOMPARE(all->text(), QStringLiteral("Resume all"));
    QTest::mouseClick(all, Qt::LeftButton);
    QCOMPARE(pauseAll.count(), 2);
    QCOMPARE(pauseAll.last().at(0).toBool(), false);

    // One workload: its own Pause, then Resume, and its own "Pause for…".
    const WorkloadCard *miner = window.workloadCard(QStringLiteral("process-miner"));
    QVERIFY(miner);
    QPushButton *pauseMiner = button(*miner, "pauseWorkload");
    QCOMPARE(pauseMiner->text(), QStringLiteral("Pause"));
    QTest::mouseClick(pauseMiner, Qt::LeftButton);
    QCOMPARE(workload.count(), 1);
    QCOMPARE(workload.last().at(0).toString(), QStringLiteral("process-miner"));
    QCOMPARE(workload.last().at(1).toBool(), true);
    paused.pause.workloads.insert(QStringLiteral("process-miner"));
    window.applyState(paused, kNowMs + 2000, kWallNow.addSecs(2));
    QCOMPARE(pauseMiner->text(), QStringLiteral("Resume"));
    QTest::mouseClick(pauseMiner, Qt::LeftButton);
    QCOMPARE(workload.last().at(1).toBool(), false);
    choose(button(*miner, "pauseWorkloadFor"), "pause4Hours");
    QCOMPARE(workloadFor.count(), 1);
    QCOMPARE(workloadFor.last().at(0).toString(), QStringLiteral("process-miner"));
    QCOMPARE(workloadFor.last().at(1).toLongLong(), 4 * kHour);

    // Before 08:00 the morning is today's.
    window.applyState(paused, kNowMs + 3000, QDateTime(QDate(2026, 11, 6), QTime(6, 30), Qt::UTC));
    QCOMPARE(allFor->menu()->findChild<QAction *>("pauseUntilMorning")->text(), QStringLiteral("Until 08:00 today"));
    choose(allFor, "pauseUntilMorning");
    QCOMPARE(pauseFor.last().at(0).toLongLong(), 90 * 60'000LL);

    // While the monitor does not answer, nothing can be asked.
    window.setUnavailable(QStringLiteral("The idlegpu service does not answer"));
    QVERIFY(!all->isEnabled());
    QVERIFY(!allFor->isEnabled());
    QVERIFY(!pauseMiner->isEnabled());
}

// A pause for a while says until when: in the heading for all, on the workload's card for one.
void TestStatusWindow::pausedUntilInHeadingAndCards()
{
    MonitorState state = twoGpus(WorkloadRuntime::Stopped);
    state.pause.all = true;
    state.pause.allUntilMs = kNowMs + 65 * 60'000;
    StatusWindow window;
    window.applyState(state, kNowMs, kWallNow);
    window.show();
    QCOMPARE(window.findChild<QLabel *>(QStringLiteral("summary"))->text(), QStringLiteral("Paused until 15:05"));
    QCOMPARE(activityOf(window, QStringLiteral("process-miner")),
             QStringLiteral("Paused with all workloads until 15:05"));

    state.pause.allUntilMs = 0;
    window.applyState(state, kNowMs + 1000, kWallNow.addSecs(1));
    QCOMPARE(window.findChild<QLabel *>(QStringLiteral("summary"))->text(), QStringLiteral("Paused"));

    state.pause = PauseState();
    state.pause.workloads.insert(QStringLiteral("process-miner"));
    state.pause.workloadUntilMs.insert(QStringLiteral("process-miner"), kNowMs + 30 * 60'000);
    window.applyState(state, kNowMs, kWallNow);
    QCOMPARE(activityOf(window, QStringLiteral("process-miner")), QStringLiteral("Paused until 14:30"));

    // Still running a moment after the pause: it is on its way out, and the card says what was asked.
    MonitorState running = twoGpus();
    running.pause = state.pause;
    window.applyState(running, kNowMs, kWallNow);
    QCOMPARE(activityOf(window, QStringLiteral("process-miner")), QStringLiteral("Paused until 14:30"));

    window.applyState(twoGpus(), kNowMs, kWallNow);
    QCOMPARE(activityOf(window, QStringLiteral("process-miner")), QStringLiteral("Running on GPU 0 since 13:50"));
}

void TestStatusWindow::settingsAndLogOneClickAway()
{
    StatusWindow window;
    QSignalSpy settings(&window, &StatusWindow::openSettingsRequested);
    QSignalSpy setUp(&window, &StatusWindow::setUpRequested);
    QSignalSpy log(&window, &StatusWindow::openLogRequested);
    window.applyState(twoGpus(), kNowMs, kWallNow);
    window.show();
    QCOMPARE(button(window, "settings")->text(), QStringLiteral("Settings…"));
    QTest::mouseClick(button(window, "settings"), Qt::LeftButton);
    QCOMPARE(settings.count(), 1);
    QCOMPARE(button(window, "openLog")->text(), QStringLiteral("Open log"));
    QTest::mouseClick(button(window, "openLog"), Qt::LeftButton);
    QCOMPARE(log.count(), 1);

    // Not set up yet: nothing to pause, and Settings sets up.
    MonitorState fresh;
    fresh.notSetUp = true;
    window.applyState(fresh, kNowMs + 1000, kWallNow.addSecs(1));
    QVERIFY(!button(window, "pauseAll")->isVisible());
    QCOMPARE(button(window, "settings")->text(), QStringLiteral("Set up…"));
    QTest::mouseClick(button(window, "settings"), Qt::LeftButton);
    QCOMPARE(setUp.count(), 1);
    QCOMPARE(settings.count(), 1);
}

void TestStatusWindow::escapeAndCtrlWClose_data()
{
    QTest::addColumn<QKeyCombination>("key");
    QTest::newRow("Esc") << QKeyCombination(Qt::Key_Escape);
    QTest::newRow("Ctrl+W") << QKeyCombination(Qt::ControlModifier, Qt::Key_W);
}

// Esc and Ctrl+W close the window, as the desktop's own windows; it opens with the focus on its first control.
void TestStatusWindow::escapeAndCtrlWClose()
{
    QFETCH(QKeyCombination, key);
    StatusWindow window;
    window.applyState(twoGpus(), kNowMs, kWallNow);
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QCOMPARE(QApplication::focusWidget(), button(window, "pauseAll"));
    QTest::keyClick(QApplication::focusWidget(), key.key(), key.keyboardModifiers());
    QVERIFY(!window.isVisible());
}

// Tab reaches every enabled control of the window, in the order they are seen.
void TestStatusWindow::tabReachesEveryControl()
{
    MonitorState state = twoGpus();
    WorkloadConfig folding;
    folding.id = QStringLiteral("process-folding");
    folding.name = QStringLiteral("folding");
    state.config.workloads.append(folding);
    state.configProblems = {
        ConfigDiagnostic(ConfigDiagnostic::Warning, QStringLiteral("/c.conf"), 3, QStringLiteral("unknown key `gpu`"))};
    StatusWindow window;
    window.applyState(state, kNowMs, kWallNow);
    window.show();
    window.activateWindow();
    QVERIFY(QTest::qWaitForWindowActive(&window));
    QList<QWidget *> reached;
    for (int i = 0; i < 20; ++i) {
        QWidget *focus = QApplication::focusWidget();
        if (reached.contains(focus))
            break;
        reached.append(focus);
        QTest::keyClick(focus, Qt::Key_Tab);
    }
    QStringList names;
    for (const QWidget *widget : reached)
        names.append(widget->objectName());
    QCOMPARE(names, QStringList({"pauseAll", "pauseAllFor", "settings", "openLog", "fixInSettings", "pauseWorkload",
                                 "pauseWorkloadFor", "pauseWorkload", "pauseWorkloadFor"}));
    for (QWidget *control : window.findChildren<QWidget *>())
        if (control->isVisible() && control->isEnabled() && (control->focusPolicy() & Qt::TabFocus))
            QVERIFY2(reached.contains(control), qPrintable(control->objectName()));
}

// The config's problems: one banner, in plain words (no file path on each line, no Markdown), said once each, with
// a way to fix them.
void TestStatusWindow::problemsAsOneBanner()
{
    MonitorState state = twoGpus();
    const ConfigDiagnostic asRoot(ConfigDiagnostic::Warning, QStringLiteral("/tmp/x/demo.conf"), 9,
                                  QStringLiteral("user = root: this workload runs as root; `user = NAME` runs it as "
                                                 "that user"));
    state.configProblems = {asRoot, asRoot,
                            ConfigDiagnostic(ConfigDiagnostic::Warning, QStringLiteral("/tmp/x/demo.conf"), 12,
                                             QStringLiteral("unknown key `gpu`; did you mean `gpus`?"))};
    StatusWindow window;
    QSignalSpy settings(&window, &StatusWindow::openSettingsRequested);
    window.applyState(state, kNowMs, kWallNow);
    window.show();
    const ConfigBanner *banner = window.configBanner();
    QVERIFY(banner->isVisible());
    QCOMPARE(banner->heading(), QStringLiteral("The configuration has 2 problems."));
    QCOMPARE(banner->problemsText(),
             QStringLiteral("Line 9: User = root: this workload runs as root; user = NAME runs it as that user\n"
                            "Line 12: Unknown key gpu; did you mean gpus?"));
    QCOMPARE(window.findChild<QLabel *>(QStringLiteral("summary"))->text(), QStringLiteral("Running idle workloads"));
    QTest::mouseClick(button(window, "fixInSettings"), Qt::LeftButton);
    QCOMPARE(settings.count(), 1);

    // An error: the file was not applied.
    state.configProblems = {ConfigDiagnostic(ConfigDiagnostic::Error, QStringLiteral("/tmp/x/demo.conf"), 4,
                                             QStringLiteral("gpus = x: not a GPU number"))};
    window.applyState(state, kNowMs + 1000, kWallNow.addSecs(1));
    QCOMPARE(banner->heading(), QStringLiteral("The configuration has 1 problem. It was not applied: idlegpu goes on "
                                               "with the last good one."));

    state.configProblems.clear();
    window.applyState(state, kNowMs + 2000, kWallNow.addSecs(2));
    QVERIFY(!banner->isVisible());
}

// A workload whose GPUs are not on the machine has its card, which says what to do; with no GPU at all there is no
// legend for graphs that are not there.
void TestStatusWindow::workloadCardWithoutItsGpus()
{
    MonitorState state = minerOnMissingGpus();
    const WorkloadConfig miner = state.config.workloads.first();
    StatusWindow window;
    window.applyState(state, kNowMs, kWallNow);
    window.show();
    QCOMPARE(window.workloadCards().size(), 1);
    QCOMPARE(window.workloadCard(miner.id)->findChild<QLabel *>("workloadGpus")->text(), QStringLiteral("GPUs 2, 3"));
    QCOMPARE(activityOf(window, miner.id),
             QStringLiteral("Waiting: its GPUs (2, 3) are not on this machine — choose other GPUs in Settings"));
    QVERIFY(window.cards().isEmpty());
    QVERIFY(!window.findChild<QLabel *>(QStringLiteral("legend"))->isVisible());
    QCOMPARE(window.findChild<QLabel *>(QStringLiteral("noGpu"))->text(),
             QStringLiteral("No GPU device node found in /dev: the workloads wait until a GPU appears."));

    // GPU 0 and 3 present: one of its two is missing.
    state.snapshot.devices.gpus = {{0, QStringLiteral("/dev/nvidia0")}, {3, QStringLiteral("/dev/nvidia3")}};
    window.applyState(state, kNowMs + 1000, kWallNow.addSecs(1));
    QCOMPARE(activityOf(window, miner.id),
             QStringLiteral("Waiting: its GPU 2 is not on this machine — choose another GPU in Settings"));
    QVERIFY(!window.findChild<QLabel *>(QStringLiteral("noGpu"))->isVisible());

    // All there: the policy's reason.
    state.snapshot.devices.gpus.append({2, QStringLiteral("/dev/nvidia2")});
    state.decision.workloadReasons.insert(miner.id, {HoldReason::Settling, QStringLiteral("waiting 7 s more for GPU 2 "
                                                                                          "to stay free")});
    window.applyState(state, kNowMs + 2000, kWallNow.addSecs(2));
    QCOMPARE(activityOf(window, miner.id), QStringLiteral("Waiting: waiting 7 s more for GPU 2 to stay free"));

    // The workload goes from the file: its card goes.
    state.config.workloads.clear();
    window.applyState(state, kNowMs + 3000, kWallNow.addSecs(3));
    QVERIFY(window.workloadCards().isEmpty());
    QVERIFY(!window.workloadCard(miner.id));
}

// A failing workload's card says why, when it tries again, and its last lines of output.
void TestStatusWindow::failingWorkloadShowsItsLastOutput()
{
    MonitorState state = twoGpus(WorkloadRuntime::BackingOff);
    WorkloadRuntime &miner = state.runtimes[QStringLiteral("process-miner")];
    miner.lastExit = QStringLiteral("exit code 3");
    miner.retryAtMs = kNowMs + 90'000;
    for (int line = 1; line <= 8; ++line)
        miner.lastOutput.append(QStringLiteral("line %1").arg(line));
    miner.lastOutput.append(QStringLiteral("error: cannot connect to pool <stratum+tcp://pool:3333>"));
    StatusWindow window;
    window.applyState(state, kNowMs, kWallNow);
    window.show();
    const WorkloadCard *card = window.workloadCard(QStringLiteral("process-miner"));
    QCOMPARE(card->activityText(), QStringLiteral("Failing (exit code 3); tries again at 14:01"));
    QCOMPARE(card->lastOutputText(), QStringLiteral("line 4\nline 5\nline 6\nline 7\nline 8\n"
                                                    "error: cannot connect to pool <stratum+tcp://pool:3333>"));
    QCOMPARE(card->findChild<QLabel *>("workloadOutput")->textFormat(), Qt::PlainText);

    // Running again: the old output goes.
    window.applyState(twoGpus(), kNowMs + 1000, kWallNow.addSecs(1));
    QCOMPARE(card->lastOutputText(), QString());
}

// The window opens within the screen, not over all of it: desktops open a window that covers more than about 80 % of
// the work area maximised.
void TestStatusWindow::opensWithinTheScreen()
{
    StatusWindow window;
    const QSize room = window.screen()->availableGeometry().size();
    const QSize size = window.size();
    QCOMPARE(size, window.sizeHint());
    QVERIFY2(size.width() <= room.width() && size.height() <= room.height(), qPrintable(QStringLiteral("%1×%2 on %3×%4")
                                                                                            .arg(size.width())
                                                                                            .arg(size.height())
                                                                                            .arg(room.width())
                                                                                            .arg(room.height())));
    QVERIFY(qint64(size.width()) * size.height() < qint64(room.width()) * room.height() * 8 / 10);
    QVERIFY(size.width() >= qMin(1000, room.width() * 8 / 10)); // still room for two cards side by side
}

// Not a check: the dashboard after a preemption on two H200s, for a person to look at (build/test-artifacts; the
// README shows it as resources/screenshots/dashboard.png).
void TestStatusWindow::screenshot()
{
    StatusWindow window;
    window.resize(1264, 740);
    feedLastHour(window, dashboardState());
    window.show();
    QVERIFY(QTest::qWaitForWindowExposed(&window));
    settle();
    const QString folder = QCoreApplication::applicationDirPath() + QStringLiteral("/../test-artifacts");
    QVERIFY(QDir().mkpath(folder));
    QVERIFY(window.grab().save(folder + QStringLiteral("/dashboard.png")));

    // The same in a dark theme.
    QPalette dark;
    dark.setColor(QPalette::Window, QColor(0x2b, 0x2b, 0x2b));
    dark.setColor(QPalette::WindowText, QColor(0xe8, 0xe8, 0xe8));
    dark.setColor(QPalette::Base, QColor(0x1e, 0x1e, 0x1e));
    dark.setColor(QPalette::AlternateBase, QColor(0x26, 0x26, 0x26));
    dark.setColor(QPalette::Text, QColor(0xe8, 0xe8, 0xe8));
    dark.setColor(QPalette::Button, QColor(0x35, 0x35, 0x35));
    dark.setColor(QPalette::ButtonText, QColor(0xe8, 0xe8, 0xe8));
    dark.setColor(QPalette::Mid, QColor(0x60, 0x60, 0x60));
    dark.setColor(QPalette::PlaceholderText, QColor(0x9a, 0x9a, 0x9a));
    dark.setColor(QPalette::Highlight, QColor(0x3d, 0xae, 0xe9));
    window.setPalette(dark);
    settle();
    QVERIFY(window.grab().save(folder + QStringLiteral("/dashboard-dark.png")));

    // One GPU, and four: the cards' other layouts.
    for (int gpus : {1, 4}) {
        MonitorState state = dashboardState();
        while (state.decision.gpus.size() > gpus) {
            state.decision.gpus.removeLast();
            state.snapshot.devices.gpus.removeLast();
        }
        for (int index = int(state.decision.gpus.size()); index < gpus; ++index) {
            GpuStatus gpu = state.decision.gpus.at(index % 2);
            gpu.index = index;
            state.decision.gpus.append(gpu);
            state.snapshot.devices.gpus.append({index, QStringLiteral("/dev/nvidia%1").arg(index)});
            state.ledger.lastDay[index] = state.ledger.lastDay.value(index % 2);
        }
        StatusWindow other;
        other.resize(1264, 740);
        feedLastHour(other, state);
        other.show();
        QVERIFY(QTest::qWaitForWindowExposed(&other));
        settle();
        QVERIFY(other.grab().save(folder + QStringLiteral("/dashboard-%1gpu.png").arg(gpus)));
    }

    // The window at its own size: paused for a while, a failing workload with its output, the config's problems.
    {
        MonitorState state = dashboardState();
        WorkloadConfig folding;
        folding.id = QStringLiteral("process-folding");
        folding.name = QStringLiteral("folding");
        folding.gpus = GpuSelection::of({1});
        state.config.workloads.append(folding);
        WorkloadRuntime failing;
        failing.id = folding.id;
        failing.state = WorkloadRuntime::BackingOff;
        failing.lastExit = QStringLiteral("exit code 3");
        failing.retryAtMs = kNowMs + 90'000;
        failing.lastOutput = {QStringLiteral("FAHClient 7.6.21 starting"),
                              QStringLiteral("error: cannot connect to assign1.foldingathome.org:8080: timed out")};
        state.runtimes.insert(failing.id, failing);
        state.pause.workloads.insert(QStringLiteral("process-miner"));
        state.pause.workloadUntilMs.insert(QStringLiteral("process-miner"), kNowMs + 65 * 60'000);
        state.configProblems = {
            ConfigDiagnostic(ConfigDiagnostic::Warning, QStringLiteral("/tmp/demo.conf"), 9,
                             QStringLiteral("user = root: this workload runs as root; add `user = NAME` to drop root")),
            ConfigDiagnostic(ConfigDiagnostic::Warning, QStringLiteral("/tmp/demo.conf"), 14,
                             QStringLiteral("unknown key `ignore_program`; did you mean `ignore_programs`?"))};
        StatusWindow acting;
        feedLastHour(acting, state);
        acting.show();
        QVERIFY(QTest::qWaitForWindowExposed(&acting));
        settle();
        QVERIFY(acting.grab().save(folder + QStringLiteral("/status-acting.png")));
    }
    // No GPU on the machine: the workload's card says what to do, no legend, no empty graphs.
    {
        const MonitorState state = minerOnMissingGpus();
        StatusWindow empty;
        empty.applyState(state, kNowMs, kWallNow);
        empty.show();
        QVERIFY(QTest::qWaitForWindowExposed(&empty));
        settle();
        QVERIFY(empty.grab().save(folder + QStringLiteral("/status-nogpu.png")));
    }
}

QTEST_MAIN(TestStatusWindow)
#include "tst_statuswindow.moc"
