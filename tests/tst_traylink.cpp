// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The tray as a client of a MonitorLink (tests/fakemonitorlink.h): its requests go through the link, a refusal is said
// in the menu and in a notification, a service that is away is said in the tooltip, the menu and the icon, and the
// user whose job took a GPU is told that it is theirs; a click on the icon says what it did, a notification's actions
// reach the link and the status window, and "Open log" without an application shows idlegpu's viewer.
#include "fakemonitorlink.h"
#include "recordingsink.h"
#include "status/statuswindow.h"
#include "tray/desktopnotificationsink.h"
#include "tray/logviewer.h"
#include "tray/notifier.h"
#include "tray/trayapplication.h"
#include "tray/traycontroller.h"
#include "tray/trayiconrenderer.h"
#include "widgettestsupport.h"

#include <QLabel>
#include <QMenu>
#include <QTimer>
#include <QSignalSpy>
#include <QtTest>

#include <unistd.h>

using TestSupport::findAction;

namespace {

// Two GPUs, free; two workloads.
MonitorState serviceState()
{
    MonitorState state;
    for (const QString &id : {QStringLiteral("process-miner"), QStringLiteral("process-boinc")}) {
        WorkloadConfig workload;
        workload.id = id;
        workload.name = id.mid(8);
        state.config.workloads.append(workload);
    }
    for (int i = 0; i < 2; ++i) {
        state.snapshot.devices.gpus.append({i, QStringLiteral("/dev/nvidia%1").arg(i)});
        GpuStatus gpu;
        gpu.index = i;
        state.decision.gpus.append(gpu);
    }
    return state;
}

QStringList menuTexts(const QMenu *menu)
{
    QStringList texts;
    for (const QAction *action : menu->actions())
        if (!action->isSeparator())
            texts.append(action->text());
    return texts;
}

} // namespace

class TestTrayLink : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase() { qputenv("XDG_STATE_HOME", m_state.path().toUtf8()); }
    void requestsGoThroughTheLink();
    void workloadPauseForAnHourGoesThroughTheLink();
    void refusalIsSaidInTheMenuAndANotification();
    void refusalGoesAfterAWhile();
    void refusalTextsArePlain();
    void serviceAwayIsSaid();
    void preemptionOfYourOwnJobSaysTheGpuIsYours();
    void unavailableIconIsGrey();
    void clickSaysWhatItDid();
    void notificationActionsReachTheTray();
    void openLogWithoutAnApplicationShowsTheViewer();

private:
    QTemporaryDir m_state;
};

void TestTrayLink::requestsGoThroughTheLink()
{
    FakeMonitorLink link;
    TrayApplication tray(&link, QString());
    link.sendState(serviceState());
    QVERIFY(!link.requests.contains(QStringLiteral("setPause"))); // the monitor keeps its own pause

    QMenu *menu = tray.controller()->menu();
    findAction(menu, QStringLiteral("pauseAll"))->trigger();
    findAction(menu, QStringLiteral("pauseForAnHour"))->trigger();
    findAction(menu, QStringLiteral("pauseWorkload"), QStringLiteral("process-boinc"))->trigger();
    QCOMPARE(link.requests, QStringList({QStringLiteral("pauseAll"), QStringLiteral("pauseFor 3600000"),
                                         QStringLiteral("pause process-boinc")}));
    // Settings… loads the service's file through it first.
    QAction *settings = findAction(menu, QStringLiteral("settings"));
    QVERIFY(settings->isEnabled());
    settings->trigger();
    QCOMPARE(link.requests.last(), QStringLiteral("loadConfig"));
    QVERIFY(!tray.settingsDialog());

    // A monitor of this process keeps its pause itself, as a service does: the tray sends none at start.
    FakeMonitorLink local(true);
    TrayApplication localTray(&local, QString());
    QVERIFY(local.requests.isEmpty());
}

// "Pause NAME for 1 hour" on each workload: the link's timed pause of that workload; the menu says until when, and a
// refusal is said as for Pause all.
void TestTrayLink::workloadPauseForAnHourGoesThroughTheLink()
{
    FakeClock clock;
    FakeMonitorLink link;
    TrayApplication tray(&link, QString(), &clock);
    link.sendState(serviceState());
    QMenu *menu = tray.controller()->menu();
    QAction *forAnHour = findAction(menu, QStringLiteral("pauseWorkloadForAnHour"), QStringLiteral("process-boinc"));
    QVERIFY(forAnHour);
    QCOMPARE(forAnHour->text(), QStringLiteral("Pause boinc for 1 hour"));
    QVERIFY(forAnHour->isEnabled());
    forAnHour->trigger();
    QCOMPARE(link.requests, QStringList({QStringLiteral("pause process-boinc for 3600000")}));

    // The monitor paused it until an hour from now: the workload's item says until when, checked.
    MonitorState paused = serviceState();
    paused.pause.workloads.insert(QStringLiteral("process-boinc"));
    paused.pause.workloadUntilMs.insert(QStringLiteral("process-boinc"), clock.nowMs() + TrayController::kPauseForMs);
    const QString before =
        QDateTime::currentDateTime().addMSecs(TrayController::kPauseForMs).toString(QStringLiteral("HH:mm"));
    link.sendState(paused);
    const QString after =
        QDateTime::currentDateTime().addMSecs(TrayController::kPauseForMs).toString(QStringLiteral("HH:mm"));
    menu = tray.controller()->menu();
    QAction *boinc = findAction(menu, QStringLiteral("pauseWorkload"), QStringLiteral("process-boinc"));
    QVERIFY(boinc->isChecked());
    QVERIFY2(boinc->text() == QStringLiteral("Pause boinc (paused until %1)").arg(before)
                 || boinc->text() == QStringLiteral("Pause boinc (paused until %1)").arg(after),
             qPrintable(boinc->text()));
    QAction *miner = findAction(menu, QStringLiteral("pauseWorkload"), QStringLiteral("process-miner"));
    QVERIFY(!miner->isChecked());
    QCOMPARE(miner->text(), QStringLiteral("Pause miner"));
    // Its item unchecked resumes it.
    boinc->trigger();
    QCOMPARE(link.requests.last(), QStringLiteral("resume process-boinc"));

    // Over: the pause has ended, whatever the last state said.
    clock.advance(TrayController::kPauseForMs);
    link.sendState(paused);
    boinc = findAction(tray.controller()->menu(), QStringLiteral("pauseWorkload"), QStringLiteral("process-boinc"));
    QVERIFY(!boinc->isChecked());
    QCOMPARE(boinc->text(), QStringLiteral("Pause boinc"));

    // Refused by the service (polkit): said plainly in the menu.
    findAction(tray.controller()->menu(), QStringLiteral("pauseWorkloadForAnHour"), QStringLiteral("process-miner"))
        ->trigger();
    QCOMPARE(link.requests.last(), QStringLiteral("pause process-miner for 3600000"));
    link.refuse(MonitorLink::Request::PauseWorkloadFor, QStringLiteral("not authorized"));
    QCOMPARE(tray.controller()->menu()->actions().value(0)->text(), QStringLiteral("Pause refused: not authorized"));

    // Away: nothing to ask.
    link.goAway(QStringLiteral("The idlegpu service is not running"));
    QVERIFY(!findAction(tray.controller()->menu(), QStringLiteral("pauseWorkloadForAnHour"),
                        QStringLiteral("process-miner"))
                 ->isEnabled());
}

void TestTrayLink::refusalIsSaidInTheMenuAndANotification()
{
    FakeMonitorLink link;
    TrayApplication tray(&link, QString());
    QSignalSpy shown(tray.notifier(), &Notifier::shown);
    link.sendState(serviceState());
    findAction(tray.controller()->menu(), QStringLiteral("pauseAll"))->trigger();
    link.refuse(MonitorLink::Request::PauseAll, QStringLiteral("not authorized"));

    QMenu *menu = tray.controller()->menu();
    QCOMPARE(menu->actions().value(0)->text(), QStringLiteral("Pause refused: not authorized"));
    QVERIFY(!menu->actions().value(0)->isEnabled());
    QCOMPARE(shown.count(), 1);
    QCOMPARE(shown.at(0).at(1).toString(), QStringLiteral("Request refused"));
    QCOMPARE(shown.at(0).at(2).toString(), QStringLiteral("Pause refused: not authorized"));

    // The line stays through the states a service sends after every scan while the pause is as it was; it goes
    // when the pause changes.
    QVERIFY(findAction(menu, QStringLiteral("refusal")));
    link.sendState(serviceState());
    QVERIFY(findAction(tray.controller()->menu(), QStringLiteral("refusal")));
    MonitorState paused = serviceState();
    paused.pause.all = true;
    link.sendState(paused);
    QVERIFY(!findAction(tray.controller()->menu(), QStringLiteral("refusal")));
}

// Nor does it stay for ever when nothing changes.
void TestTrayLink::refusalGoesAfterAWhile()
{
    FakeMonitorLink link;
    TrayApplication tray(&link, QString());
    link.sendState(serviceState());
    link.refuse(MonitorLink::Request::PauseAll, QStringLiteral("not authorized"));
    QVERIFY(findAction(tray.controller()->menu(), QStringLiteral("refusal")));
    // The refusal's timer is the one running with its minute; made short, it ends the line at once.
    QList<QTimer *> refusalTimers;
    for (QTimer *timer : tray.findChildren<QTimer *>(Qt::FindDirectChildrenOnly))
        if (timer->isActive() && timer->interval() == 60'000)
            refusalTimers.append(timer);
    QCOMPARE(refusalTimers.size(), 1);
    link.sendState(serviceState());
    QVERIFY(findAction(tray.controller()->menu(), QStringLiteral("refusal")));
    refusalTimers.constFirst()->setInterval(0);
    QTRY_VERIFY(!findAction(tray.controller()->menu(), QStringLiteral("refusal")));
}

void TestTrayLink::refusalTextsArePlain()
{
    QCOMPARE(TrayController::refusalText(MonitorLink::Request::PauseWorkload, QStringLiteral("not authorized")),
             QStringLiteral("Pause refused: not authorized"));
    QCOMPARE(TrayController::refusalText(MonitorLink::Request::ResumeAll, QStringLiteral("the password dialog was "
                                                                                         "dismissed")),
             QStringLiteral("Resume refused: the password dialog was dismissed"));
    QCOMPARE(TrayController::refusalText(MonitorLink::Request::LoadConfig, QStringLiteral("not authorized")),
             QStringLiteral("Settings refused: not authorized"));
    QCOMPARE(TrayController::refusalText(MonitorLink::Request::PauseAllFor, QString()),
             QStringLiteral("Pause refused: no reason given"));
}

void TestTrayLink::serviceAwayIsSaid()
{
    FakeMonitorLink link;
    TrayApplication tray(&link, QString());
    link.sendState(serviceState());
    TrayController *controller = tray.controller();
    QVERIFY(findAction(controller->menu(), QStringLiteral("pauseAll"))->isEnabled());

    link.goAway(QStringLiteral("The idlegpu service is not running"));
    QCOMPARE(controller->toolTip(), QStringLiteral("idlegpu — The idlegpu service is not running"));
    QMenu *menu = controller->menu();
    QCOMPARE(menu->actions().value(0)->text(), QStringLiteral("The idlegpu service is not running"));
    QVERIFY(!menu->actions().value(0)->isEnabled());
    QVERIFY(!findAction(menu, QStringLiteral("pauseAll"))->isEnabled());
    QVERIFY(!findAction(menu, QStringLiteral("pauseForAnHour"))->isEnabled());
    QVERIFY(!findAction(menu, QStringLiteral("pauseWorkload"), QStringLiteral("process-miner"))->isEnabled());
    QVERIFY(!findAction(menu, QStringLiteral("gpuActivity"), 0)); // the last state's GPUs are old news
    QVERIFY(findAction(menu, QStringLiteral("quit"))->isEnabled());
    // The status window says it above the last state.
    tray.showStatusWindow();
    auto *summary = tray.statusWindow()->findChild<QLabel *>(QStringLiteral("summary"));
    QVERIFY(summary);
    QCOMPARE(summary->text(), QStringLiteral("The idlegpu service is not running. Below is the last state it sent."));
    tray.statusWindow()->hide();

    // Back: the state's own words again.
    link.comeBack();
    link.sendState(serviceState());
    QVERIFY2(controller->toolTip().startsWith(QStringLiteral("idlegpu — Waiting")), qPrintable(controller->toolTip()));
    QVERIFY(findAction(controller->menu(), QStringLiteral("pauseAll"))->isEnabled());
    QVERIFY(!findAction(controller->menu(), QStringLiteral("unavailable")));
}

void TestTrayLink::preemptionOfYourOwnJobSaysTheGpuIsYours()
{
    RecordingSink sink;
    FakeClock clock;
    Notifier notifier(&sink, &clock);
    notifier.setOwnUid(1000);
    PreemptionEvent event = preemption(0);
    event.culprit.uid = 1000;
    event.openToStopMs = 4.2;
    notifier.notifyPreemption(event);
    QCOMPARE(sink.messages.size(), 1);
    QCOMPARE(sink.messages.at(0).body, QStringLiteral("GPU 0 is yours: stopped miner 4 ms after python3 opened it"));

    // Found by a poll: no time to tell. Another user's job: the usual words.
    clock.advance(Notifier::kWindowMs);
    notifier.flushDue();
    event.openToStopMs.reset();
    notifier.notifyPreemption(event);
    QCOMPARE(sink.messages.last().body, QStringLiteral("GPU 0 is yours: stopped miner after python3 opened it"));
    clock.advance(Notifier::kWindowMs);
    notifier.flushDue();
    event.culprit.uid = 1001;
    notifier.notifyPreemption(event);
    QCOMPARE(sink.messages.last().body, QStringLiteral("python3 (alice) took GPU 0: stopped miner"));
}

void TestTrayLink::unavailableIconIsGrey()
{
    const QImage grey = TrayIconRenderer::renderUnavailable(22);
    QVERIFY(!grey.isNull());
    bool anyVisible = false;
    for (int y = 0; y < grey.height(); ++y)
        for (int x = 0; x < grey.width(); ++x) {
            const QRgb pixel = grey.pixel(x, y);
            if (qAlpha(pixel) == 0)
                continue;
            anyVisible = true;
            QCOMPARE(qRed(pixel), qGreen(pixel));
            QCOMPARE(qGreen(pixel), qBlue(pixel));
        }
    QVERIFY(anyVisible);
}

// A click pauses everything, and says so once the monitor did: a short notification, and the menu's first line; the
// click that resumes says so too. A refused click is told by the refusal alone.
void TestTrayLink::clickSaysWhatItDid()
{
    FakeClock clock;
    FakeMonitorLink link;
    TrayApplication tray(&link, QString(), &clock);
    link.sendState(serviceState());
    tray.showTrayIcon();
    auto *icon = tray.findChild<QSystemTrayIcon *>();
    QVERIFY(icon);
    QSignalSpy shown(tray.notifier(), &Notifier::shown);

    Q_EMIT icon->activated(QSystemTrayIcon::Trigger);
    QCOMPARE(link.requests, QStringList{QStringLiteral("pauseAll")});
    QCOMPARE(shown.size(), 0);      // not before the monitor did it
    link.sendState(serviceState()); // a scan before the pause: nothing to say yet
    QCOMPARE(shown.size(), 0);
    MonitorState paused = serviceState();
    paused.pause.all = true;
    link.sendState(paused);
    QCOMPARE(shown.size(), 1);
    QCOMPARE(shown.at(0).at(0).value<NotificationKind>(), NotificationKind::Pause);
    QCOMPARE(shown.at(0).at(1).toString(), QStringLiteral("Paused all workloads"));
    QCOMPARE(shown.at(0).at(2).toString(), QStringLiteral("Click the icon again to resume."));
    QCOMPARE(tray.controller()->menu()->actions().constFirst()->text(),
             QStringLiteral("Paused all workloads — click again to resume"));
    link.sendState(paused); // the next scan: said once
    QCOMPARE(shown.size(), 1);

    Q_EMIT icon->activated(QSystemTrayIcon::Trigger);
    QCOMPARE(link.requests.last(), QStringLiteral("resumeAll"));
    link.sendState(serviceState());
    QCOMPARE(shown.size(), 2);
    QCOMPARE(shown.at(1).at(1).toString(), QStringLiteral("Resumed all workloads"));
    QVERIFY(!findAction(tray.controller()->menu(), QStringLiteral("pausedAll")));

    Q_EMIT icon->activated(QSystemTrayIcon::Trigger);
    link.refuse(MonitorLink::Request::PauseAll, QStringLiteral("not authorized"));
    QCOMPARE(shown.size(), 3);
    QCOMPARE(shown.at(2).at(0).value<NotificationKind>(), NotificationKind::Refusal);
    link.sendState(paused); // someone else paused later: not this click's answer
    QCOMPARE(shown.size(), 3);
}

// "Pause for 1 hour" on a notification is the menu's pause for an hour; "Show" opens the status window.
void TestTrayLink::notificationActionsReachTheTray()
{
    FakeMonitorLink link;
    TrayApplication tray(&link, QString());
    link.sendState(serviceState());
    Q_EMIT tray.desktopNotifications()->pauseAllForRequested(DesktopNotificationSink::kPauseForMs);
    QCOMPARE(link.requests, QStringList{QStringLiteral("pauseFor 3600000")});
    QVERIFY(!tray.statusWindow()->isVisible());
    Q_EMIT tray.desktopNotifications()->showStatusRequested();
    QVERIFY(tray.statusWindow()->isVisible());
    tray.statusWindow()->close();
}

void TestTrayLink::openLogWithoutAnApplicationShowsTheViewer()
{
    QTemporaryDir dir;
    const QString path = dir.filePath(QStringLiteral("idlegpu.log"));
    QFile log(path);
    QVERIFY(log.open(QIODevice::WriteOnly));
    log.write("miner: cannot connect to pool\n");
    log.close();
    FakeMonitorLink link;
    TrayApplication tray(&link, path);
    link.sendState(serviceState());
    QList<QUrl> asked;
    tray.logOpener()->setUrlOpener([&asked](const QUrl &url, const std::function<void(bool)> &done) {
        asked.append(url);
        done(false);
    });
    findAction(tray.controller()->menu(), QStringLiteral("openLog"))->trigger();
    QCOMPARE(asked, QList<QUrl>{QUrl::fromLocalFile(path)});
    QVERIFY(tray.logOpener()->viewer() && tray.logOpener()->viewer()->isVisible());
    QCOMPARE(tray.logOpener()->viewer()->text(), QStringLiteral("miner: cannot connect to pool\n"));
}

QTEST_MAIN(TestTrayLink)
#include "tst_traylink.moc"
