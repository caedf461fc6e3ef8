// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// What the GPU backends (NVML, DRM) read of each GPU: identity, metrics and the processes using it.
#include <QHash>
#include <QList>
#include <QString>

#include <optional>

// A process the vendor library says uses a GPU.
struct GpuProcessUse
{
    qint64 pid = 0;
    std::optional<qint64> usedMemoryBytes; // absent when the driver does not say (no permission, MIG)
    bool graphics = false;                 // from the graphics list only, else the compute list
    // The largest share of the GPU's SMs its work took in the library's samples of the last window (NVML
    // per-process utilization; 0 when it has none there, as NVML samples only processes that used the GPU);
    // absent when the library cannot say.
    std::optional<int> busyPercent = std::nullopt;
};

struct GpuInfo
{
    int index = -1;        // ours: the N of /dev/nvidiaN (device minor number); -1 when the library cannot say
    int backendIndex = -1; // the library's own numbering (nvidia-smi's index)
    QString name;          // "NVIDIA H200"
    QString uuid;          // "GPU-8f0c..."; what CUDA_VISIBLE_DEVICES accepts
    QString busId;         // "00000000:19:00.0"
    // Each metric is absent when the library lacks it or answers with an error.
    std::optional<int> utilizationPercent;
    std::optional<qint64> memoryUsedBytes;
    std::optional<qint64> memoryTotalBytes;
    std::optional<int> temperatureCelsius;
    std::optional<int> powerMilliwatts;
    // The GPU's energy counter (NVML: since the driver loaded; hwmon energy1_input): only differences between two
    // samples mean something. Absent where the GPU or the driver has none; the power is integrated instead.
    std::optional<qint64> energyMillijoules;
    bool processesKnown = false; // the process lists could be read
    QList<GpuProcessUse> processes;
};

// The backends' view as the status shows it.
struct GpuMetrics
{
    QString backend;            // the vendor library whose absence means node-only mode ("NVML"); empty: none
    bool available = false;
    QString unavailableReason;
    QHash<int, GpuInfo> gpus;   // by our index, from every backend; GPUs no backend covers are left out
    qint64 sampledAtMs = 0;     // monotonic; 0: never
};
