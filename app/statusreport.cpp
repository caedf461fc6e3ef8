// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "statusreport.h"

#include "backends/gpubackend.h"
#include "bus/statejson.h"
#include "config/configkeys.h"
#include "conditions/powersupply.h"
#include "conditions/presence.h"
#include "ledger/workledger.h"
#include "policy/policy.h"

#include <QCoreApplication>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>

#include <algorithm>

namespace StatusReport {

static double gpuHours(const WorkTotals &totals)
{
    return double(totals.workloadMs) / 3'600'000.0;
}

// "1.2 GPU-hours today, 5.0 this week, 34.5 in total since 2026-01-05; 3 preemptions; 12.3 kWh"
static QString describeLedger(const LedgerSummary &ledger)
{
    const WorkPeriods &all = ledger.all;
    QString text = QStringLiteral("%1 GPU-hours today, %2 this week, %3 in total since %4; %5 %6")
                       .arg(gpuHours(all.today), 0, 'f', 1)
                       .arg(gpuHours(all.week), 0, 'f', 1)
                       .arg(gpuHours(all.total), 0, 'f', 1)
                       .arg(QDateTime::fromMSecsSinceEpoch(ledger.sinceWallMs).date().toString(Qt::ISODate))
                       .arg(all.total.preemptions)
                       .arg(all.total.preemptions == 1 ? QStringLiteral("preemption") : QStringLiteral("preemptions"));
    if (all.total.energyJoules)
        text += QStringLiteral("; %1 kWh in total").arg(*all.total.energyJoules / 3.6e6, 0, 'f', 1);
    return text;
}

static GpuDevice deviceOf(const MonitorState &state, int index)
{
    for (const GpuDevice &device : state.snapshot.devices.gpus)
        if (device.index == index)
            return device;
    return GpuDevice();
}

static QString describeHolder(const Holder &holder)
{
    QString text = holder.describe();
    if (!holder.exe.isEmpty())
        text += QLatin1Char(' ') + holder.exe;
    if (holder.gpuMemoryBytes)
        text += QStringLiteral(", %1 MiB of GPU memory").arg(*holder.gpuMemoryBytes / (1024 * 1024));
    return text;
}

// " [compute] — a compute client: it holds nvidia-uvm or /dev/kfd": the holder's kind and why it counts or not.
static QString describeVerdict(const Policy::HolderVerdict &verdict)
{
    return QStringLiteral(" [%1] \u2014 %2").arg(Policy::clientKindName(verdict.kind), verdict.why);
}

static QString workloadName(const Config &config, const QString &id)
{
    const WorkloadConfig *workload = config.workload(id);
    return workload ? workload->name : id;
}

QString describeSlurmGpu(const MonitorState &state, int gpu)
{
    if (!state.config.slurm.enabled)
        return QString();
    const auto runtime = state.runtimes.constFind(Config::slurmWorkloadId(gpu));
    if (runtime == state.runtimes.cend())
        return QString();
    if (!runtime->unreachable.isEmpty())
        return QCoreApplication::translate("idlegpu", "Slurm unreachable: %1").arg(runtime->unreachable);
    if (runtime->state != WorkloadRuntime::Running)
        return QCoreApplication::translate("idlegpu", "held for you");
    if (runtime->labJobs.isEmpty())
        return QCoreApplication::translate("idlegpu", "lent to the lab (no job yet)");
    QStringList jobs;
    for (const WorkloadRuntime::LabJob &job : runtime->labJobs)
        jobs.append(QCoreApplication::translate("idlegpu", "job %1 (%2)").arg(job.id).arg(job.user));
    return QCoreApplication::translate("idlegpu", "lent to the lab: %1").arg(jobs.join(QStringLiteral(", ")));
}

QJsonObject toJson(const MonitorState &state)
{
    return StateJson::toJson(state);
}

QString formatText(const MonitorState &state)
{
    QString out;
    QTextStream s(&out);
    s << "Config: " << state.config.filePath;
    if (state.notSetUp)
        s << ' ' << QCoreApplication::translate("idlegpu", "(does not exist: idlegpu is not set up yet)");
    s << '\n';
    if (state.snapshot.devices.gpus.isEmpty())
        s << "No GPU found under " << state.config.deviceRoot
          << " (no nvidia[0-9]* device node, no AMD or Intel render node in dri/).\n";
    if (!state.gpuMetrics.backend.isEmpty() && !state.gpuMetrics.available)
        s << state.gpuMetrics.backend << " not available: node-only mode (" << state.gpuMetrics.unavailableReason
          << ")\n";
    for (const GpuStatus &gpu : state.decision.gpus) {
        const auto info = state.gpuMetrics.gpus.constFind(gpu.index);
        s << "GPU " << gpu.index;
        // AMD and Intel GPUs are described by their node's PCI device (ids, driver, slot); NVIDIA's by NVML alone.
        const QString described = deviceOf(state, gpu.index).describe();
        if (!described.isEmpty())
            s << ", " << described;
        if (info != state.gpuMetrics.gpus.cend()) {
            QStringList identity{info->name, info->uuid};
            if (!described.isEmpty() && described.startsWith(info->name))
                identity.removeFirst();
            if (!info->busId.isEmpty() && !described.contains(info->busId))
                identity.append(QStringLiteral("bus ") + info->busId);
            if (info->backendIndex >= 0 && info->backendIndex != gpu.index)
                identity.append(QStringLiteral("nvidia-smi index %1").arg(info->backendIndex));
            identity.removeAll(QString());
            s << " (" << identity.join(QStringLiteral(", ")) << ')';
        }
        s << ": ";
        const QString lending = describeSlurmGpu(state, gpu.index);
        if (!lending.isEmpty()) {
            s << lending;
            if (gpu.state == GpuState::Busy)
                s << "; " << gpu.reason;
        }
        // --status runs nothing: a GPU the policy would run a workload on is free, and the workload only would run.
        else if (gpu.state == GpuState::RunningWorkload && !gpu.workloadId.isEmpty())
            s << "free: " << workloadName(state.config, gpu.workloadId) << " would run";
        else if (gpu.state == GpuState::Waiting && !gpu.workloadId.isEmpty())
            s << "waiting: " << workloadName(state.config, gpu.workloadId) << " would start after the start delay";
        else if (!gpu.reason.isEmpty())
            s << Policy::gpuStateName(gpu.state) << ", " << gpu.reason;
        else
            s << Policy::gpuStateName(gpu.state);
        s << '\n';
        if (info != state.gpuMetrics.gpus.cend() && !describeGpuMetrics(*info).isEmpty())
            s << "    " << describeGpuMetrics(*info) << '\n';
        for (const Holder &holder : gpu.foreignHolders)
            s << "    held by " << describeHolder(holder)
              << describeVerdict(Policy::explainHolder(holder, gpu.index, state.config)) << '\n';
        for (const IgnoredHolder &ignored : gpu.ignoredHolders)
            s << "    ignored " << describeHolder(ignored.holder)
              << describeVerdict(Policy::explainHolder(ignored, gpu.index)) << '\n';
        for (const Holder &holder : gpu.openOnlyHolders)
            s << "    open, not busy: " << describeHolder(holder)
              << describeVerdict(Policy::explainHolder(holder, gpu.index, state.config)) << '\n';
    }
    for (const WorkloadConfig &workload : state.config.workloads) {
        if (workload.kind() == WorkloadKind::SlurmLending)
            continue; // its GPU's line says it
        const QString reason = state.decision.workloadReasons.value(workload.id).text;
        s << "Workload " << workload.name << " [" << workload.id << "] on GPUs " << workload.gpus.toString();
        if (!workload.user.isEmpty())
            s << " as user " << workload.user;
        s << ": " << (reason.isEmpty() ? QStringLiteral("would run") : reason) << '\n';
    }
    if (state.config.slurm.enabled)
        s << "Slurm mode: node " << state.config.slurm.node << ", holds in partition " << state.config.slurm.partition
          << '\n';
    const bool configUnusable = std::any_of(
        state.configProblems.cbegin(), state.configProblems.cend(), [](const ConfigDiagnostic &problem) {
            return problem.severity == ConfigDiagnostic::Error && problem.refusedWorkload.isEmpty();
        });
    if (configUnusable) {
        s << QCoreApplication::translate("idlegpu", "No workload runs: the configuration has errors (idlegpu "
                                                    "--check-config lists them).")
          << '\n';
    } else if (state.config.workloads.isEmpty()) {
        s << QCoreApplication::translate("idlegpu", "No workloads configured.") << '\n';
        if (state.notSetUp)
            s << howToSetUp(state.config.filePath);
        else
            s << QCoreApplication::translate("idlegpu", "Add one with idlegpu --settings, or as a [process-NAME] "
                                                        "section in %1.")
                     .arg(state.config.filePath)
              << '\n';
    }
    if (state.snapshot.power.known) {
        s << "Power: " << PowerSupply::describe(state.snapshot.power);
        if (state.snapshot.power.onBattery && state.config.onBattery == OnBattery::Run)
            s << ", workloads run all the same (on_battery = run)";
        s << '\n';
    }
    if (state.config.activity.pauseWhileActive)
        s << "At the computer (pause_while_active): "
          << Presence::describe(state.snapshot.presence, state.snapshot.takenAtMs) << '\n';
    if (state.ledger.sinceWallMs != 0)
        s << "Idle GPUs' work: " << describeLedger(state.ledger) << '\n';
    if (!state.decision.activeUsers.isEmpty())
        s << "Active users (tty check): " << state.decision.activeUsers.join(QStringLiteral(", ")) << '\n';
    // As root the few processes whose fds stay closed (a container's init) hold no GPU, and nothing is inferred.
    if (state.snapshot.unreadableProcesses > 0 && ::geteuid() != 0)
        s << QCoreApplication::translate("idlegpu",
                                         "Processes of other users that could not be inspected: %1. idlegpu still "
                                         "notices when they open a GPU, but not who they are (run as root to "
                                         "see them).")
                 .arg(state.snapshot.unreadableProcesses)
          << '\n';
    return out;
}

// Every key of the table, section by section in the table's order: [defaults] a key a line, a workload a line per
// key under its header (commands are long), every other section on one line.
QString formatConfig(const Config &config)
{
    QString out;
    QTextStream s(&out);
    s << "Config: " << config.filePath << '\n';
    const auto keys = [](const QString &section, const KeySource &source) {
        QStringList pairs;
        for (const KeyRow *row : ConfigKeys::rowsOf(section))
            pairs.append(QStringLiteral("%1 = %2").arg(QLatin1String(row->key), row->display(source)));
        return pairs.join(QStringLiteral(", "));
    };
    for (const QString &section : ConfigKeys::sections()) {
        if (section == QLatin1String("gpu-*")) {
            for (const GpuGroupConfig &group : config.gpuGroups)
                s << '[' << group.id << "] " << keys(section, KeySource{&config, &group}) << '\n';
        } else if (section == QLatin1String("process-*")) {
            for (const WorkloadConfig &workload : config.workloads) {
                const KeySource source{&config, nullptr, &workload};
                s << '[' << workload.id << "]\n";
                for (const KeyRow *row : ConfigKeys::rowsOf(section)) {
                    s << "    " << row->key << " = " << row->display(source) << '\n';
                    if (const QString detail = row->detail ? row->detail(source) : QString(); !detail.isEmpty())
                        s << "        " << detail << '\n';
                }
                if (!workload.refusal.isEmpty())
                    s << "    refused: " << workload.refusal << '\n';
            }
        } else if (section == QLatin1String("defaults")) {
            s << "[defaults]\n";
            for (const KeyRow *row : ConfigKeys::rowsOf(section))
                s << row->key << " = " << row->display(KeySource{&config}) << '\n';
        } else {
            s << '[' << section << "] " << keys(section, KeySource{&config}) << '\n';
        }
    }
    return out;
}

QString exampleConfigPath()
{
    const QString installed = QStringLiteral("/usr/share/doc/idlegpu/examples/idlegpu.conf.example");
    const QString binDir = QCoreApplication::applicationDirPath();
    // Beside the binary's prefix (cmake --install --prefix), the package's, a build folder inside the source tree.
    const QStringList candidates{QDir::cleanPath(binDir + QStringLiteral("/../share/doc/idlegpu/examples/idlegpu.conf.example")),
                                 installed,
                                 QDir::cleanPath(binDir + QStringLiteral("/../../resources/idlegpu.conf.example"))};
    for (const QString &candidate : candidates)
        if (QFileInfo(candidate).isFile())
            return candidate;
    return installed;
}

QString howToSetUp(const QString &configPath)
{
    const QString folder = QFileInfo(configPath).absolutePath();
    return QCoreApplication::translate("idlegpu",
                                       "To set idlegpu up, either:\n"
                                       "  - on the desktop, run idlegpu --settings (or click the idlegpu icon in the "
                                       "tray), choose a workload and save; or\n"
                                       "  - copy the example and edit it:\n"
                                       "        mkdir -p %1\n"
                                       "        cp %2 %3\n"
                                       "    then check it with idlegpu --check-config.\n")
        .arg(folder, exampleConfigPath(), configPath);
}

} // namespace StatusReport
