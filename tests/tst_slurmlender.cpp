// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// SlurmLender against fake salloc, scancel and scontrol (shell scripts in a temporary folder that log each call and
// answer from files): holds taken over and not doubled, lending, a slurmctld that does not answer (timeouts, the
// state shown, retries), and stopAll() holding every GPU. tests/slurm/test_slurm_mode.sh drives it against a real
// cluster.
#include "config/config.h"
#include "slurm/slurmlender.h"

#include <QFile>
#include <QElapsedTimer>
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
        commands.commandTimeoutMs = 500;
        commands.holdTimeoutMs = 500;
        return commands;
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
        // Each fake logs its arguments; scontrol prints the file "jobs" (or hangs while "down" exists), and for
        // "show node" the file "node"; salloc grants job 42 unless "fail" exists.
        const QByteArray log = "echo \"$(basename \"$0\") $*\" >> \"$(dirname \"$0\")/calls\"\n";
        write(QStringLiteral("scontrol"), "#!/bin/sh\n" + log + "d=$(dirname \"$0\")\n[ -e \"$d/down\" ] && exec sleep 30\n"
                                          "[ \"$1 $2\" = \"show node\" ] && exec cat \"$d/node\" 2>/dev/null\n"
                                          "[ \"$1\" = update ] && exit 0\n"
                                          "cat \"$d/jobs\" 2>/dev/null\n", true);
        write(QStringLiteral("salloc"), "#!/bin/sh\n" + log + "d=$(dirname \"$0\")\nif [ -e \"$d/fail\" ]; then echo "
                                        "'salloc: error: Job submit/allocate failed: Unable to contact slurm controller "
                                        "(connect failure)' >&2; exit 1; fi\necho 'salloc: Granted job allocation 42' >&2\n",
              true);
        write(QStringLiteral("scancel"), "#!/bin/sh\n" + log, true);
        write(QStringLiteral("jobs"), "");
        write(QStringLiteral("node"), "NodeName=ws0 Arch=x86_64 State=IDLE ThreadsPerCore=1\n");
        QFile::remove(path(QStringLiteral("down")));
        QFile::remove(path(QStringLiteral("fail")));
    }

    void takesOverHoldsAndLends()
    {
        // GPU 0 held twice by earlier runs, a lab job on GPU 1.
        write(QStringLiteral("jobs"),
              "JobId=7 JobName=idlegpu-hold-gpu0 UserId=root(0) JobState=RUNNING Partition=owner NodeList=ws0\n"
              "JobId=8 JobName=idlegpu-hold-gpu0 UserId=root(0) JobState=PENDING Partition=owner ReqNodeList=ws0 "
              "NodeList=(null)\n"
              "JobId=9 JobName=lab UserId=bob(1001) JobState=RUNNING Partition=scavenger NodeList=ws0 Nodes=ws0 "
              "GRES=gpu:gpu0:0(IDX:),gpu:gpu1:1(IDX:1)\n");
        SlurmLender lender(commands(), SystemClock::instance());
        lender.setWorkloads(workloads({0, 1}));
        QTRY_COMPARE(lender.runtimes().value(QStringLiteral("slurm-gpu1")).state, WorkloadRuntime::Stopped);
        QTRY_VERIFY(calls().contains(QStringLiteral("scancel 8")));
        QTRY_VERIFY(calls().contains(
            QStringLiteral("salloc --no-shell -p owner -w ws0 --gres=gpu:gpu1:1 -c 1 -J idlegpu-hold-gpu1")));
        QCOMPARE(calls().filter(QStringLiteral("idlegpu-hold-gpu0")).size(), 0); // held already: no salloc
        const WorkloadRuntime held = lender.runtimes().value(QStringLiteral("slurm-gpu1"));
        QCOMPARE(held.labJobs.size(), 1);
        QCOMPARE(held.labJobs.first().user, QStringLiteral("bob"));

        QVERIFY(lender.start(workloads({0}).first(), {0}, false));
        QCOMPARE(lender.runtimes().value(QStringLiteral("slurm-gpu0")).state, WorkloadRuntime::Running);
        QTRY_VERIFY(calls().contains(QStringLiteral("scancel 7")));
        // Held again at once when the owner's program comes.
        QFile::remove(path(QStringLiteral("calls")));
        lender.stop(QStringLiteral("slurm-gpu0"), QStringLiteral("test"));
        QTRY_VERIFY(calls().contains(
            QStringLiteral("salloc --no-shell -p owner -w ws0 --gres=gpu:gpu0:1 -c 1 -J idlegpu-hold-gpu0")));
        QTRY_COMPARE(lender.runtimes().value(QStringLiteral("slurm-gpu0")).state, WorkloadRuntime::Stopped);
    }

    void resumesOnlyItsOwnDrain_data()
    {
        QTest::addColumn<QByteArray>("reason");
        QTest::addColumn<bool>("resumed");
        QTest::newRow("idlegpu's prolog") << QByteArray("idlegpu: not running on ws0 (pid 4242 is gone)") << true;
        QTest::newRow("idlegpu's health check") << QByteArray("idlegpu: hangs on ws0 (no heartbeat for 7 s)") << true;
        QTest::newRow("an admin's") << QByteArray("maintenance") << false;
        QTest::newRow("an admin's naming idlegpu") << QByteArray("check idlegpu: later") << false;
        QTest::newRow("Slurm's own") << QByteArray("Prolog error") << false;
    }

    void resumesOnlyItsOwnDrain()
    {
        QFETCH(QByteArray, reason);
        QFETCH(bool, resumed);
        write(QStringLiteral("node"),
              "NodeName=ws0 Arch=x86_64 State=IDLE+DRAIN ThreadsPerCore=1 Reason=" + reason + " [root@2026-12-02T06:00:00]\n");
        SlurmLender lender(commands(), SystemClock::instance());
        lender.setWorkloads(workloads({0}));
        QTRY_VERIFY(!calls().filter(QStringLiteral("salloc")).isEmpty());
        const QStringList all = calls();
        const qsizetype shown = all.indexOf(QStringLiteral("scontrol show node ws0 --oneliner"));
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
