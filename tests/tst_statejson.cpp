// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// StateJson: the state as each caller may see it (docs/dbus.md, "What a caller sees"), and the keys a client needs:
// interface_version, the pause with its end, each workload's runtime.
#include "bus/busnames.h"
#include "bus/statejson.h"

#include <QJsonArray>
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
    return state;
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
