// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The words the tray, the menu and the status window use for GPUs, holders and workloads (translated).
#include "model/monitorstate.h"
#include "policy/policy.h"
#include "tray/overallstate.h"

#include <QCoreApplication>
#include <QDateTime>

class StatusText
{
    Q_DECLARE_TR_FUNCTIONS(StatusText)
public:
    // Returns the overall state in words: "Running workloads", "Paused", ...
    static QString overallTitle(OverallState state);
    // Returns why a rule holds every workload back: its words (HoldWords, translated) after "Paused: ", as in "Paused:
    // you are at the computer", "Paused: outside the schedule until Mon 18:00". Empty when none does, or when the user
    // paused them (overallTitle() says so).
    static QString holdReason(const Decision &decision);
    // Returns the first lines of the tooltip and of the status window: the overall state (the hold reason itself while
    // a rule holds the workloads back), then the hold reason where a more urgent state leads.
    static QStringList headlines(const MonitorState &state);
    // The same, with the end of a pause of all for a while: "Paused until 14:05".
    static QStringList headlines(const MonitorState &state, qint64 nowMs, const QDateTime &wallNow);

    // Returns a holder in words: "python3 (alice, pid 4242)", or "a process of another user" for a hidden one.
    static QString holder(const Holder &holder);
    static QString holders(const QList<Holder> &holders);
    // Returns a Policy::ClientKind in words: "compute client", "graphics client", "unseen".
    static QString clientKind(Policy::ClientKind kind);
    // Returns who holds the GPU, each with its kind: the holders that make it busy, then those that have it open
    // without counting (a graphics client under busy_when = auto, a job not yet computing under computes).
    static QString gpuHolders(const GpuStatus &gpu, const Config &config);
    // Returns why each of them counts or not, a line per holder: "python3 (alice, pid 4242), compute client: <the
    // policy's reason, in English>".
    static QString gpuHoldersWhy(const GpuStatus &gpu, const Config &config);

    // Returns the workload's name= (its section id when unknown).
    static QString workloadName(const Config &config, const QString &id);
    static QString workloadState(WorkloadRuntime::State state);

    // Returns the wall-clock time of the monotonic moment `atMs`, knowing that `nowMs` is `wallNow`: "14:02", or with
    // the date when it is not today.
    static QString clockTime(qint64 atMs, qint64 nowMs, const QDateTime &wallNow);

    // Returns a duration in words: "45 s", "12 min", "3 h 05 min".
    static QString duration(qint64 ms);

    // Returns what a GPU does, short, led by the policy's name of its state (Policy::gpuStateName, as --status prints
    // it): "running miner since 14:02", "busy — python3 (alice, pid 4242)", "idle — reason", "waiting, starting in 7 s"
    // (with `countdown`) or "waiting, starting at 14:05:07" (without: it does not change every second, so a menu that
    // shows it need not be rebuilt); "idle — too hot" (with `countdown`, its temperature too); "idle — paused" while
    // every workload is held back (holdReason() says why); in Slurm mode slurmActivity()'s words.
    static QString gpuActivity(const GpuStatus &gpu, const MonitorState &state, qint64 nowMs, const QDateTime &wallNow,
                               bool countdown);
    // Returns, in Slurm mode, whether a GPU is lent to the lab's queue or held for its owner: "lent to the lab: job
    // 1234 (bob)", "lent to the lab (no job yet)", "held for you", "held for you — python3 (alice, pid 4242)", "held
    // for you, lent to the lab in 7 s", "Slurm unreachable: …". Empty when the GPU has no lending workload
    // (gpuActivity() says what it does then).
    static QString slurmActivity(const GpuStatus &gpu, const MonitorState &state, qint64 nowMs, const QDateTime &wallNow,
                                 bool countdown);
};
