// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The functions that tell what the holders of AMD and Intel GPUs do there, from the kernel's per-client DRM stats in
// /proc/<pid>/fdinfo: the counterpart of NVML's process lists for the busy_when option and the status.
#include "backends/drmfdinfo.h"
#include "model/snapshot.h"

#include <QHash>
#include <QList>
#include <QString>

#include <functional>

// The engine counters that each DRM client of each process showed at its previous look, to tell how busy the client
// has kept its GPU since. The DRM backend keeps one across scans, because the kernel gives cumulative counters only.
class DrmEngineHistory
{
public:
    // Two looks at a client closer together than this tell little (a scan right after a watch), so the last figure
    // stands and the next look measures from the earlier sample.
    static constexpr qint64 kMinWindowMs = 100;

    // Takes in the DRM clients of one process, read at the monotonic `nowMs`, and returns by GPU (drm-pdev) the
    // busiest engine class's share of the time since the previous look, 0..100. A GPU whose clients are all new is
    // left out.
    QHash<QString, int> busyPercentByGpu(qint64 pid, const QList<DrmFdInfo> &clients, qint64 nowMs);
    // Forgets the processes that `alive` says are gone.
    void prune(const std::function<bool(qint64 pid)> &alive);
    bool knows(qint64 pid) const { return m_clients.contains(pid); }

private:
    struct ClientSample
    {
        QString pdev;
        QMap<QString, DrmEngineUsage> engines;
        qint64 atMs = 0;
        // Each engine class's share since the look before; absent on the first look or when no counter compares.
        std::optional<QMap<QString, double>> percents;
    };
    QHash<qint64, QHash<quint64, ClientSample>> m_clients; // by pid, then drm-client-id
};

// Gives each visible holder of an AMD or Intel GPU its Holder::gpuUse there: whether it computes, its resident GPU
// memory and, with a `history`, its busy share since the previous look. In doubt a holder counts as computing.
void mergeDrmUsage(QList<Holder> &holders, const DeviceNodes &devices, const QString &procRoot,
                   DrmEngineHistory *history = nullptr, qint64 nowMs = 0);
