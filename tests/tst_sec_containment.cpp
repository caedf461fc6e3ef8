// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// A killed idlegpu-reaper must not leave its workload running (issue 19, item 6): `kill -9` of a reaper left its
// processes to init, idlegpu started a second copy 5 s later, and the first outlived idlegpu. Each test's workload
// forks processes that stay in its session, one that calls setsid, and one that double-forks out of the session
// (re-parented to the reaper, the subreaper, while it lives); the test finds them all by a token in their
// environment, SIGKILLs the reaper and checks that idlegpu (the runner, then the real binary) ends every one of
// them before it reports the workload stopped or starts it again, with no zombie and nothing handed to init.
// Where the machine has a writable cgroup v2 hierarchy, the same runs with a cgroup per workload, and the
// detection of a delegated cgroup is checked against a real one.
#include "holders/procparse.h"
#include "run/containment.h"
#include "run/processrunner.h"
#include "testsupport.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSet>
#include <QTemporaryDir>
#include <QUuid>
#include <QtTest>

#include <algorithm>

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <unistd.h>

using namespace TestSupport;

namespace {

const char kTokenKey[] = "IDLEGPU_CONTAINMENT_TOKEN";

// setsid sleep: a process in a session of its own, still the shell's child. (setsid sleep &): the subshell exits,
// so that sleep is orphaned inside the workload and re-parented to the reaper. The shell and sleep 302 ignore
// SIGTERM: the sweep must escalate to SIGKILL.
const char kScript[] =
    "setsid sleep 301 & (trap \"\" TERM; exec sleep 302) & (setsid sleep 303 &); trap \"\" TERM; wait";

struct Process
{
    pid_t pid = 0;
    ProcStat stat;
};

QList<Process> allProcesses()
{
    QList<Process> result;
    DIR *proc = opendir("/proc");
    while (const dirent *entry = proc ? readdir(proc) : nullptr) {
        char *end = nullptr;
        const long pid = strtol(entry->d_name, &end, 10);
        if (*end != '\0' || pid <= 0)
            continue;
        Process process;
        process.pid = pid_t(pid);
        const QByteArray text = readFileOrEmpty(QStringLiteral("/proc/%1/stat").arg(pid));
        if (!text.isEmpty() && parseProcStat(text.constData(), &process.stat))
            result.append(process);
    }
    if (proc)
        closedir(proc);
    return result;
}

// The live processes whose environment holds the token (a workload's processes, not its reaper).
QList<Process> workloadProcesses(const QByteArray &token)
{
    QList<Process> result;
    for (const Process &process : allProcesses()) {
        if (process.stat.state == 'Z' || process.stat.state == 'X')
            continue;
        if (readFileOrEmpty(QStringLiteral("/proc/%1/comm").arg(process.pid)).trimmed() == "idlegpu-reaper")
            continue; // today's reaper carries the workload's environment too
        const QByteArray environ = readFileOrEmpty(QStringLiteral("/proc/%1/environ").arg(process.pid));
        int length = 0;
        const char *value = environValue(environ.constData(), int(environ.size()), kTokenKey, &length);
        if (value && QByteArray(value, length) == token)
            result.append(process);
    }
    return result;
}

// "pid(comm) ppid ...", for the failure messages.
QByteArray describe(const QList<Process> &processes)
{
    QByteArray text;
    for (const Process &process : processes)
        text += QByteArray::number(process.pid) + '('
                + readFileOrEmpty(QStringLiteral("/proc/%1/comm").arg(process.pid)).trimmed() + ") ppid "
                + QByteArray::number(qint64(process.stat.ppid)) + "; ";
    return text;
}

// The workload runs as kScript says: the shell and its three sleeps, every fork done and every exec made.
bool settled(const QByteArray &token)
{
    QByteArrayList names;
    for (const Process &process : workloadProcesses(token))
        names.append(readFileOrEmpty(QStringLiteral("/proc/%1/comm").arg(process.pid)).trimmed());
    std::sort(names.begin(), names.end());
    return names == QByteArrayList{"sh", "sleep", "sleep", "sleep"};
}

QList<pid_t> zombieChildrenOf(pid_t parent)
{
    QList<pid_t> zombies;
    for (const Process &process : allProcesses())
        if (process.stat.ppid == parent && process.stat.state == 'Z')
            zombies.append(process.pid);
    return zombies;
}

// Whether each process has `holder` or another of `processes` as its parent: nothing was handed to init.
bool heldBy(const QList<Process> &processes, pid_t holder)
{
    for (const Process &process : processes) {
        const bool parentIsWorkload = std::any_of(processes.cbegin(), processes.cend(), [&](const Process &other) {
            return other.pid == process.stat.ppid;
        });
        if (process.stat.ppid != holder && !parentIsWorkload)
            return false;
    }
    return !processes.isEmpty();
}

// The line "0::/path" of /proc/<pid>/cgroup: the process's cgroup v2.
QString cgroupOf(pid_t pid)
{
    for (const QByteArray &line : readFileOrEmpty(QStringLiteral("/proc/%1/cgroup").arg(pid)).split('\n'))
        if (line.startsWith("0::"))
            return QString::fromUtf8(line.mid(3));
    return QString();
}

// The cgroup v2 hierarchy to test in: /sys/fs/cgroup where it is v2 alone, else the hybrid layout's
// /sys/fs/cgroup/unified. Empty with *why where none can be written.
QString cgroup2Mount(QString *why)
{
    for (const QString &mount : {QStringLiteral("/sys/fs/cgroup"), QStringLiteral("/sys/fs/cgroup/unified")}) {
        if (!QFile::exists(mount + QStringLiteral("/cgroup.procs"))
            || !QFile::exists(mount + QStringLiteral("/cgroup.controllers")))
            continue;
        const QString probe = mount + QStringLiteral("/idlegpu-probe-%1").arg(getpid());
        if (mkdir(QFile::encodeName(probe).constData(), 0755) != 0) {
            *why = QStringLiteral("cannot make a cgroup under %1: %2")
                       .arg(mount, QString::fromLocal8Bit(strerror(errno)));
            return QString();
        }
        rmdir(QFile::encodeName(probe).constData());
        return mount;
    }
    *why = QStringLiteral("no cgroup v2 hierarchy is mounted");
    return QString();
}

// A cgroup folder of the test's own, removed at the end (its processes are gone by then).
class TestCgroup
{
public:
    explicit TestCgroup(const QString &mount, const QString &name)
        : m_path(mount + QLatin1Char('/') + name + QString::number(getpid()))
    {
        m_made = mkdir(QFile::encodeName(m_path).constData(), 0755) == 0;
    }
    ~TestCgroup()
    {
        // Workload cgroups a failed test left: end what is in them, then remove them.
        const QStringList children = QDir(m_path).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
        for (const QString &child : children) {
            WorkloadCgroup::kill(m_path + QLatin1Char('/') + child);
            [[maybe_unused]] const bool emptied = QTest::qWaitFor(
                [&] { return WorkloadCgroup::members(m_path + QLatin1Char('/') + child).isEmpty(); }, 3000);
            rmdir(QFile::encodeName(m_path + QLatin1Char('/') + child).constData());
        }
        rmdir(QFile::encodeName(m_path).constData());
    }
    bool made() const { return m_made; }
    QString path() const { return m_path; }

private:
    QString m_path;
    bool m_made = false;
};

WorkloadConfig containedWorkload(const QByteArray &token, const QString &dir)
{
    WorkloadConfig config;
    config.id = QStringLiteral("contained");
    config.name = config.id;
    config.cmd = QStringLiteral("sh -c '%1'").arg(QLatin1String(kScript));
    config.argv = QStringList{QStringLiteral("sh"), QStringLiteral("-c"), QLatin1String(kScript)};
    config.dir = dir;
    config.env = {{QLatin1String(kTokenKey), QString::fromLatin1(token)}};
    config.stopTimeoutSeconds = 1;
    return config;
}

} // namespace

class TestContainment : public QObject
{
    Q_OBJECT

private:
    // The runner's part, with `cgroupParent` (empty: the session sweep alone).
    void killedReaperIsSwept(const QString &cgroupParent)
    {
        QTemporaryDir dir;
        const QByteArray token = QUuid::createUuid().toByteArray(QUuid::Id128);
        ProcessRunner runner(SystemClock::instance(), reaperPath());
        runner.setCgroupParent(cgroupParent);
        const WorkloadConfig config = containedWorkload(token, dir.path());
        const QString id = config.id;

        // The moment the runner lets go of the workload, what of it still lives.
        int reports = 0;
        int aliveWhenReported = -1;
        connect(&runner, &WorkloadRunner::runtimeChanged, this, [&] {
            const WorkloadRuntime runtime = runner.runtimes().value(id);
            if (runtime.state == WorkloadRuntime::BackingOff || runtime.state == WorkloadRuntime::Stopped) {
                if (reports++ == 0)
                    aliveWhenReported = int(workloadProcesses(token).size());
            }
        });

        QVERIFY(runner.start(config, {0}, false));
        const pid_t reaper = pid_t(runner.runtimes().value(id).pid);
        QVERIFY(reaper > 0);
        QTRY_VERIFY2_WITH_TIMEOUT(settled(token), describe(workloadProcesses(token)).constData(), 20000);
        if (!cgroupParent.isEmpty()) {
            const QString expected = cgroupParent + QStringLiteral("/workload-contained");
            for (const Process &process : workloadProcesses(token))
                QVERIFY2(expected.endsWith(cgroupOf(process.pid)),
                         qPrintable(QStringLiteral("pid %1 is in %2").arg(process.pid).arg(cgroupOf(process.pid))));
        }

        QCOMPARE(::kill(reaper, SIGKILL), 0);
        QTRY_VERIFY_WITH_TIMEOUT(runner.runtimes().value(id).state != WorkloadRuntime::Running, 5000);
        // Held by the runner's process (its subreaper), not handed to init; and no second copy meanwhile.
        const QList<Process> left = workloadProcesses(token);
        if (!left.isEmpty()) {
            QVERIFY2(heldBy(left, getpid()), "the dead reaper's processes were re-parented to idlegpu");
            QVERIFY2(!runner.start(config, {0}, false), "no second copy while the first one's processes live");
        }

        QTRY_VERIFY_WITH_TIMEOUT(workloadProcesses(token).isEmpty(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(reports > 0, 5000);
        QCOMPARE(aliveWhenReported, 0);
        QCOMPARE(runner.runtimes().value(id).state, WorkloadRuntime::BackingOff);
        QTRY_VERIFY_WITH_TIMEOUT(zombieChildrenOf(getpid()).isEmpty(), 5000);
        if (!cgroupParent.isEmpty())
            QVERIFY2(!QFile::exists(cgroupParent + QStringLiteral("/workload-contained")), "its cgroup is removed");

        // A restart runs one copy, and a stop ends it as before.
        QVERIFY(runner.start(config, {0}, false));
        QTRY_VERIFY2_WITH_TIMEOUT(settled(token), describe(workloadProcesses(token)).constData(), 20000);
        runner.stop(id, QStringLiteral("test"));
        QTRY_COMPARE_WITH_TIMEOUT(runner.runtimes().value(id).state, WorkloadRuntime::Stopped, 10000);
        QVERIFY(workloadProcesses(token).isEmpty());
        QTRY_VERIFY_WITH_TIMEOUT(zombieChildrenOf(getpid()).isEmpty(), 5000);
    }

private Q_SLOTS:
    void initTestCase()
    {
        // As idlegpu's main does, so that the runner in this process holds what a dead reaper leaves.
        QVERIFY(Containment::becomeSubreaper());
    }

    void killedReaperIsSweptBySession()
    {
        killedReaperIsSwept(QString());
    }

    void killedReaperIsSweptByCgroup()
    {
        QString why;
        const QString mount = cgroup2Mount(&why);
        if (mount.isEmpty())
            QSKIP(qPrintable(why));
        TestCgroup parent(mount, QStringLiteral("idlegpu-test-"));
        QVERIFY(parent.made());
        killedReaperIsSwept(parent.path());
    }

    // Two workloads whose ids agree in their first 250 bytes (names are only bounded by the config's line) get two
    // cgroups: a cgroup name cut short would put them in one, and the second's start, which ends what an earlier run
    // left in its cgroup, would kill the first.
    void longIdsGetCgroupNamesOfTheirOwn()
    {
        const QString stem = QStringLiteral("process-") + QString(250, QLatin1Char('x'));
        const QString parentPath = QStringLiteral("/sys/fs/cgroup/idlegpu.service");
        const QString firstPath = WorkloadCgroup::pathFor(parentPath, stem + QStringLiteral("-first"));
        const QString secondPath = WorkloadCgroup::pathFor(parentPath, stem + QStringLiteral("-second"));
        QVERIFY(firstPath != secondPath);
        const QString wide = QStringLiteral("process-") + QString(200, QChar(0x4e2d)); // 9 bytes each, encoded
        for (const QString &path : {firstPath, secondPath, WorkloadCgroup::pathFor(parentPath, wide)}) {
            QVERIFY2(path.startsWith(parentPath + QStringLiteral("/workload-process-")), qPrintable(path)); // readable
            QVERIFY2(QFileInfo(path).fileName().toUtf8().size() <= 255, qPrintable(path));
        }
        QCOMPARE(WorkloadCgroup::pathFor(parentPath, QStringLiteral("contained")),
                 parentPath + QStringLiteral("/workload-contained"));
    }

    // The same, run: the second start leaves the first workload's processes alone.
    void longIdsRunInCgroupsOfTheirOwn()
    {
        const QString stem = QStringLiteral("process-") + QString(250, QLatin1Char('x'));
        QString why;
        const QString mount = cgroup2Mount(&why);
        if (mount.isEmpty())
            QSKIP(qPrintable(why));
        TestCgroup parent(mount, QStringLiteral("idlegpu-test-long-"));
        QVERIFY(parent.made());
        QTemporaryDir dir;
        ProcessRunner runner(SystemClock::instance(), reaperPath());
        runner.setCgroupParent(parent.path());
        const QByteArray firstToken = QUuid::createUuid().toByteArray(QUuid::Id128);
        const QByteArray secondToken = QUuid::createUuid().toByteArray(QUuid::Id128);
        WorkloadConfig first = containedWorkload(firstToken, dir.path());
        first.id = first.name = stem + QStringLiteral("-first");
        WorkloadConfig second = containedWorkload(secondToken, dir.path());
        second.id = second.name = stem + QStringLiteral("-second");

        QVERIFY(runner.start(first, {0}, false));
        QTRY_VERIFY2_WITH_TIMEOUT(settled(firstToken), describe(workloadProcesses(firstToken)).constData(), 20000);
        QList<pid_t> firstPids;
        for (const Process &process : workloadProcesses(firstToken))
            firstPids.append(process.pid);
        QVERIFY(runner.start(second, {0}, false));
        QTRY_VERIFY2_WITH_TIMEOUT(settled(secondToken), describe(workloadProcesses(secondToken)).constData(), 20000);
        QTest::qWait(500); // what the second start killed has died by now

        QList<pid_t> stillThere;
        for (const Process &process : workloadProcesses(firstToken))
            stillThere.append(process.pid);
        std::sort(firstPids.begin(), firstPids.end());
        std::sort(stillThere.begin(), stillThere.end());
        QCOMPARE(stillThere, firstPids);
        QCOMPARE(runner.runtimes().value(first.id).state, WorkloadRuntime::Running);
        const QString firstCgroup = WorkloadCgroup::pathFor(parent.path(), first.id).mid(mount.size());
        const QString secondCgroup = WorkloadCgroup::pathFor(parent.path(), second.id).mid(mount.size());
        for (const Process &process : workloadProcesses(firstToken))
            QCOMPARE(cgroupOf(process.pid), firstCgroup);
        for (const Process &process : workloadProcesses(secondToken))
            QCOMPARE(cgroupOf(process.pid), secondCgroup);

        runner.stop(first.id, QStringLiteral("test"));
        runner.stop(second.id, QStringLiteral("test"));
        QTRY_COMPARE_WITH_TIMEOUT(runner.runtimes().value(first.id).state, WorkloadRuntime::Stopped, 10000);
        QTRY_COMPARE_WITH_TIMEOUT(runner.runtimes().value(second.id).state, WorkloadRuntime::Stopped, 10000);
        QVERIFY(workloadProcesses(firstToken).isEmpty() && workloadProcesses(secondToken).isEmpty());
    }

    // As a subreaper, idlegpu adopts orphans it never started (a program started detached, a control command's
    // escapee): dead, they must be reaped, while a QProcess's own dead child is left to its QProcess.
    void adoptedOrphansAreReapedQProcessChildrenAreNot()
    {
        qint64 detached = 0;
        QVERIFY(QProcess::startDetached(QStringLiteral("sh"), {QStringLiteral("-c"), QStringLiteral("exit 0")},
                                        QString(), &detached));
        QTRY_VERIFY_WITH_TIMEOUT(zombieChildrenOf(getpid()).contains(pid_t(detached)), 5000);

        QProcess own;
        own.start(QStringLiteral("sh"), {QStringLiteral("-c"), QStringLiteral("exit 7")});
        QVERIFY(own.waitForStarted());
        // Dead, and not yet reaped by Qt: no event is processed meanwhile.
        for (int i = 0; i < 500 && !zombieChildrenOf(getpid()).contains(pid_t(own.processId())); ++i)
            usleep(10'000);
        QVERIFY(zombieChildrenOf(getpid()).contains(pid_t(own.processId())));

        QCOMPARE(Containment::reapAdoptedOrphans(), 1);
        QVERIFY(!zombieChildrenOf(getpid()).contains(pid_t(detached)));
        QVERIFY(own.waitForFinished(5000));
        QCOMPARE(own.exitStatus(), QProcess::NormalExit);
        QCOMPARE(own.exitCode(), 7);
    }

    // The detection of a cgroup systemd delegated (Delegate=yes marks it trusted.delegate=1), and idlegpu's move to
    // its leaf, on a real cgroup v2 folder that stands in for the service's.
    void delegatedCgroupIsFoundAndEntered()
    {
        QString why;
        const QString mount = cgroup2Mount(&why);
        if (mount.isEmpty())
            QSKIP(qPrintable(why));
        QTemporaryDir dir;
        TestCgroup service(mount, QStringLiteral("idlegpu-service-"));
        QVERIFY(service.made());
        const QString own = service.path().mid(mount.size());
        Containment::CgroupSystem system;
        system.mountPoint = mount;
        system.procSelfCgroup = writeFile(dir.filePath(QStringLiteral("cgroup")), "0::" + own.toUtf8() + "\n");
        system.systemdRunFolder = dir.filePath(QStringLiteral("no-systemd"));

        QVERIFY(Containment::findDelegatedCgroup(system, &why).isEmpty());
        QVERIFY2(why.contains(QStringLiteral("systemd")), qPrintable(why));
        QVERIFY(QDir().mkpath(system.systemdRunFolder));
        QVERIFY(Containment::findDelegatedCgroup(system, &why).isEmpty());
        QVERIFY2(why.contains(QStringLiteral("Delegate=yes")), qPrintable(why));
        if (setxattr(QFile::encodeName(service.path()).constData(), "trusted.delegate", "1", 1, 0) != 0)
            QSKIP(qPrintable(QStringLiteral("cannot mark a cgroup delegated: %1").arg(strerror(errno))));
        QCOMPARE(Containment::findDelegatedCgroup(system, &why), service.path());

        const QString before = cgroupOf(getpid());
        QString error;
        QVERIFY2(Containment::moveSelfToLeaf(service.path(), &error), qPrintable(error));
        QCOMPARE(cgroupOf(getpid()), own + QStringLiteral("/idlegpu"));
        // Back where the test started, so that the folders can go.
        writeFile(mount + before + QStringLiteral("/cgroup.procs"), QByteArray::number(getpid()));
        QCOMPARE(cgroupOf(getpid()), before);
        QVERIFY(rmdir(QFile::encodeName(service.path() + QStringLiteral("/idlegpu")).constData()) == 0);
    }

    // The real binary: idlegpu --headless holds what its killed reaper left, ends it, starts one copy again, and leaves
    // nothing on SIGTERM.
    void headlessSweepsKilledReaper()
    {
        QTemporaryDir dir;
        FakeDevRoot dev(1);
        const QByteArray token = QUuid::createUuid().toByteArray(QUuid::Id128);
        const QString config = writeFile(
            dir.filePath(QStringLiteral("idlegpu.conf")),
            (defaultsSection(dev.path())
             + QStringLiteral("[process-contained]\ncmd=sh -c '%1'\ngpus=0\nstop_timeout_seconds=1\nenv=%2=%3\n")
                   .arg(QLatin1String(kScript), QLatin1String(kTokenKey), QString::fromLatin1(token)))
                .toUtf8());
        const std::unique_ptr<QProcess> idlegpu = startHeadless(config, dir.path());
        QVERIFY(idlegpu->waitForStarted());
        const pid_t idlegpuPid = pid_t(idlegpu->processId());

        QTRY_VERIFY2_WITH_TIMEOUT(settled(token), describe(workloadProcesses(token)).constData(), 20000);
        pid_t reaper = 0;
        for (const Process &process : allProcesses())
            if (process.stat.ppid == idlegpuPid
                && readFileOrEmpty(QStringLiteral("/proc/%1/comm").arg(process.pid)).trimmed() == "idlegpu-reaper")
                reaper = process.pid;
        QVERIFY(reaper > 0);

        QCOMPARE(::kill(reaper, SIGKILL), 0);
        // Dead, or a zombie until idlegpu reaps it. The wait is the kernel's, not a figure: a fresh clone's run with
        // the lab suite beside it once took longer than 5 s.
        QTRY_VERIFY2_WITH_TIMEOUT(!QFile::exists(QStringLiteral("/proc/%1").arg(reaper))
                                      || readFileOrEmpty(QStringLiteral("/proc/%1/stat").arg(reaper)).contains(") Z "),
                                  readFileOrEmpty(QStringLiteral("/proc/%1/stat").arg(reaper)).constData(), 20000);
        const QList<Process> left = workloadProcesses(token);
        if (!left.isEmpty())
            QVERIFY2(heldBy(left, idlegpuPid), "the dead reaper's processes were re-parented to idlegpu");
        QTRY_VERIFY_WITH_TIMEOUT(workloadProcesses(token).isEmpty(), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(zombieChildrenOf(idlegpuPid).isEmpty(), 5000);

        // The restart after the backoff (5 s): one copy, never two.
        QElapsedTimer waited;
        waited.start();
        while (waited.elapsed() < 30000 && !settled(token)) {
            QSet<pid_t> sessions;
            for (const Process &process : workloadProcesses(token))
                if (process.stat.sid != process.pid) // not a setsid sleep: in its reaper's session
                    sessions.insert(pid_t(process.stat.sid));
            QVERIFY2(sessions.size() <= 1, describe(workloadProcesses(token)).constData());
            QTest::qWait(50);
        }
        QVERIFY2(settled(token), describe(workloadProcesses(token)).constData());

        ::kill(idlegpuPid, SIGTERM);
        QVERIFY(idlegpu->waitForFinished(15000));
        const QByteArray log = idlegpu->readAll();
        QVERIFY2(idlegpu->exitStatus() == QProcess::NormalExit && idlegpu->exitCode() == 0, log.constData());
        QVERIFY2(log.contains("leaving"), log.constData()); // the sweep said what it found
        QVERIFY2(workloadProcesses(token).isEmpty(), log.constData());
    }

    // A workload's log writer (issue 28, finding 1) runs as the workload's user and may be stuck for good on her FUSE
    // file: it lives in the cgroup log-writers beside the workload's, outside its session, so that the workload's
    // stop, the removal of its cgroup and its restart never wait for it.
    void stuckLogWriterStaysOutOfTheWorkloadsCgroup()
    {
        QString why;
        const QString mount = cgroup2Mount(&why);
        if (mount.isEmpty())
            QSKIP(qPrintable(why));
        TestCgroup parent(mount, QStringLiteral("idlegpu-test-log-"));
        QVERIFY(parent.made());
        TemporaryUser alice;
        if (!alice.valid())
            QSKIP(qPrintable(alice.skipReason()));
        FuseMount fuse(alice.uid(), alice.gid(), {.hangWrites = true});
        if (!fuse.valid())
            QSKIP(qPrintable(fuse.skipReason()));
        ProcessRunner runner(SystemClock::instance(), reaperPath());
        runner.setCgroupParent(parent.path());
        const QByteArray token = QUuid::createUuid().toByteArray(QUuid::Id128);
        WorkloadConfig config = containedWorkload(token, alice.home());
        const QString script = QStringLiteral("while :; do echo printing; sleep 0.01; done");
        config.cmd = QStringLiteral("sh -c '%1'").arg(script);
        config.argv = QStringList{QStringLiteral("sh"), QStringLiteral("-c"), script};
        config.user = alice.name();
        config.log = fuse.file();
        const QString id = config.id;
        const QString own = parent.path().mid(mount.size());
        const auto writers = [&alice] {
            QList<pid_t> found;
            for (const Process &process : allProcesses())
                if (readFileOrEmpty(QStringLiteral("/proc/%1/comm").arg(process.pid)).trimmed() == "idlegpu-log"
                    && readFileOrEmpty(QStringLiteral("/proc/%1/status").arg(process.pid))
                           .contains("\nUid:\t" + QByteArray::number(alice.uid()) + '\t'))
                    found.append(process.pid);
            return found;
        };

        for (int run = 0; run < 2; ++run) { // the second: a restart, the first writer still stuck
            QVERIFY(runner.start(config, {0}, false));
            QTRY_VERIFY_WITH_TIMEOUT(!workloadProcesses(token).isEmpty(), 10000);
            QTRY_COMPARE_WITH_TIMEOUT(writers().size(), run + 1, 10000);
            for (const pid_t writer : writers()) {
                QCOMPARE(cgroupOf(writer), own + QStringLiteral("/log-writers"));
                QVERIFY(readFileOrEmpty(QStringLiteral("/proc/%1/stat").arg(writer)).contains(
                    " " + QByteArray::number(writer) + " ")); // the pgrp and session fields: its own
            }
            for (const Process &process : workloadProcesses(token)) {
                // The loop's `sleep 0.01` may end between the listing and the read: only a process still there counts.
                const QString cgroup = cgroupOf(process.pid);
                if (cgroup.isEmpty() && ::kill(process.pid, 0) != 0)
                    continue;
                QCOMPARE(cgroup, own + QStringLiteral("/workload-contained"));
            }
            QTest::qWait(200); // the workload prints; its writer waits on the first line's write by now

            runner.stop(id, QStringLiteral("test"));
            QTRY_COMPARE_WITH_TIMEOUT(runner.runtimes().value(id).state, WorkloadRuntime::Stopped, 10000);
            QVERIFY(workloadProcesses(token).isEmpty());
            QVERIFY2(!QFile::exists(parent.path() + QStringLiteral("/workload-contained")), "its cgroup is removed");
            QCOMPARE(writers().size(), run + 1); // left behind, stuck on alice's file
        }
    }
};

QTEST_GUILESS_MAIN(TestContainment)
#include "tst_sec_containment.moc"
