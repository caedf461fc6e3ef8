#include "backends/drmbackend.h"

#include "backends/drmholders.h"
#include "backends/drmsysfs.h"

bool DrmBackend::covers(const GpuDevice &gpu) const
{
    return gpu.isDrm();
}

QList<GpuInfo> DrmBackend::refresh(const DeviceNodes &devices)
{
    QList<GpuInfo> gpus;
    for (const GpuDevice &device : devices.gpus) {
        if (!covers(device) || device.sysfsDevice.isEmpty())
            continue;
        GpuInfo info = readDrmSysfsGpu(device.sysfsDevice);
        info.index = device.index;
        gpus.append(info);
    }
    return gpus;
}

void DrmBackend::judgeHolders(QList<Holder> &holders, const DeviceNodes &devices, const QString &procRoot) const
{
    mergeDrmUsage(holders, devices, procRoot);
}
