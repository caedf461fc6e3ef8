// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "metrics/metricstext.h"

// Every family has its # HELP and # TYPE lines, values are in base units (seconds, joules), and counters end in
// _total.
// The GPU's labels are dcgm-exporter's, so that a dashboard can put both side by side: gpu (idlegpu's index, the N
// of /dev/nvidiaN), UUID and modelName where a backend named them, device ("nvidia0"). Workloads are labelled by
// their id (the section name, "process-0"), which a rename in the file does not change; idlegpu_workload_info maps
// it to the name users see.

#include <QFileInfo>
#include <QLocale>

#include <algorithm>
#include <cmath>

namespace {

// One family: its HELP and TYPE lines, then its samples.
class Family
{
public:
    Family(QByteArray *out, const char *name, const char *type, const char *help) : m_out(out), m_name(name)
    {
        *m_out += "# HELP " + m_name + ' ' + help + "\n# TYPE " + m_name + ' ' + type + '\n';
    }
    // labels: already formatted (`gpu="0",UUID="GPU-..."`), may be empty.
    void sample(const QString &labels, double value, const char *suffix = "")
    {
        *m_out += m_name + suffix;
        if (!labels.isEmpty())
            *m_out += '{' + labels.toUtf8() + '}';
        *m_out += ' ' + MetricsText::formatValue(value) + '\n';
    }

private:
    QByteArray *m_out;
    QByteArray m_name;
};

QString label(const char *name, const QString &value)
{
    return QLatin1String(name) + QStringLiteral("=\"") + MetricsText::escapeLabelValue(value) + QLatin1Char('"');
}

QString joined(const QString &a, const QString &b)
{
    return a.isEmpty() ? b : b.isEmpty() ? a : a + QLatin1Char(',') + b;
}

// A GPU's labels as dcgm-exporter names them: gpu, UUID, device, modelName; those a backend did not name left out.
QString gpuLabels(int gpu, const MonitorState &state)
{
    QString labels = label("gpu", QString::number(gpu));
    const GpuInfo info = state.gpuMetrics.gpus.value(gpu);
    if (!info.uuid.isEmpty())
        labels = joined(labels, label("UUID", info.uuid));
    for (const GpuDevice &device : state.snapshot.devices.gpus)
        if (device.index == gpu && !device.path.isEmpty())
            labels = joined(labels, label("device", QFileInfo(device.path).fileName()));
    if (!info.name.isEmpty())
        labels = joined(labels, label("modelName", info.name));
    return labels;
}

const char *kindName(WorkloadKind kind)
{
    switch (kind) {
    case WorkloadKind::Process: return "process";
    case WorkloadKind::ControlCommands: return "service";
    case WorkloadKind::SlurmLending: return "slurm";
    }
    return "";
}

} // namespace

namespace MetricsText {

QString escapeLabelValue(const QString &value)
{
    QString escaped;
    escaped.reserve(value.size());
    for (const QChar c : value) {
        if (c == QLatin1Char('\\'))
            escaped += QLatin1String("\\\\");
        else if (c == QLatin1Char('"'))
            escaped += QLatin1String("\\\"");
        else if (c == QLatin1Char('\n'))
            escaped += QLatin1String("\\n");
        else
            escaped += c;
    }
    return escaped;
}

QByteArray formatValue(double value)
{
    if (std::isnan(value))
        return "NaN";
    if (std::isinf(value))
        return value > 0 ? "+Inf" : "-Inf";
    if (value == std::floor(value) && std::fabs(value) < 1e15)
        return QByteArray::number(qint64(value));
    return QString::number(value, 'f', QLocale::FloatingPointShortest).toLatin1();
}

QByteArray render(const MonitorState &state, const Moment &moment)
{
    QByteArray out;
    const Config &config = state.config;
    QList<int> gpus;
    for (const GpuStatus &gpu : state.decision.gpus)
        gpus.append(gpu.index);
    std::sort(gpus.begin(), gpus.end());
    // The workloads that may run on a GPU, in the file's order (disabled ones never run there).
    const auto workloadsOn = [&config](int gpu) {
        QList<const WorkloadConfig *> workloads;
        for (const WorkloadConfig &workload : config.workloads)
            if (workload.enabled && workload.gpus.contains(gpu))
                workloads.append(&workload);
        return workloads;
    };
    const auto runningOn = [&state](const QString &id, int gpu) {
        const auto runtime = state.runtimes.constFind(id);
        return runtime != state.runtimes.cend() && runtime->state == WorkloadRuntime::Running
               && runtime->gpus.contains(gpu);
    };

    Family up(&out, "idlegpu_up", "gauge",
              "1 while idlegpu watches the GPUs; 0 in the last file an idlegpu that exits leaves behind.");
    up.sample(QString(), moment.up ? 1 : 0);
    Family info(&out, "idlegpu_info", "gauge", "Always 1: the idlegpu version that wrote the file.");
    info.sample(label("version", moment.version), 1);
    Family updated(&out, "idlegpu_last_update_timestamp_seconds", "gauge",
                   "When idlegpu wrote the file, in seconds since the epoch.");
    updated.sample(QString(), double(moment.nowWallMs) / 1000.0);
    Family paused(&out, "idlegpu_paused", "gauge", "1 while every workload is paused by hand (the tray's Pause).");
    paused.sample(QString(), state.pause.allPausedAt(moment.nowMs) ? 1 : 0);

    Family busy(&out, "idlegpu_gpu_busy", "gauge",
                "1 while a foreign program (the owner's job) uses the GPU, so no workload may run there.");
    for (int gpu : std::as_const(gpus))
        busy.sample(gpuLabels(gpu, state), state.decision.gpu(gpu)->state == GpuState::Busy ? 1 : 0);

    Family lent(&out, "idlegpu_gpu_lent", "gauge",
                "1 while the GPU is lent to the lab's Slurm queue ([slurm]); 0 without Slurm mode.");
    for (int gpu : std::as_const(gpus)) {
        const WorkloadConfig *lending = config.workload(Config::slurmWorkloadId(gpu));
        const bool isLent = config.slurm.enabled && lending && lending->kind() == WorkloadKind::SlurmLending
                            && runningOn(lending->id, gpu);
        lent.sample(gpuLabels(gpu, state), isLent ? 1 : 0);
    }

    Family workloadInfo(&out, "idlegpu_workload_info", "gauge",
                        "Always 1: a workload's name and kind (process, service, slurm) by its id.");
    for (const WorkloadConfig &workload : config.workloads)
        if (workload.enabled)
            workloadInfo.sample(joined(joined(label("workload", workload.id), label("name", workload.name)),
                                       label("kind", QLatin1String(kindName(workload.kind())))),
                                1);

    Family running(&out, "idlegpu_workload_running", "gauge",
                   "1 while the workload runs on the GPU; one series per GPU the workload may run on.");
    for (int gpu : std::as_const(gpus))
        for (const WorkloadConfig *workload : workloadsOn(gpu))
            running.sample(joined(gpuLabels(gpu, state), label("workload", workload->id)),
                           runningOn(workload->id, gpu) ? 1 : 0);

    Family failures(&out, "idlegpu_workload_consecutive_failures", "gauge",
                    "Failures in a row of the workload (an exit unasked, a failed command); kept while a retry runs, 0 "
                    "after a success (a process's run of 10 min, a service's start, a Slurm command).");
    for (const WorkloadConfig &workload : config.workloads)
        if (workload.enabled)
            failures.sample(label("workload", workload.id), state.runtimes.value(workload.id).consecutiveFailures);

    Family seconds(&out, "idlegpu_workload_seconds_total", "counter",
                   "Time the workload occupied the GPU, in seconds, since idlegpu's ledger began keeping it.");
    for (int gpu : std::as_const(gpus)) {
        const QHash<QString, qint64> byWorkload = state.ledger.workloadMs.value(gpu);
        for (const WorkloadConfig *workload : workloadsOn(gpu))
            seconds.sample(joined(gpuLabels(gpu, state), label("workload", workload->id)),
                           double(byWorkload.value(workload->id)) / 1000.0);
    }

    Family energy(&out, "idlegpu_workload_energy_joules_total", "counter",
                  "The GPU's energy while workloads ran on it, in joules; only GPUs a backend measures.");
    for (int gpu : std::as_const(gpus))
        if (const std::optional<double> joules = state.ledger.byGpu.value(gpu).total.energyJoules)
            energy.sample(gpuLabels(gpu, state), *joules);

    Family preemptions(&out, "idlegpu_preemptions_total", "counter",
                       "Workloads stopped because a foreign program opened the GPU, since the ledger began.");
    for (int gpu : std::as_const(gpus))
        preemptions.sample(gpuLabels(gpu, state), state.ledger.byGpu.value(gpu).total.preemptions);

    Family latency(&out, "idlegpu_preemption_latency_seconds", "histogram",
                   "From reading a foreign program's open of the GPU to stopping the workload, in seconds; "
                   "preemptions found by a poll or a backend have no such time.");
    const LatencyHistogram &histogram = state.ledger.openToStop;
    qint64 cumulative = 0;
    for (std::size_t i = 0; i < LatencyHistogram::kBoundsMs.size(); ++i) {
        cumulative += histogram.counts[i];
        latency.sample(label("le", QString::fromLatin1(formatValue(LatencyHistogram::kBoundsMs[i] / 1000.0))),
                       double(cumulative), "_bucket");
    }
    cumulative += histogram.counts.back();
    latency.sample(label("le", QStringLiteral("+Inf")), double(cumulative), "_bucket");
    // Whole nanoseconds: 1.62268 ms reads 0.00162268, not 0.0016226799999999998.
    latency.sample(QString(), std::round(histogram.sumMs * 1e6) / 1e9, "_sum");
    latency.sample(QString(), double(cumulative), "_count");
    return out;
}

} // namespace MetricsText
