// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
#include <QList>
#include <QString>
#include <QStringList>

// What the runner knows of one workload at a moment: the policy's input, the UI's display.
struct WorkloadRuntime
{
    enum State {
        Stopped,    // not running; may start when the policy says so
        Running,    // its process (and session) exists
        Stopping,   // SIGTERM sent, waiting for the session to end (SIGKILL after stop_timeout)
        BackingOff, // exited by itself; not restarted before retryAtMs
        // A service's stop command failed (control commands): it may still compute on the GPUs, which stay its own;
        // the runner tries again at retryAtMs.
        StopFailed,
    };
    QString id;
    State state = Stopped;
    qint64 pid = 0;         // the workload's session leader (its session id); 0 when none (and for a service idlegpu
                            // does not run: only its control command, while one runs)
    qint64 startedAtMs = 0; // monotonic; when it last started
    qint64 retryAtMs = 0;   // BackingOff: earliest restart; StopFailed: the next try of the stop command
    QList<int> gpus;        // GPUs it was started on (resolved; all present GPUs for gpus=ALL)
    int consecutiveFailures = 0;
    QString lastExit;        // "exit code 3" / "killed by signal 9"; empty when none yet
    QStringList lastOutput;  // last lines it printed (the last run), for the failing state

    // A GPU lent to a lab's Slurm queue (slurm/ SlurmLender): Running = lent (its hold released), Stopping = the hold
    // being placed, Stopped = held for the owner.
    struct LabJob
    {
        qint64 id = 0;
        QString user;
        QString name;
        bool operator==(const LabJob &) const = default;
    };
    QList<LabJob> labJobs; // the lab's jobs on the GPU now, as Slurm last said
    QString unreachable;   // why Slurm could not be asked ("slurmctld did not answer within 5 s"); empty: it answers

    bool occupiesGpus() const { return state == Running || state == Stopping || state == StopFailed; }
    bool failing() const { return state == BackingOff || state == StopFailed; }
};

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
