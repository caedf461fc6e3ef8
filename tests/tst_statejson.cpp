// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// StateJson: the state as each caller may see it (docs/dbus.md, "What a caller sees"), and the keys a client needs:
// interface_version, the pause with its end, each workload's runtime.
#include "bus/busnames.h"
#include "bus/statejson.h"
#include "fullledger.h"

#include <QJsonArray>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QtTest>

using StateJson::View;
Q_DECLARE_METATYPE(StateJson::View)

namespace {

constexpr uint kRoot = 0, kAlice = 1001, kBob = 1002, kCarol = 1003;
constexpr qint64 kNowMs = 5'000'000;
const QDateTime kWallNow(QDate(2026, 12, 3), QTime(12, 0), Qt::UTC);

// GPU 0 busy: alice's python3 opened it; bob's miner was stopped for it and is paused for an hour.
MonitorState busyState()
{
    MonitorState state;
    WorkloadConfig miner;
    miner.id = QStringLiteral("process-miner");
    miner.name = QStringLiteral("miner");
    miner.cmd = QStringLiteral("miner --wallet SECRETWALLET");
    miner.user = QStringLiteral("bob");
    miner.dir = QStringLiteral("/home/bob/miner");
    miner.log = QStringLiteral("/home/bob/miner.log");
    miner.env = {{QStringLiteral("POOL_PASSWORD"), QStringLiteral("hunter2")}};
    miner.gpus.all = true;
    WorkloadConfig boinc;
    boinc.id = QStringLiteral("process-boinc");
    boinc.name = QStringLiteral("boinc");
    boinc.cmd = QStringLiteral("boinc --root-secret");
    boinc.gpus.all = true;
    state.config.workloads = {miner, boinc};

    Holder python;
    python.pid = 4242;
    python.uid = kAlice;
    python.user = QStringLiteral("alice");
    python.comm = QStringLiteral("python3");
    python.exe = QStringLiteral("/usr/bin/python3.11");
    python.argv0 = QStringLiteral("python3");
    python.sid = 4000;
    python.gpus = {0};
    python.gpuMemoryBytes = 512ll * 1024 * 1024;
    state.snapshot.holders = {python};
    GpuStatus gpu;
    gpu.index = 0;
    gpu.state = GpuState::Busy;
    gpu.foreignHolders = {python};
    gpu.reason = QStringLiteral("in use by %1").arg(python.describe());
    state.decision.gpus = {gpu};
    state.decision.workloadReasons.insert(miner.id, {HoldReason::Paused, QStringLiteral("paused")});
    state.decision.workloadReasons.insert(
        boinc.id, {HoldReason::ForeignHolder, QStringLiteral("GPU 0 is in use by %1").arg(python.describe())});

    WorkloadRuntime runtime;
    runtime.id = miner.id;
    runtime.state = WorkloadRuntime::BackingOff;
    runtime.pid = 0;
    runtime.retryAtMs = kNowMs + 30'000;
    runtime.consecutiveFailures = 2;
    runtime.lastExit = QStringLiteral("exit code 3");
    runtime.lastOutput = {QStringLiteral("bad wallet SECRETWALLET")};
    state.runtimes.insert(miner.id, runtime);
    WorkloadRuntime running;
    running.id = boinc.id;
    running.state = WorkloadRuntime::Stopping;
    running.pid = 777;
    running.startedAtMs = kNowMs - 60'000;
    running.lastExit = QStringLiteral("stopped: %1 opened GPU 0").arg(python.describe()); // names alice's process
    state.runtimes.insert(boinc.id, running);

    state.pause.workloads.insert(miner.id);
    state.pause.workloadUntilMs.insert(miner.id, kNowMs + 3'600'000);
    state.configProblems = {ConfigDiagnostic(ConfigDiagnostic::Warning, QStringLiteral("/etc/idlegpu/idlegpu.conf"), 7,
                                             QStringLiteral("cmd = boinc --root-secret: something"))};

    // The ledger remembers that alice's python3 took GPU 0 from the miner a minute ago.
    const qint64 wallNowMs = kWallNow.toMSecsSinceEpoch();
    state.ledger.sinceWallMs = wallNowMs - 3'600'000;
    state.ledger.all.total = {1'800'000, 1, std::nullopt};
    state.ledger.byGpu.insert(
        0, {{1'800'000, 1, std::nullopt}, {1'800'000, 1, std::nullopt}, {1'800'000, 1, std::nullopt}});
    state.ledger.lastDay.insert(0, {{wallNowMs - 3'600'000, wallNowMs - 60'000, GpuActivity::Workload},
                                    {wallNowMs - 60'000, wallNowMs, GpuActivity::ForeignUse}});
    PreemptionRecord taken;
    taken.wallMs = wallNowMs - 60'000;
    taken.gpu = 0;
    taken.workloadName = miner.name;
    taken.culpritProgram = python.comm;
    taken.culpritUser = python.user;
    taken.culpritPid = python.pid;
    taken.openToStopMs = 4.5;
    state.ledger.recentPreemptions = {taken};
    return state;
}

// The ledger's recent preemptions in the JSON, newest first.
QJsonArray preemptionsOf(const QJsonObject &json)
{
    return json.value(QStringLiteral("ledger")).toObject().value(QStringLiteral("preemptions")).toArray();
}

// The size of the JSON as GetState sends it.
qsizetype sizeOf(const QJsonObject &json)
{
    return QJsonDocument(json).toJson(QJsonDocument::Compact).size();
}

View viewOf(uint uid, const QString &user, bool seesOthers)
{
    View view;
    view.uid = uid;
    view.user = user;
    view.seesOthers = seesOthers;
    view.serviceUid = kRoot;
    return view;
}

QJsonObject jsonFor(const View &view, const MonitorState &state = busyState())
{
    return StateJson::toJson(state, view, StateJson::Now{kNowMs, kWallNow});
}

QJsonObject holderOf(const QJsonObject &json)
{
    return json.value(QStringLiteral("gpus"))
        .toArray()
        .at(0)
        .toObject()
        .value(QStringLiteral("holders"))
        .toArray()
        .at(0)
        .toObject();
}

QJsonObject workloadOf(const QJsonObject &json, const QString &id)
{
    for (const QJsonValue &value : json.value(QStringLiteral("workloads")).toArray())
        if (value.toObject().value(QStringLiteral("id")).toString() == id)
            return value.toObject();
    return QJsonObject();
}

} // namespace

class TestStateJson : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Who sees which key of a holder and of a workload: the table of docs/dbus.md.
    void views_data()
    {
        QTest::addColumn<View>("view");
        QTest::addColumn<bool>("process");      // pid, uid, user, comm, argv0, GPU memory
        QTest::addColumn<bool>("owner");        // exe, session
        QTest::addColumn<bool>("minerSecrets"); // bob's workload: cmd, dir, log, env, last output
        QTest::addColumn<bool>("boincSecrets"); // root's workload
        QTest::addColumn<bool>("problemWords");

        QTest::newRow("root") << viewOf(kRoot, QStringLiteral("root"), true) << true << true << true << true << true;
        QTest::newRow("root, even with hidepid")
            << viewOf(kRoot, QStringLiteral("root"), false) << true << true << true << true << true;
        QTest::newRow("alice, her own process under hidepid")
            << viewOf(kAlice, QStringLiteral("alice"), false) << true << true << false << false << false;
        QTest::newRow("bob, without hidepid")
            << viewOf(kBob, QStringLiteral("bob"), true) << true << false << true << false << false;
        QTest::newRow("bob, with hidepid")
            << viewOf(kBob, QStringLiteral("bob"), false) << false << false << true << false << false;
        QTest::newRow("carol, without hidepid")
            << viewOf(kCarol, QStringLiteral("carol"), true) << true << false << false << false << false;
        QTest::newRow("carol, with hidepid")
            << viewOf(kCarol, QStringLiteral("carol"), false) << false << false << false << false << false;
        QTest::newRow("carol, name unknown")
            << viewOf(kCarol, QString(), false) << false << false << false << false << false;
        View service = viewOf(kCarol, QStringLiteral("carol"), false);
        service.serviceUid = kCarol; // carol's own session-bus service
        QTest::newRow("the service's own user") << service << true << true << true << true << true;
    }
    void views()
    {
        QFETCH(View, view);
        QFETCH(bool, process);
        QFETCH(bool, owner);
        QFETCH(bool, minerSecrets);
        QFETCH(bool, boincSecrets);
        QFETCH(bool, problemWords);
        const QJsonObject json = jsonFor(view);
        const QString text = QString::fromUtf8(QJsonDocument(json).toJson());

        const QJsonObject holder = holderOf(json);
        QCOMPARE(holder.value(QStringLiteral("makes_busy")).toBool(), true); // everyone sees that it counts
        for (const char *key : {"pid", "uid", "user", "comm", "argv0", "gpu_memory_bytes", "why"})
            QVERIFY2(holder.contains(QLatin1String(key)) == process, key);
        for (const char *key : {"exe", "session"})
            QVERIFY2(holder.contains(QLatin1String(key)) == owner, key);
        if (process) {
            QCOMPARE(holder.value(QStringLiteral("pid")).toInt(), 4242);
            QCOMPARE(holder.value(QStringLiteral("uid")).toInt(), int(kAlice));
        }
        const QJsonObject gpu = json.value(QStringLiteral("gpus")).toArray().at(0).toObject();
        QCOMPARE(gpu.value(QStringLiteral("hidden_holders")).toInt(), process ? 0 : 1);
        QCOMPARE(gpu.value(QStringLiteral("state")).toString(), QStringLiteral("busy"));
        // Nothing names alice's process where ps would not: not the reasons either.
        QCOMPARE(text.contains(QLatin1String("4242")), process);
        QCOMPARE(text.contains(QLatin1String("alice")), process);
        QCOMPARE(text.contains(QLatin1String("python3")), process);
        if (!process) {
            QCOMPARE(gpu.value(QStringLiteral("reason")).toString(),
                     QStringLiteral("in use by a process of another user"));
            QCOMPARE(workloadOf(json, QStringLiteral("process-boinc")).value(QStringLiteral("reason")).toString(),
                     QStringLiteral("GPU 0 is in use by a process of another user"));
        }
        QCOMPARE(text.contains(QLatin1String("/usr/bin/python3.11")), owner);
        // The ledger's preemption names alice's python3 to those who may see it, and to nobody else.
        const QJsonObject taken = preemptionsOf(json).at(0).toObject();
        for (const char *key : {"program", "user", "pid"})
            QVERIFY2(taken.contains(QLatin1String(key)) == process, key);
        QCOMPARE(taken.value(QStringLiteral("culprit")).toString(),
                 process ? QStringLiteral("python3 (alice, pid 4242)") : StateJson::unseenHolderWords());
        QCOMPARE(taken.value(QStringLiteral("workload")).toString(), QStringLiteral("miner")); // everyone

        const QJsonObject miner = workloadOf(json, QStringLiteral("process-miner"));
        QCOMPARE(miner.value(QStringLiteral("name")).toString(), QStringLiteral("miner")); // everyone
        QCOMPARE(miner.value(QStringLiteral("user")).toString(), QStringLiteral("bob"));
        for (const char *key : {"cmd", "start_cmd", "stop_cmd", "dir", "log", "env"})
            QVERIFY2(miner.contains(QLatin1String(key)) == minerSecrets, key);
        QCOMPARE(text.contains(QLatin1String("SECRETWALLET")), minerSecrets);
        QCOMPARE(text.contains(QLatin1String("hunter2")), minerSecrets);
        QCOMPARE(miner.value(QStringLiteral("runtime")).toObject().contains(QStringLiteral("last_output")),
                 minerSecrets);
        QCOMPARE(text.contains(QLatin1String("boinc --root-secret")), boincSecrets);

        const QJsonObject problem = json.value(QStringLiteral("config_problems")).toArray().at(0).toObject();
        QCOMPARE(problem.value(QStringLiteral("line")).toInt(), 7);
        QCOMPARE(problem.value(QStringLiteral("severity")).toString(), QStringLiteral("warning"));
        QCOMPARE(problem.contains(QStringLiteral("message")), problemWords);
    }

    // A hidden holder (another user's job that idlegpu only inferred) is named by nobody, and counted for all.
    void unseenHolder()
    {
        MonitorState state = busyState();
        Holder hidden;
        hidden.hidden = true;
        state.decision.gpus[0].foreignHolders = {hidden};
        state.decision.gpus[0].reason = QStringLiteral("in use by %1").arg(hidden.describe());
        const QJsonObject carol = jsonFor(viewOf(kCarol, QStringLiteral("carol"), false), state);
        QCOMPARE(holderOf(carol).value(QStringLiteral("hidden")).toBool(), true);
        QCOMPARE(
            carol.value(QStringLiteral("gpus")).toArray().at(0).toObject().value(QStringLiteral("reason")).toString(),
            QStringLiteral("in use by a process of another user (not visible without root)"));
    }

    // A last exit still names the process that took the GPU after that process ended: under hidepid another user
    // reads it without the name, pid or user; where /proc hides nobody, and for the holder's own user, it is named.
    void lastExitOfAGoneHolder()
    {
        MonitorState state = busyState();
        state.snapshot.holders.clear();
        state.decision.gpus[0].foreignHolders.clear();
        state.runtimes[QStringLiteral("process-boinc")].lastExit = QStringLiteral(
            "stopped: carols job (carol, pid 5151) opened GPU 0");
        const auto lastExit = [&](const View &view) {
            for (const QJsonValue workload : jsonFor(view, state).value(QStringLiteral("workloads")).toArray())
                if (workload[QStringLiteral("id")].toString() == QLatin1String("process-boinc"))
                    return workload[QStringLiteral("runtime")][QStringLiteral("last_exit")].toString();
            return QString();
        };
        QCOMPARE(lastExit(viewOf(kBob, QStringLiteral("bob"), false)),
                 QStringLiteral("stopped: a process of another user opened GPU 0"));
        QCOMPARE(lastExit(viewOf(kBob, QStringLiteral("bob"), true)),
                 QStringLiteral("stopped: carols job (carol, pid 5151) opened GPU 0"));
        QCOMPARE(lastExit(viewOf(kCarol, QStringLiteral("carol"), false)),
                 QStringLiteral("stopped: carols job (carol, pid 5151) opened GPU 0"));
    }

    // What a client shows: the version, the pause with its end on both clocks, each workload's runtime.
    void clientKeys()
    {
        MonitorState state = busyState();
        state.pause.all = true;
        state.pause.allUntilMs = kNowMs + 90'000;
        const QJsonObject json = jsonFor(viewOf(kCarol, QStringLiteral("carol"), false), state);
        QCOMPARE(json.value(QStringLiteral("interface_version")).toInt(), BusNames::interfaceVersion);
        const QJsonObject pause = json.value(QStringLiteral("pause")).toObject();
        QCOMPARE(pause.value(QStringLiteral("all")).toBool(), true);
        QCOMPARE(pause.value(QStringLiteral("until")).toString(), QStringLiteral("2026-12-03T12:01:30.000Z"));
        QCOMPARE(pause.value(QStringLiteral("until_monotonic_ms")).toInteger(), kNowMs + 90'000);
        const QJsonObject miner =
            pause.value(QStringLiteral("workloads")).toObject().value(QStringLiteral("process-miner")).toObject();
        QCOMPARE(miner.value(QStringLiteral("until")).toString(), QStringLiteral("2026-12-03T13:00:00.000Z"));
        QVERIFY(!pause.value(QStringLiteral("workloads")).toObject().contains(QStringLiteral("process-boinc")));
        QCOMPARE(workloadOf(json, QStringLiteral("process-miner")).value(QStringLiteral("paused")).toBool(), true);

        const QJsonObject failing =
            workloadOf(json, QStringLiteral("process-miner")).value(QStringLiteral("runtime")).toObject();
        QCOMPARE(failing.value(QStringLiteral("state")).toString(), QStringLiteral("failing"));
        QCOMPARE(failing.value(QStringLiteral("retry_at")).toString(), QStringLiteral("2026-12-03T12:00:30.000Z"));
        QCOMPARE(failing.value(QStringLiteral("failures")).toInt(), 2);
        QCOMPARE(failing.value(QStringLiteral("last_exit")).toString(), QStringLiteral("exit code 3"));
        const QJsonObject stopping =
            workloadOf(json, QStringLiteral("process-boinc")).value(QStringLiteral("runtime")).toObject();
        QCOMPARE(stopping.value(QStringLiteral("state")).toString(), QStringLiteral("stopping"));
        QCOMPARE(stopping.value(QStringLiteral("since")).toString(), QStringLiteral("2026-12-03T11:59:00.000Z"));
        QVERIFY(!stopping.contains(QStringLiteral("pid"))); // root's process, carol under hidepid
        QCOMPARE(workloadOf(jsonFor(View::full(), state), QStringLiteral("process-boinc"))
                     .value(QStringLiteral("runtime"))
                     .toObject()
                     .value(QStringLiteral("pid"))
                     .toInt(),
                 777);

        // A pause whose end has passed is no pause.
        const QJsonObject later = StateJson::toJson(state, View::full(),
                                                    StateJson::Now{kNowMs + 4'000'000, kWallNow.addSecs(4000)});
        QCOMPARE(later.value(QStringLiteral("pause")).toObject().value(QStringLiteral("all")).toBool(), false);
        QVERIFY(
            later.value(QStringLiteral("pause")).toObject().value(QStringLiteral("workloads")).toObject().isEmpty());
    }

    // A recent preemption as each caller sees its culprit: the caller's own process by name, another user's only
    // where /proc shows it, and one idlegpu itself could not see as such to all.
    void recentPreemptions()
    {
        MonitorState state = busyState();
        PreemptionRecord bobs = state.ledger.recentPreemptions.at(0);
        bobs.culpritProgram = QStringLiteral("blender");
        bobs.culpritUser = QStringLiteral("bob");
        bobs.culpritPid = 5151;
        bobs.openToStopMs.reset();
        PreemptionRecord unseen = bobs;
        unseen.culpritProgram.clear();
        unseen.culpritUser.clear();
        unseen.culpritPid = 0;
        state.ledger.recentPreemptions = {bobs, unseen, state.ledger.recentPreemptions.at(0)};
        const auto culprits = [&](const View &view) {
            QStringList texts;
            for (const QJsonValue value : preemptionsOf(jsonFor(view, state))) {
                const QJsonObject object = value.toObject();
                texts.append(QStringLiteral("%1|%2|%3|%4")
                                 .arg(object.value(QStringLiteral("culprit")).toString(),
                                      object.value(QStringLiteral("program")).toString(),
                                      object.value(QStringLiteral("user")).toString())
                                 .arg(object.value(QStringLiteral("pid")).toInteger()));
            }
            return texts;
        };
        const QString unseenWords = QStringLiteral("a process of another user (not visible without root)|||0");
        QCOMPARE(culprits(viewOf(kBob, QStringLiteral("bob"), false)),
                 QStringList({QStringLiteral("blender (bob, pid 5151)|blender|bob|5151"), unseenWords,
                              QStringLiteral("a process of another user|||0")}));
        QCOMPARE(culprits(viewOf(kCarol, QStringLiteral("carol"), false)),
                 QStringList({QStringLiteral("a process of another user|||0"), unseenWords,
                              QStringLiteral("a process of another user|||0")}));
        QCOMPARE(culprits(viewOf(kCarol, QStringLiteral("carol"), true)),
                 QStringList({QStringLiteral("blender (bob, pid 5151)|blender|bob|5151"), unseenWords,
                              QStringLiteral("python3 (alice, pid 4242)|python3|alice|4242")}));
        QCOMPARE(culprits(viewOf(kRoot, QStringLiteral("root"), false)),
                 culprits(viewOf(kCarol, QStringLiteral("carol"), true)));

        const QJsonObject first = preemptionsOf(jsonFor(View::full(), state)).at(2).toObject();
        QCOMPARE(first.value(QStringLiteral("at")).toString(), QStringLiteral("2026-12-03T11:59:00.000Z"));
        QCOMPARE(first.value(QStringLiteral("gpu")).toInt(), 0);
        QCOMPARE(first.value(QStringLiteral("open_to_stop_ms")).toDouble(), 4.5);
        QVERIFY(preemptionsOf(jsonFor(View::full(), state))
                    .at(0)
                    .toObject()
                    .value(QStringLiteral("open_to_stop_ms"))
                    .isNull()); // found by a scan
    }

    // The ledger's keys beside the totals: each GPU's totals, workload times and last 24 hours, the histogram.
    void ledgerKeys()
    {
        MonitorState state = busyState();
        state.ledger.workloadMs.insert(0, {{QStringLiteral("process-miner"), 1'800'000}});
        state.ledger.openToStop.add(4.5);
        const QJsonObject ledger =
            jsonFor(viewOf(kCarol, QStringLiteral("carol"), false), state).value(QStringLiteral("ledger")).toObject();
        QCOMPARE(ledger.value(QStringLiteral("since")).toString(), QStringLiteral("2026-12-03T11:00:00Z"));
        const QJsonArray gpus = ledger.value(QStringLiteral("gpus")).toArray();
        QCOMPARE(gpus.size(), 1);
        const QJsonObject gpu = gpus.at(0).toObject();
        QCOMPARE(gpu.value(QStringLiteral("index")).toInt(), 0);
        QCOMPARE(gpu.value(QStringLiteral("today")).toObject().value(QStringLiteral("workload_ms")).toInteger(),
                 1'800'000);
        QCOMPARE(gpu.value(QStringLiteral("total")).toObject().value(QStringLiteral("gpu_hours")).toDouble(), 0.5);
        QCOMPARE(
            gpu.value(QStringLiteral("by_workload_ms")).toObject().value(QStringLiteral("process-miner")).toInteger(),
            1'800'000);
        const QJsonArray lastDay = gpu.value(QStringLiteral("last_day")).toArray();
        QCOMPARE(lastDay.size(), 2);
        QCOMPARE(lastDay.at(1).toObject(),
                 QJsonObject({{QStringLiteral("from"), QStringLiteral("2026-12-03T11:59:00.000Z")},
                              {QStringLiteral("to"), QStringLiteral("2026-12-03T12:00:00.000Z")},
                              {QStringLiteral("activity"), QStringLiteral("foreign")}}));
        const QJsonObject histogram = ledger.value(QStringLiteral("open_to_stop")).toObject();
        QCOMPARE(histogram.value(QStringLiteral("bounds_ms")).toArray().size(), 13);
        QCOMPARE(histogram.value(QStringLiteral("counts")).toArray().at(2).toInt(), 1); // 4.5 ms: <= 5 ms
        QCOMPARE(histogram.value(QStringLiteral("sum_ms")).toDouble(), 4.5);
        // Times as Qt writes them, to the millisecond: across a leap day, years, the epoch, the ledger's end.
        for (const qint64 wallMs :
             {0LL, 1LL, 951'782'400'000LL, 951'868'799'999LL, 1'709'164'800'123LL, 1'735'689'599'999LL,
              1'735'689'600'000LL, 4'102'444'799'999LL, kWallNow.toMSecsSinceEpoch() + 86'399'999}) {
            MonitorState at = busyState();
            at.ledger.recentPreemptions[0].wallMs = wallMs;
            QCOMPARE(preemptionsOf(jsonFor(View::full(), at)).at(0).toObject().value(QStringLiteral("at")).toString(),
                     QDateTime::fromMSecsSinceEpoch(wallMs, Qt::UTC).toString(Qt::ISODateWithMs));
        }
        // Nothing recorded: null, as before.
        QVERIFY(jsonFor(View::full(), MonitorState()).value(QStringLiteral("ledger")).isNull());
    }

    // A timeline of few segments goes as it is; one of many on a grid of 5 minutes, each cell taking the activity
    // that filled most of it, like neighbours merged, gaps left out.
    void boundedTimeline()
    {
        const qint64 nowMs = kWallNow.toMSecsSinceEpoch();
        const QList<ActivitySegment> few = {{nowMs - 7'200'000, nowMs - 60'000, GpuActivity::Workload},
                                            {nowMs - 60'000, nowMs, GpuActivity::ForeignUse}};
        QCOMPARE(StateJson::boundedTimeline(few).size(), 2);

        // All day: 50 s of workload, 10 s of foreign use, each minute; 30 s of foreign use at 06:00.
        QList<ActivitySegment> many;
        const qint64 dayStartMs = nowMs - LedgerSummary::kTimelineSpanMs;
        for (qint64 at = dayStartMs; at < nowMs; at += 60'000) {
            many.append({at, at + 50'000, GpuActivity::Workload});
            many.append({at + 50'000, at + 60'000, GpuActivity::ForeignUse});
        }
        const QList<ActivitySegment> bounded = StateJson::boundedTimeline(many);
        QCOMPARE(bounded.size(), 1); // the workload filled most of every cell
        QCOMPARE(bounded.at(0).fromWallMs, dayStartMs);
        QCOMPARE(bounded.at(0).toWallMs, nowMs);
        QCOMPARE(bounded.at(0).activity, GpuActivity::Workload);

        // An hour of foreign use in the morning, and an hour with no segment at all.
        QList<ActivitySegment> mixed;
        for (const ActivitySegment &segment : std::as_const(many)) {
            const qint64 hour = (segment.fromWallMs - dayStartMs) / 3'600'000;
            if (hour == 10)
                continue; // the gap
            ActivitySegment copy = segment;
            if (hour == 5)
                copy.activity = GpuActivity::ForeignUse;
            mixed.append(copy);
        }
        const QList<ActivitySegment> cells = StateJson::boundedTimeline(mixed);
        QVERIFY(cells.size() <= StateJson::kTimelineSegments);
        QCOMPARE(cells.size(), 4); // workload, foreign, workload, (gap), workload
        QCOMPARE(cells.at(1).activity, GpuActivity::ForeignUse);
        QVERIFY(qAbs(cells.at(1).fromWallMs - (dayStartMs + 5 * 3'600'000)) <= StateJson::kTimelineGridMs);
        QVERIFY(qAbs(cells.at(1).toWallMs - cells.at(1).fromWallMs - 3'600'000) <= StateJson::kTimelineGridMs);
        QVERIFY(qAbs(cells.at(3).fromWallMs - cells.at(2).toWallMs - 3'600'000) <= StateJson::kTimelineGridMs);
        for (const ActivitySegment &cell : cells)
            QVERIFY(cell.fromWallMs % StateJson::kTimelineGridMs == 0 || cell.fromWallMs == dayStartMs);

        // Flapping every second: never more than the grid's cells, on a wider grid fewer.
        QList<ActivitySegment> flapping;
        for (qint64 at = nowMs - 2 * LedgerSummary::kTimelineSpanMs; at < nowMs; at += 1000)
            flapping.append({at, at + 1000, (at / 1000) % 3 ? GpuActivity::Workload : GpuActivity::Idle});
        QVERIFY(StateJson::boundedTimeline(flapping).size() <= StateJson::kTimelineSegments);
        QCOMPARE(StateJson::boundedTimeline(flapping).first().fromWallMs, nowMs - LedgerSummary::kTimelineSpanMs);
        QList<ActivitySegment> alternating;
        for (qint64 at = nowMs - LedgerSummary::kTimelineSpanMs; at < nowMs; at += StateJson::kTimelineGridMs) {
            const GpuActivity activity = (at / StateJson::kTimelineGridMs) % 2 ? GpuActivity::Workload
                                                                               : GpuActivity::Idle;
            const qint64 half = StateJson::kTimelineGridMs / 2;
            alternating.append({at, at + half, activity});
            alternating.append({at + half, at + 2 * half, activity});
        }
        alternating.append({nowMs, nowMs + 1000, GpuActivity::ForeignUse}); // one cell more, in part
        QCOMPARE(StateJson::boundedTimeline(alternating).size(), StateJson::kTimelineSegments);
        QVERIFY(StateJson::boundedTimeline(alternating, 2 * StateJson::kTimelineGridMs).size()
                <= StateJson::kTimelineSegments / 2 + 1);
        QVERIFY(StateJson::boundedTimeline({}).isEmpty());
    }

    // The fullest ledger: what the JSON weighs with the totals alone (before the dashboard travelled) and with all of
    // it, on 8 GPUs and on 32.
    void fullLedgerSize()
    {
        MonitorState state = busyState();
        const qint64 nowMs = kWallNow.toMSecsSinceEpoch();
        const auto measure = [&](int gpus) {
            state.ledger = TestSupport::fullLedger(nowMs, gpus);
            QElapsedTimer clock;
            clock.start();
            QJsonObject json = jsonFor(viewOf(kCarol, QStringLiteral("carol"), false), state);
            const qsizetype after = sizeOf(json);
            const double ms = clock.nsecsElapsed() / 1e6;
            QJsonObject totalsOnly = json.value(QStringLiteral("ledger")).toObject();
            for (const char *key : {"gpus", "preemptions", "open_to_stop"})
                totalsOnly.remove(QLatin1String(key));
            json.insert(QStringLiteral("ledger"), totalsOnly);
            const qsizetype before = sizeOf(json);
            // What the timelines alone would weigh sent whole, segment by segment.
            QJsonArray whole;
            for (const QList<ActivitySegment> &segments : std::as_const(state.ledger.lastDay))
                for (const ActivitySegment &segment : segments)
                    whole.append(QJsonObject{
                        {QStringLiteral("from"),
                         QDateTime::fromMSecsSinceEpoch(segment.fromWallMs, Qt::UTC).toString(Qt::ISODateWithMs)},
                        {QStringLiteral("to"),
                         QDateTime::fromMSecsSinceEpoch(segment.toWallMs, Qt::UTC).toString(Qt::ISODateWithMs)},
                        {QStringLiteral("activity"), QStringLiteral("workload")}});
            qInfo("the timelines sent whole would weigh %lld bytes",
                  qint64(QJsonDocument(whole).toJson(QJsonDocument::Compact).size()));
            qInfo("%d GPUs, %d segments each, %d preemptions: %lld bytes with the totals alone, %lld with the "
                  "dashboard (made in %.1f ms)",
                  gpus, int(state.ledger.lastDay.value(0).size()), int(state.ledger.recentPreemptions.size()),
                  qint64(before), qint64(after), ms);
            return after;
        };
        // 8 GPUs: at most 289 segments of about 85 bytes each; 32 GPUs: the grid widens, the whole stays as heavy.
        QVERIFY(measure(8) < 256 * 1024);
        QVERIFY(measure(32) < 256 * 1024);
    }

    // --status --json keeps every key it had.
    void fullReportKeepsItsKeys()
    {
        const QJsonObject json = StateJson::toJson(busyState());
        for (const char *key : {"config", "configured", "gpu_backend", "device_root", "gpus", "workloads",
                                "active_users", "power", "ledger", "unreadable_processes"})
            QVERIFY2(json.contains(QLatin1String(key)), key);
        const QJsonObject holder = holderOf(json);
        for (const char *key : {"pid", "user", "comm", "exe", "argv0", "hidden", "foreign", "makes_busy", "client",
                                "why", "gpu_memory_bytes"})
            QVERIFY2(holder.contains(QLatin1String(key)), key);
    }
};

QTEST_GUILESS_MAIN(TestStateJson)
#include "tst_statejson.moc"
