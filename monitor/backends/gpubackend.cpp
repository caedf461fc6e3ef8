// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "backends/gpubackend.h"

#include "backends/drmbackend.h"

#include <algorithm>

#include "base/printablename.h"
#include "config/useraccount.h"

#include <QFile>
#include <QFileInfo>

#include <unistd.h>

GpuBackends::GpuBackends() : m_drm(std::make_unique<DrmBackend>()) {}

GpuBackends::~GpuBackends() = default;

void GpuBackends::setVendorLibrary(std::unique_ptr<GpuBackend> vendorLibrary)
{
    m_vendorLibrary = std::move(vendorLibrary);
    setDevices(m_devices);
}

void GpuBackends::setDevices(const DeviceNodes &devices)
{
    m_devices = devices;
    m_coverings.clear();
    m_judgeOf.clear();
    for (GpuBackend *backend : {m_vendorLibrary.get(), m_drm.get()}) {
        if (!backend || !backend->available())
            continue;
        Covering covering{backend, DeviceNodes{{}, devices.sharedNodes}};
        for (const GpuDevice &gpu : devices.gpus)
            if (!m_judgeOf.contains(gpu.index) && backend->covers(gpu)) {
                covering.covered.gpus.append(gpu);
                m_judgeOf.insert(gpu.index, backend);
            }
        if (!covering.covered.gpus.isEmpty())
            m_coverings.append(covering);
    }
}

GpuMetrics GpuBackends::describe() const
{
    GpuMetrics metrics;
    if (m_vendorLibrary) {
        metrics.backend = m_vendorLibrary->name();
        metrics.available = m_vendorLibrary->available();
        metrics.unavailableReason = m_vendorLibrary->unavailableReason();
    }
    return metrics;
}

QHash<int, GpuInfo> GpuBackends::refresh()
{
    QHash<int, GpuInfo> gpus;
    for (const Covering &covering : std::as_const(m_coverings))
        for (const GpuInfo &gpu : covering.backend->refresh(covering.covered))
            if (gpu.index >= 0 && m_judgeOf.value(gpu.index) == covering.backend)
                gpus.insert(gpu.index, gpu);
    return gpus;
}

void GpuBackends::refreshProcesses()
{
    for (const Covering &covering : std::as_const(m_coverings))
        covering.backend->refreshProcesses(covering.covered);
}

void GpuBackends::judgeHolders(QList<Holder> &holders, const QString &procRoot) const
{
    for (const Covering &covering : m_coverings)
        covering.backend->judgeHolders(holders, covering.covered, procRoot);
}

QHash<int, QString> gpuUuidsByIndex(const QList<GpuInfo> &gpus)
{
    QHash<int, QString> uuids;
    for (const GpuInfo &gpu : gpus)
        if (gpu.index >= 0 && !gpu.uuid.isEmpty())
            uuids.insert(gpu.index, gpu.uuid);
    return uuids;
}

QString describeGpuMetrics(const GpuInfo &gpu)
{
    constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
    QStringList parts;
    if (gpu.utilizationPercent)
        parts.append(QStringLiteral("%1% busy").arg(*gpu.utilizationPercent));
    if (gpu.memoryUsedBytes && gpu.memoryTotalBytes)
        parts.append(QStringLiteral("%1 of %2 GiB")
                         .arg(double(*gpu.memoryUsedBytes) / kGiB, 0, 'f', 1)
                         .arg(double(*gpu.memoryTotalBytes) / kGiB, 0, 'f', 1));
    if (gpu.temperatureCelsius)
        parts.append(QStringLiteral("%1 \u00b0C").arg(*gpu.temperatureCelsius));
    if (gpu.powerMilliwatts)
        parts.append(QStringLiteral("%1 W").arg(*gpu.powerMilliwatts / 1000));
    return parts.join(QStringLiteral(", "));
}

namespace {
// comm and uid of a process we may not inspect further: /proc/<pid>/status is world-readable unless hidepid.
void readIdentity(const QString &procRoot, qint64 pid, Holder *holder)
{
    QFile status(QStringLiteral("%1/%2/status").arg(procRoot).arg(pid));
    if (!status.open(QIODevice::ReadOnly))
        return;
    const QList<QByteArray> lines = status.read(64 * 1024).split('\n');
    for (const QByteArray &line : lines) {
        if (line.startsWith("Name:")) {
            holder->comm = printableName(QString::fromUtf8(line.mid(5).trimmed()).left(64));
        } else if (line.startsWith("Uid:")) {
            bool ok = false;
            const uint uid = line.mid(4).simplified().split(' ').value(0).toUInt(&ok);
            if (ok) {
                holder->uid = uid;
                holder->user = userName(uid);
            }
        }
    }
}

bool inspectable(const QString &procRoot, qint64 pid)
{
    return ::access(QFile::encodeName(QStringLiteral("%1/%2/fd").arg(procRoot).arg(pid)).constData(), R_OK | X_OK)
           == 0;
}
} // namespace

bool backendSeesOnlyVisibleProcesses(const GpuInfo &gpu, const QList<Holder> &holders)
{
    if (!gpu.processesKnown)
        return false;
    for (const GpuProcessUse &use : gpu.processes) {
        const bool seen = std::any_of(holders.cbegin(), holders.cend(), [&use](const Holder &holder) {
            return !holder.hidden && holder.pid == use.pid;
        });
        if (!seen)
            return false;
    }
    return true;
}

// A pid the /proc scan saw as a holder gets its memory. A pid that the scan could not inspect (/proc/<pid>/fd
// unreadable: another user's, idlegpu not root) is a hidden holder: it takes over a pid-less hidden holder of that GPU
// (inferred from inotify), or becomes a new one, with comm and uid from /proc/<pid>/status where readable. Pids whose
// /proc entry is gone (the sample is older than the scan) and readable processes that hold no node are left out: the
// scan is authoritative there. Each holder with a pid gets its Holder::gpuUse for every GPU whose lists could be read:
// a process listed there only as a graphics one is graphicsOnly (a uvm holder too), and its busy share comes along.
void mergeBackendProcesses(QList<Holder> &holders, const QList<GpuInfo> &gpus, const QString &procRoot)
{
    for (const GpuInfo &gpu : gpus) {
        if (gpu.index < 0)
            continue;
        for (const GpuProcessUse &use : gpu.processes) {
            if (use.pid <= 0)
                continue;
            Holder *known = nullptr;
            for (Holder &holder : holders)
                if (holder.pid == use.pid)
                    known = &holder;
            if (known && !known->hidden) {
                if (use.usedMemoryBytes)
                    known->gpuMemoryBytes = known->gpuMemoryBytes.value_or(0) + *use.usedMemoryBytes;
                continue;
            }
            if (!QFileInfo::exists(QStringLiteral("%1/%2").arg(procRoot).arg(use.pid)))
                continue; // gone since the sample
            if (!known && inspectable(procRoot, use.pid))
                continue; // the scan saw it and it holds no node of ours
            if (known) { // named already on another GPU
                if (!known->gpus.contains(gpu.index))
                    known->gpus.append(gpu.index);
                if (use.usedMemoryBytes)
                    known->gpuMemoryBytes = known->gpuMemoryBytes.value_or(0) + *use.usedMemoryBytes;
                continue;
            }
            Holder *target = nullptr;
            for (Holder &holder : holders)
                if (holder.hidden && holder.pid <= 0 && holder.gpus == QList<int>{gpu.index})
                    target = &holder;
            if (!target) {
                holders.append(Holder());
                target = &holders.last();
                target->hidden = true;
                target->gpus = {gpu.index};
                target->user = QStringLiteral("?");
            }
            target->pid = use.pid;
            target->gpuMemoryBytes = use.usedMemoryBytes;
            readIdentity(procRoot, use.pid, target);
        }
    }
    // What each holder does on each GPU whose lists could be read: a holder missing from them has the node open
    // but no context there (yet).
    for (const GpuInfo &gpu : gpus) {
        if (gpu.index < 0 || !gpu.processesKnown)
            continue;
        for (Holder &holder : holders) {
            if (holder.pid <= 0 || !holder.gpus.contains(gpu.index))
                continue;
            GpuUse use;
            use.memoryBytes = 0; // unlisted: no context there, no memory
            for (const GpuProcessUse &listed : gpu.processes) {
                if (listed.pid != holder.pid)
                    continue;
                use.compute = !listed.graphics;
                use.graphicsOnly = listed.graphics;
                use.memoryBytes = listed.usedMemoryBytes;
                use.busyPercent = listed.busyPercent;
            }
            holder.gpuUse.insert(gpu.index, use);
        }
    }
}
