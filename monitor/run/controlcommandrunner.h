// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// Runs workloads that are services pausing themselves (BOINC, Folding@home): idlegpu never runs the service, it lends
// it the GPUs with start_cmd= and takes them back with stop_cmd=. Each command runs as a workload's process would
// (a LaunchPlan through idlegpu-reaper: user=, env=, dir=, no shell, output to log=), for at most
// command_timeout_seconds (then its whole tree is killed).
//
//   Stopped ─start()─► Running (start_cmd runs) ─exit 0─► Running (lent) ─stop()─► Stopping (stop_cmd runs)
//                          │ fails, times out                                          │ exit 0      │ fails
//                          ▼                                                           ▼             ▼
//                      Stopping (stop_cmd, to undo what the start may have done) ─► Stopped     StopFailed
//                          └─ then BackingOff (not started again before retryAtMs)             (stop_cmd again
//                                                                                               at retryAtMs)
// Stopped means the last stop command succeeded: only then are the GPUs free for another workload. A failed stop
// leaves the workload StopFailed, still holding its GPUs (the service may compute there), until a retry succeeds.
// Since idlegpu cannot know how a service was left (killed idlegpu, a reboot), setWorkloads() runs the stop command of
// each control workload it has not seen yet before the first start.
#include "run/reaperrunner.h"

class ControlCommandRunner : public ReaperRunner
{
    Q_OBJECT
public:
    // reaperPath: the idlegpu-reaper executable; empty: defaultReaperPath().
    explicit ControlCommandRunner(const Clock *clock = SystemClock::instance(), const QString &reaperPath = QString(),
                                  QObject *parent = nullptr);
    ~ControlCommandRunner() override; // a command still running gets SIGTERM through its reaper (no waiting)

    bool start(const WorkloadConfig &config, const QList<int> &gpus, bool allGpus) override;
    void stop(const QString &id, const QString &reason) override;
    void setWorkloads(const QList<WorkloadConfig> &workloads) override;

    // A command's output kept for messages (runtime.lastOutput): this many bytes, then its last lines.
    static constexpr int kMaxOutputBytes = 16 * 1024;

private:
    struct Entry;
    enum class Command { Start, Stop };
    Entry *entryOf(const QString &id) const;
    Entry &entryFor(const QString &id); // made on first use
    QString whyKept(const ReaperRunner::Entry &entry) const override;
    bool stopPending(const ReaperRunner::Entry &entry) const override;
    void stopForAll(const QString &id, const QString &reason) override;
    // Runs the command; false when it cannot run (the command failed then, as one that ran and failed).
    bool runCommand(Entry &entry, Command command);
    // The command could not run (no plan, or its process refused log=): as one that ran and failed, nothing to undo.
    void notRun(Entry &entry, const QString &outcome);
    void onCommandEnded(const QString &id, bool succeeded, const QString &outcome);
    void onTimeout(const QString &id);
    // The stop command: stopping (or undoing a failed start); Stopped once it succeeds.
    void takeBack(Entry &entry);
    void stopFailed(Entry &entry, const QString &outcome);
};
