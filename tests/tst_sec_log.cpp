// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// A workload's log= on its user's FUSE mount, whose daemon never answers a write (issue 28, finding 1): alice points
// log= at a file of her own FUSE mount (fusermount3 is setuid wherever fuse3 is installed) and her daemon leaves
// every write unanswered. Whoever writes that file sleeps in the kernel for good, beyond SIGKILL. When that was
// root's monitor thread, another user's open of the GPU stopped nothing, and neither SIGTERM nor SIGKILL ended idlegpu.
// Here, with a workload that prints all the time:
//  - the monitor still answers: a foreign open of the GPU stops the workload, whose processes end, and the monitor's
//    shutdown completes; the log writer, alice's own process, is what stays stuck;
//  - a control command with that log= still runs, lends, and is taken back;
//  - the real binary (idlegpu --headless, as root) exits on SIGTERM within the workload's stop timeout.
// A watchdog (or the test itself, for the real binary) ends the FUSE daemon where idlegpu is stuck, which fails the
// waiting write and lets the test end with a failure instead of hanging in the kernel with it.
// Each needs root (a second user, a FUSE mount made by hand) and skips with the reason where that is not given.
#include "monitorfixture.h"
#include "run/controlcommandrunner.h"
#include "run/processrunner.h"

#include <QDir>
#include <QElapsedTimer>
#include <QRegularExpression>
#include <QtTest>

#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include <signal.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

using namespace TestSupport;

namespace {

const QString kWorkload = QStringLiteral("process-0");

// The pids of `uid`'s log writers (idlegpu-log) that sit in write(2) now: on a file whose daemon never answers, for
// good.
QList<qint64> blockedWriters(int uid)
{
    QList<qint64> found;
    const QStringList entries = QDir(QStringLiteral("/proc")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &entry : entries) {
        bool isPid = false;
        const qint64 pid = entry.toLongLong(&isPid);
        if (!isPid || readFileOrEmpty(QStringLiteral("/proc/%1/comm").arg(pid)).trimmed() != "idlegpu-log")
            continue;
        const QByteArray status = readFileOrEmpty(QStringLiteral("/proc/%1/status").arg(pid));
        // /proc/<pid>/syscall: the number of the system call it is blocked in, then its arguments.
        const QByteArray syscall = readFileOrEmpty(QStringLiteral("/proc/%1/syscall").arg(pid));
        if (status.contains("\nUid:\t" + QByteArray::number(uid) + '\t')
            && syscall.startsWith(QByteArray::number(SYS_write) + ' '))
            found.append(pid);
    }
    return found;
}

// Ends the FUSE daemon `daemonPid` if `done` is not set within `seconds`, from a thread of its own: the test's own
// thread may be the one stuck on the file. hadToRelease() says whether it had to.
class FuseWatchdog
{
public:
    FuseWatchdog(qint64 daemonPid, int seconds)
        : m_thread([this, daemonPid, seconds] {
              const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(seconds);
              while (!m_done && std::chrono::steady_clock::now() < deadline)
                  std::this_thread::sleep_for(std::chrono::milliseconds(20));
              if (!m_done) {
                  m_released = true;
                  ::kill(pid_t(daemonPid), SIGTERM);
              }
          })
    {
    }
    ~FuseWatchdog() { finish(); }
    // True when it had to end the daemon.
    bool finish()
    {
        m_done = true;
        if (m_thread.joinable())
            m_thread.join();
        return m_released;
    }

private:
    std::atomic<bool> m_done{false};
    std::atomic<bool> m_released{false};
    std::thread m_thread;
};

} // namespace

class TestSecLog : public QObject, private MonitorFixture
{
    Q_OBJECT

    std::unique_ptr<TemporaryUser> m_alice;
    std::unique_ptr<FuseMount> m_fuse;

    QString aliceFile(const QString &name) const { return m_alice->home() + QLatin1Char('/') + name; }

    // alice's workload: writes its pid, then prints a line every 10 ms for as long as it runs.
    QString printingCommand() const
    {
        return QStringLiteral("sh -c 'echo $$ > %1; i=0; while :; do i=$((i+1)); echo printing line $i; sleep 0.01; "
                              "done'")
            .arg(aliceFile(QStringLiteral("w.pid")));
    }

private Q_SLOTS:
    void init()
    {
        m_alice = std::make_unique<TemporaryUser>();
        if (!m_alice->valid())
            QSKIP(qPrintable(m_alice->skipReason()));
        m_fuse = std::make_unique<FuseMount>(m_alice->uid(), m_alice->gid(), FuseMount::Options{.hangWrites = true});
        if (!m_fuse->valid())
            QSKIP(qPrintable(m_fuse->skipReason()));
        // The attack is real: as alice, a write to her file blocks (her daemon never answers), and she may open it.
        QCOMPARE(m_alice->run(QStringLiteral("test -w '%1'").arg(m_fuse->file())), 0);
        setUpMonitorFixture(1);
    }

    void cleanup()
    {
        (void)tearDownMonitorFixture();
        m_fuse.reset(); // its daemon ends: a writer still waiting on it fails, and ends
        m_alice.reset();
    }

    // The monitor on alice's workload, log= her hanging file: the workload runs, its writer sticks on the file, and a
    // foreign open of the GPU still stops it; the monitor's shutdown completes.
    void stuckLogStillPreempts()
    {
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("^the log writer of 0 \\(pid \\d+\\) is "
                                                                             "stuck writing ")));
        FuseWatchdog watchdog(m_fuse->daemonPid(), 30);
        const QString config = writeConfig(defaults(0)
                                           + QStringLiteral("[%1]\ncmd=%2\ngpus=0\nuser=%3\nlog=%4\n"
                                                            "stop_timeout_seconds=5\n")
                                                 .arg(kWorkload, printingCommand(), m_alice->name(), m_fuse->file()));
        makeMonitor(config);
        QVERIFY(m_monitor->start());
        QTRY_VERIFY_WITH_TIMEOUT(pidFromFile(aliceFile(QStringLiteral("w.pid"))) > 0, 10000);
        const qint64 workload = pidFromFile(aliceFile(QStringLiteral("w.pid")));
        QCOMPARE(stateOf(kWorkload), WorkloadRuntime::Running);
        // Whoever writes her file waits in the kernel by now (checked below, once the watchdog has had its say).
        const bool writerStuck =
            QTest::qWaitFor([this] { return !blockedWriters(m_alice->uid()).isEmpty(); }, 10000);

        QElapsedTimer sincePreemption;
        sincePreemption.start();
        NodeHolder job(m_dev->computeJob(0));
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(workload), 10000);
        const qint64 endedMs = sincePreemption.elapsed();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(kWorkload), WorkloadRuntime::Stopped, 10000);
        qInfo("the foreign open ended the workload after %lld ms; it counted as stopped after %lld ms", endedMs,
              qint64(sincePreemption.elapsed()));
        QCOMPARE(m_preempted->count(), 1);
        QVERIFY2(stopMonitor(), "the monitor's shutdown completes");

        QVERIFY2(!watchdog.finish(), "idlegpu was stuck on alice's log file: the watchdog had to end her FUSE daemon");
        // What waited on her file, and still does, is alice's own writer.
        QVERIFY(writerStuck);
        QVERIFY(!blockedWriters(m_alice->uid()).isEmpty());
    }

    // A control command (start_cmd, stop_cmd) with that log=: the runner lends the GPU and takes it back as usual.
    void stuckLogStillLendsAndTakesBack()
    {
        FuseWatchdog watchdog(m_fuse->daemonPid(), 30);
        ControlCommandRunner runner;
        WorkloadConfig config;
        config.id = QStringLiteral("service");
        config.name = config.id;
        config.user = m_alice->name();
        config.log = m_fuse->file();
        config.dir = m_alice->home();
        config.commandTimeoutSeconds = 20;
        const QString start = QStringLiteral("i=0; while [ $i -lt 100 ]; do i=$((i+1)); echo lending line $i; done; "
                                             "echo lent > lent");
        const QString stop = QStringLiteral("echo taking back; echo back > back");
        config.startCmd = QStringLiteral("sh -c '%1'").arg(start);
        config.startArgv = {QStringLiteral("sh"), QStringLiteral("-c"), start};
        config.stopCmd = QStringLiteral("sh -c '%1'").arg(stop);
        config.stopArgv = {QStringLiteral("sh"), QStringLiteral("-c"), stop};
        const auto runtime = [&runner, &config] { return runner.runtimes().value(config.id); };

        QVERIFY(runner.start(config, {0}, false));
        const bool writerStuck =
            QTest::qWaitFor([this] { return !blockedWriters(m_alice->uid()).isEmpty(); }, 10000);
        // Lent: start_cmd ended with 0, nothing of ours runs.
        const bool lent = QTest::qWaitFor(
            [&] { return runtime().state == WorkloadRuntime::Running && runtime().pid == 0; }, 10000);
        if (lent)
            runner.stop(config.id, QStringLiteral("test"));
        const bool stopped = QTest::qWaitFor([&] { return runtime().state == WorkloadRuntime::Stopped; }, 10000);
        QVERIFY2(!watchdog.finish(), "idlegpu was stuck on alice's log file: the watchdog had to end her FUSE daemon");
        QVERIFY(writerStuck);
        QVERIFY(lent);
        QVERIFY(QFile::exists(aliceFile(QStringLiteral("lent"))));
        QVERIFY(stopped);
        QVERIFY2(QFile::exists(aliceFile(QStringLiteral("back"))), "stop_cmd ran");
    }

    // The real binary, as root with that config: SIGTERM ends it within the workload's stop timeout (5 s here).
    void headlessExitsOnSigterm()
    {
        QTemporaryDir dir;
        const QString config = writeFile(dir.filePath(QStringLiteral("idlegpu.conf")),
                                         (defaults(0)
                                          + QStringLiteral("[%1]\ncmd=%2\ngpus=0\nuser=%3\nlog=%4\n"
                                                           "stop_timeout_seconds=5\n")
                                                .arg(kWorkload, printingCommand(), m_alice->name(), m_fuse->file()))
                                             .toUtf8());
        const std::unique_ptr<QProcess> idlegpu = startHeadless(config, dir.path());
        QVERIFY(idlegpu->waitForStarted());
        QTRY_VERIFY_WITH_TIMEOUT(pidFromFile(aliceFile(QStringLiteral("w.pid"))) > 0, 10000);
        const qint64 workload = pidFromFile(aliceFile(QStringLiteral("w.pid")));
        QTest::qWait(500); // it prints meanwhile; whoever writes the file is stuck on it by now

        QElapsedTimer sinceSigterm;
        sinceSigterm.start();
        ::kill(pid_t(idlegpu->processId()), SIGTERM);
        const bool exited = idlegpu->waitForFinished(5000 + 5000); // the stop timeout, and as much again
        const qint64 exitMs = sinceSigterm.elapsed();
        if (!exited) { // stuck in the kernel: only the end of the FUSE daemon lets it go on
            m_fuse.reset();
            idlegpu->waitForFinished(15000);
        }
        const QByteArray log = idlegpu->readAll();
        QVERIFY2(exited, qPrintable(QStringLiteral("idlegpu did not exit within 10 s of SIGTERM:\n")
                                    + QString::fromLocal8Bit(log)));
        qInfo("idlegpu exited %lld ms after SIGTERM", exitMs);
        QVERIFY2(idlegpu->exitStatus() == QProcess::NormalExit && idlegpu->exitCode() == 0, log.constData());
        QVERIFY(!processAlive(workload));
        QVERIFY2(log.contains("is stuck writing"), log.constData()); // it says what it left behind
    }
};

QTEST_GUILESS_MAIN(TestSecLog)
#include "tst_sec_log.moc"
