// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// SlurmLender against fake salloc, scancel, squeue, sinfo and scontrol (shell scripts in a temporary folder that log
// each call and answer from files, in Slurm 22.05's JSON): holds taken over and not doubled, the one salloc gave kept
// among duplicates, lab users' jobs posing as holds (Slurm's own listing of them) never cancelled, a drain of
// idlegpu's own resumed whatever its reason says, lending, a slurmctld that does not answer (timeouts, the state
// shown, retries), listings too long or no JSON, and stopAll() holding every GPU. tests/slurm/test_slurm_mode.sh
// drives it against a real cluster.
#include "config/config.h"
#include "holders/procparse.h"
#include "slurm/slurmlender.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QTest>

class TestSlurmLender : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    QString path(const QString &name) const { return m_dir.filePath(name); }
    void write(const QString &name, const QByteArray &text, bool executable = false)
    {
        QFile file(path(name));
        QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
        file.write(text);
        file.close();
        if (executable)
            file.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner);
    }
    QStringList calls() const
    {
        QFile file(path(QStringLiteral("calls")));
        if (!file.open(QIODevice::ReadOnly))
            return {};
        return QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    }
    SlurmCommands commands() const
    {
        SlurmCommands commands;
        commands.salloc = path(QStringLiteral("salloc"));
        commands.scancel = path(QStringLiteral("scancel"));
        commands.scontrol = path(QStringLiteral("scontrol"));
        commands.squeue = path(QStringLiteral("squeue"));
        commands.sinfo = path(QStringLiteral("sinfo"));
        commands.commandTimeoutMs = 500;
        commands.holdTimeoutMs = 500;
        return commands;
    }
    // A job as squeue's JSON shows it.
    static QJsonObject job(qint64 id, const QString &name, qint64 uid, const QString &state, const QString &partition,
                           const QString &nodes, const QString &gres = QString())
    {
        return {{QStringLiteral("job_id"), id},
                {QStringLiteral("name"), name},
                {QStringLiteral("user_id"), uid},
                {QStringLiteral("user_name"), uid == 0 ? QStringLiteral("root") : QStringLiteral("bob")},
                {QStringLiteral("job_state"), state},
                {QStringLiteral("partition"), partition},
                {QStringLiteral("nodes"), state == QLatin1String("PENDING") ? QString() : nodes},
                {QStringLiteral("required_nodes"), nodes},
                {QStringLiteral("gres_detail"), gres.isEmpty() ? QJsonArray() : QJsonArray{gres}}};
    }
    static QByteArray jobs(const QJsonArray &list)
    {
        return QJsonDocument(QJsonObject{{QStringLiteral("jobs"), list}}).toJson();
    }
    // sinfo's JSON of ws0: `flags` ("DRAIN") and `reason`.
    static QByteArray node(const QJsonArray &flags = {}, const QString &reason = QString())
    {
        return QJsonDocument(
                   QJsonObject{{QStringLiteral("nodes"),
                                QJsonArray{QJsonObject{{QStringLiteral("name"), QStringLiteral("ws0")},
                                                       {QStringLiteral("state"), QStringLiteral("idle")},
                                                       {QStringLiteral("state_flags"), flags},
                                                       {QStringLiteral("reason"), reason}}}}})
            .toJson();
    }
    static QByteArray dataFile(const char *name)
    {
        QFile file(QStringLiteral(IDLEGPU_TEST_DATA "/slurm/") + QLatin1String(name));
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

    static QList<WorkloadConfig> workloads(const QList<int> &gpus, int stopTimeoutSeconds = 10)
    {
        Config config;
        config.slurm.enabled = true;
        config.slurm.node = QStringLiteral("ws0");
        config.slurm.stopTimeoutSeconds = stopTimeoutSeconds;
        return config.withGpuWorkloads(gpus).workloads;
    }

    // A real process standing for a lab job's on GPU 0 (sleep, after `setUp` in its shell), and the holder a scan makes
    // of it: job `job` as its slurmstepd says, or as its environment alone says (stepd false).
    struct LabProcess
    {
        std::unique_ptr<QProcess> process = std::make_unique<QProcess>();
        Holder holder;
    };
    static LabProcess startLabProcess(qint64 job, bool stepd = true, const QString &setUp = QStringLiteral(":"))
    {
        LabProcess lab;
        lab.process->start(QStringLiteral("/bin/sh"),
                           {QStringLiteral("-c"), setUp + QStringLiteral("; echo ready; exec sleep 60")});
        if (!lab.process->waitForReadyRead()) // its shell has set up
            return lab;
        lab.holder.pid = lab.process->processId();
        lab.holder.comm = QStringLiteral("python3");
        lab.holder.gpus = {0};
        lab.holder.slurmJobId = job;
        lab.holder.slurmStepJobId = stepd ? job : 0;
        QFile stat(QStringLiteral("/proc/%1/stat").arg(lab.holder.pid));
        ProcStat parsed;
        if (stat.open(QIODevice::ReadOnly) && parseProcStat(stat.readAll().constData(), &parsed))
            lab.holder.startTime = parsed.startTime;
        return lab;
    }
    // The lender with GPU 0 lent to the lab, its hold released.
    void lend(SlurmLender &lender, const QList<WorkloadConfig> &lent)
    {
        lender.setWorkloads(lent);
        QTRY_VERIFY(!calls().filter(QStringLiteral("salloc")).isEmpty());
        QVERIFY(lender.start(lent.first(), {0}, false));
        QTRY_VERIFY(!calls().filter(QStringLiteral("scancel")).isEmpty());
    }

private Q_SLOTS:
    void init()
    {
        QVERIFY(m_dir.isValid());
        QFile::remove(path(QStringLiteral("calls")));
        // Each fake logs its arguments; squeue prints the file "jobs" (or hangs while "down" exists), sinfo the file
        // "node"; salloc grants job 42 unless "fail" exists.
        const QByteArray log = "echo \"$(basename \"$0\") $*\" >> \"$(dirname \"$0\")/calls\"\n";
        write(QStringLiteral("squeue"), "#!/bin/sh\n" + log + "d=$(dirname \"$0\")\n[ -e \"$d/down\" ] && exec sleep 30\n"
                                        "exec cat \"$d/jobs\"\n", true);
        write(QStringLiteral("sinfo"), "#!/bin/sh\n" + log + "exec cat \"$(dirname \"$0\")/node\"\n", true);
        write(QStringLiteral("scontrol"), "#!/bin/sh\n" + log, true);
        write(QStringLiteral("salloc"), "#!/bin/sh\n" + log + "d=$(dirname \"$0\")\nif [ -e \"$d/fail\" ]; then echo "
                                        "'salloc: error: Job submit/allocate failed: Unable to contact slurm controller "
                                        "(connect failure)' >&2; exit 1; fi\necho 'salloc: Granted job allocation 42' >&2\n",
              true);
        write(QStringLiteral("scancel"), "#!/bin/sh\n" + log, true);
        write(QStringLiteral("jobs"), jobs({}));
        write(QStringLiteral("node"), node());
        QFile::remove(path(QStringLiteral("down")));
        QFile::remove(path(QStringLiteral("fail")));
    }

    void takesOverHoldsAndLends()
    {
        // GPU 0 held twice by earlier runs (one still pending), a lab job on GPU 1.
        const QString owner = QStringLiteral("owner"), ws0 = QStringLiteral("ws0");
        write(QStringLiteral("jobs"),
              jobs({job(7, QStringLiteral("idlegpu-hold-gpu0"), 0, QStringLiteral("RUNNING"), owner, ws0),
                    job(8, QStringLiteral("idlegpu-hold-gpu0"), 0, QStringLiteral("PENDING"), owner, ws0),
                    job(9, QStringLiteral("lab"), 1001, QStringLiteral("RUNNING"), QStringLiteral("scavenger"), ws0,
                        QStringLiteral("gpu:gpu0:0(IDX:),gpu:gpu1:1(IDX:1)"))}));
        SlurmLender lender(commands(), SystemClock::instance());
        lender.setWorkloads(workloads({0, 1}));
        QTRY_COMPARE(lender.runtimes().value(QStringLiteral("slurm-gpu1")).state, WorkloadRuntime::Stopped);
        // The running one stays; the pending one has no node yet, so no --nodelist.
        QTRY_VERIFY(calls().contains(QStringLiteral("scancel --user=root --partition=owner --name=idlegpu-hold-gpu0 8")));
        QTRY_VERIFY(calls().contains(
            QStringLiteral("salloc --no-shell -p owner -w ws0 --gres=gpu:gpu1:1 -c 1 -J idlegpu-hold-gpu1")));
        QCOMPARE(calls().filter(QStringLiteral("salloc")).filter(QStringLiteral("idlegpu-hold-gpu0")).size(),
                 0); // held already: no salloc
        const WorkloadRuntime held = lender.runtimes().value(QStringLiteral("slurm-gpu1"));
        QCOMPARE(held.labJobs.size(), 1);
        QCOMPARE(held.labJobs.first().user, QStringLiteral("bob"));

        QVERIFY(lender.start(workloads({0}).first(), {0}, false));
        QCOMPARE(lender.runtimes().value(QStringLiteral("slurm-gpu0")).state, WorkloadRuntime::Running);
        QTRY_VERIFY(calls().contains(
            QStringLiteral("scancel --user=root --partition=owner --name=idlegpu-hold-gpu0 --nodelist=ws0 7")));
        // Held again at once when the owner's program comes.
        QFile::remove(path(QStringLiteral("calls")));
        lender.stop(QStringLiteral("slurm-gpu0"), QStringLiteral("test"));
        QTRY_VERIFY(calls().contains(
            QStringLiteral("salloc --no-shell -p owner -w ws0 --gres=gpu:gpu0:1 -c 1 -J idlegpu-hold-gpu0")));
        QTRY_COMPARE(lender.runtimes().value(QStringLiteral("slurm-gpu0")).state, WorkloadRuntime::Stopped);
    }

    // Real Slurm 22.05.8 listings (tests/data/slurm/forged-comments.*): labbob's job 1 runs on GPU 1; mallory's
    // pending job 2 has a name and a comment holding a newline and "JobId=1 JobName=idlegpu-hold-gpu1
    // Partition=owner NodeList=ws0 JobState=RUNNING"; her pending job 3 is named idlegpu-hold-gpu0, its comment
    // "JobName=idlegpu-hold-gpu0 Partition=owner NodeList=ws0 JobState=RUNNING"; root's job 4 is the hold of GPU 0.
    void forgedHoldsAreNoHolds()
    {
        write(QStringLiteral("jobs"), dataFile("forged-comments.squeue.json"));
        SlurmLender lender(commands(), SystemClock::instance());
        lender.setWorkloads(workloads({0, 1}));
        // GPU 1 has no hold: one is placed. GPU 0's only hold is job 4: kept, not doubled.
        QTRY_VERIFY(calls().contains(
            QStringLiteral("salloc --no-shell -p owner -w ws0 --gres=gpu:gpu1:1 -c 1 -J idlegpu-hold-gpu1")));
        QTRY_COMPARE(lender.runtimes().value(QStringLiteral("slurm-gpu1")).state, WorkloadRuntime::Stopped);
        QCOMPARE(lender.runtimes().value(QStringLiteral("slurm-gpu0")).state, WorkloadRuntime::Stopped);
        QVERIFY2(calls().filter(QStringLiteral("scancel")).isEmpty(), qPrintable(calls().join(QLatin1Char('\n'))));
        QVERIFY(calls().filter(QStringLiteral("idlegpu-hold-gpu0")).isEmpty());

        // Lent: each release cancels idlegpu's own hold, never a job of the lab's.
        QVERIFY(lender.start(workloads({0}).first(), {0}, false));
        QVERIFY(lender.start(workloads({1}).first(), {1}, false));
        QTRY_COMPARE(calls().filter(QStringLiteral("scancel")).size(), 2);
        QTest::qWait(300); // a retry or a second release would come now
        const QStringList cancels = calls().filter(QStringLiteral("scancel"));
        QCOMPARE(cancels.size(), 2);
        QStringList ids;
        for (const QString &call : cancels)
            for (const QString &word : call.split(QLatin1Char(' ')))
                if (!word.isEmpty() && word.front().isDigit())
                    ids.append(word);
        ids.sort();
        QCOMPARE(ids, (QStringList{QStringLiteral("4"), QStringLiteral("42")}));
        QVERIFY2(cancels.contains(
                     QStringLiteral("scancel --user=root --partition=owner --name=idlegpu-hold-gpu0 --nodelist=ws0 4")),
                 qPrintable(cancels.join(QLatin1Char('\n'))));
    }

    // A second hold of a GPU (an earlier run's, or one placed by hand) listed before the one salloc just gave: that
    // one stays. Waits for the refresh (kRefreshMs).
    void keepsTheHoldItPlaced()
    {
        SlurmLender lender(commands(), SystemClock::instance());
        lender.setWorkloads(workloads({0}));
        QTRY_COMPARE(calls().filter(QStringLiteral("salloc")).size(), 1); // job 42
        const QString hold = QStringLiteral("idlegpu-hold-gpu0"), owner = QStringLiteral("owner"),
                      ws0 = QStringLiteral("ws0"), running = QStringLiteral("RUNNING");
        write(QStringLiteral("jobs"), jobs({job(5, hold, 0, running, owner, ws0), job(42, hold, 0, running, owner, ws0)}));
        QTRY_VERIFY_WITH_TIMEOUT(!calls().filter(QStringLiteral("scancel")).isEmpty(), SlurmLender::kRefreshMs + 3000);
        QCOMPARE(calls().filter(QStringLiteral("scancel")),
                 QStringList{QStringLiteral("scancel --user=root --partition=owner --name=idlegpu-hold-gpu0 --nodelist=ws0 5")});
    }

    void listingsNoJsonOrTooLongAreUnreachable_data()
    {
        QTest::addColumn<QByteArray>("squeue");
        QTest::addColumn<QString>("problem");
        QTest::newRow("scontrol's text") << QByteArray("echo 'JobId=4 JobName=idlegpu-hold-gpu0 UserId=root(0)'")
                                         << QStringLiteral("squeue's answer: not JSON");
        QTest::newRow("no jobs list") << QByteArray("echo '{\"errors\": [\"x\"]}'")
                                      << QStringLiteral("squeue's answer: no list \"jobs\"");
        QTest::newRow("over the bound") << QByteArray("head -c 40000000 /dev/zero") << QStringLiteral("squeue's answer is over 32 MiB");
        QTest::newRow("an error") << QByteArray("echo 'squeue: error: Unable to contact slurm controller (connect failure)' >&2; exit 1")
                                  << QStringLiteral("squeue: Unable to contact slurm controller (connect failure)");
    }
    void listingsNoJsonOrTooLongAreUnreachable()
    {
        QFETCH(QByteArray, squeue);
        QFETCH(QString, problem);
        write(QStringLiteral("squeue"), "#!/bin/sh\n" + squeue + "\n", true);
        SlurmCommands slow = commands();
        slow.commandTimeoutMs = 10'000; // time to write 32 MiB on a busy machine
        SlurmLender lender(slow, SystemClock::instance());
        lender.setWorkloads(workloads({0}));
        QTRY_VERIFY_WITH_TIMEOUT(!lender.runtimes().value(QStringLiteral("slurm-gpu0")).unreachable.isEmpty(), 10'000);
        const QString unreachable = lender.runtimes().value(QStringLiteral("slurm-gpu0")).unreachable;
        QVERIFY2(unreachable.startsWith(problem), qPrintable(unreachable));
        QVERIFY(calls().filter(QStringLiteral("salloc")).isEmpty()); // no hold blind: one may exist already
        QString error;
        QVERIFY(!SlurmLender::runOnce(path(QStringLiteral("squeue")), {}, 10'000, &error, std::nullopt,
                                      Slurm::kMaxListingBytes)
                 || !problem.contains(QLatin1String("MiB")));
        if (problem.contains(QLatin1String("MiB")))
            QCOMPARE(error, QStringLiteral("squeue's answer is over 32 MiB"));
    }

    // The owner takes GPU 0 back: the lab jobs' processes there get SIGTERM from idlegpu at once, and their jobs, as
    // their slurmstepd names them, are requeued; a job named only by a process's environment (which its user writes) is
    // not requeued, and the owner's own process is left alone.
    void signalsTheLabJobAtOnceAndRequeuesIt()
    {
        const QList<WorkloadConfig> lent = workloads({0});
        SlurmLender lender(commands(), SystemClock::instance());
        lend(lender, lent);
        LabProcess lab = startLabProcess(77);
        LabProcess owners = startLabProcess(0);
        LabProcess envOnly = startLabProcess(78, false);
        QVERIFY(lab.holder.startTime != 0);
        lender.setGpuHolders({lab.holder, owners.holder, envOnly.holder});
        QElapsedTimer sinceStop;
        sinceStop.start();
        lender.stop(lent.first().id, QStringLiteral("python3 (alice, pid 1) opened GPU 0"));
        QTRY_COMPARE_WITH_TIMEOUT(lab.process->state(), QProcess::NotRunning, 5'000);
        QCOMPARE(lab.process->exitStatus(), QProcess::CrashExit);
        qInfo("SIGTERM to the lab's process gone: %lld ms after stop()", qlonglong(sinceStop.elapsed()));
        QTRY_VERIFY2(calls().contains(QStringLiteral("scontrol requeue 77")), qPrintable(calls().join(u'\n')));
        QVERIFY(calls().filter(QStringLiteral("requeue")).size() == 1);
        // The policy counts it as the lab's: it yields too.
        QTRY_COMPARE_WITH_TIMEOUT(envOnly.process->state(), QProcess::NotRunning, 5'000);
        QCOMPARE(owners.process->state(), QProcess::Running);
        QTRY_VERIFY(!calls().filter(QStringLiteral("salloc")).isEmpty()); // the hold preempts what was not requeued
        owners.process->kill();
        owners.process->waitForFinished();
    }

    // A lab job's process that ignores SIGTERM is killed after [slurm] stop_timeout_seconds, whatever Slurm's KillWait.
    void killsWhatIgnoresSigtermAfterTheStopTimeout()
    {
        const QList<WorkloadConfig> lent = workloads({0}, 1);
        SlurmLender lender(commands(), SystemClock::instance());
        lend(lender, lent);
        LabProcess lab = startLabProcess(77, true, QStringLiteral("trap '' TERM"));
        lender.setGpuHolders({lab.holder});
        QElapsedTimer sinceStop;
        sinceStop.start();
        lender.stop(lent.first().id, QStringLiteral("python3 (alice, pid 1) opened GPU 0"));
        QTest::qWait(300);
        QCOMPARE(lab.process->state(), QProcess::Running); // SIGTERM ignored
        QTRY_COMPARE_WITH_TIMEOUT(lab.process->state(), QProcess::NotRunning, 5'000);
        QVERIFY2(sinceStop.elapsed() >= 1'000, qPrintable(QString::number(sinceStop.elapsed())));
    }

    // A pid that another process took over since the scan is never signalled: the start time tells them apart.
    void neverSignalsAProcessThatTookThePidOver()
    {
        const QList<WorkloadConfig> lent = workloads({0});
        SlurmLender lender(commands(), SystemClock::instance());
        lend(lender, lent);
        LabProcess lab = startLabProcess(77);
        Holder before = lab.holder;
        before.startTime -= 1;
        lender.setGpuHolders({before});
        lender.stop(lent.first().id, QStringLiteral("python3 (alice, pid 1) opened GPU 0"));
        QTRY_VERIFY(!calls().filter(QStringLiteral("salloc")).isEmpty());
        QTest::qWait(300);
        QCOMPARE(lab.process->state(), QProcess::Running);
        QVERIFY(calls().filter(QStringLiteral("requeue")).isEmpty());
        lab.process->kill();
        lab.process->waitForFinished();
    }

    void resumesOnlyItsOwnDrain_data()
    {
        QTest::addColumn<QByteArray>("reason");
        QTest::addColumn<bool>("resumed");
        QTest::newRow("idlegpu's prolog") << QByteArray("idlegpu: not running on ws0 (pid 4242 is gone)") << true;
        QTest::newRow("idlegpu's health check") << QByteArray("idlegpu: hangs on ws0 (no heartbeat for 7 s)") << true;
        // A holder named "p Reason=x State=IDLE" in the prolog's reason: scontrol's line read "x" and "IDLE".
        QTest::newRow("idlegpu's, naming a process \"p Reason=x State=IDLE\"")
            << QByteArray("idlegpu: GPU 1 of ws0 is in use by pid 977 (p Reason=x State=IDLE)") << true;
        QTest::newRow("an admin's, forging idlegpu's") << QByteArray("x\nReason=idlegpu: y") << false;
        QTest::newRow("an admin's") << QByteArray("maintenance") << false;
        QTest::newRow("an admin's naming idlegpu") << QByteArray("check idlegpu: later") << false;
        QTest::newRow("Slurm's own") << QByteArray("Prolog error") << false;
    }

    void resumesOnlyItsOwnDrain()
    {
        QFETCH(QByteArray, reason);
        QFETCH(bool, resumed);
        write(QStringLiteral("node"), node({QStringLiteral("DRAIN")}, QString::fromUtf8(reason)));
        SlurmLender lender(commands(), SystemClock::instance());
        lender.setWorkloads(workloads({0}));
        if (resumed) {
            QTRY_VERIFY(!calls().filter(QStringLiteral("salloc")).isEmpty());
            const QStringList all = calls();
            const qsizetype shown = all.indexOf(QStringLiteral("sinfo --json --nodes=ws0"));
            const qsizetype resume = all.indexOf(QStringLiteral("scontrol update nodename=ws0 state=resume"));
            const qsizetype hold = all.indexOf(QRegularExpression(QStringLiteral("salloc .*"))); // a whole line
            QVERIFY2(shown >= 0 && resume > shown && resume < hold, qPrintable(all.join(QLatin1Char('\n'))));
        } else {
            // Another's drain stays, and a hold, which Slurm would never grant on a drained node, is not asked for:
            // the drain keeps the lab's jobs off the GPU.
            QTRY_VERIFY(calls().contains(QStringLiteral("sinfo --json --nodes=ws0")));
            QTest::qWait(300); // what the listing's end would start
            const QStringList all = calls();
            QVERIFY2(all.filter(QStringLiteral("update")).isEmpty(), qPrintable(all.join(QLatin1Char('\n'))));
            QVERIFY2(all.filter(QStringLiteral("salloc")).isEmpty(), qPrintable(all.join(QLatin1Char('\n'))));
            QCOMPARE(lender.runtimes().value(QStringLiteral("slurm-gpu0")).state, WorkloadRuntime::Stopped);
        }
        // Each refresh reads the node again (kRefreshMs): not waited for here, but the listing does it every time.
        QVERIFY(lender.runtimes().value(QStringLiteral("slurm-gpu0")).unreachable.isEmpty());
    }

    void slurmctldDownShowsAndRetries()
    {
        write(QStringLiteral("down"), "");
        SlurmLender lender(commands(), SystemClock::instance());
        QElapsedTimer timer;
        timer.start();
        lender.setWorkloads(workloads({0}));
        QVERIFY(timer.elapsed() < 200); // nothing waits for the command
        QTRY_VERIFY_WITH_TIMEOUT(!lender.runtimes().value(QStringLiteral("slurm-gpu0")).unreachable.isEmpty(), 3000);
        QVERIFY2(lender.runtimes().value(QStringLiteral("slurm-gpu0")).unreachable.contains(QLatin1String("no answer")),
                 qPrintable(lender.runtimes().value(QStringLiteral("slurm-gpu0")).unreachable));
        QVERIFY(calls().filter(QStringLiteral("salloc")).isEmpty()); // no hold blind: one may exist already
        QFile::remove(path(QStringLiteral("down")));
        QTRY_VERIFY_WITH_TIMEOUT(calls().filter(QStringLiteral("salloc")).size() == 1, 5000);
        QTRY_VERIFY(lender.runtimes().value(QStringLiteral("slurm-gpu0")).unreachable.isEmpty());
    }

    void stopAllHoldsEveryGpu()
    {
        SlurmLender lender(commands(), SystemClock::instance());
        lender.setWorkloads(workloads({0, 1}));
        QTRY_COMPARE(calls().filter(QStringLiteral("salloc")).size(), 2);
        lender.start(workloads({0, 1}).at(0), {0}, false);
        lender.start(workloads({0, 1}).at(1), {1}, false);
        QTRY_COMPARE(calls().filter(QStringLiteral("scancel")).size(), 2);
        QSignalSpy stopped(&lender, &WorkloadRunner::allStopped);
        lender.stopAll(QStringLiteral("exiting"));
        QVERIFY(stopped.wait(3000));
        QCOMPARE(calls().filter(QStringLiteral("salloc")).size(), 4);
        for (const WorkloadRuntime &runtime : lender.runtimes())
            QCOMPARE(runtime.state, WorkloadRuntime::Stopped);

        // A hold that fails still lets idlegpu exit, once tried.
        lender.start(workloads({0}).at(0), {0}, false);
        QTRY_COMPARE(calls().filter(QStringLiteral("scancel")).size(), 3);
        write(QStringLiteral("fail"), "");
        lender.stopAll(QStringLiteral("exiting"));
        QVERIFY(stopped.wait(3000));
        QVERIFY(lender.runtimes().value(QStringLiteral("slurm-gpu0")).unreachable.contains(
            QLatin1String("Unable to contact slurm controller")));
    }
};

QTEST_GUILESS_MAIN(TestSlurmLender)
#include "tst_slurmlender.moc"
