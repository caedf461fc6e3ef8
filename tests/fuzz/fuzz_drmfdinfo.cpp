// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// libFuzzer target: the DRM fdinfo parser (/proc/<pid>/fdinfo/<fd> of a render node) on arbitrary bytes, with
// the per-GPU view and the busy percentage over what it accepts. It must never crash, and nothing it gives may
// be negative, unbounded or a busy share outside 0..100.
#include "backends/drmfdinfo.h"
#include "fuzzsupport.h"

#include <cstdint>
#include <cstdlib>

namespace {
void requireNonNegative(const std::optional<qint64> &value)
{
    if (value && *value < 0)
        std::abort();
}
} // namespace

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    silenceQtMessages();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const std::optional<DrmFdInfo> info =
        parseDrmFdInfo(QByteArrayView(reinterpret_cast<const char *>(data), qsizetype(size)));
    if (!info)
        return 0;
    if (info->driver.isEmpty() || info->engines.size() > 64 || info->regions.size() > 64)
        std::abort();
    if (!info->pdev.isEmpty() && (info->pdev.size() < 12 || info->pdev.size() > 16))
        std::abort();
    for (const DrmEngineUsage &engine : info->engines) {
        requireNonNegative(engine.busyNs);
        requireNonNegative(engine.cycles);
        requireNonNegative(engine.totalCycles);
        if (engine.capacityOrOne() < 1)
            std::abort();
    }
    for (const DrmRegionMemory &region : info->regions) {
        for (const auto &value : {region.total, region.shared, region.resident, region.purgeable, region.active,
                                  region.legacyMemory})
            requireNonNegative(value);
    }
    requireNonNegative(info->gpuMemoryBytes());
    info->usedCompute();

    // The same client read twice is one client; each engine against itself and against the others stays in range.
    const QList<DrmGpuUsage> gpus = drmUsageByGpu({*info, *info});
    if (gpus.size() != 1 || gpus.first().clients != (info->clientId ? 1 : 2))
        std::abort();
    for (const DrmEngineUsage &earlier : info->engines) {
        for (const DrmEngineUsage &later : info->engines) {
            const std::optional<double> percent = drmEngineBusyPercent(earlier, later, 1000000000);
            if (percent && !(*percent >= 0.0 && *percent <= 100.0))
                std::abort();
        }
    }
    return 0;
}
