// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The guard file (slurm/guardfile.h) and Slurm's prolog and health check over it (app/slurmguard.h), in a folder of
// the test's own (trusted for whoever runs the test, so that it needs no root): written and read back; every hostile
// heartbeat (a link, another owner's file, writable by others, garbage, huge, a dead pid, a reused pid, stale,
// stopped) drains the node with its reason; a real process holding a fake GPU node open that the heartbeat does not
// list as uncounted refuses the job, one it lists (by pid and start time) does not, nor does a GPU idlegpu holds let
// a job run; the hold partition passes; a refusal requeues the job (or cancels it) through fake Slurm clients and
// leaves the node alone, a drain never touches a node drained already (as a fake sinfo's JSON says, whatever its
// reason); a process named `p Reason=x` cannot add a
// field to the drain reason. The monitor writes it every second while [slurm] is on, at once when a verdict
// changes, and once more, stopped, at its exit: a program on the ignore list leaves its GPU lent, and the prolog
// lets the lab's job run there.
#include "config/config.h"
#include "holders/procstatfile.h"
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

namespace SlurmGuard {
// How QCOMPARE shows a verdict: "Refuse: idlegpu: GPU 1 of ws0 is held for its owner".
char *toString(const PrologVerdict &verdict)
{
    const char *action = verdict.action == PrologVerdict::Action::Run      ? "Run"
                         : verdict.action == PrologVerdict::Action::Refuse ? "Refuse"
                                                                           : "Drain";
    return QTest::toString(QStringLiteral("%1: %2").arg(QLatin1String(action), verdict.reason));
}
} // namespace SlurmGuard

namespace {

const QString kNode = QStringLiteral("ws0");

qint64 nowMs()
{
    return SystemClock::instance()->nowMs();
}

using Action = PrologVerdict::Action;

// This process, running and current, with GPUs 0 and 1 of `dev`, both lent.
Heartbeat currentHeartbeat(const QString &devRoot = QStringLiteral("/dev"))
{
    Heartbeat heartbeat = selfHeartbeat();
    heartbeat.node = kNode;
    heartbeat.partition = QStringLiteral("owner");
    heartbeat.gpus = {{0, devRoot + QStringLiteral("/nvidia0"), true, {}},
                      {1, devRoot + QStringLiteral("/nvidia1"), true, {}}};
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

// A live process by pid and start time, as the heartbeat lists it.
ProcessId processIdOf(qint64 pid)
{
    ProcStat stat;
    return readProcStat("/proc", long(pid), &stat) ? ProcessId{pid, stat.startTime} : ProcessId{pid, 0};
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
    PrologVerdict prolog(const PrologJob &job) const
    {
        return prologVerdict(readGuard(), job, kNode, QStringLiteral("/proc"), nowMs(), QStringLiteral("owner"));
    }
    // As of the time the heartbeat was written: what it says of the GPUs, though the scans of a loaded machine (1.4 s
    // each with 1100 processes and a load of 8) may take longer than it stays current.
    PrologVerdict prologAsWritten(const PrologJob &job) const
    {
        const ReadResult guard = readGuard();
        return prologVerdict(guard, job, kNode, QStringLiteral("/proc"), writtenAtMs(), QStringLiteral("owner"));
    }
    qint64 writtenAtMs() const
    {
        const ReadResult guard = readGuard();
        return guard.heartbeat ? guard.heartbeat->monotonicMs : nowMs();
    }
    static PrologVerdict run() { return {}; }
    static PrologVerdict refuse(const QString &reason) { return {Action::Refuse, reason}; }
    static PrologJob labJob(const QList<int> &gpus = {0})
    {
        PrologJob job;
        job.id = 12;
        job.partition = QStringLiteral("scavenger");
        job.gresPositions = gpus;
        return job;
    }
    // A fake Slurm client `name` in the test's bin/: it appends "NAME ARGS PATH=... LANG=... SLURM_CONF=..." to
    // `calls`; `--json` (sinfo's node listing) prints node ws0 with the JSON fields `nodeState`, anything else exits
    // with `exitCode` (and an error of Slurm's on stderr when not 0).
    QString fakeClient(const QString &name, const QString &calls, const QByteArray &nodeState, int exitCode) const
    {
        const QByteArray exit = QByteArray::number(exitCode);
        const QByteArray script = "#!/bin/sh\nprintf '%s\\n' \"" + name.toUtf8()
                                  + " $* PATH=$PATH LANG=$LANG SLURM_CONF=$SLURM_CONF\" >> '" + calls.toUtf8() + "'\n"
                                  + "[ \"$1\" = --json ] && echo '{\"nodes\": [{\"name\": \"ws0\", " + nodeState
                                  + "}]}' && exit 0\n[ " + exit + " = 0 ] || echo 'Requested operation is presently "
                                  + "disabled for job 12' >&2\nexit " + exit + "\n";
        const QString path = writeFile(m_dir->filePath(QStringLiteral("bin/") + name), script);
        QFile::setPermissions(path, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
        return path;
    }
    // Fake scontrol and scancel that exit with `scontrolExit` and `scancelExit`, and a sinfo that shows node ws0 idle.
    SlurmGuardRun guardRunWithFakes(const QString &calls, int scontrolExit, int scancelExit) const
    {
        SlurmGuardRun run = guardRun(fakeClient(QStringLiteral("scontrol"), calls, "", scontrolExit),
                                     fakeClient(QStringLiteral("scancel"), calls, "", scancelExit));
        run.sinfo = fakeClient(QStringLiteral("sinfo"), calls, R"("state": "idle", "state_flags": [])", 0);
        return run;
    }
    // The prolog's run of lab job 12 on GPU 0 over the test's heartbeat and these clients.
    SlurmGuardRun guardRun(const QString &scontrol, const QString &scancel) const
    {
        SlurmGuardRun run;
        run.guardFolder = m_dir->path();
        run.guardOwner = ::geteuid();
        run.scontrol = scontrol;
        run.scancel = scancel;
        run.node = kNode;
        run.job = labJob();
        run.slurmConf = QStringLiteral("/etc/slurm-test/slurm.conf");
        run.nowMs = writtenAtMs();
        return run;
    }
    // Fake salloc, scancel, scontrol, squeue and sinfo for a SlurmLender: each records whether the heartbeat was there
    // when it ran; a hold is granted, a release done, the listings are empty.
    SlurmCommands fakeLenderCommands(const QString &calls) const
    {
        const QString bin = m_dir->filePath(QStringLiteral("bin"));
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
        return commands;
    }
    // idlegpu.conf with [slurm] on for node ws0 and the GPUs of `dev`, lent as soon as free.
    QString slurmConfig(const FakeDevRoot &dev) const
    {
        return writeFile(m_dir->filePath(QStringLiteral("idlegpu.conf")),
                         defaultsSection(dev.path()).toUtf8() + "[slurm]\nenabled = true\nnode = ws0\n");
    }
    MonitorPaths guardPaths() const
    {
        MonitorPaths paths;
        paths.slurmGuardFolder = m_dir->path();
        return paths;
    }
    static QStringList callLines(const QString &calls)
    {
        return QString::fromUtf8(readFileOrEmpty(calls)).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
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
        QCOMPARE(prolog(labJob({0, 1})), run());
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
        QCOMPARE(prolog(labJob()), (PrologVerdict{Action::Drain, health})); // the guard is down: drained
        // Jobs of the hold partition pass all the same: the partition is the heartbeat's only when it is trusted.
        PrologJob hold = labJob();
        hold.partition = QStringLiteral("owner");
        QCOMPARE(prolog(hold), run());
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
        QCOMPARE(prolog(hold), run());
        Heartbeat heartbeat = currentHeartbeat();
        heartbeat.partition = QStringLiteral("mine");
        heartbeat.stopped = true;
        writeHeartbeat(heartbeat);
        QCOMPARE(prolog(hold).action, Action::Drain); // "owner" is no hold partition here
        hold.partition = QStringLiteral("mine");
        QCOMPARE(prolog(hold), run());
    }

    void foreignProcessOnTheJobsGpuRefuses()
    {
        FakeDevRoot dev(2);
        writeHeartbeat(currentHeartbeat(dev.path()));
        QCOMPARE(prologAsWritten(labJob({0})), run());
        NodeHolder holder(dev.computeJob(1), QStringLiteral("python3"));
        QVERIFY(holder.waitUntilOpen());
        QCOMPARE(prologAsWritten(labJob({1})),
                 refuse(QStringLiteral("idlegpu: GPU 1 of ws0 is in use by pid %1 (python3)").arg(holder.pid())));
        QCOMPARE(prologAsWritten(labJob({0})), run()); // only the job's GPUs count; nvidiactl and nvidia-uvm do not
        // The verdict's own cost (the file read and checked, every process's fds read): the figure for the docs.
        QElapsedTimer timer;
        timer.start();
        for (int i = 0; i < 20; ++i)
            QCOMPARE(prologAsWritten(labJob({0})), run());
        qInfo("the prolog's verdict, a GPU scanned for holders: %.2f ms", timer.nsecsElapsed() / 20 / 1e6);
        QCOMPARE(prologAsWritten(labJob({})), run()); // a job without GPUs
        // A GPU gres.conf names and idlegpu does not watch: nobody guards it, the node is drained.
        const PrologVerdict unwatched = prologAsWritten(labJob({2}));
        QCOMPARE(unwatched.action, Action::Drain);
        QVERIFY2(unwatched.reason.startsWith(QLatin1String("idlegpu: GPU 2 in ws0's gres.conf is not one")),
                 qPrintable(unwatched.reason));
        holder.kill();
        QTRY_COMPARE(prologAsWritten(labJob({1})), run());
    }

    // What idlegpu left uncounted on a lent GPU (by pid and start time) lets the job run; any other holder, one that
    // appeared since the heartbeat or one with the pid of an uncounted one but another start time, refuses it; a GPU
    // idlegpu holds refuses it whoever holds it.
    void uncountedHoldersAndHeldGpus()
    {
        FakeDevRoot dev(2);
        NodeHolder nvtop(dev.computeJob(1), QStringLiteral("nvtop"));
        QVERIFY(nvtop.waitUntilOpen());
        Heartbeat heartbeat = currentHeartbeat(dev.path());
        heartbeat.gpus[1].uncounted = {processIdOf(nvtop.pid())};
        QVERIFY(heartbeat.gpus[1].uncounted.first().startTime > 0);
        writeHeartbeat(heartbeat);
        QCOMPARE(prologAsWritten(labJob({1})), run());
        QCOMPARE(prologAsWritten(labJob({0, 1})), run());

        // Listed for GPU 0 only: on GPU 1 nobody accounted for it.
        heartbeat.gpus[0].uncounted = heartbeat.gpus[1].uncounted;
        heartbeat.gpus[1].uncounted.clear();
        writeHeartbeat(heartbeat);
        const QString inUse = QStringLiteral("idlegpu: GPU 1 of ws0 is in use by pid %1 (nvtop)").arg(nvtop.pid());
        QCOMPARE(prologAsWritten(labJob({1})), refuse(inUse));

        // Its pid with another start time: another process that got the pid.
        heartbeat.gpus[1].uncounted = {ProcessId{nvtop.pid(), processIdOf(nvtop.pid()).startTime + 1}};
        writeHeartbeat(heartbeat);
        QCOMPARE(prologAsWritten(labJob({1})), refuse(inUse));

        // A holder that appeared since the heartbeat was written.
        heartbeat.gpus[1].uncounted = {processIdOf(nvtop.pid())};
        writeHeartbeat(heartbeat);
        NodeHolder python(dev.computeJob(1), QStringLiteral("python3"));
        QVERIFY(python.waitUntilOpen());
        QCOMPARE(prologAsWritten(labJob({1})),
                 refuse(QStringLiteral("idlegpu: GPU 1 of ws0 is in use by pid %1 (python3)").arg(python.pid())));
        python.kill();
        QTRY_COMPARE(prologAsWritten(labJob({1})), run());

        // Held by idlegpu: refused, with nobody on the GPU; the node is not drained for it.
        heartbeat.gpus[0].lent = false;
        writeHeartbeat(heartbeat);
        const PrologVerdict held = refuse(QStringLiteral("idlegpu: GPU 0 of ws0 is held for its owner"));
        QCOMPARE(prologAsWritten(labJob({0})), held);
        QCOMPARE(prologAsWritten(labJob({1, 0})), held);
        QCOMPARE(prologAsWritten(labJob({1})), run());
    }

    // A process names itself to forge a field of `scontrol show node`'s line (Reason=, State=) in the drain reason:
    // its name is escaped, so that Reason= is idlegpu's alone and starts with "idlegpu: ".
    void processNameCannotForgeAField_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("shown");
        QTest::newRow("Reason=") << QStringLiteral("p Reason=x") << QStringLiteral("p\\x20Reason\\x3dx");
        QTest::newRow("State=") << QStringLiteral("x State=IDLE") << QStringLiteral("x\\x20State\\x3dIDLE");
        QTest::newRow("a newline") << QStringLiteral("a\nReason=b") << QStringLiteral("a\\nReason\\x3db");
    }

    void processNameCannotForgeAField()
    {
        QFETCH(QString, name);
        QFETCH(QString, shown);
        FakeDevRoot dev(2);
        writeHeartbeat(currentHeartbeat(dev.path()));
        NodeHolder holder(dev.computeJob(1), name);
        QVERIFY(holder.waitUntilOpen());
        const QString expected =
            QStringLiteral("idlegpu: GPU 1 of ws0 is in use by pid %1 (%2)").arg(holder.pid()).arg(shown);
        QCOMPARE(prologAsWritten(labJob({1})), refuse(expected));
        // Where Slurm answers neither the requeue nor the cancel, the node is drained with that reason: the line
        // scontrol would show holds one Reason= and one State=, the real ones.
        const QString calls = m_dir->filePath(QStringLiteral("calls"));
        SlurmGuardRun run = guardRunWithFakes(calls, 1, 1);
        run.job = labJob({1});
        QCOMPARE(runSlurmGuard(SlurmGuardMode::Prolog, run), 1);
        const QStringList drains = callLines(calls).filter(QStringLiteral("state=drain"));
        QCOMPARE(drains.size(), 1);
        const QString reason =
            drains.first().section(QStringLiteral(" reason="), 1).section(QStringLiteral(" PATH="), 0, 0);
        QVERIFY2(reason.startsWith(expected + QLatin1Char(';')), qPrintable(reason));
        const QString line = QStringLiteral("NodeName=ws0 State=IDLE+DRAIN Reason=") + reason;
        QCOMPARE(line.count(QStringLiteral("Reason=")), 1);
        QCOMPARE(line.count(QStringLiteral("State=")), 1);
        QVERIFY(!reason.contains(QLatin1Char('\n')));
    }

    void reasonTextEscapes()
    {
        QCOMPARE(reasonText(QStringLiteral("python3")), QStringLiteral("python3"));
        QCOMPARE(reasonText(QStringLiteral("a b=c\\d\te")), QStringLiteral("a\\x20b\\x3dc\\\\d\\te"));
        QCOMPARE(reasonText(QString(300, QLatin1Char('y'))).size(), 64);
    }

    // A refusal on a busy GPU while idlegpu is up: the job goes back to the queue, the node is left alone.
    void refusalRequeuesWithoutDrain_data()
    {
        QTest::addColumn<int>("requeueExit");
        QTest::addColumn<int>("scancelExit");
        QTest::addColumn<int>("status");
        QTest::addColumn<QStringList>("expectedCalls");
        const QString requeue = QStringLiteral("scontrol requeue 12");
        const QString cancel = QStringLiteral("scancel --state=RUNNING --nodelist=ws0 12");
        QTest::newRow("requeued") << 0 << 0 << 0 << QStringList{requeue};
        QTest::newRow("not requeueable: cancelled") << 1 << 0 << 0 << QStringList{requeue, cancel};
        QTest::newRow("Slurm answers neither: drained")
            << 1 << 1 << 1
            << QStringList{requeue, cancel, QStringLiteral("sinfo --json --nodes=ws0"),
                           QStringLiteral("scontrol update nodename=ws0 state=drain reason=idlegpu: GPU 0 of ws0 is "
                                          "held for its owner; cannot requeue job 12")};
    }

    void refusalRequeuesWithoutDrain()
    {
        QFETCH(int, requeueExit);
        QFETCH(int, scancelExit);
        QFETCH(int, status);
        QFETCH(QStringList, expectedCalls);
        Heartbeat heartbeat = currentHeartbeat();
        heartbeat.gpus[0].lent = false;
        writeHeartbeat(heartbeat);
        const QString calls = m_dir->filePath(QStringLiteral("calls"));
        SlurmGuardRun run = guardRunWithFakes(calls, requeueExit, scancelExit);
        QCOMPARE(runSlurmGuard(SlurmGuardMode::Prolog, run), status);
        const QStringList lines = callLines(calls);
        QCOMPARE(lines.size(), expectedCalls.size());
        for (qsizetype i = 0; i < lines.size(); ++i)
            QVERIFY2(lines.at(i).startsWith(expectedCalls.at(i) + QLatin1Char(' ')), qPrintable(lines.at(i)));
        QVERIFY(lines.filter(QStringLiteral("state=drain")).size() == (status == 1 ? 1 : 0));

        // The guard down (a stale heartbeat): drained, the job left to Slurm (exit 1), nothing requeued by hand.
        QFile::remove(calls);
        run.nowMs = nowMs() + 10'000;
        QCOMPARE(runSlurmGuard(SlurmGuardMode::Prolog, run), 1);
        const QStringList drained = callLines(calls);
        QVERIFY2(drained.filter(QStringLiteral("requeue")).isEmpty()
                     && drained.filter(QStringLiteral("scancel")).isEmpty()
                     && drained.filter(QStringLiteral("state=drain reason=idlegpu: hangs on ws0")).size() == 1,
                 qPrintable(drained.join(QLatin1Char('\n'))));
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
        const QString calls = m_dir->filePath(QStringLiteral("calls"));
        SlurmLender lender(fakeLenderCommands(calls), SystemClock::instance());
        Monitor monitor(slurmConfig(dev), &lender, SystemClock::instance(), guardPaths());
        QVERIFY(monitor.start());
        QTRY_VERIFY(readFileOrEmpty(calls).contains("squeue"));
        QVERIFY2(!readFileOrEmpty(calls).contains("unguarded"), readFileOrEmpty(calls));
        ReadResult result = readGuard();
        QVERIFY2(result.heartbeat, qPrintable(result.problem));
        QCOMPARE(result.heartbeat->pid, qint64(::getpid()));
        QCOMPARE(result.heartbeat->partition, QStringLiteral("owner"));
        QCOMPARE(result.heartbeat->gpus.size(), 2);
        QCOMPARE(result.heartbeat->gpus[0].path, dev.node(0));
        QCOMPARE(result.heartbeat->gpus[1].path, dev.node(1));
        QVERIFY(!result.heartbeat->stopped);
        const qint64 first = result.heartbeat->monotonicMs;
        QTRY_VERIFY_WITH_TIMEOUT(readGuard().heartbeat && readGuard().heartbeat->monotonicMs >= first + 900, 3000);
        QCOMPARE(notRunningReason(readGuard(), kNode, QStringLiteral("/proc"), nowMs()), QString());

        QVERIFY(shutDownMonitor(monitor));
        result = readGuard();
        QVERIFY(result.heartbeat && result.heartbeat->stopped);
        QVERIFY(!result.heartbeat->gpus[0].lent && !result.heartbeat->gpus[1].lent);
        QVERIFY(notRunningReason(result, kNode, QStringLiteral("/proc"), nowMs())
                    .startsWith(QLatin1String("idlegpu: not running on ws0 (it stopped at ")));
    }

    // A program on the built-in ignore list holding a GPU, started as `exec -a nvtop` (argv[0] nvtop, comm
    // test_holdopen): idlegpu lends the GPU all the same and says so in the heartbeat, and the prolog lets the lab's
    // job run there, as it would not with no heartbeat verdicts (it drained the node). The owner's own program on the
    // other GPU: idlegpu holds it, the heartbeat says so at once, and the prolog refuses the job there without a drain.
    void ignoredProgramLeavesItsGpuLent()
    {
        FakeDevRoot dev(2);
        QProcess nvtop;
        nvtop.setProcessChannelMode(QProcess::ForwardedChannels);
        nvtop.start(QStringLiteral("/bin/bash"),
                    QStringList{QStringLiteral("-c"), QStringLiteral("exec -a nvtop \"$0\" \"$@\""),
                                QStringLiteral(IDLEGPU_TEST_HOLDOPEN)}
                        + dev.computeJob(1));
        QVERIFY(nvtop.waitForStarted());
        QTRY_VERIFY(processHolds(nvtop.processId(), dev.node(1)));

        const QString calls = m_dir->filePath(QStringLiteral("calls"));
        SlurmLender lender(fakeLenderCommands(calls), SystemClock::instance());
        Monitor monitor(slurmConfig(dev), &lender, SystemClock::instance(), guardPaths());
        QVERIFY(monitor.start());
        const auto lent = [this](int gpu) {
            const ReadResult result = readGuard();
            return result.heartbeat && result.heartbeat->gpus.size() == 2 && result.heartbeat->gpus[gpu].lent;
        };
        QTRY_VERIFY_WITH_TIMEOUT(lent(0) && lent(1), 10'000);
        QCOMPARE(readGuard().heartbeat->gpus[1].uncounted, QList<ProcessId>{processIdOf(nvtop.processId())});
        QCOMPARE(prolog(labJob({1})), run());
        QCOMPARE(prolog(labJob({0, 1})), run());

        NodeHolder owner(dev.computeJob(0), QStringLiteral("python3"));
        QElapsedTimer sinceOpen;
        sinceOpen.start();
        QTRY_VERIFY(!lent(0));
        qInfo("the owner's open -> the heartbeat says GPU 0 held: %lld ms", sinceOpen.elapsed());
        QCOMPARE(prolog(labJob({0})), refuse(QStringLiteral("idlegpu: GPU 0 of ws0 is held for its owner")));
        QVERIFY(lent(1));
        QCOMPARE(prolog(labJob({1})), run());

        QVERIFY(shutDownMonitor(monitor));
        nvtop.kill();
        nvtop.waitForFinished();
    }

private:
};

QTEST_GUILESS_MAIN(TestSlurmGuard)
#include "tst_slurmguard.moc"
