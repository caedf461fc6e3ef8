// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// SlurmLender against fake salloc, scancel, squeue, sinfo and scontrol (shell scripts in a temporary folder that log
// each call and answer from files, in Slurm 22.05's JSON): holds taken over and not doubled, the one salloc gave kept
// among duplicates, lab users' jobs posing as holds (Slurm's own listing of them) never cancelled, a drain of
// idlegpu's own resumed whatever its reason says, lending, a slurmctld that does not answer (timeouts, the state
// shown, retries), listings too long or no JSON, and stopAll() holding every GPU. tests/slurm/test_slurm_mode.sh
// drives it against a real cluster.
#include "config/config.h"
#include "slurm/slurmlender.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
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

    static QList<WorkloadConfig> workloads(const QList<int> &gpus)
    {
        Config config;
        config.slurm.enabled = true;
        config.slurm.node = QStringLiteral("ws0");
        return config.withGpuWorkloads(gpus).workloads;
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
        QTRY_VERIFY(!calls().filter(QStringLiteral("salloc")).isEmpty());
        const QStringList all = calls();
        const qsizetype shown = all.indexOf(QStringLiteral("sinfo --json --nodes=ws0"));
        const qsizetype resume = all.indexOf(QStringLiteral("scontrol update nodename=ws0 state=resume"));
        const qsizetype hold = all.indexOf(QRegularExpression(QStringLiteral("salloc .*"))); // a whole line
        QVERIFY2(shown >= 0 && shown < hold, qPrintable(all.join(QLatin1Char('\n'))));
        if (resumed)
            QVERIFY2(resume > shown && resume < hold, qPrintable(all.join(QLatin1Char('\n')))); // before the hold
        else
            QVERIFY2(all.filter(QStringLiteral("update")).isEmpty(), qPrintable(all.join(QLatin1Char('\n'))));
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
