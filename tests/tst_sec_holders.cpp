// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The holder scan under attack by a user's own FUSE mount (issue 28, finding 3). A user's job holds a GPU (nvidiactl,
// nvidia-uvm and nvidiaN, as CUDA does) and one file on a FUSE mount of hers (sshfs, rclone, gvfs): root may not even
// stat that file without allow_other, and a daemon that stops answering blocks whoever does. The scan as root, the
// real Monitor and Slurm's prolog must all still see the job, without touching her file system; a process whose fds
// root itself is refused counts as a possible holder. A real user (TemporaryUser), a real FUSE mount (FuseMount), real
// processes and /proc on fake device nodes; they skip without root or FUSE.
#include "holders/holderscanner.h"
#include "monitorfixture.h"
#include "slurm/guardfile.h"

#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <atomic>
#include <condition_variable>
#include <mutex>
#include <thread>

#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace TestSupport;

namespace {

const QString kNode = QStringLiteral("ws0");

// What the monitor scans for on the two fake GPUs: nvidiactl, nvidia-uvm, nvidia0 and nvidia1.
QList<HolderScanner::Node> scannedNodes(const FakeDevRoot &dev)
{
    DeviceNodes devices;
    devices.sharedNodes = {dev.ctl(), dev.uvm()};
    devices.gpus = {GpuDevice{0, dev.node(0)}, GpuDevice{1, dev.node(1)}};
    return HolderScanner::nodesOf(devices);
}

const Holder *findHolder(const QList<Holder> &holders, qint64 pid)
{
    for (const Holder &holder : holders)
        if (holder.pid == pid)
            return &holder;
    return nullptr;
}

// The texts of /proc/<pid>/fd's links: what the process holds, read without following a link into its file system.
QStringList fdTexts(qint64 pid)
{
    QStringList texts;
    const QString folder = QStringLiteral("/proc/%1/fd").arg(pid);
    for (const QString &fd : QDir(folder).entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::System)) {
        char target[4096];
        const ssize_t length = ::readlink(QFile::encodeName(folder + QLatin1Char('/') + fd).constData(), target,
                                          sizeof target);
        if (length > 0)
            texts.append(QFile::decodeName(QByteArray(target, int(length))));
    }
    return texts;
}

// A job of `user` named python3 that opens `paths`, and `later` once openLater() is called: test_holdopen copied into
// the user's home (the build tree need not be reachable for her), run with her uid and gid in the child, so that the
// QProcess's pid is the holder's.
class UserJob
{
public:
    UserJob(const TemporaryUser &user, const QStringList &paths, const QStringList &later = {})
        : m_paths(paths), m_later(later)
    {
        const QString program = user.home() + QStringLiteral("/python3");
        QFile::remove(program);
        if (!QFile::copy(QStringLiteral(IDLEGPU_TEST_HOLDOPEN), program)
            || ::chown(QFile::encodeName(program).constData(), uid_t(user.uid()), gid_t(user.gid())) != 0
            || ::chmod(QFile::encodeName(program).constData(), 0755) != 0)
            qFatal("cannot copy test_holdopen to %s", qPrintable(program));
        const uid_t uid = uid_t(user.uid());
        const gid_t gid = gid_t(user.gid());
        m_process.setChildProcessModifier([uid, gid] {
            if (::setgroups(0, nullptr) != 0 || ::setgid(gid) != 0 || ::setuid(uid) != 0)
                ::_exit(126);
        });
        m_process.setWorkingDirectory(user.home());
        m_process.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_process.setProgram(program);
        m_process.setArguments(later.isEmpty() ? paths
                                               : paths + QStringList{QStringLiteral("--then-on-input")} + later);
        m_process.start();
    }
    ~UserJob()
    {
        m_process.kill();
        m_process.waitForFinished(5000);
    }
    qint64 pid() const { return m_process.processId(); }
    // True once /proc/<pid>/fd names every path opened so far (each as given: the tests give canonical paths).
    bool waitUntilOpen(int timeoutMs = 5000) const
    {
        QElapsedTimer timer;
        timer.start();
        while (timer.elapsed() < timeoutMs) {
            const QStringList held = fdTexts(pid());
            if (std::all_of(m_paths.cbegin(), m_paths.cend(),
                            [&held](const QString &path) { return held.contains(path); }))
                return true;
            QThread::msleep(5);
        }
        return false;
    }
    void openLater()
    {
        m_process.write("\n");
        m_process.waitForBytesWritten(5000);
        m_paths += m_later;
        m_later.clear();
    }

private:
    QProcess m_process;
    QStringList m_paths;
    QStringList m_later;
};

// The daemon of the FUSE mount at `mountPoint`: test_fusefile, whose first argument it is.
pid_t fuseDaemonOf(const QString &mountPoint)
{
    const QByteArray wanted = QByteArray(IDLEGPU_TEST_FUSEFILE) + '\0' + QFile::encodeName(mountPoint) + '\0';
    for (const QString &entry : QDir(QStringLiteral("/proc")).entryList(QDir::Dirs)) {
        QFile cmdline(QStringLiteral("/proc/%1/cmdline").arg(entry));
        if (cmdline.open(QIODevice::ReadOnly) && cmdline.readAll().startsWith(wanted))
            return pid_t(entry.toLongLong());
    }
    return 0;
}

// Ends a hung FUSE daemon (SIGKILL: whatever waits on its mount then fails with ENOTCONN) once `timeoutMs` have passed
// before it is destroyed: a scan that blocks in the user's file system then returns, and the test fails on fired()
// instead of hanging until ctest's time-out.
class HangGuard
{
public:
    HangGuard(pid_t daemon, int timeoutMs)
        : m_thread([this, daemon, timeoutMs] {
              std::unique_lock<std::mutex> lock(m_mutex);
              if (!m_done.wait_for(lock, std::chrono::milliseconds(timeoutMs), [this] { return m_finished; })) {
                  m_fired = true;
                  ::kill(daemon, SIGKILL);
              }
          })
    {
    }
    ~HangGuard() { finish(); }
    // Stops the guard; true when it had to end the daemon.
    bool finish()
    {
        {
            const std::lock_guard<std::mutex> lock(m_mutex);
            m_finished = true;
        }
        m_done.notify_all();
        if (m_thread.joinable())
            m_thread.join();
        return m_fired;
    }

private:
    std::mutex m_mutex;
    std::condition_variable m_done;
    bool m_finished = false;
    std::atomic<bool> m_fired{false};
    std::thread m_thread;
};

// The attacker: a second user and a FUSE mount of hers, as sshfs makes one (allow_other or not), and the fake GPUs
// where she can open them (FakeDevRoot's folder is 0700). skipReason() says why there is none where the host cannot
// make them (not root, no FUSE): the test then QSKIPs.
class Attack
{
public:
    Attack(const FakeDevRoot &dev, bool allowOther)
    {
        if (!m_user.valid()) {
            m_skipReason = m_user.skipReason();
            return;
        }
        FuseMount::Options options;
        options.allowOther = allowOther;
        m_fuse = std::make_unique<FuseMount>(m_user.uid(), m_user.gid(), options);
        if (!m_fuse->valid()) {
            m_skipReason = m_fuse->skipReason();
            return;
        }
        m_daemon = fuseDaemonOf(m_fuse->path());
        if (m_daemon <= 0 || ::chmod(QFile::encodeName(dev.path()).constData(), 0755) != 0)
            m_skipReason = QStringLiteral("cannot find the FUSE daemon or open the fake GPUs to the user");
    }
    QString skipReason() const { return m_skipReason; }
    const TemporaryUser &user() const { return m_user; }
    FuseMount &fuse() { return *m_fuse; }
    pid_t daemon() const { return m_daemon; }

private:
    TemporaryUser m_user;
    std::unique_ptr<FuseMount> m_fuse; // ended before the user goes
    pid_t m_daemon = 0;
    QString m_skipReason;
};

// A heartbeat of this process as the running idlegpu, with the fake GPUs 0 and 1 of `dev`, written into `folder`.
bool writeHeartbeat(const QString &folder, const FakeDevRoot &dev, const QString &procRoot = QStringLiteral("/proc"))
{
    SlurmGuard::Heartbeat heartbeat = SlurmGuard::selfHeartbeat(procRoot);
    heartbeat.node = kNode;
    heartbeat.partition = QStringLiteral("owner");
    heartbeat.gpus = {{0, dev.node(0), true, {}}, {1, dev.node(1), true, {}}};
    heartbeat.monotonicMs = SystemClock::instance()->nowMs();
    heartbeat.writtenAt = QStringLiteral("2026-12-02T06:00:00.000Z");
    return SlurmGuard::GuardFile(folder).write(heartbeat);
}

// Slurm's prolog for a lab job (id 12, partition scavenger) on `gpus` of this node: the reason it refuses the job
// with, empty when the job may run; a drain's reason starts with "drain: ".
QString prologRefusal(const QString &folder, const QList<int> &gpus, const QString &procRoot = QStringLiteral("/proc"))
{
    SlurmGuard::PrologJob job;
    job.id = 12;
    job.partition = QStringLiteral("scavenger");
    job.gresPositions = gpus;
    const SlurmGuard::PrologVerdict verdict = SlurmGuard::prologVerdict(
        SlurmGuard::read(folder, kNode, ::geteuid()), job, kNode, procRoot, SystemClock::instance()->nowMs(),
        QStringLiteral("owner"));
    return verdict.action == SlurmGuard::PrologVerdict::Action::Drain ? QStringLiteral("drain: ") + verdict.reason
                                                                      : verdict.reason;
}

} // namespace

class TestSecHolders : public QObject, private MonitorFixture
{
    Q_OBJECT

    int gpuState(int gpu) const
    {
        const GpuStatus *status = m_monitor->state().decision.gpu(gpu);
        return status ? int(status->state) : -1;
    }

    // The Monitor with a workload on GPU 1 (a sleeper), running.
    void startWorkloadOnGpu1(const MonitorPaths &paths = MonitorPaths())
    {
        makeMonitor(writeConfig(defaults(0) + sleeperSection(QStringLiteral("1"), QStringLiteral("1"))), paths);
        QVERIFY(m_monitor->start());
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-1")), WorkloadRuntime::Running, 5000);
    }

private Q_SLOTS:
    void init() { setUpMonitorFixture(2); }
    void cleanup() { QVERIFY(tearDownMonitorFixture()); }

    // (1) The scan as root: the job is reported, with the GPU it holds, though root may not stat one of its files.
    void fuseFdDoesNotHideTheJobFromTheScan()
    {
        Attack attack(*m_dev, false);
        if (!attack.skipReason().isEmpty())
            QSKIP(qPrintable(attack.skipReason()));
        FuseMount &fuse = attack.fuse();
        UserJob job(attack.user(), m_dev->computeJob(1) + QStringList{fuse.file()});
        QVERIFY(job.waitUntilOpen());
        struct stat st;
        QVERIFY2(::stat(QFile::encodeName(fuse.file()).constData(), &st) != 0 && errno == EACCES,
                 "the user's FUSE mount should refuse root, as sshfs's does");

        const HolderScanner::Result result = HolderScanner().scan(scannedNodes(*m_dev));
        const Holder *holder = findHolder(result.holders, job.pid());
        QVERIFY2(holder, "a job with one fd on its user's FUSE file was not reported");
        QCOMPARE(holder->gpus, QList<int>{1});
        QVERIFY(holder->holdsComputeNode);
        QVERIFY(!holder->hidden);
        QCOMPARE(holder->uid, uint(attack.user().uid()));
        QCOMPARE(holder->comm, QStringLiteral("python3"));
        QCOMPARE(result.visibleFdsByNode.value(m_dev->node(1)), 1);
    }

    // (2) The real Monitor as root: the job opens GPU 1 where a workload runs, and the workload stops.
    void fuseFdDoesNotHideTheJobFromTheMonitor()
    {
        Attack attack(*m_dev, false);
        if (!attack.skipReason().isEmpty())
            QSKIP(qPrintable(attack.skipReason()));
        FuseMount &fuse = attack.fuse();
        startWorkloadOnGpu1();
        if (QTest::currentTestFailed())
            return;

        UserJob job(attack.user(), {fuse.file()}, m_dev->computeJob(1));
        QVERIFY(job.waitUntilOpen());
        job.openLater();
        QVERIFY(job.waitUntilOpen());
        QTRY_VERIFY2_WITH_TIMEOUT(stateOf(QStringLiteral("process-1")) != WorkloadRuntime::Running,
                                  "the workload kept GPU 1 while a job with an fd on a FUSE file held it", 5000);
        QCOMPARE(m_preempted->count(), 1);
        const auto event = m_preempted->first().first().value<PreemptionEvent>();
        QCOMPARE(event.culprit.pid, job.pid());
        QCOMPARE(event.gpu, 1);
    }

    // (3) Slurm's prolog as root: a lab job on the GPU the user's job holds is refused.
    void fuseFdDoesNotHideTheJobFromTheProlog()
    {
        Attack attack(*m_dev, false);
        if (!attack.skipReason().isEmpty())
            QSKIP(qPrintable(attack.skipReason()));
        FuseMount &fuse = attack.fuse();
        QVERIFY(writeHeartbeat(m_dir->path(), *m_dev));
        QCOMPARE(prologRefusal(m_dir->path(), {1}), QString());
        UserJob job(attack.user(), m_dev->computeJob(1) + QStringList{fuse.file()});
        QVERIFY(job.waitUntilOpen());
        QCOMPARE(prologRefusal(m_dir->path(), {1}),
                 QStringLiteral("idlegpu: GPU 1 of ws0 is in use by pid %1 (python3)").arg(job.pid()));
        QCOMPARE(prologRefusal(m_dir->path(), {0}), QString());
    }

    // A daemon that answers nothing (allow_other, so root may look): the scan and the prolog finish and still see the
    // job. Before, the scan's stat through /proc/<pid>/fd waited on the daemon for good.
    void hungFuseDaemonBlocksNeitherScanNorProlog()
    {
        Attack attack(*m_dev, true);
        if (!attack.skipReason().isEmpty())
            QSKIP(qPrintable(attack.skipReason()));
        FuseMount &fuse = attack.fuse();
        QVERIFY(writeHeartbeat(m_dir->path(), *m_dev));
        UserJob job(attack.user(), m_dev->computeJob(1) + QStringList{fuse.file()});
        QVERIFY(job.waitUntilOpen());
        fuse.hangAll();

        HangGuard guard(attack.daemon(), 10'000);
        const HolderScanner::Result result = HolderScanner().scan(scannedNodes(*m_dev));
        const QString refusal = prologRefusal(m_dir->path(), {1});
        QVERIFY2(!guard.finish(), "the scan waited on the user's hung FUSE daemon");
        const Holder *holder = findHolder(result.holders, job.pid());
        QVERIFY(holder);
        QCOMPARE(holder->gpus, QList<int>{1});
        QCOMPARE(refusal, QStringLiteral("idlegpu: GPU 1 of ws0 is in use by pid %1 (python3)").arg(job.pid()));

        // The attack was live: root's own stat of the file waits on the daemon (until this guard ends it).
        HangGuard statGuard(attack.daemon(), 300);
        struct stat st;
        ::stat(QFile::encodeName(fuse.file()).constData(), &st);
        QVERIFY2(statGuard.finish(), "the FUSE daemon answered: the test did not make it hang");
    }

    // The same with the real Monitor: the job opens its GPU after the daemon hangs; the workload stops, and the
    // monitor's thread (this one) never waits on the daemon.
    void hungFuseDaemonDoesNotBlockTheMonitor()
    {
        Attack attack(*m_dev, true);
        if (!attack.skipReason().isEmpty())
            QSKIP(qPrintable(attack.skipReason()));
        FuseMount &fuse = attack.fuse();
        startWorkloadOnGpu1();
        if (QTest::currentTestFailed())
            return;
        UserJob job(attack.user(), {fuse.file()}, m_dev->computeJob(1));
        QVERIFY(job.waitUntilOpen());
        fuse.hangAll();

        HangGuard guard(attack.daemon(), 10'000);
        job.openLater();
        QTRY_VERIFY_WITH_TIMEOUT(stateOf(QStringLiteral("process-1")) != WorkloadRuntime::Running, 15000);
        QVERIFY2(!guard.finish(), "the monitor's scan waited on the user's hung FUSE daemon");
        QCOMPARE(m_preempted->count(), 1);
        QCOMPARE(m_preempted->first().first().value<PreemptionEvent>().culprit.pid, job.pid());
    }

    // A process whose fds the kernel refuses even to root (here a fake proc root whose <pid>/fd is another user's FUSE
    // mount; on a real machine an LSM's) is counted as refused; one whose fd folder is only damaged is unreadable, not
    // refused, and so is an ancestor of the scanning process (the manager of the sandbox or container it runs in).
    void refusedProcessesAreCounted()
    {
        Attack attack(*m_dev, false);
        if (!attack.skipReason().isEmpty())
            QSKIP(qPrintable(attack.skipReason()));
        FuseMount &fuse = attack.fuse();
        FakeProc proc;
        addRefusedProcess(proc, fuse, 4242);
        proc.add({4300, 1, 4300, 4300, "visible", "visible", {}, {m_dev->node(0)}});
        proc.add({4301, 1, 4301, 4301, "bystander", "bystander", {}, {QStringLiteral("/dev/null")}});
        QDir().mkpath(proc.pidDir(4302));
        writeFile(proc.pidDir(4302) + QStringLiteral("/fd"), "not a folder");
        proc.add({::getpid(), 4400, 4400, 4400, "scanner", "scanner", {}, {}});
        addRefusedProcess(proc, fuse, 4400);

        const HolderScanner::Result result = HolderScanner(proc.path()).scan(scannedNodes(*m_dev));
        QCOMPARE(result.unreadableProcesses, 3);
        QCOMPARE(result.refusedProcesses, 1);
        QCOMPARE(result.scannedProcesses, 3);
        QCOMPARE(result.holders.size(), 1);
        QCOMPARE(result.holders.first().pid, qint64(4300));
    }

    // Fail closed as root: where a process is refused to root, an open of a GPU that no visible process explains is
    // that process's, as another user's is to a non-root idlegpu. The root Monitor (no inference asked for) stops the
    // workload on the GPU. Before, root never inferred: the refused process held the GPU unseen.
    void openByARefusedProcessStopsTheWorkload()
    {
        Attack attack(*m_dev, false);
        if (!attack.skipReason().isEmpty())
            QSKIP(qPrintable(attack.skipReason()));
        FuseMount &fuse = attack.fuse();
        FakeProc proc;
        addRefusedProcess(proc, fuse, 4242);
        MonitorPaths paths;
        paths.procRoot = proc.path();
        startWorkloadOnGpu1(paths);
        if (QTest::currentTestFailed())
            return;

        // The refused process's open, as the kernel reports it: this test's own, which no process of the proc root
        // shows.
        QFile unseenJob(m_dev->node(1));
        QVERIFY(unseenJob.open(QIODevice::ReadOnly));
        QTRY_VERIFY2_WITH_TIMEOUT(stateOf(QStringLiteral("process-1")) != WorkloadRuntime::Running,
                                  "an open of GPU 1 by a process root may not read left the workload running", 5000);
        QCOMPARE(gpuState(1), int(GpuState::Busy));
        const GpuStatus *status = m_monitor->state().decision.gpu(1);
        QVERIFY(status && !status->foreignHolders.isEmpty());
        QVERIFY(status->foreignHolders.first().hidden);
        QCOMPARE(gpuState(0), int(GpuState::Idle));
    }

private:
    // <pid> in `proc` named "secret", whose fd folder is `fuse`'s mount point: opening it is refused to root.
    static void addRefusedProcess(FakeProc &proc, const FuseMount &fuse, qint64 pid)
    {
        FakeProc::Process secret;
        secret.pid = pid;
        secret.sid = pid;
        secret.pgid = pid;
        secret.comm = "secret";
        secret.uid = 0;
        proc.add(secret);
        QVERIFY(QDir(proc.pidDir(pid) + QStringLiteral("/fd")).removeRecursively());
        QVERIFY(QFile::link(fuse.path(), proc.pidDir(pid) + QStringLiteral("/fd")));
        const int fd = ::open(QFile::encodeName(proc.pidDir(pid) + QStringLiteral("/fd")).constData(),
                              O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        QVERIFY2(fd < 0 && errno == EACCES, "the user's FUSE mount should refuse root, as sshfs's does");
    }
};

QTEST_GUILESS_MAIN(TestSecHolders)
#include "tst_sec_holders.moc"
