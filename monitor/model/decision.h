// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// What the policy decides (Policy::decide) and what it carries from one decision to the next: the orders to the
// runners, each GPU's status and why nothing runs. Read by the runners' caller, the ledger, the metrics and every
// front end.
#include "model/snapshot.h"

#include <QDateTime>
#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>

struct PauseState
{
    bool all = false;
    qint64 allUntilMs = 0;   // with all: resume at this monotonic time; 0 = until resumed by hand
    QSet<QString> workloads; // paused one by one

    bool allPausedAt(qint64 nowMs) const { return all && (allUntilMs == 0 || nowMs < allUntilMs); }
};

// What the policy remembers from one decision to the next: since when each GPU has been free of foreign
// holders. Carried by the caller, so decide() stays pure.
struct PolicyMemory
{
    QHash<int, qint64> freeSinceMs; // GPU index -> monotonic time its last foreign holder was seen gone
    QSet<int> hotGpus;              // reached max_temperature_c and not yet kCoolDownCelsius cooler
};

// The rules that stop a running workload or keep one from starting, in their order of precedence: of those that
// hold for a workload, the decision follows the first and names it. Those from Paused to TerminalUser can hold every
// workload at once; Decision::hold names the first of them that does. The policy's table of rules (policy.cpp) gives
// each its test, its words and whether it stops a running workload, keeps one from starting, or both.
enum class HoldReason {
    None,
    Removed,         // no longer in the configuration
    Disabled,        // enabled = false
    Refused,         // the configuration check refused it (WorkloadConfig::refusal)
    Paused,          // by the user: every workload, or this one
    OutsideSchedule, // [schedule]
    OnBattery,       // [defaults] on_battery
    OwnerPresent,    // [activity]: someone at the computer
    TerminalUser,    // [tty]: a user active on a terminal
    BackingOff,      // it failed and waits for its retry
    NoGpu,           // its GPU list resolves to no GPU
    GpuMissing,      // a GPU of its list does not exist
    ForeignHolder,   // a GPU of its list is in use
    TooHot,          // [defaults] max_temperature_c
    GpuTaken,        // another workload has a GPU of its list
    Settling,        // a GPU of its list has not been free for start_delay_seconds yet
};

// Why a workload does not run, as the decision followed it: the rule and its words ("GPU 0 is in use by python3 (alice,
// pid 4242)"). A rule of None with words is the runner's state ("stopping"); both empty: it runs, or starts now.
struct WorkloadReason
{
    HoldReason hold = HoldReason::None;
    QString text;
    bool operator==(const WorkloadReason &) const = default;
};

struct StopOrder
{
    QString workloadId;
    HoldReason cause = HoldReason::ForeignHolder;
    int gpu = -1;        // ForeignHolder / GpuMissing / TooHot: the GPU concerned
    Holder culprit;      // ForeignHolder: who opened it
    QString reason;      // one line for the log: "python3 (alice, pid 4242) opened GPU 0"
};

// The holders of a GPU that do not count against it, in the order the policy tries them: of those that name a
// holder, the decision records the first, and --status says that one.
enum class Exemption {
    Self,           // idlegpu itself
    Workload,       // a process of a running workload: its session, children and their descendants
    SlurmJob,       // [slurm]: a process of a Slurm job
    IgnoredProgram, // ignore_programs names it
    ServiceProgram, // the service_programs of a workload that may run on the GPU name it
};

// A holder a decision left out of its GPU's count, and the exemption that left it out.
struct IgnoredHolder
{
    Holder holder;
    Exemption exemption = Exemption::Self;
    QString workloadId; // Workload, ServiceProgram: whose process it is, or whose service
    QString program;    // IgnoredProgram, ServiceProgram: the listed name that matched
    bool operator==(const IgnoredHolder &) const = default;
};

struct StartOrder
{
    QString workloadId;
    QList<int> gpus; // resolved
    bool allGpus = false;
};

enum class GpuState {
    Idle,        // free, nothing to run on it (no workload, paused, backing off, ...): see reason
    Waiting,     // free, but not for start_delay_seconds yet
    RunningWorkload,
    Busy,        // a foreign holder has it
};

struct GpuStatus
{
    int index = -1;
    GpuState state = GpuState::Idle;
    QList<Holder> foreignHolders;
    QList<IgnoredHolder> ignoredHolders; // those an exemption leaves out: idlegpu's, a workload's, ignore_programs...
    QList<Holder> openOnlyHolders; // foreign, but busy_when asks more than an open node (computing, memory)
    QString workloadId;           // the workload on it (running or about to start), if any
    QString reason;               // for Idle/Waiting: why nothing runs yet
    qint64 freeSinceMs = 0;       // 0 while busy
    bool tooHot = false;          // at max_temperature_c, or not yet kCoolDownCelsius below it
};

struct Decision
{
    QList<StartOrder> start;
    QList<StopOrder> stop;
    QList<GpuStatus> gpus;
    QHash<QString, WorkloadReason> workloadReasons; // workload id -> why it does not run (empty when it runs)
    QStringList activeUsers;                 // [tty]: users whose activity stops all workloads
    HoldReason hold = HoldReason::None;      // why no workload may run at all: one of the rules for every workload
    QString holdText;                        // the same in words, as the log and --status say it; empty: none
    QDateTime holdEndsAt;                    // OutsideSchedule: when the schedule lets workloads run again (local)
    qint64 nextWakeMs = 0;                   // when to decide again though nothing happens; 0: no need
    PolicyMemory memory;

    const StopOrder *stopFor(const QString &workloadId) const
    {
        for (const StopOrder &order : stop)
            if (order.workloadId == workloadId)
                return &order;
        return nullptr;
    }
    const GpuStatus *gpu(int index) const
    {
        for (const GpuStatus &status : gpus)
            if (status.index == index)
                return &status;
        return nullptr;
    }
};
