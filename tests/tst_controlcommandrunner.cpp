// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// ControlCommandRunner over real short commands (through the real idlegpu-reaper in build/bin): start_cmd lends,
// stop_cmd takes back, in that order; a failing or hanging command is the workload's failure; a failed stop keeps the
// GPUs the service's and is tried again.
#include "run/controlcommandrunner.h"
#include "testsupport.h"

#include <QCoreApplication>
#include <QFile>
#include <QLoggingCategory>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <memory>

using TestSupport::processAlive;
using TestSupport::reaperPath;

namespace {

QStringList shell(const QString &script)
{
    return QStringList{QStringLiteral("sh"), QStringLiteral("-c"), script};
}

// A control workload whose commands are shell scripts (run without a shell of idlegpu's: sh is the program).
WorkloadConfig controlWorkload(const QString &id, const QString &startScript, const QString &stopScript,
                               const QString &dir)
{
    WorkloadConfig config;
    config.id = id;
    config.name = id;
    config.startCmd = QStringLiteral("sh -c '%1'").arg(startScript);
    config.startArgv = shell(startScript);
    config.stopCmd = QStringLiteral("sh -c '%1'").arg(stopScript);
    config.stopArgv = shell(stopScript);
    config.dir = dir;
    config.stopTimeoutSeconds = 1;
    config.commandTimeoutSeconds = 5;
    return config;
}

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

} // namespace

class TestControlCommandRunner : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;
    FakeClock m_clock;

    QString path(const QString &name) const { return m_dir->filePath(name); }
    static WorkloadRuntime stateOf(const ControlCommandRunner &runner, const QString &id)
    {
        return runner.runtimes().value(id);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(reaperPath()).isExecutable(), qPrintable(reaperPath()));
        qRegisterMetaType<WorkloadRuntime>();
        QLoggingCategory::setFilterRules(QStringLiteral("idlegpu.*.info=false\nidlegpu.*.warning=false"));
    }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_clock.set(1'000'000);
    }

    // start_cmd runs on start(), the workload is lent once it exits 0; stop_cmd runs on stop(), stopped once it exits 0.
    void lendsThenTakesBack()
    {
        ControlCommandRunner runner(&m_clock, reaperPath());
        const QString journal = path("journal");
        const WorkloadConfig config = controlWorkload(
            "boinc", QStringLiteral("sleep 0.2; echo start $CUDA_VISIBLE_DEVICES >> %1").arg(journal),
            QStringLiteral("echo stop >> %1").arg(journal), m_dir->path());
        QVERIFY(runner.start(config, {1}, false));
        QCOMPARE(stateOf(runner, "boinc").state, WorkloadRuntime::Running); // the GPUs are committed at once
        QVERIFY(stateOf(runner, "boinc").pid > 0);                       // the command's reaper, while it runs
        QTRY_COMPARE_WITH_TIMEOUT(readAll(journal), QByteArray("start 1\n"), 5000);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "boinc").pid, qint64(0), 5000); // lent: nothing of ours runs
        QCOMPARE(stateOf(runner, "boinc").state, WorkloadRuntime::Running);
        QVERIFY(!runner.start(config, {1}, false)); // lent already

        QSignalSpy failed(&runner, &WorkloadRunner::workloadFailed);
        runner.stop("boinc", QStringLiteral("python3 opened GPU 1"));
        QCOMPARE(stateOf(runner, "boinc").state, WorkloadRuntime::Stopping);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "boinc").state, WorkloadRuntime::Stopped, 5000);
        QCOMPARE(readAll(journal), QByteArray("start 1\nstop\n"));
        QCOMPARE(stateOf(runner, "boinc").lastExit, QStringLiteral("stopped: python3 opened GPU 1"));
        QCOMPARE(failed.size(), 0);
    }

    // A stop while start_cmd still runs cuts it short; stop_cmd runs after it has ended, never before.
    void stopDuringStartRunsStopAfterIt()
    {
        ControlCommandRunner runner(&m_clock, reaperPath());
        const QString journal = path("journal");
        const WorkloadConfig config = controlWorkload(
            "svc", QStringLiteral("echo start-begin >> %1; sleep 100; echo start-end >> %1").arg(journal),
            QStringLiteral("echo stop >> %1").arg(journal), m_dir->path());
        QVERIFY(runner.start(config, {0}, false));
        QTRY_COMPARE_WITH_TIMEOUT(readAll(journal), QByteArray("start-begin\n"), 5000);
        const qint64 reaper = stateOf(runner, "svc").pid;
        runner.stop("svc", QStringLiteral("test"));
        QCOMPARE(stateOf(runner, "svc").state, WorkloadRuntime::Stopping);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "svc").state, WorkloadRuntime::Stopped, 5000);
        QCOMPARE(readAll(journal), QByteArray("start-begin\nstop\n"));
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(reaper), 3000);
    }

    // A start_cmd that exits non-zero: stop_cmd undoes whatever it did, then the workload backs off and says so.
    void failingStartBacksOff()
    {
        ControlCommandRunner runner(&m_clock, reaperPath());
        const QString journal = path("journal");
        const WorkloadConfig config =
            controlWorkload("svc", QStringLiteral("echo cannot connect; exit 3"),
                            QStringLiteral("echo stop >> %1").arg(journal), m_dir->path());
        QSignalSpy failed(&runner, &WorkloadRunner::workloadFailed);
        QVERIFY(runner.start(config, {0}, false));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "svc").state, WorkloadRuntime::BackingOff, 5000);
        const WorkloadRuntime runtime = stateOf(runner, "svc");
        QCOMPARE(runtime.lastExit, QStringLiteral("start_cmd failed (exit code 3)"));
        QCOMPARE(runtime.consecutiveFailures, 1);
        QCOMPARE(runtime.retryAtMs, m_clock.nowMs() + 5000);
        QCOMPARE(readAll(journal), QByteArray("stop\n"));
        QCOMPARE(failed.size(), 1);
        QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("svc"));
        QVERIFY(!runtime.occupiesGpus());
    }

    // A command that does not finish within command_timeout_seconds is killed, tree and all: a failure.
    void hangingStartTimesOut()
    {
        ControlCommandRunner runner(&m_clock, reaperPath());
        const QString pidFile = path("pid");
        WorkloadConfig config = controlWorkload("svc", QStringLiteral("sleep 100 & echo $! > %1; wait").arg(pidFile),
                                                QStringLiteral("true"), m_dir->path());
        config.commandTimeoutSeconds = 1;
        QVERIFY(runner.start(config, {0}, false));
        QTRY_VERIFY_WITH_TIMEOUT(readAll(pidFile).endsWith('\n'), 5000);
        const qint64 sleeper = readAll(pidFile).trimmed().toLongLong();
        QVERIFY(processAlive(sleeper));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "svc").state, WorkloadRuntime::BackingOff, 8000);
        QCOMPARE(stateOf(runner, "svc").lastExit, QStringLiteral("start_cmd failed (timed out after 1 s)"));
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(sleeper), 3000); // the command's whole tree
    }

    // A stop_cmd that fails leaves the service lent as far as anyone can tell: StopFailed holds the GPUs, the failure
    // is reported, and stop_cmd runs again after the backoff.
    void failingStopStaysLentAndRetries()
    {
        ControlCommandRunner runner(&m_clock, reaperPath());
        const QString journal = path("journal");
        const QString fixed = path("fixed");
        const WorkloadConfig config = controlWorkload(
            "svc", QStringLiteral("echo start >> %1").arg(journal),
            QStringLiteral("echo stop >> %1; test -e %2").arg(journal, fixed), m_dir->path());
        QSignalSpy failed(&runner, &WorkloadRunner::workloadFailed);
        QVERIFY(runner.start(config, {0}, false));
        QTRY_COMPARE_WITH_TIMEOUT(readAll(journal), QByteArray("start\n"), 5000);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "svc").pid, qint64(0), 5000);
        runner.stop("svc", QStringLiteral("test"));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "svc").state, WorkloadRuntime::StopFailed, 5000);
        WorkloadRuntime runtime = stateOf(runner, "svc");
        QVERIFY(runtime.occupiesGpus());
        QVERIFY(runtime.failing());
        QCOMPARE(runtime.lastExit, QStringLiteral("stop_cmd failed (exit code 1)"));
        QCOMPARE(runtime.gpus, QList<int>{0});
        QCOMPARE(failed.size(), 1);
        QVERIFY(!runner.start(config, {0}, false)); // not free to lend again

        QFile(fixed).open(QIODevice::WriteOnly);
        // The retry comes after the backoff (5 s) by the real timer; the fake clock only dates it.
        QCOMPARE(runtime.retryAtMs, m_clock.nowMs() + 5000);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "svc").state, WorkloadRuntime::Stopped, 10000);
        QCOMPARE(readAll(journal), QByteArray("start\nstop\nstop\n"));
    }

    // A command that cannot run at all (not found): the start fails at once, nothing to undo.
    void commandNotFound()
    {
        ControlCommandRunner runner(&m_clock, reaperPath());
        WorkloadConfig config = controlWorkload("svc", QStringLiteral("true"), QStringLiteral("true"), m_dir->path());
        config.startArgv = QStringList{QStringLiteral("no-such-boinccmd")};
        QSignalSpy failed(&runner, &WorkloadRunner::workloadFailed);
        QVERIFY(!runner.start(config, {0}, false));
        QCOMPARE(stateOf(runner, "svc").state, WorkloadRuntime::BackingOff);
        QCOMPARE(stateOf(runner, "svc").lastExit, QStringLiteral("cannot run start_cmd: command not found: no-such-boinccmd"));
        QCOMPARE(failed.size(), 1);
    }

    // A workload seen for the first time is taken back (stop_cmd) before anything lends it: idlegpu cannot know how
    // the service was left.
    void firstSightTakesBack()
    {
        ControlCommandRunner runner(&m_clock, reaperPath());
        const QString journal = path("journal");
        WorkloadConfig config = controlWorkload("svc", QStringLiteral("echo start >> %1").arg(journal),
                                                QStringLiteral("echo stop >> %1").arg(journal), m_dir->path());
        WorkloadConfig disabled = controlWorkload("off", QStringLiteral("true"),
                                                  QStringLiteral("echo off-stop >> %1").arg(journal), m_dir->path());
        disabled.enabled = false;
        runner.setWorkloads({config, disabled});
        QCOMPARE(stateOf(runner, "svc").state, WorkloadRuntime::Stopping);
        QVERIFY(!runner.runtimes().contains("off"));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "svc").state, WorkloadRuntime::Stopped, 5000);
        runner.setWorkloads({config}); // known now: not again
        QVERIFY(runner.start(config, {0}, false));
        QTRY_COMPARE_WITH_TIMEOUT(readAll(journal), QByteArray("stop\nstart\n"), 5000);
    }

    // stopAll() takes every lent service back, then allStopped().
    void stopAllTakesBack()
    {
        ControlCommandRunner runner(&m_clock, reaperPath());
        const QString journal = path("journal");
        const WorkloadConfig a = controlWorkload("a", QStringLiteral("true"), QStringLiteral("echo a >> %1").arg(journal),
                                                 m_dir->path());
        const WorkloadConfig b = controlWorkload("b", QStringLiteral("true"), QStringLiteral("echo b >> %1").arg(journal),
                                                 m_dir->path());
        QVERIFY(runner.start(a, {0}, false));
        QVERIFY(runner.start(b, {1}, false));
        QTRY_VERIFY_WITH_TIMEOUT(stateOf(runner, "a").pid == 0 && stateOf(runner, "b").pid == 0, 5000);
        QSignalSpy stopped(&runner, &WorkloadRunner::allStopped);
        runner.stopAll(QStringLiteral("idlegpu is exiting"));
        QVERIFY(stopped.wait(5000));
        QCOMPARE(stateOf(runner, "a").state, WorkloadRuntime::Stopped);
        QCOMPARE(stateOf(runner, "b").state, WorkloadRuntime::Stopped);
        QByteArray lines = readAll(journal);
        QCOMPARE(lines.size(), 4); // "a\n" and "b\n", in either order
        QVERIFY(lines.contains("a\n") && lines.contains("b\n"));
    }

    // log= gets each command's output and idlegpu's lines about it.
    void logFile()
    {
        ControlCommandRunner runner(&m_clock, reaperPath());
        WorkloadConfig config =
            controlWorkload("svc", QStringLiteral("echo lending"), QStringLiteral("echo taking back"), m_dir->path());
        config.log = path("svc.log");
        QVERIFY(runner.start(config, {0}, false));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "svc").pid, qint64(0), 5000);
        runner.stop("svc", QStringLiteral("test"));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "svc").state, WorkloadRuntime::Stopped, 5000);
        // idlegpu's last line reaches the file through the log writer, which appends it once it has it.
        QTRY_VERIFY_WITH_TIMEOUT(readAll(config.log).contains("idlegpu: stopped svc: test"), 5000);
        const QByteArray log = readAll(config.log);
        QVERIFY2(log.contains("idlegpu: running start_cmd of svc (GPUs 0)"), log.constData());
        QVERIFY2(log.contains("\nlending\n"), log.constData());
        QVERIFY2(log.contains("idlegpu: start_cmd of svc succeeded"), log.constData());
        QVERIFY2(log.contains("\ntaking back\n"), log.constData());
        QVERIFY2(log.contains("idlegpu: stopped svc: test"), log.constData());
        QVERIFY(log.indexOf("lending") < log.indexOf("taking back"));
    }
};

QTEST_GUILESS_MAIN(TestControlCommandRunner)
#include "tst_controlcommandrunner.moc"
