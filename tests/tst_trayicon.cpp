// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The tray icon: which overall state a MonitorState shows, the pictures, and the TrayController's tooltip, menu
// and intents.
#include "tray/overallstate.h"
#include "tray/traycontroller.h"
#include "tray/trayiconrenderer.h"
#include "widgettestsupport.h"

#include <QMenu>
#include <QSignalSpy>
#include <QSystemTrayIcon>
#include <QtTest>

using TestSupport::findAction;

namespace {

constexpr qint64 kNowMs = 10'000'000;
const QDateTime kWallNow(QDate(2026, 11, 5), QTime(14, 32), Qt::UTC);

Holder holder(const QString &comm, const QString &user, qint64 pid, QList<int> gpus)
{
    Holder h;
    h.comm = comm;
    h.user = user;
    h.pid = pid;
    h.gpus = gpus;
    return h;
}

WorkloadConfig workload(const QString &id, const QString &name)
{
    WorkloadConfig w;
    w.id = id;
    w.name = name;
    return w;
}

// GPUs 0..gpuCount-1 present, all free and idle, one workload "miner" configured; the snapshot taken now.
MonitorState baseState(int gpuCount = 3)
{
    MonitorState state;
    state.config.startDelaySeconds = 10;
    state.config.workloads = {workload(QStringLiteral("process-miner"), QStringLiteral("miner"))};
    state.snapshot.takenAtMs = kNowMs;
    for (int i = 0; i < gpuCount; ++i) {
        state.snapshot.devices.gpus.append({i, QStringLiteral("/dev/nvidia%1").arg(i)});
        GpuStatus gpu;
        gpu.index = i;
        gpu.freeSinceMs = kNowMs - 60'000;
        state.decision.gpus.append(gpu);
    }
    return state;
}

void setRunning(MonitorState &state, int gpu, qint64 startedAtMs)
{
    WorkloadRuntime runtime;
    runtime.id = QStringLiteral("process-miner");
    runtime.state = WorkloadRuntime::Running;
    runtime.pid = 777;
    runtime.startedAtMs = startedAtMs;
    runtime.gpus = {gpu};
    state.runtimes.insert(runtime.id, runtime);
    state.decision.gpus[gpu].state = GpuState::RunningWorkload;
    state.decision.gpus[gpu].workloadId = runtime.id;
}

void setBusy(MonitorState &state, int gpu, const Holder &who)
{
    state.decision.gpus[gpu].state = GpuState::Busy;
    state.decision.gpus[gpu].foreignHolders = {who};
    state.decision.gpus[gpu].freeSinceMs = 0;
    state.snapshot.holders.append(who);
}

// The example of the issue: GPU 0 runs the miner since 14:02, python3 of alice holds GPU 1, GPU 2 starts boinc in
// 7 s.
MonitorState mixedState()
{
    MonitorState state = baseState(3);
    state.config.workloads.append(workload(QStringLiteral("process-boinc"), QStringLiteral("boinc")));
    setRunning(state, 0, kNowMs - 30 * 60'000);
    setBusy(state, 1, holder(QStringLiteral("python3"), QStringLiteral("alice"), 4242, {1}));
    state.decision.gpus[2].state = GpuState::Waiting;
    state.decision.gpus[2].workloadId = QStringLiteral("process-boinc");
    state.decision.gpus[2].freeSinceMs = kNowMs - 3'000;
    return state;
}

QStringList menuTexts(QMenu *menu)
{
    QStringList texts;
    const QList<QAction *> actions = menu->actions();
    for (QAction *action : actions)
        if (!action->text().isEmpty())
            texts.append(action->text());
    return texts;
}

// Pixels whose grey levels differ by more than a little: what is left of two pictures without their colours.
int greyDifference(const QImage &a, const QImage &b)
{
    int differing = 0;
    for (int y = 0; y < a.height(); ++y)
        for (int x = 0; x < a.width(); ++x) {
            const QRgb pa = a.pixel(x, y);
            const QRgb pb = b.pixel(x, y);
            const int greyA = qGray(pa) * qAlpha(pa) / 255;
            const int greyB = qGray(pb) * qAlpha(pb) / 255;
            if (qAbs(greyA - greyB) > 40)
                ++differing;
        }
    return differing;
}

const QList<OverallState> kAllStates = {OverallState::Idle,  OverallState::Busy,  OverallState::Running,
                                        OverallState::Paused, OverallState::Held,  OverallState::NoGpu,
                                        OverallState::Failing, OverallState::NotSetUp};

// The first start: no config file, so no workloads; the GPUs are watched all the same.
MonitorState notSetUpState(int gpuCount)
{
    MonitorState state = baseState(gpuCount);
    state.config.workloads.clear();
    state.notSetUp = true;
    for (GpuStatus &gpu : state.decision.gpus)
        gpu.reason = QStringLiteral("no workload for this GPU");
    return state;
}

// Every workload held back as the policy says it: the GPUs idle with the policy's reason (English, and counting
// seconds where presence is concerned), the hold and its fields.
void setHold(MonitorState &state, HoldReason reason, const QString &policyText)
{
    state.decision.hold = reason;
    state.decision.holdText = policyText;
    for (GpuStatus &gpu : state.decision.gpus)
        if (gpu.state == GpuState::Idle)
            gpu.reason = policyText;
}

} // namespace

class TestTrayIcon : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void overallState_data();
    void overallState();
    void iconsDifferByShapeAt22px();
    void iconsAtEverySize_data();
    void iconsAtEverySize();
    void toolTipHasOneLinePerGpu();
    void toolTipNamesProblemsAndPause();
    void toolTipSaysWhatRunsAsRoot();
    void toolTipSaysWhatIsLentToTheLab();
    void menuHasSectionPerGpuAndActions();
    void menuActionsEmitIntents();
    void demoModeAddsSimulateItems();
    void leftClickTogglesPauseAll();
    void menuRebuiltOnlyWhenContentChanges();
    void iconFollowsState();
    void iconMadeLaterGetsTheState();
    void holdReasonShown_data();
    void holdReasonShown();
    void holdBehindMoreUrgentState();
    void holdMenuStableWhilePolicyTextCounts();
    void tooHotGpuLine();
    void notSetUpOffersSetUp();
    void failingWorkloadShowsItsLastOutput();
};

void TestTrayIcon::overallState_data()
{
    QTest::addColumn<MonitorState>("state");
    QTest::addColumn<OverallState>("expected");

    QTest::newRow("all free, nothing running") << baseState() << OverallState::Idle;

    MonitorState waiting = baseState();
    waiting.decision.gpus[0].state = GpuState::Waiting;
    QTest::newRow("waiting for the start delay") << waiting << OverallState::Idle;

    MonitorState busy = baseState();
    setBusy(busy, 1, holder(QStringLiteral("python3"), QStringLiteral("alice"), 4242, {1}));
    QTest::newRow("a user's job holds a GPU") << busy << OverallState::Busy;

    MonitorState running = busy;
    setRunning(running, 0, kNowMs - 1000);
    QTest::newRow("running beats busy") << running << OverallState::Running;

    MonitorState stopping = baseState();
    setRunning(stopping, 0, kNowMs - 1000);
    stopping.runtimes[QStringLiteral("process-miner")].state = WorkloadRuntime::Stopping;
    QTest::newRow("stopping still occupies the GPU") << stopping << OverallState::Running;

    MonitorState paused = running;
    paused.pause.all = true;
    QTest::newRow("paused beats running") << paused << OverallState::Paused;

    MonitorState pauseOver = running;
    pauseOver.pause.all = true;
    pauseOver.pause.allUntilMs = kNowMs - 1;
    QTest::newRow("a pause whose time is up") << pauseOver << OverallState::Running;

    MonitorState pauseTimed = running;
    pauseTimed.pause.all = true;
    pauseTimed.pause.allUntilMs = kNowMs + 60'000;
    QTest::newRow("a pause with time left") << pauseTimed << OverallState::Paused;

    MonitorState oneWorkloadPaused = baseState();
    oneWorkloadPaused.pause.workloads.insert(QStringLiteral("process-miner"));
    QTest::newRow("one workload paused is not all") << oneWorkloadPaused << OverallState::Idle;

    MonitorState noGpu = baseState(0);
    noGpu.pause.all = true;
    QTest::newRow("no GPU beats paused") << noGpu << OverallState::NoGpu;

    MonitorState configError = noGpu;
    configError.configProblems.append({ConfigDiagnostic::Error, QStringLiteral("/c"), 3, QStringLiteral("bad")});
    QTest::newRow("config error beats no GPU") << configError << OverallState::Failing;

    MonitorState configWarning = baseState();
    configWarning.configProblems.append({ConfigDiagnostic::Warning, QStringLiteral("/c"), 3, QStringLiteral("odd")});
    QTest::newRow("a config warning is no failure") << configWarning << OverallState::Idle;

    MonitorState failing = paused;
    failing.runtimes[QStringLiteral("process-miner")].state = WorkloadRuntime::BackingOff;
    QTest::newRow("a workload backing off beats paused") << failing << OverallState::Failing;

    for (HoldReason reason : {HoldReason::OwnerPresent, HoldReason::OutsideSchedule, HoldReason::OnBattery,
                              HoldReason::TerminalUser}) {
        MonitorState held = baseState();
        setHold(held, reason, QStringLiteral("held"));
        QTest::addRow("held (%d)", int(reason)) << held << OverallState::Held;
    }
    MonitorState heldWhileStopping = running;
    setHold(heldWhileStopping, HoldReason::OnBattery, QStringLiteral("the computer runs on battery"));
    QTest::newRow("held beats a workload still stopping") << heldWhileStopping << OverallState::Held;

    MonitorState pausedByUser = running;
    pausedByUser.pause.all = true;
    setHold(pausedByUser, HoldReason::Paused, QStringLiteral("paused"));
    QTest::newRow("the user's pause is paused, not held") << pausedByUser << OverallState::Paused;

    MonitorState heldAndFailing = baseState();
    setHold(heldAndFailing, HoldReason::OutsideSchedule, QStringLiteral("outside the schedule"));
    heldAndFailing.configProblems.append({ConfigDiagnostic::Error, QStringLiteral("/c"), 3, QStringLiteral("bad")});
    QTest::newRow("failing beats held") << heldAndFailing << OverallState::Failing;

    MonitorState notSetUp = notSetUpState(2);
    QTest::newRow("no config file yet") << notSetUp << OverallState::NotSetUp;
    MonitorState notSetUpNoGpu = notSetUpState(0);
    notSetUpNoGpu.pause.all = true; // a pause kept from an earlier run
    QTest::newRow("not set up beats no GPU and paused") << notSetUpNoGpu << OverallState::NotSetUp;
}

void TestTrayIcon::overallState()
{
    QFETCH(MonitorState, state);
    QFETCH(OverallState, expected);
    QCOMPARE(::overallState(state), expected);
}

void TestTrayIcon::iconsDifferByShapeAt22px()
{
    QList<QImage> images;
    for (OverallState state : kAllStates)
        images.append(TrayIconRenderer::render(state, 22));
    for (int i = 0; i < images.size(); ++i)
        for (int j = i + 1; j < images.size(); ++j) {
            QVERIFY2(images.at(i) != images.at(j),
                     qPrintable(QStringLiteral("%1 and %2 look the same")
                                    .arg(overallStateKey(kAllStates.at(i)), overallStateKey(kAllStates.at(j)))));
            // Without colour (a colour-blind user, a monochrome panel) they still differ in many pixels.
            const int differing = greyDifference(images.at(i), images.at(j));
            QVERIFY2(differing >= 12, qPrintable(QStringLiteral("%1 and %2 differ in only %3 grey pixels")
                                                     .arg(overallStateKey(kAllStates.at(i)),
                                                          overallStateKey(kAllStates.at(j)))
                                                     .arg(differing)));
        }
}

void TestTrayIcon::iconsAtEverySize_data()
{
    QTest::addColumn<int>("size");
    QTest::addColumn<qreal>("ratio");
    for (int size : TrayIconRenderer::iconSizes())
        for (qreal ratio : {1.0, 2.0})
            QTest::addRow("%d px @%gx", size, ratio) << size << ratio;
}

void TestTrayIcon::iconsAtEverySize()
{
    QFETCH(int, size);
    QFETCH(qreal, ratio);
    for (OverallState state : kAllStates) {
        const QImage image = TrayIconRenderer::render(state, size, ratio);
        QCOMPARE(image.width(), qRound(size * ratio));
        QCOMPARE(image.height(), qRound(size * ratio));
        QCOMPARE(image.devicePixelRatio(), ratio);
        int opaque = 0;
        for (int y = 0; y < image.height(); ++y)
            for (int x = 0; x < image.width(); ++x)
                opaque += qAlpha(image.pixel(x, y)) > 128 ? 1 : 0;
        // Something is drawn, and the corners stay clear for the panel's background.
        QVERIFY(opaque > image.width() * image.height() / 8);
        QCOMPARE(qAlpha(image.pixel(0, 0)), 0);
    }
    QVERIFY(!TrayIconRenderer::icon(OverallState::Running).pixmap(size).isNull());
}

void TestTrayIcon::toolTipHasOneLinePerGpu()
{
    const QString expected = QStringLiteral("idlegpu — Running idle workloads\n"
                                            "GPU 0: running miner since 14:02\n"
                                            "GPU 1: busy — python3 (alice, pid 4242)\n"
                                            "GPU 2: waiting, starting in 7 s");
    QCOMPARE(TrayController::toolTipText(mixedState(), kNowMs, kWallNow), expected);

    QSystemTrayIcon trayIcon;
    TrayController controller(&trayIcon);
    controller.applyState(mixedState(), kNowMs, kWallNow);
    QCOMPARE(trayIcon.toolTip(), expected);
}

void TestTrayIcon::toolTipNamesProblemsAndPause()
{
    MonitorState state = baseState(0);
    state.config.deviceRoot = QStringLiteral("/dev");
    state.configProblems.append({ConfigDiagnostic::Warning, QStringLiteral("/c.conf"), 2, QStringLiteral("odd key")});
    state.configProblems.append({ConfigDiagnostic::Error, QStringLiteral("/c.conf"), 7, QStringLiteral("no cmd")});
    WorkloadRuntime failing;
    failing.id = QStringLiteral("process-miner");
    failing.state = WorkloadRuntime::BackingOff;
    failing.lastExit = QStringLiteral("exit code 3");
    failing.retryAtMs = kNowMs + 40'000;
    state.runtimes.insert(failing.id, failing);
    state.pause.all = true;
    state.pause.allUntilMs = kNowMs + 60 * 60'000;

    QCOMPARE(TrayController::toolTipText(state, kNowMs, kWallNow),
             QStringLiteral("idlegpu — Needs attention\n"
                            "Configuration error: /c.conf:7: error: no cmd\n"
                            "miner failing (exit code 3), retry in 40 s\n"
                            "All workloads paused until 15:32\n"
                            "No GPU device node found in /dev"));
}

// A root idlegpu running gpu_mon's file (no user=): the workloads it runs as root, named in one short line with the
// way out; the full warning stays in the status window and the log. A plain warning adds no line.
void TestTrayIcon::toolTipSaysWhatRunsAsRoot()
{
    MonitorState state = mixedState();
    state.configProblems.append({ConfigDiagnostic::Warning, QStringLiteral("/c.conf"), 2, QStringLiteral("odd key")});
    for (const QString &id : {QStringLiteral("process-miner"), QStringLiteral("process-boinc")}) {
        ConfigDiagnostic root(ConfigDiagnostic::Warning, QStringLiteral("/c.conf"), 9,
                              QStringLiteral("[%1] runs as root, as gpu_mon ran it: add `user = NAME` to run it as "
                                             "that user")
                                  .arg(id));
        root.rootWorkload = id;
        state.configProblems.append(root);
    }
    QCOMPARE(TrayController::toolTipText(state, kNowMs, kWallNow),
             QStringLiteral("idlegpu — Running idle workloads\n"
                            "Runs as root (no user =): miner, boinc — add user = NAME to drop root\n"
                            "GPU 0: running miner since 14:02\n"
                            "GPU 1: busy — python3 (alice, pid 4242)\n"
                            "GPU 2: waiting, starting in 7 s"));
}

// Slurm mode: each GPU's line says whether it is lent to the lab (and to whose job) or held for the owner, and why.
void TestTrayIcon::toolTipSaysWhatIsLentToTheLab()
{
    MonitorState state = baseState(4);
    state.config.workloads.clear();
    state.config.slurm.enabled = true;
    state.config = state.config.withGpuWorkloads({0, 1, 2, 3});
    const auto lending = [&](int gpu, WorkloadRuntime::State runtimeState) -> WorkloadRuntime & {
        WorkloadRuntime &runtime = state.runtimes[Config::slurmWorkloadId(gpu)];
        runtime.id = Config::slurmWorkloadId(gpu);
        runtime.state = runtimeState;
        runtime.gpus = {gpu};
        return runtime;
    };
    lending(0, WorkloadRuntime::Running).labJobs = {{1234, QStringLiteral("bob"), QStringLiteral("train.sh")}};
    state.decision.gpus[0].state = GpuState::RunningWorkload;
    state.decision.gpus[0].workloadId = Config::slurmWorkloadId(0);
    lending(1, WorkloadRuntime::Stopped);
    setBusy(state, 1, holder(QStringLiteral("python3"), QStringLiteral("alice"), 4242, {1}));
    lending(2, WorkloadRuntime::Running);
    state.decision.gpus[2].state = GpuState::RunningWorkload;
    state.decision.gpus[2].workloadId = Config::slurmWorkloadId(2);
    lending(3, WorkloadRuntime::Stopped).unreachable = QStringLiteral("slurmctld did not answer within 5 s");

    const QStringList lines = TrayController::toolTipText(state, kNowMs, kWallNow).split(QLatin1Char('\n'));
    QCOMPARE(lines.mid(1), QStringList({QStringLiteral("GPU 0: lent to the lab: job 1234 (bob)"),
                                        QStringLiteral("GPU 1: held for you — python3 (alice, pid 4242)"),
                                        QStringLiteral("GPU 2: lent to the lab (no job yet)"),
                                        QStringLiteral("GPU 3: Slurm unreachable: slurmctld did not answer within 5 s")}));

    // Free again, but not for start_delay_seconds yet: held, and when it is lent again.
    state.decision.gpus[1].state = GpuState::Waiting;
    state.decision.gpus[1].foreignHolders.clear();
    state.decision.gpus[1].freeSinceMs = kNowMs - 3'000;
    QCOMPARE(TrayController::toolTipText(state, kNowMs, kWallNow).split(QLatin1Char('\n')).value(2),
             QStringLiteral("GPU 1: held for you, lent to the lab in 7 s"));
}

void TestTrayIcon::menuHasSectionPerGpuAndActions()
{
    QSystemTrayIcon trayIcon;
    TrayController controller(&trayIcon);
    QCOMPARE(trayIcon.contextMenu(), controller.menu());
    MonitorState state = mixedState();
    state.pause.workloads.insert(QStringLiteral("process-boinc"));
    controller.applyState(state, kNowMs, kWallNow);

    QCOMPARE(
        menuTexts(controller.menu()),
        QStringList({QStringLiteral("GPU 0"), QStringLiteral("running miner since 14:02"), QStringLiteral("GPU 1"),
                     QStringLiteral("busy — python3 (alice, pid 4242)"), QStringLiteral("GPU 2"),
                     QStringLiteral("waiting, starting at 14:32:07"), QStringLiteral("Workload: boinc (stopped)"),
                     QStringLiteral("Pause all"), QStringLiteral("Pause for 1 hour"), QStringLiteral("Pause miner"),
                     QStringLiteral("Pause miner for 1 hour"), QStringLiteral("Pause boinc"),
                     QStringLiteral("Pause boinc for 1 hour"), QStringLiteral("Status…"), QStringLiteral("Settings…"),
                     QStringLiteral("Open log"), QStringLiteral("Start at login"), QStringLiteral("Quit")}));

    // Information lines are not clickable; the per-workload pause is a check box showing the state.
    QVERIFY(!findAction(controller.menu(), QStringLiteral("gpuActivity"), 1)->isEnabled());
    QAction *pauseMiner = findAction(controller.menu(), QStringLiteral("pauseWorkload"), QStringLiteral("process-miner"));
    QAction *pauseBoinc = findAction(controller.menu(), QStringLiteral("pauseWorkload"), QStringLiteral("process-boinc"));
    QVERIFY(pauseMiner->isCheckable() && !pauseMiner->isChecked());
    QVERIFY(pauseBoinc->isCheckable() && pauseBoinc->isChecked());

    // Settings: disabled until the dialog exists, and says why.
    QAction *settings = findAction(controller.menu(), QStringLiteral("settings"));
    QVERIFY(!settings->isEnabled());
    QVERIFY(settings->toolTip().contains(QStringLiteral("configuration file")));
    controller.setSettingsAvailable(true);
    QVERIFY(findAction(controller.menu(), QStringLiteral("settings"))->isEnabled());

    QAction *autostart = findAction(controller.menu(), QStringLiteral("autostart"));
    QVERIFY(autostart->isCheckable() && !autostart->isChecked());
    controller.setAutostartEnabled(true);
    QVERIFY(findAction(controller.menu(), QStringLiteral("autostart"))->isChecked());

    // Paused for an hour: the first action resumes and says until when.
    state.pause.all = true;
    state.pause.allUntilMs = kNowMs + TrayController::kPauseForMs;
    controller.applyState(state, kNowMs, kWallNow);
    QCOMPARE(findAction(controller.menu(), QStringLiteral("pauseAll"))->text(),
             QStringLiteral("Resume (paused until 15:32)"));
    // The menu's first line says it, and how to undo it, the same on every desktop.
    QAction *first = controller.menu()->actions().constFirst();
    QCOMPARE(first->objectName(), QStringLiteral("pausedAll"));
    QCOMPARE(first->text(), QStringLiteral("Paused all workloads until 15:32 — click again to resume"));
    QVERIFY(!first->isEnabled());
    state.pause.allUntilMs = 0;
    controller.applyState(state, kNowMs, kWallNow);
    QCOMPARE(findAction(controller.menu(), QStringLiteral("pauseAll"))->text(), QStringLiteral("Resume"));
    QCOMPARE(controller.menu()->actions().constFirst()->text(),
             QStringLiteral("Paused all workloads — click again to resume"));
    state.pause.all = false;
    controller.applyState(state, kNowMs, kWallNow);
    QVERIFY(!findAction(controller.menu(), QStringLiteral("pausedAll")));
}

void TestTrayIcon::menuActionsEmitIntents()
{
    QSystemTrayIcon trayIcon;
    TrayController controller(&trayIcon);
    controller.applyState(mixedState(), kNowMs, kWallNow);
    QMenu *menu = controller.menu();

    QSignalSpy pauseAll(&controller, &TrayController::pauseAllRequested);
    findAction(menu, QStringLiteral("pauseAll"))->trigger();
    QCOMPARE(pauseAll.count(), 1);
    QCOMPARE(pauseAll.at(0).at(0).toBool(), true);

    QSignalSpy pauseFor(&controller, &TrayController::pauseForRequested);
    findAction(menu, QStringLiteral("pauseForAnHour"))->trigger();
    QCOMPARE(pauseFor.count(), 1);
    QCOMPARE(pauseFor.at(0).at(0).toLongLong(), 3'600'000);

    QSignalSpy pauseWorkload(&controller, &TrayController::workloadPauseRequested);
    findAction(menu, QStringLiteral("pauseWorkload"), QStringLiteral("process-miner"))->trigger();
    QCOMPARE(pauseWorkload.count(), 1);
    QCOMPARE(pauseWorkload.at(0).at(0).toString(), QStringLiteral("process-miner"));
    QCOMPARE(pauseWorkload.at(0).at(1).toBool(), true);

    QSignalSpy autostart(&controller, &TrayController::autostartToggled);
    findAction(menu, QStringLiteral("autostart"))->trigger();
    QCOMPARE(autostart.count(), 1);
    QCOMPARE(autostart.at(0).at(0).toBool(), true);

    QSignalSpy status(&controller, &TrayController::openStatusRequested);
    QSignalSpy log(&controller, &TrayController::openLogRequested);
    QSignalSpy quit(&controller, &TrayController::quitRequested);
    findAction(menu, QStringLiteral("status"))->trigger();
    findAction(menu, QStringLiteral("openLog"))->trigger();
    findAction(menu, QStringLiteral("quit"))->trigger();
    QCOMPARE(status.count(), 1);
    QCOMPARE(log.count(), 1);
    QCOMPARE(quit.count(), 1);
}

void TestTrayIcon::demoModeAddsSimulateItems()
{
    QSystemTrayIcon trayIcon;
    TrayController controller(&trayIcon);
    controller.applyState(mixedState(), kNowMs, kWallNow);
    QVERIFY(!findAction(controller.menu(), QStringLiteral("simulateJob")));

    controller.setDemoMode(true);
    QAction *simulate = findAction(controller.menu(), QStringLiteral("simulateJob"), 2);
    QVERIFY(simulate);
    QCOMPARE(simulate->text(), QStringLiteral("Simulate a job on GPU 2"));
    QSignalSpy spy(&controller, &TrayController::simulateJobRequested);
    simulate->trigger();
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.at(0).at(0).toInt(), 2);
}

void TestTrayIcon::leftClickTogglesPauseAll()
{
    QSystemTrayIcon trayIcon;
    TrayController controller(&trayIcon);
    MonitorState state = mixedState();
    controller.applyState(state, kNowMs, kWallNow);
    QSignalSpy spy(&controller, &TrayController::pauseAllRequested);
    QSignalSpy clicked(&controller, &TrayController::pauseAllClicked); // for the tray to say what the click did

    Q_EMIT trayIcon.activated(QSystemTrayIcon::Trigger);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.takeFirst().at(0).toBool(), true);
    QCOMPARE(clicked.count(), 1);
    QCOMPARE(clicked.takeFirst().at(0).toBool(), true);
    // The menu's "Pause all" is no click on the icon: the menu says it already.
    findAction(controller.menu(), QStringLiteral("pauseAll"))->trigger();
    QCOMPARE(spy.count(), 1);
    spy.clear();
    QCOMPARE(clicked.count(), 0);

    // The right button opens the menu; the middle button does nothing.
    Q_EMIT trayIcon.activated(QSystemTrayIcon::Context);
    Q_EMIT trayIcon.activated(QSystemTrayIcon::MiddleClick);
    QCOMPARE(spy.count(), 0);
    // A quick second click arrives as a double click on X11 trays: another toggle.
    Q_EMIT trayIcon.activated(QSystemTrayIcon::DoubleClick);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.takeFirst().at(0).toBool(), true); // the state given to the controller is still "running"

    state.pause.all = true;
    controller.applyState(state, kNowMs, kWallNow);
    Q_EMIT trayIcon.activated(QSystemTrayIcon::Trigger);
    QCOMPARE(spy.count(), 1);
    QCOMPARE(spy.takeFirst().at(0).toBool(), false);
}

void TestTrayIcon::menuRebuiltOnlyWhenContentChanges()
{
    QSystemTrayIcon trayIcon;
    TrayController controller(&trayIcon);
    MonitorState state = mixedState();
    controller.applyState(state, kNowMs, kWallNow);
    const int built = controller.menuRebuildCount();
    QAction *quit = findAction(controller.menu(), QStringLiteral("quit"));

    controller.applyState(state, kNowMs, kWallNow);
    QCOMPARE(controller.menuRebuildCount(), built);

    // A second later: the countdown in the tooltip moves, the menu (absolute start time) does not.
    state.snapshot.takenAtMs += 1000;
    controller.applyState(state, kNowMs + 1000, kWallNow.addMSecs(1000));
    QCOMPARE(controller.menuRebuildCount(), built);
    QCOMPARE(findAction(controller.menu(), QStringLiteral("quit")), quit); // the very same action
    QVERIFY(trayIcon.toolTip().endsWith(QStringLiteral("starting in 6 s")));

    // Another holder on GPU 1: the menu changes.
    state.decision.gpus[1].foreignHolders.append(holder(QStringLiteral("java"), QStringLiteral("bob"), 5151, {1}));
    controller.applyState(state, kNowMs + 1000, kWallNow.addMSecs(1000));
    QCOMPARE(controller.menuRebuildCount(), built + 1);
    QCOMPARE(findAction(controller.menu(), QStringLiteral("gpuActivity"), 1)->text(),
             QStringLiteral("busy — python3 (alice, pid 4242), java (bob, pid 5151)"));

    controller.setAutostartEnabled(false); // already false: nothing to redo
    QCOMPARE(controller.menuRebuildCount(), built + 1);
}

void TestTrayIcon::iconFollowsState()
{
    QSystemTrayIcon trayIcon;
    TrayController controller(&trayIcon);
    MonitorState state = mixedState();
    controller.applyState(state, kNowMs, kWallNow);
    QCOMPARE(controller.overallState(), OverallState::Running);
    const qint64 runningKey = trayIcon.icon().cacheKey();
    QVERIFY(!trayIcon.icon().isNull());

    controller.applyState(state, kNowMs + 500, kWallNow.addMSecs(500));
    QCOMPARE(trayIcon.icon().cacheKey(), runningKey); // not set again: no flicker

    state.pause.all = true;
    controller.applyState(state, kNowMs, kWallNow);
    QCOMPARE(controller.overallState(), OverallState::Paused);
    QVERIFY(trayIcon.icon().cacheKey() != runningKey);
    QCOMPARE(trayIcon.icon().pixmap(22).toImage().convertToFormat(QImage::Format_ARGB32_Premultiplied),
             TrayIconRenderer::render(OverallState::Paused, 22));
}

// The icon is made only once a tray is there (TrayHostWatcher): what was applied before shows on it at once, and it
// clicks as one made first.
void TestTrayIcon::iconMadeLaterGetsTheState()
{
    TrayController controller(nullptr);
    MonitorState state = mixedState();
    controller.applyState(state, kNowMs, kWallNow);
    const int rebuilds = controller.menuRebuildCount();

    QSystemTrayIcon trayIcon;
    controller.setTrayIcon(&trayIcon);
    QCOMPARE(trayIcon.contextMenu(), controller.menu());
    QCOMPARE(trayIcon.toolTip(), TrayController::toolTipText(state, kNowMs, kWallNow));
    QCOMPARE(trayIcon.icon().pixmap(22).toImage().convertToFormat(QImage::Format_ARGB32_Premultiplied),
             TrayIconRenderer::render(OverallState::Running, 22));
    // Not exported here (no D-Bus tray): the menu stays as it was.
    QCOMPARE(controller.menuRebuildCount(), rebuilds);

    QSignalSpy spy(&controller, &TrayController::pauseAllRequested);
    Q_EMIT trayIcon.activated(QSystemTrayIcon::Trigger);
    QCOMPARE(spy.count(), 1);
}

void TestTrayIcon::holdReasonShown_data()
{
    QTest::addColumn<int>("reason");
    QTest::addColumn<QDateTime>("endsAt");
    QTest::addColumn<QStringList>("activeUsers");
    QTest::addColumn<QString>("line");

    const int present = int(HoldReason::OwnerPresent), schedule = int(HoldReason::OutsideSchedule);
    const int battery = int(HoldReason::OnBattery), terminal = int(HoldReason::TerminalUser);
    // A Monday; the tests run with the C locale.
    const QDateTime monday(QDate(2026, 11, 9), QTime(18, 0));
    QTest::newRow("owner present") << present << QDateTime() << QStringList()
                                   << QStringLiteral("Paused: you are at the computer");
    QTest::newRow("outside the schedule")
        << schedule << monday << QStringList() << QStringLiteral("Paused: outside the schedule until Mon 18:00");
    QTest::newRow("outside the schedule, no end") << schedule << QDateTime() << QStringList()
                                                  << QStringLiteral("Paused: outside the schedule");
    QTest::newRow("on battery") << battery << QDateTime() << QStringList()
                                << QStringLiteral("Paused: the computer runs on battery");
    QTest::newRow("terminal user") << terminal << QDateTime() << QStringList()
                                   << QStringLiteral("Paused: a user is active on a terminal");
    QTest::newRow("terminal users named")
        << terminal << QDateTime() << QStringList{QStringLiteral("alice"), QStringLiteral("bob")}
        << QStringLiteral("Paused: users alice, bob are active on a terminal");
}

// Each reason: its line heads the tooltip and the menu (not the policy's English), the GPUs say "idle — paused",
// and the icon is the held one.
void TestTrayIcon::holdReasonShown()
{
    QFETCH(int, reason);
    QFETCH(QDateTime, endsAt);
    QFETCH(QStringList, activeUsers);
    QFETCH(QString, line);

    MonitorState state = baseState(2);
    setHold(state, HoldReason(reason), QStringLiteral("policy words"));
    state.decision.holdEndsAt = endsAt;
    state.decision.activeUsers = activeUsers;

    QCOMPARE(TrayController::toolTipText(state, kNowMs, kWallNow),
             QStringLiteral("idlegpu — %1\nGPU 0: idle — paused\nGPU 1: idle — paused").arg(line));

    QSystemTrayIcon trayIcon;
    TrayController controller(&trayIcon);
    controller.applyState(state, kNowMs, kWallNow);
    QCOMPARE(controller.overallState(), OverallState::Held);
    QCOMPARE(trayIcon.toolTip().section(QLatin1Char('\n'), 0, 0), QStringLiteral("idlegpu — ") + line);
    const QStringList texts = menuTexts(controller.menu());
    QCOMPARE(texts.value(0), line);
    QCOMPARE(texts.mid(1, 4), QStringList({QStringLiteral("GPU 0"), QStringLiteral("idle — paused"),
                                           QStringLiteral("GPU 1"), QStringLiteral("idle — paused")}));
    QAction *hold = findAction(controller.menu(), QStringLiteral("hold"));
    QVERIFY(hold);
    QVERIFY(!hold->isEnabled()); // information, not a button
    QVERIFY(!texts.join(QLatin1Char('\n')).contains(QStringLiteral("policy words")));
    QCOMPARE(findAction(controller.menu(), QStringLiteral("pauseAll"))->text(), QStringLiteral("Pause all"));
    QCOMPARE(trayIcon.icon().pixmap(22).toImage().convertToFormat(QImage::Format_ARGB32_Premultiplied),
             TrayIconRenderer::render(OverallState::Held, 22));

    // The hold ends: its line goes, the GPUs give their own reasons again.
    MonitorState free = baseState(2);
    controller.applyState(free, kNowMs, kWallNow);
    QVERIFY(!findAction(controller.menu(), QStringLiteral("hold")));
    QCOMPARE(controller.overallState(), OverallState::Idle);
}

// A config error leads the tooltip; the hold still says why nothing runs, in the tooltip and the menu. The user's
// own pause has no hold line: "Paused" and the Resume item say it.
void TestTrayIcon::holdBehindMoreUrgentState()
{
    MonitorState state = baseState(1);
    setHold(state, HoldReason::OnBattery, QStringLiteral("the computer runs on battery"));
    state.configProblems.append({ConfigDiagnostic::Error, QStringLiteral("/c.conf"), 7, QStringLiteral("no cmd")});
    QCOMPARE(TrayController::toolTipText(state, kNowMs, kWallNow),
             QStringLiteral("idlegpu — Needs attention\n"
                            "Paused: the computer runs on battery\n"
                            "Configuration error: /c.conf:7: error: no cmd\n"
                            "GPU 0: idle — paused"));
    QSystemTrayIcon trayIcon;
    TrayController controller(&trayIcon);
    controller.applyState(state, kNowMs, kWallNow);
    QCOMPARE(controller.overallState(), OverallState::Failing);
    QCOMPARE(findAction(controller.menu(), QStringLiteral("hold"))->text(),
             QStringLiteral("Paused: the computer runs on battery"));

    MonitorState paused = baseState(1);
    paused.pause.all = true;
    setHold(paused, HoldReason::Paused, QStringLiteral("paused"));
    controller.applyState(paused, kNowMs, kWallNow);
    QVERIFY(!findAction(controller.menu(), QStringLiteral("hold")));
    QCOMPARE(TrayController::toolTipText(paused, kNowMs, kWallNow),
             QStringLiteral("idlegpu — Paused\nAll workloads paused\nGPU 0: idle — paused"));
}

// While the owner is idle but not yet away, the policy's text counts the seconds; the menu says the same each
// time, so an open menu is not rebuilt every second.
void TestTrayIcon::holdMenuStableWhilePolicyTextCounts()
{
    QSystemTrayIcon trayIcon;
    TrayController controller(&trayIcon);
    MonitorState state = baseState(2);
    setHold(state, HoldReason::OwnerPresent, QStringLiteral("you are at the computer (idle for 1 s of 300)"));
    controller.applyState(state, kNowMs, kWallNow);
    const int built = controller.menuRebuildCount();
    const QString toolTip = controller.toolTip();
    for (int second = 2; second < 5; ++second) {
        setHold(state, HoldReason::OwnerPresent,
                QStringLiteral("you are at the computer (idle for %1 s of 300)").arg(second));
        state.snapshot.takenAtMs = kNowMs + second * 1000;
        controller.applyState(state, kNowMs + second * 1000, kWallNow.addSecs(second));
    }
    QCOMPARE(controller.menuRebuildCount(), built);
    QCOMPARE(controller.toolTip(), toolTip);

    setHold(state, HoldReason::OnBattery, QStringLiteral("the computer runs on battery")); // another reason
    controller.applyState(state, kNowMs + 5000, kWallNow.addSecs(5));
    QCOMPARE(controller.menuRebuildCount(), built + 1);
    QCOMPARE(findAction(controller.menu(), QStringLiteral("hold"))->text(),
             QStringLiteral("Paused: the computer runs on battery"));
}

// max_temperature_c: a GPU too hot says so in its line: the menu without the reading (it moves), the tooltip with.
void TestTrayIcon::tooHotGpuLine()
{
    MonitorState state = baseState(2);
    state.config.maxTemperatureC = 85;
    state.snapshot.temperatures = {{0, 87}, {1, 60}};
    state.decision.gpus[0].tooHot = true;
    state.decision.gpus[0].reason = QStringLiteral("GPU 0 is too hot (87 °C): runs again below 81 °C");
    QSystemTrayIcon trayIcon;
    TrayController controller(&trayIcon);
    controller.applyState(state, kNowMs, kWallNow);
    QCOMPARE(findAction(controller.menu(), QStringLiteral("gpuActivity"), 0)->text(),
             QStringLiteral("idle — too hot: runs again below 81 °C"));
    QCOMPARE(controller.toolTip().section(QLatin1Char('\n'), 1, 1),
             QStringLiteral("GPU 0: idle — too hot (87 °C): runs again below 81 °C"));
    const int built = controller.menuRebuildCount();
    state.snapshot.temperatures[0] = 86;
    controller.applyState(state, kNowMs, kWallNow);
    QCOMPARE(controller.menuRebuildCount(), built);

    // Still running when it got too hot: its stop is under way.
    setRunning(state, 1, kNowMs - 1000);
    state.decision.gpus[1].tooHot = true;
    controller.applyState(state, kNowMs, kWallNow);
    QCOMPARE(findAction(controller.menu(), QStringLiteral("gpuActivity"), 1)->text(),
             QStringLiteral("too hot, stopping miner"));
}


// The first start, without a config file: a calm icon of its own, a tooltip and a first menu line that say so, and a
// left click or "Set up…" that asks for the settings dialog instead of pausing nothing.
void TestTrayIcon::notSetUpOffersSetUp()
{
    QSystemTrayIcon trayIcon;
    TrayController controller(&trayIcon);
    controller.setSettingsAvailable(true);
    const MonitorState state = notSetUpState(2);
    controller.applyState(state, kNowMs, kWallNow);

    QCOMPARE(controller.overallState(), OverallState::NotSetUp);
    QCOMPARE(trayIcon.icon().pixmap(22).toImage().convertToFormat(QImage::Format_ARGB32_Premultiplied),
             TrayIconRenderer::render(OverallState::NotSetUp, 22));
    // Not the red exclamation mark of an error.
    QVERIFY(TrayIconRenderer::render(OverallState::NotSetUp, 22) != TrayIconRenderer::render(OverallState::Failing, 22));

    const QStringList toolTip = trayIcon.toolTip().split(QLatin1Char('\n'));
    QCOMPARE(toolTip.value(0), QStringLiteral("idlegpu — Not set up yet"));
    QCOMPARE(toolTip.value(1), QStringLiteral("Click to choose what runs on your idle GPUs"));
    QCOMPARE(toolTip.size(), 4); // then a line per GPU
    QVERIFY2(toolTip.value(2).startsWith(QStringLiteral("GPU 0: ")), qPrintable(toolTip.value(2)));

    const QStringList texts = menuTexts(controller.menu());
    QCOMPARE(texts.value(0), QStringLiteral("idlegpu is not set up yet"));
    QCOMPARE(texts.value(1), QStringLiteral("Set up…"));
    QVERIFY(!findAction(controller.menu(), QStringLiteral("notSetUp"))->isEnabled());
    QVERIFY2(texts.contains(QStringLiteral("GPU 1")), qPrintable(texts.join(QLatin1Char('|')))); // the GPUs are shown
    QVERIFY(!findAction(controller.menu(), QStringLiteral("pauseAll"))); // nothing to pause
    QVERIFY(!findAction(controller.menu(), QStringLiteral("pauseForAnHour")));
    QVERIFY(findAction(controller.menu(), QStringLiteral("settings")));
    QVERIFY(findAction(controller.menu(), QStringLiteral("quit")));

    QSignalSpy setUp(&controller, &TrayController::setUpRequested);
    QSignalSpy pauseAll(&controller, &TrayController::pauseAllRequested);
    QAction *setUpAction = findAction(controller.menu(), QStringLiteral("setUp"));
    QVERIFY(setUpAction->isEnabled());
    setUpAction->trigger();
    QCOMPARE(setUp.count(), 1);
    Q_EMIT trayIcon.activated(QSystemTrayIcon::Trigger);
    QCOMPARE(setUp.count(), 2);
    QCOMPARE(pauseAll.count(), 0);

    // Set up: the usual icon, menu and click come back.
    MonitorState configured = baseState(2);
    controller.applyState(configured, kNowMs, kWallNow);
    QCOMPARE(controller.overallState(), OverallState::Idle);
    QVERIFY(!findAction(controller.menu(), QStringLiteral("setUp")));
    QVERIFY(findAction(controller.menu(), QStringLiteral("pauseAll")));
    QVERIFY(!trayIcon.toolTip().contains(QStringLiteral("Not set up")));
    Q_EMIT trayIcon.activated(QSystemTrayIcon::Trigger);
    QCOMPARE(pauseAll.count(), 1);
    QCOMPARE(setUp.count(), 2);
}

// "failed (exit code 3)" says little: the workload's own last lines are in the tooltips of its menu lines and the
// icon's tooltip has the last one.
void TestTrayIcon::failingWorkloadShowsItsLastOutput()
{
    QSystemTrayIcon trayIcon;
    TrayController controller(&trayIcon);
    MonitorState state = baseState(1);
    WorkloadRuntime runtime;
    runtime.id = QStringLiteral("process-miner");
    runtime.state = WorkloadRuntime::BackingOff;
    runtime.consecutiveFailures = 3;
    runtime.retryAtMs = kNowMs + 20'000;
    runtime.lastExit = QStringLiteral("exit code 3");
    runtime.lastOutput = {QStringLiteral("line 1"),
                          QStringLiteral("line 2"),
                          QStringLiteral("line 3"),
                          QStringLiteral("line 4"),
                          QStringLiteral("connecting to pool.example:3333"),
                          QStringLiteral("cannot connect to pool"),
                          QStringLiteral("")};
    state.runtimes.insert(runtime.id, runtime);
    state.decision.gpus[0].workloadId = runtime.id;
    controller.applyState(state, kNowMs, kWallNow);

    const QString expected = QStringLiteral("Failed (exit code 3). Its last output:\nline 2\nline 3\nline 4\n"
                                            "connecting to pool.example:3333\ncannot connect to pool");
    QAction *line = findAction(controller.menu(), QStringLiteral("gpuWorkload"), 0);
    QVERIFY(line);
    QCOMPARE(line->toolTip(), expected);
    QCOMPARE(findAction(controller.menu(), QStringLiteral("pauseWorkload"), runtime.id)->toolTip(), expected);
    QVERIFY2(controller.toolTip().contains(QStringLiteral("\n  Last output: cannot connect to pool")),
             qPrintable(controller.toolTip()));

    // Running again: no old output in the way.
    state.runtimes[runtime.id].state = WorkloadRuntime::Running;
    controller.applyState(state, kNowMs, kWallNow);
    QVERIFY(!controller.toolTip().contains(QStringLiteral("Last output")));
    QCOMPARE(findAction(controller.menu(), QStringLiteral("pauseWorkload"), runtime.id)->toolTip(),
             QStringLiteral("Pause miner"));
}

QTEST_MAIN(TestTrayIcon)
#include "tst_trayicon.moc"
