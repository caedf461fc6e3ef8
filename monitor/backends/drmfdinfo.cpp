// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "backends/drmfdinfo.h"

#include "base/logging.h"

#include <QFile>
#include <QHash>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <limits>

#include <fcntl.h>
#include <unistd.h>

namespace {

constexpr qint64 kMaxValue = std::numeric_limits<qint64>::max();
// Bounds against hostile text: real files name a handful of engines and regions with short names.
constexpr qsizetype kMaxNameLength = 64;
constexpr int kMaxEntries = 64;
constexpr qint64 kMaxEngineCapacity = 1024;
// A DRM fdinfo is a few hundred bytes to a few KiB.
constexpr size_t kMaxFdInfoBytes = 64 * 1024;

bool isSpace(char c)
{
    return c == ' ' || c == '\t' || c == '\r';
}

// keystr of the specification: printable ASCII without whitespace or ':'.
bool isKeyChar(char c)
{
    return c > ' ' && c < 0x7f && c != ':';
}

bool isWord(QByteArrayView text, qsizetype maxLength)
{
    return !text.isEmpty() && text.size() <= maxLength && std::all_of(text.begin(), text.end(), isKeyChar);
}

QByteArrayView trimmed(QByteArrayView text)
{
    while (!text.isEmpty() && isSpace(text.front()))
        text = text.sliced(1);
    while (!text.isEmpty() && isSpace(text.back()))
        text.chop(1);
    return text;
}

// An unsigned decimal number, then optional whitespace and a unit (which may be empty). No sign, no overflow.
bool splitNumber(QByteArrayView value, qint64 *number, QByteArrayView *unit)
{
    qsizetype digits = 0;
    qint64 result = 0;
    while (digits < value.size() && value.at(digits) >= '0' && value.at(digits) <= '9') {
        const int digit = value.at(digits) - '0';
        if (result > (kMaxValue - digit) / 10)
            return false;
        result = result * 10 + digit;
        ++digits;
    }
    if (digits == 0)
        return false;
    *number = result;
    *unit = trimmed(value.sliced(digits));
    return true;
}

std::optional<qint64> parsePlainNumber(QByteArrayView value)
{
    qint64 number = 0;
    QByteArrayView unit;
    if (!splitNumber(value, &number, &unit) || !unit.isEmpty())
        return std::nullopt;
    return number;
}

std::optional<qint64> parseNanoseconds(QByteArrayView value)
{
    qint64 number = 0;
    QByteArrayView unit;
    if (!splitNumber(value, &number, &unit) || !(unit.isEmpty() || unit == "ns"))
        return std::nullopt;
    return number;
}

std::optional<qint64> parseBytes(QByteArrayView value)
{
    qint64 number = 0;
    QByteArrayView unit;
    if (!splitNumber(value, &number, &unit))
        return std::nullopt;
    int shift = 0;
    if (unit == "KiB")
        shift = 10;
    else if (unit == "MiB")
        shift = 20;
    else if (unit == "GiB")
        shift = 30;
    else if (!unit.isEmpty())
        return std::nullopt;
    if (number > (kMaxValue >> shift))
        return std::nullopt;
    return number << shift;
}

bool isHexDigit(char c)
{
    return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F');
}

// "dddd:bb:ss.f": PCI domain (4 to 8 hex digits), bus, slot, function.
bool isPciSlot(QByteArrayView text)
{
    const qsizetype domainLength = text.indexOf(':');
    if (domainLength < 4 || domainLength > 8 || text.size() != domainLength + 8)
        return false;
    for (qsizetype i = 0; i < text.size(); ++i) {
        const qsizetype fromEnd = text.size() - i;
        const char c = text.at(i);
        const bool ok = fromEnd == 8 || fromEnd == 5 ? c == ':'
                        : fromEnd == 2              ? c == '.'
                        : fromEnd == 1              ? c >= '0' && c <= '7'
                                                    : isHexDigit(c);
        if (!ok)
            return false;
    }
    return true;
}

// Sets a field that is still unset: a repeated key keeps its first value.
void setOnce(std::optional<qint64> &field, std::optional<qint64> value)
{
    if (!field)
        field = value;
}

// The entry of `map` named `name`, created if there is room; null for a bad name or a full map.
template<typename Entry>
Entry *entryNamed(QMap<QString, Entry> &map, QByteArrayView name)
{
    if (!isWord(name, kMaxNameLength))
        return nullptr;
    const QString key = QString::fromLatin1(name);
    auto found = map.find(key);
    if (found == map.end()) {
        if (map.size() >= kMaxEntries)
            return nullptr;
        found = map.insert(key, Entry());
    }
    return &*found;
}

// One "drm-..." key after its prefix, with its value.
void applyKey(DrmFdInfo &info, QByteArrayView key, QByteArrayView value)
{
    struct MemoryKey
    {
        const char *prefix;
        std::optional<qint64> DrmRegionMemory::*field;
    };
    static const MemoryKey kMemoryKeys[] = {
        {"drm-total-", &DrmRegionMemory::total},         {"drm-shared-", &DrmRegionMemory::shared},
        {"drm-resident-", &DrmRegionMemory::resident},   {"drm-purgeable-", &DrmRegionMemory::purgeable},
        {"drm-active-", &DrmRegionMemory::active},       {"drm-memory-", &DrmRegionMemory::legacyMemory},
    };

    if (key == "drm-driver") {
        if (info.driver.isEmpty() && isWord(value, kMaxNameLength))
            info.driver = QString::fromLatin1(value);
    } else if (key == "drm-pdev") {
        if (info.pdev.isEmpty() && isPciSlot(value))
            info.pdev = QString::fromLatin1(value).toLower();
    } else if (key == "drm-client-id") {
        const std::optional<qint64> id = parsePlainNumber(value);
        if (!info.clientId && id)
            info.clientId = quint64(*id);
    } else if (key.startsWith("drm-engine-capacity-")) {
        std::optional<qint64> capacity = parsePlainNumber(value);
        if (capacity && (*capacity < 1 || *capacity > kMaxEngineCapacity))
            capacity.reset(); // zero is not allowed; thousands of identical engines are garbage
        if (DrmEngineUsage *engine = capacity ? entryNamed(info.engines, key.sliced(20)) : nullptr)
            setOnce(engine->capacity, capacity);
    } else if (key.startsWith("drm-engine-")) {
        const std::optional<qint64> busyNs = parseNanoseconds(value);
        if (DrmEngineUsage *engine = busyNs ? entryNamed(info.engines, key.sliced(11)) : nullptr)
            setOnce(engine->busyNs, busyNs);
    } else if (key.startsWith("drm-total-cycles-")) {
        const std::optional<qint64> cycles = parsePlainNumber(value);
        if (DrmEngineUsage *engine = cycles ? entryNamed(info.engines, key.sliced(17)) : nullptr)
            setOnce(engine->totalCycles, cycles);
    } else if (key.startsWith("drm-cycles-")) {
        const std::optional<qint64> cycles = parsePlainNumber(value);
        if (DrmEngineUsage *engine = cycles ? entryNamed(info.engines, key.sliced(11)) : nullptr)
            setOnce(engine->cycles, cycles);
    } else {
        for (const MemoryKey &memoryKey : kMemoryKeys) {
            const qsizetype prefixLength = qsizetype(std::strlen(memoryKey.prefix));
            if (!key.startsWith(memoryKey.prefix))
                continue;
            const std::optional<qint64> bytes = parseBytes(value);
            if (DrmRegionMemory *region = bytes ? entryNamed(info.regions, key.sliced(prefixLength)) : nullptr)
                setOnce(region->*memoryKey.field, bytes);
            return;
        }
    }
}

bool hasDigitsAfter(const QString &name, qsizetype prefixLength)
{
    for (qsizetype i = prefixLength; i < name.size(); ++i)
        if (!name.at(i).isDigit())
            return false;
    return true;
}

bool isDeviceLocalRegion(const QString &name)
{
    return (name.startsWith(QLatin1String("vram")) && hasDigitsAfter(name, 4))
           || (name.startsWith(QLatin1String("local")) && name.size() > 5 && hasDigitsAfter(name, 5));
}

bool isGpuMappedSystemRegion(const QString &name)
{
    return name == QLatin1String("gtt") || name == QLatin1String("memory")
           || (name.startsWith(QLatin1String("system")) && hasDigitsAfter(name, 6));
}

qint64 saturatingAdd(qint64 a, qint64 b)
{
    return a > kMaxValue - b ? kMaxValue : a + b;
}

void addTo(std::optional<qint64> &sum, std::optional<qint64> value)
{
    if (value)
        sum = saturatingAdd(sum.value_or(0), *value);
}

// The share of `span` that `busy` is, per engine of the class, clamped to 0..100.
double percentOf(qint64 busy, qint64 span, qint64 capacity)
{
    const double percent = 100.0 * double(std::max<qint64>(busy, 0)) / (double(span) * double(capacity));
    return std::clamp(percent, 0.0, 100.0);
}

} // namespace

// On a discrete GPU the memory is the resident bytes of the device-local regions ("vram", "vram<N>", "local<N>"). A
// client that names no such region is on an integrated GPU, and it is then the system memory the GPU maps for it
// ("gtt", "system", "system<N>", "memory"), never amdgpu's "cpu" (not mapped by the GPU) nor "stolen" (firmware's). An
// AMD APU still reports its carve-out as "vram", and only that counts there.
std::optional<qint64> DrmFdInfo::gpuMemoryBytes() const
{
    const bool discrete = std::any_of(regions.keyBegin(), regions.keyEnd(), isDeviceLocalRegion);
    std::optional<qint64> sum;
    for (auto it = regions.cbegin(); it != regions.cend(); ++it) {
        const bool counted = discrete ? isDeviceLocalRegion(it.key()) : isGpuMappedSystemRegion(it.key());
        if (counted)
            addTo(sum, it.value().residentBytes());
    }
    return sum;
}

// The compute engine is "compute" on amdgpu and i915, "ccs" on xe. False when the driver lists engines and the compute
// one is missing or idle (amdgpu omits idle engines, so on amdgpu no engine line at all also means none used).
std::optional<bool> DrmFdInfo::usedCompute() const
{
    for (const char *name : {"compute", "ccs"}) {
        const auto engine = engines.constFind(QLatin1String(name));
        if (engine != engines.cend() && (engine->busyNs.value_or(0) > 0 || engine->cycles.value_or(0) > 0))
            return true;
    }
    if (!engines.isEmpty() || driver == QLatin1String("amdgpu"))
        return false;
    return std::nullopt;
}

// A line that breaks the format: a negative or overflowing number, an unknown unit, a key with spaces or odd bytes.
// Memory is in bytes (a number without a unit) or KiB, MiB, GiB; engine time is in ns (with or without the unit); no
// value ends up above INT64_MAX.
std::optional<DrmFdInfo> parseDrmFdInfo(QByteArrayView text)
{
    DrmFdInfo info;
    while (!text.isEmpty()) {
        const qsizetype end = text.indexOf('\n');
        const QByteArrayView line = end < 0 ? text : text.first(end);
        text = end < 0 ? QByteArrayView() : text.sliced(end + 1);
        const qsizetype colon = line.indexOf(':');
        if (colon < 0)
            continue;
        const QByteArrayView key = line.first(colon);
        if (key.startsWith("drm-") && isWord(key, 4 * kMaxNameLength))
            applyKey(info, key, trimmed(line.sliced(colon + 1)));
    }
    if (info.driver.isEmpty())
        return std::nullopt;
    return info;
}

QList<DrmGpuUsage> drmUsageByGpu(const QList<DrmFdInfo> &fds)
{
    QList<DrmGpuUsage> gpus;
    QHash<QString, QList<quint64>> clientIdsSeen; // by GPU key
    for (const DrmFdInfo &fd : fds) {
        const QString gpuKey = fd.pdev + QLatin1Char('/') + fd.driver;
        if (fd.clientId) {
            QList<quint64> &seen = clientIdsSeen[gpuKey];
            if (seen.contains(*fd.clientId))
                continue;
            seen.append(*fd.clientId);
        }
        auto gpu = std::find_if(gpus.begin(), gpus.end(), [&](const DrmGpuUsage &usage) {
            return usage.pdev == fd.pdev && usage.driver == fd.driver;
        });
        if (gpu == gpus.end()) {
            DrmGpuUsage usage;
            usage.pdev = fd.pdev;
            usage.driver = fd.driver;
            usage.usedCompute = fd.usedCompute();
            gpus.append(usage);
            gpu = gpus.end() - 1;
        } else {
            const std::optional<bool> computed = fd.usedCompute();
            if (computed.value_or(false) || gpu->usedCompute.value_or(false))
                gpu->usedCompute = true;
            else if (!computed)
                gpu->usedCompute.reset();
        }
        ++gpu->clients;
        addTo(gpu->gpuMemoryBytes, fd.gpuMemoryBytes());
        for (auto it = fd.engines.cbegin(); it != fd.engines.cend(); ++it) {
            DrmEngineUsage &sum = gpu->engines[it.key()];
            addTo(sum.busyNs, it->busyNs);
            addTo(sum.cycles, it->cycles);
            if (it->totalCycles) // a clock, not a count: the latest reading stands for all
                sum.totalCycles = std::max(sum.totalCycles.value_or(0), *it->totalCycles);
            if (it->capacity)
                sum.capacity = std::max(sum.capacity.value_or(1), *it->capacity);
        }
    }
    return gpus;
}

// The share is cycles over total cycles where the driver gives both (xe), else busy time over `elapsedNs`. A counter
// that went backwards (allowed by the kernel's contract; a client closed) counts as idle.
std::optional<double> drmEngineBusyPercent(const DrmEngineUsage &earlier, const DrmEngineUsage &later,
                                           qint64 elapsedNs)
{
    const qint64 capacity = later.capacityOrOne();
    if (earlier.cycles && later.cycles && earlier.totalCycles && later.totalCycles
        && *later.totalCycles > *earlier.totalCycles)
        return percentOf(*later.cycles - *earlier.cycles, *later.totalCycles - *earlier.totalCycles, capacity);
    if (earlier.busyNs && later.busyNs && elapsedNs > 0)
        return percentOf(*later.busyNs - *earlier.busyNs, elapsedNs, capacity);
    return std::nullopt;
}

std::optional<DrmFdInfo> readDrmFdInfo(const QString &procRoot, qint64 pid, int fd)
{
    const QString path = QStringLiteral("%1/%2/fdinfo/%3").arg(procRoot, QString::number(pid), QString::number(fd));
    const int file = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
    if (file < 0) {
        if (errno != ENOENT && errno != ESRCH)
            qCDebug(lcScan).noquote() << "cannot read" << path + QLatin1Char(':') << std::strerror(errno);
        return std::nullopt;
    }
    QByteArray text(qsizetype(kMaxFdInfoBytes), Qt::Uninitialized);
    size_t total = 0;
    while (total < kMaxFdInfoBytes) {
        const ssize_t got = ::read(file, text.data() + total, kMaxFdInfoBytes - total);
        if (got < 0 && errno == EINTR)
            continue;
        if (got < 0) {
            if (errno != ENOENT && errno != ESRCH)
                qCDebug(lcScan).noquote() << "cannot read" << path + QLatin1Char(':') << std::strerror(errno);
            ::close(file);
            return std::nullopt;
        }
        if (got == 0)
            break;
        total += size_t(got);
    }
    ::close(file);
    text.truncate(qsizetype(total));
    if (total == kMaxFdInfoBytes) {
        // Cut off: the last line may have lost digits or its unit, so it goes.
        qCDebug(lcScan).noquote() << path << "is longer than" << kMaxFdInfoBytes << "bytes; the rest is ignored";
        text.truncate(text.lastIndexOf('\n') + 1);
    }
    return parseDrmFdInfo(text);
}

QList<DrmGpuUsage> readDrmUsageOfProcess(const QString &procRoot, qint64 pid, const QList<int> &fds)
{
    QList<DrmFdInfo> infos;
    for (int fd : fds)
        if (std::optional<DrmFdInfo> info = readDrmFdInfo(procRoot, pid, fd))
            infos.append(std::move(*info));
    return drmUsageByGpu(infos);
}
