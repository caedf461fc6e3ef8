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

enum class StopCause {
    ForeignHolder,
    UserActive, // [tty]: a user on a terminal
    Paused,
    Disabled,
    Removed,
    GpuMissing,
    OwnerPresent,    // [activity]: someone at the computer
    OutsideSchedule, // [schedule]
    OnBattery,       // [defaults] on_battery
    TooHot           // [defaults] max_temperature_c
};

// Why no workload may run at all, the first of these that holds; for the tray's icon, tooltip and menu.
enum class HoldReason { None, Paused, OutsideSchedule, OnBattery, OwnerPresent, TerminalUser };

struct StopOrder
{
    QString workloadId;
    StopCause cause = StopCause::ForeignHolder;
    int gpu = -1;        // ForeignHolder / GpuMissing / TooHot: the GPU concerned
    Holder culprit;      // ForeignHolder: who opened it
    QString reason;      // one line for the log: "python3 (alice, pid 4242) opened GPU 0"
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
    QList<Holder> ignoredHolders; // matched ignore_programs, or are the workload's own
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
    QHash<QString, QString> workloadReasons; // workload id -> why it does not run (empty when it runs)
    QStringList activeUsers;                 // [tty]: users whose activity stops all workloads
    HoldReason hold = HoldReason::None;      // why no workload may run at all
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
