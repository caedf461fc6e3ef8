// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "devices/nodewatcher.h"
#include "testsupport.h"

#include <QFile>
#include <QRegularExpression>
#include <QTest>

#include <fcntl.h>
#include <unistd.h>

namespace {

// Everything a watcher reported, summed over its emissions.
struct Recorder
{
    explicit Recorder(NodeWatcher &watcher)
    {
        QObject::connect(&watcher, &NodeWatcher::eventsArrived, &watcher, [this](const NodeEvents &events) {
            ++emissions;
            for (auto it = events.opens.cbegin(); it != events.opens.cend(); ++it)
                opens[it.key()] += it.value();
            for (auto it = events.closes.cbegin(); it != events.closes.cend(); ++it)
                closes[it.key()] += it.value();
            gone += events.gone;
            overflow = overflow || events.overflow;
        });
    }
    int emissions = 0;
    QHash<QString, int> opens;
    QHash<QString, int> closes;
    QStringList gone;
    bool overflow = false;
};

// Opens and closes `path` from the test process itself: inotify counts it like any other process's open.
void openAndClose(const QString &path, int times = 1)
{
    const QByteArray name = QFile::encodeName(path);
    for (int i = 0; i < times; ++i) {
        const int fd = ::open(name.constData(), O_RDONLY | O_CLOEXEC);
        QVERIFY2(fd >= 0, name.constData());
        ::close(fd);
    }
}

} // namespace

class TestNodeWatcher : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void watchesTheGivenNodes();
    void realProcessOpensAndCloses();
    void eventsReadTogetherAreOneEmission();
    void nodesNoLongerGivenAreNotReported();
    void deletedNodeIsGone_data();
    void deletedNodeIsGone();
    void recreatedNodeIsWatchedAgain();
    void recreatedNodeNoticedBySetNodes();
    void touchedNodeIsNotGone();
    void aliasOfAWatchedNodeIsReportedUnderItsFirstPath();
    void missingNodeIsSkipped();
    void overflowIsReported();
};

void TestNodeWatcher::watchesTheGivenNodes()
{
    TestSupport::FakeDevRoot dev(2);
    NodeWatcher watcher;
    QVERIFY(watcher.isValid());
    QVERIFY(watcher.watchedNodes().isEmpty());
    watcher.setNodes({dev.node(1), dev.ctl(), dev.node(0)});
    QCOMPARE(watcher.watchedNodes(), (QStringList{dev.node(0), dev.node(1), dev.ctl()}));
    watcher.setNodes({dev.node(1), dev.ctl(), dev.node(0)}); // unchanged: nothing to redo
    QCOMPARE(watcher.watchedNodes().size(), 3);
}

void TestNodeWatcher::realProcessOpensAndCloses()
{
    TestSupport::FakeDevRoot dev(2);
    NodeWatcher watcher;
    Recorder recorder(watcher);
    watcher.setNodes({dev.node(0), dev.node(1), dev.ctl()});
    TestSupport::NodeHolder job({dev.ctl(), dev.node(1)});
    QVERIFY(job.waitUntilOpen());
    QTRY_VERIFY_WITH_TIMEOUT(recorder.opens.value(dev.node(1)) == 1, 5000);
    QCOMPARE(recorder.opens.value(dev.ctl()), 1);
    QCOMPARE(recorder.opens.value(dev.node(0)), 0);
    QCOMPARE(recorder.closes.value(dev.node(1)), 0);

    job.kill();
    QTRY_VERIFY_WITH_TIMEOUT(recorder.closes.value(dev.node(1)) == 1, 5000);
    QTRY_COMPARE_WITH_TIMEOUT(recorder.closes.value(dev.ctl()), 1, 5000);
    QVERIFY(recorder.gone.isEmpty());
    QVERIFY(!recorder.overflow);
}

void TestNodeWatcher::eventsReadTogetherAreOneEmission()
{
    TestSupport::FakeDevRoot dev(1);
    NodeWatcher watcher;
    Recorder recorder(watcher);
    watcher.setNodes({dev.node(0), dev.ctl()});
    openAndClose(dev.node(0), 10); // no event loop runs meanwhile: all 20 events wait in the queue
    openAndClose(dev.ctl(), 3);
    QTRY_VERIFY_WITH_TIMEOUT(recorder.emissions > 0, 5000);
    QCOMPARE(recorder.emissions, 1);
    QCOMPARE(recorder.opens.value(dev.node(0)), 10);
    QCOMPARE(recorder.closes.value(dev.node(0)), 10);
    QCOMPARE(recorder.opens.value(dev.ctl()), 3);
    QCOMPARE(recorder.closes.value(dev.ctl()), 3);
}

void TestNodeWatcher::nodesNoLongerGivenAreNotReported()
{
    TestSupport::FakeDevRoot dev(2);
    NodeWatcher watcher;
    Recorder recorder(watcher);
    watcher.setNodes({dev.node(0), dev.node(1)});
    watcher.setNodes({dev.node(1)});
    QCOMPARE(watcher.watchedNodes(), QStringList{dev.node(1)});
    openAndClose(dev.node(0));
    openAndClose(dev.node(1)); // queued after node0's would be: once it is seen, node0's cannot come any more
    QTRY_VERIFY_WITH_TIMEOUT(recorder.opens.value(dev.node(1)) == 1, 5000);
    QVERIFY(!recorder.opens.contains(dev.node(0)));
    QVERIFY(!recorder.closes.contains(dev.node(0)));
}

void TestNodeWatcher::deletedNodeIsGone_data()
{
    QTest::addColumn<bool>("heldOpen");
    QTest::newRow("nobody holds it") << false;
    QTest::newRow("a process still holds it") << true; // no IN_DELETE_SELF until it closes: IN_ATTRIB tells
}

void TestNodeWatcher::deletedNodeIsGone()
{
    QFETCH(bool, heldOpen);
    TestSupport::FakeDevRoot dev(2);
    NodeWatcher watcher;
    Recorder recorder(watcher);
    watcher.setNodes({dev.node(0), dev.node(1)});
    std::unique_ptr<TestSupport::NodeHolder> job;
    if (heldOpen) {
        job = std::make_unique<TestSupport::NodeHolder>(QStringList{dev.node(0)});
        QVERIFY(job->waitUntilOpen());
    }
    dev.removeGpu(0);
    QTRY_VERIFY_WITH_TIMEOUT(recorder.gone.contains(dev.node(0)), 5000);
    QCOMPARE(recorder.gone.count(dev.node(0)), 1);
    QCOMPARE(watcher.watchedNodes(), QStringList{dev.node(1)});
    QVERIFY(!recorder.gone.contains(dev.node(1)));
}

void TestNodeWatcher::recreatedNodeIsWatchedAgain()
{
    TestSupport::FakeDevRoot dev(1);
    NodeWatcher watcher;
    Recorder recorder(watcher);
    watcher.setNodes({dev.node(0)});
    dev.removeGpu(0);
    QTRY_VERIFY_WITH_TIMEOUT(recorder.gone.contains(dev.node(0)), 5000);
    QVERIFY(watcher.watchedNodes().isEmpty());

    dev.addGpu(0); // the driver reloaded
    watcher.setNodes({dev.node(0)});
    QCOMPARE(watcher.watchedNodes(), QStringList{dev.node(0)});
    openAndClose(dev.node(0));
    QTRY_VERIFY_WITH_TIMEOUT(recorder.opens.value(dev.node(0)) == 1, 5000);
}

void TestNodeWatcher::recreatedNodeNoticedBySetNodes()
{
    TestSupport::FakeDevRoot dev(1);
    NodeWatcher watcher;
    Recorder recorder(watcher);
    watcher.setNodes({dev.node(0)});
    // Replaced before the watcher read a single event: setNodes sees the new inode and watches it instead.
    dev.removeGpu(0);
    dev.addGpu(0);
    watcher.setNodes({dev.node(0)});
    QCOMPARE(watcher.watchedNodes(), QStringList{dev.node(0)});
    openAndClose(dev.node(0), 2);
    QTRY_VERIFY_WITH_TIMEOUT(recorder.opens.value(dev.node(0)) == 2, 5000);
    QCOMPARE(recorder.closes.value(dev.node(0)), 2);
    QCOMPARE(watcher.watchedNodes(), QStringList{dev.node(0)}); // the old node's end dropped nothing
}

void TestNodeWatcher::touchedNodeIsNotGone()
{
    TestSupport::FakeDevRoot dev(1);
    NodeWatcher watcher;
    Recorder recorder(watcher);
    watcher.setNodes({dev.node(0)});
    QVERIFY(QFile::setPermissions(dev.node(0), QFile::ReadOwner | QFile::WriteOwner)); // IN_ATTRIB, same node
    openAndClose(dev.node(0));
    QTRY_VERIFY_WITH_TIMEOUT(recorder.closes.value(dev.node(0)) == 1, 5000);
    QVERIFY(recorder.gone.isEmpty());
    QCOMPARE(watcher.watchedNodes(), QStringList{dev.node(0)});
}

void TestNodeWatcher::aliasOfAWatchedNodeIsReportedUnderItsFirstPath()
{
    TestSupport::FakeDevRoot dev(1);
    const QString alias = dev.path() + "/by-path-gpu0";
    QVERIFY(QFile::link(dev.node(0), alias));
    NodeWatcher watcher;
    Recorder recorder(watcher);
    watcher.setNodes({dev.node(0), alias});
    QCOMPARE(watcher.watchedNodes(), QStringList{dev.node(0)});
    openAndClose(alias);
    QTRY_VERIFY_WITH_TIMEOUT(recorder.opens.value(dev.node(0)) == 1, 5000);
}

void TestNodeWatcher::missingNodeIsSkipped()
{
    TestSupport::FakeDevRoot dev(1);
    NodeWatcher watcher;
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression("cannot watch .*nvidia7 for opens"));
    watcher.setNodes({dev.node(0), dev.node(7)});
    QCOMPARE(watcher.watchedNodes(), QStringList{dev.node(0)});
}

void TestNodeWatcher::overflowIsReported()
{
    QFile limitFile(QStringLiteral("/proc/sys/fs/inotify/max_queued_events"));
    QVERIFY(limitFile.open(QIODevice::ReadOnly));
    const int limit = limitFile.readAll().trimmed().toInt();
    QVERIFY(limit > 0);
    if (limit > (1 << 20))
        QSKIP("max_queued_events is too large to fill in a test");
    TestSupport::FakeDevRoot dev(1);
    NodeWatcher watcher;
    Recorder recorder(watcher);
    watcher.setNodes({dev.node(0)});
    // Each open and close queues two events (alternating, so the kernel cannot merge them); the event loop
    // does not run meanwhile, so the queue overflows.
    openAndClose(dev.node(0), limit / 2 + 16);
    QTRY_VERIFY_WITH_TIMEOUT(recorder.overflow, 5000);
    QVERIFY(recorder.opens.value(dev.node(0)) <= limit);
    // Past the overflow the watch still works.
    const int opensBefore = recorder.opens.value(dev.node(0));
    openAndClose(dev.node(0));
    QTRY_COMPARE_WITH_TIMEOUT(recorder.opens.value(dev.node(0)), opensBefore + 1, 5000);
}

QTEST_GUILESS_MAIN(TestNodeWatcher)
#include "tst_nodewatcher.moc"
