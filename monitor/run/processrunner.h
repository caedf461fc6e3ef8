// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// Runs each workload as a supervised process through idlegpu-reaper (see reaper/reaper.cpp), which puts it
// in a session of its own, adopts anything that forks away, and ends the whole tree when told to or when
// idlegpu dies (even by SIGKILL). When the reaper itself is gone, what it left is swept (run/workloadsweep.h)
// before the workload counts as stopped; where idlegpu has a delegated cgroup (run/containment.h), each workload
// runs in a cgroup of its own. How it starts is a LaunchPlan (run/launchplan.h); its log= file is opened by the
// workload's own process, as the workload's user, and handed to idlegpu (run/workloadlog.h).
#include "base/clock.h"
#include "run/workloadrunner.h"

#include <QHash>
#include <QPointer>
#include <QProcess>

class QTimer;

class ProcessRunner : public WorkloadRunner
{
    Q_OBJECT
public:
    // reaperPath: the idlegpu-reaper executable; empty: defaultReaperPath().
    explicit ProcessRunner(const Clock *clock = SystemClock::instance(), const QString &reaperPath = QString(),
                           QObject *parent = nullptr);
    ~ProcessRunner() override; // kills what still runs (no waiting): the reaper ends the trees

    bool start(const WorkloadConfig &config, const QList<int> &gpus, bool allGpus) override;
    void stop(const QString &id, const QString &reason) override;
    void stopAll(const QString &reason) override;
    void forget(const QString &id) override;
    QHash<QString, WorkloadRuntime> runtimes() const override;
    void setGpuUuids(const QHash<int, QString> &uuidsByIndex) override { m_gpuUuids = uuidsByIndex; }
    void setGpuDevices(const QList<GpuDevice> &devices) override { m_gpuDevices = devices; }

    // The folder the workloads' cgroups are made in (the default: Containment::workloadCgroupParent()); empty:
    // none, the session sweep alone. For tests, which inject a cgroup v2 folder of their own.
    void setCgroupParent(const QString &folder) { m_cgroupParent = folder; }

    // Next to the running executable (build/bin, /usr/libexec/idlegpu), else the build tree's.
    static QString defaultReaperPath();

    // "exit code 3", "killed by signal 9 (SIGKILL)": the reaper exits the way the workload did, so its exit is the
    // workload's.
    static QString describeExit(QProcess::ExitStatus status, int code);
    // "GPUs 0,1", "all GPUs", "no GPU"
    static QString describeGpus(const QList<int> &gpus, bool allGpus);
    // The wait before the next try after this many failures in a row: kFirstBackoffMs doubling to kMaxBackoffMs.
    static qint64 backoffMs(int consecutiveFailures);

    // Backoff after a workload exits by itself: 5 s doubling to 10 min; a run longer than this resets it.
    static constexpr qint64 kFirstBackoffMs = 5'000;
    static constexpr qint64 kMaxBackoffMs = 600'000;
    static constexpr qint64 kCleanRunMs = 600'000;
    // After the SIGUSR1 (reaper: SIGKILL the tree), how long before the reaper itself gets SIGKILL.
    static constexpr int kReaperKillDelayMs = 2'000;
    // runtime.lastOutput keeps this many lines of the last run, each cut to kMaxOutputLineChars.
    static constexpr int kMaxOutputLines = 20;
    static constexpr int kMaxOutputLineChars = 500;

private:
    struct Entry;
    void onFinished(const QString &id);
    // What onFinished() does once nothing of the workload is left: Stopped, or a backoff.
    void finishRun(const QString &id, QProcess::ExitStatus exitStatus, int exitCode);
    void releaseCgroup(Entry &entry);
    void onEscalation(const QString &id);
    void appendOutput(const QString &id, const QByteArray &bytes);
    void addOutputLine(Entry &entry, const QByteArray &line);
    void writeLogLine(Entry &entry, const QString &line);
    bool failToStart(Entry &entry, const QString &message);
    // State BackingOff after a failed start or an unasked exit; `what` is the warning's first words.
    void backOff(Entry &entry, const QString &lastExit, const QString &what);
    void maybeEmitAllStopped();

    const Clock *m_clock;
    QString m_reaperPath;
    QString m_cgroupParent;
    QHash<QString, Entry *> m_entries;
    bool m_stoppingAll = false;
    QHash<int, QString> m_gpuUuids;
    QList<GpuDevice> m_gpuDevices;
};
