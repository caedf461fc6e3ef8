// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// StateJson::fromJson, the clients' reading of the service's state: what toJson writes comes back (the round trip
// toJson(fromJson(toJson(s))) == toJson(s)), and a JSON with missing or mistyped keys gives defaults, not a crash.
#include "bus/statejsonreader.h"
#include "bus/statejson.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QtTest>

namespace {

// The moment of the JSON, on both clocks.
const StateJson::Now kNow{1'000'000, QDateTime(QDate(2026, 11, 5), QTime(14, 32), Qt::UTC)};

QJsonObject toJson(const MonitorState &state)
{
    return StateJson::toJson(state, StateJson::View::full(), kNow);
}

MonitorState fromJson(const QJsonObject &json)
{
    return StateJson::fromJson(json, kNow.monotonicMs, kNow.wallUtc);
}

Holder holder(const QString &comm, qint64 pid, int gpu, bool compute)
{
    Holder h;
    h.pid = pid;
    h.uid = 1000;
    h.user = QStringLiteral("alice");
    h.comm = comm;
    h.exe = QStringLiteral("/usr/bin/") + comm;
    h.argv0 = comm;
    h.gpus = {gpu};
    h.holdsComputeNode = compute;
    h.holdsSharedNode = compute;
    return h;
}

// Two NVIDIA GPUs and an AMD one: the miner on GPU 0, alice's python3 on GPU 1 with NVML's figures, GPU 2 waiting;
// a ledger, a battery, an active terminal user.
MonitorState richState()
{
    MonitorState state;
    state.config.filePath = QStringLiteral("/etc/idlegpu/idlegpu.conf");
    state.config.deviceRoot = QStringLiteral("/dev");
    WorkloadConfig miner;
    miner.id = QStringLiteral("process-miner");
    miner.name = QStringLiteral("miner");
    miner.cmd = QStringLiteral("miner --pool \"a:1\" -u x,y");
    miner.user = QStringLiteral("nobody");
    miner.gpus = GpuSelection::of({0, 2});
    WorkloadConfig boinc;
    boinc.id = QStringLiteral("process-boinc");
    boinc.name = QStringLiteral("boinc");
    boinc.startCmd = QStringLiteral("systemctl start boinc-client");
    boinc.stopCmd = QStringLiteral("systemctl stop boinc-client");
    boinc.refusal = QStringLiteral("runs as root");
    state.config.workloads = {miner, boinc};
    state.decision.workloadReasons.insert(boinc.id, {HoldReason::Refused, QStringLiteral("refused: runs as root")});

    for (int i = 0; i < 3; ++i) {
        GpuDevice device{i, i < 2 ? QStringLiteral("/dev/nvidia%1").arg(i) : QStringLiteral("/dev/dri/renderD128")};
        if (i == 2) {
            device.vendor = GpuVendor::Amd;
            device.driver = QStringLiteral("amdgpu");
            device.pciSlot = QStringLiteral("0000:03:00.0");
            device.pciId = QStringLiteral("1002:744c");
            device.uniqueId = QStringLiteral("0123456789abcdef");
        }
        state.snapshot.devices.gpus.append(device);
        GpuStatus gpu;
        gpu.index = i;
        state.decision.gpus.append(gpu);
    }
    state.decision.gpus[0].state = GpuState::RunningWorkload;
    state.decision.gpus[0].workloadId = miner.id;
    state.decision.gpus[1].state = GpuState::Busy;
    state.decision.gpus[1].foreignHolders = {holder(QStringLiteral("python3"), 4242, 1, true)};
    state.decision.gpus[1].foreignHolders[0].gpuMemoryBytes = 1'000'000;
    state.decision.gpus[2].state = GpuState::Waiting;
    state.decision.gpus[2].reason = QStringLiteral("free for 3 s of 10 s");

    GpuInfo info;
    info.index = 1;
    info.backendIndex = 1;
    info.name = QStringLiteral("NVIDIA H200");
    info.uuid = QStringLiteral("GPU-8f0c");
    info.busId = QStringLiteral("00000000:19:00.0");
    info.utilizationPercent = 97;
    info.memoryUsedBytes = 1'000'000;
    info.memoryTotalBytes = 150'000'000'000;
    info.temperatureCelsius = 61;
    info.powerMilliwatts = 512'250;
    state.gpuMetrics.backend = QStringLiteral("NVML");
    state.gpuMetrics.available = true;
    state.gpuMetrics.gpus.insert(1, info);

    state.decision.activeUsers = {QStringLiteral("bob")};
    state.snapshot.power = {true, true, QStringLiteral("BAT0")};
    state.ledger.sinceWallMs = QDateTime(QDate(2026, 1, 5), QTime(12, 0), Qt::UTC).toMSecsSinceEpoch();
    state.ledger.all.today = {3'600'000, 2, 1234.5};
    state.ledger.all.week = {7'200'000, 3, std::nullopt};
    state.ledger.all.total = {10'800'000, 4, 99.0};
    state.snapshot.unreadableProcesses = 3;
    return state;
}

QByteArray compact(const QJsonObject &json)
{
    return QJsonDocument(json).toJson(QJsonDocument::Indented);
}

} // namespace

class TestStateJsonReader : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void roundTrip_data()
    {
        QTest::addColumn<MonitorState>("state");
        QTest::newRow("empty") << MonitorState();
        MonitorState notSetUp;
        notSetUp.notSetUp = true;
        QTest::newRow("not set up") << notSetUp;
        QTest::newRow("rich") << richState();
    }

    void roundTrip()
    {
        QFETCH(MonitorState, state);
        const QJsonObject once = toJson(state);
        const QJsonObject twice = toJson(fromJson(once));
        QCOMPARE(compact(twice), compact(once));
    }

    // What the tray shows, read back.
    void readsWhatTheTrayShows()
    {
        const MonitorState state = fromJson(toJson(richState()));
        QCOMPARE(state.decision.gpus.size(), 3);
        QCOMPARE(state.decision.gpus.at(1).foreignHolders.value(0).describe(), QStringLiteral("python3 (alice, pid 4242)"));
        QCOMPARE(state.snapshot.devices.gpus.at(2).describe(), QStringLiteral("AMD GPU 1002:744c (amdgpu, 0000:03:00.0)"));
        QCOMPARE(state.config.workload(QStringLiteral("process-miner"))->gpus, GpuSelection::of({0, 2}));
        QCOMPARE(*state.gpuMetrics.gpus.value(1).powerMilliwatts, 512'250);
        QVERIFY(!state.notSetUp);
    }

    // The keys of interface version 1 that --status --json did not have (H1's statejson.cpp): the pause, each
    // workload's runtime with its times in wall time, the file's problems.
    void pauseRuntimesAndProblemsAreRead()
    {
        QJsonObject json = toJson(richState());
        json.insert(QStringLiteral("pause"),
                    QJsonObject{{QStringLiteral("all"), true},
                                {QStringLiteral("until"), QStringLiteral("2026-11-05T15:32:00.000Z")},
                                {QStringLiteral("until_monotonic_ms"), 123456},
                                {QStringLiteral("workloads"),
                                 QJsonObject{{QStringLiteral("process-boinc"), QJsonObject{{QStringLiteral("until"), QJsonValue()}}}}}});
        QJsonArray workloads = json.value(QStringLiteral("workloads")).toArray();
        QJsonObject miner = workloads.at(0).toObject();
        miner.insert(QStringLiteral("runtime"),
                     QJsonObject{{QStringLiteral("state"), QStringLiteral("failing")},
                                 {QStringLiteral("pid"), 77},
                                 {QStringLiteral("since"), QJsonValue()},
                                 {QStringLiteral("retry_at"), QStringLiteral("2026-11-05T14:32:30.000Z")},
                                 {QStringLiteral("last_exit"), QStringLiteral("exit code 3")},
                                 {QStringLiteral("last_output"), QJsonArray{QStringLiteral("out of memory")}},
                                 {QStringLiteral("failures"), 4}});
        miner.insert(QStringLiteral("env"), QJsonObject{{QStringLiteral("POOL"), QStringLiteral("a:1")}});
        workloads[0] = miner;
        json.insert(QStringLiteral("workloads"), workloads);
        json.insert(QStringLiteral("config_problems"),
                    QJsonArray{QJsonObject{{QStringLiteral("file"), QStringLiteral("/etc/idlegpu/idlegpu.conf")},
                                           {QStringLiteral("line"), 9},
                                           {QStringLiteral("severity"), QStringLiteral("error")},
                                           {QStringLiteral("workload"), QStringLiteral("process-x")},
                                           {QStringLiteral("message"), QStringLiteral("[process-x] has no cmd")}}});

        const QDateTime wallNow(QDate(2026, 11, 5), QTime(14, 32), Qt::UTC);
        const MonitorState state = StateJson::fromJson(json, 1'000'000, wallNow);
        QVERIFY(state.pause.all);
        QCOMPARE(state.pause.allUntilMs, 123456);
        QCOMPARE(state.pause.workloads, QSet<QString>({QStringLiteral("process-boinc")}));
        const WorkloadRuntime runtime = state.runtimes.value(QStringLiteral("process-miner"));
        QCOMPARE(runtime.state, WorkloadRuntime::BackingOff);
        QCOMPARE(runtime.pid, 77);
        QCOMPARE(runtime.lastExit, QStringLiteral("exit code 3"));
        QCOMPARE(runtime.consecutiveFailures, 4);
        QCOMPARE(runtime.retryAtMs, 1'030'000); // 30 s after now, on the reader's clock
        QCOMPARE(runtime.startedAtMs, 0);
        QCOMPARE(runtime.lastOutput, QStringList({QStringLiteral("out of memory")}));
        QCOMPARE(state.config.workload(QStringLiteral("process-miner"))->env.value(0).second, QStringLiteral("a:1"));
        QCOMPARE(state.configProblems.size(), 1);
        QCOMPARE(state.configProblems.at(0).toString(),
                 QStringLiteral("/etc/idlegpu/idlegpu.conf:9: error: [process-x] has no cmd"));
        QCOMPARE(state.configProblems.at(0).refusedWorkload, QStringLiteral("process-x"));
    }

    void garbageGivesDefaults()
    {
        const QJsonObject json{{QStringLiteral("gpus"), QStringLiteral("not a list")},
                               {QStringLiteral("workloads"), QJsonArray{1, QJsonObject{{QStringLiteral("id"), 5}}}},
                               {QStringLiteral("ledger"), 7},
                               {QStringLiteral("pause"), QJsonArray{}}};
        const MonitorState state = StateJson::fromJson(json);
        QVERIFY(state.decision.gpus.isEmpty());
        QVERIFY(state.config.workloads.isEmpty());
        QCOMPARE(state.ledger.sinceWallMs, 0);
        QVERIFY(!state.pause.all);
        const QJsonObject badGpu{{QStringLiteral("gpus"), QJsonArray{QJsonObject{{QStringLiteral("index"), QStringLiteral("x")}}}}};
        QVERIFY(StateJson::fromJson(badGpu).decision.gpus.isEmpty());
    }
};

QTEST_MAIN(TestStateJsonReader)
#include "tst_statejsonreader.moc"
