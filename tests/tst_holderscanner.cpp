// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "holders/holderscanner.h"
#include "testsupport.h"
#include "config/useraccount.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QThread>
#include <QTest>

#include <sys/stat.h>
#include <unistd.h>

namespace {

QList<HolderScanner::Node> nodesOf(const TestSupport::FakeDevRoot &dev, int gpus)
{
    QList<HolderScanner::Node> nodes;
    for (int gpu = 0; gpu < gpus; ++gpu)
        nodes.append({dev.node(gpu), gpu});
    nodes.append({dev.ctl(), -1});
    nodes.append({dev.uvm(), -1, true});
    return nodes;
}

const Holder *findHolder(const QList<Holder> &holders, qint64 pid)
{
    for (const Holder &holder : holders) {
        if (holder.pid == pid)
            return &holder;
    }
    return nullptr;
}

} // namespace

class TestHolderScanner : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // A fake proc root
    void holdersAreFoundNewestFirst();
    void statFieldsAreReadAfterTheLastParenthesis_data();
    void statFieldsAreReadAfterTheLastParenthesis();
    void garbageStatStillReportsTheHolder();
    void uidComesFromStatusOrOwner();
    void ancestorChainIsCapped();
    void slurmJobIdsOnlyWhenAsked();
    void hugeCmdlineIsCut();
    void unreadableProcessesAreCounted();
    void unreadableByPermission();
    void vanishedProcessesAreSkipped();
    void otherEntriesAndBrokenLinksAreIgnored();
    void missingNodeOrProcRoot();
    void scanPidsReadsOnlyThosePids();
    void newestFirstAfterThePidsWrapped_data();
    void newestFirstAfterThePidsWrapped();
    void manyProcessesOnTwoThreads_data();
    void manyProcessesOnTwoThreads();
    void computeNodesAreNvidiaUvmAndKfd_data();
    void computeNodesAreNvidiaUvmAndKfd();
    // Real processes and the real /proc
    void realHolderIsFound();
    void computeNodeMakesACudaLikeJob();
    void twoGpusAndSharedNodes();
    void processHoldingNothingIsNotListed();
    void nodeReachedThroughASymlink();
    void realScanPids();
    void timingOfARealScan();
};

void TestHolderScanner::holdersAreFoundNewestFirst()
{
    TestSupport::FakeDevRoot dev(2);
    TestSupport::FakeProc proc;
    const QString unrelated = TestSupport::writeFile(dev.path() + "/unrelated", {});
    proc.add({1, 0, 1, 1, "init", QByteArray("/sbin/init\0splash\0", 18), "/sbin/init", {unrelated}});
    proc.add({100, 1, 100, 90, "python3", QByteArray("python3\0train.py\0", 17), "/usr/bin/python3.11",
              {"/dev/null", dev.node(0), dev.ctl(), dev.uvm()}});
    proc.add({150, 100, 100, 90, "sh", "sh", {}, {unrelated}});
    proc.add({200, 150, 200, 90, "worker", QByteArray("/opt/w/worker\0-x\0", 17), "/opt/w/worker",
              {dev.node(1), dev.node(1), dev.node(1)}});

    QList<qint64> reported;
    const HolderScanner::Result result = HolderScanner(proc.path()).scan(
        nodesOf(dev, 2), [&reported](const Holder &holder) { reported.append(holder.pid); });

    QCOMPARE(reported, (QList<qint64>{200, 100}));
    QCOMPARE(result.holders.size(), 2);
    QCOMPARE(result.scannedProcesses, 4);
    QCOMPARE(result.unreadableProcesses, 0);

    const Holder &worker = result.holders.at(0);
    QCOMPARE(worker.pid, qint64(200));
    QCOMPARE(worker.ppid, qint64(150));
    QCOMPARE(worker.pgid, qint64(200));
    QCOMPARE(worker.sid, qint64(90));
    QCOMPARE(worker.comm, QStringLiteral("worker"));
    QCOMPARE(worker.argv0, QStringLiteral("/opt/w/worker"));
    QCOMPARE(worker.exe, QStringLiteral("/opt/w/worker"));
    QCOMPARE(worker.ancestors, (QList<qint64>{150, 100}));
    QCOMPARE(worker.gpus, QList<int>{1});
    QVERIFY(!worker.holdsSharedNode);
    QVERIFY(!worker.holdsComputeNode);
    QVERIFY(!worker.hidden);
    QCOMPARE(worker.uid, uint(::geteuid())); // no status file: the owner of the pid folder
    QCOMPARE(worker.user, userName(::geteuid()));

    const Holder &python = result.holders.at(1);
    QCOMPARE(python.pid, qint64(100));
    QCOMPARE(python.comm, QStringLiteral("python3"));
    QCOMPARE(python.argv0, QStringLiteral("python3"));
    QCOMPARE(python.exe, QStringLiteral("/usr/bin/python3.11"));
    QCOMPARE(python.ancestors, QList<qint64>{});
    QCOMPARE(python.gpus, QList<int>{0});
    QVERIFY(python.holdsSharedNode);
    QVERIFY(python.holdsComputeNode);

    QCOMPARE(result.visibleFdsByNode.value(dev.node(0), -1), 1);
    QCOMPARE(result.visibleFdsByNode.value(dev.node(1), -1), 3);
    QCOMPARE(result.visibleFdsByNode.value(dev.ctl(), -1), 1);
    QCOMPARE(result.visibleFdsByNode.size(), 4);
}

void TestHolderScanner::statFieldsAreReadAfterTheLastParenthesis_data()
{
    QTest::addColumn<QByteArray>("comm");
    QTest::newRow("plain") << QByteArray("python3");
    QTest::newRow("spaces") << QByteArray("Web Content");
    QTest::newRow("parentheses") << QByteArray("a) b (c) 7 7");
    QTest::newRow("only a parenthesis") << QByteArray(")");
    QTest::newRow("empty") << QByteArray();
}

void TestHolderScanner::statFieldsAreReadAfterTheLastParenthesis()
{
    QFETCH(QByteArray, comm);
    TestSupport::FakeDevRoot dev(1);
    TestSupport::FakeProc proc;
    proc.add({4242, 4000, 4100, 4200, comm, "x", {}, {dev.node(0)}});
    const HolderScanner::Result result = HolderScanner(proc.path()).scan(nodesOf(dev, 1));
    QCOMPARE(result.holders.size(), 1);
    const Holder &holder = result.holders.first();
    QCOMPARE(holder.comm, QString::fromUtf8(comm));
    QCOMPARE(holder.ppid, qint64(4000));
    QCOMPARE(holder.pgid, qint64(4100));
    QCOMPARE(holder.sid, qint64(4200));
}

void TestHolderScanner::garbageStatStillReportsTheHolder()
{
    TestSupport::FakeDevRoot dev(1);
    TestSupport::FakeProc proc;
    proc.add({300, 1, 300, 300, "job", "job", {}, {dev.node(0)}});
    TestSupport::writeFile(proc.pidDir(300) + "/stat", QByteArray("\x01\xff garbage without fields\n"));
    QTest::ignoreMessage(QtWarningMsg, QRegularExpression("cannot parse .*/300/stat"));
    const HolderScanner::Result result = HolderScanner(proc.path()).scan(nodesOf(dev, 1));
    QCOMPARE(result.holders.size(), 1);
    QCOMPARE(result.holders.first().pid, qint64(300));
    QCOMPARE(result.holders.first().comm, QStringLiteral("job"));
    QCOMPARE(result.holders.first().gpus, QList<int>{0});
}

void TestHolderScanner::uidComesFromStatusOrOwner()
{
    TestSupport::FakeDevRoot dev(1);
    TestSupport::FakeProc proc;
    TestSupport::FakeProc::Process other{10, 1, 10, 10, "theirs", "theirs", {}, {dev.node(0)}};
    other.uid = 4242;
    proc.add(other);
    proc.add({11, 1, 11, 11, "mine", "mine", {}, {dev.node(0)}});
    TestSupport::writeFile(proc.pidDir(11) + "/status", "Name:\tmine\nUid:\tnot a number\n");
    const HolderScanner::Result result = HolderScanner(proc.path()).scan(nodesOf(dev, 1));
    QCOMPARE(result.holders.size(), 2);
    QCOMPARE(result.holders.at(1).uid, 4242u);
    QCOMPARE(result.holders.at(1).user, QStringLiteral("4242"));
    QCOMPARE(result.holders.at(0).uid, uint(::geteuid()));
}

// Slurm mode: a holder with SLURM_JOB_ID in its environment is that job's, one under slurmstepd a job's (-1). Read
// only when asked: it costs a file per holder on the preemption path.
void TestHolderScanner::slurmJobIdsOnlyWhenAsked()
{
    TestSupport::FakeDevRoot dev(1);
    TestSupport::FakeProc proc;
    proc.add({30, 1, 30, 30, "python3", "python3", {}, {dev.node(0)}});
    TestSupport::writeFile(proc.pidDir(30) + "/environ", QByteArray("PATH=/bin") + '\0' + "SLURM_JOB_ID=1234" + '\0' + "HOME=/");
    proc.add({31, 1, 31, 31, "slurmstepd", "slurmstepd", {}, {}});
    proc.add({32, 31, 31, 31, "train", "train", {}, {dev.node(0)}});
    proc.add({33, 1, 33, 33, "mine", "mine", {}, {dev.node(0)}});

    const HolderScanner scanner(proc.path());
    const HolderScanner::Result asked = scanner.scan(nodesOf(dev, 1), {}, true);
    QCOMPARE(asked.holders.size(), 3);
    QCOMPARE(findHolder(asked.holders, 30)->slurmJobId, 1234);
    QCOMPARE(findHolder(asked.holders, 32)->slurmJobId, -1);
    QCOMPARE(findHolder(asked.holders, 33)->slurmJobId, 0);

    const HolderScanner::Result notAsked = scanner.scan(nodesOf(dev, 1));
    QCOMPARE(notAsked.holders.size(), 3);
    for (const Holder &holder : notAsked.holders)
        QCOMPARE(holder.slurmJobId, 0);
}

void TestHolderScanner::ancestorChainIsCapped()
{
    TestSupport::FakeDevRoot dev(1);
    TestSupport::FakeProc proc;
    // Two processes that name each other as parent: a damaged proc root must not loop forever.
    proc.add({500, 501, 500, 500, "a", "a", {}, {dev.node(0)}});
    proc.add({501, 500, 500, 500, "b", "b", {}, {}});
    const HolderScanner::Result result = HolderScanner(proc.path()).scan(nodesOf(dev, 1));
    QCOMPARE(result.holders.size(), 1);
    QCOMPARE(result.holders.first().ancestors.size(), 64);
    QCOMPARE(result.holders.first().ancestors.mid(0, 3), (QList<qint64>{501, 500, 501}));

    // A parent that is gone ends the chain after it.
    proc.add({600, 599, 600, 600, "orphaned", "o", {}, {dev.node(0)}});
    const Holder *orphan = findHolder(HolderScanner(proc.path()).scan(nodesOf(dev, 1)).holders, 600);
    QVERIFY(orphan);
    QCOMPARE(orphan->ancestors, QList<qint64>{599});
}

void TestHolderScanner::hugeCmdlineIsCut()
{
    TestSupport::FakeDevRoot dev(1);
    TestSupport::FakeProc proc;
    proc.add({700, 1, 700, 700, "big", QByteArray(200'000, 'a'), {}, {dev.node(0)}});
    proc.add({701, 1, 701, 701, "binary", QByteArray("\xff\xfe\x01zz\0second\0", 12), {}, {dev.node(0)}});
    const HolderScanner::Result result = HolderScanner(proc.path()).scan(nodesOf(dev, 1));
    QCOMPARE(result.holders.size(), 2);
    QCOMPARE(result.holders.at(1).argv0.size(), 64 * 1024);
    QVERIFY(!result.holders.at(0).argv0.isEmpty());
    QVERIFY(!result.holders.at(0).argv0.contains(QStringLiteral("second")));
}

void TestHolderScanner::unreadableProcessesAreCounted()
{
    // Root reads every fd folder whatever its mode, so an unreadable process is simulated by an fd entry that
    // is not a folder: any failure but "gone" leaves a process unseen and must be counted.
    TestSupport::FakeDevRoot dev(1);
    TestSupport::FakeProc proc;
    proc.add({800, 1, 800, 800, "visible", "v", {}, {dev.node(0)}});
    QDir().mkpath(proc.pidDir(801));
    TestSupport::writeFile(proc.pidDir(801) + "/fd", "not a folder");
    const HolderScanner::Result result = HolderScanner(proc.path()).scan(nodesOf(dev, 1));
    QCOMPARE(result.unreadableProcesses, 1);
    QCOMPARE(result.scannedProcesses, 1);
    QCOMPARE(result.holders.size(), 1);
}

void TestHolderScanner::unreadableByPermission()
{
    if (::geteuid() == 0)
        QSKIP("root reads fd folders of mode 000; unreadableProcessesAreCounted covers the counting");
    TestSupport::FakeDevRoot dev(1);
    TestSupport::FakeProc proc;
    QTemporaryDir locked;
    const QString lockedNode = TestSupport::writeFile(locked.filePath("node"), {});
    proc.add({900, 1, 900, 900, "closedfolder", "c", {}, {dev.node(0)}});
    proc.add({901, 1, 901, 901, "deniedlinks", "d", {}, {lockedNode, dev.node(0)}});
    proc.add({902, 1, 902, 902, "visible", "v", {}, {dev.node(0)}});
    QVERIFY(QFile::setPermissions(proc.pidDir(900) + "/fd", {}));
    QVERIFY(QFile::setPermissions(locked.path(), {}));
    const HolderScanner::Result result = HolderScanner(proc.path()).scan(nodesOf(dev, 1));
    QFile::setPermissions(proc.pidDir(900) + "/fd", QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QFile::setPermissions(locked.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QCOMPARE(result.unreadableProcesses, 2);
    QCOMPARE(result.scannedProcesses, 1);
    QCOMPARE(result.holders.size(), 1);
    QCOMPARE(result.holders.first().pid, qint64(902));
    QCOMPARE(result.visibleFdsByNode.value(dev.node(0), -1), 1);
}

void TestHolderScanner::vanishedProcessesAreSkipped()
{
    TestSupport::FakeDevRoot dev(1);
    TestSupport::FakeProc proc;
    QDir().mkpath(proc.pidDir(1000)); // listed, but gone before its fds were read
    proc.add({1001, 1, 1001, 1001, "ending", "e", {}, {dev.node(0)}});
    QFile::remove(proc.pidDir(1001) + "/comm"); // gone while its details were read
    QFile::remove(proc.pidDir(1001) + "/stat");
    proc.add({1002, 1, 1002, 1002, "stays", "s", {}, {dev.node(0)}});
    const HolderScanner::Result result = HolderScanner(proc.path()).scan(nodesOf(dev, 1));
    QCOMPARE(result.unreadableProcesses, 0);
    QCOMPARE(result.holders.size(), 1);
    QCOMPARE(result.holders.first().pid, qint64(1002));
    QCOMPARE(result.visibleFdsByNode.value(dev.node(0)), 1);
}

void TestHolderScanner::otherEntriesAndBrokenLinksAreIgnored()
{
    TestSupport::FakeDevRoot dev(1);
    TestSupport::FakeProc proc;
    for (const char *name : {"self", "sys", "12a", "0", "-5", "net"})
        QDir().mkpath(proc.path() + '/' + name + "/fd");
    QFile::link(dev.node(0), proc.path() + "/12a/fd/3");
    QFile::link(dev.node(0), proc.path() + "/0/fd/3");
    proc.add({1100, 1, 1100, 1100, "dangling", "d", {}, {dev.path() + "/deleted-long-ago", "socket:[1234]"}});
    const HolderScanner::Result result = HolderScanner(proc.path()).scan(nodesOf(dev, 1));
    QCOMPARE(result.holders.size(), 0);
    QCOMPARE(result.scannedProcesses, 1);
}

void TestHolderScanner::missingNodeOrProcRoot()
{
    TestSupport::FakeDevRoot dev(1);
    TestSupport::FakeProc proc;
    proc.add({1200, 1, 1200, 1200, "job", "job", {}, {dev.node(0)}});
    QList<HolderScanner::Node> nodes = nodesOf(dev, 1);
    nodes.append({dev.node(5), 5}); // not there: skipped, the others still count
    HolderScanner::Result result = HolderScanner(proc.path()).scan(nodes);
    QCOMPARE(result.holders.size(), 1);
    QVERIFY(!result.visibleFdsByNode.contains(dev.node(5)));

    QTest::ignoreMessage(QtWarningMsg, QRegularExpression("cannot open the process folder"));
    result = HolderScanner(proc.path() + "/absent").scan(nodes);
    QCOMPARE(result.holders.size(), 0);
    QCOMPARE(result.scannedProcesses, 0);

    QCOMPARE(HolderScanner(proc.path()).scan({}).scannedProcesses, 0);
}

void TestHolderScanner::scanPidsReadsOnlyThosePids()
{
    TestSupport::FakeDevRoot dev(2);
    TestSupport::FakeProc proc;
    proc.add({20, 1, 20, 20, "a", "a", {}, {dev.node(0)}});
    proc.add({21, 1, 21, 21, "b", "b", {}, {dev.node(1)}});
    proc.add({22, 1, 22, 22, "c", "c", {}, {dev.node(1)}});
    const HolderScanner scanner(proc.path());
    const HolderScanner::Result result = scanner.scanPids({20, 22, 20, 99999, -3, 0}, nodesOf(dev, 2));
    QCOMPARE(result.holders.size(), 2);
    QCOMPARE(result.holders.at(0).pid, qint64(22));
    QCOMPARE(result.holders.at(1).pid, qint64(20));
    QCOMPARE(result.scannedProcesses, 2);
    QCOMPARE(result.visibleFdsByNode.value(dev.node(1)), 1);
}

void TestHolderScanner::newestFirstAfterThePidsWrapped_data()
{
    QTest::addColumn<QByteArray>("lastPid"); // the text of sys/kernel/ns_last_pid; empty: no such file
    QTest::addColumn<QList<qint64>>("order");
    QTest::newRow("no ns_last_pid: highest first") << QByteArray() << QList<qint64>{3000, 2000, 400, 300};
    QTest::newRow("not wrapped") << QByteArray("3005\n") << QList<qint64>{3000, 2000, 400, 300};
    QTest::newRow("wrapped: below the last pid first") << QByteArray("450\n") << QList<qint64>{400, 300, 3000, 2000};
    QTest::newRow("the last pid itself is the newest") << QByteArray("2000") << QList<qint64>{2000, 400, 300, 3000};
    QTest::newRow("garbage: highest first") << QByteArray("12x\n") << QList<qint64>{3000, 2000, 400, 300};
    QTest::newRow("negative: highest first") << QByteArray("-5\n") << QList<qint64>{3000, 2000, 400, 300};
}

void TestHolderScanner::newestFirstAfterThePidsWrapped()
{
    // pids wrap around at pid_max: the opener of a node, the newest process, may have the lowest pid.
    QFETCH(QByteArray, lastPid);
    QFETCH(QList<qint64>, order);
    TestSupport::FakeDevRoot dev(1);
    TestSupport::FakeProc proc;
    for (const qint64 pid : {300, 400, 2000, 3000})
        proc.add({pid, 1, pid, pid, "p", "p", {}, {dev.node(0)}});
    if (!lastPid.isNull()) {
        QDir().mkpath(proc.path() + "/sys/kernel");
        TestSupport::writeFile(proc.path() + "/sys/kernel/ns_last_pid", lastPid);
    }
    QList<qint64> reported;
    const HolderScanner scanner(proc.path());
    const HolderScanner::Result result
        = scanner.scan(nodesOf(dev, 1), [&reported](const Holder &holder) { reported.append(holder.pid); });
    QCOMPARE(reported, order);
    QList<qint64> listed;
    for (const Holder &holder : result.holders)
        listed.append(holder.pid);
    QCOMPARE(listed, order);
    listed.clear();
    for (const Holder &holder : scanner.scanPids({300, 3000, 400, 2000}, nodesOf(dev, 1)).holders)
        listed.append(holder.pid);
    QCOMPARE(listed, order);
}

void TestHolderScanner::manyProcessesOnTwoThreads_data()
{
    QTest::addColumn<int>("processes");
    QTest::addColumn<int>("holderEvery"); // every Nth process holds a node
    QTest::newRow("below the two-thread size") << 200 << 37;
    QTest::newRow("two threads, few holders") << 700 << 97;
    QTest::newRow("two threads, many holders") << 700 << 3;
}

void TestHolderScanner::manyProcessesOnTwoThreads()
{
    // Past a few hundred processes the fd folders are read on two threads: every holder must still be found
    // once, reported on the calling thread, newest first, with exact counts.
    QFETCH(int, processes);
    QFETCH(int, holderEvery);
    TestSupport::FakeDevRoot dev(2);
    TestSupport::FakeProc proc;
    const QString unrelated = TestSupport::writeFile(dev.path() + "/unrelated", {});
    QList<qint64> expectedHolders;
    int expectedFds0 = 0;
    for (int i = 0; i < processes; ++i) {
        const qint64 pid = 3000 + i;
        QStringList fds{unrelated, unrelated};
        if (i % holderEvery == 0) {
            fds.append(dev.node(i % 2));
            expectedHolders.prepend(pid);
            expectedFds0 += i % 2 == 0;
        }
        proc.add({pid, 1, pid, pid, "p", "p", {}, fds});
    }
    QDir().mkpath(proc.pidDir(2999)); // gone before its fds were read
    QDir().mkpath(proc.pidDir(2998));
    TestSupport::writeFile(proc.pidDir(2998) + "/fd", "not a folder"); // unreadable
    QList<qint64> reported;
    const Qt::HANDLE caller = QThread::currentThreadId();
    bool allOnCaller = true;
    const HolderScanner::Result result = HolderScanner(proc.path()).scan(nodesOf(dev, 2), [&](const Holder &holder) {
        reported.append(holder.pid);
        allOnCaller = allOnCaller && QThread::currentThreadId() == caller;
    });
    QVERIFY(allOnCaller);
    QList<qint64> found;
    for (const Holder &holder : result.holders)
        found.append(holder.pid);
    QCOMPARE(found, expectedHolders);
    std::sort(reported.begin(), reported.end(), std::greater<qint64>());
    QCOMPARE(reported, expectedHolders);
    QCOMPARE(result.scannedProcesses, processes);
    QCOMPARE(result.unreadableProcesses, 1);
    QCOMPARE(result.visibleFdsByNode.value(dev.node(0)), expectedFds0);
    QCOMPARE(result.visibleFdsByNode.value(dev.node(1)), int(expectedHolders.size()) - expectedFds0);
    QCOMPARE(findHolder(result.holders, 3000)->gpus, QList<int>{0});
}

void TestHolderScanner::realHolderIsFound()
{
    TestSupport::FakeDevRoot dev(1);
    TestSupport::NodeHolder job(dev.computeJob(0));
    QVERIFY(job.waitUntilOpen());
    QList<Holder> reported;
    const HolderScanner::Result result
        = HolderScanner().scan(nodesOf(dev, 1), [&reported](const Holder &holder) { reported.append(holder); });
    QCOMPARE(result.holders.size(), 1);
    QCOMPARE(reported, result.holders);
    const Holder &holder = result.holders.first();
    QCOMPARE(holder.pid, job.pid());
    QCOMPARE(holder.comm, QStringLiteral("python3"));
    QVERIFY2(holder.argv0.endsWith(QStringLiteral("/python3")), qPrintable(holder.argv0));
    QCOMPARE(QFileInfo(holder.exe).fileName(), QStringLiteral("test_holdopen")); // the link's target runs
    QCOMPARE(holder.uid, uint(::getuid()));
    QCOMPARE(holder.user, userName(::getuid()));
    QCOMPARE(holder.ppid, QCoreApplication::applicationPid());
    QCOMPARE(holder.ancestors.value(0), QCoreApplication::applicationPid());
    QVERIFY(!holder.ancestors.contains(1));
    QCOMPARE(holder.ancestors.value(1), qint64(::getppid()));
    QCOMPARE(holder.sid, qint64(::getsid(0)));
    QCOMPARE(holder.gpus, QList<int>{0});
    QVERIFY(holder.holdsSharedNode);
    QVERIFY(holder.holdsComputeNode);
    QVERIFY(result.scannedProcesses > 1);
    QCOMPARE(result.visibleFdsByNode.value(dev.node(0)), 1);
    QCOMPARE(result.visibleFdsByNode.value(dev.ctl()), 1);
}

void TestHolderScanner::computeNodesAreNvidiaUvmAndKfd_data()
{
    QTest::addColumn<QStringList>("sharedNodes");
    QTest::addColumn<QStringList>("computeNodes");
    QTest::newRow("NVIDIA") << QStringList{"/dev/nvidiactl", "/dev/nvidia-uvm", "/dev/nvidia-uvm-tools",
                                           "/dev/nvidia-modeset"}
                            << QStringList{"/dev/nvidia-uvm"};
    QTest::newRow("ROCm") << QStringList{"/dev/kfd"} << QStringList{"/dev/kfd"};
    QTest::newRow("a device root elsewhere") << QStringList{"/tmp/x/nvidiactl", "/tmp/x/nvidia-uvm"}
                                             << QStringList{"/tmp/x/nvidia-uvm"};
    QTest::newRow("lookalikes") << QStringList{"/dev/nvidia-uvm2", "/dev/kfd-x", "/dev/nvidia-uvm/x"} << QStringList{};
}

void TestHolderScanner::computeNodesAreNvidiaUvmAndKfd()
{
    QFETCH(QStringList, sharedNodes);
    QFETCH(QStringList, computeNodes);
    DeviceNodes devices;
    devices.sharedNodes = sharedNodes;
    devices.gpus.append(GpuDevice{0, "/dev/nvidia0"});
    QStringList marked;
    for (const HolderScanner::Node &node : HolderScanner::nodesOf(devices)) {
        QCOMPARE(HolderScanner::isComputeNode(node.path), node.compute);
        if (node.compute)
            marked.append(node.path);
        if (node.path == "/dev/nvidia0")
            QVERIFY(!node.compute);
    }
    QCOMPARE(marked, computeNodes);
}

void TestHolderScanner::computeNodeMakesACudaLikeJob()
{
    // holdsComputeNode is what busy_when = auto tells a CUDA job by: it holds nvidia-uvm; nvidiactl is every
    // NVIDIA client's, an OpenGL program's too, and names no GPU.
    TestSupport::FakeDevRoot dev(2);
    TestSupport::NodeHolder cuda(dev.computeJob(1));
    TestSupport::NodeHolder graphics(dev.graphicsClient(0), QStringLiteral("firefox"));
    TestSupport::NodeHolder uvmOnly({dev.uvm()}, QStringLiteral("nvidia-smi"));
    QVERIFY(cuda.waitUntilOpen());
    QVERIFY(graphics.waitUntilOpen());
    QVERIFY(uvmOnly.waitUntilOpen());
    DeviceNodes devices;
    devices.sharedNodes = {dev.ctl(), dev.uvm()};
    devices.gpus = {GpuDevice{0, dev.node(0)}, GpuDevice{1, dev.node(1)}};
    const HolderScanner::Result result = HolderScanner().scan(HolderScanner::nodesOf(devices));
    QCOMPARE(result.holders.size(), 3);

    const Holder *job = findHolder(result.holders, cuda.pid());
    QVERIFY(job);
    QCOMPARE(job->gpus, QList<int>{1}); // the shared nodes name no GPU
    QVERIFY(job->holdsSharedNode);
    QVERIFY(job->holdsComputeNode);

    const Holder *browser = findHolder(result.holders, graphics.pid());
    QVERIFY(browser);
    QCOMPARE(browser->gpus, QList<int>{0});
    QVERIFY(browser->holdsSharedNode);
    QVERIFY(!browser->holdsComputeNode);

    const Holder *smi = findHolder(result.holders, uvmOnly.pid());
    QVERIFY(smi);
    QCOMPARE(smi->gpus, QList<int>{});
    QVERIFY(smi->holdsComputeNode);
    QCOMPARE(result.visibleFdsByNode.value(dev.uvm()), 2);
    QCOMPARE(result.visibleFdsByNode.value(dev.ctl()), 2);
}

void TestHolderScanner::twoGpusAndSharedNodes()
{
    TestSupport::FakeDevRoot dev(3);
    TestSupport::NodeHolder both({dev.node(0), dev.node(2)});
    TestSupport::NodeHolder sharedOnly({dev.ctl()}, QStringLiteral("nvidia-smi"));
    QVERIFY(both.waitUntilOpen());
    QVERIFY(sharedOnly.waitUntilOpen());
    const HolderScanner::Result result = HolderScanner().scan(nodesOf(dev, 3));
    QCOMPARE(result.holders.size(), 2);
    const Holder *twoGpus = findHolder(result.holders, both.pid());
    QVERIFY(twoGpus);
    QCOMPARE(twoGpus->gpus, (QList<int>{0, 2}));
    QVERIFY(!twoGpus->holdsSharedNode);
    const Holder *smi = findHolder(result.holders, sharedOnly.pid());
    QVERIFY(smi);
    QCOMPARE(smi->comm, QStringLiteral("nvidia-smi"));
    QCOMPARE(smi->gpus, QList<int>{});
    QVERIFY(smi->holdsSharedNode);
}

void TestHolderScanner::processHoldingNothingIsNotListed()
{
    TestSupport::FakeDevRoot dev(1);
    const QString other = TestSupport::writeFile(dev.path() + "/notes.txt", "x");
    TestSupport::NodeHolder bystander({other});
    QVERIFY(bystander.waitUntilOpen());
    const HolderScanner::Result result = HolderScanner().scan(nodesOf(dev, 1));
    QVERIFY(!findHolder(result.holders, bystander.pid()));
    QCOMPARE(result.holders.size(), 0);
    QCOMPARE(result.visibleFdsByNode.value(dev.node(0), -1), 0);
}

void TestHolderScanner::nodeReachedThroughASymlink()
{
    TestSupport::FakeDevRoot dev(2);
    QTemporaryDir links;
    const QString byLink = links.filePath("by-path-gpu0");
    QVERIFY(QFile::link(dev.node(0), byLink));
    const QString nodeLink = links.filePath("gpu1");
    QVERIFY(QFile::link(dev.node(1), nodeLink));

    TestSupport::NodeHolder viaLink({byLink});      // opens a link; its fd names the real node
    TestSupport::NodeHolder direct({dev.node(1)}); // the scanner is given a link to the node
    QVERIFY(viaLink.waitUntilOpen());
    QVERIFY(direct.waitUntilOpen());
    const HolderScanner::Result result = HolderScanner().scan({{dev.node(0), 0}, {nodeLink, 1}});
    QCOMPARE(result.holders.size(), 2);
    QCOMPARE(findHolder(result.holders, viaLink.pid())->gpus, QList<int>{0});
    QCOMPARE(findHolder(result.holders, direct.pid())->gpus, QList<int>{1});
    QCOMPARE(result.visibleFdsByNode.value(nodeLink), 1);
}

void TestHolderScanner::realScanPids()
{
    TestSupport::FakeDevRoot dev(1);
    TestSupport::NodeHolder job({dev.node(0)});
    TestSupport::NodeHolder bystander({dev.uvm()});
    QVERIFY(job.waitUntilOpen());
    QVERIFY(bystander.waitUntilOpen());
    const HolderScanner scanner;
    HolderScanner::Result result = scanner.scanPids({job.pid()}, {{dev.node(0), 0}});
    QCOMPARE(result.holders.size(), 1);
    QCOMPARE(result.holders.first().pid, job.pid());
    result = scanner.scanPids({bystander.pid(), QCoreApplication::applicationPid()}, {{dev.node(0), 0}});
    QCOMPARE(result.holders.size(), 0);
    QCOMPARE(result.scannedProcesses, 2);

    job.kill();
    result = scanner.scanPids({job.pid()}, {{dev.node(0), 0}});
    QCOMPARE(result.holders.size(), 0);
}

void TestHolderScanner::timingOfARealScan()
{
    // A figure for the record, not an assertion: the scan replaces `fuser -v` and must stay far below it.
    TestSupport::FakeDevRoot dev(2);
    const QList<HolderScanner::Node> nodes = nodesOf(dev, 2);
    const HolderScanner scanner;
    scanner.scan(nodes); // warm the dentry cache as a repeated scan finds it
    QElapsedTimer timer;
    timer.start();
    constexpr int kRounds = 20;
    HolderScanner::Result result;
    for (int round = 0; round < kRounds; ++round)
        result = scanner.scan(nodes);
    qInfo("scan of /proc: %d processes (%d unreadable) in %.3f ms", result.scannedProcesses,
          result.unreadableProcesses, double(timer.nsecsElapsed()) / 1e6 / kRounds);
    QVERIFY(result.scannedProcesses > 0);
}

QTEST_GUILESS_MAIN(TestHolderScanner)
#include "tst_holderscanner.moc"
