// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "slurm/slurmcommands.h"

#include <QRegularExpression>
#include <QTextStream>

#include <algorithm>

namespace Slurm {

namespace {
// Where the package installs the prolog's and the health check's links: its libexec folder, under /usr whatever the
// build's prefix (resources/packaging.cmake).
constexpr char kLibexecFolder[] = "/usr/libexec/idlegpu";

// "7,9"
QString jobList(const QList<qint64> &jobs)
{
    QStringList ids;
    for (const qint64 id : jobs)
        ids.append(QString::number(id));
    return ids.join(QLatin1Char(','));
}
} // namespace

QStringList holdArguments(const SlurmConfig &slurm, int gpu)
{
    return {QStringLiteral("--no-shell"),
            QStringLiteral("-p"),
            slurm.partition,
            QStringLiteral("-w"),
            slurm.node,
            QStringLiteral("--gres=gpu:%1:1").arg(slurm.gresTypeOf(gpu)),
            QStringLiteral("-c"),
            QStringLiteral("1"),
            QStringLiteral("-J"),
            holdJobName(gpu)};
}

// The filters narrow the ids to root's jobs named holdJobName(gpu) in the hold partition, on this node too where every
// one runs (a pending job has no node and would not pass). scancel cancels an id it is given only when that job passes
// every filter (Slurm 22.05, tried).
QStringList cancelArguments(const SlurmConfig &slurm, int gpu, const QList<Job> &holds)
{
    QStringList arguments = {QStringLiteral("--user=root"), QStringLiteral("--partition=") + slurm.partition,
                             QStringLiteral("--name=") + holdJobName(gpu)};
    const bool allOnNode = std::all_of(holds.begin(), holds.end(), [&slurm](const Job &job) {
        return job.holdsResources() && hostListContains(job.nodeList, slurm.node);
    });
    if (allOnNode)
        arguments.append(QStringLiteral("--nodelist=") + slurm.node);
    for (const Job &job : holds)
        arguments.append(QString::number(job.id));
    return arguments;
}

QStringList requeueArguments(const QList<qint64> &jobs)
{
    return {QStringLiteral("requeue"), jobList(jobs)};
}

QStringList listArguments()
{
    return {QStringLiteral("--all"), QStringLiteral("--json")};
}

QStringList nodeArguments(const QString &node)
{
    return {QStringLiteral("--json"), QStringLiteral("--nodes=") + node};
}

QStringList drainArguments(const QString &node, const QString &reason)
{
    return {QStringLiteral("update"), QStringLiteral("nodename=") + node, QStringLiteral("state=drain"),
            QStringLiteral("reason=") + reason};
}

QStringList resumeArguments(const QString &node)
{
    return {QStringLiteral("update"), QStringLiteral("nodename=") + node, QStringLiteral("state=resume")};
}

std::optional<qint64> jobIdOfSalloc(const QByteArray &output)
{
    static const QRegularExpression pattern(QStringLiteral("(?:Granted|Pending) job allocation (\\d+)"));
    const QRegularExpressionMatch match = pattern.match(QString::fromUtf8(output));
    if (!match.hasMatch())
        return std::nullopt;
    bool ok = false;
    const qint64 id = match.captured(1).toLongLong(&ok);
    return ok && id > 0 ? std::optional(id) : std::nullopt;
}

QString errorOf(const QByteArray &output)
{
    const QStringList lines = QString::fromUtf8(output).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (QString line : lines) {
        line = line.trimmed();
        // "salloc: error: Job submit/allocate failed: Unable to contact slurm controller (connect failure)"
        static const QRegularExpression prefix(QStringLiteral("^(?:[a-z_]+: )?(?:error: )?"));
        line.remove(prefix);
        if (line.isEmpty())
            continue;
        const qsizetype colon = line.lastIndexOf(QLatin1String(": "));
        if (colon > 0 && colon + 2 < line.size())
            line = line.mid(colon + 2);
        return line.left(200);
    }
    return QString();
}

QString slurmConfText(const SlurmConfig &slurm, const QList<GpuDevice> &gpus, int cpus)
{
    QList<const GpuDevice *> nvidia;
    for (const GpuDevice &gpu : gpus)
        if (gpu.vendor == GpuVendor::Nvidia)
            nvidia.append(&gpu);
    QString out;
    QTextStream s(&out);
    QStringList gres;
    for (const GpuDevice *gpu : std::as_const(nvidia))
        gres.append(QStringLiteral("gpu:%1:1").arg(slurm.gresTypeOf(gpu->index)));
    s << "# idlegpu's Slurm mode on node " << slurm.node << ": " << nvidia.size()
      << (nvidia.size() == 1 ? " GPU" : " GPUs") << ", each its own GRES type,\n"
      << "# so that a hold (salloc -p " << slurm.partition << " --gres=gpu:" << slurm.gresTypeOf(0)
      << ":1) preempts the lab's job on that GPU alone.\n"
      << "#\n"
      << "# slurm.conf, once for the cluster:\n"
      << "GresTypes=gpu\n"
      << "PreemptType=preempt/partition_prio\n"
      << "PreemptMode=REQUEUE\n"
      << "# seconds between the SIGTERM of a preempted job and its SIGKILL\n"
      << "KillWait=5\n"
      << "# the hidden partition of the owners' holds, over the lab's\n"
      << "PartitionName=" << slurm.partition
      << " Nodes=ALL PriorityTier=100 PreemptMode=OFF Hidden=YES AllowGroups=root MaxTime=INFINITE State=UP\n"
      << "PartitionName=scavenger Nodes=ALL Default=YES PriorityTier=1 PreemptMode=REQUEUE MaxTime=INFINITE "
         "State=UP\n"
      << "# fail closed: the prolog refuses a lab job (drains the node with a reason starting \"idlegpu: \") while\n"
      << "# idlegpu is not running or hangs, or while a program has one of the job's GPUs open\n"
      << "Prolog=" << kLibexecFolder << "/idlegpu-slurm-prolog\n"
      << "# drains the node while idlegpu is not running or hangs (a running idlegpu resumes what it drained)\n"
      << "HealthCheckProgram=" << kLibexecFolder << "/idlegpu-slurm-health\n"
      << "HealthCheckInterval=30\n"
      << "# drained and busy nodes are checked too\n"
      << "HealthCheckNodeState=ANY\n"
      << "# a job the prolog refused goes back to the queue (to another node), not held\n"
      << "SchedulerParameters=nohold_on_prolog_fail\n"
      << "#\n"
      << "# slurm.conf, this node (CPUs as found here; add RealMemory and the rest as for any node):\n"
      << "NodeName=" << slurm.node << " CPUs=" << cpus;
    if (!gres.isEmpty())
        s << " Gres=" << gres.join(QLatin1Char(','));
    s << " State=UNKNOWN\n"
      << "#\n"
      << "# gres.conf on this node (in this order: a job's GRES index is the position here):\n";
    for (const GpuDevice *gpu : std::as_const(nvidia))
        s << "NodeName=" << slurm.node << " Name=gpu Type=" << slurm.gresTypeOf(gpu->index) << " File=" << gpu->path
          << '\n';
    if (nvidia.isEmpty())
        s << "# (no NVIDIA GPU found: no /dev/nvidiaN under device_root)\n";
    return out;
}

} // namespace Slurm
