// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The backend for AMD and Intel GPUs, which needs no vendor library: it reads identity and metrics from sysfs
// (drmsysfs.h), and what each holder does there from the kernel's per-client DRM stats in /proc/<pid>/fdinfo
// (drmholders.h). It is always available.
#include "backends/drmholders.h"
#include "backends/gpubackend.h"

class Clock;

class DrmBackend : public GpuBackend
{
public:
    // `clock` times the engine counters between two looks at a client (nullptr means the system's clock).
    explicit DrmBackend(const Clock *clock = nullptr);
    QString name() const override { return QStringLiteral("DRM"); }
    bool available() const override { return true; }
    QString unavailableReason() const override { return QString(); }
    // Covers the AMD and Intel GPUs (render nodes matched to a PCI device in sysfs); NVIDIA's belong to the vendor
    // library.
    bool covers(const GpuDevice &gpu) const override;
    // Reads the name and metrics of each covered GPU from its sysfs folder, without process lists (fdinfo is read
    // per holder).
    QList<GpuInfo> refresh(const DeviceNodes &covered) override;
    // Runs mergeDrmUsage(), which reads the fdinfo of the holders of covered GPUs only, with their busy share since
    // the look before (each scan is a look, and so is each round of the open-only watch, every 200 ms).
    void judgeHolders(QList<Holder> &holders, const DeviceNodes &covered, const QString &procRoot) const override;

private:
    const Clock *m_clock;
    mutable DrmEngineHistory m_history; // judging is const to callers; the counters are the backend's memory
};
