// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The status window of a tray that shows a service has the dashboard of the tray's own monitor: a window fed with
// the state the service's JSON gives back (StateJson::toJson, then fromJson, as RemoteMonitor reads GetState) shows
// the same totals, preemptions, per-GPU figures, preemption notes and 24-hour timelines as a window fed with the
// monitor's state; and a caller who may not see another user's processes reads no name of them in it.
#include "bus/statejson.h"
#include "bus/statejsonreader.h"
#include "fullledger.h"
#include "status/gpucard.h"
#include "status/preemptionlist.h"
#include "status/statuswindow.h"
#include "status/timelinestrip.h"
#include "status/totalspanel.h"

#include <QLabel>
#include <QTreeWidget>
#include <QtTest>

namespace {

constexpr qint64 kNowMs = 50'000'000;
const QDateTime kWallNow(QDate(2026, 11, 5), QTime(14, 0), Qt::UTC);

// Two GPUs: the miner runs on GPU 0, GPU 1 is idle since alice's python3 took it; the fullest ledger of two GPUs.
MonitorState dashboardState()
{
    MonitorState state;
    WorkloadConfig miner;
    miner.id = QStringLiteral("process-miner");
    miner.name = QStringLiteral("miner");
    miner.gpus.all = true;
    state.config.workloads = {miner};
    state.snapshot.devices.gpus = {{0, QStringLiteral("/dev/nvidia0")}, {1, QStringLiteral("/dev/nvidia1")}};
    GpuStatus gpu0;
    gpu0.index = 0;
    gpu0.state = GpuState::RunningWorkload;
    gpu0.workloadId = miner.id;
    GpuStatus gpu1;
    gpu1.index = 1;
    gpu1.state = GpuState::Idle;
    state.decision.gpus = {gpu0, gpu1};
    state.ledger = TestSupport::fullLedger(kWallNow.toMSecsSinceEpoch(), 2, 200);
    state.ledger.sinceWallMs = QDateTime(QDate(2026, 9, 1), QTime(9, 0), Qt::UTC).toMSecsSinceEpoch();
    state.ledger.all.today.energyJoules = 3.6e6;
    state.ledger.all.week.energyJoules = 7.2e6;
    state.ledger.all.total.energyJoules = 3.6e8;
    state.ledger.recentPreemptions[0].gpu = 1;                // the newest took GPU 1, which is idle since
    state.ledger.recentPreemptions[3].culpritProgram.clear(); // one idlegpu itself could not see
    state.ledger.recentPreemptions[3].culpritUser.clear();
    state.ledger.recentPreemptions[3].culpritPid = 0;
    return state;
}

// What the dashboard shows, one line per thing, to compare two windows.
QStringList dashboardOf(const StatusWindow &window)
{
    QStringList lines;
    const QTreeWidget *tree = window.preemptions()->tree();
    for (int row = 0; row < tree->topLevelItemCount(); ++row) {
        QStringList columns;
        for (int column = 0; column < PreemptionList::ColumnCount; ++column)
            columns.append(tree->topLevelItem(row)->text(column));
        lines.append(QStringLiteral("preemption: ") + columns.join(QStringLiteral(" | ")));
    }
    for (const QLabel *label : window.totals()->findChildren<QLabel *>())
        if (!label->objectName().isEmpty())
            lines.append(QStringLiteral("totals %1: %2").arg(label->objectName(), label->text()));
    for (const GpuCard *card : window.cards()) {
        const QString gpu = QString::number(card->gpu());
        lines.append(QStringLiteral("GPU %1 figures: %2")
                         .arg(gpu, card->findChild<QLabel *>(QStringLiteral("figures"))->text()));
        lines.append(QStringLiteral("GPU %1 note: %2").arg(gpu, card->preemptionNote()));
        lines.append(QStringLiteral("GPU %1 timeline: %2").arg(gpu, card->timeline()->toolTip()));
    }
    return lines;
}

} // namespace

class TestStateJsonWindow : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void serviceWindowShowsTheSameDashboard()
    {
        const MonitorState state = dashboardState();
        StatusWindow own;
        own.applyState(state, kNowMs, kWallNow);
        own.show();
        const StateJson::Now now{kNowMs, kWallNow};
        StatusWindow client;
        client.applyState(StateJson::fromJson(StateJson::toJson(state, StateJson::View::full(), now), kNowMs, kWallNow),
                          kNowMs, kWallNow);
        client.show();

        const QStringList shown = dashboardOf(own);
        QCOMPARE(dashboardOf(client), shown);
        // It is the dashboard indeed: 50 preemptions, the energy, a note on GPU 1, two timelines.
        QCOMPARE(own.preemptions()->tree()->topLevelItemCount(), 50);
        QCOMPARE(shown.filter(QStringLiteral("python3 (alice, pid 100000)")).size(), 2); // the list, GPU 1's note
        QVERIFY(!own.card(1)->preemptionNote().isEmpty());
        QVERIFY(own.card(0)->timeline()->toolTip().contains(QStringLiteral("workload")));
        QVERIFY(own.totals()->energyShown());
    }

    // Carol, under hidepid, sees who took the GPUs as "a process of another user", and no name, user or pid.
    void hiddenCulpritsStayHidden()
    {
        const MonitorState state = dashboardState();
        StateJson::View carol;
        carol.uid = 1003;
        carol.user = QStringLiteral("carol");
        carol.seesOthers = false;
        StatusWindow client;
        client.applyState(StateJson::fromJson(StateJson::toJson(state, carol, {kNowMs, kWallNow}), kNowMs, kWallNow),
                          kNowMs, kWallNow);
        client.show();
        const QString shown = dashboardOf(client).join(QLatin1Char('\n'));
        QVERIFY2(!shown.contains(QLatin1String("python3")) && !shown.contains(QLatin1String("alice"))
                     && !shown.contains(QLatin1String("10000")),
                 qPrintable(shown));
        QCOMPARE(client.preemptions()->tree()->topLevelItem(0)->text(PreemptionList::CulpritColumn),
                 QStringLiteral("a process of another user (not visible without root)"));
        QCOMPARE(client.preemptions()->tree()->topLevelItemCount(), 50);
    }
};

QTEST_MAIN(TestStateJsonWindow)
#include "tst_statejsonwindow.moc"
