// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// Faults at the monitor level (GitHub issue 6, part 2): hostile workloads, a hostile file system, a hostile
// kernel queue, many processes, a storm of opens, a config file mangled while idlegpu runs. Real Monitor, real
// ProcessRunner and reaper, real processes on fake device nodes of two GPUs.
//
// Every test runs a second workload, process-other, on GPU 1 and checks that it keeps its pid throughout: a
// fault on GPU 0 must not disturb GPU 1. Every process a workload starts carries IDLEGPU_FAULT_TEST=<token>
// in its environment (env= of its section), so cleanup() finds any survivor, setsid escapees included, by
// reading /proc/*/environ once idlegpu has stopped.
//
// Scale as the issue asks: 5000 idle processes (skipped, with the reason, where the machine cannot hold them),
// a storm of 1000 opens/s for 10 s; tests/stress.cpp makes both.
#include "monitorfixture.h"
#include "run/processrunner.h"

#include <QDir>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QtTest>

#include <algorithm>

#include <fcntl.h>
#include <signal.h>
#include <sys/resource.h>
#include <unistd.h>

using namespace TestSupport;

namespace {

const QString kOther = QStringLiteral("process-other");
const QString kWorkload = QStringLiteral("process-0");

QStringList readLines(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
}

// Pids of live (non-zombie) processes whose environment holds `marker`.
QList<qint64> processesWithEnvironment(const QByteArray &marker)
{
    QList<qint64> found;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool isPid = false;
        const qint64 pid = entry.toLongLong(&isPid);
        if (!isPid || pid == QCoreApplication::applicationPid())
            continue;
        QFile environ(QStringLiteral("/proc/%1/environ").arg(pid));
        if (!environ.open(QIODevice::ReadOnly))
            continue;
        const QList<QByteArray> variables = environ.readAll().split('\0');
        if (variables.contains(marker) && processAlive(pid))
            found.append(pid);
    }
    return found;
}

// Why this machine cannot start `count` more processes now (pid_max, threads-max, RLIMIT_NPROC), or empty.
QString roomForProcesses(int count)
{
    // The 4th field of /proc/loadavg is "running/total" scheduling entities: threads included, as the limits count.
    QFile loadavg(QStringLiteral("/proc/loadavg"));
    const QList<QByteArray> fields = loadavg.open(QIODevice::ReadOnly) ? loadavg.readAll().split(' ') : QList<QByteArray>();
    const qint64 existing = fields.size() > 3 ? fields.at(3).split('/').value(1).toLongLong() : 0;
    for (const char *limitFile : {"/proc/sys/kernel/pid_max", "/proc/sys/kernel/threads-max"}) {
        QFile file(QString::fromLatin1(limitFile));
        const qint64 limit = file.open(QIODevice::ReadOnly) ? file.readAll().trimmed().toLongLong() : 0;
        if (limit > 0 && existing + count > limit)
            return QStringLiteral("%1 is %2 and %3 threads exist: no room for %4 more processes")
                .arg(QString::fromLatin1(limitFile)).arg(limit).arg(existing).arg(count);
    }
    rlimit processes{};
    if (::geteuid() != 0 && ::getrlimit(RLIMIT_NPROC, &processes) == 0 && processes.rlim_cur != RLIM_INFINITY
        && qint64(processes.rlim_cur) < existing + count)
        return QStringLiteral("RLIMIT_NPROC (ulimit -u) is %1 and %2 threads exist: no room for %3 more processes")
            .arg(qint64(processes.rlim_cur)).arg(existing).arg(count);
    return {};
}

// Opens and closes `path` from the test process itself, without running the event loop.
void openAndClose(const QString &path, int times)
{
    const QByteArray name = QFile::encodeName(path);
    for (int i = 0; i < times; ++i) {
        const int fd = ::open(name.constData(), O_RDONLY | O_CLOEXEC);
        if (fd >= 0)
            ::close(fd);
    }
}

} // namespace

class TestFaults : public QObject, private MonitorFixture
{
    Q_OBJECT

private:
    QString path(const QString &name) const { return m_dir->filePath(name); }
    QByteArray marker() const { return "IDLEGPU_FAULT_TEST=" + m_token; }

    // A shell script in the test folder; the workload runs `sh <script>`.
    QString script(const QString &name, const QString &body) const
    {
        return writeFile(path(name + QStringLiteral(".sh")), body.toUtf8());
    }
    QString section(const QString &id, const QString &scriptPath, int gpu, const QString &extra = QString(),
                    int stopTimeoutSeconds = 2) const
    {
        return QStringLiteral("[%1]\ncmd=sh %2\ngpus=%3\nstop_timeout_seconds=%4\nenv=%5\n%6\n")
            .arg(id, scriptPath)
            .arg(gpu)
            .arg(stopTimeoutSeconds)
            .arg(QString::fromLatin1(marker()), extra);
    }
    // process-other on GPU 1: a sleeper that records its pid.
    QString otherSection() const
    {
        const QString body = QStringLiteral("echo $$ >> %1\nexec sleep 1000\n").arg(path(QStringLiteral("other.pids")));
        return section(kOther, script(QStringLiteral("other"), body), 1);
    }
    void startMonitor(const QString &configPath)
    {
        makeMonitor(configPath);
        QVERIFY(m_monitor->start());
    }
    // Waits until process-other runs and remembers its pid; otherUndisturbed() compares later.
    void awaitOther()
    {
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(kOther), WorkloadRuntime::Running, 8000);
        QTRY_COMPARE_WITH_TIMEOUT(readLines(path(QStringLiteral("other.pids"))).size(), 1, 8000);
        m_otherPid = pidOf(kOther);
        QVERIFY(m_otherPid > 0);
    }
    bool otherUndisturbed() const
    {
        return stateOf(kOther) == WorkloadRuntime::Running && pidOf(kOther) == m_otherPid
               && readLines(path(QStringLiteral("other.pids"))).size() == 1;
    }

    QByteArray m_token;
    qint64 m_otherPid = 0;

private Q_SLOTS:
    void initTestCase()
    {
        // The flooding workload's lines would otherwise flood the test log.
        QLoggingCategory::setFilterRules(QStringLiteral("idlegpu.workload.info=false"));
    }

    void init()
    {
        setUpMonitorFixture(2);
        m_token = QFileInfo(m_dir->path()).fileName().toLatin1();
        m_otherPid = 0;
    }

    // In every case: once idlegpu has stopped, nothing it started is left.
    void cleanup()
    {
        QVERIFY(stopMonitor());
        m_runner.reset();
        QTRY_VERIFY2_WITH_TIMEOUT(processesWithEnvironment(marker()).isEmpty(), "a workload process survived", 5000);
        QVERIFY(tearDownMonitorFixture());
    }

    void workloadIgnoringSigtermIsKilled()
    {
        const QString body = QStringLiteral("trap '' TERM\necho $$ >> %1\nsleep 1000 &\necho $! >> %1\nwait\n")
                                 .arg(path(QStringLiteral("pids")));
        startMonitor(writeConfig(defaults(0) + section(kWorkload, script(QStringLiteral("stubborn"), body), 0, QString(), 1)
                                 + otherSection()));
        awaitOther();
        QTRY_COMPARE_WITH_TIMEOUT(readLines(path(QStringLiteral("pids"))).size(), 2, 8000);

        // The SIGKILL comes from the reaper's own grace or from idlegpu's escalation, whichever fires first.
        NodeHolder job(m_dev->computeJob(0));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(kWorkload), WorkloadRuntime::Stopping, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(kWorkload), WorkloadRuntime::Stopped, 10000);
        for (const QString &pid : readLines(path(QStringLiteral("pids"))))
            QTRY_VERIFY_WITH_TIMEOUT(!processAlive(pid.toLongLong()), 3000);
        QVERIFY(otherUndisturbed());
    }

    void escapingChildrenEndWithTheWorkload_data()
    {
        QTest::addColumn<QString>("body");
        QTest::addColumn<int>("processes"); // lines the script and its escapees write to the pid file
        QTest::newRow("fork") << QStringLiteral("sleep 1000 &\necho $! >> PIDS\nwait\n") << 2;
        QTest::newRow("double fork") << QStringLiteral("(sleep 1000 & echo $! >> PIDS)\nexec sleep 1000\n") << 2;
        QTest::newRow("setsid") << QStringLiteral("setsid sh -c 'echo $$ >> PIDS; exec sleep 1000' &\nwait\n") << 2;
        QTest::newRow("setsid after a double fork")
            << QStringLiteral("(setsid sh -c 'echo $$ >> PIDS; exec sleep 1000' &)\nexec sleep 1000\n") << 2;
    }
    void escapingChildrenEndWithTheWorkload()
    {
        QFETCH(QString, body);
        QFETCH(int, processes);
        const QString pids = path(QStringLiteral("pids"));
        body = QStringLiteral("echo $$ >> PIDS\n") + body;
        body.replace(QStringLiteral("PIDS"), pids);
        startMonitor(writeConfig(defaults(0) + section(kWorkload, script(QStringLiteral("escape"), body), 0)
                                 + otherSection()));
        awaitOther();
        QTRY_COMPARE_WITH_TIMEOUT(readLines(pids).size(), processes, 8000);
        QCOMPARE(stateOf(kWorkload), WorkloadRuntime::Running);

        NodeHolder job(m_dev->computeJob(0));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(kWorkload), WorkloadRuntime::Stopped, 8000);
        for (const QString &pid : readLines(pids))
            QTRY_VERIFY2_WITH_TIMEOUT(!processAlive(pid.toLongLong()), qPrintable(pid + QStringLiteral(" survived")), 3000);
        QVERIFY(otherUndisturbed());
    }

    void workloadExitingAtOnceBacksOff()
    {
        const QString starts = path(QStringLiteral("starts"));
        const QString body = QStringLiteral("echo $$ >> %1\necho 'miner: bad wallet address'\nexit 3\n").arg(starts);
        QSignalSpy failed(m_runner.get(), &WorkloadRunner::workloadFailed);
        startMonitor(writeConfig(defaults(0) + section(kWorkload, script(QStringLiteral("crash"), body), 0)
                                 + otherSection()));
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(QStringLiteral("^0 ended without being asked to \\(exit code 3\\); "
                                                               "failure 1 in a row, next try in 5 s; last output:\n"
                                                               "    miner: bad wallet address$")));
        awaitOther();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(kWorkload), WorkloadRuntime::BackingOff, 8000);
        WorkloadRuntime runtime = runtimeOf(kWorkload);
        QCOMPARE(workloadStateName(runtime.state), QStringLiteral("failing"));
        QCOMPARE(runtime.lastExit, QStringLiteral("exit code 3"));
        QCOMPARE(runtime.lastOutput, QStringList{QStringLiteral("miner: bad wallet address")});
        QCOMPARE(runtime.consecutiveFailures, 1);
        QCOMPARE(failed.count(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(!m_monitor->state().decision.workloadReasons.value(kWorkload).text.isEmpty(), 3000);

        // No busy loop: it stays down for its backoff, then one more try, then a longer backoff.
        QTest::qWait(2000);
        QCOMPARE(readLines(starts).size(), 1);
        QTRY_VERIFY_WITH_TIMEOUT(runtimeOf(kWorkload).consecutiveFailures == 2, 10000);
        runtime = runtimeOf(kWorkload);
        QCOMPARE(readLines(starts).size(), 2);
        QCOMPARE(runtime.state, WorkloadRuntime::BackingOff);
        QVERIFY(runtime.retryAtMs - runtime.startedAtMs >= 2 * ProcessRunner::kFirstBackoffMs);
        QVERIFY(otherUndisturbed());
    }

    void floodingWorkloadIsStillPreempted()
    {
        const QString body = QStringLiteral("echo $$ >> %1\nexec yes 'flooding the output flooding the output'\n")
                                 .arg(path(QStringLiteral("pids")));
        startMonitor(writeConfig(defaults(0) + section(kWorkload, script(QStringLiteral("flood"), body), 0)
                                 + otherSection()));
        QSignalSpy preempted(m_monitor.get(), &Monitor::preempted);
        awaitOther();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(kWorkload), WorkloadRuntime::Running, 8000);
        QTest::qWait(1000); // let it flood

        NodeHolder job(m_dev->computeJob(0));
        QTRY_VERIFY_WITH_TIMEOUT(preempted.count() == 1, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(kWorkload), WorkloadRuntime::Stopped, 8000);
        QVERIFY(runtimeOf(kWorkload).lastOutput.size() <= ProcessRunner::kMaxOutputLines);
        QVERIFY(otherUndisturbed());
    }

    void unusableLogFolder_data()
    {
        QTest::addColumn<QString>("problem");
        QTest::newRow("missing folder") << QStringLiteral("missing");
        QTest::newRow("a file where the folder should be") << QStringLiteral("file");
        QTest::newRow("read-only folder") << QStringLiteral("read-only");
    }
    void unusableLogFolder()
    {
        QFETCH(QString, problem);
        QString log;
        if (problem == QLatin1String("missing")) {
            log = path(QStringLiteral("no/such/folder/miner.log"));
        } else if (problem == QLatin1String("file")) {
            log = path(QStringLiteral("plainfile/miner.log"));
            writeFile(path(QStringLiteral("plainfile")), "not a folder");
        } else {
            const QString folder = path(QStringLiteral("read-only"));
            QVERIFY(QDir().mkpath(folder));
            QVERIFY(QFile::setPermissions(folder, QFileDevice::ReadOwner | QFileDevice::ExeOwner));
            if (::access(QFile::encodeName(folder).constData(), W_OK) == 0)
                QSKIP("running as root: a read-only folder is writable");
            log = folder + QStringLiteral("/miner.log");
        }
        const QString body = QStringLiteral("echo $$ >> %1\nexec sleep 1000\n").arg(path(QStringLiteral("pids")));
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("^cannot start 0: cannot open log file %1: ")
                                                                  .arg(QRegularExpression::escape(log))));
        startMonitor(writeConfig(defaults(0)
                                 + section(kWorkload, script(QStringLiteral("logged"), body), 0, QStringLiteral("log=") + log)
                                 + otherSection()));
        awaitOther();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(kWorkload), WorkloadRuntime::BackingOff, 5000);
        QVERIFY2(runtimeOf(kWorkload).lastExit.startsWith(QStringLiteral("cannot open log file ") + log),
                 qPrintable(runtimeOf(kWorkload).lastExit));
        QVERIFY(!QFile::exists(path(QStringLiteral("pids")))); // nothing was started
        QVERIFY(otherUndisturbed());
    }

    void fullDiskLogKeepsTheWorkloadRunning()
    {
        // /dev/full takes the open and fails every write with ENOSPC, as a full disk does.
        if (!QFileInfo(QStringLiteral("/dev/full")).isWritable())
            QSKIP("/dev/full is not writable here");
        // A device is opened for writing, not appending (which would seek, and make Qt warn): the one warning is
        // the failed write.
        QTest::failOnWarning(QRegularExpression(QStringLiteral("^QIODevice::seek")));
        const QString body = QStringLiteral("echo $$ >> %1\nwhile :; do echo hashrate 42; sleep 0.05; done\n")
                                 .arg(path(QStringLiteral("pids")));
        QTest::ignoreMessage(QtWarningMsg,
                             QRegularExpression(QStringLiteral("^cannot write to log file /dev/full of 0: ")));
        startMonitor(writeConfig(defaults(0)
                                 + section(kWorkload, script(QStringLiteral("logged"), body), 0,
                                           QStringLiteral("log=/dev/full"))
                                 + otherSection()));
        awaitOther();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(kWorkload), WorkloadRuntime::Running, 5000);
        const qint64 pid = pidOf(kWorkload);
        QTRY_VERIFY_WITH_TIMEOUT(runtimeOf(kWorkload).lastOutput.size() >= 3, 5000);
        QCOMPARE(pidOf(kWorkload), pid); // the failed writes harm neither the workload nor its output capture
        QVERIFY(otherUndisturbed());
    }

    void nodeRemovedAndRecreated_data()
    {
        QTest::addColumn<bool>("noticedInBetween");
        QTest::newRow("removed, noticed, recreated") << true;
        QTest::newRow("replaced before idlegpu looks") << false;
    }
    void nodeRemovedAndRecreated()
    {
        QFETCH(bool, noticedInBetween);
        const QString body = QStringLiteral("echo $$ >> %1\nexec sleep 1000\n").arg(path(QStringLiteral("pids")));
        startMonitor(writeConfig(defaults(0) + section(kWorkload, script(QStringLiteral("w"), body), 0) + otherSection()));
        QSignalSpy preempted(m_monitor.get(), &Monitor::preempted);
        awaitOther();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(kWorkload), WorkloadRuntime::Running, 8000);

        m_dev->removeGpu(0);
        if (noticedInBetween) {
            QTRY_COMPARE_WITH_TIMEOUT(stateOf(kWorkload), WorkloadRuntime::Stopped, 8000);
            QTRY_VERIFY_WITH_TIMEOUT(m_monitor->state().snapshot.devices.gpus.size() == 1, 5000);
        }
        m_dev->addGpu(0);
        QTRY_VERIFY_WITH_TIMEOUT(m_monitor->state().snapshot.devices.gpus.size() == 2, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(kWorkload), WorkloadRuntime::Running, 8000);
        QTest::qWait(300); // every event of the replacement is read

        // The new node is watched: a job opening it preempts at once, long before the 60 s poll.
        NodeHolder job(m_dev->computeJob(0));
        QTRY_VERIFY_WITH_TIMEOUT(preempted.count() == 1, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(kWorkload), WorkloadRuntime::Stopped, 8000);
        QVERIFY(otherUndisturbed());
    }

    void inotifyOverflowIsRecovered()
    {
        // Lowering fs.inotify.max_queued_events would change a setting of the whole machine; instead the queue
        // is filled: the test opens and closes the node more often than it holds events while the monitor
        // (same thread) cannot read them.
        QFile limitFile(QStringLiteral("/proc/sys/fs/inotify/max_queued_events"));
        QVERIFY(limitFile.open(QIODevice::ReadOnly));
        const int limit = limitFile.readAll().trimmed().toInt();
        QVERIFY(limit > 0);
        if (limit > (1 << 20))
            QSKIP("max_queued_events is too large to fill in a test");

        const QString body = QStringLiteral("echo $$ >> %1\nexec sleep 1000\n").arg(path(QStringLiteral("pids")));
        startMonitor(writeConfig(defaults(0) + section(kWorkload, script(QStringLiteral("w"), body), 0) + otherSection()));
        QSignalSpy preempted(m_monitor.get(), &Monitor::preempted);
        awaitOther();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(kWorkload), WorkloadRuntime::Running, 8000);

        QTest::ignoreMessage(QtWarningMsg, "inotify queue overflowed: events were lost, rescanning everything");
        openAndClose(m_dev->node(0), limit / 2 + 16);
        // The job's open is lost with the overflow: only the rescan the overflow causes can find it.
        NodeHolder job(m_dev->computeJob(0));
        QVERIFY(job.waitUntilOpen());
        QTRY_VERIFY_WITH_TIMEOUT(preempted.count() == 1, 5000);
        QCOMPARE(preempted.first().first().value<PreemptionEvent>().culprit.pid, job.pid());
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(kWorkload), WorkloadRuntime::Stopped, 8000);

        // The counts start over: the job ending frees the GPU (no phantom holder from the lost events).
        job.kill();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(kWorkload), WorkloadRuntime::Running, 8000);
        QCOMPARE(m_monitor->state().decision.gpus.at(0).state, GpuState::RunningWorkload);
        QVERIFY(otherUndisturbed());
    }

    void manyProcesses()
    {
        // 5000 idle processes besides the machine's own: the scan still finds the job and nothing else.
        constexpr int kBystanders = 5000;
        const QString room = roomForProcesses(kBystanders + 500);
        if (!room.isEmpty())
            QSKIP(qPrintable(room));
        QProcess bystanders;
        bystanders.start(QStringLiteral(IDLEGPU_TEST_STRESS), {QStringLiteral("bystanders"), QString::number(kBystanders)});
        QVERIFY(bystanders.waitForStarted());
        auto killBystanders = qScopeGuard([&bystanders] {
            ::kill(-pid_t(bystanders.processId()), SIGKILL); // it made itself a process group with them
            bystanders.waitForFinished(10000);
        });
        QTRY_VERIFY_WITH_TIMEOUT(bystanders.canReadLine() || bystanders.state() != QProcess::Running, 60000);
        if (bystanders.state() != QProcess::Running)
            QSKIP(qPrintable("this machine cannot run 5000 more processes now: "
                             + QString::fromLocal8Bit(bystanders.readAllStandardError()).trimmed()));
        QCOMPARE(bystanders.readLine().trimmed(), QByteArray("ready"));

        const QString body = QStringLiteral("echo $$ >> %1\nexec sleep 1000\n").arg(path(QStringLiteral("pids")));
        startMonitor(writeConfig(defaults(0) + section(kWorkload, script(QStringLiteral("w"), body), 0) + otherSection()));
        QSignalSpy preempted(m_monitor.get(), &Monitor::preempted);
        awaitOther();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(kWorkload), WorkloadRuntime::Running, 8000);
        QVERIFY2(m_monitor->state().snapshot.holders.isEmpty(), "a bystander was taken for a holder");

        NodeHolder job(m_dev->computeJob(0));
        QTRY_VERIFY_WITH_TIMEOUT(preempted.count() == 1, 5000);
        QCOMPARE(preempted.first().first().value<PreemptionEvent>().culprit.pid, job.pid());
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(kWorkload), WorkloadRuntime::Stopped, 8000);
        const MonitorState state = m_monitor->state();
        QCOMPARE(state.decision.gpus.at(0).state, GpuState::Busy);
        QCOMPARE(state.decision.gpus.at(0).foreignHolders.size(), 1);
        QVERIFY(otherUndisturbed());
    }

    void openCloseStormDoesNotFlap()
    {
        // 1000 opens and closes a second for 10 s, the node held between them. The workload stops once, stays
        // down through the storm, and comes back once, start_delay after the storm's last close.
        constexpr int kStartDelaySeconds = 2;
        constexpr int kStormSeconds = 10;
        const QString starts = path(QStringLiteral("starts"));
        const QString body = QStringLiteral("echo $$ >> %1\nexec sleep 1000\n").arg(starts);
        startMonitor(writeConfig(defaults(kStartDelaySeconds) + section(kWorkload, script(QStringLiteral("w"), body), 0)
                                 + otherSection()));
        QSignalSpy preempted(m_monitor.get(), &Monitor::preempted);
        awaitOther();
        QTRY_COMPARE_WITH_TIMEOUT(readLines(starts).size(), 1, 8000);

        QProcess storm;
        storm.start(QStringLiteral(IDLEGPU_TEST_STRESS),
                    {QStringLiteral("storm"), m_dev->node(0), QStringLiteral("1000"), QString::number(kStormSeconds),
                     m_dev->uvm()}); // a CUDA process: nvidia-uvm held throughout, so each nvidia0 open is a compute client's
        QVERIFY(storm.waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(preempted.count() == 1, 5000);
        // Through the storm: checked every 100 ms that the workload stays down.
        bool stayedDown = true;
        while (storm.state() == QProcess::Running) {
            QTest::qWait(100);
            stayedDown = stayedDown && readLines(starts).size() == 1 && stateOf(kWorkload) != WorkloadRuntime::Running;
        }
        QVERIFY2(stayedDown, "the workload came back during the storm");
        QCOMPARE(storm.exitCode(), 0);
        const QList<QByteArray> report = storm.readAllStandardOutput().trimmed().split(' ');
        QCOMPARE(report.size(), 4); // opens <n> last-close <t>
        qInfo("storm: %s opens in %d s", report.at(1).constData(), kStormSeconds);
        const qint64 lastCloseMs = report.at(3).toLongLong() / 1000;

        QTRY_COMPARE_WITH_TIMEOUT(stateOf(kWorkload), WorkloadRuntime::Running, kStartDelaySeconds * 1000 + 5000);
        // Calm is counted from the last scan that saw the storm, which may end a moment before its last close.
        QVERIFY2(runtimeOf(kWorkload).startedAtMs - lastCloseMs >= kStartDelaySeconds * 1000 - 500,
                 "the workload came back before start_delay of calm");
        QTest::qWait(500);
        QCOMPARE(readLines(starts).size(), 2);
        QCOMPARE(preempted.count(), 1);
        QVERIFY(otherUndisturbed());
    }

    void brokenConfigKeepsTheLastGoodOne_data()
    {
        QTest::addColumn<QString>("fault");
        QTest::newRow("deleted") << QStringLiteral("delete");
        QTest::newRow("truncated to nothing") << QStringLiteral("empty");
        QTest::newRow("cut mid-line") << QStringLiteral("cut");
        QTest::newRow("binary garbage") << QStringLiteral("garbage");
        QTest::newRow("replaced by a broken file") << QStringLiteral("replace");
    }
    void brokenConfigKeepsTheLastGoodOne()
    {
        QFETCH(QString, fault);
        const QString body = QStringLiteral("echo $$ >> %1\nexec sleep 1000\n").arg(path(QStringLiteral("pids")));
        const QString good = defaults(0) + section(kWorkload, script(QStringLiteral("w"), body), 0) + otherSection();
        const QString configPath = writeConfig(good);
        startMonitor(configPath);
        QSignalSpy rejected(m_monitor.get(), &Monitor::configRejected);
        awaitOther();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(kWorkload), WorkloadRuntime::Running, 8000);
        const qint64 workloadPid = pidOf(kWorkload);

        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("^%1 has errors; keeping the configuration in force")
                                                                  .arg(QRegularExpression::escape(configPath))));
        if (fault == QLatin1String("delete")) {
            QVERIFY(QFile::remove(configPath));
        } else if (fault == QLatin1String("empty")) {
            writeFile(configPath, QByteArray());
        } else if (fault == QLatin1String("cut")) {
            writeFile(configPath, good.toUtf8().left(good.toUtf8().indexOf("gpus=0") + 3));
        } else if (fault == QLatin1String("garbage")) {
            QByteArray garbage;
            for (int i = 0; i < 4096; ++i)
                garbage.append(char((i * 7919) & 0xff));
            writeFile(configPath, garbage);
        } else {
            const QString next = writeFile(path(QStringLiteral("next.conf")), "[process-0]\ncmd=\n");
            QVERIFY(::rename(QFile::encodeName(next).constData(), QFile::encodeName(configPath).constData()) == 0);
        }
        QTRY_VERIFY_WITH_TIMEOUT(rejected.count() >= 1, 5000);
        QVERIFY(!m_monitor->state().configProblems.isEmpty());
        QVERIFY(m_monitor->state().config.workload(kWorkload) != nullptr);
        QCOMPARE(pidOf(kWorkload), workloadPid);
        QCOMPARE(stateOf(kWorkload), WorkloadRuntime::Running);

        // A good file later is applied: process-0 restarts with its new command, process-other stays.
        const QString fixed = QString(good).replace(QStringLiteral("[process-0]\ncmd=sh "), QStringLiteral("[process-0]\ncmd=/bin/sh "));
        QVERIFY(fixed != good);
        writeConfig(fixed);
        // No error left (as root, its workloads, which name no user, stay warned about: they run as root).
        const auto noError = [this] {
            const QList<ConfigDiagnostic> problems = m_monitor->state().configProblems;
            return std::none_of(problems.cbegin(), problems.cend(),
                                [](const ConfigDiagnostic &d) { return d.severity == ConfigDiagnostic::Error; });
        };
        QTRY_VERIFY_WITH_TIMEOUT(noError(), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(pidOf(kWorkload) != workloadPid && stateOf(kWorkload) == WorkloadRuntime::Running, 8000);
        QVERIFY(m_monitor->state().config.workload(kWorkload)->cmd.startsWith(QStringLiteral("/bin/sh ")));
        QVERIFY(otherUndisturbed());
    }

    void sighupReloads()
    {
        // The real binary: SIGHUP makes it read the file again and say so.
        const QString body = QStringLiteral("echo $$ >> %1\nexec sleep 1000\n").arg(path(QStringLiteral("pids")));
        const QString configPath = writeConfig(defaults(0) + section(kWorkload, script(QStringLiteral("w"), body), 0)
                                               + otherSection());
        QProcess idlegpu;
        idlegpu.setProgram(QStringLiteral(IDLEGPU_BINARY));
        idlegpu.setArguments({QStringLiteral("--headless"), QStringLiteral("--config"), configPath});
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_dir->path()); // its single-instance lock
        env.insert(QStringLiteral("XDG_STATE_HOME"), m_dir->path()); // its ledger: not the user's
        env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("idlegpu.*.info=true"));
        idlegpu.setProcessEnvironment(env);
        idlegpu.setProcessChannelMode(QProcess::MergedChannels);
        idlegpu.start();
        QVERIFY(idlegpu.waitForStarted());
        auto stopIdlegpu = qScopeGuard([&idlegpu] {
            if (idlegpu.state() != QProcess::NotRunning) {
                ::kill(pid_t(idlegpu.processId()), SIGTERM);
                idlegpu.waitForFinished(15000);
            }
        });
        QTRY_COMPARE_WITH_TIMEOUT(readLines(path(QStringLiteral("other.pids"))).size(), 1, 8000);
        QTRY_COMPARE_WITH_TIMEOUT(readLines(path(QStringLiteral("pids"))).size(), 1, 8000);
        const QByteArray otherPid = readLines(path(QStringLiteral("other.pids"))).first().toUtf8();

        QByteArray log;
        ::kill(pid_t(idlegpu.processId()), SIGHUP);
        QTRY_VERIFY_WITH_TIMEOUT((log += idlegpu.readAll()).contains("SIGHUP: reloading the configuration"), 5000);
        QTest::qWait(300);
        QCOMPARE(readLines(path(QStringLiteral("pids"))).size(), 1); // an unchanged file changes nothing

        // Remove process-0 from the file: after the reload it is stopped, process-other goes on.
        writeConfig(defaults(0) + otherSection());
        ::kill(pid_t(idlegpu.processId()), SIGHUP);
        const qint64 workloadPid = readLines(path(QStringLiteral("pids"))).first().toLongLong();
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(workloadPid), 8000);
        QVERIFY(processAlive(otherPid.toLongLong()));
        QCOMPARE(readLines(path(QStringLiteral("other.pids"))).size(), 1);

        stopIdlegpu.dismiss();
        ::kill(pid_t(idlegpu.processId()), SIGTERM);
        QVERIFY(idlegpu.waitForFinished(15000));
        log += idlegpu.readAll();
        QVERIFY2(idlegpu.exitStatus() == QProcess::NormalExit && idlegpu.exitCode() == 0, log.constData());
    }
};

QTEST_GUILESS_MAIN(TestFaults)
#include "tst_it_faults.moc"
