// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// A workload's start, attacked by a local user (alice) while root's idlegpu starts it:
//  - env= names alice's library (LD_PRELOAD, LD_LIBRARY_PATH to her folder): her code never runs as uid 0, since the
//    root reaper never sees the workload's environment; only her workload does (item 1);
//  - a `user = alice` workload gets a fresh environment (none of root's variables) and no descriptor of idlegpu's;
//    a workload without user= keeps idlegpu's environment but no descriptor either (item 11);
//  - log= is a FIFO of alice's: the start returns at once and fails with a message naming the FIFO; the runner
//    keeps working (item 4);
//  - a root workload's log= is a link alice planted to a 0600 file of root's: the file stays as it was (item 13).
// Each needs root (a second user, a workload run as that user) and skips with the reason where that is not given.
#include "run/processrunner.h"
#include "scopedenv.h"
#include "testsupport.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <memory>
#include <thread>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using TestSupport::ScopedEnv;
using TestSupport::TemporaryUser;

using TestSupport::pidFromFile;
using TestSupport::readFileOrEmpty;
using TestSupport::reaperPath;
using TestSupport::shellWorkload;

namespace {

// /proc/<pid>/environ as NAME -> VALUE.
QHash<QByteArray, QByteArray> environmentOf(qint64 pid)
{
    QHash<QByteArray, QByteArray> result;
    for (const QByteArray &entry : readFileOrEmpty(QStringLiteral("/proc/%1/environ").arg(pid)).split('\0')) {
        const qsizetype equals = entry.indexOf('=');
        if (equals > 0)
            result.insert(entry.left(equals), entry.mid(equals + 1));
    }
    return result;
}

QStringList openFdsOf(qint64 pid)
{
    QStringList fds = QDir(QStringLiteral("/proc/%1/fd").arg(pid)).entryList(QDir::NoDotAndDotDot | QDir::AllEntries);
    std::sort(fds.begin(), fds.end(), [](const QString &a, const QString &b) { return a.toInt() < b.toInt(); });
    return fds;
}

bool chownTo(const QString &path, const TemporaryUser &user)
{
    return ::lchown(QFile::encodeName(path).constData(), uid_t(user.uid()), gid_t(user.gid())) == 0;
}

// The PATH another user's workload gets (systemd's default for services), whatever idlegpu's own is.
constexpr char kExpectedLoginPath[] = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

} // namespace

class TestSecWorkload : public QObject
{
    Q_OBJECT

    FakeClock m_clock;
    std::unique_ptr<TemporaryUser> m_alice;

    static WorkloadRuntime::State stateOf(const ProcessRunner &runner, const QString &id)
    {
        return runner.runtimes().value(id).state;
    }

    // Cleanup, also after a failure: stops what runs and waits for it, so that the user can be removed.
    static void stopAll(ProcessRunner &runner)
    {
        runner.stopAll(QStringLiteral("test over"));
        (void)QTest::qWaitFor(
            [&runner] {
                const auto runtimes = runner.runtimes();
                return std::none_of(runtimes.cbegin(), runtimes.cend(),
                                    [](const WorkloadRuntime &runtime) { return runtime.occupiesGpus(); });
            },
            10000);
    }

    QString aliceHome() const { return m_alice->home(); }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(reaperPath()).isExecutable(), qPrintable(reaperPath()));
        m_alice = std::make_unique<TemporaryUser>();
        if (!m_alice->valid())
            QSKIP(qPrintable(m_alice->skipReason()));
    }

    void cleanupTestCase() { m_alice.reset(); }

    // Item 1. A root config runs alice's workload with env= naming her library (LD_PRELOAD) and her folder
    // (LD_LIBRARY_PATH): the library may load in her workload, as her, and nowhere as root. The root reaper's own
    // environment and command line hold none of the workload's variables (nor its token).
    void usersLibraryNeverRunsAsRoot()
    {
        const QString libraries = aliceHome() + QStringLiteral("/cuda/lib64");
        QCOMPARE(m_alice->run(QStringLiteral("mkdir -p cuda/lib64")), 0);
        const QString library = libraries + QStringLiteral("/libalice.so");
        QVERIFY(QFile::copy(QStringLiteral(IDLEGPU_TEST_UIDRECORDER), library));
        QVERIFY(chownTo(library, *m_alice));
        const QString uids = TestSupport::writeFile(library + QStringLiteral(".uids"), QByteArray());
        QVERIFY(QFile::setPermissions(uids, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup
                                                | QFileDevice::WriteGroup | QFileDevice::ReadOther
                                                | QFileDevice::WriteOther));

        WorkloadConfig config = shellWorkload(QStringLiteral("w"), QStringLiteral("echo $$ > w.pid; exec sleep 300"),
                                              aliceHome());
        config.user = m_alice->name();
        config.env = {{QStringLiteral("LD_PRELOAD"), library},
                      {QStringLiteral("LD_LIBRARY_PATH"), libraries},
                      {QStringLiteral("MINER_TOKEN"), QStringLiteral("t0ken-of-the-workload")}};
        ProcessRunner runner(&m_clock, reaperPath());
        QVERIFY(runner.start(config, {0}, false));
        const QString pidFile = aliceHome() + QStringLiteral("/w.pid");
        QTRY_VERIFY_WITH_TIMEOUT(pidFromFile(pidFile) > 0, 5000);
        const qint64 workload = pidFromFile(pidFile);
        const qint64 reaper = runner.runtimes().value(QStringLiteral("w")).pid;
        QVERIFY(reaper > 0);
        const auto stop = qScopeGuard([&] { stopAll(runner); });

        // The workload has its environment, and loaded the library as alice.
        const auto workloadEnvironment = environmentOf(workload);
        QCOMPARE(workloadEnvironment.value("LD_PRELOAD"), library.toLocal8Bit());
        QCOMPARE(workloadEnvironment.value("MINER_TOKEN"), QByteArray("t0ken-of-the-workload"));
        QTRY_VERIFY_WITH_TIMEOUT(!readFileOrEmpty(uids).isEmpty(), 5000);
        const QByteArray alice = QByteArray::number(m_alice->uid());
        for (const QByteArray &line : readFileOrEmpty(uids).trimmed().split('\n')) {
            const QString who = QStringLiteral("loaded by uids %1, not only by %2")
                                    .arg(QString::fromUtf8(line), QString::fromUtf8(alice));
            QVERIFY2(line == alice + ' ' + alice, qPrintable(who));
        }

        // The root reaper: none of it.
        QVERIFY(readFileOrEmpty(QStringLiteral("/proc/%1/status").arg(reaper)).contains("\nUid:\t0\t0\t0\t0\n"));
        const auto reaperEnvironment = environmentOf(reaper);
        for (const QByteArray &name :
             {QByteArray("LD_PRELOAD"), QByteArray("LD_LIBRARY_PATH"), QByteArray("MINER_TOKEN")})
            QVERIFY2(!reaperEnvironment.contains(name), name.constData());
        QVERIFY(!readFileOrEmpty(QStringLiteral("/proc/%1/cmdline").arg(reaper)).contains("t0ken"));
    }

    // Item 11. idlegpu's own environment holds a secret and it holds a descriptor without close-on-exec: alice's
    // workload gets neither (HOME, USER and PATH are hers, as runuser -l makes them). A root workload without user=
    // keeps idlegpu's environment, as gpu_mon's did, but gets no descriptor either.
    void workloadGetsNoneOfIdlegpusEnvironmentOrFiles_data()
    {
        QTest::addColumn<bool>("asAlice");
        QTest::newRow("user = alice") << true;
        QTest::newRow("no user: root") << false;
    }

    void workloadGetsNoneOfIdlegpusEnvironmentOrFiles()
    {
        QFETCH(bool, asAlice);
        const ScopedEnv secret("FOO_SECRET", "root's own secret");
        const ScopedEnv path("PATH", "/root/bin:/usr/bin:/bin"); // root's own PATH, with a folder of root's
        const int inheritable = ::open("/etc/hostname", O_RDONLY); // no O_CLOEXEC: every child inherits it
        QVERIFY(inheritable > 2);
        const auto closeInheritable = qScopeGuard([inheritable] { ::close(inheritable); });

        WorkloadConfig config = shellWorkload(QStringLiteral("w"), QStringLiteral("echo $$ > w.pid; exec sleep 300"),
                                              aliceHome());
        if (asAlice)
            config.user = m_alice->name();
        config.env = {{QStringLiteral("MINER_POOL"), QStringLiteral("pool.example:3333")}};
        QFile::remove(aliceHome() + QStringLiteral("/w.pid"));
        ProcessRunner runner(&m_clock, reaperPath());
        QVERIFY(runner.start(config, {1}, false));
        const QString pidFile = aliceHome() + QStringLiteral("/w.pid");
        QTRY_VERIFY_WITH_TIMEOUT(pidFromFile(pidFile) > 0, 5000);
        const qint64 workload = pidFromFile(pidFile);
        const auto stop = qScopeGuard([&] { stopAll(runner); });

        const auto environment = environmentOf(workload);
        QCOMPARE(environment.value("MINER_POOL"), QByteArray("pool.example:3333"));
        QCOMPARE(environment.value("CUDA_VISIBLE_DEVICES"), QByteArray("1"));
        if (asAlice) {
            QVERIFY2(!environment.contains("FOO_SECRET"), environment.value("FOO_SECRET").constData());
            QCOMPARE(environment.value("HOME"), aliceHome().toLocal8Bit());
            QCOMPARE(environment.value("USER"), m_alice->name().toLocal8Bit());
            QCOMPARE(environment.value("LOGNAME"), m_alice->name().toLocal8Bit());
            QCOMPARE(environment.value("PATH"), QByteArray(kExpectedLoginPath));
        } else {
            QCOMPARE(environment.value("FOO_SECRET"), QByteArray("root's own secret"));
            QCOMPARE(environment.value("PATH"), QByteArray("/root/bin:/usr/bin:/bin"));
            QCOMPARE(environment.value("HOME"), qgetenv("HOME"));
        }
        QCOMPARE(openFdsOf(workload), (QStringList{"0", "1", "2"}));
    }

    // Item 4. log= is a FIFO alice made: the start must not wait for a reader (it hung root's monitor for 10 min).
    // A watchdog thread opens the FIFO for reading after 10 s, which would let a blocked start go on, and says
    // whether it had to. The start then fails with a message naming the FIFO, and the runner starts the next
    // workload as before.
    void fifoLogNeverBlocksTheStart()
    {
        QCOMPARE(m_alice->run(QStringLiteral("rm -f a.log; mkfifo a.log")), 0);
        const QString fifo = aliceHome() + QStringLiteral("/a.log");
        WorkloadConfig config = shellWorkload(QStringLiteral("w"), QStringLiteral("echo ran > ran; exec sleep 300"),
                                              aliceHome());
        config.user = m_alice->name();
        config.log = fifo;
        int reader = -1; // closed after the runner is gone: a start that blocked and was let go writes into it
        const auto closeReader = qScopeGuard([&reader] {
            if (reader >= 0)
                ::close(reader);
        });
        ProcessRunner runner(&m_clock, reaperPath());

        std::atomic<bool> returned{false};
        bool hadToRelease = false;
        std::thread watchdog([&] {
            const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(10);
            while (!returned && std::chrono::steady_clock::now() < deadline)
                std::this_thread::sleep_for(std::chrono::milliseconds(20));
            if (!returned) {
                hadToRelease = true;
                reader = ::open(QFile::encodeName(fifo).constData(), O_RDONLY | O_NONBLOCK | O_CLOEXEC);
            }
        });
        runner.start(config, {0}, false);
        returned = true;
        watchdog.join();
        QVERIFY2(!hadToRelease, "the start waited for a reader of the FIFO");

        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, QStringLiteral("w")), WorkloadRuntime::BackingOff, 5000);
        const QString lastExit = runner.runtimes().value(QStringLiteral("w")).lastExit;
        QVERIFY2(lastExit.startsWith(QStringLiteral("cannot open log file %1: ").arg(fifo))
                     && lastExit.contains(QStringLiteral("FIFO")),
                 qPrintable(lastExit));
        QVERIFY(!QFile::exists(aliceHome() + QStringLiteral("/ran"))); // not run unlogged

        // The runner goes on: the next workload starts and stops as usual.
        WorkloadConfig next = shellWorkload(QStringLiteral("next"), QStringLiteral("exec sleep 300"), aliceHome());
        next.user = m_alice->name();
        QVERIFY(runner.start(next, {1}, false));
        QCOMPARE(stateOf(runner, QStringLiteral("next")), WorkloadRuntime::Running);
        runner.stop(QStringLiteral("next"), QStringLiteral("a foreign process opened GPU 1"));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, QStringLiteral("next")), WorkloadRuntime::Stopped, 5000);
    }

    // Item 13. A root workload (no user=) logs into alice's folder, where alice replaced the log by a link to a 0600
    // file of root's: the link is not followed, the file stays as it was, and the start fails naming the link.
    void rootLogThroughALinkIsRefused()
    {
        QTemporaryDir rootOnly; // root's, 0700
        QVERIFY(rootOnly.isValid());
        const QString secret = TestSupport::writeFile(rootOnly.filePath(QStringLiteral("secret")), "root's secret\n");
        QVERIFY(QFile::setPermissions(secret, QFileDevice::ReadOwner | QFileDevice::WriteOwner));
        const QString log = aliceHome() + QStringLiteral("/w.log");
        QCOMPARE(m_alice->run(QStringLiteral("rm -f w.log; ln -s '%1' w.log").arg(secret)), 0);

        WorkloadConfig config = shellWorkload(
            QStringLiteral("w"), QStringLiteral("echo workload output; exec sleep 300"), rootOnly.path());
        config.log = log;
        ProcessRunner runner(&m_clock, reaperPath());
        runner.start(config, {0}, false);
        // Checked below, after the file: on a start that followed the link, the file tells what went wrong.
        (void)QTest::qWaitFor([&] { return stateOf(runner, QStringLiteral("w")) != WorkloadRuntime::Running; }, 5000);
        const auto stop = qScopeGuard([&] { stopAll(runner); });
        QCOMPARE(readFileOrEmpty(secret), QByteArray("root's secret\n"));
        struct stat info {};
        QCOMPARE(::stat(QFile::encodeName(secret).constData(), &info), 0);
        QCOMPARE(info.st_mode & 07777, mode_t(0600));
        const QString lastExit = runner.runtimes().value(QStringLiteral("w")).lastExit;
        QCOMPARE(stateOf(runner, QStringLiteral("w")), WorkloadRuntime::BackingOff);
        QVERIFY2(lastExit.startsWith(QStringLiteral("cannot open log file %1: ").arg(log))
                     && lastExit.contains(QStringLiteral("symbolic link")),
                 qPrintable(lastExit));
    }
};

QTEST_GUILESS_MAIN(TestSecWorkload)
#include "tst_sec_workload.moc"
