// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "bus/statejson.h"

#include "config/configwords.h"
#include "ledger/workledger.h"
#include "policy/policy.h"

#include <QDateTime>
#include <QJsonArray>

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

// client: "compute", "graphics" or "unseen" (Policy::clientKindName); why: the policy's reason, in English.
QJsonObject holderToJson(const Holder &holder, const Policy::HolderVerdict &verdict, bool foreign, bool makesBusy)
{
    QJsonObject object{{QStringLiteral("pid"), holder.pid},
                       {QStringLiteral("user"), holder.user},
                       {QStringLiteral("comm"), holder.comm},
                       {QStringLiteral("exe"), holder.exe},
                       {QStringLiteral("argv0"), holder.argv0},
                       {QStringLiteral("hidden"), holder.hidden},
                       {QStringLiteral("foreign"), foreign},
                       {QStringLiteral("makes_busy"), makesBusy},
                       {QStringLiteral("client"), Policy::clientKindName(verdict.kind)},
                       {QStringLiteral("why"), verdict.why}};
    if (holder.gpuMemoryBytes)
        object.insert(QStringLiteral("gpu_memory_bytes"), *holder.gpuMemoryBytes);
    return object;
}

// {"on_battery": true, "source": "BAT0"}; null where no power supply says (a desktop).
QJsonValue powerToJson(const PowerState &power)
{
    if (!power.known)
        return QJsonValue();
    return QJsonObject{{QStringLiteral("on_battery"), power.onBattery}, {QStringLiteral("source"), power.source}};
}

} // namespace

QJsonObject toJson(const MonitorState &state)
{
    QJsonArray gpus;
    for (const GpuStatus &gpu : state.decision.gpus) {
        QJsonArray holders;
        for (const Holder &holder : gpu.foreignHolders)
            holders.append(holderToJson(holder, Policy::explainHolder(holder, gpu.index, state.config), true, true));
        for (const IgnoredHolder &ignored : gpu.ignoredHolders)
            holders.append(holderToJson(ignored.holder, Policy::explainHolder(ignored, gpu.index), false, false));
        for (const Holder &holder : gpu.openOnlyHolders)
            holders.append(holderToJson(holder, Policy::explainHolder(holder, gpu.index, state.config), true, false));
        const GpuDevice device = deviceOf(state, gpu.index);
        QJsonObject object{{QStringLiteral("index"), gpu.index},
                           {QStringLiteral("node"), device.path},
                           {QStringLiteral("vendor"), configWord(device.vendor)},
                           {QStringLiteral("busy"), gpu.state == GpuState::Busy},
                           {QStringLiteral("state"), Policy::gpuStateName(gpu.state)},
                           {QStringLiteral("reason"), gpu.reason},
                           {QStringLiteral("workload"), gpu.workloadId},
                           {QStringLiteral("holders"), holders}};
        if (const auto lending = state.runtimes.constFind(Config::slurmWorkloadId(gpu.index));
            state.config.slurm.enabled && lending != state.runtimes.cend()) {
            // "lent", "held" or "unreachable" (with why); the lab's jobs on the GPU.
            QJsonArray jobs;
            for (const WorkloadRuntime::LabJob &job : lending->labJobs)
                jobs.append(QJsonObject{{QStringLiteral("id"), job.id},
                                        {QStringLiteral("user"), job.user},
                                        {QStringLiteral("name"), job.name}});
            const QString slurmState = !lending->unreachable.isEmpty()               ? QStringLiteral("unreachable")
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
        const QString reason = state.decision.workloadReasons.value(workload.id).text;
        workloads.append(QJsonObject{{QStringLiteral("id"), workload.id},
                                     {QStringLiteral("name"), workload.name},
                                     {QStringLiteral("cmd"), workload.cmd},
                                     {QStringLiteral("start_cmd"), workload.startCmd},
                                     {QStringLiteral("stop_cmd"), workload.stopCmd},
                                     {QStringLiteral("gpus"), workload.gpus.toString()},
                                     {QStringLiteral("user"), workload.user},
                                     {QStringLiteral("refused"), workload.refusal},
                                     {QStringLiteral("would_run"), reason.isEmpty()},
                                     {QStringLiteral("reason"), reason}});
    }
    QJsonObject backend;
    if (!state.gpuMetrics.backend.isEmpty())
        backend = QJsonObject{{QStringLiteral("name"), state.gpuMetrics.backend},
                              {QStringLiteral("available"), state.gpuMetrics.available},
                              {QStringLiteral("mode"), state.gpuMetrics.available ? QStringLiteral("backend")
                                                                                  : QStringLiteral("node-only")},
                              {QStringLiteral("reason"), state.gpuMetrics.unavailableReason}};
    // configured: false while the config file does not exist (idlegpu is not set up yet).
    return QJsonObject{{QStringLiteral("config"), state.config.filePath},
                       {QStringLiteral("configured"), !state.notSetUp},
                       {QStringLiteral("gpu_backend"), backend},
                       {QStringLiteral("device_root"), state.config.deviceRoot},
                       {QStringLiteral("gpus"), gpus},
                       {QStringLiteral("workloads"), workloads},
                       {QStringLiteral("active_users"), QJsonArray::fromStringList(state.decision.activeUsers)},
                       {QStringLiteral("power"), powerToJson(state.snapshot.power)},
                       {QStringLiteral("ledger"), ledgerToJson(state.ledger)},
                       {QStringLiteral("unreadable_processes"), state.snapshot.unreadableProcesses}};
}

} // namespace StateJson
