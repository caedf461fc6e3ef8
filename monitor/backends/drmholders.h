#pragma once
// What the holders of AMD and Intel GPUs do there, from the kernel's per-client DRM stats in
// /proc/<pid>/fdinfo: the counterpart of NVML's process lists for the busy_when option and the status.
#include "policy/snapshot.h"

#include <QList>
#include <QString>

// Gives each visible holder of an AMD or Intel GPU its Holder::gpuUse there: it computes when it holds /dev/kfd
// (ROCm, AMD only) or ran work on a compute engine; its memory is the GPU memory resident for it. A holder whose
// fdinfo cannot say whether it computed counts as computing (in doubt the GPU is busy); one whose fdinfo says
// nothing at all (an older kernel, another user's process) is left without gpuUse, which means the same.
void mergeDrmUsage(QList<Holder> &holders, const DeviceNodes &devices, const QString &procRoot);
