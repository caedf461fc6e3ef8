#pragma once
// AMD and Intel GPUs without a vendor library: identity and metrics from sysfs (drmsysfs.h), what each holder does
// there from the kernel's per-client DRM stats in /proc/<pid>/fdinfo (drmholders.h). Always available.
#include "backends/gpubackend.h"

class DrmBackend : public GpuBackend
{
public:
    QString name() const override { return QStringLiteral("DRM"); }
    bool available() const override { return true; }
    QString unavailableReason() const override { return QString(); }
    // The AMD and Intel GPUs (render nodes matched to a PCI device in sysfs); NVIDIA's are the vendor library's.
    bool covers(const GpuDevice &gpu) const override;
    // Name and metrics of each covered GPU from its sysfs folder; no process lists (fdinfo is read per holder).
    QList<GpuInfo> refresh(const DeviceNodes &covered) override;
    // mergeDrmUsage: reads the fdinfo of the holders of covered GPUs only.
    void judgeHolders(QList<Holder> &holders, const DeviceNodes &covered, const QString &procRoot) const override;
};
