// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The parser of the DRM client usage stats that DRM drivers print in /proc/<pid>/fdinfo/<fd> for an open card or
// render node (the kernel's Documentation/gpu/drm-usage-stats.rst). The parser is pure, so that tests and the fuzzer
// can feed it anything; readDrmFdInfo() reads the files under an injected proc root.
#include <QByteArrayView>
#include <QList>
#include <QMap>
#include <QString>

#include <optional>

// One engine class of one client. Names differ by driver: amdgpu "gfx", "compute", "dma", "dec", "enc", "jpeg";
// i915 "render", "copy", "video", "video-enhance", "compute"; xe "rcs", "bcs", "vcs", "vecs", "ccs", "other".
// Every counter is cumulative since the client opened the node.
struct DrmEngineUsage
{
    std::optional<qint64> busyNs;      // drm-engine-<name>: time busy with this client's work (amdgpu, i915)
    std::optional<qint64> cycles;      // drm-cycles-<name>: GPU cycles busy with this client's work (xe)
    std::optional<qint64> totalCycles; // drm-total-cycles-<name>: the GPU clock the cycles count against (xe)
    std::optional<qint64> capacity;    // drm-engine-capacity-<name>: identical engines in the class; absent is 1

    qint64 capacityOrOne() const { return capacity.value_or(1); }
    bool operator==(const DrmEngineUsage &) const = default;
};

// The memory of one client in one region, in bytes. Region names: amdgpu "vram", "gtt", "cpu"; i915 "system0",
// "local0", "stolen-system0"; xe "system", "gtt", "vram0", "stolen".
struct DrmRegionMemory
{
    std::optional<qint64> total;        // drm-total-<region>: all buffers, instantiated or not
    std::optional<qint64> shared;       // drm-shared-<region>
    std::optional<qint64> resident;     // drm-resident-<region>: buffers with their backing store present
    std::optional<qint64> purgeable;    // drm-purgeable-<region>
    std::optional<qint64> active;       // drm-active-<region>
    std::optional<qint64> legacyMemory; // drm-memory-<region>: amdgpu's deprecated alias of resident

    // Returns what the region holds now: resident, else its deprecated alias (amdgpu before kernel 6.11 prints only
    // that).
    std::optional<qint64> residentBytes() const { return resident ? resident : legacyMemory; }
    bool operator==(const DrmRegionMemory &) const = default;
};

// The DRM part of one fdinfo file: one open DRM file of one process.
struct DrmFdInfo
{
    QString driver;                  // drm-driver: "amdgpu", "i915", "xe"; never empty in a parsed value
    QString pdev;                    // drm-pdev: PCI slot, lower case, "0000:03:00.0"; empty when absent or garbled
    std::optional<quint64> clientId; // drm-client-id: several fds (dup, fork) may share one client
    QMap<QString, DrmEngineUsage> engines;
    QMap<QString, DrmRegionMemory> regions;

    // Returns the GPU memory that this client uses in bytes: its device-local memory, or on an integrated GPU the
    // system memory the GPU maps for it. Absent when no counted region says how much is resident.
    std::optional<qint64> gpuMemoryBytes() const;
    // Returns whether the client ran work on a compute engine; absent when the driver reports no engine time. It sees
    // OpenCL, Vulkan and Level Zero, not ROCm or HIP, which go through /dev/kfd.
    std::optional<bool> usedCompute() const;
};

// Parses the text of /proc/<pid>/fdinfo/<fd>; nullopt when it names no DRM driver. Lines that break the format are
// skipped, never guessed at, and a key that repeats keeps its first value.
std::optional<DrmFdInfo> parseDrmFdInfo(QByteArrayView text);

// One process's use of one GPU, from all its DRM fds on that GPU.
struct DrmGpuUsage
{
    QString pdev;   // the GPU's PCI slot; empty when the driver does not say
    QString driver;
    int clients = 0; // distinct DRM clients (fds sharing a client id count once)
    std::optional<qint64> gpuMemoryBytes;  // summed over the clients that say (DrmFdInfo::gpuMemoryBytes)
    std::optional<bool> usedCompute;       // true if one client did; false if every client says it did not
    QMap<QString, DrmEngineUsage> engines; // summed over the clients (total cycles take the latest clock)
};

// Groups the fdinfo of one process's DRM fds by GPU (drm-pdev and driver). Fds with the same client id on the
// same GPU are one client, counted once; fds without a client id cannot be told apart and count each.
QList<DrmGpuUsage> drmUsageByGpu(const QList<DrmFdInfo> &fds);

// Returns how busy an engine class was between two samples of one client or process, 0..100 % of its capacity;
// `elapsedNs` is the wall time between them. Absent when neither pair of counters is in both samples.
std::optional<double> drmEngineBusyPercent(const DrmEngineUsage &earlier, const DrmEngineUsage &later,
                                           qint64 elapsedNs);

// Reads and parses <procRoot>/<pid>/fdinfo/<fd>; nullopt when the file is gone (the fd closed, the process
// ended), unreadable, or not a DRM fd. At most 64 KiB is read; a longer file loses its cut last line.
std::optional<DrmFdInfo> readDrmFdInfo(const QString &procRoot, qint64 pid, int fd);

// Runs readDrmFdInfo() over the given fds of a process (those that point at a DRM node) and groups the results
// with drmUsageByGpu().
QList<DrmGpuUsage> readDrmUsageOfProcess(const QString &procRoot, qint64 pid, const QList<int> &fds);
