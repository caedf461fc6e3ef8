// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The pure part of Slurm mode: the parsers of squeue's and sinfo's JSON (Slurm's own listings and hostile ones),
// host lists, the node's view of holds and lab jobs, which duplicate hold stays, the commands' arguments, the
// slurm.conf lines (slurm/slurmjobs.h, slurm/slurmcommands.h) and the [slurm] config keys.
#include "base/printablename.h"
#include "config/config.h"
#include "holders/procparse.h"
#include "slurm/slurmcommands.h"
#include "slurm/slurmjobs.h"

#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
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

    static QByteArray dataFile(const char *name)
    {
        QFile file(QStringLiteral(IDLEGPU_TEST_DATA "/slurm/") + QLatin1String(name));
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }

    // One job of squeue's JSON as Slurm 22.05 writes it, with `fields` over its own.
    static QByteArray jobsJson(const QList<QJsonObject> &jobs)
    {
        QJsonArray list;
        for (const QJsonObject &fields : jobs) {
            QJsonObject job{{QStringLiteral("job_id"), 7},
                            {QStringLiteral("name"), QStringLiteral("idlegpu-hold-gpu1")},
                            {QStringLiteral("user_id"), 0},
                            {QStringLiteral("user_name"), QStringLiteral("root")},
                            {QStringLiteral("job_state"), QStringLiteral("RUNNING")},
                            {QStringLiteral("partition"), QStringLiteral("owner")},
                            {QStringLiteral("nodes"), QStringLiteral("ws0")},
                            {QStringLiteral("required_nodes"), QStringLiteral("ws0")},
                            {QStringLiteral("gres_detail"), QJsonArray{QStringLiteral("gpu:gpu1:1(IDX:1)")}}};
            for (auto it = fields.begin(); it != fields.end(); ++it)
                job.insert(it.key(), it.value());
            list.append(job);
        }
        return QJsonDocument(QJsonObject{{QStringLiteral("jobs"), list}}).toJson();
    }

private Q_SLOTS:
    void parsesRealListing()
    {
        // Slurm 22.05.8's own `squeue --all --json`: labbob's job 1 on GPU 1; mallory's pending job 2, whose name and
        // comment hold a newline and "JobId=1 JobName=idlegpu-hold-gpu1 ... Partition=owner NodeList=ws0
        // JobState=RUNNING"; her pending job 3 named idlegpu-hold-gpu0 (scavenger); root's job 4, the hold of GPU 0.
        QString error;
        const std::optional<QList<Job>> jobs = parseJobsJson(dataFile("forged-comments.squeue.json"), &error);
        QVERIFY2(jobs, qPrintable(error));
        QCOMPARE(jobs->size(), 4);
        QCOMPARE(jobs->at(0).id, 1);
        QCOMPARE(jobs->at(0).user, QStringLiteral("labbob"));
        QCOMPARE(jobs->at(0).gresOn(QStringLiteral("ws0")),
                 (QList<GresUse>{{QStringLiteral("gpu"), QStringLiteral("gpu1"), 1, {1}}}));
        QCOMPARE(jobs->at(1).id, 2);
        QCOMPARE(jobs->at(1).uid, 1001);
        QCOMPARE(jobs->at(1).name, QStringLiteral("x\\nJobId=1 JobName=idlegpu-hold-gpu1 \"q\" {b} Reason=x"));
        QCOMPARE(jobs->at(1).state, QStringLiteral("PENDING"));
        QCOMPARE(jobs->at(1).partition, QStringLiteral("scavenger"));
        QVERIFY(jobs->at(1).nodeList.isEmpty());
        QCOMPARE(jobs->at(2).name, QStringLiteral("idlegpu-hold-gpu0"));
        QCOMPARE(jobs->at(3).uid, 0);
        QCOMPARE(jobs->at(3).partition, QStringLiteral("owner"));
        QCOMPARE(jobs->at(3).reqNodeList, QStringLiteral("ws0"));

        const NodeView view = viewOfNode(*jobs, ws0(), {0, 1});
        QCOMPARE(view.holds.keys(), QList<int>{0});
        QCOMPARE(view.holds.value(0).size(), 1);
        QCOMPARE(view.holds.value(0).first().id, 4);
        QCOMPARE(view.labJobs.keys(), QList<int>{1});
        QCOMPARE(view.labJobs.value(1).first().id, 1);
        // Seen from another node: nothing is there.
        SlurmConfig other = ws0();
        other.node = QStringLiteral("ws1");
        QCOMPARE(viewOfNode(*jobs, other, {0, 1}), NodeView());
    }

    void parsesMultiNodeJob()
    {
        // Slurm 22.05.8, three workstations: job 3 has GPU 1 of ws1 and GPU 0 of ws3 (gres_detail in the order of
        // its allocated_nodes), root's job 5 holds GPU 0 of ws2, job 4 (three nodes) is pending.
        const std::optional<QList<Job>> jobs = parseJobsJson(dataFile("lab.squeue.json"));
        QVERIFY(jobs);
        QCOMPARE(jobs->size(), 5);
        const Job multi = jobs->at(2);
        QCOMPARE(multi.nodeList, QStringLiteral("ws[1,3]"));
        QCOMPARE(multi.gresOn(QStringLiteral("ws1")),
                 (QList<GresUse>{{QStringLiteral("gpu"), QStringLiteral("gpu0"), 0, {}},
                                 {QStringLiteral("gpu"), QStringLiteral("gpu1"), 1, {1}}}));
        QCOMPARE(multi.gresOn(QStringLiteral("ws3")),
                 (QList<GresUse>{{QStringLiteral("gpu"), QStringLiteral("gpu0"), 1, {0}},
                                 {QStringLiteral("gpu"), QStringLiteral("gpu1"), 0, {}}}));
        SlurmConfig slurm = ws0();
        const auto idsOn = [&](const char *node, int gpu) {
            slurm.node = QLatin1String(node);
            QList<qint64> ids;
            for (const Job &job : viewOfNode(*jobs, slurm, {0, 1}).labJobs.value(gpu))
                ids.append(job.id);
            return ids;
        };
        QCOMPARE(idsOn("ws1", 0), QList<qint64>{1});
        QCOMPARE(idsOn("ws1", 1), QList<qint64>{3});
        QCOMPARE(idsOn("ws3", 0), QList<qint64>{3});
        QCOMPARE(idsOn("ws3", 1), QList<qint64>{2});
        slurm.node = QStringLiteral("ws2");
        QCOMPARE(viewOfNode(*jobs, slurm, {0, 1}).holds.value(0).first().id, 5);
    }

    void untypedGresAndPendingHolds()
    {
        const QByteArray json = jobsJson(
            {{{QStringLiteral("job_id"), 7}, {QStringLiteral("name"), QStringLiteral("my job")},
              {QStringLiteral("user_id"), 1001}, {QStringLiteral("partition"), QStringLiteral("scavenger")},
              {QStringLiteral("nodes"), QStringLiteral("ws[0-2]")},
              {QStringLiteral("gres_detail"),
               QJsonArray{QStringLiteral("gpu:2(IDX:0-1)"), QStringLiteral("gpu:2(IDX:0-1)"),
                          QStringLiteral("gpu:gpu3:1(IDX:3)")}},
              {QStringLiteral("job_resources"),
               QJsonObject{{QStringLiteral("allocated_nodes"),
                            QJsonArray{QJsonObject{{QStringLiteral("nodename"), QStringLiteral("ws0")}},
                                       QJsonObject{{QStringLiteral("nodename"), QStringLiteral("ws1")}},
                                       QJsonObject{{QStringLiteral("nodename"), QStringLiteral("ws2")}}}}}}},
             {{QStringLiteral("job_id"), 8}, {QStringLiteral("name"), QStringLiteral("idlegpu-hold-gpu2")},
              {QStringLiteral("job_state"), QStringLiteral("PENDING")}, {QStringLiteral("nodes"), QString()},
              {QStringLiteral("required_nodes"), QStringLiteral("ws2")}, {QStringLiteral("gres_detail"), QJsonArray()}},
             {{QStringLiteral("job_id"), 9}, {QStringLiteral("name"), QStringLiteral("idlegpu-hold-gpu0")},
              {QStringLiteral("job_state"), QStringLiteral("CANCELLED")}, {QStringLiteral("nodes"), QStringLiteral("ws2")}}});
        const std::optional<QList<Job>> jobs = parseJobsJson(json);
        QVERIFY(jobs);
        QCOMPARE(jobs->size(), 3);
        SlurmConfig slurm = ws0();
        // Untyped GRES: the IDX is the position in gres.conf, here of GPUs 0 and 2.
        QCOMPARE(viewOfNode(*jobs, slurm, {0, 2}).labJobs.keys().size(), 2);
        QVERIFY(viewOfNode(*jobs, slurm, {0, 2}).labJobs.contains(2));
        slurm.node = QStringLiteral("ws2");
        const NodeView view = viewOfNode(*jobs, slurm, {5, 6, 7, 8});
        QCOMPARE(view.labJobs.keys(), QList<int>{3}); // typed: gpu3, whatever the IDX's position says
        QCOMPARE(view.holds.keys(), QList<int>{2});   // pending, asked for ws2; the cancelled one does not count
    }

    // Each row: a job's fields over a hold of GPU 1 on ws0 that is root's, running, in the owner partition.
    void holdsAreRootsInThePartitionByName_data()
    {
        QTest::addColumn<QJsonObject>("fields");
        QTest::addColumn<bool>("hold");
        const auto row = [](const char *name, QJsonObject fields, bool hold) {
            QTest::newRow(name) << fields << hold;
        };
        row("root's hold", {}, true);
        row("pending, asking for this node", {{"job_state", "PENDING"}, {"nodes", ""}}, true);
        row("another user's, in the hold partition", {{"user_id", 1001}, {"user_name", "root"}}, false);
        row("no uid", {{"user_id", QJsonValue()}}, false);
        row("uid as text", {{"user_id", "0"}}, false);
        row("uid 0.5", {{"user_id", 0.5}}, false);
        row("root's, in the lab's partition", {{"partition", "scavenger"}}, false);
        row("a name with more after it", {{"name", "idlegpu-hold-gpu1 x"}}, false);
        row("a name with a newline after it", {{"name", "idlegpu-hold-gpu1\nJobId=4"}}, false);
        row("another node's", {{"nodes", "ws1"}, {"required_nodes", "ws1"}}, false);
        row("pending for another node", {{"job_state", "PENDING"}, {"nodes", ""}, {"required_nodes", "ws1"}}, false);
        row("ended", {{"job_state", "CANCELLED"}}, false);
        row("the node as a list", {{"nodes", QJsonArray{"ws0"}}}, false);
    }
    void holdsAreRootsInThePartitionByName()
    {
        QFETCH(QJsonObject, fields);
        QFETCH(bool, hold);
        const std::optional<QList<Job>> jobs = parseJobsJson(jobsJson({fields}));
        QVERIFY(jobs);
        QCOMPARE(jobs->size(), 1);
        QCOMPARE(isHoldOnNode(jobs->first(), ws0()), hold);
        QCOMPARE(viewOfNode(*jobs, ws0(), {0, 1}).holds.contains(1), hold);
    }

    void hostileListings_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<int>("jobs"); // -1: refused as a whole
        QTest::newRow("scontrol's text") << QByteArray("JobId=4 JobName=idlegpu-hold-gpu1 Partition=owner NodeList=ws0 "
                                                       "JobState=RUNNING UserId=root(0)\n")
                                         << -1;
        QTest::newRow("empty") << QByteArray() << -1;
        QTest::newRow("no jobs") << QByteArray("{\"errors\": []}") << -1;
        QTest::newRow("jobs not a list") << QByteArray("{\"jobs\": {\"job_id\": 4}}") << -1;
        QTest::newRow("a list at the top") << QByteArray("[{\"jobs\": []}]") << -1;
        QTest::newRow("cut short") << jobsJson({{}}).chopped(40) << -1;
        QTest::newRow("nested deeply") << QByteArray(100000, '[') << -1;
        QTest::newRow("two documents") << jobsJson({{}}) + jobsJson({{}}) << -1;
        QTest::newRow("ids as text, fractions, out of range")
            << QByteArray("{\"jobs\": [{\"job_id\": \"4\"}, {\"job_id\": 4.5}, {\"job_id\": -1}, {\"job_id\": 0},"
                          " {\"job_id\": 1e300}, {\"job_id\": null}, {}, 4, \"x\", {\"job_id\": 12}]}")
            << 1;
        QTest::newRow("fields of other types")
            << QByteArray("{\"jobs\": [{\"job_id\": 5, \"name\": [\"idlegpu-hold-gpu1\"], \"user_id\": {}, \"partition\":"
                          " 1, \"nodes\": null, \"gres_detail\": [1, {}, \"gpu:x:y:z:w\"], \"job_resources\": []}]}")
            << 1;
        QTest::newRow("quotes, braces and escapes in strings")
            << jobsJson({{{"name", "}]}, {\"job_id\": 4, \"name\": \"idlegpu-hold-gpu1\"}"},
                          {"comment", "\\\"}\n{\"jobs\": []}"}}})
            << 1;
        QTest::newRow("a name of a megabyte") << jobsJson({{{"name", QString(1 << 20, QLatin1Char('n'))}}}) << 1;
        QTest::newRow("IDX of a billion") << jobsJson({{{"gres_detail", QJsonArray{"gpu:9(IDX:0-999999999)"}}}}) << 1;
        QByteArray huge = jobsJson({{}});
        huge.append(QByteArray(kMaxListingBytes, ' '));
        QTest::newRow("over the bound") << huge << -1;
    }
    void hostileListings()
    {
        QFETCH(QByteArray, json);
        QFETCH(int, jobs);
        QString error;
        const std::optional<QList<Job>> parsed = parseJobsJson(json, &error);
        QCOMPARE(parsed ? int(parsed->size()) : -1, jobs);
        QCOMPARE(error.isEmpty(), bool(parsed));
        if (!parsed)
            QVERIFY2(!error.contains(QLatin1Char('\n')), qPrintable(error));
        for (const Job &job : parsed.value_or(QList<Job>())) {
            QVERIFY(job.id > 0);
            QVERIFY(isPrintableName(job.name));
            QVERIFY(!isHoldOnNode(job, ws0()) || job.name == holdJobName(1));
            for (const NodeGres &group : job.gresByNodes)
                for (const GresUse &use : group.gres)
                    QVERIFY(use.idx.size() <= 1024);
        }
    }

    void duplicateHoldKept_data()
    {
        QTest::addColumn<QList<Job>>("holds");
        QTest::addColumn<qint64>("placedId");
        QTest::addColumn<qint64>("kept");
        const auto hold = [](qint64 id, const char *state) {
            Job job;
            job.id = id;
            job.state = QLatin1String(state);
            return job;
        };
        QTest::newRow("none") << QList<Job>() << qint64(0) << qint64(-1);
        QTest::newRow("the one salloc gave") << QList<Job>{hold(3, "RUNNING"), hold(9, "RUNNING")} << qint64(9) << qint64(9);
        QTest::newRow("salloc's, pending") << QList<Job>{hold(3, "RUNNING"), hold(9, "PENDING")} << qint64(9) << qint64(9);
        QTest::newRow("running over pending") << QList<Job>{hold(3, "PENDING"), hold(9, "RUNNING")} << qint64(0) << qint64(9);
        QTest::newRow("the oldest") << QList<Job>{hold(9, "RUNNING"), hold(3, "RUNNING")} << qint64(0) << qint64(3);
        QTest::newRow("salloc's gone") << QList<Job>{hold(9, "RUNNING"), hold(3, "RUNNING")} << qint64(5) << qint64(3);
    }
    void duplicateHoldKept()
    {
        QFETCH(QList<Job>, holds);
        QFETCH(qint64, placedId);
        QFETCH(qint64, kept);
        const qsizetype at = holdToKeep(holds, placedId);
        QCOMPARE(at < 0 ? qint64(-1) : holds.at(at).id, kept);
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
        // scancel: the ids, narrowed to root's holds of that GPU in that partition, on this node while all run there.
        Job running;
        running.id = 41;
        running.state = QStringLiteral("RUNNING");
        running.nodeList = QStringLiteral("ws0");
        Job pending = running;
        pending.id = 42;
        pending.state = QStringLiteral("PENDING");
        pending.nodeList.clear();
        QCOMPARE(cancelArguments(slurm, 2, {running}).join(QLatin1Char(' ')),
                 QStringLiteral("--user=root --partition=mine --name=idlegpu-hold-gpu2 --nodelist=ws0 41"));
        QCOMPARE(cancelArguments(slurm, 2, {running, pending}).join(QLatin1Char(' ')),
                 QStringLiteral("--user=root --partition=mine --name=idlegpu-hold-gpu2 41 42"));
        QCOMPARE(cancelArguments(slurm, 2, {}).join(QLatin1Char(' ')),
                 QStringLiteral("--user=root --partition=mine --name=idlegpu-hold-gpu2 --nodelist=ws0"));
        QCOMPARE(listArguments().join(QLatin1Char(' ')), QStringLiteral("--all --json"));
        QCOMPARE(nodeArguments(QStringLiteral("ws0")).join(QLatin1Char(' ')), QStringLiteral("--json --nodes=ws0"));
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
        // Slurm 22.05.8's `sinfo --json`: ws0 drained by idlegpu's prolog with a holder named "p Reason=x State=IDLE".
        QString error;
        const std::optional<NodeState> ws0 = parseNodeJson(dataFile("forged-reason.sinfo.json"), QStringLiteral("ws0"),
                                                           &error);
        QVERIFY2(ws0, qPrintable(error));
        QVERIFY(ws0->drained());
        QCOMPARE(ws0->state, QStringLiteral("allocated"));
        QCOMPARE(ws0->flags, QStringList{QStringLiteral("DRAIN")});
        QCOMPARE(ws0->reason, QStringLiteral("idlegpu: GPU 1 of ws0 is in use by pid 977 (p Reason=x State=IDLE)"));
        QVERIFY(!parseNodeJson(dataFile("forged-reason.sinfo.json"), QStringLiteral("ws1"), &error));
        QCOMPARE(error, QStringLiteral("no node ws1 with a state"));

        const auto nodes = [](const QJsonArray &list) {
            return QJsonDocument(QJsonObject{{QStringLiteral("nodes"), list}}).toJson();
        };
        const QByteArray two = nodes(
            {QJsonObject{{"name", "ws1"}, {"state", "idle"}, {"state_flags", QJsonArray()}, {"reason", ""}},
             QJsonObject{{"name", "ws0"}, {"state", "mixed"}, {"state_flags", QJsonArray{"DRAIN", 7, "NOT_RESPONDING"}},
                         {"reason", "maintenance\nState=IDLE Reason=x"}}});
        const std::optional<NodeState> drained = parseNodeJson(two, QStringLiteral("ws0"));
        QVERIFY(drained && drained->drained());
        QCOMPARE(drained->flags, (QStringList{QStringLiteral("DRAIN"), QStringLiteral("NOT_RESPONDING")}));
        QCOMPARE(drained->reason, QStringLiteral("maintenance\nState=IDLE Reason=x"));
        const std::optional<NodeState> idle = parseNodeJson(two, QStringLiteral("ws1"));
        QVERIFY(idle && !idle->drained() && idle->reason.isEmpty());
        // A reason or a name is no flag.
        QVERIFY(!parseNodeJson(nodes({QJsonObject{{"name", "ws0"}, {"state", "idle"}, {"reason", "DRAIN"}}}),
                               QStringLiteral("ws0"))
                     ->drained());
        QVERIFY(!parseNodeJson(nodes({QJsonObject{{"name", "ws0"}, {"state_flags", QJsonArray{"DRAIN"}}}}),
                               QStringLiteral("ws0"))); // no state
        QVERIFY(!parseNodeJson("NodeName=ws0 State=IDLE+DRAIN Reason=idlegpu: x", QStringLiteral("ws0"), &error));
        QVERIFY(error.startsWith(QLatin1String("not JSON")));
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
