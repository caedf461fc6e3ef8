// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// AMD and Intel GPUs without a vendor library: identity and metrics from sysfs (drmsysfs.h), what each holder does
// there from the kernel's per-client DRM stats in /proc/<pid>/fdinfo (drmholders.h). Always available.
#include "backends/drmholders.h"
#include "backends/gpubackend.h"

class Clock;

class DrmBackend : public GpuBackend
{
public:
    // `clock` times the engine counters between two looks at a client (nullptr: the system's).
    explicit DrmBackend(const Clock *clock = nullptr);
    QString name() const override { return QStringLiteral("DRM"); }
    bool available() const override { return true; }
    QString unavailableReason() const override { return QString(); }
    // The AMD and Intel GPUs (render nodes matched to a PCI device in sysfs); NVIDIA's are the vendor library's.
    bool covers(const GpuDevice &gpu) const override;
    // Name and metrics of each covered GPU from its sysfs folder; no process lists (fdinfo is read per holder).
    QList<GpuInfo> refresh(const DeviceNodes &covered) override;
    // mergeDrmUsage: reads the fdinfo of the holders of covered GPUs only, with their busy share since the look
    // before (each scan, and the open-only watch every 200 ms, is a look).
    void judgeHolders(QList<Holder> &holders, const DeviceNodes &covered, const QString &procRoot) const override;

private:
    const Clock *m_clock;
    mutable DrmEngineHistory m_history; // judging is const to callers; the counters seen are the backend's memory
};
