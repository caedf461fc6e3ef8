// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The interface of the GPU backends, which tell about each GPU beyond its device node (name, UUID, bus id, metrics,
// the processes using it) and what each holder does there. They are sampled at a modest rate, never on the
// preemption path.
#include "model/gpumetrics.h"
#include "model/snapshot.h"

#include <QHash>
#include <QList>
#include <QString>

#include <memory>
#include <optional>

// One source of what a GPU is and does beyond its device node, nvtop-style: a vendor library for NVIDIA GPUs
// (NVML), the kernel's DRM interfaces (sysfs, fdinfo) for AMD and Intel ones. Each speaks for the GPUs it covers:
// their identity and metrics, and what each holder does there (busy_when).
class GpuBackend
{
public:
    virtual ~GpuBackend() = default;
    virtual QString name() const = 0;              // "NVML", "DRM"
    virtual bool available() const = 0;            // settled at construction
    virtual QString unavailableReason() const = 0; // why it is not available, for the log and the status

    // Returns whether it names and measures this GPU and can judge what its holders do there. It is asked when the
    // devices change, not per scan, because the answer may cost a stat.
    virtual bool covers(const GpuDevice &gpu) const = 0;
    // The methods below get `covered`: the GPUs that it covers (as covers() said) and the shared nodes.

    // Reads the identity and metrics of the covered GPUs and, where it lists processes, who uses them, and keeps it
    // for judgeHolders(). It is slow (milliseconds for NVML), so it never runs on the preemption path.
    virtual QList<GpuInfo> refresh(const DeviceNodes &covered) = 0;
    // Reads who uses the GPUs and how busy each keeps them, without the slower metrics. It serves to watch, several
    // times a second, whether a holder that only opened a GPU started to compute there (busy_when = computes or
    // memory) or a graphics client got busy (auto).
    virtual void refreshProcesses(const DeviceNodes &covered) { Q_UNUSED(covered) }
    // Gives each holder of a covered GPU what the backend knows it does there (Holder::gpuUse, gpuMemoryBytes), and
    // may add hidden holders. It runs in every scan, so it must read nothing slow.
    virtual void judgeHolders(QList<Holder> &holders, const DeviceNodes &covered, const QString &procRoot) const = 0;
};

// The list of backends that a monitor or --status asks, in order: the vendor library (NVML), then DRM. A GPU is
// judged by the first backend that covers it.
class GpuBackends
{
public:
    GpuBackends(); // only DRM until a vendor library is set
    ~GpuBackends();
    // Replaces the vendor library (NVML; none means node-only mode for NVIDIA GPUs). DRM's backend (sysfs and
    // fdinfo, always available) stays after it.
    void setVendorLibrary(std::unique_ptr<GpuBackend> vendorLibrary);
    // Settles which backend covers which GPU.
    void setDevices(const DeviceNodes &devices);
    const DeviceNodes &devices() const { return m_devices; }

    // Returns whether a backend can tell what a holder does on this GPU.
    bool canJudgeUse(int gpu) const { return m_judgeOf.contains(gpu); }
    bool coversAny() const { return !m_judgeOf.isEmpty(); }
    // Returns the vendor library's state (GpuMetrics::backend, available, unavailableReason) without GPUs.
    GpuMetrics describe() const;

    // Runs GpuBackend::refresh() of each backend that covers a GPU and returns what they read, by GPU index.
    QHash<int, GpuInfo> refresh();
    void refreshProcesses();
    void judgeHolders(QList<Holder> &holders, const QString &procRoot) const;
    // Returns the backend that covers this GPU; nullptr if none does.
    const GpuBackend *judgeOf(int gpu) const { return m_judgeOf.value(gpu); }
    const GpuBackend *vendorLibrary() const { return m_vendorLibrary.get(); }

private:
    // An available backend and the devices it covers, in the order they are asked.
    struct Covering
    {
        GpuBackend *backend = nullptr;
        DeviceNodes covered;
    };

    std::unique_ptr<GpuBackend> m_vendorLibrary;
    std::unique_ptr<GpuBackend> m_drm;
    DeviceNodes m_devices;
    QList<Covering> m_coverings;              // the backends that cover no GPU are left out
    QHash<int, const GpuBackend *> m_judgeOf; // GPU index -> the first backend that covers it
};

// Returns the metrics present, for the status ("37% busy, 12.3 of 140.4 GiB, 54 °C, 231 W"); empty when none is.
QString describeGpuMetrics(const GpuInfo &gpu);

// Returns the UUID of each GPU by idlegpu's index, for CUDA_VISIBLE_DEVICES.
QHash<int, QString> gpuUuidsByIndex(const QList<GpuInfo> &gpus);

// Returns whether the backend's process list of this GPU names only processes that the scan saw (`holders`, the
// visible ones). Then no other user's job uses it, and a hidden holder inferred from node events is stale. Returns
// false when the list could not be read.
bool backendSeesOnlyVisibleProcesses(const GpuInfo &gpu, const QList<Holder> &holders);

// Adds what the backends' process lists know to a scan's holders: their memory and Holder::gpuUse, and the hidden
// holders that the scan could not inspect. The scan stays authoritative for the processes it could read.
void mergeBackendProcesses(QList<Holder> &holders, const QList<GpuInfo> &gpus, const QString &procRoot);
