// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// idlegpu-reaper driven directly, over real processes: exit passthrough, stop and kill of whole trees
// (escapees included), the end of everything when its parent dies by SIGKILL, and the priority of the tree.
#include "testsupport.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QScopeGuard>
#include <QTemporaryDir>
#include <QtTest>

#include "config/useraccount.h"

#include <algorithm>
#include <memory>

#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

using TestSupport::processAlive;
using TestSupport::reaperPath;

namespace {

// The pid a test workload wrote into `name` (in `dir`); 0 while the file is missing or incomplete.
qint64 pidFromFile(const QTemporaryDir &dir, const QString &name)
{
    QFile file(dir.filePath(name));
    if (!file.open(QIODevice::ReadOnly))
        return 0;
    const QByteArray text = file.readAll();
    if (!text.endsWith('\n'))
        return 0;
    return text.trimmed().toLongLong();
}

// Field `index` (1-based, as in proc(5)) of /proc/<pid>/stat; -1 when unreadable.
qint64 statField(qint64 pid, int index)
{
    QFile file(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!file.open(QIODevice::ReadOnly))
        return -1;
    const QByteArray line = file.readAll();
    const int close = line.lastIndexOf(')');
    if (close < 0)
        return -1;
    const QList<QByteArray> fields = line.mid(close + 2).split(' '); // fields[0] is field 3 (state)
    return index - 3 < fields.size() ? fields.at(index - 3).toLongLong() : -1;
}

qint64 sessionOf(qint64 pid) { return statField(pid, 6); }

// The I/O scheduling class of `pid` by ioprio_get(2) (its value's bits from 13 up: 0 none, 1 realtime, 2 best
// effort, 3 idle); -1 when it cannot be read.
int ioClassOf(qint64 pid)
{
    const long value = syscall(SYS_ioprio_get, 1 /* IOPRIO_WHO_PROCESS */, pid_t(pid));
    return value < 0 ? -1 : int(value >> 13);
}

} // namespace

class TestReaper : public QObject
{
    Q_OBJECT

private:
    // Starts the reaper in `dir` with the given options and a `sh -c script` workload.
    void startReaper(QProcess &process, const QTemporaryDir &dir, const QStringList &options, const QString &script)
    {
        process.setProgram(reaperPath());
        process.setArguments(options + QStringList{QStringLiteral("--"), QStringLiteral("sh"), QStringLiteral("-c"),
                                                   script});
        process.setWorkingDirectory(dir.path());
        process.start();
        QVERIFY2(process.waitForStarted(5000), qPrintable(process.errorString()));
    }

    std::unique_ptr<QTemporaryDir> m_dir; // a fresh one per test: the workloads write pid files

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY2(QFileInfo(reaperPath()).isExecutable(), qPrintable(reaperPath()));
        // Workloads here crash on purpose: no core files.
        const rlimit noCore{0, 0};
        setrlimit(RLIMIT_CORE, &noCore);
    }

    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
    }

    void exitPassesThrough_data()
    {
        QTest::addColumn<QString>("script");
        QTest::addColumn<QProcess::ExitStatus>("status");
        QTest::addColumn<int>("code");
        QTest::newRow("exit 0") << "exit 0" << QProcess::NormalExit << 0;
        QTest::newRow("exit 3") << "exit 3" << QProcess::NormalExit << 3;
        QTest::newRow("SIGSEGV") << "kill -SEGV $$" << QProcess::CrashExit << int(SIGSEGV);
        QTest::newRow("SIGKILL") << "kill -KILL $$" << QProcess::CrashExit << int(SIGKILL);
        QTest::newRow("SIGTERM") << "kill -TERM $$" << QProcess::CrashExit << int(SIGTERM);
    }

    void exitPassesThrough()
    {
        QFETCH(QString, script);
        QFETCH(QProcess::ExitStatus, status);
        QFETCH(int, code);
        QProcess reaper;
        startReaper(reaper, *m_dir, {}, script);
        QVERIFY(reaper.waitForFinished(10000));
        QCOMPARE(reaper.exitStatus(), status);
        QCOMPARE(reaper.exitCode(), code);
    }

    void cannotRun_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<int>("code");
        QTest::addColumn<QString>("message");
        QTest::newRow("missing program") << QStringList{"--", "/nonexistent/idlegpu-test"} << 127
                                         << "idlegpu-reaper: cannot run '/nonexistent/idlegpu-test': No such file "
                                            "or directory";
        QTest::newRow("not executable") << QStringList{"--", "DIR/plain-file"} << 127
                                        << "idlegpu-reaper: cannot run 'DIR/plain-file': Permission denied";
        QTest::newRow("no program") << QStringList{"--"} << 2 << "usage: idlegpu-reaper";
        QTest::newRow("no --") << QStringList{"sleep", "1"} << 2 << "usage: idlegpu-reaper";
        QTest::newRow("bad number") << QStringList{"--grace-ms", "soon", "--", "true"} << 2 << "usage: idlegpu-reaper";
        QTest::newRow("bad priority") << QStringList{"--priority", "high", "--", "touch", "DIR/ran"} << 2
                                      << "usage: idlegpu-reaper";
        QTest::newRow("no priority") << QStringList{"--priority"} << 2 << "usage: idlegpu-reaper";
        // The account went away after idlegpu read the config: the program must not run (as root or otherwise).
        QTest::newRow("vanished user") << QStringList{"--user", "idlegpu-no-such-user", "--", "touch", "DIR/ran"}
                                       << 127
                                       << "idlegpu-reaper: cannot run as user 'idlegpu-no-such-user': no such user "
                                          "(any more)";
        QTest::newRow("empty user") << QStringList{"--user", "", "--", "touch", "DIR/ran"} << 2
                                    << "usage: idlegpu-reaper";
        QTest::newRow("log without socket") << QStringList{"--log", "DIR/w.log", "--", "touch", "DIR/ran"} << 2
                                            << "usage: idlegpu-reaper";
        QTest::newRow("log writer's cgroup without log")
            << QStringList{"--log-cgroup-fd", "0", "--", "touch", "DIR/ran"} << 2 << "usage: idlegpu-reaper";
        QTest::newRow("no environment") << QStringList{"--env-fd", "999", "--", "touch", "DIR/ran"} << 127
                                        << "idlegpu-reaper: cannot read the environment (--env-fd 999): Bad file "
                                           "descriptor";
    }

    void cannotRun()
    {
        QFETCH(QStringList, arguments);
        QFETCH(int, code);
        QFETCH(QString, message);
        const QString plainFile = TestSupport::writeFile(m_dir->filePath(QStringLiteral("plain-file")), "exit 0\n");
        QVERIFY(QFile::setPermissions(plainFile, QFile::ReadOwner | QFile::WriteOwner));
        arguments.replaceInStrings(QStringLiteral("DIR"), m_dir->path());
        message.replace(QStringLiteral("DIR"), m_dir->path());
        QProcess reaper;
        reaper.start(reaperPath(), arguments);
        QVERIFY(reaper.waitForFinished(10000));
        QCOMPARE(reaper.exitStatus(), QProcess::NormalExit);
        QCOMPARE(reaper.exitCode(), code);
        const QString stderrText = QString::fromLocal8Bit(reaper.readAllStandardError());
        QVERIFY2(stderrText.startsWith(message), qPrintable(stderrText));
        QVERIFY(!QFile::exists(m_dir->filePath(QStringLiteral("ran"))));
    }

    void priorityCoversTheWholeTree_data()
    {
        // What the test itself runs with: "normal" keeps it, "low" only raises the nice value to 10.
        errno = 0;
        const int ownNice = getpriority(PRIO_PROCESS, 0);
        QCOMPARE(errno, 0);
        const int ownPolicy = sched_getscheduler(0);
        const int ownIoClass = ioClassOf(::getpid());
        QTest::addColumn<QString>("priority");
        QTest::addColumn<QString>("user");
        QTest::addColumn<int>("policy"); // /proc/<pid>/stat field 41
        QTest::addColumn<int>("nice");   // field 19
        QTest::addColumn<int>("ioClass");
        QTest::newRow("idle") << "idle" << "" << int(SCHED_IDLE) << 19 << 3;
        QTest::newRow("low") << "low" << "" << ownPolicy << qMax(ownNice, 10) << ownIoClass;
        QTest::newRow("normal") << "normal" << "" << ownPolicy << ownNice << ownIoClass;
        // Set after the switch to user=: none of it needs a privilege.
        QTest::newRow("idle as nobody") << "idle" << "nobody" << int(SCHED_IDLE) << 19 << 3;
        QTest::newRow("low as nobody") << "low" << "nobody" << ownPolicy << qMax(ownNice, 10) << ownIoClass;
    }

    // The workload and a child it forks run with the priority asked for; the reaper keeps the test's own.
    void priorityCoversTheWholeTree()
    {
        QFETCH(QString, priority);
        QFETCH(QString, user);
        QFETCH(int, policy);
        QFETCH(int, nice);
        QFETCH(int, ioClass);
        QStringList options{QStringLiteral("--priority"), priority};
        if (!user.isEmpty()) {
            if (::geteuid() != 0)
                QSKIP("switching to another user needs root");
            if (!UserLookup::findAccount(user))
                QSKIP("this machine has no user 'nobody'");
            options += {QStringLiteral("--user"), user, QStringLiteral("--dir"), QStringLiteral("/")};
        }
        QProcess reaper;
        // The pids on stdout: a file in the test's folder could not be written as nobody.
        startReaper(reaper, *m_dir, options, QStringLiteral("sleep 300 & echo $$ $!; wait"));
        QByteArray line;
        while (!line.endsWith('\n') && reaper.waitForReadyRead(5000))
            line += reaper.readAllStandardOutput();
        const QList<QByteArray> pids = line.trimmed().split(' ');
        QVERIFY2(pids.size() == 2, line.constData());
        const qint64 workload = pids.at(0).toLongLong();
        const qint64 child = pids.at(1).toLongLong();
        QVERIFY(workload > 0 && child > 0);
        QCOMPARE(statField(workload, 4), qint64(reaper.processId())); // the reaper's own child

        for (const qint64 pid : {workload, child}) {
            QCOMPARE(statField(pid, 41), qint64(policy));
            QCOMPARE(statField(pid, 19), qint64(nice));
            QCOMPARE(ioClassOf(pid), ioClass);
        }
        // The reaper itself must answer a stop at once: it keeps the test's priority.
        QCOMPARE(statField(reaper.processId(), 41), qint64(sched_getscheduler(0)));
        QCOMPARE(statField(reaper.processId(), 19), qint64(getpriority(PRIO_PROCESS, 0)));
        QCOMPARE(reaper.readAllStandardError(), QByteArray()); // nothing refused

        reaper.terminate();
        QVERIFY(reaper.waitForFinished(5000));
        QVERIFY(!processAlive(child));
    }

    // --env-fd: the workload gets the environment read from the descriptor, none of the reaper's own, and its
    // program is looked up in that environment's PATH.
    void environmentFromDescriptor()
    {
        const QString bin = m_dir->filePath(QStringLiteral("bin"));
        const QString program =
            TestSupport::writeFile(bin + QStringLiteral("/idlegpu-test-env"), "#!/bin/sh\n/usr/bin/env > \"$OUT\"\n");
        QVERIFY(QFile::setPermissions(program, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
        const QString out = m_dir->filePath(QStringLiteral("env.txt"));
        const QByteArray block = "PATH=" + QFile::encodeName(bin) + '\0' + "OUT=" + QFile::encodeName(out) + '\0'
                                 + "WHO=the workload" + '\0';
        const QString blockFile = TestSupport::writeFile(m_dir->filePath(QStringLiteral("env.block")), block);
        const int fd = ::open(QFile::encodeName(blockFile).constData(), O_RDONLY); // no O_CLOEXEC: the reaper gets it
        QVERIFY(fd > 2);
        const auto closeFd = qScopeGuard([fd] { ::close(fd); });

        QProcess reaper;
        QProcessEnvironment own = QProcessEnvironment::systemEnvironment();
        own.insert(QStringLiteral("REAPER_ONLY"), QStringLiteral("1"));
        reaper.setProcessEnvironment(own);
        reaper.start(reaperPath(), {QStringLiteral("--env-fd"), QString::number(fd), QStringLiteral("--"),
                                    QStringLiteral("idlegpu-test-env")});
        QVERIFY(reaper.waitForFinished(10000));
        QCOMPARE(reaper.exitCode(), 0);
        QFile written(out);
        QVERIFY(written.open(QIODevice::ReadOnly));
        const QByteArray environment = written.readAll();
        QVERIFY2(environment.contains("\nWHO=the workload\n") || environment.startsWith("WHO=the workload\n"),
                 environment.constData());
        QVERIFY2(environment.contains("PATH=" + QFile::encodeName(bin) + '\n'), environment.constData());
        QVERIFY2(!environment.contains("REAPER_ONLY") && !environment.contains("HOME="), environment.constData());
    }

    void parentGoneBeforeStart()
    {
        QProcess reaper;
        // pid 1 is not the reaper's parent: it must take idlegpu for dead and run nothing.
        startReaper(reaper, *m_dir, {QStringLiteral("--parent"), QStringLiteral("1")}, QStringLiteral("echo > ran"));
        QVERIFY(reaper.waitForFinished(10000));
        QCOMPARE(reaper.exitCode(), 128 + SIGTERM);
        QVERIFY(!QFile::exists(m_dir->filePath(QStringLiteral("ran"))));
    }

    void termAloneDoesNotKillWhatIgnoresIt_usr1Does()
    {
        QProcess reaper;
        startReaper(reaper, *m_dir, {QStringLiteral("--grace-ms"), QStringLiteral("60000")},
                    QStringLiteral("trap '' TERM; sleep 300 & echo $! > child; echo $$ > main; wait"));
        QTRY_VERIFY_WITH_TIMEOUT(pidFromFile(*m_dir, "child") > 0 && pidFromFile(*m_dir, "main") > 0, 5000);
        const qint64 child = pidFromFile(*m_dir, "child");
        const qint64 main = pidFromFile(*m_dir, "main");

        reaper.terminate();
        QTest::qWait(1000); // the tree ignores SIGTERM and the grace is long: nothing may end
        QCOMPARE(reaper.state(), QProcess::Running);
        QVERIFY(processAlive(child));
        QVERIFY(processAlive(main));

        QCOMPARE(::kill(pid_t(reaper.processId()), SIGUSR1), 0);
        QTRY_COMPARE_WITH_TIMEOUT(reaper.state(), QProcess::NotRunning, 5000);
        QVERIFY(!processAlive(child));
        QVERIFY(!processAlive(main));
        QCOMPARE(reaper.exitStatus(), QProcess::CrashExit);
        QCOMPARE(reaper.exitCode(), int(SIGKILL)); // the workload died of it, and the reaper says so
    }

    void graceEndsWithSigkill()
    {
        QProcess reaper;
        startReaper(reaper, *m_dir, {QStringLiteral("--grace-ms"), QStringLiteral("300")},
                    QStringLiteral("trap '' TERM; sleep 300 & echo $! > child; wait"));
        QTRY_VERIFY_WITH_TIMEOUT(pidFromFile(*m_dir, "child") > 0, 5000);
        const qint64 child = pidFromFile(*m_dir, "child");
        reaper.terminate();
        QTRY_COMPARE_WITH_TIMEOUT(reaper.state(), QProcess::NotRunning, 5000);
        QVERIFY(!processAlive(child));
    }

    void stopEndsEscapees()
    {
        QProcess reaper;
        // A setsid escapee with a child, a double fork, and the main shell.
        startReaper(reaper, *m_dir, {},
                    QStringLiteral("setsid sh -c 'sleep 300 & echo $! > escapee-child; echo $$ > escapee; wait' &"
                                   " sh -c 'sleep 300 & echo $! > double-forked' &"
                                   " echo $$ > main; wait"));
        const QStringList names{"escapee-child", "escapee", "double-forked", "main"};
        QTRY_VERIFY_WITH_TIMEOUT(std::all_of(names.begin(), names.end(),
                                             [this](const QString &name) { return pidFromFile(*m_dir, name) > 0; }),
                                 5000);
        QList<qint64> pids;
        for (const QString &name : names)
            pids.append(pidFromFile(*m_dir, name));
        const qint64 reaperPid = reaper.processId();
        QCOMPARE(sessionOf(pidFromFile(*m_dir, "main")), reaperPid);
        QVERIFY(sessionOf(pidFromFile(*m_dir, "escapee")) != reaperPid); // it did escape the session
        QTRY_COMPARE_WITH_TIMEOUT(statField(pidFromFile(*m_dir, "double-forked"), 4), reaperPid, 5000); // adopted

        reaper.terminate();
        QTRY_COMPARE_WITH_TIMEOUT(reaper.state(), QProcess::NotRunning, 5000);
        for (qint64 pid : std::as_const(pids))
            QVERIFY2(!processAlive(pid), qPrintable(QString::number(pid)));
    }

    void leftoversEndWhenWorkloadExits()
    {
        QProcess reaper;
        startReaper(reaper, *m_dir, {QStringLiteral("--grace-ms"), QStringLiteral("500")},
                    QStringLiteral("setsid sh -c 'trap \"\" TERM; sleep 300 & echo $! > left; wait' &"
                                   " sleep 300 & echo $! > left2;"
                                   " while [ ! -s left ]; do sleep 0.05; done; exit 5"));
        QVERIFY(reaper.waitForFinished(10000));
        QCOMPARE(reaper.exitStatus(), QProcess::NormalExit);
        QCOMPARE(reaper.exitCode(), 5);
        QVERIFY(pidFromFile(*m_dir, "left") > 0);
        QVERIFY(!processAlive(pidFromFile(*m_dir, "left")));
        QVERIFY(!processAlive(pidFromFile(*m_dir, "left2")));
    }

    void parentKilledEndsEverything()
    {
        // The reaper's parent stands in for idlegpu and dies by SIGKILL; the workload ignores SIGTERM.
        QProcess parent;
        parent.setWorkingDirectory(m_dir->path());
        parent.start(QStringLiteral("/bin/sh"),
                     {QStringLiteral("-c"),
                      QStringLiteral("\"$1\" --parent $$ -- sh -c 'trap \"\" TERM; sleep 300 & echo $! > child;"
                                     " setsid sleep 300 & echo $! > escapee; echo $$ > main; wait' &"
                                     " echo $! > reaper; wait"),
                      QStringLiteral("sh"), reaperPath()});
        QVERIFY(parent.waitForStarted(5000));
        const QStringList names{"child", "escapee", "main", "reaper"};
        QTRY_VERIFY_WITH_TIMEOUT(std::all_of(names.begin(), names.end(),
                                             [this](const QString &name) { return pidFromFile(*m_dir, name) > 0; }),
                                 5000);
        QList<qint64> pids;
        for (const QString &name : names)
            pids.append(pidFromFile(*m_dir, name));

        parent.kill();
        QVERIFY(parent.waitForFinished(5000));
        // The requirement: nothing survives idlegpu by more than 2 s (the orphan grace is 1 s).
        QTRY_VERIFY_WITH_TIMEOUT(std::none_of(pids.begin(), pids.end(), processAlive), 3000);
    }
};

QTEST_GUILESS_MAIN(TestReaper)
#include "tst_reaper.moc"
