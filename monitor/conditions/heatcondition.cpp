// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "conditions/heatcondition.h"

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
