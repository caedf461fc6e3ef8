// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "backends/drmsysfs.h"

// The GPU's PCI device folder (the resolved /sys/class/drm/renderD128/device, such as
// /sys/devices/pci0000:00/0000:00:01.1/0000:03:00.0) holds the PCI ids, and with amdgpu also the product name, load,
// VRAM use and unique id; its hwmon folder holds the temperature and power.

#include "base/logging.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <optional>

namespace {

// sysfs attributes are at most a page.
constexpr qint64 kMaxAttributeBytes = 4096;
// Bounds that no real GPU reaches, so that garbage cannot pass for a reading.
constexpr qint64 kMaxMemoryBytes = qint64(1) << 50;       // 1 PiB
constexpr qint64 kMaxPowerMicrowatts = 100'000'000'000;    // 100 kW
constexpr qint64 kMaxEnergyMicrojoules = qint64(1) << 62;
constexpr qint64 kMinMillidegrees = -100'000;
constexpr qint64 kMaxMillidegrees = 250'000;

// The text of one attribute without surrounding whitespace; nothing when it cannot be read.
std::optional<QByteArray> readAttribute(const QString &folder, const QString &name)
{
    QFile file(folder + QLatin1Char('/') + name);
    if (!file.open(QIODevice::ReadOnly))
        return std::nullopt;
    const QByteArray text = file.read(kMaxAttributeBytes);
    if (file.error() != QFileDevice::NoError) {
        qCDebug(lcScan).noquote() << "cannot read" << file.fileName() + QLatin1Char(':') << file.errorString();
        return std::nullopt;
    }
    return text.trimmed();
}

// A decimal integer in [min, max], nothing else on the line.
std::optional<qint64> readInteger(const QString &folder, const QString &name, qint64 min, qint64 max)
{
    const std::optional<QByteArray> text = readAttribute(folder, name);
    if (!text)
        return std::nullopt;
    bool ok = false;
    const qint64 value = text->toLongLong(&ok, 10);
    if (!ok || value < min || value > max) {
        qCDebug(lcScan).noquote() << "ignoring" << folder + QLatin1Char('/') + name + QLatin1Char(':')
                                  << "not a number in" << min << ".." << max;
        return std::nullopt;
    }
    return value;
}

// A PCI id as sysfs writes it: "0x1002".
std::optional<uint> readPciId(const QString &folder, const QString &name)
{
    const std::optional<QByteArray> text = readAttribute(folder, name);
    if (!text || !text->startsWith("0x") || text->size() < 3 || text->size() > 6)
        return std::nullopt;
    bool ok = false;
    const uint value = text->mid(2).toUInt(&ok, 16);
    return ok ? std::optional<uint>(value) : std::nullopt;
}

bool isHexDigits(const QByteArray &text)
{
    for (char c : text)
        if (!((c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')))
            return false;
    return !text.isEmpty();
}

// "0000:03:00.0": domain, bus, slot, function.
bool isPciSlot(const QString &name)
{
    const QStringList parts = name.split(QLatin1Char(':'));
    if (parts.size() != 3)
        return false;
    const QStringList slotAndFunction = parts.at(2).split(QLatin1Char('.'));
    return parts.at(0).size() >= 4 && parts.at(0).size() <= 8 && isHexDigits(parts.at(0).toLatin1())
           && parts.at(1).size() == 2 && isHexDigits(parts.at(1).toLatin1()) && slotAndFunction.size() == 2
           && slotAndFunction.at(0).size() == 2 && isHexDigits(slotAndFunction.at(0).toLatin1())
           && slotAndFunction.at(1).size() == 1 && slotAndFunction.at(1).at(0) >= QLatin1Char('0')
           && slotAndFunction.at(1).at(0) <= QLatin1Char('7');
}

// amdgpu's product_name (from the board's FRU); empty when absent, blank or not plain text.
QString productName(const QString &folder)
{
    const std::optional<QByteArray> text = readAttribute(folder, QStringLiteral("product_name"));
    if (!text || text->isEmpty() || text->size() > 128)
        return QString();
    const QString name = QString::fromUtf8(*text);
    for (QChar c : name)
        if (!c.isPrint() || c == QChar::ReplacementCharacter)
            return QString();
    return name.simplified();
}

QString nameFromPciIds(const QString &folder)
{
    const std::optional<uint> vendor = readPciId(folder, QStringLiteral("vendor"));
    const std::optional<uint> device = readPciId(folder, QStringLiteral("device"));
    if (!vendor)
        return QStringLiteral("GPU");
    const QString vendorName = *vendor == 0x1002 ? QStringLiteral("AMD GPU")
                               : *vendor == 0x8086 ? QStringLiteral("Intel GPU")
                                                   : QStringLiteral("GPU");
    const QString vendorId = QStringLiteral("%1").arg(*vendor, 4, 16, QLatin1Char('0'));
    if (!device)
        return QStringLiteral("%1 %2").arg(vendorName, vendorId);
    return QStringLiteral("%1 %2:%3").arg(vendorName, vendorId).arg(*device, 4, 16, QLatin1Char('0'));
}

// amdgpu prints its unique id as 16 hex digits; ROCm names the GPU "GPU-<those digits>".
QString uuidFromUniqueId(const QString &folder)
{
    const std::optional<QByteArray> text = readAttribute(folder, QStringLiteral("unique_id"));
    if (!text || text->size() != 16 || !isHexDigits(*text))
        return QString();
    return QStringLiteral("GPU-") + QString::fromLatin1(text->toLower());
}

void readHwmon(const QString &folder, GpuInfo *gpu)
{
    const QDir hwmonRoot(folder + QStringLiteral("/hwmon"));
    const QStringList hwmons = hwmonRoot.entryList({QStringLiteral("hwmon*")}, QDir::Dirs | QDir::NoDotAndDotDot,
                                                   QDir::Name);
    for (const QString &hwmon : hwmons) {
        const QString path = hwmonRoot.filePath(hwmon);
        if (!gpu->temperatureCelsius) {
            if (const auto millidegrees =
                    readInteger(path, QStringLiteral("temp1_input"), kMinMillidegrees, kMaxMillidegrees))
                gpu->temperatureCelsius = int(qRound(double(*millidegrees) / 1000.0));
        }
        if (!gpu->powerMilliwatts) {
            std::optional<qint64> microwatts =
                readInteger(path, QStringLiteral("power1_average"), 0, kMaxPowerMicrowatts);
            if (!microwatts)
                microwatts = readInteger(path, QStringLiteral("power1_input"), 0, kMaxPowerMicrowatts);
            if (microwatts)
                gpu->powerMilliwatts = int(*microwatts / 1000);
        }
        // Intel's i915 and xe count the energy (microjoules): exact where sampling the power would guess.
        if (!gpu->energyMillijoules) {
            if (const auto microjoules = readInteger(path, QStringLiteral("energy1_input"), 0, kMaxEnergyMicrojoules))
                gpu->energyMillijoules = *microjoules / 1000;
        }
    }
}

} // namespace

// Where each field comes from:
// - name: amdgpu's product_name where present, else "AMD GPU 1002:744c" / "Intel GPU 8086:56a0" from the PCI ids
// - busId: the folder's name, "0000:03:00.0" (the form drm-pdev of fdinfo uses); empty if it is not a PCI slot
// - uuid: "GPU-<unique_id>" (amdgpu's 16 hex digits, as ROCR_VISIBLE_DEVICES accepts it); empty without one
// - utilizationPercent: gpu_busy_percent (amdgpu)
// - memoryUsedBytes / memoryTotalBytes: mem_info_vram_used / mem_info_vram_total (amdgpu)
// - temperatureCelsius: hwmon/hwmon*/temp1_input (millidegrees)
// - powerMilliwatts: hwmon/hwmon*/power1_average, else power1_input (microwatts)
GpuInfo readDrmSysfsGpu(const QString &pciDeviceFolder)
{
    GpuInfo gpu;
    const QString canonical = QFileInfo(pciDeviceFolder).canonicalFilePath();
    const QString folder = canonical.isEmpty() ? pciDeviceFolder : canonical;
    const QString folderName = QFileInfo(folder).fileName();
    if (isPciSlot(folderName))
        gpu.busId = folderName.toLower();

    gpu.name = productName(folder);
    if (gpu.name.isEmpty())
        gpu.name = nameFromPciIds(folder);
    gpu.uuid = uuidFromUniqueId(folder);

    if (const auto busy = readInteger(folder, QStringLiteral("gpu_busy_percent"), 0, 100))
        gpu.utilizationPercent = int(*busy);
    gpu.memoryUsedBytes = readInteger(folder, QStringLiteral("mem_info_vram_used"), 0, kMaxMemoryBytes);
    gpu.memoryTotalBytes = readInteger(folder, QStringLiteral("mem_info_vram_total"), 0, kMaxMemoryBytes);
    readHwmon(folder, &gpu);
    return gpu;
}
