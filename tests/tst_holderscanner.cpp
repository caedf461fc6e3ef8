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
#include <QProcess>
#include <QRegularExpression>
#include <QScopeGuard>
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

QString commOf(qint64 pid)
{
    QFile comm(QStringLiteral("/proc/%1/comm").arg(pid));
    return comm.open(QIODevice::ReadOnly) ? QString::fromUtf8(comm.readAll()).trimmed() : QString();
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
    void slurmStepJobIdFromTheStepdTitle();
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
    void nodeInAnotherMountNamespace_data();
    void nodeInAnotherMountNamespace();
    // Real processes and the real /proc
    void realHolderIsFound();
    void computeNodeMakesACudaLikeJob();
    void twoGpusAndSharedNodes();
    void processHoldingNothingIsNotListed();
    void nodeReachedThroughASymlink();
    void nodeBoundElsewhereInItsOwnNamespace_data();
    void nodeBoundElsewhereInItsOwnNamespace();
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
    proc.add({31, 1, 31, 31, "slurmstepd", "slurmstepd", {}, {}, 0});
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

// The job that slurmstepd runs, from its title: a job's user can put any SLURM_JOB_ID in their environment, not in
// root's slurmstepd. A title of another form names no job, nor does a process of a user's named slurmstepd.
void TestHolderScanner::slurmStepJobIdFromTheStepdTitle()
{
    TestSupport::FakeDevRoot dev(1);
    TestSupport::FakeProc proc;
    proc.add({40, 1, 40, 40, "slurmstepd", QByteArray("slurmstepd: [7.batch]") + '\0', {}, {}, 0});
    proc.add({41, 40, 41, 41, "bash", "bash", {}, {}});
    proc.add({42, 41, 41, 41, "python3", "python3", {}, {dev.node(0)}});
    TestSupport::writeFile(proc.pidDir(42) + "/environ", QByteArray("SLURM_JOB_ID=99") + '\0');
    proc.add({43, 40, 43, 43, "train", "train", {}, {dev.node(0)}});
    proc.add({50, 1, 50, 50, "slurmstepd", QByteArray("slurmstepd: [x]") + '\0', {}, {}, 0});
    proc.add({51, 50, 51, 51, "train", "train", {}, {dev.node(0)}});
    // A user's process named slurmstepd, titled as one, above a holder: it names no job, or a user could have root
    // requeue anybody's job in the lab.
    proc.add({60, 1, 60, 60, "slurmstepd", QByteArray("slurmstepd: [9.batch]") + '\0', {}, {}, 1000});
    proc.add({61, 60, 61, 61, "python3", "python3", {}, {dev.node(0)}, 1000});

    const HolderScanner::Result result = HolderScanner(proc.path()).scan(nodesOf(dev, 1), {}, true);
    QCOMPARE(result.holders.size(), 4);
    QCOMPARE(findHolder(result.holders, 61)->slurmStepJobId, 0);
    QCOMPARE(findHolder(result.holders, 61)->slurmJobId, 0);
    QCOMPARE(findHolder(result.holders, 42)->slurmStepJobId, 7); // two levels up
    QCOMPARE(findHolder(result.holders, 42)->slurmJobId, 99);    // what its environment says, for the policy's text
    QCOMPARE(findHolder(result.holders, 43)->slurmStepJobId, 7);
    QCOMPARE(findHolder(result.holders, 43)->slurmJobId, 7);
    QCOMPARE(findHolder(result.holders, 51)->slurmStepJobId, 0);
    QCOMPARE(findHolder(result.holders, 51)->slurmJobId, -1);
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
    proc.add({901, 1, 901, 901, "lockedfile", "d", {}, {lockedNode, dev.node(0)}});
    proc.add({902, 1, 902, 902, "visible", "v", {}, {dev.node(0)}});
    QVERIFY(QFile::setPermissions(proc.pidDir(900) + "/fd", {}));
    QVERIFY(QFile::setPermissions(locked.path(), {}));
    const HolderScanner::Result result = HolderScanner(proc.path()).scan(nodesOf(dev, 1));
    QFile::setPermissions(proc.pidDir(900) + "/fd", QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QFile::setPermissions(locked.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    QCOMPARE(result.unreadableProcesses, 1);
    QCOMPARE(result.refusedProcesses, 1);
    QCOMPARE(result.scannedProcesses, 2);
    // A file this scan may not look at is no node, and hides nothing: the process's fd on the node counts.
    QCOMPARE(result.holders.size(), 2);
    QCOMPARE(result.holders.at(0).pid, qint64(902));
    QCOMPARE(result.holders.at(1).pid, qint64(901));
    QCOMPARE(result.visibleFdsByNode.value(dev.node(0), -1), 2);
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

// The file system a path lies on as mountinfo names it: "major:minor", the folder of it mounted there, the mount point.
struct MountOfPath
{
    QString device;
    QString fsRoot;
    QString target;
};

MountOfPath mountOfPath(const QString &path)
{
    QProcess findmnt;
    findmnt.start(QStringLiteral("findmnt"), {"-n", "-o", "MAJ:MIN,FSROOT,TARGET", "--target", path});
    if (!findmnt.waitForFinished(10000) || findmnt.exitCode() != 0)
        return {};
    const QStringList fields = QString::fromUtf8(findmnt.readAll()).simplified().split(QLatin1Char(' '));
    return fields.size() == 3 ? MountOfPath{fields.at(0), fields.at(1), fields.at(2)} : MountOfPath{};
}

// `path` inside its file system: "/tmp/x/nvidia0" on a root file system, "/x/nvidia0" on a tmpfs at /tmp.
QString pathInFileSystem(const QString &path, const MountOfPath &mount)
{
    const QString rest = mount.target == QLatin1String("/") ? path : path.mid(mount.target.size());
    return mount.fsRoot == QLatin1String("/") ? rest : mount.fsRoot + rest;
}

void TestHolderScanner::nodeInAnotherMountNamespace_data()
{
    // A fake process in a mount namespace of its own ("mnt:[1]"): its mount table and one fd, the link's text and its
    // fdinfo. %NODEDEV%, %NODEDIR%, %NODE% and %INODE% stand for the node's file system, its folder and
    // path inside that file system, and its inode.
    QTest::addColumn<QByteArray>("mountInfo"); // empty: none
    QTest::addColumn<QString>("fd");
    QTest::addColumn<QByteArray>("fdInfo"); // empty: none
    QTest::addColumn<bool>("holds");
    const QByteArray fs = "rw,relatime - ext4 /dev/vda rw\n";
    const QByteArray table = "21 1 0:99 / / " + fs + "30 21 %NODEDEV% %NODEDIR% /dev " + fs
                             + "31 21 %NODEDEV% %NODE% /gpus/first " + fs + "32 21 %NODEDEV% %NODEDIR% /my\\040dev " + fs
                             + "33 21 0:98 / /other " + fs;
    QTest::newRow("its /dev is the node's folder bound") << table << "/dev/nvidia0"
                                                          << QByteArray("mnt_id:\t30\nino:\t%INODE%\n") << true;
    QTest::newRow("the node itself bound") << table << "/gpus/first"
                                           << QByteArray("pos:\t0\nflags:\t02\nmnt_id:\t31\nino:\t%INODE%\n") << true;
    QTest::newRow("a mount point with a space") << table << "/my dev/nvidia0"
                                                << QByteArray("mnt_id:\t32\nino:\t%INODE%\n") << true;
    QTest::newRow("its root a folder there (a chroot)") << table << "/srv/box/dev/nvidia0"
                                                        << QByteArray("mnt_id:\t30\nino:\t%INODE%\n") << true;
    QTest::newRow("no fdinfo: the text decides") << table << "/dev/nvidia0" << QByteArray() << true;
    QTest::newRow("a mount made since: the inode decides") << table << "/dev/nvidia0"
                                                          << QByteArray("mnt_id:\t99\nino:\t%INODE%\n") << true;
    QTest::newRow("a file of that name on another mount") << table << "/dev/nvidia0"
                                                          << QByteArray("mnt_id:\t33\nino:\t%INODE%\n") << false;
    QTest::newRow("another inode") << table << "/dev/nvidia0" << QByteArray("mnt_id:\t30\nino:\t1\n") << false;
    QTest::newRow("a path to no node there") << table << "/other/nvidia0"
                                             << QByteArray("mnt_id:\t33\nino:\t%INODE%\n") << false;
    QTest::newRow("a path to the node here only") << table << "/gpus/second"
                                                  << QByteArray("mnt_id:\t31\nino:\t%INODE%\n") << false;
    QTest::newRow("no mount table: fdinfo decides") << QByteArray() << "/anywhere/gpu"
                                                    << QByteArray("mnt_id:\t77\nino:\t%INODE%\n") << true;
    QTest::newRow("no mount table, another inode") << QByteArray() << "/anywhere/gpu"
                                                   << QByteArray("mnt_id:\t77\nino:\t1\n") << false;
}

void TestHolderScanner::nodeInAnotherMountNamespace()
{
    QFETCH(QByteArray, mountInfo);
    QFETCH(QString, fd);
    QFETCH(QByteArray, fdInfo);
    QFETCH(bool, holds);
    TestSupport::FakeDevRoot dev(1);
    const QString node = QFileInfo(dev.node(0)).canonicalFilePath();
    const MountOfPath mount = mountOfPath(node);
    if (mount.device.isEmpty())
        QSKIP("findmnt cannot say where the fake node lies");
    struct stat info;
    QVERIFY(::stat(QFile::encodeName(node).constData(), &info) == 0);
    const auto fill = [&](QByteArray text) {
        return text.replace("%NODEDEV%", mount.device.toUtf8())
            .replace("%NODEDIR%", pathInFileSystem(QFileInfo(node).path(), mount).toUtf8())
            .replace("%NODE%", pathInFileSystem(node, mount).toUtf8())
            .replace("%INODE%", QByteArray::number(qulonglong(info.st_ino)));
    };
    TestSupport::FakeProc proc;
    proc.add({1300, 1, 1300, 1300, "boxed", "boxed", {}, {fd}});
    QVERIFY(QDir().mkpath(proc.pidDir(1300) + "/ns"));
    QVERIFY(QFile::link(QStringLiteral("mnt:[1]"), proc.pidDir(1300) + "/ns/mnt"));
    if (!mountInfo.isEmpty())
        TestSupport::writeFile(proc.pidDir(1300) + "/mountinfo", fill(mountInfo));
    if (!fdInfo.isEmpty())
        TestSupport::writeFile(proc.pidDir(1300) + "/fdinfo/0", fill(fdInfo));

    const HolderScanner::Result result = HolderScanner(proc.path()).scan(nodesOf(dev, 1));
    QCOMPARE(result.scannedProcesses, 1);
    QCOMPARE(result.holders.size(), holds ? 1 : 0);
    QCOMPARE(result.visibleFdsByNode.value(dev.node(0), -1), holds ? 1 : 0);
    if (holds)
        QCOMPARE(result.holders.first().gpus, QList<int>{0});
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

void TestHolderScanner::nodeBoundElsewhereInItsOwnNamespace_data()
{
    // As a container runtime gives a job its GPU: the job in a mount namespace of its own, where the node is bound at
    // another path (the device folder, or the node itself); or there a file mounted over the device folder under the
    // node's name, which is no node.
    QTest::addColumn<QString>("script"); // %DEV% the device folder, %BOX% an empty folder, then `exec` the holder
    QTest::addColumn<QString>("opens");
    QTest::addColumn<bool>("holds");
    QTest::newRow("the device folder bound") << "mount --bind %DEV% %BOX%" << "%BOX%/nvidia0" << true;
    QTest::newRow("the node itself bound") << "touch %BOX%/gpu && mount --bind %DEV%/nvidia0 %BOX%/gpu"
                                           << "%BOX%/gpu" << true;
    QTest::newRow("a file under the node's name") << "mount -t tmpfs box %DEV% && touch %DEV%/nvidia0"
                                                  << "%DEV%/nvidia0" << false;
    QTest::newRow("opened before the file hid it") << "exec 3<%DEV%/nvidia0 && mount -t tmpfs box %DEV%"
                                                   << "/dev/null" << true;
}

void TestHolderScanner::nodeBoundElsewhereInItsOwnNamespace()
{
    QFETCH(QString, script);
    QFETCH(QString, opens);
    QFETCH(bool, holds);
    if (::geteuid() != 0)
        QSKIP("mounts in a namespace of its own need root");
    TestSupport::FakeDevRoot dev(1);
    QTemporaryDir box;
    const QString devPath = QFileInfo(dev.path()).canonicalFilePath();
    const QString boxPath = QFileInfo(box.path()).canonicalFilePath();
    const auto fill = [&](QString text) {
        return text.replace(QLatin1String("%DEV%"), devPath).replace(QLatin1String("%BOX%"), boxPath);
    };
    QProcess job;
    job.setProcessChannelMode(QProcess::ForwardedChannels);
    job.start(QStringLiteral("unshare"), {"--mount", "--propagation", "private", "sh", "-c",
                                          fill(script) + " && exec " + QStringLiteral(IDLEGPU_TEST_HOLDOPEN) + ' '
                                              + fill(opens)});
    QVERIFY(job.waitForStarted());
    const auto end = qScopeGuard([&job] {
        job.kill();
        job.waitForFinished();
    });
    // unshare and sh exec test_holdopen in this pid: ready once it runs with its file open.
    QTRY_VERIFY_WITH_TIMEOUT(job.state() != QProcess::Running
                                 || (commOf(job.processId()) == QLatin1String("test_holdopen")
                                     && TestSupport::processHolds(job.processId(), fill(opens))),
                             5000);
    QVERIFY2(job.state() == QProcess::Running, "unshare or mount failed in the job's namespace");

    const HolderScanner::Result result = HolderScanner().scan(nodesOf(dev, 1));
    const Holder *holder = findHolder(result.holders, job.processId());
    QCOMPARE(holder != nullptr, holds);
    if (holds)
        QCOMPARE(holder->gpus, QList<int>{0});
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
