// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The value types of a policy decision (Policy::decide) and of what it carries from one decision to the next: the
// orders to the runners, each GPU's status and why nothing runs. The runners' caller, the ledger, the metrics and
// every front end read them.
#include "model/snapshot.h"

#include <QDateTime>
#include <QHash>
#include <QSet>
#include <QString>
#include <QStringList>

// The user's pause: of every workload, or of some one by one.
struct PauseState
{
    bool all = false;
    qint64 allUntilMs = 0;   // with all, the monotonic time to resume at; 0 means until resumed by hand
    QSet<QString> workloads; // the workloads paused one by one
    // For a workload of `workloads` paused for a while, the monotonic time to resume it at; absent: until resumed
    QHash<QString, qint64> workloadUntilMs;

    bool allPausedAt(qint64 nowMs) const { return all && (allUntilMs == 0 || nowMs < allUntilMs); }
    bool workloadPausedAt(const QString &id, qint64 nowMs) const
    {
        if (!workloads.contains(id))
            return false;
        const qint64 until = workloadUntilMs.value(id);
        return until == 0 || nowMs < until;
    }
    // Ends the pauses whose time has come. Returns whether one ended.
    bool expireAt(qint64 nowMs)
    {
        bool changed = false;
        if (all && !allPausedAt(nowMs)) {
            all = false;
            allUntilMs = 0;
            changed = true;
        }
        for (auto it = workloadUntilMs.begin(); it != workloadUntilMs.end();) {
            if (it.value() != 0 && nowMs >= it.value()) {
                workloads.remove(it.key());
                it = workloadUntilMs.erase(it);
                changed = true;
            } else {
                ++it;
            }
        }
        return changed;
    }
    bool operator==(const PauseState &) const = default;
};

// The policy's memory from one decision to the next: since when each GPU has been free of foreign holders, and
// which GPUs are too hot. The caller carries it, so that decide() stays pure.
struct PolicyMemory
{
    QHash<int, qint64> freeSinceMs; // GPU index -> the monotonic time its last foreign holder was seen gone
    QSet<int> hotGpus;              // GPUs that reached max_temperature_c and are not yet kCoolDownCelsius cooler
};

// The rules that stop a running workload or keep one from starting, in their order of precedence: the decision
// follows the first that holds and names it. Those from Paused to TerminalUser can hold every workload at once
// (Decision::hold). Each rule's test is in the policy's kRules.
enum class HoldReason {
    None,
    Removed,         // no longer in the configuration
    Disabled,        // enabled = false
    Refused,         // the configuration check refused it (WorkloadConfig::refusal)
    Paused,          // by the user: every workload, or this one
    OutsideSchedule, // [schedule]
    OnBattery,       // [defaults] on_battery
    OwnerPresent,    // [activity]: a person is at the computer
    TerminalUser,    // [tty]: a user active on a terminal
    BackingOff,      // it failed and waits for its retry
    NoGpu,           // its GPU list resolves to no GPU
    GpuMissing,      // a GPU of its list does not exist
    ForeignHolder,   // a GPU of its list is in use
    TooHot,          // [defaults] max_temperature_c
    GpuTaken,        // another workload has a GPU of its list
    Settling,        // a GPU of its list has not been free for start_delay_seconds yet
};

// The reason a workload does not run, as the decision followed it: the rule and its words ("GPU 0 is in use by
// python3 (alice, pid 4242)"). A rule of None with words is the runner's state ("stopping"); when both are empty,
// the workload runs or starts now.
struct WorkloadReason
{
    HoldReason hold = HoldReason::None;
    QString text;
    bool operator==(const WorkloadReason &) const = default;
};

// An order to a runner to stop a workload, with the rule that stops it.
struct StopOrder
{
    QString workloadId;
    HoldReason cause = HoldReason::ForeignHolder;
    int gpu = -1;        // for ForeignHolder, GpuMissing and TooHot, the GPU concerned
    Holder culprit;      // for ForeignHolder, the process that opened the GPU
    QString reason;      // one line for the log: "python3 (alice, pid 4242) opened GPU 0"
};

// The exemptions that keep a holder of a GPU from counting against it, in the order the policy tries them. Of those
// that name a holder, the decision records the first, and --status shows that one.
enum class Exemption {
    Self,           // idlegpu itself
    Workload,       // a process of a running workload: its session, children and their descendants
    SlurmJob,       // [slurm]: a process of a Slurm job
    IgnoredProgram, // ignore_programs names it
    ServiceProgram, // the service_programs of a workload that may run on the GPU name it
};

// A holder that a decision left out of its GPU's count, and the exemption that left it out.
struct IgnoredHolder
{
    Holder holder;
    Exemption exemption = Exemption::Self;
    QString workloadId; // for Workload and ServiceProgram, the workload whose process or service it is
    QString program;    // for IgnoredProgram and ServiceProgram, the listed name that matched
    bool operator==(const IgnoredHolder &) const = default;
};

// An order to a runner to start a workload on the given GPUs.
struct StartOrder
{
    QString workloadId;
    QList<int> gpus; // resolved GPU indices
    bool allGpus = false;
};

// The state of one GPU in a decision.
enum class GpuState {
    Idle,        // free, with nothing to run on it (no workload, paused, backing off...): see GpuStatus::reason
    Waiting,     // free, but not yet for start_delay_seconds
    RunningWorkload,
    Busy,        // a foreign holder has it
};

// One GPU's status in a decision: its state, its holders and the reason nothing runs.
struct GpuStatus
{
    int index = -1;
    GpuState state = GpuState::Idle;
    QList<Holder> foreignHolders;
    QList<IgnoredHolder> ignoredHolders; // those an exemption leaves out: idlegpu's, a workload's, ignore_programs...
    QList<Holder> openOnlyHolders; // foreign, but busy_when asks more than an open node (computing, memory)
    QString workloadId;           // the workload on it (running or about to start), if any
    QString reason;               // for Idle and Waiting, why nothing runs yet
    qint64 freeSinceMs = 0;       // 0 while busy
    bool tooHot = false;          // at max_temperature_c, or not yet kCoolDownCelsius below it
};

// The result of one policy decision: the orders to the runners, the status of each GPU and of each workload.
struct Decision
{
    QList<StartOrder> start;
    QList<StopOrder> stop;
    QList<GpuStatus> gpus;
    QHash<QString, WorkloadReason> workloadReasons; // workload id -> why it does not run (empty when it runs)
    QStringList activeUsers;                 // for [tty], the users whose activity stops all workloads
    HoldReason hold = HoldReason::None;      // why no workload may run at all: one of the rules for every workload
    QString holdText;                        // the same in words, as the log and --status say it; empty for none
    QDateTime holdEndsAt;                    // for OutsideSchedule, the local time the schedule allows runs again
    qint64 nextWakeMs = 0;                   // when to decide again if nothing happens; 0 when there is no need
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
