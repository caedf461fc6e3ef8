// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// StateJson::fromJson, the clients' reading of the service's state: what toJson writes comes back (the round trip
// toJson(fromJson(toJson(s))) == toJson(s)), and a JSON with missing or mistyped keys gives defaults, not a crash.
#include "bus/statejsonreader.h"
#include "bus/statejson.h"
#include "fullledger.h"

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

// The fields of a ledger summary, one per line, to compare two.
QStringList fieldsOf(const LedgerSummary &ledger)
{
    const auto totals = [](const WorkTotals &t) {
        return QStringLiteral("%1 ms, %2 preemptions, %3 J")
            .arg(t.workloadMs)
            .arg(t.preemptions)
            .arg(t.energyJoules ? QString::number(*t.energyJoules, 'g', 17) : QStringLiteral("-"));
    };
    const auto periods = [&](const WorkPeriods &p) {
        return QStringLiteral("today %1; week %2; total %3").arg(totals(p.today), totals(p.week), totals(p.total));
    };
    QStringList lines{QStringLiteral("since %1").arg(ledger.sinceWallMs),
                      QStringLiteral("all: ") + periods(ledger.all)};
    QList<int> gpus = ledger.byGpu.keys();
    std::sort(gpus.begin(), gpus.end());
    for (int gpu : gpus)
        lines.append(QStringLiteral("GPU %1: %2").arg(gpu).arg(periods(ledger.byGpu.value(gpu))));
    gpus = ledger.workloadMs.keys();
    std::sort(gpus.begin(), gpus.end());
    for (int gpu : gpus) {
        QStringList ids = ledger.workloadMs.value(gpu).keys();
        ids.sort();
        for (const QString &id : ids)
            lines.append(
                QStringLiteral("GPU %1 %2: %3 ms").arg(gpu).arg(id).arg(ledger.workloadMs.value(gpu).value(id)));
    }
    gpus = ledger.lastDay.keys();
    std::sort(gpus.begin(), gpus.end());
    for (int gpu : gpus) {
        lines.append(QStringLiteral("GPU %1 timeline:").arg(gpu));
        for (const ActivitySegment &segment : ledger.lastDay.value(gpu))
            lines.append(
                QStringLiteral("  %1..%2 %3").arg(segment.fromWallMs).arg(segment.toWallMs).arg(int(segment.activity)));
    }
    for (const PreemptionRecord &r : ledger.recentPreemptions)
        lines.append(QStringLiteral("preempted at %1 on GPU %2: %3 for %4 (%5, pid %6) %7 ms")
                         .arg(r.wallMs)
                         .arg(r.gpu)
                         .arg(r.workloadName, r.culpritProgram, r.culpritUser)
                         .arg(r.culpritPid)
                         .arg(r.openToStopMs ? QString::number(*r.openToStopMs, 'g', 17) : QStringLiteral("-")));
    QStringList counts;
    for (qint64 n : ledger.openToStop.counts)
        counts.append(QString::number(n));
    lines.append(
        QStringLiteral("open to stop: %1, sum %2").arg(counts.join(QLatin1Char(' '))).arg(ledger.openToStop.sumMs));
    return lines;
}

// The dashboard's ledger: two GPUs with totals, workload times and a timeline, a third with totals only, and
// preemptions by a seen and by an unseen process.
LedgerSummary dashboardLedger()
{
    const qint64 nowMs = kNow.wallUtc.toMSecsSinceEpoch();
    LedgerSummary ledger = TestSupport::fullLedger(nowMs, 2, 40);
    ledger.all.today.energyJoules = 1234.5;
    ledger.byGpu.insert(2, {{0, 0, std::nullopt}, {60'000, 1, std::nullopt}, {90'000, 2, 12.25}});
    ledger.recentPreemptions[1].culpritProgram.clear(); // hidden from idlegpu itself
    ledger.recentPreemptions[1].culpritUser.clear();
    ledger.recentPreemptions[1].culpritPid = 0;
    ledger.recentPreemptions[2].wallMs += 123; // times to the millisecond
    ledger.lastDay[1][3].toWallMs += 7;
    ledger.lastDay[1][4].fromWallMs += 7;
    return ledger;
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
        QCOMPARE(state.decision.gpus.at(1).foreignHolders.value(0).describe(),
                 QStringLiteral("python3 (alice, pid 4242)"));
        QCOMPARE(state.snapshot.devices.gpus.at(2).describe(),
                 QStringLiteral("AMD GPU 1002:744c (amdgpu, 0000:03:00.0)"));
        QCOMPARE(state.config.workload(QStringLiteral("process-miner"))->gpus, GpuSelection::of({0, 2}));
        QCOMPARE(*state.gpuMetrics.gpus.value(1).powerMilliwatts, 512'250);
        QVERIFY(!state.notSetUp);
    }

    // The keys of interface version 1 that --status --json did not have (H1's statejson.cpp): the pause, each
    // workload's runtime with its times in wall time, the file's problems.
    void pauseRuntimesAndProblemsAreRead()
    {
        QJsonObject json = toJson(richState());
        json.insert(
            QStringLiteral("pause"),
            QJsonObject{
                {QStringLiteral("all"), true},
                {QStringLiteral("until"), QStringLiteral("2026-11-05T15:32:00.000Z")},
                {QStringLiteral("until_monotonic_ms"), 123456},
                {QStringLiteral("workloads"),
                 QJsonObject{{QStringLiteral("process-boinc"), QJsonObject{{QStringLiteral("until"), QJsonValue()}}},
                             {QStringLiteral("process-miner"),
                              QJsonObject{{QStringLiteral("until"), QStringLiteral("2026-11-05T14:33:00.000Z")}}},
                             {QStringLiteral("process-x"),
                              QJsonObject{{QStringLiteral("until"), QStringLiteral("2026-11-05T14:34:00.000Z")},
                                          {QStringLiteral("until_monotonic_ms"), 2'000'000}}}}}});
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
        QCOMPARE(state.pause.workloads, QSet<QString>({QStringLiteral("process-boinc"), QStringLiteral("process-miner"),
                                                       QStringLiteral("process-x")}));
        // A workload's own pause ends where the service says: its monotonic end first, else its wall time.
        QVERIFY(!state.pause.workloadUntilMs.contains(QStringLiteral("process-boinc")));         // until resumed
        QCOMPARE(state.pause.workloadUntilMs.value(QStringLiteral("process-miner")), 1'060'000); // 1 min after now
        QCOMPARE(state.pause.workloadUntilMs.value(QStringLiteral("process-x")), 2'000'000);
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

    // A problem's words are for the privileged: an unprivileged caller's answer has none, and its window says where
    // to read them rather than end a line at "warning:".
    void configProblemWithoutWords()
    {
        QJsonObject json;
        json.insert(QStringLiteral("config_problems"),
                    QJsonArray{QJsonObject{{QStringLiteral("file"), QStringLiteral("/etc/idlegpu/idlegpu.conf")},
                                           {QStringLiteral("line"), 6},
                                           {QStringLiteral("severity"), QStringLiteral("warning")},
                                           {QStringLiteral("workload"), QString()}}});
        const MonitorState state = StateJson::fromJson(json, 0, QDateTime::currentDateTimeUtc());
        QCOMPARE(state.configProblems.size(), 1);
        QCOMPARE(state.configProblems.at(0).toString(),
                 QStringLiteral("/etc/idlegpu/idlegpu.conf:6: warning: the details are shown to administrators: run "
                                "sudo idlegpu --check-config"));
    }

    // The dashboard of the status window comes through: LedgerSummary -> JSON -> reader gives the same fields.
    void ledgerRoundTrip()
    {
        MonitorState state = richState();
        state.ledger = dashboardLedger();
        const MonitorState read = fromJson(toJson(state));
        QCOMPARE(fieldsOf(read.ledger), fieldsOf(state.ledger));
        QCOMPARE(read.ledger.openToStop, state.ledger.openToStop);
        QCOMPARE(read.ledger.recentPreemptions.size(), 50);
        QCOMPARE(read.ledger.lastDay.value(1).size(), 40);
    }

    // A caller who may not see the culprit reads "a process of another user", as the status window names one that
    // idlegpu could not see; so does a holder sent without its pid.
    void redactedCulpritsReadAsUnseen()
    {
        MonitorState state = richState();
        state.ledger = dashboardLedger();
        StateJson::View carol;
        carol.uid = 1003;
        carol.user = QStringLiteral("carol");
        carol.seesOthers = false;
        carol.serviceUid = 0;
        const MonitorState read = StateJson::fromJson(StateJson::toJson(state, carol, kNow), kNow.monotonicMs,
                                                      kNow.wallUtc);
        const PreemptionRecord first = read.ledger.recentPreemptions.at(0);
        QVERIFY(first.culpritProgram.isEmpty());
        QVERIFY(first.culpritUser.isEmpty());
        QCOMPARE(first.culpritPid, 0);
        QCOMPARE(first.workloadName, QStringLiteral("miner"));
        QCOMPARE(read.decision.gpus.at(1).foreignHolders.value(0).describe(),
                 QStringLiteral("a process of another user (not visible without root)"));
    }

    // A ledger from a service that lies or is broken: wrong types, huge lists, bad times and numbers are left out or
    // cut to the bounds a service keeps, and nothing crashes.
    void hostileLedger_data()
    {
        QTest::addColumn<QJsonObject>("ledger");
        const QJsonObject segment{{QStringLiteral("from"), QStringLiteral("2026-11-05T13:00:00.000Z")},
                                  {QStringLiteral("to"), QStringLiteral("2026-11-05T14:00:00.000Z")},
                                  {QStringLiteral("activity"), QStringLiteral("workload")}};
        const QJsonObject preemption{{QStringLiteral("at"), QStringLiteral("2026-11-05T13:00:00.000Z")},
                                     {QStringLiteral("gpu"), 0},
                                     {QStringLiteral("program"), QStringLiteral("python3")},
                                     {QStringLiteral("user"), QStringLiteral("alice")},
                                     {QStringLiteral("pid"), 4242}};
        const QJsonObject since{{QStringLiteral("since"), QStringLiteral("2026-01-05T12:00:00Z")}};
        const auto with = [&](const char *key, const QJsonValue &value) {
            QJsonObject object = since;
            object.insert(QLatin1String(key), value);
            return object;
        };
        const auto gpuWith = [&](const char *key, const QJsonValue &value) {
            return with("gpus", QJsonArray{QJsonObject{{QStringLiteral("index"), 0}, {QLatin1String(key), value}}});
        };
        QTest::newRow("gpus not a list") << with("gpus", QStringLiteral("x"));
        QTest::newRow("gpu not an object") << with("gpus", QJsonArray{1, QJsonArray{}, QJsonValue()});
        QTest::newRow("gpu index wrong") << with("gpus", QJsonArray{QJsonObject{{QStringLiteral("index"), -1}},
                                                                    QJsonObject{{QStringLiteral("index"), 1e300}},
                                                                    QJsonObject{{QStringLiteral("index"), 4096}},
                                                                    QJsonObject{{QStringLiteral("index"), "0"}}});
        QTest::newRow("totals of the wrong type") << gpuWith("total", QJsonArray{1, 2});
        QTest::newRow("totals out of range")
            << gpuWith("total", QJsonObject{{QStringLiteral("workload_ms"), -1e300},
                                            {QStringLiteral("preemptions"), 1e19},
                                            {QStringLiteral("energy_joules"), QStringLiteral("many")}});
        QTest::newRow("timeline not a list") << gpuWith("last_day", QJsonObject{{QStringLiteral("from"), 1}});
        QTest::newRow("bad segments") << gpuWith(
            "last_day", QJsonArray{7, QJsonObject{{QStringLiteral("from"), QStringLiteral("yesterday")}},
                                   QJsonObject{{QStringLiteral("from"), QStringLiteral("2026-11-05T14:00:00.000Z")},
                                               {QStringLiteral("to"), QStringLiteral("2026-11-05T13:00:00.000Z")},
                                               {QStringLiteral("activity"), QStringLiteral("workload")}},
                                   QJsonObject{{QStringLiteral("from"), QStringLiteral("1900-01-01T00:00:00Z")},
                                               {QStringLiteral("to"), QStringLiteral("9999-01-01T00:00:00Z")},
                                               {QStringLiteral("activity"), QStringLiteral("workload")}},
                                   QJsonObject{{QStringLiteral("from"), QStringLiteral("2026-11-05T13:00:00.000Z")},
                                               {QStringLiteral("to"), QStringLiteral("2026-11-05T14:00:00.000Z")},
                                               {QStringLiteral("activity"), QStringLiteral("mining")}}});
        QJsonArray hugeTimeline;
        for (int i = 0; i < 100'000; ++i)
            hugeTimeline.append(segment);
        QTest::newRow("a timeline of 100000 segments") << gpuWith("last_day", hugeTimeline);
        QJsonArray hugeGpus;
        for (int i = 0; i < 10'000; ++i)
            hugeGpus.append(
                QJsonObject{{QStringLiteral("index"), i % 5000}, {QStringLiteral("last_day"), QJsonArray{segment}}});
        QTest::newRow("10000 GPUs") << with("gpus", hugeGpus);
        QJsonObject manyWorkloads;
        for (int i = 0; i < 5000; ++i)
            manyWorkloads.insert(QStringLiteral("w%1").arg(i), i);
        manyWorkloads.insert(QStringLiteral("negative"), -5);
        manyWorkloads.insert(QStringLiteral("text"), QStringLiteral("5"));
        QTest::newRow("5000 workloads") << gpuWith("by_workload_ms", manyWorkloads);
        QJsonArray hugePreemptions;
        for (int i = 0; i < 10'000; ++i)
            hugePreemptions.append(preemption);
        QTest::newRow("10000 preemptions") << with("preemptions", hugePreemptions);
        QJsonObject badPreemption = preemption;
        badPreemption.insert(QStringLiteral("pid"), 1e300);
        badPreemption.insert(QStringLiteral("gpu"), QStringLiteral("zero"));
        badPreemption.insert(QStringLiteral("open_to_stop_ms"), -4);
        badPreemption.insert(QStringLiteral("program"), QString(100'000, QLatin1Char('x')));
        QJsonObject timeless = preemption;
        timeless.insert(QStringLiteral("at"), 1'700'000'000);
        QTest::newRow("bad preemptions") << with("preemptions", QJsonArray{badPreemption, timeless, 3});
        QTest::newRow("histogram of other buckets")
            << with("open_to_stop", QJsonObject{{QStringLiteral("bounds_ms"), QJsonArray{1, 2}},
                                                {QStringLiteral("counts"), QJsonArray{1, 2, 3}},
                                                {QStringLiteral("sum_ms"), 6}});
        QTest::newRow("since not a time") << QJsonObject{{QStringLiteral("since"), 12}};
    }
    void hostileLedger()
    {
        QFETCH(QJsonObject, ledger);
        QJsonObject json = toJson(richState());
        json.insert(QStringLiteral("ledger"), ledger);
        const LedgerSummary read = fromJson(json).ledger;
        QVERIFY(read.byGpu.size() <= 4096);
        QVERIFY(read.recentPreemptions.size() <= LedgerSummary::kRecentPreemptions);
        for (auto it = read.lastDay.cbegin(); it != read.lastDay.cend(); ++it) {
            QVERIFY(it.key() >= 0 && it.key() < 4096);
            QVERIFY(it->size() <= 2048);
            for (const ActivitySegment &segment : *it) {
                QVERIFY(segment.toWallMs > segment.fromWallMs);
                QVERIFY(segment.fromWallMs >= 0);
                QVERIFY(segment.toWallMs <= QDateTime(QDate(2100, 1, 1), QTime(0, 0), Qt::UTC).toMSecsSinceEpoch());
            }
        }
        for (const QHash<QString, qint64> &byWorkload : read.workloadMs) {
            QVERIFY(byWorkload.size() <= 1024);
            for (qint64 ms : byWorkload)
                QVERIFY(ms >= 0);
        }
        for (const WorkPeriods &periods : read.byGpu)
            QVERIFY(periods.total.workloadMs >= 0 && periods.total.preemptions >= 0);
        for (const PreemptionRecord &record : read.recentPreemptions) {
            QVERIFY(record.wallMs > 0);
            QVERIFY(record.culpritPid >= 0);
            QVERIFY(record.culpritProgram.size() <= 256);
            QVERIFY(!record.openToStopMs || *record.openToStopMs >= 0);
        }
        QVERIFY(read.openToStop.count() == 0 || read.openToStop.sumMs >= 0);
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
        const QJsonObject badGpu{
            {QStringLiteral("gpus"), QJsonArray{QJsonObject{{QStringLiteral("index"), QStringLiteral("x")}}}}};
        QVERIFY(StateJson::fromJson(badGpu).decision.gpus.isEmpty());
    }
};

QTEST_MAIN(TestStateJsonReader)
#include "tst_statejsonreader.moc"
