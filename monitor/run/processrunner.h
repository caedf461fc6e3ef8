// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The runner of cmd= workloads: it runs each as a supervised process through idlegpu-reaper (see reaper/reaper.cpp),
// which puts it in a session of its own, adopts anything that forks away, and ends the whole tree when told to or when
// idlegpu dies (even by SIGKILL). When the reaper itself is gone, what it left is swept (run/workloadsweep.h) before
// the workload counts as stopped; where idlegpu has a delegated cgroup (run/containment.h), each workload runs in a
// cgroup of its own. How it starts is a LaunchPlan (run/launchplan.h); its log= file is written by a log writer of the
// reaper's, as the workload's user, outside the workload's tree and cgroup (run/workloadlog.h).
#include "run/reaperrunner.h"

#include "run/workloadsweep.h"

#include <QTimer>

#include <memory>

struct ProcessRunnerEntry;

class ProcessRunner : public ReaperRunnerOf<ProcessRunnerEntry>
{
    Q_OBJECT
public:
    // `reaperPath` is the idlegpu-reaper executable; empty means defaultReaperPath().
    explicit ProcessRunner(const Clock *clock = SystemClock::instance(), const QString &reaperPath = QString(),
                           QObject *parent = nullptr);
    ~ProcessRunner() override; // kills what still runs, without waiting; the reapers end the trees

    bool start(const WorkloadConfig &config, const QList<int> &gpus, bool allGpus) override;
    void stop(const QString &id, const QString &reason) override;

    // Sets the folder that the workloads' cgroups are made in (by default Containment::workloadCgroupParent()); empty
    // means none, with the session sweep alone. For tests, which inject a cgroup v2 folder of their own.
    void setCgroupParent(const QString &folder) { m_cgroupParent = folder; }

    // The shortest run that resets the backoff.
    static constexpr qint64 kCleanRunMs = 600'000;

private:
    using Entry = ProcessRunnerEntry;
    QString whyKept(const Entry &entry) const override;
    bool stopPending(const Entry &entry) const override;
    void onFinished(const QString &id);
    // Ends the run once nothing of the workload is left, for onFinished(): Stopped, or a backoff.
    void finishRun(const QString &id, QProcess::ExitStatus exitStatus, int exitCode);
    void releaseCgroup(Entry &entry);
    void onEscalation(const QString &id);
    void appendOutput(const QString &id, const QByteArray &bytes);
    void addOutputLine(Entry &entry, const QByteArray &line);
    bool failToStart(Entry &entry, const QString &message);

    QString m_cgroupParent;
};

// What ProcessRunner keeps of a workload besides what every ReaperRunner keeps.
struct ProcessRunnerEntry : ReaperRunner::Entry
{
    QTimer escalation;          // after a stop, SIGUSR1 at the stop timeout and SIGKILL to the reaper later
    bool killRequested = false; // the escalation has sent SIGUSR1
    bool stopRequested = false;
    QByteArray partialLine;     // the output after the last newline, capped
    QString cgroup;             // the workload's own cgroup while it runs and is swept; empty if none
    unsigned long long reaperStartTime = 0;
    std::unique_ptr<WorkloadSweep> sweep; // after the reaper ended, the sweep of what it left
};
