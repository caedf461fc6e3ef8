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

void mergeDrmUsage(QList<Holder> &holders, const DeviceNodes &devices, const QString &procRoot)
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
        const QList<DrmGpuUsage> usages = readDrmUsageOfProcess(procRoot, holder.pid, fds.fds);
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
                    holder.gpuUse.insert(gpu, GpuUse{true, std::nullopt});
                continue;
            }
            // A driver that reports no engine time cannot tell: in doubt it computes.
            const bool compute = kfdCompute || usage->usedCompute.value_or(true);
            holder.gpuUse.insert(gpu, GpuUse{compute, usage->gpuMemoryBytes});
            if (usage->gpuMemoryBytes)
                holder.gpuMemoryBytes = holder.gpuMemoryBytes.value_or(0) + *usage->gpuMemoryBytes;
        }
    }
}
