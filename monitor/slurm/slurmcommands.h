// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The Slurm commands idlegpu runs, as argument lists (no shell), what their output says, and the lines an admin
// pastes into slurm.conf and gres.conf (--print-slurm-conf). Pure: no process is started here.
#include "config/config.h"
#include "model/snapshot.h"

#include <QStringList>

#include <optional>

namespace Slurm {

// salloc --no-shell -p owner -w NODE --gres=gpu:gpuN:1 -c 1 -J idlegpu-hold-gpuN: a job of the owner partition on
// GPU N's GRES type, which preempts (requeues) the lab's job there. --no-shell: the allocation stays once salloc
// has exited, until it is cancelled.
QStringList holdArguments(const SlurmConfig &slurm, int gpu);
// scancel: the hold jobs `jobIds` when known, else every job named idlegpu-hold-gpuN of the owner partition on this
// node (a hold that is still pending has no node yet: its id comes from the listing).
QStringList releaseArguments(const SlurmConfig &slurm, int gpu, const QList<qint64> &jobIds);
// scontrol show job -d --oneliner: every job, with the GRES index of each on each node (parseShowJobs()).
QStringList listArguments();

// scontrol show node NODE --oneliner: its state and drain reason (parseShowNode()).
QStringList nodeArguments(const QString &node);
// scontrol update: drain `node` with `reason`, or resume it.
QStringList drainArguments(const QString &node, const QString &reason);
QStringList resumeArguments(const QString &node);

// The job id in salloc's messages ("salloc: Granted job allocation 42", "salloc: Pending job allocation 42").
std::optional<qint64> jobIdOfSalloc(const QByteArray &output);
// The first line of a failed command's messages, shortened: "Unable to contact slurm controller (connect failure)".
QString errorOf(const QByteArray &output);

// The lines for slurm.conf and gres.conf, as comments and lines to paste: GresTypes, the preemption settings,
// the node with one GRES type per GPU, the owner and scavenger partitions, and gres.conf's File= per GPU (the GPUs
// found, NVIDIA ones only: a GRES type per /dev/nvidiaN).
QString slurmConfText(const SlurmConfig &slurm, const QList<GpuDevice> &gpus, int cpus);

} // namespace Slurm
