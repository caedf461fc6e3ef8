// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "devices/devicescanner.h"

#include "base/logging.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>

#include <algorithm>
#include <cstring>
#include <tuple>

#include <dirent.h>

namespace {

// The driver never creates more than 256 GPU nodes (minors 0..255; 255 is nvidiactl's).
constexpr int kMaxGpuIndex = 255;
// A sysfs attribute is a line; anything longer is not the file we expect.
constexpr qint64 kMaxSysfsFileBytes = 4096;

constexpr quint16 kVendorNvidia = 0x10de;
constexpr quint16 kVendorAmd = 0x1002;
constexpr quint16 kVendorIntel = 0x8086;

// The number N of a name "<prefix>N", or -1. N must be written canonically ("nvidia01" is not nvidia1: the
// driver never creates such a name, and accepting it would give two paths for one index).
int numberAfter(const char *name, const char *prefix, size_t maxDigits)
{
    const size_t prefixLength = std::strlen(prefix);
    if (std::strncmp(name, prefix, prefixLength) != 0)
        return -1;
    const char *digits = name + prefixLength;
    const size_t length = std::strlen(digits);
    if (length == 0 || length > maxDigits || (length > 1 && digits[0] == '0'))
        return -1;
    int number = 0;
    for (const char *c = digits; *c; ++c) {
        if (*c < '0' || *c > '9')
            return -1;
        number = number * 10 + (*c - '0');
    }
    return number;
}

int gpuIndexOf(const char *name)
{
    const int index = numberAfter(name, "nvidia", 3);
    return index <= kMaxGpuIndex ? index : -1;
}

bool isSharedNodeName(const char *name)
{
    static const char *const sharedNames[] = {"nvidiactl", "nvidia-uvm", "nvidia-uvm-tools", "nvidia-modeset",
                                              "kfd"};
    for (const char *shared : sharedNames) {
        if (std::strcmp(name, shared) == 0)
            return true;
    }
    return false;
}

// The names in a folder, or none when it cannot be listed.
QList<QByteArray> listFolder(const QString &folder)
{
    QList<QByteArray> names;
    DIR *dir = ::opendir(QFile::encodeName(folder).constData());
    if (!dir) {
        const int error = errno;
        qCDebug(lcScan).noquote() << "cannot list" << folder + QLatin1Char(':') << std::strerror(error);
        return names;
    }
    while (const dirent *entry = ::readdir(dir))
        names.append(QByteArray(entry->d_name));
    ::closedir(dir);
    return names;
}

// A small sysfs file, trimmed; empty when missing, unreadable, binary or too long.
QString readSysfsLine(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QString();
    const QByteArray bytes = file.read(kMaxSysfsFileBytes + 1);
    if (bytes.size() > kMaxSysfsFileBytes || bytes.contains('\0'))
        return QString();
    return QString::fromLatin1(bytes).trimmed();
}

// A PCI id as sysfs writes it ("0x1002"), or -1.
int parsePciId(QString text)
{
    if (text.startsWith(QLatin1String("0x"), Qt::CaseInsensitive))
        text = text.mid(2);
    bool ok = false;
    const uint id = text.toUInt(&ok, 16);
    return ok && text.size() <= 4 && id <= 0xffff ? int(id) : -1;
}

bool isPciSlot(const QString &text)
{
    static const QRegularExpression slot(
        QStringLiteral("^[0-9a-fA-F]{4,8}:[0-9a-fA-F]{2}:[0-9a-fA-F]{2}\\.[0-7]$"));
    return slot.match(text).hasMatch();
}

// Domain, bus, device, function: PCI order, whatever the width of the domain ("10000:" under Intel VMD).
std::tuple<uint, uint, uint, uint> pciOrderKey(const QString &slot)
{
    const QStringList parts = slot.split(QRegularExpression(QStringLiteral("[:.]")));
    return {parts.value(0).toUInt(nullptr, 16), parts.value(1).toUInt(nullptr, 16),
            parts.value(2).toUInt(nullptr, 16), parts.value(3).toUInt(nullptr, 16)};
}

// amdgpu's unique_id ("%016llx") as ROCm names the GPU after it ("GPU-" + 16 lower-case hex digits); empty when
// absent, zero (the GPU has none) or not hex.
QString normalizedUniqueId(const QString &text)
{
    static const QRegularExpression hex(QStringLiteral("^[0-9a-fA-F]{1,16}$"));
    if (!hex.match(text).hasMatch() || text.toULongLong(nullptr, 16) == 0)
        return QString();
    return text.toLower().rightJustified(16, QLatin1Char('0'));
}

} // namespace

std::optional<GpuDevice> readDrmGpu(const QString &renderNodePath, const QString &sysfsRoot, QString *whyNot)
{
    auto skip = [whyNot](const QString &reason) -> std::optional<GpuDevice> {
        if (whyNot)
            *whyNot = reason;
        return std::nullopt;
    };
    const QString name = QFileInfo(renderNodePath).fileName();
    const QString link = QStringLiteral("%1/class/drm/%2/device").arg(sysfsRoot, name);
    const QString deviceDir = QFileInfo(link).canonicalFilePath();
    if (deviceDir.isEmpty() || !QFileInfo(deviceDir).isDir())
        return skip(QStringLiteral("%1 does not exist: no PCI device behind %2").arg(link, name));

    // uevent holds DRIVER=, PCI_ID=1002:744C and PCI_SLOT_NAME=; vendor and device are the ids on their own.
    QString driver;
    QString slot;
    QString ueventPciId;
    const QString uevent = deviceDir + QStringLiteral("/uevent");
    const QStringList lines = readSysfsLine(uevent).split(QLatin1Char('\n'));
    for (const QString &line : lines) {
        const QString key = line.section(QLatin1Char('='), 0, 0);
        const QString value = line.section(QLatin1Char('='), 1).trimmed();
        if (key == QLatin1String("DRIVER"))
            driver = value;
        else if (key == QLatin1String("PCI_SLOT_NAME"))
            slot = value;
        else if (key == QLatin1String("PCI_ID"))
            ueventPciId = value;
    }
    int vendor = parsePciId(readSysfsLine(deviceDir + QStringLiteral("/vendor")));
    int device = parsePciId(readSysfsLine(deviceDir + QStringLiteral("/device")));
    if (vendor < 0 || device < 0) { // a damaged vendor/device file: the uevent knows them too
        vendor = parsePciId(ueventPciId.section(QLatin1Char(':'), 0, 0));
        device = parsePciId(ueventPciId.section(QLatin1Char(':'), 1, 1));
    }
    if (vendor < 0)
        return skip(QStringLiteral("%1/vendor is missing or not a PCI vendor id, and %2 has no PCI_ID")
                        .arg(deviceDir, uevent));
    if (slot.isEmpty())
        slot = QFileInfo(deviceDir).fileName(); // the PCI device folder is named after its slot
    if (!isPciSlot(slot))
        return skip(QStringLiteral("%1 is not a PCI device (no PCI_SLOT_NAME in %2)").arg(deviceDir, uevent));
    if (driver.isEmpty())
        driver = QFileInfo(QFileInfo(deviceDir + QStringLiteral("/driver")).canonicalFilePath()).fileName();

    GpuDevice gpu;
    gpu.path = renderNodePath;
    gpu.pciSlot = slot.toLower();
    gpu.driver = driver;
    gpu.sysfsDevice = deviceDir;
    gpu.pciId = QStringLiteral("%1:%2").arg(vendor, 4, 16, QLatin1Char('0')).arg(qMax(device, 0), 4, 16, QLatin1Char('0'));
    if (vendor == kVendorNvidia)
        return skip(QStringLiteral("%1 is an NVIDIA GPU's render node: its nvidiaN node stands for it").arg(name));
    if (vendor == kVendorAmd && driver == QLatin1String("amdgpu")) {
        gpu.vendor = GpuVendor::Amd;
        gpu.uniqueId = normalizedUniqueId(readSysfsLine(deviceDir + QStringLiteral("/unique_id")));
    } else if (vendor == kVendorIntel && (driver == QLatin1String("i915") || driver == QLatin1String("xe"))) {
        gpu.vendor = GpuVendor::Intel;
    } else {
        return skip(QStringLiteral("%1 is PCI device %2 with driver '%3': not an AMD (amdgpu) or Intel (i915, xe) "
                                   "GPU")
                        .arg(name, gpu.pciId, driver));
    }
    return gpu;
}

// Which nodes count:
// - NVIDIA: nvidia[0-9]+ are GPUs (the number is the index); nvidiactl, nvidia-uvm, nvidia-uvm-tools and
//   nvidia-modeset are shared nodes. Names the driver never makes are ignored: a leading zero (nvidia01) or an
//   index above 255.
// - AMD and Intel: dri/renderD<N> whose sysfs device (<sysfsRoot>/class/drm/renderD<N>/device, matched by name)
//   is a PCI device of vendor 0x1002 bound to amdgpu, or of vendor 0x8086 bound to i915 or xe. They take the
//   indices after the highest NVIDIA one (0.. without NVIDIA GPUs), in PCI slot order. NVIDIA's own render nodes
//   (nvidiaN covers them) and those of other vendors or without a PCI device (vgem, virtio, llvmpipe) are
//   skipped. kfd (every ROCm process opens it) is a shared node.
DeviceNodes scanDevices(const QString &deviceRoot, const QString &sysfsRoot)
{
    DeviceNodes nodes;
    const QString prefix = deviceRoot.endsWith(QLatin1Char('/')) ? deviceRoot : deviceRoot + QLatin1Char('/');
    const QList<QByteArray> names = listFolder(deviceRoot);
    for (const QByteArray &name : names) {
        const int index = gpuIndexOf(name.constData());
        if (index >= 0)
            nodes.gpus.append(GpuDevice{index, prefix + QFile::decodeName(name)});
        else if (isSharedNodeName(name.constData()))
            nodes.sharedNodes.append(prefix + QFile::decodeName(name));
    }
    std::sort(nodes.gpus.begin(), nodes.gpus.end(),
              [](const GpuDevice &a, const GpuDevice &b) { return a.index < b.index; });
    // readdir order is arbitrary: sort so that two scans of the same folder compare equal.
    nodes.sharedNodes.sort();

    QList<GpuDevice> drmGpus;
    if (!names.isEmpty()) {
        const QList<QByteArray> driNames = listFolder(prefix + QStringLiteral("dri"));
        for (const QByteArray &name : driNames) {
            // Render minors are 128 and up; more than 7 digits is no name the kernel makes.
            if (numberAfter(name.constData(), "renderD", 7) < 0)
                continue;
            const QString path = prefix + QStringLiteral("dri/") + QFile::decodeName(name);
            QString whyNot;
            const std::optional<GpuDevice> gpu = readDrmGpu(path, sysfsRoot, &whyNot);
            if (gpu)
                drmGpus.append(*gpu);
            else
                qCDebug(lcScan).noquote() << "not a GPU of ours:" << path << "-" << whyNot;
        }
    }
    std::sort(drmGpus.begin(), drmGpus.end(), [](const GpuDevice &a, const GpuDevice &b) {
        return std::make_pair(pciOrderKey(a.pciSlot), a.path) < std::make_pair(pciOrderKey(b.pciSlot), b.path);
    });
    int next = nodes.gpus.isEmpty() ? 0 : nodes.gpus.last().index + 1;
    QString previousSlot;
    for (GpuDevice &gpu : drmGpus) {
        if (gpu.pciSlot == previousSlot)
            continue; // one GPU, one node: a second render node of the same PCI device adds nothing
        previousSlot = gpu.pciSlot;
        if (next > kMaxGpuIndex) {
            qCDebug(lcScan).noquote() << "no GPU index left for" << gpu.path;
            break;
        }
        gpu.index = next++;
        nodes.gpus.append(gpu);
    }
    return nodes;
}

DeviceNodes keepVendors(const DeviceNodes &found, const QList<GpuVendor> &vendors)
{
    const bool anyNvidia = std::any_of(found.gpus.cbegin(), found.gpus.cend(),
                                       [](const GpuDevice &gpu) { return gpu.vendor == GpuVendor::Nvidia; });
    const auto kept = [&](GpuVendor vendor) {
        if (!vendors.isEmpty())
            return vendors.contains(vendor);
        return anyNvidia ? vendor == GpuVendor::Nvidia : vendor != GpuVendor::Nvidia;
    };
    DeviceNodes result;
    for (const GpuDevice &gpu : found.gpus)
        if (kept(gpu.vendor))
            result.gpus.append(gpu);
    for (const QString &node : found.sharedNodes) {
        const bool kfd = QFileInfo(node).fileName() == QLatin1String("kfd");
        if (kept(kfd ? GpuVendor::Amd : GpuVendor::Nvidia) || (!kfd && vendors.isEmpty()))
            result.sharedNodes.append(node);
    }
    return result;
}
