// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The base that the runners whose commands run through idlegpu-reaper share: ProcessRunner (the workload itself) and
// ControlCommandRunner (a service's start_cmd and stop_cmd). It keeps an Entry per workload and the backoff;
// ReaperRunnerOf below keeps each runner's own kind of entry.
#include "base/clock.h"
#include "run/launchplan.h"
#include "run/workloadlog.h"
#include "run/workloadrunner.h"

#include <QHash>
#include <QProcess>

#include <map>
#include <memory>

// The base of the runners whose commands run through idlegpu-reaper.
class ReaperRunner : public WorkloadRunner
{
    Q_OBJECT
public:
    void setGpuUuids(const QHash<int, QString> &uuidsByIndex) override { m_gpuUuids = uuidsByIndex; }
    void setGpuDevices(const QList<GpuDevice> &devices) override { m_gpuDevices = devices; }

    // Returns the reaper next to the running executable (build/bin, /usr/libexec/idlegpu), else the build tree's.
    static QString defaultReaperPath();

    // Returns "exit code 3" or "killed by signal 9 (SIGKILL)". The reaper exits the way the workload did, so its
    // exit is the workload's.
    static QString describeExit(QProcess::ExitStatus status, int code);
    // Returns "GPUs 0,1", "all GPUs" or "no GPU".
    static QString describeGpus(const QList<int> &gpus, bool allGpus);
    // Returns the wait before the next try after this many failures in a row: kFirstBackoffMs doubling up to
    // kMaxBackoffMs.
    static qint64 backoffMs(int consecutiveFailures);

    // The backoff after a failure: 5 s, doubling up to 10 min.
    static constexpr qint64 kFirstBackoffMs = 5'000;
    static constexpr qint64 kMaxBackoffMs = 600'000;
    // The delay after the SIGUSR1 (which tells the reaper to SIGKILL the tree) before the reaper itself gets SIGKILL.
    static constexpr int kReaperKillDelayMs = 2'000;
    // The number of lines that runtime.lastOutput keeps, each cut to kMaxOutputLineChars.
    static constexpr int kMaxOutputLines = 20;
    static constexpr int kMaxOutputLineChars = 500;

    // What a runner keeps of each workload it knows; each runner's own entry derives from this one.
    struct Entry
    {
        WorkloadConfig config;
        WorkloadRuntime runtime;
        bool allGpus = false;        // started with gpus=ALL, so without CUDA_VISIBLE_DEVICES
        QProcess *process = nullptr; // the reaper that runs now; null when none
        QString stopReason;
        WorkloadLog log; // the log= file, open while something runs

        QString name() const { return config.name.isEmpty() ? config.id : config.name; }
        QString gpus() const { return describeGpus(runtime.gpus, allGpus); }
    };

protected:
    // `reaperPath` is the idlegpu-reaper executable; empty means defaultReaperPath().
    ReaperRunner(const Clock *clock, const QString &reaperPath, QObject *parent);

    // Returns what the plans of this runner's commands start from.
    LaunchContext launchContext() const;
    // Returns the cgroup that the log writers of this runner's commands move to, WorkloadCgroup::logWritersPath()
    // under `cgroupParent`, made when missing; empty without a parent, or with *error when it cannot be made.
    static QString logWritersCgroup(const QString &cgroupParent, QString *error);
    QString reaperPath() const { return m_reaperPath; }
    QList<GpuDevice> gpuDevices() const { return m_gpuDevices; }

    // Begins a new run of `entry`: its config and GPUs, without the last run's output or stop reason.
    static void beginRun(Entry &entry, const WorkloadConfig &config, const QList<int> &gpus, bool allGpus);
    // Puts the workload in state BackingOff (retryAtMs after backoffMs()) after a failed start or an unasked end;
    // `what` is the warning's first words.
    void backOff(Entry &entry, const QString &lastExit, const QString &what);
    // Reports the failure in `message` (to the log where it is open, then with the last output as a warning) and emits
    // runtimeChanged() and workloadFailed().
    void reportFailure(Entry &entry, QString message);
    // Lets a reaper go as the runner goes: a reaper still running gets SIGTERM (no waiting) and ends its tree itself;
    // its QProcess deletes itself when it exits. ~QProcess would SIGKILL the reaper and wait, orphaning the tree.
    void letReaperEndTree(Entry &entry);
    // Reports that forget() keeps `entry`, for `why`.
    static void warnNotForgetting(const Entry &entry, const QString &why);

    const Clock *m_clock;

private:
    QString m_reaperPath;
    QHash<int, QString> m_gpuUuids;
    QList<GpuDevice> m_gpuDevices;
};

// A ReaperRunner that owns its workloads' entries, each of its own kind `RunnerEntry` (a ReaperRunner::Entry), and
// does forget(), runtimes() and stopAll() over them. The runner says what differs through the three hooks below.
template <typename RunnerEntry>
class ReaperRunnerOf : public ReaperRunner
{
public:
    void stopAll(const QString &reason) override
    {
        m_stoppingAll = true;
        QStringList ids; // stopping emits signals whose slots may change m_entries
        for (const auto &[id, entry] : m_entries)
            ids.append(id);
        for (const QString &id : std::as_const(ids))
            stopForAll(id, reason);
        // Emits allStopped() from the event loop, even when nothing ran: the caller connects to allStopped() after
        // calling.
        QMetaObject::invokeMethod(this, [this] { maybeEmitAllStopped(); }, Qt::QueuedConnection);
    }
    void forget(const QString &id) override
    {
        const auto found = m_entries.find(id);
        if (found == m_entries.end())
            return;
        if (const QString why = whyKept(*found->second); !why.isEmpty()) {
            warnNotForgetting(*found->second, why);
            return;
        }
        m_entries.erase(found);
    }
    QHash<QString, WorkloadRuntime> runtimes() const override
    {
        QHash<QString, WorkloadRuntime> result;
        for (const auto &[id, entry] : m_entries)
            result.insert(id, entry->runtime);
        return result;
    }

protected:
    using ReaperRunner::ReaperRunner;
    ~ReaperRunnerOf() override
    {
        for (const auto &[id, entry] : m_entries)
            letReaperEndTree(*entry);
    }

    // Returns the entry of workload `id`; null when the runner does not know it.
    RunnerEntry *entryOf(const QString &id) const
    {
        const auto found = m_entries.find(id);
        return found != m_entries.end() ? found->second.get() : nullptr;
    }
    // Returns the entry of workload `id`, made (with `made` called on it) when the runner does not know it yet.
    template <typename Made>
    RunnerEntry &entryFor(const QString &id, Made made)
    {
        std::unique_ptr<RunnerEntry> &entry = m_entries[id];
        if (!entry) {
            entry = std::make_unique<RunnerEntry>();
            entry->runtime.id = id;
            made(*entry);
        }
        return *entry;
    }
    // Emits allStopped(), after stopAll(), once no entry is stopPending().
    void maybeEmitAllStopped()
    {
        if (!m_stoppingAll)
            return;
        for (const auto &[id, entry] : m_entries)
            if (stopPending(*entry))
                return;
        m_stoppingAll = false;
        emit allStopped();
    }
    bool stoppingAll() const { return m_stoppingAll; }

    std::map<QString, std::unique_ptr<RunnerEntry>> m_entries; // by workload id

private:
    // Returns why forget() keeps `entry` ("it still runs"); empty when it may go.
    virtual QString whyKept(const RunnerEntry &entry) const = 0;
    // Returns whether the entry's stop is pending; stopAll() is not done while one is.
    virtual bool stopPending(const RunnerEntry &entry) const = 0;
    // Stops one workload for stopAll().
    virtual void stopForAll(const QString &id, const QString &reason) { stop(id, reason); }

    bool m_stoppingAll = false; // from stopAll() until allStopped()
};
