#pragma once
// What the holders of AMD and Intel GPUs do there, from the kernel's per-client DRM stats in
// /proc/<pid>/fdinfo: the counterpart of NVML's process lists for the busy_when option and the status.
#include "backends/gpubackend.h"
#include "policy/snapshot.h"

#include <QHash>

#include <QList>
#include <QString>

// Gives each visible holder of an AMD or Intel GPU its Holder::gpuUse there: it computes when it holds /dev/kfd
// (ROCm, AMD only) or ran work on a compute engine; its memory is the GPU memory resident for it. A holder whose
// fdinfo cannot say whether it computed counts as computing (in doubt the GPU is busy); one whose fdinfo says
// nothing at all (an older kernel, another user's process) is left without gpuUse, which means the same.
void mergeDrmUsage(QList<Holder> &holders, const DeviceNodes &devices, const QString &procRoot);

// What the GPU backends say of a scan's holders: the NVML sample for NVIDIA GPUs (mergeBackendProcesses: pids of
// hidden holders, jobs of other users, gpuUse) and fdinfo for AMD and Intel ones (mergeDrmUsage). The one place
// the monitor, its open-only watch and --status take it from.
void mergeGpuUse(QList<Holder> &holders, const QList<GpuInfo> &backendSample, const DeviceNodes &devices,
                 const QString &procRoot);

// Name and metrics of each AMD and Intel GPU from sysfs (drmsysfs.h), by index; NVIDIA's come from NVML.
QHash<int, GpuInfo> drmGpuMetrics(const DeviceNodes &devices);
