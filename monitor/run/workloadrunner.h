// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The interface of the runners, which the monitor's tests fake. The real one is a RunnerRouter (slurm/runnerrouter.h)
// over ProcessRunner, ControlCommandRunner and SlurmLender.
#include "config/config.h"
#include "model/snapshot.h"
#include "model/workloadruntime.h"

#include <QHash>
#include <QObject>

// The interface through which the monitor starts and stops workloads and reads their state.
class WorkloadRunner : public QObject
{
    Q_OBJECT
public:
    using QObject::QObject;

    // Starts the workload on these GPUs (already resolved; allGpus means gpus=ALL, without CUDA_VISIBLE_DEVICES).
    // Returns false, with the reason in the runtime's lastExit, when it cannot start (command not found).
    virtual bool start(const WorkloadConfig &config, const QList<int> &gpus, bool allGpus) = 0;
    // Asks the workload to stop, in its runner's way: a process gets SIGTERM to its whole session now, SIGKILL after
    // its stop timeout; a control workload's stop_cmd runs; a lent GPU is held again.
    // Never blocks. `reason` goes to the log (and the workload's log file).
    virtual void stop(const QString &id, const QString &reason) = 0;
    // Stops all workloads; allStopped() is emitted once nothing is left running (at once when nothing ran).
    virtual void stopAll(const QString &reason) = 0;
    // Forgets a stopped workload that was removed from the config, with its backoff and history.
    virtual void forget(const QString &id) = 0;

    virtual QHash<QString, WorkloadRuntime> runtimes() const = 0;

    // Sets the UUID of each GPU by index, when a backend (NVML) knows them; later starts name GPUs by UUID in
    // CUDA_VISIBLE_DEVICES. Runners that start no processes ignore it.
    virtual void setGpuUuids(const QHash<int, QString> &uuidsByIndex) { Q_UNUSED(uuidsByIndex) }
    // Sets the GPUs present, by which later starts select AMD and Intel GPUs (workloadEnvironment()) and SlurmLender
    // orders the NVIDIA ones.
    virtual void setGpuDevices(const QList<GpuDevice> &devices) { Q_UNUSED(devices) }
    // Sets the workloads of the configuration in force, before the decision that follows each config applied, so that
    // a runner can bring what it controls into a known state.
    virtual void setWorkloads(const QList<WorkloadConfig> &workloads) { Q_UNUSED(workloads) }
    // Sets the GPUs' holders of the last scan, among which the lab's jobs' processes (Holder::slurmJobId) that
    // SlurmLender signals at once when the owner takes their GPU back. Other runners ignore it.
    virtual void setGpuHolders(const QList<Holder> &holders) { Q_UNUSED(holders) }

    bool anyRunning() const
    {
        const auto all = runtimes();
        for (const WorkloadRuntime &r : all)
            if (r.occupiesGpus())
                return true;
        return false;
    }

Q_SIGNALS:
    void runtimeChanged(const QString &id);
    // The workload ended without being asked to (a crash, an exit); it backs off before the next start.
    void workloadFailed(const QString &id, const WorkloadRuntime &runtime);
    void allStopped();
};
