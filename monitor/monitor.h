// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The monitor is idlegpu's engine: it answers each open of a GPU's node with a scan, a decision and the stops and
// starts that the decision asks for (the preemption path, all of it here), and composes the parts that work beside it.
#include "backends/gpubackend.h"
#include "base/clock.h"
#include "conditions/condition.h"
#include "conditions/presence.h"
#include "config/config.h"
#include "devices/nodewatcher.h"
#include "gpusampler.h"
#include "holders/hiddenholders.h"
#include "holders/holderscanner.h"
#include "model/monitorstate.h"
#include "model/snapshot.h"
#include "policy/policy.h"
#include "run/workloadrunner.h"
#include "slurm/guardfile.h"
#include "snapshotcollector.h"

#include <QObject>
#include <QPointer>

#include <memory>

class ConfigReloader;
class DeviceFolderWatcher;
class LedgerKeeper;
class MetricsTextFile;
class QTimer;
namespace SlurmGuard {
class GuardKeeper;
}

// idlegpu's engine, as described above.
class Monitor : public QObject
{
    Q_OBJECT
public:
    Monitor(const QString &configPath, WorkloadRunner *runner, const Clock *clock = SystemClock::instance(),
            const MonitorPaths &paths = MonitorPaths(), QObject *parent = nullptr);
    ~Monitor() override;

    // Loads the config and starts watching. Returns false when the config cannot be used at all (the
    // problems are in state().configProblems); nothing is started then.
    bool start();
    // Makes a missing config file "not set up yet" (state().notSetUp) instead of a failure of start(): the monitor
    // runs with `placeholder` until the file appears. Call before start().
    void acceptMissingConfig(const Config &placeholder = Config());
    // Stops every workload (SIGTERM, SIGKILL after their stop timeout), then emits shutdownFinished().
    void shutdown();

    // The user's pause, which the monitor keeps (MonitorPaths::pausePath) across restarts. untilMs is the monotonic
    // time at which the pause ends by itself; 0: until resumed.
    void setPausedAll(bool paused, qint64 untilMs = 0);
    void setWorkloadPaused(const QString &id, bool paused, qint64 untilMs = 0);
    void setPause(const PauseState &pause);
    // Ends the pause of all and of each workload.
    void resumeAll();
    // Takes what the tray's desktop says of its session ([activity] pause_while_active), which refines logind's word
    // on it. It is ignored while pause_while_active is off.
    void setDesktopIdle(const DesktopIdleReport &report);

    // Sets the vendor library (NVML), which the monitor then owns, beside the DRM backend that is always there. Set
    // before start(); without one, NVIDIA GPUs are watched from device nodes only.
    void setGpuBackend(std::unique_ptr<GpuBackend> backend);
    // Says whether someone looks at the metrics (status window, tray menu); while someone does, the GPUs are sampled
    // every kGpuSampleMs.
    void setGpuSamplingWanted(bool wanted);
    static constexpr int kGpuSampleMs = GpuSampler::kSampleMs;
    static constexpr int kOpenOnlyWatchMs = GpuSampler::kOpenOnlyWatchMs;
    // The period of the monitor thread's pulse: a beat later than kHeartbeatMs + kHeartbeatLateMs means it did not run
    // meanwhile (stopped by SIGSTOP, a blocked loop), and an open read then may have waited since the last beat.
    static constexpr int kHeartbeatMs = 1000;
    static constexpr int kHeartbeatLateMs = 250;

    MonitorState state() const;
    QString configPath() const;
    const Clock *clock() const { return m_clock; } // the clock of the state's monotonic times
    // Returns what a running monitor would see now and would run as if every start delay had passed, from one scan
    // and one decision with `config` (`--status`, the settings dialog on its own); nothing is started, written or
    // locked. It blocks on logind (1 s at most) and Slurm, so never call it on a running monitor's thread.
    // `vendorLibrary` (NVML), when given, adds names, UUIDs, metrics and other users' processes on NVIDIA GPUs.
    static MonitorState lookOnce(const Config &config, const MonitorPaths &paths = MonitorPaths(),
                                 std::unique_ptr<GpuBackend> vendorLibrary = nullptr);
    // Whether holders the scan cannot see are inferred from node events whenever a process is unreadable: by default
    // when not root. Root infers only where the kernel refuses it a process (HolderScanner::Result::refusedProcesses).
    // Tests set it over a fake proc root with an unreadable process, as another user's is.
    void setInferHiddenHolders(bool infer) { m_inferHiddenHolders = infer; }

public Q_SLOTS:
    void reloadConfig();
    void rescan();
    // Asks the GPU backend now, then rescans so that the processes it names are holders.
    void sampleGpus();

private:
    bool anyWorkloadRunning() const;

Q_SIGNALS:
    void stateChanged();
    void preempted(const PreemptionEvent &event);
    void workloadFailed(const QString &id, const WorkloadRuntime &runtime);
    void configRejected(const QList<ConfigDiagnostic> &problems); // a broken edit; the last good config stays
    void shutdownFinished();

private:
    // What addHiddenHolders() leaves for the rest of a scan to answer.
    struct EventsDuringScan
    {
        NodeEvents taken;         // the node events queued while the scan ran, which it took
        bool provisional = false; // an open that no visible process explains yet
    };

    bool applyConfig(const ConfigLoadResult &result, bool initial);
    // The fallback poll, every interval_seconds: the conditions read what no event announces, then a sample and a scan.
    void poll();
    void updateDevices();
    void onNodeEvents(const NodeEvents &events);
    void absorbEvents(const NodeEvents &events);
    // During a scan, after /proc: a hidden holder for each GPU where opens that no visible process explains say another
    // user's job holds it (the events queued meanwhile count too); `events` gets what the scan must still answer.
    void addHiddenHolders(const HolderScanner::Result &scan, QList<Holder> &holders, EventsDuringScan *events);
    // After a scan: look again at once at an open nobody explains yet, a watch lost or an open while a workload runs,
    // and soon at any other event the scan took.
    void scheduleRecheck(const EventsDuringScan &events);
    void preemptEarly(const Holder &scanned);
    void apply(const Decision &decision);
    void scheduleWake(qint64 wakeAtMs);
    // Decides again, as soon as the condition asks, after a condition's fact changed.
    void onConditionChanged(Condition::Rescan when);
    // Returns the text of [metrics] textfile now, with the ledger counted up to now; the last file, once every
    // workload has stopped, has idlegpu_up 0.
    QByteArray renderMetrics();
    // Reports a preemption: its open-to-stop time, the log line and the ledger's record, then preempted().
    void reportPreemption(PreemptionEvent event, const QString &reason);
    // Returns the time from the earliest unanswered open of the culprit's GPU node (or of nvidia-uvm or kfd, which
    // make it a compute client) to now; absent when none waits, because a poll or a backend found the job.
    std::optional<double> openToStopMs(const Holder &culprit, int gpu) const;
    // Returns the earliest time at which an open whose event was read at readAtNs may have happened: readAtNs while
    // the monitor thread keeps its heartbeat, else the last beat, since the thread did not run after it and the event
    // may have waited since.
    qint64 earliestOpenNs(qint64 readAtNs) const;
    void onHeartbeat();
    // Applies a change of the pause: saves it (when it changed) and decides again.
    void changePause(const PauseState &pause);
    void savePause(); // to m_pausePath, where there is one
    // Returns the Slurm guard's GPUs with the verdicts of the last decision (SlurmGuard::gpusOfDecision).
    QList<SlurmGuard::GuardGpu> slurmGuardGpus() const;
    // Decides again soon after a workload's state changed.
    void onRuntimeChanged();
    // Writes the last words of the ledger, the metrics file and the Slurm guard once every workload has stopped after
    // shutdown().
    void finishShutdown();
    // Forgets the opens read before a scan began, which the scan has answered, except those it could not explain yet
    // (provisional).
    void forgetAnsweredOpens(qint64 scanStartNs);

    WorkloadRunner *m_runner;
    const Clock *m_clock;
    qint64 m_selfPid;
    bool m_inferHiddenHolders; // not as root: root sees every holder but those refused it

    Config m_fileConfig; // as read from the file
    Config m_config;     // in force: the file's, with the workloads it implies for the GPUs present
    QList<ConfigDiagnostic> m_configProblems;
    Snapshot m_snapshot;
    Decision m_decision;
    PolicyMemory m_memory;
    PauseState m_pause;
    QString m_pausePath;           // MonitorPaths::pausePath
    bool m_pauseLoaded = false;    // from m_pausePath, at the first start()
    SnapshotCollector m_collector; // the scanners, the GPU backends, the GPUs present and the conditions
    HiddenHolderTracker m_hidden;
    NodeEvents m_pendingEvents;            // opens and closes not yet weighed by a scan
    QHash<QString, qint64> m_openReadAtNs; // node path -> earliestOpenNs() of its earliest unanswered open
    qint64 m_heartbeatNs = 0;              // monotonicNowNs() of the last heartbeat; 0 before start()

    // The preemption path's own: the node watch, and the clocks that call a scan.
    NodeWatcher *m_nodeWatcher = nullptr;
    QTimer *m_pollTimer = nullptr;      // the fallback poll
    QTimer *m_wakeTimer = nullptr;      // the policy's next moment (end of a start delay, a retry)
    QTimer *m_coalesceTimer = nullptr;  // events that need no immediate answer
    QTimer *m_heartbeatTimer = nullptr; // the thread's pulse, for earliestOpenNs()

    // The parts, each with its own clocks.
    ConfigReloader *m_configReloader = nullptr;
    DeviceFolderWatcher *m_deviceFolders = nullptr; // GPUs appearing and going
    GpuSampler *m_gpuSampler = nullptr;
    LedgerKeeper *m_ledger = nullptr;                // with MonitorPaths::ledgerPath
    SlurmGuard::GuardKeeper *m_slurmGuard = nullptr; // with MonitorPaths::slurmGuardFolder
    MetricsTextFile *m_metrics = nullptr;            // [metrics] textfile: written after each stateChanged()
    bool m_metricsUp = true;                         // false once shut down: the last file says idlegpu_up 0

    bool m_started = false;
    bool m_shuttingDown = false;
    bool m_inScan = false;
    // A node's watch was dropped (deleted, replaced, unmounted): watch its path again at the next scan, even
    // when the node is back before the scan, so that the device list looks unchanged.
    bool m_rewatchNodes = false;
};
