// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "bus/statejsonreader.h"

#include "config/configwords.h"

#include <QDateTime>
#include <QJsonArray>

namespace {

QString text(const QJsonObject &object, const char *key)
{
    return object.value(QLatin1String(key)).toString();
}

qint64 integer(const QJsonObject &object, const char *key, qint64 fallback = 0)
{
    const QJsonValue value = object.value(QLatin1String(key));
    return value.isDouble() ? qint64(value.toDouble()) : fallback;
}

template<typename T>
std::optional<T> optionalNumber(const QJsonObject &object, const char *key)
{
    const QJsonValue value = object.value(QLatin1String(key));
    if (!value.isDouble())
        return std::nullopt;
    return T(value.toDouble());
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
    h.hidden = object.value(QLatin1String("hidden")).toBool();
    h.gpus = {gpu};
    h.holdsComputeNode = text(object, "client") == QLatin1String("compute");
    if (const auto memory = optionalNumber<qint64>(object, "gpu_memory_bytes"))
        h.gpuMemoryBytes = *memory;
    return h;
}

WorkTotals totals(const QJsonObject &object)
{
    WorkTotals t;
    t.workloadMs = integer(object, "workload_ms");
    t.preemptions = int(integer(object, "preemptions"));
    t.energyJoules = optionalNumber<double>(object, "energy_joules");
    return t;
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
    if (!ledger.isEmpty()) {
        state.ledger.sinceWallMs = QDateTime::fromString(text(ledger, "since"), Qt::ISODate).toMSecsSinceEpoch();
        state.ledger.all.today = totals(ledger.value(QLatin1String("today")).toObject());
        state.ledger.all.week = totals(ledger.value(QLatin1String("week")).toObject());
        state.ledger.all.total = totals(ledger.value(QLatin1String("total")).toObject());
    }
    state.snapshot.unreadableProcesses = int(integer(json, "unreadable_processes"));
    state.shuttingDown = json.value(QLatin1String("shutting_down")).toBool();
    for (const QJsonValue &value : json.value(QLatin1String("config_problems")).toArray()) {
        const QJsonObject object = value.toObject();
        state.configProblems.append({text(object, "severity") == QLatin1String("warning") ? ConfigDiagnostic::Warning
                                                                                        : ConfigDiagnostic::Error,
                                     text(object, "file"), int(integer(object, "line")), text(object, "message"),
                                     text(object, "workload")});
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
    const QJsonObject workloadPauses = pause.value(QLatin1String("workloads")).toObject();
    for (auto it = workloadPauses.begin(); it != workloadPauses.end(); ++it)
        state.pause.workloads.insert(it.key());
    return state;
}

} // namespace StateJson
