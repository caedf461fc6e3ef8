// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "backends/drmbackend.h"

#include "backends/drmholders.h"
#include "backends/drmsysfs.h"
#include "base/clock.h"

#include <QFileInfo>

DrmBackend::DrmBackend(const Clock *clock) : m_clock(clock ? clock : SystemClock::instance()) {}

bool DrmBackend::covers(const GpuDevice &gpu) const
{
    return gpu.isDrm();
}

QList<GpuInfo> DrmBackend::refresh(const DeviceNodes &covered)
{
    QList<GpuInfo> gpus;
    for (const GpuDevice &device : covered.gpus) {
        if (!covers(device) || device.sysfsDevice.isEmpty())
            continue;
        GpuInfo info = readDrmSysfsGpu(device.sysfsDevice);
        info.index = device.index;
        gpus.append(info);
    }
    return gpus;
}

void DrmBackend::judgeHolders(QList<Holder> &holders, const DeviceNodes &covered, const QString &procRoot) const
{
    mergeDrmUsage(holders, covered, procRoot, &m_history, m_clock->nowMs());
    m_history.prune([&procRoot](qint64 pid) {
        return QFileInfo::exists(QStringLiteral("%1/%2").arg(procRoot).arg(pid)); // gone: its clients are closed
    });
}
