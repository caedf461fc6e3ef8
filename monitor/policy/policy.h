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
// Decides what runs where; the same input always gives the same decision.
Decision decide(const PolicyInput &input);

// Returns the start rule's delay: start_delay_seconds in ms (a negative value counts as none).
qint64 startDelayMs(const Config &config);
// Returns when a GPU free of foreign holders since `freeSinceMs` (GpuStatus::freeSinceMs) has been free long enough
// for a workload to start on it: what decide() waits for, and what the front ends announce.
qint64 settledAtMs(qint64 freeSinceMs, const Config &config);

// Returns the order in which decide() considers workloads, as indices into `gpusOfWorkloads` (each workload's gpus=,
// in file order): those with gpus=ALL first, then those with a GPU list, each in file order.
QList<int> startOrder(const QList<GpuSelection> &gpusOfWorkloads);

// Returns the exemption that leaves a holder out of a GPU's count, the first in Exemption's order that names it;
// nullopt when none does and for a hidden holder without a pid, whom nobody can tell.
std::optional<IgnoredHolder> exemptionOf(const Holder &holder, int gpu, const Config &config,
                                         const QHash<QString, WorkloadRuntime> &runtimes, qint64 selfPid);
// Returns whether a holder counts against a GPU, that is, whether no exemption names it.
bool isForeign(const Holder &holder, int gpu, const Config &config,
               const QHash<QString, WorkloadRuntime> &runtimes, qint64 selfPid);

// The kind of client that a holder is on one GPU, which busy_when = auto judges by (clientKind()).
enum class ClientKind { Compute, Graphics, Unseen };

// The verdict on whether a foreign holder makes its GPU busy, and why, in words for --status and the status window.
struct HolderVerdict
{
    ClientKind kind = ClientKind::Unseen;
    bool makesBusy = true;
    QString why; // "a compute client: it holds nvidia-uvm", "a graphics client using 4% (counts from 30% or 1024 MiB)"
};

ClientKind clientKind(const Holder &holder, int gpu);

// Judges whether a foreign holder makes the GPU busy under its busy_when rule, and why.
HolderVerdict judgeHolder(const Holder &holder, int gpu, const BusyRule &rule);
bool makesBusy(const Holder &holder, int gpu, const BusyRule &rule);
// Returns what --status and the status window say of a holder that a decision lists on a GPU: judgeHolder() under
// the GPU's busy_when, or for an exempted one (ignoredHolders) its kind and the words of its exemption.
HolderVerdict explainHolder(const Holder &holder, int gpu, const Config &config);
HolderVerdict explainHolder(const IgnoredHolder &ignored, int gpu);

// Returns whether `program` (an ignore_programs entry) is this holder's comm, or the basename of its exe or argv[0];
// a comm cut at Linux's 15 characters matches a longer name that begins with it.
bool matchesProgram(const Holder &holder, const QString &program);

// These return short English names for logs and the status printer: "foreign holder", "waiting".
QString holdReasonName(HoldReason reason);
QString clientKindName(ClientKind kind); // "compute", "graphics", "unseen"
QString gpuStateName(GpuState state);
} // namespace Policy
