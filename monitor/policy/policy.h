// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The policy that decides what runs where: a pure function of a snapshot, the config, the runners' state, the
// user's pause and the time. It does no I/O and is tested with tables and a fake clock.
#include "config/config.h"
#include "model/decision.h"
#include "model/snapshot.h"
#include "model/workloadruntime.h"

#include <QDateTime>
#include <QHash>
#include <QSet>

#include <optional>

// Everything that one decision depends on.
struct PolicyInput
{
    Snapshot snapshot;
    Config config;
    QHash<QString, WorkloadRuntime> runtimes;
    PauseState pause;
    qint64 nowMs = 0;
    qint64 selfPid = 0; // idlegpu's own pid, which is never foreign
    PolicyMemory memory;
};

// The functions of the policy: the decision and the rules it is made of.
namespace Policy {
// Decides what runs where. A GPU must have been free of foreign holders for start_delay_seconds before a workload
// starts on it. At the first decision (the memory knows nothing of a GPU) the GPU counts as free since now, so
// idlegpu never starts a workload the moment it starts itself, because a job may be about to open the GPU.
// Workloads with gpus=ALL are considered before those with a GPU list (gpu_mon's order); no GPU ever runs two
// workloads. The same input always gives the same decision.
Decision decide(const PolicyInput &input);

// Returns the start rule's delay: start_delay_seconds in ms (a negative value counts as none).
qint64 startDelayMs(const Config &config);
// Returns when a GPU free of foreign holders since `freeSinceMs` (GpuStatus::freeSinceMs) has been free long enough
// for a workload to start on it: what decide() waits for, and what the front ends announce.
qint64 settledAtMs(qint64 freeSinceMs, const Config &config);

// Returns the order in which decide() considers workloads, as indices into `gpusOfWorkloads` (each workload's gpus=, in
// file order): those with gpus=ALL first, then those with a GPU list, each in file order. Of two workloads
// that want the same GPU, the first in this order starts; the other waits while it runs.
QList<int> startOrder(const QList<GpuSelection> &gpusOfWorkloads);

// Returns the exemption that leaves a holder out of a GPU's count: the first in Exemption's order that names it
// (idlegpu itself; a process of a running workload's session or its descendants; in Slurm mode a process of a Slurm
// job (Holder::slurmJobId); a program that ignore_programs names by the whole name of comm, exe basename or argv[0]
// basename; a program that a workload that may run on this GPU names in service_programs, matched the same way).
// Returns nullopt for a hidden holder without a pid, because nobody can tell whose it is. The decision records the
// exemption in GpuStatus::ignoredHolders.
std::optional<IgnoredHolder> exemptionOf(const Holder &holder, int gpu, const Config &config,
                                         const QHash<QString, WorkloadRuntime> &runtimes, qint64 selfPid);
// Returns whether a holder counts against a GPU, that is, whether no exemption names it.
bool isForeign(const Holder &holder, int gpu, const Config &config,
               const QHash<QString, WorkloadRuntime> &runtimes, qint64 selfPid);

// The kind of client that a holder is on one GPU (busy_when = auto). A compute client holds nvidia-uvm or /dev/kfd
// (unless the vendor library lists it only among the GPU's graphics processes) or a backend lists it computing
// there. A graphics client is anything else that could be seen. An unseen one is a hidden holder without a pid.
enum class ClientKind { Compute, Graphics, Unseen };

// The verdict on whether a foreign holder makes its GPU busy, and why, in words for --status and the status window.
struct HolderVerdict
{
    ClientKind kind = ClientKind::Unseen;
    bool makesBusy = true;
    QString why; // "a compute client: it holds nvidia-uvm", "a graphics client using 4% (counts from 30% or 1024 MiB)"
};

ClientKind clientKind(const Holder &holder, int gpu);

// Judges whether a foreign holder makes the GPU busy under its busy_when rule: always when opening is enough; for
// auto, a compute client at once and a graphics client only while a backend measures it above a threshold; for
// computes and memory, when a backend lists it as computing there or using at least the threshold. Under computes
// and memory a holder that no backend could judge makes the GPU busy, and so does a hidden holder without a pid
// under every rule: when in doubt, the GPU is the user's. Under auto a graphics client that no backend measures does
// not, because a browser must not keep the GPU idle.
HolderVerdict judgeHolder(const Holder &holder, int gpu, const BusyRule &rule);
bool makesBusy(const Holder &holder, int gpu, const BusyRule &rule);
// Returns what --status and the status window say of a holder that a decision lists on a GPU. For a holder that
// counts or is listed as open only (GpuStatus::foreignHolders, openOnlyHolders), it is judgeHolder() under the GPU's
// busy_when; for one that an exemption left out (ignoredHolders), its kind and the words of that exemption.
HolderVerdict explainHolder(const Holder &holder, int gpu, const Config &config);
HolderVerdict explainHolder(const IgnoredHolder &ignored, int gpu);

// Returns whether `program` (an ignore_programs entry) names this holder: it equals its comm, or the basename of its
// exe or of its argv[0]. A name longer than the 15 characters that Linux keeps of comm also matches a comm that is
// its first 15 characters.
bool matchesProgram(const Holder &holder, const QString &program);

// These return short English names for logs and the status printer: "foreign holder", "waiting".
QString holdReasonName(HoldReason reason);
QString clientKindName(ClientKind kind); // "compute", "graphics", "unseen"
QString gpuStateName(GpuState state);
} // namespace Policy
