// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The decision of what runs where: a pure function of a snapshot, the config, the runner's state, the
// user's pause and the time. No I/O, no QObject; tested with tables and a fake clock.
#include "config/config.h"
#include "model/decision.h"
#include "model/snapshot.h"
#include "model/workloadruntime.h"

#include <QDateTime>
#include <QHash>
#include <QSet>

#include <optional>

struct PolicyInput
{
    Snapshot snapshot;
    Config config;
    QHash<QString, WorkloadRuntime> runtimes;
    PauseState pause;
    qint64 nowMs = 0;
    QDateTime localNow; // the wall time, for [schedule]; invalid: the schedule is not checked
    qint64 selfPid = 0; // idlegpu's own pid: never foreign
    PolicyMemory memory;
};

namespace Policy {
// Start rules: a GPU must have been free of foreign holders for start_delay_seconds. At the first decision
// (memory knows nothing of a GPU) the GPU counts as free since now: idlegpu never starts a workload the
// moment it starts itself, since a job may be about to open the GPU. Workloads with gpus=ALL are considered
// before those with a GPU list (gpu_mon's order); no GPU ever runs two workloads. Deterministic: the same
// input gives the same decision.
Decision decide(const PolicyInput &input);

// The start rule's delay: start_delay_seconds in ms (a negative value counts as none).
qint64 startDelayMs(const Config &config);
// When a GPU free of foreign holders since `freeSinceMs` (GpuStatus::freeSinceMs) has been free long enough for a
// workload to start on it: what decide() waits for, and what the front ends announce.
qint64 settledAtMs(qint64 freeSinceMs, const Config &config);

// The order in which decide() considers workloads, as indices into `gpusOfWorkloads` (each workload's gpus=, in
// file order): those with gpus=ALL first, then those with a GPU list, each in file order. Of two workloads
// that want the same GPU, the first in this order starts; the other waits while it runs.
QList<int> startOrder(const QList<GpuSelection> &gpusOfWorkloads);

// Which exemption leaves a holder out of a GPU's count: the first in Exemption's order that names it (idlegpu itself;
// a process of a running workload's session or its descendants; in Slurm mode a process of a Slurm job
// (Holder::slurmJobId); a program ignore_programs names by the whole name of comm, exe basename or argv[0] basename; a
// program that a workload that may run on this GPU names in service_programs, matched the same way). None for a
// hidden holder without a pid: nobody can tell whose it is. The decision records it in GpuStatus::ignoredHolders.
std::optional<IgnoredHolder> exemptionOf(const Holder &holder, int gpu, const Config &config,
                                         const QHash<QString, WorkloadRuntime> &runtimes, qint64 selfPid);
// Whether a holder counts against a GPU: no exemption names it.
bool isForeign(const Holder &holder, int gpu, const Config &config,
               const QHash<QString, WorkloadRuntime> &runtimes, qint64 selfPid);

// What kind of client a holder is on one GPU (busy_when = auto). Compute: it holds nvidia-uvm or /dev/kfd (unless
// the vendor library lists it only among the GPU's graphics processes) or a backend lists it computing there.
// Graphics: anything else that could be seen. Unseen: a hidden holder without a pid.
enum class ClientKind { Compute, Graphics, Unseen };

// Whether a foreign holder makes its GPU busy, and why, in words for --status and the status window.
struct HolderVerdict
{
    ClientKind kind = ClientKind::Unseen;
    bool makesBusy = true;
    QString why; // "a compute client: it holds nvidia-uvm", "a graphics client using 4% (counts from 30% or 1024 MiB)"
};

ClientKind clientKind(const Holder &holder, int gpu);

// Whether a foreign holder makes the GPU busy under its busy_when rule: always when opening is enough; a compute
// client at once and a graphics client only while a backend measures it above a threshold (auto); when a backend
// lists it as computing there (computes) or using at least the threshold (memory). Under computes and memory a
// holder no backend could judge is busy, and under every rule a hidden holder without pid: when in doubt the GPU is
// the user's. Under auto a graphics client no backend measures is not: a browser must not keep the GPU idle.
HolderVerdict judgeHolder(const Holder &holder, int gpu, const BusyRule &rule);
bool makesBusy(const Holder &holder, int gpu, const BusyRule &rule);
// What --status and the status window say of a holder a decision lists on a GPU: for one it counts or lists as open
// only (GpuStatus::foreignHolders, openOnlyHolders), judgeHolder under the GPU's busy_when; for one an exemption left
// out (ignoredHolders), its kind and the words of that exemption.
HolderVerdict explainHolder(const Holder &holder, int gpu, const Config &config);
HolderVerdict explainHolder(const IgnoredHolder &ignored, int gpu);

// Whether `program` (an ignore_programs entry) names this holder: equal to its comm, to the basename of its
// exe or of its argv[0]; a name longer than the 15 characters Linux keeps of comm also matches a comm that
// is its first 15 characters.
bool matchesProgram(const Holder &holder, const QString &program);

// Short English names for logs and the status printer: "foreign holder", "waiting".
QString holdReasonName(HoldReason reason);
QString clientKindName(ClientKind kind); // "compute", "graphics", "unseen"
QString gpuStateName(GpuState state);
} // namespace Policy
