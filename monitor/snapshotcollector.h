// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The collector that assembles what one scan sees: the GPUs, the processes that hold their nodes, what the GPU
// backends say of those holders, and the facts of the conditions.
#include "backends/gpubackend.h"
#include "base/clock.h"
#include "conditions/conditions.h"
#include "config/config.h"
#include "holders/holderscanner.h"
#include "model/snapshot.h"

#include <functional>

// The places where a collector reads and writes; tests and the demo point them elsewhere.
struct MonitorPaths
{
    QString procRoot = QStringLiteral("/proc");
    QString ptsRoot = QStringLiteral("/dev/pts");
    // Where AMD and Intel render nodes (<device_root>/dri/renderDN) are matched to their PCI devices
    // (<sysfsRoot>/class/drm/renderDN/device); tests point it at a fixture.
    QString sysfsRoot = QStringLiteral("/sys");
    // Where the monitor keeps its WorkLedger across restarts (LedgerStore; the app gives LedgerStore::pathIn() of the config's state folder),
    // which Monitor::lookOnce() only reads; empty means in memory only (tests, the demo).
    QString ledgerPath = QString();
    // Where the monitor writes its heartbeat for Slurm's prolog and health check while [slurm] is enabled
    // (slurm/guardfile.h; the app gives rootRuntimeFolderPath()); empty means none (tests, the demo).
    QString slurmGuardFolder = QString();
    // Where the monitor keeps the user's pause across restarts (PauseStore; the app gives PauseStore::pathIn() of the config's state folder);
    // empty means in memory only (tests, the demo).
    QString pausePath = QString();
};

// The assembler of one scan's Snapshot, as described above.
class SnapshotCollector
{
public:
    // `clock` is the one that the conditions measure idle times on (the monitor's).
    explicit SnapshotCollector(const MonitorPaths &paths = MonitorPaths(),
                               const Clock *clock = SystemClock::instance());

    // Returns the backends: NVML (optional) and DRM. The monitor and --status set the vendor library.
    GpuBackends &backends() { return m_backends; }
    const GpuBackends &backends() const { return m_backends; }
    const MonitorPaths &paths() const { return m_paths; }

    // Returns the GPUs of the configured vendors under device_root, as they are now.
    DeviceNodes scanDevices(const Config &config) const;
    // Sets the GPUs that the next collect() and sampleGpus() look at; the backends settle which covers which.
    void setDevices(const DeviceNodes &devices);
    const DeviceNodes &devices() const { return m_backends.devices(); }

    // Returns each backend's identity and metrics of the GPUs it covers, with the vendor library's state, and hands
    // the temperatures to the heat condition. It is slow: never call it on the preemption path. The caller sets
    // sampledAtMs.
    GpuMetrics sampleGpus();

    // The monitor's calls into a scan while it runs.
    struct Hooks
    {
        // Called with each visible holder the moment the scan finds it, before the rest of /proc is read, so that
        // the monitor can stop a workload there.
        std::function<void(const Holder &)> onHolder;
        // Called after the /proc scan, before the backends judge the holders, so that the monitor adds the hidden
        // holders it infers from node events (the backends may name their pids).
        std::function<void(const HolderScanner::Result &scan, QList<Holder> &holders)> addHidden;
    };
    // Returns a Snapshot of the devices set: their holders, what the backends know they do there, and each condition's
    // fact. The caller sets takenAtMs.
    Snapshot collect(const Config &config, const Hooks &hooks = Hooks()) const;

    // Returns the conditions whose facts every collect() puts in its snapshot.
    Conditions &conditions() { return m_conditions; }

    // The monitor's one-shot look (Monitor::lookOnce()): survey() scans the devices, samples the backends and collects.
    struct Survey
    {
        Snapshot snapshot;
        GpuMetrics gpuMetrics;
    };
    Survey survey(const Config &config);

private:
    MonitorPaths m_paths;
    HolderScanner m_scanner;
    GpuBackends m_backends;
    Conditions m_conditions;
};
