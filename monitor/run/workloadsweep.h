// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The sweep that ends what a workload left when its idlegpu-reaper is gone (killed by a user or the OOM killer,
// crashed). It finds the workload's processes by session, descent and cgroup, sends each SIGTERM and then SIGKILL after
// the grace, and rescans on a timer until none is alive; workloadsweep.cpp says which processes it takes.
#include <QElapsedTimer>
#include <QObject>
#include <QString>
#include <QTimer>

#include <sys/types.h>

#include <set>
#include <utility>

// The sweep of one workload whose reaper died.
class WorkloadSweep : public QObject
{
    Q_OBJECT
public:
    // The workload to sweep and the dead reaper that ran it.
    struct Target
    {
        QString name;                           // the workload, for the log
        pid_t reaperPid = 0;                    // the dead reaper: the workload's session and process group
        unsigned long long reaperStartTime = 0; // its start in clock ticks after boot (/proc/<pid>/stat); 0 if unknown
        QString cgroup;                         // the workload's cgroup folder; empty if none
        QString reaperName = QStringLiteral("idlegpu-reaper"); // live supervisors are never taken for orphans
        int graceMs = 10'000;                   // SIGTERM, then SIGKILL after this; 0 means SIGKILL at once
    };

    explicit WorkloadSweep(const Target &target, QObject *parent = nullptr);

    // Scans and signals once. Returns true when nothing of the workload is left (finished() is then not emitted);
    // otherwise the sweep goes on from the event loop and emits finished() once nothing is left.
    bool start();
    // Sends SIGKILL to everything found, now, without waiting (idlegpu is exiting).
    void killNow();
    // Returns the number of the workload's processes alive at the last scan.
    int remaining() const { return m_remaining; }

    static constexpr int kScanIntervalMs = 50;
    // Returns when `pid` started, in clock ticks after boot (/proc/<pid>/stat); 0 when it cannot be read.
    static unsigned long long startTimeOf(pid_t pid);

Q_SIGNALS:
    void finished();

private:
    bool scan(); // true when nothing is left
    const Target m_target;
    QTimer m_timer;
    QElapsedTimer m_clock; // started by start(); from graceMs on, everything gets SIGKILL
    bool m_killing = false;
    bool m_reaperLeftTree = false; // its session or cgroup held processes at some scan
    int m_remaining = 0;
    std::set<std::pair<pid_t, unsigned long long>> m_members; // (pid, start time) found so far
    std::set<std::pair<pid_t, unsigned long long>> m_terminated; // sent SIGTERM already (once each)
};
