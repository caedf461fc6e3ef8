// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The Slurm commands that idlegpu runs, as argument lists (no shell), what their output says, and the lines that an
// admin pastes into slurm.conf and gres.conf (--print-slurm-conf). It is pure: no process is started here.
#include "config/config.h"
#include "model/snapshot.h"
#include "slurm/slurmjobs.h"

#include <QStringList>

#include <optional>

// The Slurm commands, their parsers and the configuration lines, all pure.
namespace Slurm {

// Returns the arguments of the hold of GPU N, `salloc --no-shell -p owner -w NODE --gres=gpu:gpuN:1 -c 1 -J
// idlegpu-hold-gpuN`, a job of the owner partition that preempts the lab's job there and stays until cancelled.
QStringList holdArguments(const SlurmConfig &slurm, int gpu);
// Returns the scancel arguments for idlegpu's hold jobs `holds` of GPU `gpu`: their ids, narrowed by every filter that
// a hold passes, so that an id that is no hold is left alone. Without holds, it cancels every hold of `gpu` here.
QStringList cancelArguments(const SlurmConfig &slurm, int gpu, const QList<Job> &holds);
// Returns the arguments of `scontrol requeue 7,9`: the jobs back to the queue, to run again (elsewhere), whether they
// are running, ending or have just ended.
QStringList requeueArguments(const QList<qint64> &jobs);
// Returns the arguments of `squeue --all --json`, which lists every job (parseJobsJson()) with its GRES index on each
// node.
QStringList listArguments();

// Returns the arguments of `sinfo --json --nodes=NODE`, which gives the nodes' states and drain reasons
// (parseNodeJson(); Slurm 22.05 lists every node).
QStringList nodeArguments(const QString &node);
// These return the `scontrol update` arguments that drain `node` with `reason`, or resume it.
QStringList drainArguments(const QString &node, const QString &reason);
QStringList resumeArguments(const QString &node);

// Returns the job id in salloc's messages ("salloc: Granted job allocation 42", "salloc: Pending job allocation 42").
std::optional<qint64> jobIdOfSalloc(const QByteArray &output);
// Returns the first line of a failed command's messages, shortened: "Unable to contact slurm controller (connect
// failure)".
QString errorOf(const QByteArray &output);

// Returns the lines for slurm.conf and gres.conf, as comments and lines to paste: GresTypes, the preemption settings,
// the node with one GRES type per GPU, the owner and scavenger partitions, and gres.conf's File= per GPU (the GPUs
// found, NVIDIA ones only: a GRES type per /dev/nvidiaN).
QString slurmConfText(const SlurmConfig &slurm, const QList<GpuDevice> &gpus, int cpus);

} // namespace Slurm
