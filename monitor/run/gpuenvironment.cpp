// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "run/gpuenvironment.h"

#include <QStringList>

#include <algorithm>
#include <utility>

namespace {

QString joinNumbers(const QList<int> &numbers)
{
    QStringList parts;
    for (int number : numbers)
        parts.append(QString::number(number));
    return parts.join(QLatin1Char(','));
}

// Sets the variables through which each vendor's stack selects the workload's GPUs (see the header).
void selectGpus(QProcessEnvironment &result, const QList<int> &gpus, const QHash<int, QString> &uuidsByIndex,
                const QList<GpuDevice> &devices)
{
    // A GPU the device list does not know is numbered as CUDA numbers it, as before DRM support.
    auto vendorOf = [&devices](int index) {
        for (const GpuDevice &device : devices)
            if (device.index == index)
                return device.vendor;
        return GpuVendor::Nvidia;
    };
    QList<const GpuDevice *> amdPresent;
    QList<const GpuDevice *> intelPresent;
    bool nvidiaPresent = devices.isEmpty();
    for (const GpuDevice &device : devices) { // in index order, which for AMD and Intel is PCI order
        if (device.vendor == GpuVendor::Amd)
            amdPresent.append(&device);
        else if (device.vendor == GpuVendor::Intel)
            intelPresent.append(&device);
        else
            nvidiaPresent = true;
    }

    QStringList cudaNumbers;
    QStringList cudaUuids;
    for (int gpu : gpus) {
        if (vendorOf(gpu) != GpuVendor::Nvidia)
            continue;
        cudaNumbers.append(QString::number(gpu));
        if (!uuidsByIndex.value(gpu).isEmpty())
            cudaUuids.append(uuidsByIndex.value(gpu));
    }
    const QString cudaVisible = QStringLiteral("CUDA_VISIBLE_DEVICES");
    if (!cudaNumbers.isEmpty())
        result.insert(cudaVisible, (cudaUuids.size() == cudaNumbers.size() ? cudaUuids : cudaNumbers)
                                       .join(QLatin1Char(',')));
    else if (devices.isEmpty())
        result.insert(cudaVisible, QString()); // no GPU at all, as before DRM support
    else if (nvidiaPresent)
        result.insert(cudaVisible, QStringLiteral("-1"));
    else
        result.remove(cudaVisible);

    if (!amdPresent.isEmpty()) {
        QList<const GpuDevice *> selected;
        QList<int> ordinals;
        for (int ordinal = 0; ordinal < amdPresent.size(); ++ordinal) {
            if (gpus.contains(amdPresent.at(ordinal)->index)) {
                selected.append(amdPresent.at(ordinal));
                ordinals.append(ordinal);
            }
        }
        const bool allHaveIds = std::all_of(selected.cbegin(), selected.cend(),
                                            [](const GpuDevice *gpu) { return !gpu->uniqueId.isEmpty(); });
        QStringList ids;
        for (const GpuDevice *gpu : std::as_const(selected))
            ids.append(QStringLiteral("GPU-") + gpu->uniqueId);
        result.insert(QStringLiteral("ROCR_VISIBLE_DEVICES"),
                      allHaveIds ? ids.join(QLatin1Char(',')) : joinNumbers(ordinals));
        result.remove(QStringLiteral("GPU_DEVICE_ORDINAL"));
        QList<int> exposed;
        for (int i = 0; i < selected.size(); ++i)
            exposed.append(i);
        if (exposed.isEmpty())
            result.remove(QStringLiteral("HIP_VISIBLE_DEVICES"));
        else
            result.insert(QStringLiteral("HIP_VISIBLE_DEVICES"), joinNumbers(exposed));
    }

    if (!intelPresent.isEmpty()) {
        QList<int> ordinals;
        for (int ordinal = 0; ordinal < intelPresent.size(); ++ordinal)
            if (gpus.contains(intelPresent.at(ordinal)->index))
                ordinals.append(ordinal);
        if (ordinals.isEmpty())
            ordinals.append(int(intelPresent.size())); // out of range: Level Zero shows no device
        result.insert(QStringLiteral("ZE_ENABLE_PCI_ID_DEVICE_ORDER"), QStringLiteral("1"));
        result.insert(QStringLiteral("ZE_FLAT_DEVICE_HIERARCHY"), QStringLiteral("COMPOSITE"));
        result.insert(QStringLiteral("ZE_AFFINITY_MASK"), joinNumbers(ordinals));
    }
}

} // namespace

// How each vendor's stack is told its GPUs:
// - NVIDIA: CUDA_VISIBLE_DEVICES names the selected NVIDIA GPUs by UUID (GPU-...) when `uuidsByIndex` knows
//   every one of them, so no renumbering can put a workload on another card; else by number. "-1" (an
//   invalid index: CUDA shows the devices before it, none) when none of them is selected. It is unset on a machine
//   without NVIDIA GPUs, because HIP reads it too.
// - AMD (when present): ROCR_VISIBLE_DEVICES names the selected ones by "GPU-<unique_id>" when sysfs has it
//   for each, else by their ordinal among the AMD GPUs in PCI order; empty hides them all (ROCr filters as
//   soon as the variable is set). HIP_VISIBLE_DEVICES then lists all that ROCr exposes (0..k-1), so that
//   neither an inherited value nor CUDA_VISIBLE_DEVICES (HIP's fallback) narrows it again; an inherited
//   GPU_DEVICE_ORDINAL, which would index into them, is removed.
// - Intel (when present): ZE_AFFINITY_MASK lists the ordinals of the selected ones among the Intel GPUs in
//   PCI order, with ZE_ENABLE_PCI_ID_DEVICE_ORDER=1 (Level Zero numbers them so) and
//   ZE_FLAT_DEVICE_HIERARCHY=COMPOSITE (an ordinal names a card, not one tile of it). With none selected, it is
//   the ordinal past the last one (Level Zero drops it, leaving no device).
QProcessEnvironment workloadEnvironment(const QList<QPair<QString, QString>> &env, const QList<int> &gpus, bool allGpus,
                                        const QHash<int, QString> &uuidsByIndex, const QList<GpuDevice> &devices,
                                        const QProcessEnvironment &base)
{
    QProcessEnvironment result = base;
    result.insert(QStringLiteral("CUDA_DEVICE_ORDER"), QStringLiteral("PCI_BUS_ID"));
    if (!allGpus)
        selectGpus(result, gpus, uuidsByIndex, devices);
    for (const auto &[key, value] : env)
        result.insert(key, value);
    return result;
}

// As sudo's env_reset: the language is LANG, LANGUAGE and LC_*. Nothing else of root's (a token, its PATH, LD_*
// variables, its XDG folders) reaches another user's workload; env= adds what the workload needs.
QProcessEnvironment loginEnvironment(const UserAccount &account, const QProcessEnvironment &own)
{
    QProcessEnvironment result;
    for (const QString &name : own.keys())
        if (name == QLatin1String("LANG") || name == QLatin1String("LANGUAGE") || name.startsWith(QLatin1String("LC_")))
            result.insert(name, own.value(name));
    result.insert(QStringLiteral("HOME"), account.home);
    result.insert(QStringLiteral("USER"), account.name);
    result.insert(QStringLiteral("LOGNAME"), account.name);
    result.insert(QStringLiteral("SHELL"), account.shell.isEmpty() ? QStringLiteral("/bin/sh") : account.shell);
    result.insert(QStringLiteral("PATH"), QLatin1String(kLoginPath));
    return result;
}
