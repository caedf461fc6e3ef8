// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The value type of what a runner knows of one workload, and the words for its state.
#include <QList>
#include <QString>
#include <QStringList>

// What a runner knows of one workload at a moment. It is the policy's input and what the UI displays.
struct WorkloadRuntime
{
    enum State {
        Stopped,    // not running; it may start when the policy says so
        Running,    // its process (and session) exists
        Stopping,   // SIGTERM was sent; waiting for the session to end (SIGKILL after stop_timeout)
        BackingOff, // it exited by itself and is not restarted before retryAtMs
        // A service's stop command failed (control commands). The service may still compute on the GPUs, which stay
        // its own; the runner tries again at retryAtMs.
        StopFailed,
    };
    QString id;
    State state = Stopped;
    qint64 pid = 0;         // the workload's session leader (its session id); 0 when none. For a service that
                            // idlegpu does not run, the pid of its control command while one runs
    qint64 startedAtMs = 0; // the monotonic time it last started
    qint64 retryAtMs = 0;   // BackingOff: the earliest restart; StopFailed: the next try of the stop command
    QList<int> gpus;        // the GPUs it was started on (resolved; all present GPUs for gpus=ALL)
    int consecutiveFailures = 0;
    QString lastExit;        // "exit code 3" or "killed by signal 9"; empty when none yet
    QStringList lastOutput;  // the last lines it printed in its last run, for the failing state

    // A job of the lab on a GPU lent to a lab's Slurm queue (slurm/ SlurmLender). For such a GPU, Running means
    // lent (its hold released), Stopping means the hold is being placed, Stopped means held for the owner.
    struct LabJob
    {
        qint64 id = 0;
        QString user;
        QString name;
        bool operator==(const LabJob &) const = default;
    };
    QList<LabJob> labJobs; // the lab's jobs on the GPU now, as Slurm last said
    QString unreachable;   // why Slurm could not be asked ("slurmctld did not answer within 5 s"); empty if it answers

    bool occupiesGpus() const { return state == Running || state == Stopping || state == StopFailed; }
    bool failing() const { return state == BackingOff || state == StopFailed; }
};

// Returns the word that logs and --status use for a state: "failing" for BackingOff.
inline QString workloadStateName(WorkloadRuntime::State state)
{
    switch (state) {
    case WorkloadRuntime::Stopped: return QStringLiteral("stopped");
    case WorkloadRuntime::Running: return QStringLiteral("running");
    case WorkloadRuntime::Stopping: return QStringLiteral("stopping");
    case WorkloadRuntime::BackingOff: return QStringLiteral("failing");
    case WorkloadRuntime::StopFailed: return QStringLiteral("failed to stop");
    }
    return QString();
}
