// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The guard file (slurm/guardfile.h) and Slurm's prolog and health check over it (app/slurmguard.h), in a folder of
// the test's own (trusted for whoever runs the test, so that it needs no root): written and read back; every hostile
// heartbeat (a link, another owner's file, writable by others, garbage, huge, a dead pid, a reused pid, stale,
// stopped) refuses the job with its reason; a real process holding a fake GPU node open refuses it; the hold
// partition passes; the drain runs through a fake scontrol, never on a node drained already (as a fake sinfo's JSON
// says, whatever its reason). The monitor writes it
// every second while [slurm] is on, and once more, stopped, at its exit.
#include "config/config.h"
#include "monitor.h"
#include "slurm/guardfile.h"
#include "slurm/slurmlender.h"
#include "slurmguard.h"
#include "testsupport.h"

#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

using namespace SlurmGuard;
using namespace TestSupport;

namespace {

const QString kNode = QStringLiteral("ws0");

qint64 nowMs()
{
    return SystemClock::instance()->nowMs();
}

// This process, running and current, with GPUs 0 and 1 of `dev`.
Heartbeat currentHeartbeat(const QString &devRoot = QStringLiteral("/dev"))
{
    Heartbeat heartbeat = selfHeartbeat();
    heartbeat.node = kNode;
    heartbeat.partition = QStringLiteral("owner");
    heartbeat.gpus = {{0, devRoot + QStringLiteral("/nvidia0")}, {1, devRoot + QStringLiteral("/nvidia1")}};
    heartbeat.monotonicMs = nowMs();
    heartbeat.writtenAt = QStringLiteral("2026-12-02T06:00:00.000Z");
    return heartbeat;
}

// A pid no process has now: a child that has ended and been reaped.
qint64 deadPid()
{
    QProcess process;
    process.start(QStringLiteral("/bin/true"), {});
    process.waitForFinished();
    return process.processId() > 0 ? process.processId() : 4'194'303;
}

} // namespace

class TestSlurmGuard : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;
    QString guardPath() const { return m_dir->filePath(fileName(kNode)); }
    void writeHeartbeat(const Heartbeat &heartbeat)
    {
        GuardFile file(m_dir->path());
        QVERIFY(file.write(heartbeat));
    }
    void writeRaw(const QByteArray &text, mode_t mode = 0644)
    {
        QFile::remove(guardPath());
        QFile file(guardPath());
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text);
        file.close();
        QVERIFY(::chmod(QFile::encodeName(guardPath()).constData(), mode) == 0);
    }
    ReadResult readGuard() const { return read(m_dir->path(), kNode, ::geteuid()); }
    QString prolog(const PrologJob &job) const
    {
        return prologRefusal(readGuard(), job, kNode, QStringLiteral("/proc"), nowMs(), QStringLiteral("owner"));
    }
    static PrologJob labJob(const QList<int> &gpus = {0})
    {
        PrologJob job;
        job.id = 12;
        job.partition = QStringLiteral("scavenger");
        job.gresPositions = gpus;
        return job;
    }

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
    }

    void writtenAndReadBack()
    {
        Heartbeat heartbeat = currentHeartbeat();
        heartbeat.slurmConf = QStringLiteral("/etc/slurm/slurm.conf");
        writeHeartbeat(heartbeat);
        struct stat st{};
        QVERIFY(::lstat(QFile::encodeName(guardPath()).constData(), &st) == 0);
        QCOMPARE(st.st_mode & 07777, mode_t(0644));
        QCOMPARE(st.st_uid, ::geteuid());
        const ReadResult result = readGuard();
        QVERIFY2(result.heartbeat, qPrintable(result.problem));
        QCOMPARE(*result.heartbeat, heartbeat);
        QVERIFY(heartbeat.startTime > 0);
        QCOMPARE(notRunningReason(result, kNode, QStringLiteral("/proc"), nowMs()), QString());
        QCOMPARE(prolog(labJob({0, 1})), QString());
        // Written again: replaced in one rename, nothing left beside it.
        heartbeat.monotonicMs += 1000;
        writeHeartbeat(heartbeat);
        QCOMPARE(QDir(m_dir->path()).entryList(QDir::Files | QDir::Hidden), QStringList{fileName(kNode)});
        QCOMPARE(readGuard().heartbeat->monotonicMs, heartbeat.monotonicMs);
    }

    void hostileHeartbeatRefuses_data()
    {
        QTest::addColumn<QString>("kind");
        QTest::addColumn<QString>("reason");
        const QString notRunning = QStringLiteral("idlegpu: not running on ws0 (");
        QTest::newRow("missing") << "missing" << notRunning + QStringLiteral("no ");
        QTest::newRow("a link") << "link" << notRunning;
        QTest::newRow("another owner's") << "owner" << notRunning;
        QTest::newRow("group-writable") << "group-writable" << notRunning;
        QTest::newRow("other-writable") << "other-writable" << notRunning;
        QTest::newRow("a folder") << "folder" << notRunning;
        QTest::newRow("a FIFO") << "fifo" << notRunning;
        QTest::newRow("garbage") << "garbage" << notRunning;
        QTest::newRow("JSON of another shape") << "shape" << notRunning;
        QTest::newRow("cut short") << "cut" << notRunning;
        QTest::newRow("huge") << "huge" << notRunning;
        QTest::newRow("another node's") << "node" << notRunning;
        QTest::newRow("a dead pid") << "dead" << notRunning + QStringLiteral("pid ");
        QTest::newRow("a reused pid") << "reused" << notRunning + QStringLiteral("pid ");
        QTest::newRow("stale") << "stale" << QStringLiteral("idlegpu: hangs on ws0 (no heartbeat for 6 s)");
        QTest::newRow("dated ahead") << "ahead" << notRunning + QStringLiteral("its heartbeat is dated");
        QTest::newRow("stopped") << "stopped" << notRunning + QStringLiteral("it stopped at");
    }

    void hostileHeartbeatRefuses()
    {
        QFETCH(QString, kind);
        QFETCH(QString, reason);
        Heartbeat heartbeat = currentHeartbeat();
        const QByteArray good = toJson(heartbeat);
        const QByteArray path = QFile::encodeName(guardPath());
        if (kind == QLatin1String("link")) {
            writeFile(m_dir->filePath(QStringLiteral("real")), good);
            QVERIFY(::symlink("real", path.constData()) == 0);
        } else if (kind == QLatin1String("owner")) {
            if (::geteuid() != 0)
                QSKIP("needs root to give the file another owner");
            writeRaw(good);
            QVERIFY(::chown(path.constData(), 65534, 65534) == 0);
        } else if (kind == QLatin1String("group-writable")) {
            writeRaw(good, 0664);
        } else if (kind == QLatin1String("other-writable")) {
            writeRaw(good, 0646);
        } else if (kind == QLatin1String("folder")) {
            QVERIFY(QDir(m_dir->path()).mkdir(fileName(kNode)));
        } else if (kind == QLatin1String("fifo")) {
            QVERIFY(::mkfifo(path.constData(), 0644) == 0); // not waited for: opened O_NONBLOCK, refused on fstat
        } else if (kind == QLatin1String("garbage")) {
            writeRaw("\x7f" "ELF\x01\x02garbage{{{");
        } else if (kind == QLatin1String("shape")) {
            writeRaw(R"({"format":1,"pid":"1","node":["ws0"],"gpus":{}})");
        } else if (kind == QLatin1String("cut")) {
            writeRaw(good.left(good.size() / 2));
        } else if (kind == QLatin1String("huge")) {
            writeRaw(good + QByteArray(kMaxFileBytes, ' '));
        } else if (kind == QLatin1String("node")) {
            heartbeat.node = QStringLiteral("ws1");
            writeRaw(toJson(heartbeat));
        } else if (kind == QLatin1String("dead")) {
            heartbeat.pid = deadPid();
            writeRaw(toJson(heartbeat));
        } else if (kind == QLatin1String("reused")) {
            heartbeat.startTime += 1; // this process's pid, but another start time: another process
            writeRaw(toJson(heartbeat));
        } else if (kind == QLatin1String("stale")) {
            heartbeat.monotonicMs = nowMs() - 6'500;
            writeRaw(toJson(heartbeat));
        } else if (kind == QLatin1String("ahead")) {
            heartbeat.monotonicMs = nowMs() + 60'000;
            writeRaw(toJson(heartbeat));
        } else if (kind == QLatin1String("stopped")) {
            heartbeat.stopped = true;
            writeRaw(toJson(heartbeat));
        }
        const ReadResult result = readGuard();
        const QString health = notRunningReason(result, kNode, QStringLiteral("/proc"), nowMs());
        QVERIFY2(health.startsWith(reason), qPrintable(health));
        QVERIFY2(health.size() < 400 && !health.contains(QLatin1Char('\n')), qPrintable(health));
        QCOMPARE(prolog(labJob()), health);
        // Jobs of the hold partition pass all the same: the partition is the heartbeat's only when it is trusted.
        PrologJob hold = labJob();
        hold.partition = QStringLiteral("owner");
        QCOMPARE(prolog(hold), QString());
    }

    void reasonsNameWhat()
    {
        Heartbeat heartbeat = currentHeartbeat();
        heartbeat.pid = deadPid();
        writeHeartbeat(heartbeat);
        QCOMPARE(notRunningReason(readGuard(), kNode, QStringLiteral("/proc"), nowMs()),
                 QStringLiteral("idlegpu: not running on ws0 (pid %1 is gone)").arg(heartbeat.pid));
        QFile::remove(guardPath());
        QCOMPARE(notRunningReason(readGuard(), kNode, QStringLiteral("/proc"), nowMs()),
                 QStringLiteral("idlegpu: not running on ws0 (no %1)").arg(guardPath()));
        // A hostile file cannot forge lines or long reasons: names are made printable and cut.
        heartbeat = currentHeartbeat();
        heartbeat.node = QStringLiteral("ws1\nReason=x") + QString(2000, QLatin1Char('y'));
        writeRaw(toJson(heartbeat));
        const QString reason = notRunningReason(readGuard(), kNode, QStringLiteral("/proc"), nowMs());
        QVERIFY2(!reason.contains(QLatin1Char('\n')) && reason.size() < 400, qPrintable(reason));
    }

    void holdPartitionPassesWithoutHeartbeat()
    {
        PrologJob hold = labJob();
        hold.partition = QStringLiteral("owner"); // the default, as there is no heartbeat to name another
        QCOMPARE(prolog(hold), QString());
        Heartbeat heartbeat = currentHeartbeat();
        heartbeat.partition = QStringLiteral("mine");
        heartbeat.stopped = true;
        writeHeartbeat(heartbeat);
        QVERIFY(!prolog(hold).isEmpty()); // "owner" is no hold partition here
        hold.partition = QStringLiteral("mine");
        QCOMPARE(prolog(hold), QString());
    }

    void foreignProcessOnTheJobsGpuRefuses()
    {
        FakeDevRoot dev(2);
        writeHeartbeat(currentHeartbeat(dev.path()));
        QCOMPARE(prolog(labJob({0})), QString());
        NodeHolder holder(dev.computeJob(1), QStringLiteral("python3"));
        QVERIFY(holder.waitUntilOpen());
        const QString reason = prolog(labJob({1}));
        QCOMPARE(reason, QStringLiteral("idlegpu: GPU 1 of ws0 is in use by pid %1 (python3)").arg(holder.pid()));
        QCOMPARE(prolog(labJob({0})), QString()); // only the job's GPUs count; nvidiactl and nvidia-uvm do not
        // The verdict's own cost (the file read and checked, every process's fds read): the figure for the docs.
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < 20; ++i)
            QCOMPARE(prolog(labJob({0})), QString());
        qInfo("the prolog's verdict, a GPU scanned for holders: %.2f ms", timer.nsecsElapsed() / 20 / 1e6);
        QCOMPARE(prolog(labJob({})), QString());  // a job without GPUs
        QVERIFY(prolog(labJob({2})).startsWith(QLatin1String("idlegpu: GPU 2 in ws0's gres.conf is not one")));
        holder.kill();
        QTRY_COMPARE(prolog(labJob({1})), QString());
    }

    // The CLI over a fake sinfo and scontrol: the drain only where the node is not drained, whatever the reason.
    void drainsOnlyWhereNotDrained_data()
    {
        QTest::addColumn<bool>("prolog");
        QTest::addColumn<QByteArray>("state"); // the node in sinfo's JSON
        QTest::addColumn<bool>("drains");
        for (const bool prolog : {true, false}) {
            const char *mode = prolog ? "prolog" : "health";
            QTest::addRow("%s, idle", mode) << prolog << QByteArray(R"("state": "idle", "state_flags": [])") << true;
            QTest::addRow("%s, drained by an admin", mode)
                << prolog << QByteArray(R"("state": "idle", "state_flags": ["DRAIN"], "reason": "maintenance")") << false;
            QTest::addRow("%s, drained by idlegpu", mode)
                << prolog << QByteArray(R"("state": "mixed", "state_flags": ["DRAIN"], "reason": "idlegpu: x")") << false;
            // scontrol's line of it read "State=IDLE": drained again, over idlegpu's reason or an admin's.
            QTest::addRow("%s, drained by idlegpu, naming a process \"p Reason=x State=IDLE\"", mode)
                << prolog
                << QByteArray(R"("state": "mixed", "state_flags": ["DRAIN"], )"
                              R"j("reason": "idlegpu: GPU 1 of ws0 is in use by pid 977 (p Reason=x State=IDLE)")j")
                << false;
            QTest::addRow("%s, state unknown", mode) << prolog << QByteArray("") << true;
        }
    }

    void drainsOnlyWhereNotDrained()
    {
        QFETCH(bool, prolog);
        QFETCH(QByteArray, state);
        QFETCH(bool, drains);
        const QString calls = m_dir->filePath(QStringLiteral("calls"));
        const QByteArray log = "echo \"$(basename \"$0\") $* PATH=$PATH LANG=$LANG SLURM_CONF=$SLURM_CONF\" >> '"
                               + calls.toUtf8() + "'\n";
        const QString scontrol = writeFile(m_dir->filePath(QStringLiteral("bin/scontrol")), "#!/bin/sh\n" + log);
        const QString sinfo = writeFile(m_dir->filePath(QStringLiteral("bin/sinfo")),
                                        "#!/bin/sh\n" + log + "[ -n '" + state + "' ] && echo '{\"nodes\": [{\"name\": "
                                            "\"ws1\", \"state\": \"idle\"}, {\"name\": \"ws0\", " + state + "}]}'\nexit 0\n");
        for (const QString &program : {scontrol, sinfo})
            QFile::setPermissions(program, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        SlurmGuardRun run;
        run.guardFolder = m_dir->path();
        run.guardOwner = ::geteuid();
        run.scontrol = scontrol;
        run.sinfo = sinfo;
        run.node = kNode;
        run.job = labJob();
        run.slurmConf = QStringLiteral("/etc/slurm-test/slurm.conf");
        run.parentSlurmConf = QStringLiteral("/etc/slurm-not-this/slurm.conf");
        run.nowMs = nowMs();
        const SlurmGuardMode mode = prolog ? SlurmGuardMode::Prolog : SlurmGuardMode::Health;
        QCOMPARE(runSlurmGuard(mode, run), prolog ? 1 : 0); // no heartbeat
        const QStringList lines =
            QString::fromUtf8(readFileOrEmpty(calls)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
        QVERIFY2(!lines.isEmpty() && lines.first().startsWith(QLatin1String("sinfo --json --nodes=ws0 PATH=/usr/sbin:"
                                                                             "/usr/bin:/sbin:/bin LANG=C SLURM_CONF="
                                                                             "/etc/slurm-test/slurm.conf")),
                 qPrintable(lines.join(QLatin1Char('\n'))));
        const QStringList drainsDone = lines.filter(QStringLiteral("state=drain"));
        QCOMPARE(drainsDone.size(), drains ? 1 : 0);
        if (drains)
            QVERIFY2(drainsDone.first().startsWith(QStringLiteral("scontrol update nodename=ws0 state=drain "
                                                                  "reason=idlegpu: not running on ws0 (no ")),
                     qPrintable(drainsDone.first()));

        // Running and current: nothing asked of Slurm, the job may run.
        QFile::remove(calls);
        Heartbeat heartbeat = currentHeartbeat();
        heartbeat.slurmConf = writeFile(m_dir->filePath(QStringLiteral("etc/slurm.conf")), "");
        writeHeartbeat(heartbeat);
        run.nowMs = nowMs();
        QCOMPARE(runSlurmGuard(mode, run), 0);
        QVERIFY(!QFile::exists(calls));
        // Stale: the heartbeat's SLURM_CONF where the environment gives none (the health check's).
        run.slurmConf.clear();
        run.nowMs = nowMs() + 10'000;
        QCOMPARE(runSlurmGuard(mode, run), prolog ? 1 : 0);
        QVERIFY2(readFileOrEmpty(calls).contains("SLURM_CONF=" + QFile::encodeName(heartbeat.slurmConf) + '\n'),
                 readFileOrEmpty(calls));
        // The heartbeat's is gone (a stopped one of an old configuration): slurmd's.
        QFile::remove(calls);
        QFile::remove(heartbeat.slurmConf);
        run.parentSlurmConf = QStringLiteral("/etc/slurm-of-slurmd/slurm.conf");
        QCOMPARE(runSlurmGuard(mode, run), prolog ? 1 : 0);
        QVERIFY2(readFileOrEmpty(calls).contains("SLURM_CONF=/etc/slurm-of-slurmd/slurm.conf\n"), readFileOrEmpty(calls));
    }

    void programNames()
    {
        QCOMPARE(slurmGuardModeOfProgram("/usr/libexec/idlegpu/idlegpu-slurm-prolog"), SlurmGuardMode::Prolog);
        QCOMPARE(slurmGuardModeOfProgram("idlegpu-slurm-health"), SlurmGuardMode::Health);
        QCOMPARE(slurmGuardModeOfProgram("/usr/bin/idlegpu"), SlurmGuardMode::None);
        QCOMPARE(slurmGuardModeOfProgram("/x/idlegpu-slurm-prolog.bak"), SlurmGuardMode::None);
        QCOMPARE(slurmGuardModeOfProgram(nullptr), SlurmGuardMode::None);
    }

    // The monitor writes it while [slurm] is on: before its first Slurm command, every second, and stopped at exit.
    void monitorWritesItEverySecond()
    {
        FakeDevRoot dev(2);
        const QString bin = m_dir->filePath(QStringLiteral("bin"));
        QVERIFY(QDir().mkpath(bin));
        const QString calls = m_dir->filePath(QStringLiteral("calls"));
        // Each fake command records whether the heartbeat was there when it ran.
        for (const char *name : {"salloc", "scancel", "scontrol", "squeue", "sinfo"}) {
            const QString path = writeFile(bin + QLatin1Char('/') + QLatin1String(name),
                                           "#!/bin/sh\n[ -e '" + QFile::encodeName(guardPath()) + "' ] && echo \"$0 "
                                               "guarded\" >> '" + calls.toUtf8() + "' || echo \"$0 unguarded\" >> '"
                                               + calls.toUtf8() + "'\n[ \"$0\" = \"${0%squeue}\" ] || exec echo "
                                               "'{\"jobs\": []}'\n[ \"$0\" = \"${0%sinfo}\" ] || exit 0\n"
                                               "echo 'salloc: Granted job allocation 42' >&2\n");
            QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        }
        SlurmCommands commands;
        commands.salloc = bin + QStringLiteral("/salloc");
        commands.scancel = bin + QStringLiteral("/scancel");
        commands.scontrol = bin + QStringLiteral("/scontrol");
        commands.squeue = bin + QStringLiteral("/squeue");
        commands.sinfo = bin + QStringLiteral("/sinfo");
        SlurmLender lender(commands, SystemClock::instance());
        const QString config = writeFile(m_dir->filePath(QStringLiteral("idlegpu.conf")),
                                         defaultsSection(dev.path()).toUtf8() + "[slurm]\nenabled = true\nnode = ws0\n");
        MonitorPaths paths;
        paths.slurmGuardFolder = m_dir->path();
        Monitor monitor(config, &lender, SystemClock::instance(), paths);
        QVERIFY(monitor.start());
        QTRY_VERIFY(readFileOrEmpty(calls).contains("squeue"));
        QVERIFY2(!readFileOrEmpty(calls).contains("unguarded"), readFileOrEmpty(calls));
        ReadResult result = readGuard();
        QVERIFY2(result.heartbeat, qPrintable(result.problem));
        QCOMPARE(result.heartbeat->pid, qint64(::getpid()));
        QCOMPARE(result.heartbeat->partition, QStringLiteral("owner"));
        QCOMPARE(result.heartbeat->gpus, (QList<GuardGpu>{{0, dev.node(0)}, {1, dev.node(1)}}));
        QVERIFY(!result.heartbeat->stopped);
        const qint64 first = result.heartbeat->monotonicMs;
        QTRY_VERIFY_WITH_TIMEOUT(readGuard().heartbeat && readGuard().heartbeat->monotonicMs >= first + 900, 3000);
        QCOMPARE(notRunningReason(readGuard(), kNode, QStringLiteral("/proc"), nowMs()), QString());

        QVERIFY(shutDownMonitor(monitor));
        result = readGuard();
        QVERIFY(result.heartbeat && result.heartbeat->stopped);
        QVERIFY(notRunningReason(result, kNode, QStringLiteral("/proc"), nowMs())
                    .startsWith(QLatin1String("idlegpu: not running on ws0 (it stopped at ")));
    }

private:
    static QByteArray readFileOrEmpty(const QString &path)
    {
        QFile file(path);
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }
};

QTEST_GUILESS_MAIN(TestSlurmGuard)
#include "tst_slurmguard.moc"
