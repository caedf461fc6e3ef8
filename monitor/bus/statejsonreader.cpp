// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "bus/statejsonreader.h"

#include "config/configwords.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QJsonArray>

#include <cmath>
#include <limits>
#include <type_traits>

namespace {

QString text(const QJsonObject &object, const char *key)
{
    return object.value(QLatin1String(key)).toString();
}

// The largest magnitude a JSON number is read as an integer up to: a double holds every integer up to 2^53, and
// a bigger one (1e300) would not fit a qint64.
constexpr double kMaxInteger = 9'007'199'254'740'992.0;

// A number, when it is one that `T` holds; nothing for another type, NaN or a value out of range.
template<typename T> std::optional<T> optionalNumber(const QJsonValue &value)
{
    if (!value.isDouble())
        return std::nullopt;
    const double number = value.toDouble();
    if constexpr (std::is_floating_point_v<T>) {
        if (!std::isfinite(number))
            return std::nullopt;
    } else {
        const double low = qMax(double(std::numeric_limits<T>::min()), -kMaxInteger);
        const double high = qMin(double(std::numeric_limits<T>::max()), kMaxInteger);
        if (!(number >= low && number <= high))
            return std::nullopt;
    }
    return T(number);
}

template<typename T>
std::optional<T> optionalNumber(const QJsonObject &object, const char *key)
{
    return optionalNumber<T>(object.value(QLatin1String(key)));
}

qint64 integer(const QJsonObject &object, const char *key, qint64 fallback = 0)
{
    return optionalNumber<qint64>(object, key).value_or(fallback);
}

GpuState gpuState(const QString &name)
{
    if (name == QLatin1String("waiting"))
        return GpuState::Waiting;
    if (name == QLatin1String("running"))
        return GpuState::RunningWorkload;
    if (name == QLatin1String("busy"))
        return GpuState::Busy;
    return GpuState::Idle;
}

Holder holder(const QJsonObject &object, int gpu)
{
    Holder h;
    h.pid = integer(object, "pid");
    h.uid = uint(integer(object, "uid", qint64(uint(-1))));
    h.user = text(object, "user");
    h.comm = text(object, "comm");
    h.exe = text(object, "exe");
    h.argv0 = text(object, "argv0");
    // A holder the caller may not see comes without its pid: it is shown as one idlegpu could not see.
    h.hidden = object.value(QLatin1String("hidden")).toBool() || !object.value(QLatin1String("pid")).isDouble();
    h.gpus = {gpu};
    h.holdsComputeNode = text(object, "client") == QLatin1String("compute");
    if (const auto memory = optionalNumber<qint64>(object, "gpu_memory_bytes"))
        h.gpuMemoryBytes = *memory;
    return h;
}

WorkTotals totals(const QJsonObject &object)
{
    WorkTotals t;
    t.workloadMs = qMax<qint64>(0, integer(object, "workload_ms"));
    t.preemptions = qMax(0, optionalNumber<int>(object, "preemptions").value_or(0));
    t.energyJoules = optionalNumber<double>(object, "energy_joules");
    return t;
}

// The bounds of what a client reads of the ledger: no more than a service sends (statejson.h), whatever the JSON.
constexpr int kMaxLedgerGpus = 4096;               // the ledger's own bound on a GPU's index, + 1
constexpr int kMaxSegmentsPerGpu = 2048;           // WorkLedger::kMaxSegmentsPerGpu
constexpr int kMaxWorkloadsPerGpu = 1024;          // the ledger's own
constexpr int kMaxText = 256;                      // StateJson::kMaxPreemptionText
constexpr qint64 kMaxWallMs = 4'102'444'800'000LL; // 2100-01-01, as the ledger

// A wall time of the ledger ("2026-12-03T12:00:00.000Z") in ms since the epoch; nothing when it is none, or
// before 1970 or after 2100.
std::optional<qint64> wallTime(const QJsonValue &value)
{
    const QDateTime at = QDateTime::fromString(value.toString(), Qt::ISODateWithMs);
    if (!at.isValid())
        return std::nullopt;
    const qint64 ms = at.toMSecsSinceEpoch();
    if (ms < 0 || ms > kMaxWallMs)
        return std::nullopt;
    return ms;
}

std::optional<GpuActivity> activity(const QString &name)
{
    if (name == QLatin1String("unwatched"))
        return GpuActivity::Unwatched;
    if (name == QLatin1String("idle"))
        return GpuActivity::Idle;
    if (name == QLatin1String("workload"))
        return GpuActivity::Workload;
    if (name == QLatin1String("foreign"))
        return GpuActivity::ForeignUse;
    return std::nullopt;
}

// A GPU's last 24 hours: the segments that make sense, oldest first, at most kMaxSegmentsPerGpu.
QList<ActivitySegment> timeline(const QJsonArray &array)
{
    QList<ActivitySegment> segments;
    for (const QJsonValue &value : array) {
        if (segments.size() >= kMaxSegmentsPerGpu)
            break;
        const QJsonObject object = value.toObject();
        const auto from = wallTime(object.value(QLatin1String("from")));
        const auto to = wallTime(object.value(QLatin1String("to")));
        const auto kind = activity(text(object, "activity"));
        if (!from || !to || *to <= *from || !kind)
            continue;
        segments.append({*from, *to, *kind});
    }
    return segments;
}

// One recent preemption; nothing without a time. A culprit the caller may not see comes without program, user and
// pid: it reads as one idlegpu could not see ("a process of another user").
std::optional<PreemptionRecord> preemption(const QJsonObject &object)
{
    const auto at = wallTime(object.value(QLatin1String("at")));
    if (!at)
        return std::nullopt;
    PreemptionRecord record;
    record.wallMs = *at;
    record.gpu = optionalNumber<int>(object, "gpu").value_or(-1);
    record.workloadName = text(object, "workload").left(kMaxText);
    record.culpritProgram = text(object, "program").left(kMaxText);
    if (!record.culpritProgram.isEmpty()) {
        record.culpritUser = text(object, "user").left(kMaxText);
        record.culpritPid = qMax<qint64>(0, integer(object, "pid"));
    }
    if (const auto ms = optionalNumber<double>(object, "open_to_stop_ms"); ms && *ms >= 0)
        record.openToStopMs = *ms;
    return record;
}

// The open-to-stop histogram, when its buckets are ours.
LatencyHistogram histogram(const QJsonObject &object)
{
    const QJsonArray bounds = object.value(QLatin1String("bounds_ms")).toArray();
    const QJsonArray counts = object.value(QLatin1String("counts")).toArray();
    LatencyHistogram h;
    if (bounds.size() != qsizetype(LatencyHistogram::kBoundsMs.size()) || counts.size() != qsizetype(h.counts.size()))
        return LatencyHistogram();
    for (std::size_t i = 0; i < LatencyHistogram::kBoundsMs.size(); ++i)
        if (bounds.at(qsizetype(i)).toDouble(-1) != LatencyHistogram::kBoundsMs[i])
            return LatencyHistogram();
    for (std::size_t i = 0; i < h.counts.size(); ++i)
        h.counts[i] = qMax<qint64>(0, optionalNumber<qint64>(counts.at(qsizetype(i))).value_or(0));
    h.sumMs = qMax(0.0, optionalNumber<double>(object, "sum_ms").value_or(0));
    return h;
}

// The ledger's summary as the service sent it (docs/dbus.md, "ledger"); a GPU's totals, workload times and
// timeline each where the service sent them.
LedgerSummary ledgerSummary(const QJsonObject &ledger)
{
    LedgerSummary summary;
    summary.sinceWallMs = wallTime(ledger.value(QLatin1String("since"))).value_or(0);
    summary.all.today = totals(ledger.value(QLatin1String("today")).toObject());
    summary.all.week = totals(ledger.value(QLatin1String("week")).toObject());
    summary.all.total = totals(ledger.value(QLatin1String("total")).toObject());
    int read = 0;
    for (const QJsonValue &value : ledger.value(QLatin1String("gpus")).toArray()) {
        if (++read > kMaxLedgerGpus)
            break;
        const QJsonObject gpu = value.toObject();
        const int index = optionalNumber<int>(gpu, "index").value_or(-1);
        if (index < 0 || index >= kMaxLedgerGpus)
            continue;
        if (gpu.value(QLatin1String("total")).isObject()) {
            WorkPeriods periods;
            periods.today = totals(gpu.value(QLatin1String("today")).toObject());
            periods.week = totals(gpu.value(QLatin1String("week")).toObject());
            periods.total = totals(gpu.value(QLatin1String("total")).toObject());
            summary.byGpu.insert(index, periods);
        }
        if (const QJsonValue byWorkload = gpu.value(QLatin1String("by_workload_ms")); byWorkload.isObject()) {
            const QJsonObject object = byWorkload.toObject();
            QHash<QString, qint64> ms;
            for (auto it = object.begin(); it != object.end() && ms.size() < kMaxWorkloadsPerGpu; ++it)
                if (const auto n = optionalNumber<qint64>(it.value()); n && *n >= 0 && it.key().size() <= kMaxText)
                    ms.insert(it.key(), *n);
            summary.workloadMs.insert(index, ms);
        }
        if (const QJsonValue lastDay = gpu.value(QLatin1String("last_day")); lastDay.isArray())
            summary.lastDay.insert(index, timeline(lastDay.toArray()));
    }
    for (const QJsonValue &value : ledger.value(QLatin1String("preemptions")).toArray()) {
        if (summary.recentPreemptions.size() >= LedgerSummary::kRecentPreemptions)
            break;
        if (const auto record = preemption(value.toObject()))
            summary.recentPreemptions.append(*record);
    }
    summary.openToStop = histogram(ledger.value(QLatin1String("open_to_stop")).toObject());
    return summary;
}

// The reverse of workloadStateName(), which the service's JSON uses.
WorkloadRuntime::State runtimeState(const QString &name)
{
    for (WorkloadRuntime::State state : {WorkloadRuntime::Running, WorkloadRuntime::Stopping,
                                         WorkloadRuntime::BackingOff, WorkloadRuntime::StopFailed})
        if (name == workloadStateName(state))
            return state;
    return WorkloadRuntime::Stopped;
}

} // namespace

namespace StateJson {

MonitorState fromJson(const QJsonObject &json, qint64 monotonicNowMs, const QDateTime &wallNow)
{
    // A wall time of the JSON on the reader's monotonic clock; 0 for none.
    const auto monotonic = [&](const QJsonObject &object, const char *key) -> qint64 {
        const QDateTime at = QDateTime::fromString(text(object, key), Qt::ISODateWithMs);
        if (!at.isValid() || !wallNow.isValid())
            return 0;
        return monotonicNowMs + wallNow.msecsTo(at);
    };
    MonitorState state;
    state.config.filePath = text(json, "config");
    state.notSetUp = json.contains(QLatin1String("configured")) && !json.value(QLatin1String("configured")).toBool();
    state.config.deviceRoot = text(json, "device_root");

    const QJsonObject backend = json.value(QLatin1String("gpu_backend")).toObject();
    state.gpuMetrics.backend = text(backend, "name");
    state.gpuMetrics.available = backend.value(QLatin1String("available")).toBool();
    state.gpuMetrics.unavailableReason = text(backend, "reason");

    for (const QJsonValue &value : json.value(QLatin1String("gpus")).toArray()) {
        const QJsonObject object = value.toObject();
        GpuStatus gpu;
        gpu.index = int(integer(object, "index", -1));
        if (gpu.index < 0)
            continue;
        gpu.state = gpuState(text(object, "state"));
        gpu.reason = text(object, "reason");
        gpu.workloadId = text(object, "workload");
        for (const QJsonValue &h : object.value(QLatin1String("holders")).toArray()) {
            const QJsonObject o = h.toObject();
            const Holder read = holder(o, gpu.index);
            if (!o.value(QLatin1String("foreign")).toBool()) {
                IgnoredHolder ignored;
                ignored.holder = read;
                gpu.ignoredHolders.append(ignored);
            } else if (o.value(QLatin1String("makes_busy")).toBool()) {
                gpu.foreignHolders.append(read);
            } else {
                gpu.openOnlyHolders.append(read);
            }
        }
        state.snapshot.holders.append(gpu.foreignHolders);
        state.snapshot.holders.append(gpu.openOnlyHolders);

        GpuDevice device;
        device.index = gpu.index;
        device.path = text(object, "node");
        device.vendor = configValue<GpuVendor>(text(object, "vendor")).value_or(GpuVendor::Nvidia);
        device.driver = text(object, "driver");
        device.pciSlot = text(object, "pci_slot");
        device.pciId = text(object, "pci_id");
        device.uniqueId = text(object, "unique_id");
        state.snapshot.devices.gpus.append(device);

        if (object.contains(QLatin1String("uuid")) || object.contains(QLatin1String("utilization_percent"))) {
            GpuInfo info;
            info.index = gpu.index;
            info.backendIndex = int(integer(object, "nvidia_smi_index", -1));
            info.name = text(object, "name");
            info.uuid = text(object, "uuid");
            info.busId = text(object, "bus_id");
            info.utilizationPercent = optionalNumber<int>(object, "utilization_percent");
            info.memoryUsedBytes = optionalNumber<qint64>(object, "memory_used_bytes");
            info.memoryTotalBytes = optionalNumber<qint64>(object, "memory_total_bytes");
            info.temperatureCelsius = optionalNumber<int>(object, "temperature_celsius");
            if (const auto watts = optionalNumber<double>(object, "power_watts"))
                info.powerMilliwatts = int(*watts * 1000.0 + 0.5);
            state.gpuMetrics.gpus.insert(gpu.index, info);
        }
        state.decision.gpus.append(gpu);
    }

    for (const QJsonValue &value : json.value(QLatin1String("workloads")).toArray()) {
        const QJsonObject object = value.toObject();
        WorkloadConfig workload;
        workload.id = text(object, "id");
        if (workload.id.isEmpty())
            continue;
        workload.name = text(object, "name");
        workload.cmd = text(object, "cmd");
        workload.startCmd = text(object, "start_cmd");
        workload.stopCmd = text(object, "stop_cmd");
        QString unused;
        workload.gpus = GpuSelection::parse(text(object, "gpus"), &unused).value_or(GpuSelection());
        workload.user = text(object, "user");
        workload.refusal = text(object, "refused");
        workload.dir = text(object, "dir");
        workload.log = text(object, "log");
        const QJsonObject env = object.value(QLatin1String("env")).toObject();
        for (auto it = env.begin(); it != env.end(); ++it)
            workload.env.append({it.key(), it.value().toString()});
        const QString reason = text(object, "reason");
        if (!reason.isEmpty())
            state.decision.workloadReasons.insert(workload.id, WorkloadReason{HoldReason::None, reason});
        // The runner's side, where the service tells it (interface version 1 adds "runtime").
        const QJsonObject runtime = object.value(QLatin1String("runtime")).toObject();
        if (!runtime.isEmpty()) {
            WorkloadRuntime r;
            r.id = workload.id;
            r.state = runtimeState(text(runtime, "state"));
            r.pid = integer(runtime, "pid");
            r.lastExit = text(runtime, "last_exit");
            r.consecutiveFailures = int(integer(runtime, "failures"));
            r.startedAtMs = monotonic(runtime, "since");
            r.retryAtMs = monotonic(runtime, "retry_at");
            for (const QJsonValue &line : runtime.value(QLatin1String("last_output")).toArray())
                r.lastOutput.append(line.toString());
            state.runtimes.insert(workload.id, r);
        }
        state.config.workloads.append(workload);
    }

    for (const QJsonValue &value : json.value(QLatin1String("active_users")).toArray())
        state.decision.activeUsers.append(value.toString());
    const QJsonObject power = json.value(QLatin1String("power")).toObject();
    if (!power.isEmpty()) {
        state.snapshot.power.known = true;
        state.snapshot.power.onBattery = power.value(QLatin1String("on_battery")).toBool();
        state.snapshot.power.source = text(power, "source");
    }
    const QJsonObject ledger = json.value(QLatin1String("ledger")).toObject();
    if (!ledger.isEmpty())
        state.ledger = ledgerSummary(ledger);
    state.snapshot.unreadableProcesses = int(integer(json, "unreadable_processes"));
    state.shuttingDown = json.value(QLatin1String("shutting_down")).toBool();
    for (const QJsonValue &value : json.value(QLatin1String("config_problems")).toArray()) {
        const QJsonObject object = value.toObject();
        // The words are for the privileged (they may quote the file); the others learn where to read them.
        const QString message = object.contains(QLatin1String("message"))
                                    ? text(object, "message")
                                    : QCoreApplication::translate("StateJson", "the details are shown to "
                                                                               "administrators: run sudo idlegpu "
                                                                               "--check-config");
        state.configProblems.append(
            {text(object, "severity") == QLatin1String("warning") ? ConfigDiagnostic::Warning : ConfigDiagnostic::Error,
             text(object, "file"), int(integer(object, "line")), message, text(object, "workload")});
    }

    // The pause (interface version 1): all, until when (on the monotonic clock, which every process of the machine
    // shares: until_monotonic_ms; else the wall time), and the workloads paused one by one.
    const QJsonObject pause = json.value(QLatin1String("pause")).toObject();
    state.pause.all = pause.value(QLatin1String("all")).toBool();
    if (state.pause.all)
        state.pause.allUntilMs = pause.value(QLatin1String("until_monotonic_ms")).isDouble()
                                     ? integer(pause, "until_monotonic_ms")
                                     : monotonic(pause, "until");
    for (const QJsonValue &id : pause.value(QLatin1String("workloads")).toArray())
        state.pause.workloads.insert(id.toString());
    // {"workloads": {"ID": {"until_monotonic_ms": n, "until": ISO time}}}: a workload paused on its own, for a while
    // (either end given) or until resumed (neither).
    const QJsonObject workloadPauses = pause.value(QLatin1String("workloads")).toObject();
    for (auto it = workloadPauses.begin(); it != workloadPauses.end(); ++it) {
        state.pause.workloads.insert(it.key());
        const QJsonObject ends = it.value().toObject();
        const qint64 untilMs = ends.value(QLatin1String("until_monotonic_ms")).isDouble()
                                   ? integer(ends, "until_monotonic_ms")
                                   : monotonic(ends, "until");
        if (untilMs > 0)
            state.pause.workloadUntilMs.insert(it.key(), untilMs);
    }
    return state;
}

} // namespace StateJson
