// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// Every rule that can hold every workload back, and a GPU too hot, says the same words wherever someone reads why
// nothing runs: the decision (the log), `idlegpu --status`, the tray's tooltip and menu, and the status window. Each
// world is decided by the policy itself, so that the words are those a running idlegpu would give.
#include "config/schedule.h"
#include "policy/holdwords.h"
#include "policy/policy.h"
#include "status/gpucard.h"
#include "status/statuswindow.h"
#include "statusreport.h"
#include "tray/traycontroller.h"
#include "widgettestsupport.h"

#include <QLabel>
#include <QMenu>
#include <QSystemTrayIcon>
#include <QtTest>

using TestSupport::findAction;

namespace {

constexpr qint64 kNowMs = 1'000'000;
const QDateTime kMondayNoon(QDate(2026, 1, 5), QTime(12, 0));

// One GPU, one workload that would run on it but for the rule `reason`, decided by the policy.
MonitorState heldBy(HoldReason reason)
{
    MonitorState state;
    Config &config = state.config;
    config.startDelaySeconds = 0;
    WorkloadConfig workload;
    workload.id = QStringLiteral("process-miner");
    workload.name = QStringLiteral("miner");
    workload.cmd = QStringLiteral("miner");
    workload.argv = {workload.cmd};
    workload.gpus.all = true;
    config.workloads = {workload};
    Snapshot &snapshot = state.snapshot;
    snapshot.takenAtMs = kNowMs;
    snapshot.devices.gpus.append({0, QStringLiteral("/dev/nvidia0")});

    switch (reason) {
    case HoldReason::Paused: state.pause.all = true; break;
    case HoldReason::OutsideSchedule: {
        QString message;
        config.schedule = *Schedule::parse(QStringLiteral("Sat"), &message);
        break;
    }
    case HoldReason::OnBattery:
        config.onBattery = OnBattery::Pause;
        snapshot.power = {true, true, QStringLiteral("BAT0")};
        break;
    case HoldReason::OwnerPresent:
        config.activity.pauseWhileActive = true;
        snapshot.presence = {UserPresence::State::Active, 0, QStringLiteral("logind")};
        break;
    case HoldReason::TooHot:
        config.maxTemperatureC = 85;
        snapshot.temperatures.insert(0, 90);
        break;
    case HoldReason::TerminalUser:
        config.tty.enabled = true;
        config.tty.idleSeconds = 300;
        snapshot.ttys.append({QStringLiteral("/dev/pts/0"), 1000, QStringLiteral("alice"), 1000});
        snapshot.ttys.append({QStringLiteral("/dev/pts/1"), 1001, QStringLiteral("carol"), 2000});
        break;
    default: qFatal("no world for this reason");
    }

    PolicyInput input;
    input.snapshot = snapshot;
    input.config = config;
    input.pause = state.pause;
    input.nowMs = kNowMs;
    input.snapshot.localTime = kMondayNoon;
    state.decision = Policy::decide(input);
    return state;
}

QAction *holdAction(QMenu *menu)
{
    return findAction(menu, QStringLiteral("hold"));
}

} // namespace

class TestHoldWords : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sameWordsEverywhere_data();
    void sameWordsEverywhere();
    void tooHotSameWordsEverywhere();
    void wordsOnlyForRulesOnEveryone();
};

void TestHoldWords::sameWordsEverywhere_data()
{
    QTest::addColumn<int>("reason");
    QTest::addColumn<QString>("words");
    // Every rule from Paused to TerminalUser, in HoldReason's order, with the words a user reads.
    QTest::newRow("paused") << int(HoldReason::Paused) << "paused";
    QTest::newRow("outside the schedule") << int(HoldReason::OutsideSchedule) << "outside the schedule until Sat 00:00";
    QTest::newRow("on battery") << int(HoldReason::OnBattery) << "the computer runs on battery";
    QTest::newRow("owner present") << int(HoldReason::OwnerPresent) << "you are at the computer";
    QTest::newRow("terminal users") << int(HoldReason::TerminalUser) << "users alice, carol are active on a terminal";
}

void TestHoldWords::sameWordsEverywhere()
{
    QFETCH(int, reason);
    QFETCH(QString, words);
    const MonitorState state = heldBy(HoldReason(reason));

    // The decision, as the log says it.
    QCOMPARE(int(state.decision.hold), reason);
    QCOMPARE(state.decision.holdText, words);
    QCOMPARE(state.decision.workloadReasons.value(QStringLiteral("process-miner")).text, words);

    // idlegpu --status.
    const QString report = StatusReport::formatText(state);
    QVERIFY2(report.contains(QStringLiteral("GPU 0: idle, %1\n").arg(words)), qPrintable(report));

    const QDateTime wallNow = kMondayNoon;
    QSystemTrayIcon trayIcon;
    TrayController controller(&trayIcon);
    controller.applyState(state, kNowMs, wallNow);
    StatusWindow window;
    window.applyState(state, kNowMs, wallNow);
    window.show(); // a hidden window fills no widget
    const QString summary = window.findChild<QLabel *>(QStringLiteral("summary"))->text();
    const QString toolTip = TrayController::toolTipText(state, kNowMs, wallNow);

    if (HoldReason(reason) == HoldReason::Paused) {
        // The user's own pause: the GUI says "Paused" in its title, and no hold line of a rule.
        QCOMPARE(toolTip.section(QLatin1Char('\n'), 0, 0), QStringLiteral("idlegpu — Paused"));
        QVERIFY(!holdAction(controller.menu()));
        QCOMPARE(summary.section(QLatin1Char('\n'), 0, 0), QStringLiteral("Paused"));
        return;
    }
    // The tray and the status window frame the same words with "Paused: ".
    const QString line = QStringLiteral("Paused: ") + words;
    QCOMPARE(toolTip.section(QLatin1Char('\n'), 0, 0), QStringLiteral("idlegpu — ") + line);
    QCOMPARE(trayIcon.toolTip(), toolTip);
    QAction *hold = holdAction(controller.menu());
    QVERIFY(hold);
    QCOMPARE(hold->text(), line);
    QCOMPARE(summary, line);
}

// A GPU too hot holds the workloads that want it: the decision names the GPU, the GUI's line of that GPU says the
// same words (the menu without the reading, which moves).
void TestHoldWords::tooHotSameWordsEverywhere()
{
    const QString words = QStringLiteral("too hot (90 °C): runs again below 81 °C");
    const QString withoutReading = QStringLiteral("too hot: runs again below 81 °C");
    const MonitorState state = heldBy(HoldReason::TooHot);

    QCOMPARE(state.decision.hold, HoldReason::None);
    const WorkloadReason reason = state.decision.workloadReasons.value(QStringLiteral("process-miner"));
    QCOMPARE(reason.hold, HoldReason::TooHot);
    QCOMPARE(reason.text, QStringLiteral("GPU 0 is ") + words);
    QCOMPARE(state.decision.gpu(0)->reason, QStringLiteral("GPU 0 is ") + words);

    const QString report = StatusReport::formatText(state);
    QVERIFY2(report.contains(QStringLiteral("GPU 0: idle, GPU 0 is %1\n").arg(words)), qPrintable(report));

    const QDateTime wallNow = kMondayNoon;
    QSystemTrayIcon trayIcon;
    TrayController controller(&trayIcon);
    controller.applyState(state, kNowMs, wallNow);
    const QString toolTip = TrayController::toolTipText(state, kNowMs, wallNow);
    QVERIFY2(toolTip.contains(QStringLiteral("GPU 0: idle — ") + words), qPrintable(toolTip));
    QAction *activity = findAction(controller.menu(), QStringLiteral("gpuActivity"));
    QVERIFY(activity);
    QCOMPARE(activity->text(), QStringLiteral("idle — ") + withoutReading);

    StatusWindow window;
    window.applyState(state, kNowMs, wallNow);
    window.show(); // a hidden window fills no widget
    QVERIFY(window.card(0));
    QCOMPARE(window.card(0)->findChild<QLabel *>(QStringLiteral("activity"))->text(),
             QStringLiteral("idle — ") + words);
}

// The words belong to the rules that can hold every workload at once; the others are worded by the policy with their
// GPU or holder.
void TestHoldWords::wordsOnlyForRulesOnEveryone()
{
    const QList<HoldReason> everyone{HoldReason::Paused, HoldReason::OutsideSchedule, HoldReason::OnBattery,
                                     HoldReason::OwnerPresent, HoldReason::TerminalUser};
    for (int i = int(HoldReason::None); i <= int(HoldReason::Settling); ++i) {
        const HoldReason reason = HoldReason(i);
        HoldWords::Facts facts;
        facts.reason = reason;
        const QString words = HoldWords::of(facts, HoldWords::Language::English);
        QCOMPARE(HoldWords::holdsEveryone(reason), everyone.contains(reason));
        QCOMPARE(words.isEmpty(), !everyone.contains(reason));
        QCOMPARE(HoldWords::of(facts, HoldWords::Language::Translated), words); // no translator installed
    }
}

QTEST_MAIN(TestHoldWords)
#include "tst_holdwords.moc"
