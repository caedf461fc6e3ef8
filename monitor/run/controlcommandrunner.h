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
#include "base/clock.h"
#include "run/workloadrunner.h"

#include <QHash>

class ControlCommandRunner : public WorkloadRunner
{
    Q_OBJECT
public:
    // reaperPath: the idlegpu-reaper executable; empty: ProcessRunner::defaultReaperPath().
    explicit ControlCommandRunner(const Clock *clock = SystemClock::instance(), const QString &reaperPath = QString(),
                                  QObject *parent = nullptr);
    ~ControlCommandRunner() override; // a command still running gets SIGTERM through its reaper (no waiting)

    bool start(const WorkloadConfig &config, const QList<int> &gpus, bool allGpus) override;
    void stop(const QString &id, const QString &reason) override;
    void stopAll(const QString &reason) override;
    void forget(const QString &id) override;
    QHash<QString, WorkloadRuntime> runtimes() const override;
    void setGpuUuids(const QHash<int, QString> &uuidsByIndex) override { m_gpuUuids = uuidsByIndex; }
    void setGpuDevices(const QList<GpuDevice> &devices) override { m_gpuDevices = devices; }
    void setWorkloads(const QList<WorkloadConfig> &workloads) override;

    // After a command's timeout its tree gets SIGKILL (through the reaper); the reaper itself this much later.
    static constexpr int kReaperKillDelayMs = 2'000;
    // A command's output kept for messages (runtime.lastOutput): this many bytes, then its last lines.
    static constexpr int kMaxOutputBytes = 16 * 1024;

private:
    struct Entry;
    enum class Command { Start, Stop };
    Entry &entryFor(const QString &id); // made on first use
    // Runs the command; false when it cannot run (the command failed then, as one that ran and failed).
    bool runCommand(Entry &entry, Command command);
    // The command could not run (no plan, or its process refused log=): as one that ran and failed, nothing to undo.
    void notRun(Entry &entry, const QString &outcome);
    void onCommandEnded(const QString &id, bool succeeded, const QString &outcome);
    void onTimeout(const QString &id);
    // The stop command: stopping (or undoing a failed start); Stopped once it succeeds.
    void takeBack(Entry &entry);
    void stopFailed(Entry &entry, const QString &outcome);
    void backOff(Entry &entry, const QString &failure);
    void maybeEmitAllStopped();

    const Clock *m_clock;
    QString m_reaperPath;
    QHash<QString, Entry *> m_entries;
    bool m_stoppingAll = false;
    QHash<int, QString> m_gpuUuids;
    QList<GpuDevice> m_gpuDevices;
};
