// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "snapshotcollector.h"

// The collector is the one place where the monitor, `--status` and the settings dialog take a Snapshot from, so that
// they cannot disagree about a GPU. It sees the GPUs under device_root and the conditions' facts (power, presence,
// terminals).

#include "conditions/heatcondition.h"
#include "devices/devicescanner.h"

SnapshotCollector::SnapshotCollector(const MonitorPaths &paths, const Clock *clock)
    : m_paths(paths), m_scanner(paths.procRoot), m_conditions({clock, paths.sysfsRoot, paths.ptsRoot})
{}

DeviceNodes SnapshotCollector::scanDevices(const Config &config) const
{
    return keepVendors(::scanDevices(config.deviceRoot, m_paths.sysfsRoot), config.vendors);
}

void SnapshotCollector::setDevices(const DeviceNodes &devices)
{
    m_backends.setDevices(devices);
}

GpuMetrics SnapshotCollector::sampleGpus()
{
    GpuMetrics metrics = m_backends.describe();
    metrics.gpus = m_backends.refresh();
    m_conditions.heat().takeSample(metrics.gpus);
    return metrics;
}

// The holders are the visible ones, those that `hooks` add and those that the backends name. A condition's fact is as
// its watcher last said (Monitor) or as read once (Conditions::readOnce(), before survey()).
Snapshot SnapshotCollector::collect(const Config &config, const Hooks &hooks) const
{
    Snapshot snapshot;
    snapshot.devices = devices();
    const HolderScanner::Result scan =
        m_scanner.scan(HolderScanner::nodesOf(snapshot.devices), hooks.onHolder, config.slurm.enabled);
    snapshot.holders = scan.holders;
    snapshot.unreadableProcesses = scan.unreadableProcesses;
    if (hooks.addHidden)
        hooks.addHidden(scan, snapshot.holders);
    // NVML: what its last sample named (not asked now: too slow for the preemption path). AMD and Intel GPUs:
    // fdinfo, read now for the holders of those GPUs only.
    m_backends.judgeHolders(snapshot.holders, m_paths.procRoot);
    m_conditions.fill(config, snapshot);
    return snapshot;
}

SnapshotCollector::Survey SnapshotCollector::survey(const Config &config)
{
    setDevices(scanDevices(config));
    Survey survey;
    survey.gpuMetrics = sampleGpus();
    survey.snapshot = collect(config);
    return survey;
}
