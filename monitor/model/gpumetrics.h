// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The value types of what the GPU backends (NVML, DRM) read of each GPU: its identity, its metrics and the
// processes that use it.
#include <QHash>
#include <QList>
#include <QString>

#include <optional>

// A process that the vendor library says uses a GPU.
struct GpuProcessUse
{
    qint64 pid = 0;
    std::optional<qint64> usedMemoryBytes; // absent when the driver does not say (no permission, MIG)
    bool graphics = false;                 // from the graphics list only, else from the compute list
    // The largest share of the GPU's SMs that its work took in the library's samples of the last window (NVML
    // per-process utilization; 0 when it has none there, as NVML samples only processes that used the GPU);
    // absent when the library cannot say.
    std::optional<int> busyPercent = std::nullopt;
};

// One GPU as a backend reads it: identity, metrics and the processes that use it.
struct GpuInfo
{
    int index = -1;        // idlegpu's: the N of /dev/nvidiaN (device minor); -1 when the library cannot say
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
    // The GPU's energy counter (NVML's counts since the driver loaded; hwmon's energy1_input): only the difference
    // between two samples means something. Absent where the GPU or the driver has none; the power is integrated then.
    std::optional<qint64> energyMillijoules;
    bool processesKnown = false; // whether the process lists could be read
    QList<GpuProcessUse> processes;
};

// The backends' view of every GPU, as the status shows it.
struct GpuMetrics
{
    QString backend;            // the vendor library whose absence means node-only mode ("NVML"); empty if none
    bool available = false;
    QString unavailableReason;
    QHash<int, GpuInfo> gpus;   // by idlegpu's index, from every backend; GPUs that no backend covers are left out
    qint64 sampledAtMs = 0;     // monotonic; 0 means never
};
