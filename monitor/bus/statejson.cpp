// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "bus/statejson.h"

#include "base/clock.h"
#include "bus/busnames.h"
#include "config/configwords.h"
#include "ledger/workledger.h"
#include "policy/policy.h"

#include <QDateTime>
#include <QJsonArray>
#include <QRegularExpression>
#include <QSet>

namespace StateJson {

namespace {

double gpuHours(const WorkTotals &totals)
{
    return double(totals.workloadMs) / 3'600'000.0;
}

// The ledger's totals (workTotalsToJson()) with the workload time in GPU-hours too.
QJsonObject totalsToJson(const WorkTotals &totals)
{
    QJsonObject object = workTotalsToJson(totals);
    object.insert(QStringLiteral("gpu_hours"), gpuHours(totals));
    return object;
}

// {"since": "2026-01-05T12:00:00Z", "today": {...}, "week": {...}, "total": {...}}; null when nothing is recorded.
QJsonValue ledgerToJson(const LedgerSummary &ledger)
{
    if (ledger.sinceWallMs == 0)
        return QJsonValue();
    return QJsonObject{
        {QStringLiteral("since"), QDateTime::fromMSecsSinceEpoch(ledger.sinceWallMs).toUTC().toString(Qt::ISODate)},
        {QStringLiteral("today"), totalsToJson(ledger.all.today)},
        {QStringLiteral("week"), totalsToJson(ledger.all.week)},
        {QStringLiteral("total"), totalsToJson(ledger.all.total)}};
}

GpuDevice deviceOf(const MonitorState &state, int index)
{
    for (const GpuDevice &device : state.snapshot.devices.gpus)
        if (device.index == index)
            return device;
    return GpuDevice();
}

// What a view may see of processes and workloads (statejson.h says who sees what).
struct Visibility
{
    const View &view;
    // pid, uid, user, comm, argv0: as ps shows it to the caller.
    bool process(const Holder &holder) const { return view.privileged() || view.seesOthers || holder.uid == view.uid; }
    // exe and session.
    bool owner(const Holder &holder) const { return view.privileged() || holder.uid == view.uid; }
    // A workload's commands, folder, log, environment and last output: its user's (a number or a name).
    bool workload(const WorkloadConfig &workload) const
    {
        if (view.privileged())
            return true;
        if (workload.user.isEmpty())
            return false; // it runs as the service's user
        return workload.user == QString::number(view.uid) || (!view.user.isEmpty() && workload.user == view.user);
    }
};

// The words that name a process the view may not see, in a reason ("GPU 0 is in use by python3 (alice, pid 4242)"),
// made to name none; the state's reasons name holders as Holder::describe() does.
class ReasonRedactor
{
public:
    ReasonRedactor(const MonitorState &state, const Visibility &visible)
    {
        const auto consider = [&](const Holder &holder) {
            if (!visible.process(holder) && !(holder.hidden && holder.pid == 0))
                m_unseen.insert(holder.describe());
        };
        for (const GpuStatus &gpu : state.decision.gpus) {
            for (const Holder &holder : gpu.foreignHolders)
                consider(holder);
            for (const IgnoredHolder &ignored : gpu.ignoredHolders)
                consider(ignored.holder);
            for (const Holder &holder : gpu.openOnlyHolders)
                consider(holder);
        }
        for (const Holder &holder : state.snapshot.holders)
            consider(holder);
    }
    QString operator()(QString text) const
    {
        for (const QString &words : m_unseen)
            text.replace(words, unseenHolderWords());
        return text;
    }

private:
    QSet<QString> m_unseen;
};

// A last exit names the process that took the workload's GPU ("stopped: python3 (alice, pid 4242) opened GPU 0") long
// after that process is gone from the state's holders, where ReasonRedactor looks. For a view that sees only its own
// processes, a text naming another user's process keeps its frame and names none: "stopped: a process of another
// user opened GPU 0".
QString redactNamedProcesses(const QString &text, const View &view)
{
    if (view.privileged() || view.seesOthers)
        return text;
    static const QRegularExpression named(QStringLiteral(R"( \(([^,()]*), pid \d+\))"));
    qsizetype frameEnd = -1;
    for (auto it = named.globalMatch(text); it.hasNext();) {
        const QRegularExpressionMatch match = it.next();
        if (view.user.isEmpty() || match.captured(1) != view.user)
            frameEnd = match.capturedEnd();
    }
    if (frameEnd < 0)
        return text;
    const QLatin1String stopped("stopped: ");
    return (text.startsWith(stopped) ? QString(stopped) : QString()) + unseenHolderWords() + text.mid(frameEnd);
}

// client: "compute", "graphics" or "unseen" (Policy::clientKindName); why: the policy's reason, in English. Only what
// the view may see of the process: nothing that names it when it may not see it at all (hidepid).
QJsonObject holderToJson(const Holder &holder, const Policy::HolderVerdict &verdict, bool foreign, bool makesBusy,
                         const Visibility &visible)
{
    QJsonObject object{{QStringLiteral("hidden"), holder.hidden},
                       {QStringLiteral("foreign"), foreign},
                       {QStringLiteral("makes_busy"), makesBusy},
                       {QStringLiteral("client"), Policy::clientKindName(verdict.kind)}};
    if (!visible.process(holder))
        return object;
    object.insert(QStringLiteral("pid"), holder.pid);
    object.insert(QStringLiteral("uid"), holder.uid == uint(-1) ? QJsonValue() : QJsonValue(qint64(holder.uid)));
    object.insert(QStringLiteral("user"), holder.user);
    object.insert(QStringLiteral("comm"), holder.comm);
    object.insert(QStringLiteral("argv0"), holder.argv0);
    object.insert(QStringLiteral("why"), verdict.why);
    if (holder.gpuMemoryBytes)
        object.insert(QStringLiteral("gpu_memory_bytes"), *holder.gpuMemoryBytes);
    if (visible.owner(holder)) {
        object.insert(QStringLiteral("exe"), holder.exe);
        object.insert(QStringLiteral("session"), holder.sid);
    }
    return object;
}

// {"on_battery": true, "source": "BAT0"}; null where no power supply says (a desktop).
QJsonValue powerToJson(const PowerState &power)
{
    if (!power.known)
        return QJsonValue();
    return QJsonObject{{QStringLiteral("on_battery"), power.onBattery}, {QStringLiteral("source"), power.source}};
}

// A monotonic time as {"until": ISO wall time, "until_monotonic_ms": n}; both null for 0 (no end).
void insertUntil(QJsonObject &object, qint64 untilMs, const Now &now)
{
    if (untilMs <= 0) {
        object.insert(QStringLiteral("until"), QJsonValue());
        object.insert(QStringLiteral("until_monotonic_ms"), QJsonValue());
        return;
    }
    object.insert(QStringLiteral("until"),
                  now.wallUtc.addMSecs(untilMs - now.monotonicMs).toUTC().toString(Qt::ISODateWithMs));
    object.insert(QStringLiteral("until_monotonic_ms"), untilMs);
}

// {"all": true, "until": ..., "until_monotonic_ms": ..., "workloads": {"process-miner": {"until": ...}}}: the pauses
// in force now.
QJsonObject pauseToJson(const PauseState &pause, const Now &now)
{
    QJsonObject object{{QStringLiteral("all"), pause.allPausedAt(now.monotonicMs)}};
    insertUntil(object, pause.allPausedAt(now.monotonicMs) ? pause.allUntilMs : 0, now);
    QJsonObject workloads;
    for (const QString &id : pause.workloads) {
        if (!pause.workloadPausedAt(id, now.monotonicMs))
            continue;
        QJsonObject one;
        insertUntil(one, pause.workloadUntilMs.value(id), now);
        workloads.insert(id, one);
    }
    object.insert(QStringLiteral("workloads"), workloads);
    return object;
}

// A monotonic time in the past as an ISO wall time; null for 0.
QJsonValue wallOf(qint64 monotonicMs, const Now &now)
{
    if (monotonicMs <= 0)
        return QJsonValue();
    return now.wallUtc.addMSecs(monotonicMs - now.monotonicMs).toUTC().toString(Qt::ISODateWithMs);
}

// {"state": "running", "since": ..., "pid": 4242, "last_exit": "exit code 3", "retry_at": ..., "failures": 1}, with
// "last_output" for those who may see the workload's commands.
QJsonObject runtimeToJson(const WorkloadRuntime &runtime, bool seesProcess, bool seesWorkload, const Now &now)
{
    QJsonObject object{
        {QStringLiteral("state"), workloadStateName(runtime.state)},
        {QStringLiteral("since"), runtime.occupiesGpus() ? wallOf(runtime.startedAtMs, now) : QJsonValue()},
        {QStringLiteral("retry_at"), runtime.failing() ? wallOf(runtime.retryAtMs, now) : QJsonValue()},
        {QStringLiteral("failures"), runtime.consecutiveFailures},
        {QStringLiteral("last_exit"), runtime.lastExit}};
    if (seesProcess)
        object.insert(QStringLiteral("pid"), runtime.pid);
    if (seesWorkload)
        object.insert(QStringLiteral("last_output"), QJsonArray::fromStringList(runtime.lastOutput));
    return object;
}

} // namespace

Now Now::system()
{
    return Now{SystemClock::instance()->nowMs(), QDateTime::currentDateTimeUtc()};
}

QString unseenHolderWords()
{
    return QStringLiteral("a process of another user");
}

QJsonObject toJson(const MonitorState &state)
{
    return toJson(state, View::full(), Now::system());
}

QJsonObject toJson(const MonitorState &state, const View &view, const Now &now)
{
    const Visibility visible{view};
    const ReasonRedactor redact(state, visible);
    QJsonArray gpus;
    for (const GpuStatus &gpu : state.decision.gpus) {
        QJsonArray holders;
        int unseen = 0; // holders the view may not see: counted, not named
        const auto add = [&](const Holder &holder, const Policy::HolderVerdict &verdict, bool foreign, bool busy) {
            if (!visible.process(holder))
                ++unseen;
            holders.append(holderToJson(holder, verdict, foreign, busy, visible));
        };
        for (const Holder &holder : gpu.foreignHolders)
            add(holder, Policy::explainHolder(holder, gpu.index, state.config), true, true);
        for (const IgnoredHolder &ignored : gpu.ignoredHolders)
            add(ignored.holder, Policy::explainHolder(ignored, gpu.index), false, false);
        for (const Holder &holder : gpu.openOnlyHolders)
            add(holder, Policy::explainHolder(holder, gpu.index, state.config), true, false);
        const GpuDevice device = deviceOf(state, gpu.index);
        QJsonObject object{{QStringLiteral("index"), gpu.index},
                           {QStringLiteral("node"), device.path},
                           {QStringLiteral("vendor"), configWord(device.vendor)},
                           {QStringLiteral("busy"), gpu.state == GpuState::Busy},
                           {QStringLiteral("state"), Policy::gpuStateName(gpu.state)},
                           {QStringLiteral("reason"), redact(gpu.reason)},
                           {QStringLiteral("workload"), gpu.workloadId},
                           {QStringLiteral("holders"), holders},
                           {QStringLiteral("hidden_holders"), unseen}};
        if (const auto lending = state.runtimes.constFind(Config::slurmWorkloadId(gpu.index));
            state.config.slurm.enabled && lending != state.runtimes.cend()) {
            // "lent", "held" or "unreachable" (with why); the lab's jobs on the GPU.
            QJsonArray jobs;
            for (const WorkloadRuntime::LabJob &job : lending->labJobs)
                jobs.append(QJsonObject{{QStringLiteral("id"), job.id},
                                        {QStringLiteral("user"), job.user},
                                        {QStringLiteral("name"), job.name}});
            const QString slurmState = !lending->unreachable.isEmpty()              ? QStringLiteral("unreachable")
                                       : lending->state == WorkloadRuntime::Running ? QStringLiteral("lent")
                                                                                    : QStringLiteral("held");
            object.insert(QStringLiteral("slurm"), QJsonObject{{QStringLiteral("state"), slurmState},
                                                               {QStringLiteral("unreachable"), lending->unreachable},
                                                               {QStringLiteral("jobs"), jobs}});
        }
        if (const QString described = device.describe(); !described.isEmpty()) {
            object.insert(QStringLiteral("name"), described);
            object.insert(QStringLiteral("driver"), device.driver);
            object.insert(QStringLiteral("pci_slot"), device.pciSlot);
            object.insert(QStringLiteral("pci_id"), device.pciId);
            if (!device.uniqueId.isEmpty())
                object.insert(QStringLiteral("unique_id"), device.uniqueId);
        }
        const auto info = state.gpuMetrics.gpus.constFind(gpu.index);
        if (info != state.gpuMetrics.gpus.cend()) {
            // Present keys only: a metric the driver does not report is absent, not zero.
            object.insert(QStringLiteral("name"), info->name);
            object.insert(QStringLiteral("uuid"), info->uuid);
            object.insert(QStringLiteral("bus_id"), info->busId);
            object.insert(QStringLiteral("nvidia_smi_index"), info->backendIndex);
            if (info->utilizationPercent)
                object.insert(QStringLiteral("utilization_percent"), *info->utilizationPercent);
            if (info->memoryUsedBytes)
                object.insert(QStringLiteral("memory_used_bytes"), *info->memoryUsedBytes);
            if (info->memoryTotalBytes)
                object.insert(QStringLiteral("memory_total_bytes"), *info->memoryTotalBytes);
            if (info->temperatureCelsius)
                object.insert(QStringLiteral("temperature_celsius"), *info->temperatureCelsius);
            if (info->powerMilliwatts)
                object.insert(QStringLiteral("power_watts"), *info->powerMilliwatts / 1000.0);
        }
        gpus.append(object);
    }
    QJsonArray workloads;
    for (const WorkloadConfig &workload : state.config.workloads) {
        const QString reason = redact(state.decision.workloadReasons.value(workload.id).text);
        const bool seesWorkload = visible.workload(workload);
        QJsonObject object{
            {QStringLiteral("id"), workload.id},
            {QStringLiteral("name"), workload.name},
            {QStringLiteral("gpus"), workload.gpus.toString()},
            {QStringLiteral("user"), workload.user},
            {QStringLiteral("refused"), workload.refusal},
            {QStringLiteral("would_run"), reason.isEmpty()},
            {QStringLiteral("reason"), reason},
            {QStringLiteral("paused"),
             state.pause.allPausedAt(now.monotonicMs) || state.pause.workloadPausedAt(workload.id, now.monotonicMs)}};
        if (seesWorkload) {
            object.insert(QStringLiteral("cmd"), workload.cmd);
            object.insert(QStringLiteral("start_cmd"), workload.startCmd);
            object.insert(QStringLiteral("stop_cmd"), workload.stopCmd);
            object.insert(QStringLiteral("dir"), workload.dir);
            object.insert(QStringLiteral("log"), workload.log);
            QJsonObject env;
            for (const auto &pair : workload.env)
                env.insert(pair.first, pair.second);
            object.insert(QStringLiteral("env"), env);
        }
        // Its process runs as its user=, and ps shows it to that user, root, and where /proc hides nobody's.
        const bool seesProcess = seesWorkload || view.seesOthers;
        // Its last exit may name the process that took its GPU ("stopped: python3 (alice, pid 4242) opened GPU 0").
        WorkloadRuntime runtime = state.runtimes.value(workload.id);
        runtime.lastExit = redactNamedProcesses(redact(runtime.lastExit), view);
        object.insert(QStringLiteral("runtime"), runtimeToJson(runtime, seesProcess, seesWorkload, now));
        workloads.append(object);
    }
    // The file's problems: where, and how bad, for everyone; the words (they may quote the file) for the privileged.
    QJsonArray problems;
    for (const ConfigDiagnostic &problem : state.configProblems) {
        QJsonObject object{{QStringLiteral("file"), problem.file},
                           {QStringLiteral("line"), problem.line},
                           {QStringLiteral("severity"), problem.severity == ConfigDiagnostic::Error
                                                            ? QStringLiteral("error")
                                                            : QStringLiteral("warning")},
                           {QStringLiteral("workload"), problem.refusedWorkload}};
        if (view.privileged())
            object.insert(QStringLiteral("message"), problem.message);
        problems.append(object);
    }
    QJsonObject backend;
    if (!state.gpuMetrics.backend.isEmpty())
        backend = QJsonObject{{QStringLiteral("name"), state.gpuMetrics.backend},
                              {QStringLiteral("available"), state.gpuMetrics.available},
                              {QStringLiteral("mode"),
                               state.gpuMetrics.available ? QStringLiteral("backend") : QStringLiteral("node-only")},
                              {QStringLiteral("reason"), state.gpuMetrics.unavailableReason}};
    // configured: false while the config file does not exist (idlegpu is not set up yet).
    return QJsonObject{{QStringLiteral("interface_version"), BusNames::interfaceVersion},
                       {QStringLiteral("config"), state.config.filePath},
                       {QStringLiteral("configured"), !state.notSetUp},
                       {QStringLiteral("gpu_backend"), backend},
                       {QStringLiteral("device_root"), state.config.deviceRoot},
                       {QStringLiteral("gpus"), gpus},
                       {QStringLiteral("workloads"), workloads},
                       {QStringLiteral("active_users"), QJsonArray::fromStringList(state.decision.activeUsers)},
                       {QStringLiteral("power"), powerToJson(state.snapshot.power)},
                       {QStringLiteral("ledger"), ledgerToJson(state.ledger)},
                       {QStringLiteral("unreadable_processes"), state.snapshot.unreadableProcesses},
                       {QStringLiteral("pause"), pauseToJson(state.pause, now)},
                       {QStringLiteral("config_problems"), problems},
                       {QStringLiteral("shutting_down"), state.shuttingDown}};
}

} // namespace StateJson
