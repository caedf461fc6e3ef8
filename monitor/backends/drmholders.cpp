// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "backends/drmholders.h"

#include "backends/drmfdinfo.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QSet>

#include <algorithm>

#include <dirent.h>
#include <unistd.h>

namespace {
// The fds of a process that point at one of `nodes`, and whether one points at `kfd`.
struct DrmFds
{
    QList<int> fds;
    bool holdsKfd = false;
};

DrmFds drmFdsOf(const QString &procRoot, qint64 pid, const QSet<QByteArray> &nodes, const QByteArray &kfd)
{
    DrmFds result;
    const QByteArray folder = QFile::encodeName(QStringLiteral("%1/%2/fd").arg(procRoot).arg(pid));
    DIR *dir = ::opendir(folder.constData());
    if (!dir)
        return result; // ended, or not ours to read
    while (const dirent *entry = ::readdir(dir)) {
        bool isNumber = false;
        const int fd = QByteArray(entry->d_name).toInt(&isNumber);
        if (!isNumber || fd < 0)
            continue;
        char target[4096];
        const ssize_t size = ::readlinkat(::dirfd(dir), entry->d_name, target, sizeof target - 1);
        if (size <= 0)
            continue; // closed meanwhile
        const QByteArray path(target, int(size));
        if (nodes.contains(path))
            result.fds.append(fd);
        else if (!kfd.isEmpty() && path == kfd)
            result.holdsKfd = true;
    }
    ::closedir(dir);
    return result;
}
} // namespace

// The share is summed over the process's clients on a GPU. Clients without drm-client-id (the kernel's documentation
// makes it mandatory) are left out, and clients no longer open are forgotten.
QHash<QString, int> DrmEngineHistory::busyPercentByGpu(qint64 pid, const QList<DrmFdInfo> &clients, qint64 nowMs)
{
    const QHash<quint64, ClientSample> before = m_clients.take(pid);
    QHash<quint64, ClientSample> now;
    QHash<QString, QMap<QString, double>> summed; // by GPU: each engine class's share, over the process's clients
    for (const DrmFdInfo &client : clients) {
        if (!client.clientId || client.pdev.isEmpty() || now.contains(*client.clientId))
            continue; // dup'ed fds of one client count once
        ClientSample sample{client.pdev, client.engines, nowMs, std::nullopt};
        const auto previous = before.constFind(*client.clientId);
        if (previous != before.cend() && previous->pdev == client.pdev && nowMs - previous->atMs < kMinWindowMs) {
            sample = *previous;
        } else if (previous != before.cend() && previous->pdev == client.pdev && nowMs > previous->atMs) {
            const qint64 elapsedNs = (nowMs - previous->atMs) * 1'000'000;
            // amdgpu leaves out an engine until the client first uses it: absent before means idle until then.
            DrmEngineUsage unused;
            unused.busyNs = 0;
            QMap<QString, double> percents;
            for (auto engine = client.engines.cbegin(); engine != client.engines.cend(); ++engine) {
                const DrmEngineUsage earlier = previous->engines.value(engine.key(), unused);
                if (const std::optional<double> percent = drmEngineBusyPercent(earlier, *engine, elapsedNs))
                    percents.insert(engine.key(), *percent);
            }
            // No comparable counter says nothing, except on amdgpu, which lists no engine it never used.
            if (!percents.isEmpty() || client.driver == QLatin1String("amdgpu"))
                sample.percents = percents;
        }
        if (sample.percents) {
            QMap<QString, double> &sums = summed[client.pdev];
            for (auto percent = sample.percents->cbegin(); percent != sample.percents->cend(); ++percent)
                sums[percent.key()] += *percent;
        }
        now.insert(*client.clientId, sample);
    }
    if (!now.isEmpty())
        m_clients.insert(pid, now);
    QHash<QString, int> busiest;
    for (auto gpu = summed.cbegin(); gpu != summed.cend(); ++gpu) {
        double top = 0;
        for (double percent : *gpu)
            top = std::max(top, percent);
        busiest.insert(gpu.key(), qBound(0, qRound(top), 100));
    }
    return busiest;
}

void DrmEngineHistory::prune(const std::function<bool(qint64 pid)> &alive)
{
    for (auto it = m_clients.begin(); it != m_clients.end();)
        it = alive(it.key()) ? std::next(it) : m_clients.erase(it);
}

// A holder computes when it holds /dev/kfd (ROCm, AMD only) or ran work on a compute engine; otherwise it is a graphics
// client there (graphicsOnly). A holder whose fdinfo cannot say whether it computed counts as computing (in doubt the
// GPU is busy); one whose fdinfo says nothing at all (an older kernel, another user's process) is left without gpuUse,
// which means the same. The busy share is absent on the first look.
void mergeDrmUsage(QList<Holder> &holders, const DeviceNodes &devices, const QString &procRoot,
                   DrmEngineHistory *history, qint64 nowMs)
{
    QHash<int, const GpuDevice *> drmGpus;
    QSet<QByteArray> nodes;
    for (const GpuDevice &gpu : devices.gpus)
        if (gpu.isDrm()) {
            drmGpus.insert(gpu.index, &gpu);
            nodes.insert(QFile::encodeName(gpu.path));
        }
    if (drmGpus.isEmpty())
        return;
    QByteArray kfd;
    for (const QString &node : devices.sharedNodes)
        if (QFileInfo(node).fileName() == QLatin1String("kfd"))
            kfd = QFile::encodeName(node);

    for (Holder &holder : holders) {
        if (holder.pid <= 0 || holder.hidden)
            continue;
        const bool holdsDrmGpu = std::any_of(holder.gpus.cbegin(), holder.gpus.cend(),
                                             [&drmGpus](int gpu) { return drmGpus.contains(gpu); });
        if (!holdsDrmGpu)
            continue;
        const DrmFds fds = drmFdsOf(procRoot, holder.pid, nodes, kfd);
        QList<DrmFdInfo> clients;
        for (int fd : fds.fds)
            if (std::optional<DrmFdInfo> client = readDrmFdInfo(procRoot, holder.pid, fd))
                clients.append(std::move(*client));
        const QList<DrmGpuUsage> usages = drmUsageByGpu(clients);
        const QHash<QString, int> busy = history ? history->busyPercentByGpu(holder.pid, clients, nowMs)
                                                 : QHash<QString, int>();
        for (int gpu : std::as_const(holder.gpus)) {
            const GpuDevice *device = drmGpus.value(gpu);
            if (!device)
                continue;
            const bool kfdCompute = fds.holdsKfd && device->vendor == GpuVendor::Amd;
            const auto usage = std::find_if(usages.cbegin(), usages.cend(), [device](const DrmGpuUsage &u) {
                return !u.pdev.isEmpty() && u.pdev.compare(device->pciSlot, Qt::CaseInsensitive) == 0;
            });
            if (usage == usages.cend()) {
                if (kfdCompute)
                    holder.gpuUse.insert(gpu, GpuUse{true, std::nullopt, false, std::nullopt});
                continue;
            }
            // A driver that reports no engine time cannot tell: in doubt it computes.
            const bool compute = kfdCompute || usage->usedCompute.value_or(true);
            const auto busyPercent = busy.constFind(device->pciSlot.toLower());
            holder.gpuUse.insert(gpu, GpuUse{compute, usage->gpuMemoryBytes, !compute,
                                             busyPercent == busy.cend() ? std::nullopt
                                                                        : std::optional<int>(*busyPercent)});
            if (usage->gpuMemoryBytes)
                holder.gpuMemoryBytes = holder.gpuMemoryBytes.value_or(0) + *usage->gpuMemoryBytes;
        }
    }
}
