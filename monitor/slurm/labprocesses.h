// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The processes of the lab's Slurm jobs on this workstation's GPUs, as the last scan saw them, and the way they are
// made to let go of a GPU its owner takes back: SIGTERM at once, SIGKILL after a stop timeout. Slurm's own way (a
// hold that preempts, a requeue) takes slurmctld 50-200 ms to reach the job and then the cluster's KillWait (30 s by
// default) to kill one that ignores SIGTERM; idlegpu, root on the node, does it in a millisecond. Slurm's books are
// kept by the requeue that SlurmLender sends beside it.
#include "model/snapshot.h"

#include <QObject>

#include <map>
#include <memory>

class QTimer;

// The lab's jobs' processes that hold GPUs here, each named by a pidfd, so that a signal never reaches a process
// that took a pid over.
class LabProcesses : public QObject
{
    Q_OBJECT
public:
    explicit LabProcesses(QObject *parent = nullptr);
    ~LabProcesses() override; // closes the pidfds; the processes are left as they are

    // Takes the holders of a scan: those of a Slurm job (Holder::slurmJobId) that hold a GPU are followed, the others
    // forgotten, unless signalled and still there. A holder whose start time /proc no longer shows is skipped.
    void track(const QList<Holder> &holders);
    // Sends SIGTERM to every process followed on GPU `gpu`, and SIGKILL `stopTimeoutMs` later to those still there.
    // Returns the jobs they belong to, as their slurmstepd names them (Holder::slurmStepJobId), for the requeue.
    QList<qint64> terminate(int gpu, int stopTimeoutMs);
    // The jobs of the processes followed on GPU `gpu` that have not been signalled yet, as their slurmstepd names them.
    QList<qint64> jobsOn(int gpu) const;

    // The /proc that start times are read from; tests' processes are real, so this is /proc there too.
    static constexpr char kProcRoot[] = "/proc";

private:
    struct Process;
    void ended(Process *process);
    void killSurvivors(const QList<std::pair<qint64, quint64>> &signalled, int stopTimeoutMs);

    std::map<std::pair<qint64, quint64>, std::unique_ptr<Process>> m_processes; // by pid and start time
};
