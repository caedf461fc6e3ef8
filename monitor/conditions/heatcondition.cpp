// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "conditions/heatcondition.h"

// The readings come from the GPU backends' samples (the monitor's poll and the status window's sampling), which a scan
// follows at once, so the condition needs no watcher of its own; whether a GPU is hot, with the kCoolDownCelsius of
// hysteresis, is the policy's to judge (PolicyMemory::hotGpus).

void HeatCondition::takeSample(const QHash<int, GpuInfo> &gpus)
{
    m_celsiusByGpu.clear();
    for (const GpuInfo &info : gpus)
        if (info.temperatureCelsius)
            m_celsiusByGpu.insert(info.index, *info.temperatureCelsius);
}

void HeatCondition::fill(const Config &, Snapshot &snapshot) const
{
    // Whatever max_temperature_c says: the status shows the temperatures either way.
    snapshot.temperatures = m_celsiusByGpu;
}
