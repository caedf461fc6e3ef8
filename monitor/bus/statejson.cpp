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

#include <algorithm>
#include <array>
#include <cstdio>

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

// The name of an activity in the timeline, as the ledger file writes it.
QString activityWord(GpuActivity activity)
{
    switch (activity) {
    case GpuActivity::Unwatched: return QStringLiteral("unwatched");
    case GpuActivity::Idle: return QStringLiteral("idle");
    case GpuActivity::Workload: return QStringLiteral("workload");
    case GpuActivity::ForeignUse: return QStringLiteral("foreign");
    }
    return QString();
}

// "2026-12-03T12:00:00.000Z", as QDateTime's Qt::ISODateWithMs in UTC writes it, several times faster: a full
// ledger's timelines hold thousands of these (tst_statejson fullLedgerSize), made afresh for each caller's view.
QString isoTime(qint64 wallMs)
{
    constexpr qint64 kDayMs = 86'400'000;
    constexpr qint64 kYear10000Ms = 253'402'300'800'000LL;
    if (wallMs < 0 || wallMs >= kYear10000Ms)
        return QDateTime::fromMSecsSinceEpoch(wallMs, Qt::UTC).toString(Qt::ISODateWithMs);
    // The civil date of a day count (Howard Hinnant's days_to_civil), for days since 1970-01-01 >= 0.
    const qint64 days = wallMs / kDayMs;
    const qint64 msOfDay = wallMs % kDayMs;
    const qint64 z = days + 719'468;
    const qint64 era = z / 146'097;
    const qint64 dayOfEra = z - era * 146'097;
    const qint64 yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36'524 - dayOfEra / 146'096) / 365;
    const qint64 dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100);
    const qint64 monthIndex = (5 * dayOfYear + 2) / 153;
    const int day = int(dayOfYear - (153 * monthIndex + 2) / 5 + 1);
    const int month = int(monthIndex < 10 ? monthIndex + 3 : monthIndex - 9);
    const int year = int(yearOfEra + era * 400 + (month <= 2 ? 1 : 0));
    char text[32];
    const int length = std::snprintf(text, sizeof text, "%04d-%02d-%02dT%02d:%02d:%02d.%03dZ", year, month, day,
                                     int(msOfDay / 3'600'000), int(msOfDay / 60'000 % 60), int(msOfDay / 1000 % 60),
                                     int(msOfDay % 1000));
    return QString::fromLatin1(text, length);
}

QJsonArray timelineToJson(const QList<ActivitySegment> &segments, qint64 gridMs)
{
    QJsonArray array;
    for (const ActivitySegment &segment : boundedTimeline(segments, gridMs))
        array.append(QJsonObject{{QStringLiteral("from"), isoTime(segment.fromWallMs)},
                                 {QStringLiteral("to"), isoTime(segment.toWallMs)},
                                 {QStringLiteral("activity"), activityWord(segment.activity)}});
    return array;
}

// Whether the view may see the process a preemption names: the record keeps its user's name (or number), not its
// uid, so the caller's own processes are known by the caller's name.
bool seesCulprit(const PreemptionRecord &record, const View &view)
{
    if (view.privileged() || view.seesOthers)
        return true;
    return !record.culpritUser.isEmpty()
           && (record.culpritUser == view.user || record.culpritUser == QString::number(view.uid));
}

// {"at": ISO, "gpu": 0, "workload": "miner", "culprit": "python3 (alice, pid 4242)", "program": "python3",
// "user": "alice", "pid": 4242, "open_to_stop_ms": 3.2}: program, user and pid only where the view may see the
// process; culprit names "a process of another user" where it may not.
QJsonObject preemptionToJson(const PreemptionRecord &record, const View &view)
{
    const bool seenByService = !record.culpritProgram.isEmpty();
    const bool seen = seenByService && seesCulprit(record, view);
    Holder culprit;
    culprit.comm = record.culpritProgram.left(kMaxPreemptionText);
    culprit.user = record.culpritUser.left(kMaxPreemptionText);
    culprit.pid = record.culpritPid;
    culprit.hidden = !seenByService;
    if (!seenByService)
        culprit.pid = 0;
    QJsonObject object{
        {QStringLiteral("at"), isoTime(record.wallMs)},
        {QStringLiteral("gpu"), record.gpu},
        {QStringLiteral("workload"), record.workloadName.left(kMaxPreemptionText)},
        {QStringLiteral("culprit"), seen || !seenByService ? culprit.describe() : unseenHolderWords()},
        {QStringLiteral("open_to_stop_ms"), record.openToStopMs ? QJsonValue(*record.openToStopMs) : QJsonValue()}};
    if (seen) {
        object.insert(QStringLiteral("program"), culprit.comm);
        object.insert(QStringLiteral("user"), culprit.user);
        object.insert(QStringLiteral("pid"), culprit.pid);
    }
    return object;
}

// The ledger as the view may see it: {"since": "2026-01-05T12:00:00Z", "today": {...}, "week": {...},
// "total": {...}, "gpus": [...], "preemptions": [...], "open_to_stop": {...}}; null when nothing is recorded.
QJsonValue ledgerToJson(const LedgerSummary &ledger, const View &view)
{
    if (ledger.sinceWallMs == 0)
        return QJsonValue();
    QList<int> indices = ledger.byGpu.keys();
    for (const QList<int> &more : {ledger.lastDay.keys(), ledger.workloadMs.keys()})
        for (int index : more)
            if (!indices.contains(index))
                indices.append(index);
    std::sort(indices.begin(), indices.end());
    // More GPUs, a wider grid: the timelines of all stay within those of kTimelineGridGpus on the finest grid.
    const qint64 gridMs = kTimelineGridMs
                          * qMax<qint64>(1,
                                         (qint64(ledger.lastDay.size()) + kTimelineGridGpus - 1) / kTimelineGridGpus);
    QJsonArray gpus;
    for (int index : std::as_const(indices)) {
        QJsonObject gpu{{QStringLiteral("index"), index}};
        if (const auto periods = ledger.byGpu.constFind(index); periods != ledger.byGpu.cend()) {
            gpu.insert(QStringLiteral("today"), totalsToJson(periods->today));
            gpu.insert(QStringLiteral("week"), totalsToJson(periods->week));
            gpu.insert(QStringLiteral("total"), totalsToJson(periods->total));
        }
        if (const auto byWorkload = ledger.workloadMs.constFind(index); byWorkload != ledger.workloadMs.cend()) {
            QJsonObject workloads;
            for (auto it = byWorkload->cbegin(); it != byWorkload->cend(); ++it)
                workloads.insert(it.key().left(kMaxPreemptionText), it.value());
            gpu.insert(QStringLiteral("by_workload_ms"), workloads);
        }
        if (const auto segments = ledger.lastDay.constFind(index); segments != ledger.lastDay.cend())
            gpu.insert(QStringLiteral("last_day"), timelineToJson(*segments, gridMs));
        gpus.append(gpu);
    }
    QJsonArray preemptions;
    for (const PreemptionRecord &record : ledger.recentPreemptions.mid(0, LedgerSummary::kRecentPreemptions))
        preemptions.append(preemptionToJson(record, view));
    QJsonArray bounds;
    for (double bound : LatencyHistogram::kBoundsMs)
        bounds.append(bound);
    QJsonArray counts;
    for (qint64 count : ledger.openToStop.counts)
        counts.append(count);
    return QJsonObject{
        {QStringLiteral("since"), QDateTime::fromMSecsSinceEpoch(ledger.sinceWallMs).toUTC().toString(Qt::ISODate)},
        {QStringLiteral("today"), totalsToJson(ledger.all.today)},
        {QStringLiteral("week"), totalsToJson(ledger.all.week)},
        {QStringLiteral("total"), totalsToJson(ledger.all.total)},
        {QStringLiteral("gpus"), gpus},
        {QStringLiteral("preemptions"), preemptions},
        {QStringLiteral("open_to_stop"), QJsonObject{{QStringLiteral("bounds_ms"), bounds},
                                                     {QStringLiteral("counts"), counts},
                                                     {QStringLiteral("sum_ms"), ledger.openToStop.sumMs}}}};
}

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

QList<ActivitySegment> boundedTimeline(const QList<ActivitySegment> &segments, qint64 gridMs)
{
    gridMs = qMax(gridMs, kTimelineGridMs);
    const qint64 cells = LedgerSummary::kTimelineSpanMs / gridMs + 1;
    if (segments.size() <= cells)
        return segments;
    // The span: the last kTimelineSpanMs before the end, on the grid.
    qint64 endMs = segments.first().toWallMs;
    qint64 firstMs = segments.first().fromWallMs;
    for (const ActivitySegment &segment : segments) {
        endMs = qMax(endMs, segment.toWallMs);
        firstMs = qMin(firstMs, segment.fromWallMs);
    }
    const qint64 startMs = qMax(firstMs, endMs - LedgerSummary::kTimelineSpanMs);
    if (endMs <= startMs)
        return {};
    const auto cellOf = [&](qint64 ms) { return ms >= 0 ? ms / gridMs : -((-ms + gridMs - 1) / gridMs); };
    const qint64 firstCell = cellOf(startMs);
    const qint64 cellCount = cellOf(endMs - 1) - firstCell + 1;
    // The time each activity filled of each cell.
    constexpr int kinds = 4;
    QList<std::array<qint64, kinds>> filled(cellCount, std::array<qint64, kinds>{});
    for (const ActivitySegment &segment : segments) {
        const qint64 from = qMax(segment.fromWallMs, startMs);
        const qint64 to = qMin(segment.toWallMs, endMs);
        const int kind = int(segment.activity);
        if (to <= from || kind < 0 || kind >= kinds)
            continue;
        for (qint64 cell = cellOf(from); cell <= cellOf(to - 1); ++cell) {
            const qint64 cellFrom = qMax(from, cell * gridMs);
            const qint64 cellTo = qMin(to, (cell + 1) * gridMs);
            filled[cell - firstCell][std::size_t(kind)] += cellTo - cellFrom;
        }
    }
    // Foreign use first where two filled a cell alike: it is what the timeline is looked at for.
    constexpr GpuActivity preference[] = {GpuActivity::ForeignUse, GpuActivity::Workload, GpuActivity::Idle,
                                          GpuActivity::Unwatched};
    QList<ActivitySegment> result;
    for (qint64 i = 0; i < cellCount; ++i) {
        const qint64 cellFrom = qMax(startMs, (firstCell + i) * gridMs);
        const qint64 cellTo = qMin(endMs, (firstCell + i + 1) * gridMs);
        qint64 covered = 0;
        std::optional<GpuActivity> best;
        for (GpuActivity activity : preference) {
            const qint64 ms = filled[i][std::size_t(activity)];
            covered += ms;
            if (ms > 0 && (!best || ms > filled[i][std::size_t(*best)]))
                best = activity;
        }
        if (!best || filled[i][std::size_t(*best)] < (cellTo - cellFrom) - covered)
            continue; // mostly a gap
        if (!result.isEmpty() && result.last().activity == *best && result.last().toWallMs == cellFrom)
            result.last().toWallMs = cellTo;
        else
            result.append({cellFrom, cellTo, *best});
    }
    return result;
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
                       {QStringLiteral("ledger"), ledgerToJson(state.ledger, view)},
                       {QStringLiteral("unreadable_processes"), state.snapshot.unreadableProcesses},
                       {QStringLiteral("pause"), pauseToJson(state.pause, now)},
                       {QStringLiteral("config_problems"), problems},
                       {QStringLiteral("shutting_down"), state.shuttingDown}};
}

} // namespace StateJson
