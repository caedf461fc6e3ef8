// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// ProcessRunner over real processes (through the real idlegpu-reaper in build/bin): environment, folder,
// log file, output capture, non-blocking stop with SIGKILL escalation, backoff, whole-tree stops.
#include "run/gpuenvironment.h"
#include "run/processrunner.h"
#include "scopedenv.h"
#include "testsupport.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QLoggingCategory>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTimer>
#include <QtTest>

#include <algorithm>
#include <memory>

#include <grp.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/stat.h>
#include <unistd.h>

using TestSupport::processAlive;
using TestSupport::ScopedEnv;

using TestSupport::pidFromFile;
using TestSupport::readFileOrEmpty;
using TestSupport::reaperPath;
using TestSupport::shellWorkload;

namespace {

// Field `index` (1-based, as in proc(5)) of /proc/<pid>/stat; -1 when unreadable.
qint64 statField(qint64 pid, int index)
{
    const QByteArray line = readFileOrEmpty(QStringLiteral("/proc/%1/stat").arg(pid));
    const int close = line.lastIndexOf(')');
    if (close < 0)
        return -1;
    const QList<QByteArray> fields = line.mid(close + 2).split(' '); // fields[0] is field 3 (state)
    return index - 3 < fields.size() ? fields.at(index - 3).toLongLong() : -1;
}

} // namespace

class TestProcessRunner : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir; // fresh per test: workloads write files into it
    FakeClock m_clock;

    QString path(const QString &name) const { return m_dir->filePath(name); }

    static WorkloadRuntime::State stateOf(const ProcessRunner &runner, const QString &id)
    {
        return runner.runtimes().value(id).state;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(reaperPath()).isExecutable(), qPrintable(reaperPath()));
        const rlimit noCore{0, 0}; // workloads here crash on purpose
        setrlimit(RLIMIT_CORE, &noCore);
        qRegisterMetaType<WorkloadRuntime>();
    }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        m_clock.set(1'000'000);
    }

    void environment_data()
    {
        QTest::addColumn<QList<int>>("gpus");
        QTest::addColumn<bool>("allGpus");
        QTest::addColumn<QByteArray>("inheritedVisible"); // CUDA_VISIBLE_DEVICES of idlegpu; null: unset
        QTest::addColumn<QString>("envText");              // KEY=VALUE;... for env=
        QTest::addColumn<QString>("expectedVisible");
        QTest::addColumn<QString>("expectedOrder");
        QTest::addColumn<QString>("expectedCustom");

        QTest::newRow("subset") << QList<int>{0, 2} << false << QByteArray() << "" << "0,2" << "PCI_BUS_ID"
                                << "unset";
        QTest::newRow("subset replaces inherited") << QList<int>{1} << false << QByteArray("5") << "" << "1"
                                                   << "PCI_BUS_ID" << "unset";
        QTest::newRow("all, none inherited") << QList<int>{0, 1} << true << QByteArray() << "" << "unset"
                                             << "PCI_BUS_ID" << "unset";
        QTest::newRow("all keeps inherited") << QList<int>{0, 1} << true << QByteArray("7") << "" << "7"
                                             << "PCI_BUS_ID" << "unset";
        QTest::newRow("env= custom") << QList<int>{0} << false << QByteArray() << "CUSTOM=hello world" << "0"
                                     << "PCI_BUS_ID" << "hello world";
        QTest::newRow("env= wins") << QList<int>{0} << false << QByteArray()
                                   << "CUDA_VISIBLE_DEVICES=3;CUDA_DEVICE_ORDER=FASTEST_FIRST" << "3"
                                   << "FASTEST_FIRST" << "unset";
    }

    void environment()
    {
        QFETCH(QList<int>, gpus);
        QFETCH(bool, allGpus);
        QFETCH(QByteArray, inheritedVisible);
        QFETCH(QString, envText);
        QFETCH(QString, expectedVisible);
        QFETCH(QString, expectedOrder);
        QFETCH(QString, expectedCustom);

        ScopedEnv visible("CUDA_VISIBLE_DEVICES", inheritedVisible);
        ProcessRunner runner(&m_clock, reaperPath());
        WorkloadConfig config = shellWorkload(
            QStringLiteral("env"),
            QStringLiteral("printf '%s\\n' \"${CUDA_VISIBLE_DEVICES-unset}\" \"${CUDA_DEVICE_ORDER-unset}\""
                           " \"$PATH\" \"$HOME\" \"${CUSTOM-unset}\" > env.txt"),
            m_dir->path());
        for (const QString &pair : envText.split(QLatin1Char(';'), Qt::SkipEmptyParts))
            config.env.append({pair.section(QLatin1Char('='), 0, 0), pair.section(QLatin1Char('='), 1)});
        QVERIFY(runner.start(config, gpus, allGpus));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "env"), WorkloadRuntime::BackingOff, 5000);
        QCOMPARE(runner.runtimes().value("env").lastExit, QStringLiteral("exit code 0"));

        const QStringList values = QString::fromUtf8(readFileOrEmpty(path("env.txt"))).split(QLatin1Char('\n'));
        QCOMPARE(values.size(), 6); // five lines and the empty rest after the last newline
        QCOMPARE(values.at(0), expectedVisible);
        QCOMPARE(values.at(1), expectedOrder);
        QCOMPARE(values.at(2), qEnvironmentVariable("PATH")); // the predecessor lost PATH and HOME
        QCOMPARE(values.at(3), qEnvironmentVariable("HOME"));
        QCOMPARE(values.at(4), expectedCustom);
    }

    void workingFolder_data()
    {
        QTest::addColumn<bool>("givenDir");
        QTest::newRow("dir=") << true;
        QTest::newRow("home by default") << false;
    }

    void workingFolder()
    {
        QFETCH(bool, givenDir);
        const QString dir = path("work");
        QVERIFY(QDir().mkpath(dir));
        ProcessRunner runner(&m_clock, reaperPath());
        WorkloadConfig config = shellWorkload(QStringLiteral("pwd"), QStringLiteral("pwd -P > \"$OUT\""),
                                              givenDir ? dir : QString());
        config.env.append({QStringLiteral("OUT"), path("pwd.txt")});
        QVERIFY(runner.start(config, {0}, false));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "pwd"), WorkloadRuntime::BackingOff, 5000);
        const QString expected = QFileInfo(givenDir ? dir : QDir::homePath()).canonicalFilePath();
        QCOMPARE(QString::fromUtf8(readFileOrEmpty(path("pwd.txt")).trimmed()), expected);
    }

    void cannotStart_data()
    {
        QTest::addColumn<QStringList>("argv");
        QTest::addColumn<QString>("dir");
        QTest::addColumn<QString>("log");
        QTest::addColumn<QString>("message");
        QTest::newRow("not in PATH") << QStringList{"idlegpu-no-such-command", "-x"} << "" << ""
                                     << "command not found: idlegpu-no-such-command";
        QTest::newRow("missing path") << QStringList{"./no-such-program"} << "TMP" << ""
                                      << "command not found: ./no-such-program";
        QTest::newRow("not executable") << QStringList{"./plain-file"} << "TMP" << ""
                                        << "command not found: ./plain-file";
        QTest::newRow("missing folder") << QStringList{"true"} << "TMP/missing" << ""
                                        << "working folder does not exist: TMP/missing";
        QTest::newRow("empty command") << QStringList{} << "" << "" << "no command given (cmd= is empty)";
    }

    void cannotStart()
    {
        QFETCH(QStringList, argv);
        QFETCH(QString, dir);
        QFETCH(QString, log);
        QFETCH(QString, message);
        dir.replace(QStringLiteral("TMP"), m_dir->path());
        log.replace(QStringLiteral("TMP"), m_dir->path());
        message.replace(QStringLiteral("TMP"), m_dir->path());
        TestSupport::writeFile(path("plain-file"), "exit 0\n");
        QVERIFY(QFile::setPermissions(path("plain-file"), QFile::ReadOwner | QFile::WriteOwner));

        ProcessRunner runner(&m_clock, reaperPath());
        QSignalSpy failed(&runner, &WorkloadRunner::workloadFailed);
        WorkloadConfig config;
        config.id = QStringLiteral("w");
        config.argv = argv;
        config.dir = dir;
        config.log = log;
        QVERIFY(!runner.start(config, {0}, false));
        const WorkloadRuntime runtime = runner.runtimes().value("w");
        QVERIFY2(runtime.lastExit.startsWith(message), qPrintable(runtime.lastExit));
        // Backing off, so that the policy does not retry in a hot loop.
        QCOMPARE(runtime.state, WorkloadRuntime::BackingOff);
        QCOMPARE(runtime.retryAtMs, m_clock.nowMs() + ProcessRunner::kFirstBackoffMs);
        QCOMPARE(failed.count(), 1);
        QCOMPARE(runtime.pid, 0);
    }

    // The log file is opened by the workload's process, so a start it refuses fails once that process has said
    // why: the program never runs, and the failure backs off as one found before the start.
    void logCannotBeOpened()
    {
        ProcessRunner runner(&m_clock, reaperPath());
        QSignalSpy failed(&runner, &WorkloadRunner::workloadFailed);
        WorkloadConfig config = shellWorkload(QStringLiteral("w"), QStringLiteral("echo ran > ran"), m_dir->path());
        config.log = path("missing/w.log");
        QVERIFY(runner.start(config, {0}, false));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "w"), WorkloadRuntime::BackingOff, 5000);
        const WorkloadRuntime runtime = runner.runtimes().value("w");
        QCOMPARE(runtime.lastExit,
                 QStringLiteral("cannot open log file %1: No such file or directory").arg(config.log));
        QCOMPARE(runtime.retryAtMs, m_clock.nowMs() + ProcessRunner::kFirstBackoffMs);
        QCOMPARE(failed.count(), 1);
        QCOMPARE(runtime.pid, 0);
        QVERIFY(!QFile::exists(path(QStringLiteral("ran"))));
    }

    void logFile()
    {
        const QString logPath = path("w.log");
        TestSupport::writeFile(logPath, "an earlier run\n");
        ProcessRunner runner(&m_clock, reaperPath());
        WorkloadConfig config =
            shellWorkload(QStringLiteral("w"), QStringLiteral("echo hello from w; echo to stderr >&2; exec sleep 30"),
                          m_dir->path());
        config.log = logPath;
        QVERIFY(runner.start(config, {0, 1}, false));
        QTRY_VERIFY_WITH_TIMEOUT(readFileOrEmpty(logPath).contains("to stderr\n"), 5000);
        runner.stop(QStringLiteral("w"), QStringLiteral("a foreign process opened GPU 0"));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "w"), WorkloadRuntime::Stopped, 5000);
        // idlegpu's last line reaches the file through the log writer, which appends it once it has it.
        QTRY_VERIFY_WITH_TIMEOUT(readFileOrEmpty(logPath).contains(" idlegpu: stopped w: "), 5000);

        const QStringList lines = QString::fromUtf8(readFileOrEmpty(logPath)).split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 6);
        QCOMPARE(lines.at(0), QStringLiteral("an earlier run")); // appended, never truncated
        const QString stamp = QStringLiteral("^\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\d idlegpu: ");
        QVERIFY2(QRegularExpression(stamp + "started w \\(pid \\d+\\) on GPUs 0,1$").match(lines.at(1)).hasMatch(),
                 qPrintable(lines.at(1)));
        QCOMPARE(lines.at(2), QStringLiteral("hello from w"));
        QCOMPARE(lines.at(3), QStringLiteral("to stderr"));
        QVERIFY2(QRegularExpression(stamp + "stopped w: a foreign process opened GPU 0$").match(lines.at(4)).hasMatch(),
                 qPrintable(lines.at(4)));
        QCOMPARE(lines.at(5), QString());
        // Output goes to the file, and the last lines are still kept for the status window.
        QCOMPARE(runner.runtimes().value("w").lastOutput, (QStringList{"hello from w", "to stderr"}));
    }

    void logFileCreatedPrivate()
    {
        const QString logPath = path("new.log");
        ProcessRunner runner(&m_clock, reaperPath());
        WorkloadConfig config = shellWorkload(QStringLiteral("w"), QStringLiteral("printf 'no newline'; exit 3"),
                                              m_dir->path());
        config.log = logPath;
        QVERIFY(runner.start(config, {}, true));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "w"), WorkloadRuntime::BackingOff, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(readFileOrEmpty(logPath).contains(" idlegpu: w exited with code 3\n"), 5000);
        struct stat info {};
        QCOMPARE(::stat(QFile::encodeName(logPath).constData(), &info), 0);
        QCOMPARE(info.st_mode & 07777, mode_t(0600));
        const QStringList lines = QString::fromUtf8(readFileOrEmpty(logPath)).split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 4);
        QVERIFY2(QRegularExpression(" idlegpu: started w \\(pid \\d+\\) on all GPUs$").match(lines.at(0)).hasMatch(),
                 qPrintable(lines.at(0)));
        QCOMPARE(lines.at(1), QStringLiteral("no newline")); // idlegpu's line starts on a line of its own
        QVERIFY2(lines.at(2).endsWith(QStringLiteral(" idlegpu: w exited with code 3")), qPrintable(lines.at(2)));
    }

    // gpu_mon's example has log=/dev/null: a device, not a file to append to. The workload runs and prints, and
    // nothing warns (Qt did, "Cannot call seek on a sequential device", at each start).
    void logToDevNull()
    {
        QTest::failOnWarning(QRegularExpression(QStringLiteral(".")));
        ProcessRunner runner(&m_clock, reaperPath());
        WorkloadConfig config =
            shellWorkload(QStringLiteral("w"), QStringLiteral("echo printed; exec sleep 30"), m_dir->path());
        config.log = QStringLiteral("/dev/null");
        QVERIFY(runner.start(config, {}, true));
        QTRY_COMPARE_WITH_TIMEOUT(runner.runtimes().value("w").lastOutput, QStringList{"printed"}, 5000);
        QCOMPARE(stateOf(runner, "w"), WorkloadRuntime::Running);
        runner.stop(QStringLiteral("w"), QStringLiteral("test over"));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "w"), WorkloadRuntime::Stopped, 5000);
    }

    void outputWithoutLog()
    {
        ProcessRunner runner(&m_clock, reaperPath());
        // 25 lines, one of 3000 characters, the last without newline, one with a carriage return.
        const QString script = QStringLiteral("i=1; while [ $i -le 22 ]; do echo line $i; i=$((i+1)); done;"
                                              " printf 'dos\\r\\n'; head -c 3000 /dev/zero | tr '\\0' x; echo;"
                                              " printf 'last'; exit 1");
        QVERIFY(runner.start(shellWorkload(QStringLiteral("w"), script, m_dir->path()), {0}, false));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "w"), WorkloadRuntime::BackingOff, 5000);
        const QStringList output = runner.runtimes().value("w").lastOutput;
        QCOMPARE(output.size(), ProcessRunner::kMaxOutputLines);
        QCOMPARE(output.first(), QStringLiteral("line 6"));
        QCOMPARE(output.at(16), QStringLiteral("line 22"));
        QCOMPARE(output.at(17), QStringLiteral("dos"));
        QCOMPARE(output.at(18), QString(ProcessRunner::kMaxOutputLineChars, QLatin1Char('x')));
        QCOMPARE(output.at(19), QStringLiteral("last"));
    }

    void stopEscalatesToSigkillWithoutBlocking()
    {
        ProcessRunner runner(&m_clock, reaperPath());
        QSignalSpy failed(&runner, &WorkloadRunner::workloadFailed);
        WorkloadConfig config = shellWorkload(
            QStringLiteral("stubborn"), QStringLiteral("trap '' TERM; sleep 300 & echo $! > child; wait"),
            m_dir->path());
        config.stopTimeoutSeconds = 1;
        QVERIFY(runner.start(config, {0}, false));
        QTRY_VERIFY_WITH_TIMEOUT(pidFromFile(path("child")) > 0, 5000);
        const qint64 child = pidFromFile(path("child"));

        int ticks = 0;
        QTimer ticker;
        connect(&ticker, &QTimer::timeout, this, [&ticks] { ++ticks; });
        ticker.start(20);
        runner.stop(QStringLiteral("stubborn"), QStringLiteral("test"));
        QCOMPARE(stateOf(runner, "stubborn"), WorkloadRuntime::Stopping); // stop() returned before the end
        QTest::qWait(300);
        QVERIFY(processAlive(child)); // it ignores SIGTERM: only the SIGKILL after 1 s ends it
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "stubborn"), WorkloadRuntime::Stopped, 10000);
        QVERIFY(ticks > 0); // the event loop kept running meanwhile
        QVERIFY(!processAlive(child));
        const WorkloadRuntime runtime = runner.runtimes().value("stubborn");
        QCOMPARE(runtime.lastExit, QStringLiteral("stopped: test"));
        QCOMPARE(runtime.pid, 0);
        QCOMPARE(failed.count(), 0); // asked to stop: not a failure
    }

    void backoff()
    {
        ProcessRunner runner(&m_clock, reaperPath());
        QSignalSpy failed(&runner, &WorkloadRunner::workloadFailed);
        const WorkloadConfig config = shellWorkload(QStringLiteral("w"), QStringLiteral("exit 3"), m_dir->path());
        const qint64 expectedDelays[] = {5'000, 10'000, 20'000};
        for (int failure = 1; failure <= 3; ++failure) {
            QVERIFY(runner.start(config, {0}, false));
            QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "w"), WorkloadRuntime::BackingOff, 5000);
            const WorkloadRuntime runtime = runner.runtimes().value("w");
            QCOMPARE(runtime.consecutiveFailures, failure);
            QCOMPARE(runtime.retryAtMs, m_clock.nowMs() + expectedDelays[failure - 1]);
            QCOMPARE(runtime.lastExit, QStringLiteral("exit code 3"));
            QCOMPARE(failed.count(), failure);
            QCOMPARE(failed.last().at(0).toString(), QStringLiteral("w"));
            m_clock.advance(60'000);
        }

        // A run long enough counts as healthy: the next failure backs off from the start again.
        QVERIFY(runner.start(config, {0}, false));
        m_clock.advance(ProcessRunner::kCleanRunMs); // before the exit is seen, which needs the event loop
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "w"), WorkloadRuntime::BackingOff, 5000);
        QCOMPARE(runner.runtimes().value("w").consecutiveFailures, 1);
        QCOMPARE(runner.runtimes().value("w").retryAtMs, m_clock.nowMs() + ProcessRunner::kFirstBackoffMs);
    }

    void backoffIsCapped()
    {
        ProcessRunner runner(&m_clock, reaperPath());
        WorkloadConfig config;
        config.id = QStringLiteral("w");
        config.argv = QStringList{QStringLiteral("idlegpu-no-such-command")};
        for (int failure = 1; failure <= 12; ++failure)
            QVERIFY(!runner.start(config, {0}, false));
        QCOMPARE(runner.runtimes().value("w").consecutiveFailures, 12);
        QCOMPARE(runner.runtimes().value("w").retryAtMs, m_clock.nowMs() + ProcessRunner::kMaxBackoffMs);
    }

    void exitDescription_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QString>("lastExit");
        QTest::newRow("code") << "exit 42" << "exit code 42";
        QTest::newRow("SIGSEGV") << "kill -SEGV $$" << "killed by signal 11 (SIGSEGV)";
        QTest::newRow("SIGKILL") << "kill -KILL $$" << "killed by signal 9 (SIGKILL)";
    }

    void exitDescription()
    {
        QFETCH(QString, script);
        QFETCH(QString, lastExit);
        ProcessRunner runner(&m_clock, reaperPath());
        QVERIFY(runner.start(shellWorkload(QStringLiteral("w"), script, m_dir->path()), {0}, false));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "w"), WorkloadRuntime::BackingOff, 5000);
        QCOMPARE(runner.runtimes().value("w").lastExit, lastExit);
    }

    void floodingOutput_data()
    {
        QTest::addColumn<bool>("toLogFile");
        QTest::newRow("log file") << true;
        QTest::newRow("idlegpu log") << false;
    }

    void floodingOutput()
    {
        QFETCH(bool, toLogFile);
        // Keep the test's own output readable; the lines still pass through the runner.
        QLoggingCategory::setFilterRules(QStringLiteral("idlegpu.workload.info=false"));
        ProcessRunner runner(&m_clock, reaperPath());
        WorkloadConfig config = shellWorkload(QStringLiteral("yes"), QStringLiteral("exec yes"), m_dir->path());
        if (toLogFile)
            config.log = path("yes.log");
        QVERIFY(runner.start(config, {0}, false));
        QTest::qWait(1000);
        const WorkloadRuntime runtime = runner.runtimes().value("yes");
        QCOMPARE(runtime.state, WorkloadRuntime::Running);
        QCOMPARE(runtime.lastOutput.size(), ProcessRunner::kMaxOutputLines);
        QCOMPARE(runtime.lastOutput.count(QStringLiteral("y")), ProcessRunner::kMaxOutputLines);
        runner.stop(QStringLiteral("yes"), QStringLiteral("test"));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "yes"), WorkloadRuntime::Stopped, 10000);
        QLoggingCategory::setFilterRules(QString());
        if (toLogFile)
            QVERIFY(QFileInfo(path("yes.log")).size() > 1000);
    }

    void stopEndsForkedChildren()
    {
        ProcessRunner runner(&m_clock, reaperPath());
        const QString script = QStringLiteral("sleep 300 & echo $! > a; setsid sleep 300 & echo $! > b;"
                                              " sh -c 'sleep 300 & echo $! > c'; wait");
        QVERIFY(runner.start(shellWorkload(QStringLiteral("w"), script, m_dir->path()), {0}, false));
        const QStringList names{"a", "b", "c"};
        QTRY_VERIFY_WITH_TIMEOUT(std::all_of(names.begin(), names.end(),
                                             [this](const QString &name) { return pidFromFile(path(name)) > 0; }),
                                 5000);
        QList<qint64> pids;
        for (const QString &name : names)
            pids.append(pidFromFile(path(name)));
        runner.stop(QStringLiteral("w"), QStringLiteral("test"));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "w"), WorkloadRuntime::Stopped, 10000);
        for (qint64 pid : std::as_const(pids))
            QVERIFY2(!processAlive(pid), qPrintable(QString::number(pid)));
    }

    void pidIsSessionOfWorkload()
    {
        ProcessRunner runner(&m_clock, reaperPath());
        QVERIFY(runner.start(shellWorkload(QStringLiteral("w"), QStringLiteral("sleep 300 & echo $! > child; wait"),
                                           m_dir->path()),
                             {0}, false));
        QTRY_VERIFY_WITH_TIMEOUT(pidFromFile(path("child")) > 0, 5000);
        const qint64 child = pidFromFile(path("child"));
        const qint64 pid = runner.runtimes().value("w").pid;
        QVERIFY(pid > 0);
        QCOMPARE(statField(child, 6), pid); // session
        QCOMPARE(statField(child, 5), pid); // process group
        runner.stop(QStringLiteral("w"), QStringLiteral("test"));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "w"), WorkloadRuntime::Stopped, 10000);
    }

    void stopAllEmitsAllStopped()
    {
        ProcessRunner runner(&m_clock, reaperPath());
        QSignalSpy allStopped(&runner, &WorkloadRunner::allStopped);
        WorkloadConfig stubborn = shellWorkload(QStringLiteral("stubborn"), QStringLiteral("trap '' TERM; sleep 300"),
                                                m_dir->path());
        stubborn.stopTimeoutSeconds = 1;
        QVERIFY(runner.start(stubborn, {0}, false));
        QVERIFY(runner.start(shellWorkload(QStringLiteral("plain"), QStringLiteral("sleep 300"), m_dir->path()), {1},
                             false));
        QVERIFY(runner.anyRunning());
        runner.stopAll(QStringLiteral("quitting"));
        QCOMPARE(allStopped.count(), 0);
        QTRY_COMPARE_WITH_TIMEOUT(allStopped.count(), 1, 10000);
        QCOMPARE(stateOf(runner, "stubborn"), WorkloadRuntime::Stopped);
        QCOMPARE(stateOf(runner, "plain"), WorkloadRuntime::Stopped);
        QVERIFY(!runner.anyRunning());
        QTest::qWait(100);
        QCOMPARE(allStopped.count(), 1); // once
    }

    void stopAllWithNothingRunning()
    {
        ProcessRunner runner(&m_clock, reaperPath());
        QSignalSpy allStopped(&runner, &WorkloadRunner::allStopped);
        runner.stopAll(QStringLiteral("quitting"));
        QCOMPARE(allStopped.count(), 0); // queued: a caller may connect after calling
        QTRY_COMPARE_WITH_TIMEOUT(allStopped.count(), 1, 1000);
    }

    void forget()
    {
        ProcessRunner runner(&m_clock, reaperPath());
        QVERIFY(runner.start(shellWorkload(QStringLiteral("w"), QStringLiteral("exec sleep 300"), m_dir->path()), {0},
                             false));
        runner.forget(QStringLiteral("w")); // refused: it runs
        QCOMPARE(stateOf(runner, "w"), WorkloadRuntime::Running);
        runner.stop(QStringLiteral("w"), QStringLiteral("test"));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "w"), WorkloadRuntime::Stopped, 10000);
        runner.forget(QStringLiteral("w"));
        QVERIFY(!runner.runtimes().contains(QStringLiteral("w")));
    }

    void destroyingRunnerEndsWorkloads()
    {
        auto runner = std::make_unique<ProcessRunner>(&m_clock, reaperPath());
        QVERIFY(runner->start(shellWorkload(QStringLiteral("w"), QStringLiteral("sleep 300 & echo $! > child; wait"),
                                            m_dir->path()),
                              {0}, false));
        QTRY_VERIFY_WITH_TIMEOUT(pidFromFile(path("child")) > 0, 5000);
        const qint64 child = pidFromFile(path("child"));
        const qint64 reaper = runner->runtimes().value("w").pid;
        runner.reset(); // must not block
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(child) && !processAlive(reaper), 5000);
    }

    // As root (CI runs as root), a workload with user = nobody: it runs as nobody, with nobody's groups and
    // environment, cannot write root's files, its log file is nobody's (0600), the reaper stays root, and a
    // stop still ends the whole tree.
    void runsAsNamedUser()
    {
        if (::geteuid() != 0)
            QSKIP("needs root: only root can start a workload as another user");
        const std::optional<UserAccount> nobody = UserLookup::findAccount(QStringLiteral("nobody"));
        if (!nobody)
            QSKIP("this machine has no user 'nobody'");
        // The test's folder is root's (0700): open it for traversal, and give nobody a folder of its own.
        QVERIFY(QFile::setPermissions(m_dir->path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner
                                                         | QFile::ExeGroup | QFile::ExeOther));
        const QString home = path(QStringLiteral("nobody"));
        QVERIFY(QDir().mkdir(home));
        QCOMPARE(::chown(QFile::encodeName(home).constData(), nobody->uid, nobody->gid), 0);
        const QString rootFile = TestSupport::writeFile(path(QStringLiteral("root-only")), "root's\n");
        QVERIFY(QFile::setPermissions(rootFile, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup
                                                    | QFile::ReadOther));

        const QString script = QStringLiteral("grep -E \"^(Uid|Gid|Groups):\" /proc/self/status;"
                                              " echo HOME=$HOME USER=$USER LOGNAME=$LOGNAME;"
                                              " if echo x 2>/dev/null >> %1; then echo WROTE; else echo DENIED; fi;"
                                              " sleep 300 & echo $! > child; wait")
                                   .arg(rootFile);
        WorkloadConfig config = shellWorkload(QStringLiteral("w"), script, home);
        config.user = QStringLiteral("nobody");
        config.log = home + QStringLiteral("/w.log");
        ProcessRunner runner(&m_clock, reaperPath());
        QVERIFY(runner.start(config, {0}, false));
        const QString childFile = home + QStringLiteral("/child");
        QTRY_VERIFY_WITH_TIMEOUT(pidFromFile(childFile) > 0, 5000);
        // The log writer (a process of its own) and the runner each get the output in their own time: wait for both.
        const auto lastLineArrived = [&runner] {
            const QStringList output = runner.runtimes().value("w").lastOutput;
            return !output.isEmpty() && (output.last() == QLatin1String("DENIED") || output.last() == QLatin1String("WROTE"));
        };
        QTRY_VERIFY_WITH_TIMEOUT(lastLineArrived(), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(readFileOrEmpty(config.log).contains("DENIED") || readFileOrEmpty(config.log).contains("WROTE"), 5000);

        // The groups initgroups() gives nobody, as the kernel lists them (sorted).
        int count = 64;
        QList<gid_t> groups(count);
        QVERIFY(::getgrouplist("nobody", nobody->gid, groups.data(), &count) >= 0);
        groups.resize(count);
        std::sort(groups.begin(), groups.end());
        groups.erase(std::unique(groups.begin(), groups.end()), groups.end());
        QStringList groupNumbers;
        for (gid_t gid : std::as_const(groups))
            groupNumbers.append(QString::number(gid));
        const QString uid = QString::number(nobody->uid);
        const QString gid = QString::number(nobody->gid);
        const QStringList expected{QStringLiteral("Uid:\t%1\t%1\t%1\t%1").arg(uid),
                                   QStringLiteral("Gid:\t%1\t%1\t%1\t%1").arg(gid),
                                   QStringLiteral("Groups:\t%1").arg(groupNumbers.join(QLatin1Char(' '))),
                                   QStringLiteral("HOME=%1 USER=nobody LOGNAME=nobody").arg(nobody->home),
                                   QStringLiteral("DENIED")};
        QStringList output = runner.runtimes().value("w").lastOutput;
        for (QString &line : output)
            line = line.trimmed(); // the kernel ends the Groups line with a space
        QCOMPARE(output, expected);
        QCOMPARE(readFileOrEmpty(rootFile), QByteArray("root's\n"));

        struct stat info {};
        QCOMPARE(::stat(QFile::encodeName(config.log).constData(), &info), 0);
        QCOMPARE(info.st_uid, uid_t(nobody->uid));
        QCOMPARE(info.st_gid, gid_t(nobody->gid));
        QCOMPARE(info.st_mode & 07777, mode_t(0600));

        const qint64 reaper = runner.runtimes().value("w").pid;
        QVERIFY(readFileOrEmpty(QStringLiteral("/proc/%1/status").arg(reaper)).contains("\nUid:\t0\t0\t0\t0\n"));
        const qint64 child = pidFromFile(childFile);
        runner.stop(QStringLiteral("w"), QStringLiteral("test"));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "w"), WorkloadRuntime::Stopped, 10000);
        QVERIFY(!processAlive(child));
        // idlegpu still has its lines written (by the log writer, once it has them)
        QTRY_VERIFY_WITH_TIMEOUT(readFileOrEmpty(config.log).contains(" idlegpu: stopped w: test\n"), 5000);
        QVERIFY(readFileOrEmpty(config.log).contains(" as user nobody\n")); // the start line names who it runs as
    }

    // The log file is opened with the user's permissions: a folder only root can write (or a symlink the user
    // planted into one) makes the start fail, instead of root creating a file there for the user.
    void logOpenedWithUsersPermissions()
    {
        if (::geteuid() != 0)
            QSKIP("needs root: only root can start a workload as another user");
        if (!UserLookup::findAccount(QStringLiteral("nobody")))
            QSKIP("this machine has no user 'nobody'");
        const QString logPath = path(QStringLiteral("root-only.log")); // in the test's folder: root's, mode 0700
        WorkloadConfig config = shellWorkload(QStringLiteral("w"), QStringLiteral("sleep 30"), QStringLiteral("/"));
        config.user = QStringLiteral("nobody");
        config.log = logPath;
        ProcessRunner runner(&m_clock, reaperPath());
        QVERIFY(runner.start(config, {0}, false)); // the reaper starts; its child, as nobody, cannot open the log
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(runner, "w"), WorkloadRuntime::BackingOff, 5000);
        QCOMPARE(runner.runtimes().value("w").lastExit,
                 QStringLiteral("cannot open log file %1: Permission denied (opened as user nobody)").arg(logPath));
        QVERIFY(!QFile::exists(logPath));
    }

    // The working folder is entered as the user: one only root may enter makes the start fail with the reaper's
    // message, instead of leaving the program in a folder it could not have entered.
    void folderEnteredWithUsersPermissions()
    {
        if (::geteuid() != 0)
            QSKIP("needs root: only root can start a workload as another user");
        if (!UserLookup::findAccount(QStringLiteral("nobody")))
            QSKIP("this machine has no user 'nobody'");
        const QString rootOnly = path(QStringLiteral("root-only"));
        QVERIFY(QDir().mkpath(rootOnly));
        QVERIFY(QFile::setPermissions(rootOnly, QFileDevice::ReadOwner | QFileDevice::WriteOwner
                                                     | QFileDevice::ExeOwner));
        WorkloadConfig config = shellWorkload(QStringLiteral("w"), QStringLiteral("pwd; exec sleep 30"), rootOnly);
        config.user = QStringLiteral("nobody");
        ProcessRunner runner(&m_clock, reaperPath());
        QVERIFY(runner.start(config, {0}, false)); // the reaper starts; the workload does not
        QTRY_VERIFY_WITH_TIMEOUT(stateOf(runner, "w") != WorkloadRuntime::Running, 5000);
        const QString output = runner.runtimes().value("w").lastOutput.join(QLatin1Char('\n'));
        QVERIFY2(output.contains(QStringLiteral("cannot enter the working folder '%1' as user nobody: Permission "
                                                "denied")
                                     .arg(rootOnly)),
                 qPrintable(output));
        QVERIFY(!output.contains(rootOnly + QLatin1Char('\n')) && !output.endsWith(rootOnly)); // pwd never ran
    }

    // The account named by user= is gone by the time the workload starts: the start fails and says why; nothing
    // runs, as root or as anyone.
    void vanishedUserFailsTheStart()
    {
        WorkloadConfig config =
            shellWorkload(QStringLiteral("w"), QStringLiteral("echo ran > ran"), m_dir->path());
        config.user = QStringLiteral("idlegpu-no-such-user");
        ProcessRunner runner(&m_clock, reaperPath());
        QSignalSpy failed(&runner, &WorkloadRunner::workloadFailed);
        QVERIFY(!runner.start(config, {0}, false));
        QCOMPARE(stateOf(runner, "w"), WorkloadRuntime::BackingOff);
        QCOMPARE(runner.runtimes().value("w").lastExit,
                 QStringLiteral("user: there is no user named 'idlegpu-no-such-user'"));
        QCOMPARE(failed.count(), 1);
        QVERIFY(!QFile::exists(path(QStringLiteral("ran"))));
    }

    // As root, a workload without user= runs as root, as gpu_mon ran it (the config loader warns about it; the
    // runner starts it as it is, in the folder it names, with idlegpu's own environment).
    void rootWithoutUserRunsAsRoot()
    {
        if (::geteuid() != 0)
            QSKIP("needs root: a workload without user= runs as root only when idlegpu does");
        ProcessRunner runner(&m_clock, reaperPath());
        QVERIFY(runner.start(shellWorkload(QStringLiteral("w"),
                                           QStringLiteral("echo \"uid=$(id -u) home=$HOME in=$(pwd -P)\" > ran.tmp; "
                                                          "mv ran.tmp ran; exec sleep 30"),
                                           m_dir->path()),
                             {0}, false));
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(path(QStringLiteral("ran"))), 5000);
        QCOMPARE(readFileOrEmpty(path(QStringLiteral("ran"))).trimmed(),
                 QStringLiteral("uid=0 home=%1 in=%2")
                     .arg(qEnvironmentVariable("HOME"), QFileInfo(m_dir->path()).canonicalFilePath())
                     .toUtf8());
        QCOMPARE(stateOf(runner, "w"), WorkloadRuntime::Running);
        runner.stopAll(QStringLiteral("test"));
        QTRY_VERIFY_WITH_TIMEOUT(stateOf(runner, "w") == WorkloadRuntime::Stopped, 5000);
    }

    // Another user's workload starts from a fresh environment, as runuser -l makes one: that user's identity, a fixed
    // PATH and idlegpu's language, then the GPU selection and env=; nothing else of idlegpu's (root's) own.
    void userEnvironment()
    {
        QProcessEnvironment own;
        own.insert(QStringLiteral("PATH"), QStringLiteral("/root/bin:/usr/bin"));
        own.insert(QStringLiteral("HOME"), QStringLiteral("/root"));
        own.insert(QStringLiteral("XDG_RUNTIME_DIR"), QStringLiteral("/run/user/0"));
        own.insert(QStringLiteral("CUDA_VISIBLE_DEVICES"), QStringLiteral("3"));
        own.insert(QStringLiteral("FOO_SECRET"), QStringLiteral("root's"));
        own.insert(QStringLiteral("LANG"), QStringLiteral("de_DE.UTF-8"));
        own.insert(QStringLiteral("LC_TIME"), QStringLiteral("C"));
        const UserAccount alice{QStringLiteral("alice"), 1000, 1000, QStringLiteral("/home/alice"), QString()};
        const QProcessEnvironment env =
            workloadEnvironment({{QStringLiteral("LOGNAME"), QStringLiteral("miner")}}, {1}, false, {}, {},
                                loginEnvironment(alice, own));
        QCOMPARE(env.value(QStringLiteral("HOME")), QStringLiteral("/home/alice"));
        QCOMPARE(env.value(QStringLiteral("USER")), QStringLiteral("alice"));
        QCOMPARE(env.value(QStringLiteral("LOGNAME")), QStringLiteral("miner")); // env= has the last word
        QCOMPARE(env.value(QStringLiteral("SHELL")), QStringLiteral("/bin/sh"));  // none in passwd
        QCOMPARE(env.value(QStringLiteral("PATH")), QLatin1String(kLoginPath));
        QCOMPARE(env.value(QStringLiteral("CUDA_VISIBLE_DEVICES")), QStringLiteral("1"));
        QCOMPARE(env.value(QStringLiteral("LANG")), QStringLiteral("de_DE.UTF-8"));
        QCOMPARE(env.value(QStringLiteral("LC_TIME")), QStringLiteral("C"));
        QVERIFY(!env.contains(QStringLiteral("XDG_RUNTIME_DIR")));
        QVERIFY(!env.contains(QStringLiteral("FOO_SECRET")));
    }
};

QTEST_GUILESS_MAIN(TestProcessRunner)
#include "tst_processrunner.moc"
