// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The pure part of Slurm mode: the listing parser, host lists, the node's view of holds and lab jobs, the commands'
// arguments, the slurm.conf lines (slurm/slurmjobs.h, slurm/slurmcommands.h) and the [slurm] config keys.
#include "config/config.h"
#include "holders/procparse.h"
#include "slurm/slurmcommands.h"
#include "slurm/slurmjobs.h"

#include <QFile>
#include <QTest>

using namespace Slurm;

class TestSlurmJobs : public QObject
{
    Q_OBJECT

    static SlurmConfig ws0()
    {
        SlurmConfig slurm;
        slurm.enabled = true;
        slurm.node = QStringLiteral("ws0");
        return slurm;
    }

private Q_SLOTS:
    void parsesRealListing()
    {
        // Slurm 22.05.8's own output: a hold on gpu1, a lab job on gpu0 (with gpu1:0 listed), one pending.
        QFile file(QStringLiteral(IDLEGPU_TEST_DATA "/slurm/show-job-d-oneliner.txt"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const QList<Job> jobs = parseShowJobs(file.readAll());
        QCOMPARE(jobs.size(), 3);
        QCOMPARE(jobs.at(0).id, 1);
        QCOMPARE(jobs.at(0).name, QStringLiteral("idlegpu-hold-gpu1"));
        QCOMPARE(jobs.at(0).partition, QStringLiteral("owner"));
        QCOMPARE(jobs.at(0).reqNodeList, QStringLiteral("ws0"));
        QCOMPARE(jobs.at(1).user, QStringLiteral("root"));
        QCOMPARE(jobs.at(1).state, QStringLiteral("RUNNING"));
        QCOMPARE(jobs.at(1).gresOn(QStringLiteral("ws0")),
                 (QList<GresUse>{{QStringLiteral("gpu"), QStringLiteral("gpu0"), 1, {0}},
                                 {QStringLiteral("gpu"), QStringLiteral("gpu1"), 0, {}}}));
        QCOMPARE(jobs.at(2).state, QStringLiteral("PENDING"));
        QVERIFY(jobs.at(2).nodeList.isEmpty());

        const NodeView view = viewOfNode(jobs, ws0(), {0, 1});
        QCOMPARE(view.holds.value(1).size(), 1);
        QVERIFY(!view.holds.contains(0));
        QCOMPARE(view.labJobs.value(0).size(), 1);
        QCOMPARE(view.labJobs.value(0).first().id, 2);
        QVERIFY(!view.labJobs.contains(1)); // the pending job has no GPU
        // Seen from another node: nothing is there.
        SlurmConfig other = ws0();
        other.node = QStringLiteral("ws1");
        QCOMPARE(viewOfNode(jobs, other, {0, 1}), NodeView());
    }

    void parsesOddLines()
    {
        const QByteArray text = "garbage\n"
                                "JobId=7 JobName=my job UserId=bob(1001) JobState=RUNNING Partition=scavenger "
                                "NodeList=ws[0-2] Command=/bin/run --a=b x   Nodes=ws[0-1] CPU_IDs=0 "
                                "GRES=gpu:2(IDX:0-1) Nodes=ws2 CPU_IDs=0 GRES=gpu:gpu3:1(IDX:3)\n"
                                "JobId=8 JobName=idlegpu-hold-gpu2 UserId=root(0) JobState=PENDING Partition=owner "
                                "ReqNodeList=ws2 NodeList=(null)\n"
                                "JobId=9 JobName=idlegpu-hold-gpu0 UserId=root(0) JobState=CANCELLED Partition=owner "
                                "NodeList=ws2\n"
                                "JobId=x JobName=none\n";
        const QList<Job> jobs = parseShowJobs(text);
        QCOMPARE(jobs.size(), 3);
        QCOMPARE(jobs.at(0).name, QStringLiteral("my job"));
        QCOMPARE(jobs.at(0).user, QStringLiteral("bob"));
        QCOMPARE(jobs.at(0).gresByNodes.size(), 2);
        SlurmConfig slurm = ws0();
        // Untyped GRES: the IDX is the position in gres.conf, here of GPUs 0 and 2.
        QCOMPARE(viewOfNode(jobs, slurm, {0, 2}).labJobs.keys().size(), 2);
        QVERIFY(viewOfNode(jobs, slurm, {0, 2}).labJobs.contains(2));
        slurm.node = QStringLiteral("ws2");
        const NodeView view = viewOfNode(jobs, slurm, {5, 6, 7, 8});
        QCOMPARE(view.labJobs.keys(), QList<int>{3}); // typed: gpu3, whatever the IDX's position says
        QCOMPARE(view.holds.keys(), QList<int>{2});   // pending, asked for ws2; the cancelled one does not count
    }

    void hostLists_data()
    {
        QTest::addColumn<QString>("list");
        QTest::addColumn<QString>("host");
        QTest::addColumn<bool>("contains");
        QTest::newRow("plain") << "ws0" << "ws0" << true;
        QTest::newRow("other") << "ws0" << "ws01" << false;
        QTest::newRow("comma") << "a,ws0" << "ws0" << true;
        QTest::newRow("range") << "ws[0-3,7]" << "ws2" << true;
        QTest::newRow("single") << "ws[0-3,7]" << "ws7" << true;
        QTest::newRow("outside") << "ws[0-3,7]" << "ws5" << false;
        QTest::newRow("padded") << "ws[01-10]" << "ws03" << true;
        QTest::newRow("padded, unpadded host") << "ws[01-10]" << "ws3" << false;
        QTest::newRow("suffix") << "n[1-2]-gpu,x" << "n2-gpu" << true;
        QTest::newRow("empty") << "" << "ws0" << false;
        QTest::newRow("broken") << "ws[1-" << "ws1" << false;
    }
    void hostLists()
    {
        QFETCH(QString, list);
        QFETCH(QString, host);
        QFETCH(bool, contains);
        QCOMPARE(hostListContains(list, host), contains);
    }

    void indexLists()
    {
        QCOMPARE(parseIndexList(u"0-1,3"), (QList<int>{0, 1, 3}));
        QCOMPARE(parseIndexList(u""), QList<int>());
        QCOMPARE(parseIndexList(u"3-1,x,2"), QList<int>{2});
        QCOMPARE(parseIndexList(u"0-99999999").size(), 1024);
    }

    void holdNames()
    {
        QCOMPARE(holdJobName(3), QStringLiteral("idlegpu-hold-gpu3"));
        QCOMPARE(gpuOfHoldName(QStringLiteral("idlegpu-hold-gpu3")), 3);
        QCOMPARE(gpuOfHoldName(QStringLiteral("idlegpu-hold-gpu03")), -1);
        QCOMPARE(gpuOfHoldName(QStringLiteral("idlegpu-hold-gpu")), -1);
        QCOMPARE(gpuOfHoldName(QStringLiteral("lab")), -1);
    }

    void commandArguments()
    {
        SlurmConfig slurm = ws0();
        QCOMPARE(holdArguments(slurm, 1).join(QLatin1Char(' ')),
                 QStringLiteral("--no-shell -p owner -w ws0 --gres=gpu:gpu1:1 -c 1 -J idlegpu-hold-gpu1"));
        slurm.gresType = QStringLiteral("a100_%d");
        slurm.partition = QStringLiteral("mine");
        QCOMPARE(holdArguments(slurm, 2).join(QLatin1Char(' ')),
                 QStringLiteral("--no-shell -p mine -w ws0 --gres=gpu:a100_2:1 -c 1 -J idlegpu-hold-gpu2"));
        QCOMPARE(releaseArguments(slurm, 2, {}).join(QLatin1Char(' ')),
                 QStringLiteral("-n idlegpu-hold-gpu2 -p mine -w ws0"));
        QCOMPARE(releaseArguments(slurm, 2, {41, 42}), (QStringList{QStringLiteral("41"), QStringLiteral("42")}));
        QCOMPARE(listArguments().join(QLatin1Char(' ')), QStringLiteral("show job -d --oneliner"));
    }

    void sallocOutput()
    {
        QCOMPARE(jobIdOfSalloc("salloc: Granted job allocation 42\n"), std::optional<qint64>(42));
        QCOMPARE(jobIdOfSalloc("salloc: Pending job allocation 7\nsalloc: job 7 queued and waiting for resources\n"),
                 std::optional<qint64>(7));
        QCOMPARE(jobIdOfSalloc("nothing"), std::nullopt);
        QCOMPARE(errorOf("salloc: error: Job submit/allocate failed: Unable to contact slurm controller (connect "
                         "failure)\n"),
                 QStringLiteral("Unable to contact slurm controller (connect failure)"));
        QCOMPARE(errorOf("slurm_load_jobs error: Unable to contact slurm controller (connect failure)\n"),
                 QStringLiteral("Unable to contact slurm controller (connect failure)"));
    }

    void slurmConfLines()
    {
        QList<GpuDevice> gpus;
        gpus.append({0, QStringLiteral("/dev/nvidia0")});
        gpus.append({1, QStringLiteral("/dev/nvidia1")});
        GpuDevice amd{2, QStringLiteral("/dev/dri/renderD128"), GpuVendor::Amd};
        gpus.append(amd);
        const QString text = slurmConfText(ws0(), gpus, 16);
        const QStringList lines = text.split(QLatin1Char('\n'));
        for (const char *line : {"GresTypes=gpu", "PreemptType=preempt/partition_prio", "PreemptMode=REQUEUE",
                                 "NodeName=ws0 CPUs=16 Gres=gpu:gpu0:1,gpu:gpu1:1 State=UNKNOWN",
                                 "NodeName=ws0 Name=gpu Type=gpu0 File=/dev/nvidia0",
                                 "NodeName=ws0 Name=gpu Type=gpu1 File=/dev/nvidia1",
                                 "Prolog=/usr/libexec/idlegpu/idlegpu-slurm-prolog",
                                 "HealthCheckProgram=/usr/libexec/idlegpu/idlegpu-slurm-health",
                                 "HealthCheckInterval=30", "HealthCheckNodeState=ANY",
                                 "SchedulerParameters=nohold_on_prolog_fail"})
            QVERIFY2(lines.contains(QLatin1String(line)), line);
        QVERIFY(text.contains(QLatin1String("\nKillWait=")));
        QVERIFY(text.contains(QLatin1String("\nPartitionName=owner Nodes=ALL PriorityTier=100 PreemptMode=OFF "
                                            "Hidden=YES AllowGroups=root")));
        QVERIFY(text.contains(QLatin1String("\nPartitionName=scavenger Nodes=ALL Default=YES PriorityTier=1 "
                                            "PreemptMode=REQUEUE")));
        QVERIFY(!text.contains(QLatin1String("renderD128")));
    }

    void nodeStateAndDrainReason()
    {
        const QByteArray text =
            "NodeName=ws1 Arch=x86_64 State=IDLE ThreadsPerCore=1 Reason=(null)\n"
            "NodeName=ws0 Arch=x86_64 CoresPerSocket=1 State=IDLE+DRAIN ThreadsPerCore=1 Partitions=owner,scavenger "
            "CfgTRES=cpu=2,mem=1M Reason=idlegpu: not running on ws0 (pid 4242 is gone) [root@2026-12-02T06:10:00]\n";
        const std::optional<NodeState> ws0 = parseShowNode(text, QStringLiteral("ws0"));
        QVERIFY(ws0);
        QVERIFY(ws0->drained());
        QCOMPARE(ws0->reason, QStringLiteral("idlegpu: not running on ws0 (pid 4242 is gone)"));
        const std::optional<NodeState> ws1 = parseShowNode(text, QStringLiteral("ws1"));
        QVERIFY(ws1);
        QVERIFY(!ws1->drained());
        QVERIFY(ws1->reason.isEmpty());
        QVERIFY(!parseShowNode(text, QStringLiteral("ws2")));
        QVERIFY(!parseShowNode("garbage State=\n", QStringLiteral("ws0")));
        QCOMPARE(parseShowNode("NodeName=ws0 State=MIXED+DRAIN Reason=maintenance [admin@2026-12-02T06:10:00]",
                               QStringLiteral("ws0"))
                     ->reason,
                 QStringLiteral("maintenance"));
        QCOMPARE(drainArguments(QStringLiteral("ws0"), QStringLiteral("idlegpu: x y")),
                 QStringList({QStringLiteral("update"), QStringLiteral("nodename=ws0"), QStringLiteral("state=drain"),
                              QStringLiteral("reason=idlegpu: x y")}));
    }

    void configKeys()
    {
        const ConfigLoadResult result = ConfigLoader::parse("[slurm]\nenabled = true\nnode = ws7\npartition = mine\n"
                                                            "gres_type = a100_%d\n",
                                                            QStringLiteral("t.conf"));
        QVERIFY(result.ok());
        const SlurmConfig &slurm = result.config.slurm;
        QVERIFY(slurm.enabled);
        QCOMPARE(slurm.node, QStringLiteral("ws7"));
        QCOMPARE(slurm.partition, QStringLiteral("mine"));
        QCOMPARE(slurm.gresTypeOf(3), QStringLiteral("a100_3"));
        const Config expanded = result.config.withGpuWorkloads({0, 2});
        QCOMPARE(expanded.workloads.size(), 2);
        QCOMPARE(expanded.workloads.at(1).id, QStringLiteral("slurm-gpu2"));
        QCOMPARE(expanded.workloads.at(1).gpus.indices, QList<int>{2});
        QVERIFY(expanded.workloads.at(1).kind() == WorkloadKind::SlurmLending);

        const ConfigLoadResult defaults = ConfigLoader::parse("[slurm]\nenabled = yes\n", QStringLiteral("t.conf"));
        QVERIFY(defaults.ok());
        QVERIFY(!defaults.config.slurm.node.isEmpty()); // the short host name
        QVERIFY(!defaults.config.slurm.node.contains(QLatin1Char('.')));
        QCOMPARE(defaults.config.slurm.partition, QStringLiteral("owner"));
        QCOMPARE(defaults.config.slurm.gresTypeOf(1), QStringLiteral("gpu1"));
        QVERIFY(ConfigLoader::parse("[defaults]\n", QStringLiteral("t.conf")).config.withGpuWorkloads({0}).workloads.isEmpty());

        QVERIFY(!ConfigLoader::parse("[slurm]\ngres_type = gpu\n", QStringLiteral("t.conf")).ok());
        QVERIFY(!ConfigLoader::parse("[slurm]\nnode = a b\n", QStringLiteral("t.conf")).ok());
        QVERIFY(!ConfigLoader::parse("[slurm]\nenabled = maybe\n", QStringLiteral("t.conf")).ok());
    }

    void environLookup()
    {
        const char environ[] = "PATH=/bin\0SLURM_JOB_IDX=1\0SLURM_JOB_ID=1234\0HOME=/root";
        int length = 0;
        const char *value = environValue(environ, int(sizeof environ - 1), "SLURM_JOB_ID", &length);
        QVERIFY(value);
        QCOMPARE(QByteArray(value, length), QByteArray("1234"));
        QVERIFY(!environValue(environ, int(sizeof environ - 1), "USER", &length));
        const char cut[] = "A=1\0SLURM_JOB_ID=";
        QVERIFY(!environValue(cut, int(sizeof cut - 1), "SLURM_JOB_ID", &length) || length == 0);
        const char *comm = nullptr;
        QVERIFY(procStatComm("12 (slurmstepd) S 1 12 12", &comm, &length));
        QCOMPARE(QByteArray(comm, length), QByteArray("slurmstepd"));
    }
};

QTEST_GUILESS_MAIN(TestSlurmJobs)
#include "tst_slurmjobs.moc"
