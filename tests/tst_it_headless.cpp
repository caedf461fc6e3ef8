// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The real binary, as a user or supervisord runs it: idlegpu --headless, --status, --check-config.
#include "config/configkeys.h"
#include "config/useraccount.h"
#include "holders/ttyscanner.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QtTest>

#include <signal.h>
#include <unistd.h>

using namespace TestSupport;

class TestHeadless : public QObject
{
    Q_OBJECT

private:
    QString binary() const { return QStringLiteral(IDLEGPU_BINARY); }

    // A workload that writes its own pid and a child's pid, so the test can check they are gone later.
    QString writeConfig(const QTemporaryDir &dir, const FakeDevRoot &dev, int startDelay = 0)
    {
        // The trap proves the workload gets a real SIGTERM (not blocked, not only the SIGKILL after the timeout).
        const QString cmd = QStringLiteral("sh -c 'echo $$ > %1/workload.pid; trap \"echo term > %1/term.mark; "
                                           "exit 0\" TERM; sleep 1000 & echo $! > %1/child.pid; wait'")
                                .arg(dir.path());
        const QString body = defaultsSection(dev.path(), {.startDelaySeconds = startDelay})
                             + QStringLiteral("[process-miner]\ncmd=%1\ngpus=0\n").arg(cmd);
        return writeFile(dir.filePath(QStringLiteral("idlegpu.conf")), body.toUtf8());
    }
    static qint64 readPid(const QString &path)
    {
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            return 0;
        return file.readAll().trimmed().toLongLong();
    }

    // The pids the workload of writeConfig() wrote once it ran, its child alive; {0, 0} after a time-out.
    struct WorkloadPids
    {
        qint64 workload = 0;
        qint64 child = 0;
    };
    WorkloadPids awaitWorkload(const QTemporaryDir &dir)
    {
        const QString childFile = dir.filePath(QStringLiteral("child.pid"));
        if (!QTest::qWaitFor([&] { return readPid(childFile) > 0; }, 8000))
            return {};
        const WorkloadPids pids{readPid(dir.filePath(QStringLiteral("workload.pid"))), readPid(childFile)};
        return QTest::qWaitFor([&] { return processAlive(pids.child); }, 3000) ? pids : WorkloadPids{};
    }

    // gpu_mon's example, byte for byte, in a folder of the test's own (the file must be root's and writable by
    // root alone, whoever checked the sources out).
    static QByteArray gpuMonExample()
    {
        QFile file(QStringLiteral(IDLEGPU_TEST_DATA "/gpu_mon_example_all.conf"));
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }
    static int lineOf(const QByteArray &text, const QByteArray &line)
    {
        const qsizetype at = text.indexOf("\n" + line + "\n");
        return at < 0 ? 0 : int(text.left(at + 1).count('\n')) + 1;
    }
    static QString runsAsRootWarning(const QString &file, int line)
    {
        return QStringLiteral("%1:%2: warning: [process-all] runs as root, as gpu_mon ran it: add `user = NAME` to "
                              "run it as that user")
            .arg(file)
            .arg(line);
    }
    // idlegpu --check-config --config `config`, run to its end.
    struct CheckConfig
    {
        bool finished = false;
        bool exitedZero = false; // a normal exit with status 0
        QString out;
        QString err;
    };
    CheckConfig checkConfig(const QString &config) const
    {
        QProcess check;
        check.start(binary(), {QStringLiteral("--check-config"), QStringLiteral("--config"), config});
        CheckConfig result;
        result.finished = check.waitForFinished(10000);
        result.exitedZero = check.exitStatus() == QProcess::NormalExit && check.exitCode() == 0;
        result.err = QString::fromUtf8(check.readAllStandardError());
        result.out = QString::fromUtf8(check.readAllStandardOutput());
        return result;
    }

    // The uid a process runs as, from the Uid: line of /proc/<pid>/status (real, effective, saved, file system).
    static QString uidsOf(qint64 pid)
    {
        QFile status(QStringLiteral("/proc/%1/status").arg(pid));
        if (!status.open(QIODevice::ReadOnly))
            return QString();
        for (const QByteArray &line : status.readAll().split('\n'))
            if (line.startsWith("Uid:"))
                return QString::fromLatin1(line.mid(4).simplified());
        return QString();
    }

private Q_SLOTS:
    void sigtermStopsWorkloadsAndExitsZero()
    {
        QTemporaryDir dir;
        FakeDevRoot dev(1);
        const QString config = writeConfig(dir, dev);
        auto idlegpu = startHeadless(config, dir.path());
        QVERIFY(idlegpu->waitForStarted());
        const auto [workload, child] = awaitWorkload(dir);
        QVERIFY2(child > 0, "the workload and its child run");

        ::kill(pid_t(idlegpu->processId()), SIGTERM);
        QVERIFY(idlegpu->waitForFinished(15000));
        const QByteArray log = idlegpu->readAll();
        QVERIFY2(idlegpu->exitStatus() == QProcess::NormalExit && idlegpu->exitCode() == 0, log.constData());
        QVERIFY(!processAlive(workload));
        QVERIFY(!processAlive(child));
        QVERIFY2(QFile::exists(dir.filePath(QStringLiteral("term.mark"))), "the workload's TERM trap ran");
    }

    void sigkillLeavesNothingBehind()
    {
        QTemporaryDir dir;
        FakeDevRoot dev(1);
        const QString config = writeConfig(dir, dev);
        auto idlegpu = startHeadless(config, dir.path());
        QVERIFY(idlegpu->waitForStarted());
        const auto [workload, child] = awaitWorkload(dir);
        QVERIFY2(child > 0, "the workload and its child run");

        ::kill(pid_t(idlegpu->processId()), SIGKILL);
        QVERIFY(idlegpu->waitForFinished(5000));
        // No workload process, children included, survives idlegpu by more than 2 s.
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(workload) && !processAlive(child), 2000);

        // And a new idlegpu finds the GPU free of the old run: it starts its own workload.
        QFile::remove(dir.filePath(QStringLiteral("child.pid")));
        auto second = startHeadless(config, dir.path());
        QTRY_VERIFY_WITH_TIMEOUT(readPid(dir.filePath(QStringLiteral("child.pid"))) > 0, 8000);
        ::kill(pid_t(second->processId()), SIGTERM);
        QVERIFY(second->waitForFinished(15000));
        QCOMPARE(second->exitCode(), 0);
    }

    void secondInstanceRefuses()
    {
        QTemporaryDir dir;
        FakeDevRoot dev(1);
        const QString config = writeConfig(dir, dev, 60);
        auto first = startHeadless(config, dir.path());
        QVERIFY(first->waitForStarted());
        QTest::qWait(500);
        auto second = startHeadless(config, dir.path());
        QVERIFY(second->waitForFinished(10000));
        QVERIFY(second->exitCode() != 0);
        QVERIFY2(second->readAll().contains("already running"), "the second one says why");
        QCOMPARE(first->state(), QProcess::Running);
        ::kill(pid_t(first->processId()), SIGTERM);
        QVERIFY(first->waitForFinished(15000));
        QCOMPARE(first->exitCode(), 0);
    }

    void checkConfigGoodAndBad()
    {
        QTemporaryDir dir;
        FakeDevRoot dev(1);
        const QString good = writeConfig(dir, dev);
        QProcess check;
        check.start(binary(), {QStringLiteral("--check-config"), QStringLiteral("--config"), good});
        QVERIFY(check.waitForFinished(10000));
        QCOMPARE(check.exitCode(), 0);
        const QString out = QString::fromUtf8(check.readAllStandardOutput());
        QVERIFY2(out.contains(QStringLiteral("cmd = sh -c 'echo $$ > ")), qPrintable(out));
        // The settings a key may leave at their defaults are shown with them.
        QVERIFY2(out.contains(QStringLiteral("    priority = idle\n")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("[schedule] run = (always)\n")), qPrintable(out));
        // The node defaults to the short host name, whatever this machine's is.
        QVERIFY2(out.contains(QRegularExpression(QStringLiteral(
                     "\\[slurm\\] enabled = false, node = [^ ,.]+, partition = owner, gres_type = gpu%d, "
                     "stop_timeout_seconds = 10\n"))),
                 qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("on_battery = pause\n")), qPrintable(out));

        const QString bad = writeFile(dir.filePath(QStringLiteral("bad.conf")),
                                      "[defaults]\ninterval_seconds=ten\n[process-x]\ngpus=0\n");
        check.start(binary(), {QStringLiteral("--check-config"), QStringLiteral("--config"), bad});
        QVERIFY(check.waitForFinished(10000));
        QCOMPARE(check.exitCode(), 1);
        const QString err = QString::fromUtf8(check.readAllStandardError());
        QVERIFY2(err.contains(bad + QStringLiteral(":2:")), qPrintable(err));
        QVERIFY2(err.contains(bad + QStringLiteral(":3:")), qPrintable(err)); // the workload without cmd

        const QString binaryFile = writeFile(dir.filePath(QStringLiteral("garbage.conf")), QByteArray("\x7f""ELF\0\0\x01\xff\xfe", 9));
        check.start(binary(), {QStringLiteral("--check-config"), QStringLiteral("--config"), binaryFile});
        QVERIFY(check.waitForFinished(10000));
        QCOMPARE(check.exitStatus(), QProcess::NormalExit);
        QCOMPARE(check.exitCode(), 1);

        check.start(binary(), {QStringLiteral("--check-config"), QStringLiteral("--config"), dir.filePath(QStringLiteral("missing.conf"))});
        QVERIFY(check.waitForFinished(10000));
        QCOMPARE(check.exitCode(), 1);
    }

    // As gpu_mon ran under supervisord (root, so that fuser saw every user): its own example file is accepted as
    // it is, its workload named as running as root, with how to drop root.
    void checkConfigAcceptsGpuMonExampleAsRoot()
    {
        if (::geteuid() != 0)
            QSKIP("needs root: a workload without user= runs as root, with the warning, only when idlegpu is root");
        QTemporaryDir dir;
        const QByteArray example = gpuMonExample();
        QVERIFY(!example.isEmpty());
        const QString config = writeFile(dir.filePath(QStringLiteral("gpu_mon.conf")), example);
        QVERIFY(QFile::setPermissions(config, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadGroup | QFile::ReadOther));
        const CheckConfig check = checkConfig(config);
        QVERIFY(check.finished);
        const QString &err = check.err;
        const QString &out = check.out;
        QVERIFY2(check.exitedZero, qPrintable(err));
        // miner-run is on no PATH here: a warning, as the settings dialog gives, and the file passes.
        const QStringList lines = err.trimmed().split(QLatin1Char('\n'));
        QCOMPARE(lines.size(), 2);
        QCOMPARE(lines.at(0), runsAsRootWarning(config, lineOf(example, "[process-all]")));
        QVERIFY2(
            lines.at(1).startsWith(QStringLiteral("%1:%2: warning: [process-all] cmd: the program miner-run is not "
                                                  "found in the workload's PATH (")
                                       .arg(config)
                                       .arg(lineOf(example, "cmd=miner-run"))),
            qPrintable(err));
        QVERIFY2(out.contains(QStringLiteral("cmd = miner-run")), qPrintable(out));
    }

    // A new user's check of a file that sets every key (tests/data/config_every_key.conf, its user = root made
    // whoever runs the test): the printout names every key of the table, under its section, with the value read.
    void checkConfigPrintsEveryKey()
    {
        QTemporaryDir dir;
        QFile fixture(QStringLiteral(IDLEGPU_TEST_DATA "/config_every_key.conf"));
        QVERIFY(fixture.open(QIODevice::ReadOnly));
        QByteArray contents = fixture.readAll();
        contents.replace("user = root", "user = " + userName(::geteuid()).toUtf8());
        const QString config = writeFile(dir.filePath(QStringLiteral("idlegpu.conf")), contents);
        const CheckConfig check = checkConfig(config);
        QVERIFY(check.finished);
        const QString &err = check.err;
        const QString &out = check.out;
        QVERIFY2(check.exitedZero, qPrintable(err));

        // [defaults] and each [process-*] head the lines of their keys ("key = ", "    key = "); every other section
        // is one line, "[tty] enabled = true, whitelist = ...".
        QHash<QString, QSet<QString>> printed; // section of the table -> its keys printed
        QString block;
        static const QRegularExpression header(QStringLiteral("^\\[([^]]+)\\](.*)$"));
        static const QRegularExpression keyOfLine(QStringLiteral("^(?:    )?([a-z_]+) = "));
        static const QRegularExpression keyInLine(QStringLiteral("(?:^ |, )([a-z_]+) = "));
        for (const QString &line : out.split(QLatin1Char('\n'))) {
            if (const QRegularExpressionMatch match = header.match(line); match.hasMatch()) {
                block = ConfigKeys::sectionOf(match.captured(1));
                QVERIFY2(!block.isEmpty(), qPrintable(line));
                for (auto key = keyInLine.globalMatch(match.captured(2)); key.hasNext();)
                    printed[block].insert(key.next().captured(1));
            } else if (const QRegularExpressionMatch key = keyOfLine.match(line); key.hasMatch() && !block.isEmpty()) {
                printed[block].insert(key.captured(1));
            }
        }
        for (const KeyRow *row : ConfigKeys::table())
            QVERIFY2(printed.value(QLatin1String(row->section)).contains(QLatin1String(row->key)),
                     qPrintable(row->name() + QStringLiteral(" is not printed:\n") + out));
        QVERIFY2(out.contains(QStringLiteral("\nmax_temperature_c = 85\n")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("\nnotify = preemption, config\n")), qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("\n[tty] enabled = true, whitelist = alice,bob, idle_seconds = 600\n")),
                 qPrintable(out));
        QVERIFY2(out.contains(QStringLiteral("\n    command_timeout_seconds = 60\n")), qPrintable(out));
    }

    // And it runs it, as root: the example with only a program that exists for cmd= and a device_root of fake
    // GPUs added (its log=/dev/null and dir=/tmp as they are; its start delay, the default 10 s, too).
    void headlessRunsGpuMonExampleAsRoot()
    {
        if (::geteuid() != 0)
            QSKIP("needs root: a workload without user= runs as root, with the warning, only when idlegpu is root");
        QTemporaryDir dir;
        FakeDevRoot dev(2);
        QByteArray example = gpuMonExample();
        QVERIFY(example.contains("\ncmd=miner-run\n"));
        QVERIFY(example.contains("\ninterval_seconds=10\n"));
        const QString pidFile = dir.filePath(QStringLiteral("workload.pid"));
        example.replace("\ncmd=miner-run\n",
                        QStringLiteral("\ncmd=sh -c 'echo $$ > %1.tmp; mv %1.tmp %1; exec sleep 1000'\n")
                            .arg(pidFile)
                            .toUtf8());
        example.replace("\ninterval_seconds=10\n", "\ninterval_seconds=10\ndevice_root=" + dev.path().toUtf8() + "\n");
        // The example's [tty] rule (enabled, whitelist user1,user2) holds every workload while someone else types in
        // a terminal: as whoever runs this test from one does. Their terminals are whitelisted then; the rule stays.
        QStringList active;
        for (const TtySession &session : scanTtys(QStringLiteral("/dev/pts"), QDateTime::currentMSecsSinceEpoch()))
            if (session.idleMs < 600'000 && !active.contains(session.user))
                active.append(session.user);
        if (!active.isEmpty())
            example.replace("\nwhitelist=user1,user2\n", "\nwhitelist=user1,user2," + active.join(',').toUtf8() + "\n");
        const QString config = writeFile(dir.filePath(QStringLiteral("gpu_mon.conf")), example);

        auto idlegpu = startHeadless(config, dir.path());
        QVERIFY(idlegpu->waitForStarted());
        QByteArray log;
        const bool started = QTest::qWaitFor(
            [&] {
                log += idlegpu->readAll();
                return readPid(pidFile) > 0;
            },
            30000);
        QVERIFY2(started, log.constData());
        const qint64 workload = readPid(pidFile);
        QCOMPARE(uidsOf(workload), QStringLiteral("0 0 0 0"));
        log += idlegpu->readAll();
        // In the log, under idlegpu's config category, at warning priority (where `journalctl -p warning` finds it).
        const QByteArray warned = "warning: idlegpu.config: "
                                  + runsAsRootWarning(config, lineOf(example, "[process-all]")).toUtf8();
        QVERIFY2(log.contains(warned), log.constData());

        ::kill(pid_t(idlegpu->processId()), SIGTERM);
        QVERIFY(idlegpu->waitForFinished(15000));
        QCOMPARE(idlegpu->exitCode(), 0);
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(workload), 5000);
    }

    void statusJsonNamesTheHolder()
    {
        QTemporaryDir dir;
        FakeDevRoot dev(2);
        const QString config = writeConfig(dir, dev);
        NodeHolder job(dev.computeJob(1), QStringLiteral("python3"));
        QVERIFY(job.waitUntilOpen());
        QProcess status;
        status.start(binary(), {QStringLiteral("--status"), QStringLiteral("--json"), QStringLiteral("--config"), config});
        QVERIFY(status.waitForFinished(10000));
        QCOMPARE(status.exitCode(), 0);
        const QJsonObject json = QJsonDocument::fromJson(status.readAllStandardOutput()).object();
        const QJsonArray gpus = json.value(QStringLiteral("gpus")).toArray();
        QCOMPARE(gpus.size(), 2);
        QCOMPARE(gpus.at(0).toObject().value(QStringLiteral("busy")).toBool(), false);
        QCOMPARE(gpus.at(1).toObject().value(QStringLiteral("busy")).toBool(), true);
        const QJsonObject holder = gpus.at(1).toObject().value(QStringLiteral("holders")).toArray().at(0).toObject();
        QCOMPARE(holder.value(QStringLiteral("pid")).toInteger(), job.pid());
        QCOMPARE(holder.value(QStringLiteral("comm")).toString(), QStringLiteral("python3"));
        QCOMPARE(holder.value(QStringLiteral("client")).toString(), QStringLiteral("compute"));
        QVERIFY2(holder.value(QStringLiteral("why")).toString().contains(QLatin1String("nvidia-uvm")),
                 qPrintable(holder.value(QStringLiteral("why")).toString()));
        const QJsonObject workload = json.value(QStringLiteral("workloads")).toArray().at(0).toObject();
        QCOMPARE(workload.value(QStringLiteral("would_run")).toBool(), true);
        QCOMPARE(json.value(QStringLiteral("configured")).toBool(), true);

        // The text says what would happen on a free GPU as a possibility, not as something running.
        status.start(binary(), {QStringLiteral("--status"), QStringLiteral("--config"), config});
        QVERIFY(status.waitForFinished(10000));
        QCOMPARE(status.exitCode(), 0);
        const QString text = QString::fromUtf8(status.readAllStandardOutput());
        QVERIFY2(text.contains(QStringLiteral("\nGPU 0: free: miner would run\n")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("\nGPU 1: busy")), qPrintable(text));
    }
};

QTEST_GUILESS_MAIN(TestHeadless)
#include "tst_it_headless.moc"
