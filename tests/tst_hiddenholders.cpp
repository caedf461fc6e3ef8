// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "holders/hiddenholders.h"

#include <QTest>

namespace {

// One scan of the node: inotify counts since the previous scan, what the scan saw, and what must follow.
struct Step
{
    int opens;
    int closes;
    int visibleFds;
    bool someUnreadable;
    int expectedHidden;
    int expectedProvisional;
    int expectedShared;
};

} // namespace

Q_DECLARE_METATYPE(QList<Step>)

class TestHiddenHolders : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void sequences_data();
    void sequences();
    void nodesAreCountedApart();
    void resetForgetsEverything();
    void forgetNodeForgetsOneNode();
    void hiddenHolderExpiresWithoutEvents();
    void lostEventsLeaveUnseenNodesHeld();
};

void TestHiddenHolders::sequences_data()
{
    QTest::addColumn<QList<Step>>("steps");
    // Columns of a step: opens, closes, visible fds, some unreadable, then the expected hidden (confirmed),
    // provisional and shared counts. An unexplained open is provisional for one update, then confirmed.
    QTest::newRow("visible open, then close") << QList<Step>{{1, 0, 1, true, 0, 0, 0}, {0, 1, 0, true, 0, 0, 0}};
    QTest::newRow("hidden open, then close")
        << QList<Step>{{1, 0, 0, true, 0, 1, 0}, {0, 0, 0, true, 1, 0, 0}, {0, 1, 0, true, 0, 0, 0}};
    QTest::newRow("two hidden opens, one closes")
        << QList<Step>{{2, 0, 0, true, 0, 2, 0}, {0, 1, 0, true, 1, 0, 0}, {0, 1, 0, true, 0, 0, 0}};
    QTest::newRow("a short hidden job: open and close before it is confirmed")
        << QList<Step>{{1, 0, 0, true, 0, 1, 0}, {0, 1, 0, true, 0, 0, 0}};
    QTest::newRow("fork shares the fd, then all exit: nothing hidden")
        << QList<Step>{{1, 0, 1, true, 0, 0, 0}, {0, 0, 2, true, 0, 0, 1}, {0, 0, 1, true, 0, 0, 0},
                       {0, 1, 0, true, 0, 0, 0}};
    QTest::newRow("fork shares the fd, parent and child exit in one interval")
        << QList<Step>{{1, 0, 1, true, 0, 0, 0}, {0, 0, 2, true, 0, 0, 1}, {0, 1, 0, true, 0, 0, 0}};
    QTest::newRow("visible open and close between two scans")
        << QList<Step>{{1, 1, 0, true, 0, 0, 0}, {3, 3, 0, true, 0, 0, 0}};
    QTest::newRow("an open made mid-scan is seen by the next scan: not hidden")
        << QList<Step>{{1, 0, 0, true, 0, 1, 0}, {0, 0, 1, true, 0, 0, 0}, {0, 1, 0, true, 0, 0, 0}};
    QTest::newRow("hidden holder stays while a visible process forks and exits")
        << QList<Step>{{1, 0, 0, true, 0, 1, 0}, {1, 0, 1, true, 1, 0, 0}, {0, 0, 3, true, 1, 0, 2},
                       {0, 1, 0, true, 1, 0, 0}, {0, 1, 0, true, 0, 0, 0}};
    QTest::newRow("hidden open while a visible one opens")
        << QList<Step>{{2, 0, 1, true, 0, 1, 0}, {0, 2, 0, true, 0, 0, 0}};
    QTest::newRow("closes never make the count negative")
        << QList<Step>{{0, 3, 0, true, 0, 0, 0}, {1, 0, 0, true, 0, 1, 0}, {0, 0, 0, true, 1, 0, 0}};
    QTest::newRow("a visible fd closed after the scan, before its events were read: not hidden")
        << QList<Step>{{1, 0, 1, true, 0, 0, 0}, {6, 7, 1, true, 0, 0, 0}, {1, 0, 1, true, 0, 0, 0},
                       {6, 6, 1, true, 0, 0, 0}, {0, 1, 0, true, 0, 0, 0}};
    QTest::newRow("visible fds seen before the first events count as shared")
        << QList<Step>{{0, 0, 2, true, 0, 0, 2}, {0, 0, 0, true, 0, 0, 0}};
    QTest::newRow("nothing unreadable: everything is visible, hidden resets")
        << QList<Step>{{2, 0, 0, true, 0, 2, 0}, {0, 0, 0, true, 2, 0, 0}, {0, 0, 1, false, 0, 0, 0},
                       {1, 0, 1, true, 0, 1, 0}};
    // Its unexplained opens are provisional for one update (the monitor looks again), never confirmed.
    QTest::newRow("root never has hidden holders")
        << QList<Step>{{5, 0, 0, false, 0, 5, 0}, {0, 0, 2, false, 0, 0, 0}, {0, 1, 0, false, 0, 0, 0}};
    QTest::newRow("root: an open whose fd shows only at the next scan")
        << QList<Step>{{1, 0, 0, false, 0, 1, 0}, {0, 0, 1, false, 0, 0, 0}, {1, 1, 1, false, 0, 0, 0}};
}

void TestHiddenHolders::sequences()
{
    QFETCH(QList<Step>, steps);
    const QString node = QStringLiteral("/dev/nvidia0");
    HiddenHolderTracker tracker;
    QCOMPARE(tracker.hiddenCount(node), 0);
    for (int i = 0; i < steps.size(); ++i) {
        const Step &step = steps.at(i);
        tracker.update(node, step.opens, step.closes, step.visibleFds, step.someUnreadable, 1000 + i);
        const QByteArray where = "after step " + QByteArray::number(i + 1);
        QVERIFY2(tracker.hiddenCount(node) == step.expectedHidden,
                 where + ": hidden " + QByteArray::number(tracker.hiddenCount(node)));
        QVERIFY2(tracker.provisionalCount(node) == step.expectedProvisional,
                 where + ": provisional " + QByteArray::number(tracker.provisionalCount(node)));
        QVERIFY2(tracker.sharedCount(node) == step.expectedShared,
                 where + ": shared " + QByteArray::number(tracker.sharedCount(node)));
    }
}

void TestHiddenHolders::nodesAreCountedApart()
{
    HiddenHolderTracker tracker;
    for (int i = 0; i < 2; ++i) { // an open, then an update that confirms what is still unexplained
        tracker.update(QStringLiteral("/dev/nvidia0"), 1 - i, 0, 0, true, 1000);
        tracker.update(QStringLiteral("/dev/nvidia1"), 1 - i, 0, 1, true, 1000);
    }
    QCOMPARE(tracker.hiddenCount(QStringLiteral("/dev/nvidia0")), 1);
    QCOMPARE(tracker.hiddenCount(QStringLiteral("/dev/nvidia1")), 0);
    QCOMPARE(tracker.hiddenCount(QStringLiteral("/dev/nvidia2")), 0);
}

void TestHiddenHolders::resetForgetsEverything()
{
    HiddenHolderTracker tracker;
    const QString node = QStringLiteral("/dev/nvidia0");
    tracker.update(node, 2, 0, 1, true, 1000);
    tracker.update(node, 0, 0, 1, true, 1000);
    QCOMPARE(tracker.hiddenCount(node), 1);
    tracker.update(node, 1, 0, 1, true, 1000);
    QCOMPARE(tracker.provisionalCount(node), 1);
    tracker.reset();
    QCOMPARE(tracker.hiddenCount(node), 0);
    QCOMPARE(tracker.provisionalCount(node), 0);
    QCOMPARE(tracker.sharedCount(node), 0);
    // Counted anew: the visible fd seen again has no open event left to explain it.
    tracker.update(node, 0, 0, 1, true, 1000);
    QCOMPARE(tracker.hiddenCount(node), 0);
    QCOMPARE(tracker.sharedCount(node), 1);
}

void TestHiddenHolders::forgetNodeForgetsOneNode()
{
    HiddenHolderTracker tracker;
    for (int opens : {1, 0}) {
        tracker.update(QStringLiteral("/dev/nvidia0"), opens, 0, 0, true, 1000);
        tracker.update(QStringLiteral("/dev/nvidia1"), opens, 0, 0, true, 1000);
    }
    tracker.forgetNode(QStringLiteral("/dev/nvidia0"));
    QCOMPARE(tracker.hiddenCount(QStringLiteral("/dev/nvidia0")), 0);
    QCOMPARE(tracker.hiddenCount(QStringLiteral("/dev/nvidia1")), 1);
}

void TestHiddenHolders::hiddenHolderExpiresWithoutEvents()
{
    HiddenHolderTracker tracker;
    const QString node = QStringLiteral("/dev/nvidia0");
    const qint64 start = 5000;
    tracker.update(node, 1, 0, 0, true, start);
    tracker.update(node, 0, 0, 0, true, start + 10);
    QCOMPARE(tracker.hiddenCount(node), 1);
    tracker.update(node, 0, 0, 0, true, start + HiddenHolderTracker::kHiddenHolderTtlMs - 1);
    QCOMPARE(tracker.hiddenCount(node), 1);
    // An event on the node keeps it counted: the time runs from the last open or close.
    tracker.update(node, 1, 1, 0, true, start + HiddenHolderTracker::kHiddenHolderTtlMs - 1);
    tracker.update(node, 0, 0, 0, true, start + HiddenHolderTracker::kHiddenHolderTtlMs + 10);
    QCOMPARE(tracker.hiddenCount(node), 1);
    tracker.update(node, 0, 0, 0, true, start + 2 * HiddenHolderTracker::kHiddenHolderTtlMs);
    QCOMPARE(tracker.hiddenCount(node), 0);
}

void TestHiddenHolders::lostEventsLeaveUnseenNodesHeld()
{
    HiddenHolderTracker tracker;
    const QString unseen = QStringLiteral("/dev/nvidia0"); // its last update could not see every process
    const QString seen = QStringLiteral("/dev/nvidia1");   // its last update saw every process
    const QString known = QStringLiteral("/dev/nvidia2");  // a hidden holder confirmed before the loss
    tracker.update(unseen, 0, 0, 0, true, 1000);
    tracker.update(seen, 0, 0, 0, false, 1000);
    tracker.update(known, 1, 0, 0, true, 1000);
    tracker.update(known, 0, 0, 0, true, 1000);
    QCOMPARE(tracker.hiddenCount(known), 1);

    tracker.eventsLost(2000);
    QVERIFY(tracker.heldByUnknown(unseen));
    QCOMPARE(tracker.hiddenCount(unseen), 1);
    QVERIFY(!tracker.heldByUnknown(seen));
    QCOMPARE(tracker.hiddenCount(seen), 0);
    QCOMPARE(tracker.hiddenCount(known), 2); // the confirmed one stays, with the unknown one
    // Counts that balance to nothing prove nothing now: a close does not free the node.
    tracker.update(unseen, 0, 1, 0, true, 3000);
    tracker.update(unseen, 0, 0, 0, true, 4000);
    QCOMPARE(tracker.hiddenCount(unseen), 1);
    // A scan that sees every process does.
    tracker.update(unseen, 0, 0, 0, false, 5000);
    QCOMPARE(tracker.hiddenCount(unseen), 0);
    // So does the expiry that bounds any hidden count, counted from the loss.
    tracker.update(known, 0, 0, 0, true, 2000 + HiddenHolderTracker::kHiddenHolderTtlMs - 1);
    QCOMPARE(tracker.hiddenCount(known), 2);
    tracker.update(known, 0, 0, 0, true, 2000 + HiddenHolderTracker::kHiddenHolderTtlMs);
    QCOMPARE(tracker.hiddenCount(known), 0);
}

QTEST_GUILESS_MAIN(TestHiddenHolders)
#include "tst_hiddenholders.moc"
