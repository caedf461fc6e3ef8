// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "backends/nvmlbackend.h"

#include "base/clock.h"
#include "base/logging.h"

#include <QFile>
#include <QFileInfo>
#include <QHash>

#include <dlfcn.h>

#include <algorithm>
#include <climits>
#include <type_traits>
#include <vector>

namespace {
// Our own declarations of the few NVML types used (nvml.h, stable ABI since the _v2/_v3 entry points).
using nvmlReturn_t = int;
using nvmlDevice_t = struct nvmlDevice_st *;
constexpr nvmlReturn_t NVML_SUCCESS = 0;
constexpr nvmlReturn_t NVML_ERROR_NOT_FOUND = 6;
constexpr nvmlReturn_t NVML_ERROR_INSUFFICIENT_SIZE = 7;
constexpr unsigned NVML_TEMPERATURE_GPU = 0;
constexpr unsigned long long NVML_VALUE_NOT_AVAILABLE = ULLONG_MAX;
constexpr unsigned kNameBufferSize = 96; // NVML_DEVICE_NAME_V2_BUFFER_SIZE
constexpr unsigned kUuidBufferSize = 96; // NVML_DEVICE_UUID_V2_BUFFER_SIZE

struct nvmlPciInfo_t
{
    char busIdLegacy[16];
    unsigned domain;
    unsigned bus;
    unsigned device;
    unsigned pciDeviceId;
    unsigned pciSubSystemId;
    char busId[32];
};
struct nvmlUtilization_t
{
    unsigned gpu;
    unsigned memory;
};
struct nvmlMemory_t
{
    unsigned long long total;
    unsigned long long free;
    unsigned long long used;
};
// nvmlProcessInfo_t as the _v3 process-list functions fill it.
struct nvmlProcessInfo_t
{
    unsigned pid;
    unsigned long long usedGpuMemory;
    unsigned gpuInstanceId;
    unsigned computeInstanceId;
};

// One sample of nvmlDeviceGetProcessUtilization: a process's share of the GPU over NVML's last sample period.
struct nvmlProcessUtilizationSample_t
{
    unsigned pid;
    unsigned long long timeStamp; // CPU time of the sample, microseconds
    unsigned smUtil;
    unsigned memUtil;
    unsigned encUtil;
    unsigned decUtil;
};

// The per-process utilization samples of one GPU over the last window: at least kUtilizationWindowMs, and all
// that came since the read before when that was longer ago. The open-only watch reads every 200 ms, which may come
// before NVML's next sample: the samples before it still stand, so a game's share does not flicker to 0.
// NVML samples only processes that used the GPU: a listed process without a sample in the window had none.
class UtilizationWindow
{
public:
    unsigned long long lastSeen() const { return m_lastSeen; }

    // The samples NVML took since lastSeen(), read at `nowMs` (monotonic).
    void takeIn(const std::vector<nvmlProcessUtilizationSample_t> &fresh, qint64 nowMs)
    {
        m_known = true;
        m_samples.removeIf([nowMs](const Sample &sample) {
            return sample.receivedAtMs < nowMs - NvmlBackend::kUtilizationWindowMs;
        });
        unsigned long long newest = m_lastSeen;
        for (const nvmlProcessUtilizationSample_t &sample : fresh) {
            if (sample.timeStamp <= m_lastSeen)
                continue; // older than asked for: some drivers repeat samples
            // An absurd share (drivers have answered values above 100) says nothing, nor does its time stamp.
            const bool sane = sample.smUtil <= 100;
            m_samples.append(Sample{sample.pid, sane ? std::optional<int>(int(sample.smUtil)) : std::nullopt, nowMs});
            if (sane)
                newest = std::max(newest, sample.timeStamp);
        }
        m_lastSeen = newest;
    }
    // The library could not say (an error, no such function): nothing is known until it says again.
    void forget()
    {
        m_known = false;
        m_samples.clear();
    }

    // The largest sane share of `pid` in the window; 0 without a sample; absent when unknown or every sample of
    // the pid was absurd.
    std::optional<int> busyPercentOf(qint64 pid) const
    {
        if (!m_known)
            return std::nullopt;
        std::optional<int> busiest;
        bool sampled = false;
        for (const Sample &sample : m_samples) {
            if (sample.pid != pid)
                continue;
            sampled = true;
            if (sample.smPercent)
                busiest = std::max(busiest.value_or(0), *sample.smPercent);
        }
        return sampled ? busiest : std::optional<int>(0);
    }

private:
    struct Sample
    {
        qint64 pid = 0;
        std::optional<int> smPercent; // absent: absurd
        qint64 receivedAtMs = 0;
    };
    unsigned long long m_lastSeen = 0; // NVML's time stamp of the newest sane sample taken in
    bool m_known = false;
    QList<Sample> m_samples;
};

QString fromBuffer(const char *buffer, size_t size)
{
    return QString::fromUtf8(buffer, int(qstrnlen(buffer, uint(size))));
}
} // namespace

struct NvmlBackend::Api
{
    void *library = nullptr;
    bool initialized = false;

    nvmlReturn_t (*init)() = nullptr;
    nvmlReturn_t (*shutdown)() = nullptr;
    const char *(*errorString)(nvmlReturn_t) = nullptr;
    nvmlReturn_t (*getCount)(unsigned *) = nullptr;
    nvmlReturn_t (*getHandleByIndex)(unsigned, nvmlDevice_t *) = nullptr;
    nvmlReturn_t (*getName)(nvmlDevice_t, char *, unsigned) = nullptr;
    nvmlReturn_t (*getUuid)(nvmlDevice_t, char *, unsigned) = nullptr;
    nvmlReturn_t (*getPciInfo)(nvmlDevice_t, nvmlPciInfo_t *) = nullptr;
    nvmlReturn_t (*getMinorNumber)(nvmlDevice_t, unsigned *) = nullptr;
    nvmlReturn_t (*getUtilization)(nvmlDevice_t, nvmlUtilization_t *) = nullptr;
    nvmlReturn_t (*getMemory)(nvmlDevice_t, nvmlMemory_t *) = nullptr;
    nvmlReturn_t (*getTemperature)(nvmlDevice_t, unsigned, unsigned *) = nullptr;
    nvmlReturn_t (*getPower)(nvmlDevice_t, unsigned *) = nullptr;
    nvmlReturn_t (*getTotalEnergy)(nvmlDevice_t, unsigned long long *) = nullptr;
    using ProcessList = nvmlReturn_t (*)(nvmlDevice_t, unsigned *, nvmlProcessInfo_t *);
    ProcessList getComputeProcesses = nullptr;
    ProcessList getGraphicsProcesses = nullptr;
    nvmlReturn_t (*getProcessUtilization)(nvmlDevice_t, nvmlProcessUtilizationSample_t *, unsigned *,
                                          unsigned long long) = nullptr;

    QHash<unsigned, UtilizationWindow> utilization; // by NVML index

    QString describe(nvmlReturn_t code) const
    {
        const char *text = errorString ? errorString(code) : nullptr;
        return text ? QStringLiteral("%1 (NVML error %2)").arg(QString::fromUtf8(text)).arg(code)
                    : QStringLiteral("NVML error %1").arg(code);
    }

    // The processes of one list; false when the list cannot be read.
    bool readProcesses(ProcessList function, nvmlDevice_t device, bool graphics, QList<GpuProcessUse> *out) const
    {
        if (!function)
            return false;
        // The list can grow between asking its size and reading it: retry a few times with room to spare.
        std::vector<nvmlProcessInfo_t> infos(64);
        for (int attempt = 0; attempt < 4; ++attempt) {
            unsigned count = unsigned(infos.size());
            const nvmlReturn_t result = function(device, &count, infos.data());
            if (result == NVML_ERROR_INSUFFICIENT_SIZE) {
                infos.resize(qBound<size_t>(infos.size() * 2, size_t(count) + 16, 65536));
                continue;
            }
            if (result != NVML_SUCCESS)
                return false;
            for (unsigned i = 0; i < count && i < infos.size(); ++i) {
                GpuProcessUse use;
                use.pid = infos[i].pid;
                use.graphics = graphics;
                if (infos[i].usedGpuMemory != NVML_VALUE_NOT_AVAILABLE && infos[i].usedGpuMemory <= LLONG_MAX)
                    use.usedMemoryBytes = qint64(infos[i].usedGpuMemory);
                out->append(use);
            }
            return true;
        }
        return false;
    }

    // The per-process utilization samples NVML took since `lastSeen`; false when it cannot say. NOT_FOUND (no
    // sample since) is an answer: true, with none.
    bool readProcessUtilization(nvmlDevice_t device, unsigned long long lastSeen,
                                std::vector<nvmlProcessUtilizationSample_t> *samples) const
    {
        samples->clear();
        if (!getProcessUtilization)
            return false;
        unsigned count = 0;
        nvmlReturn_t result = getProcessUtilization(device, nullptr, &count, lastSeen);
        if (result == NVML_ERROR_NOT_FOUND || (result == NVML_SUCCESS && count == 0))
            return true;
        if (result != NVML_SUCCESS && result != NVML_ERROR_INSUFFICIENT_SIZE)
            return false;
        // Samples can come between asking their number and reading them: room to spare, and a few tries.
        for (int attempt = 0; attempt < 4; ++attempt) {
            samples->resize(qBound<size_t>(16, size_t(count) + 16, 65536));
            unsigned room = unsigned(samples->size());
            result = getProcessUtilization(device, samples->data(), &room, lastSeen);
            if (result == NVML_ERROR_INSUFFICIENT_SIZE) {
                count = std::max(room, unsigned(samples->size()) * 2);
                continue;
            }
            if (result == NVML_SUCCESS && room <= samples->size()) {
                samples->resize(room);
                return true;
            }
            samples->clear();
            return result == NVML_ERROR_NOT_FOUND;
        }
        samples->clear();
        return false;
    }
};

NvidiaLibraryBackend::NvidiaLibraryBackend(const QString &deviceRoot)
    : m_deviceRoot(QFileInfo(deviceRoot).canonicalFilePath())
{
}

bool NvidiaLibraryBackend::covers(const GpuDevice &gpu) const
{
    if (gpu.vendor != GpuVendor::Nvidia || !available() || m_deviceRoot.isEmpty())
        return false;
    return QFileInfo(QFileInfo(gpu.path).absolutePath()).canonicalFilePath() == m_deviceRoot;
}

QList<GpuInfo> NvidiaLibraryBackend::coveredOnly(const QList<GpuInfo> &gpus, const DeviceNodes &covered)
{
    QList<GpuInfo> result;
    for (const GpuInfo &gpu : gpus)
        if (std::any_of(covered.gpus.cbegin(), covered.gpus.cend(),
                        [&gpu](const GpuDevice &device) { return device.index == gpu.index; }))
            result.append(gpu);
    return result;
}

QList<GpuInfo> NvidiaLibraryBackend::refresh(const DeviceNodes &covered)
{
    m_sample = covered.gpus.isEmpty() ? QList<GpuInfo>() : coveredOnly(sample(), covered);
    return m_sample;
}

void NvidiaLibraryBackend::refreshProcesses(const DeviceNodes &covered)
{
    if (covered.gpus.isEmpty())
        return;
    const QList<GpuInfo> processes = coveredOnly(sampleProcesses(), covered);
    // The metrics of the last full sample stay; only who uses each GPU is new.
    for (GpuInfo &known : m_sample)
        for (const GpuInfo &fresh : processes)
            if (fresh.index == known.index) {
                known.processesKnown = fresh.processesKnown;
                known.processes = fresh.processes;
            }
    if (m_sample.isEmpty())
        m_sample = processes;
}

void NvidiaLibraryBackend::judgeHolders(QList<Holder> &holders, const DeviceNodes &covered,
                                        const QString &procRoot) const
{
    Q_UNUSED(covered) // the sample holds covered GPUs only
    if (!m_sample.isEmpty())
        mergeBackendProcesses(holders, m_sample, procRoot);
}

NvmlBackend::NvmlBackend(const QString &libraryPath, const QStringList &missingSymbols, const QString &deviceRoot,
                         const Clock *clock)
    : NvidiaLibraryBackend(deviceRoot), m_api(new Api), m_clock(clock ? clock : SystemClock::instance())
{
    m_api->library = ::dlopen(QFile::encodeName(libraryPath).constData(), RTLD_NOW | RTLD_LOCAL);
    if (!m_api->library) {
        const char *error = ::dlerror();
        const QString why = error ? QString::fromLocal8Bit(error) : QString();
        // dlerror() usually names the file already ("libnvidia-ml.so.1: cannot open shared object file: ...").
        m_unavailableReason = why.contains(libraryPath) ? why : QStringLiteral("cannot load %1: %2").arg(libraryPath, why);
        return;
    }
    const auto resolve = [&](auto &function, const char *symbol) {
        if (missingSymbols.contains(QLatin1String(symbol)))
            return;
        function = reinterpret_cast<std::remove_reference_t<decltype(function)>>(::dlsym(m_api->library, symbol));
    };
    resolve(m_api->init, "nvmlInit_v2");
    resolve(m_api->shutdown, "nvmlShutdown");
    resolve(m_api->errorString, "nvmlErrorString");
    resolve(m_api->getCount, "nvmlDeviceGetCount_v2");
    resolve(m_api->getHandleByIndex, "nvmlDeviceGetHandleByIndex_v2");
    resolve(m_api->getName, "nvmlDeviceGetName");
    resolve(m_api->getUuid, "nvmlDeviceGetUUID");
    resolve(m_api->getPciInfo, "nvmlDeviceGetPciInfo_v3");
    resolve(m_api->getMinorNumber, "nvmlDeviceGetMinorNumber");
    resolve(m_api->getUtilization, "nvmlDeviceGetUtilizationRates");
    resolve(m_api->getMemory, "nvmlDeviceGetMemoryInfo");
    resolve(m_api->getTemperature, "nvmlDeviceGetTemperature");
    resolve(m_api->getPower, "nvmlDeviceGetPowerUsage");
    resolve(m_api->getTotalEnergy, "nvmlDeviceGetTotalEnergyConsumption");
    resolve(m_api->getComputeProcesses, "nvmlDeviceGetComputeRunningProcesses_v3");
    resolve(m_api->getGraphicsProcesses, "nvmlDeviceGetGraphicsRunningProcesses_v3");
    resolve(m_api->getProcessUtilization, "nvmlDeviceGetProcessUtilization");

    // Without these nothing can be enumerated; every other function is optional.
    if (!m_api->init || !m_api->getCount || !m_api->getHandleByIndex) {
        m_unavailableReason = QStringLiteral("%1 lacks nvmlInit_v2, nvmlDeviceGetCount_v2 or "
                                             "nvmlDeviceGetHandleByIndex_v2 (driver too old?)")
                                  .arg(libraryPath);
        return;
    }
    const nvmlReturn_t result = m_api->init();
    if (result != NVML_SUCCESS) {
        m_unavailableReason = QStringLiteral("nvmlInit failed: %1").arg(m_api->describe(result));
        return;
    }
    m_api->initialized = true;
}

NvmlBackend::~NvmlBackend()
{
    if (m_api->initialized && m_api->shutdown)
        m_api->shutdown();
    if (m_api->library)
        ::dlclose(m_api->library);
}

bool NvmlBackend::available() const
{
    return m_api->initialized;
}

QString NvmlBackend::unavailableReason() const
{
    return m_unavailableReason;
}

QList<GpuInfo> NvmlBackend::read(bool withMetrics)
{
    QList<GpuInfo> gpus;
    if (!m_api->initialized)
        return gpus;
    Api &api = *m_api;
    unsigned count = 0;
    const nvmlReturn_t countResult = api.getCount(&count);
    if (countResult != NVML_SUCCESS) {
        qCWarning(lcScan, "nvmlDeviceGetCount: %s", qPrintable(api.describe(countResult)));
        return gpus;
    }
    for (unsigned i = 0; i < count && i < 1024; ++i) {
        nvmlDevice_t device = nullptr;
        if (api.getHandleByIndex(i, &device) != NVML_SUCCESS)
            continue; // a GPU NVML cannot open (lost, no permission): the device node still tells of it
        GpuInfo info;
        info.backendIndex = int(i);
        unsigned minor = 0;
        if (api.getMinorNumber && api.getMinorNumber(device, &minor) == NVML_SUCCESS && minor < 1u << 20)
            info.index = int(minor);
        char name[kNameBufferSize] = {};
        if (api.getName && api.getName(device, name, kNameBufferSize) == NVML_SUCCESS)
            info.name = fromBuffer(name, kNameBufferSize);
        char uuid[kUuidBufferSize] = {};
        if (api.getUuid && api.getUuid(device, uuid, kUuidBufferSize) == NVML_SUCCESS)
            info.uuid = fromBuffer(uuid, kUuidBufferSize);
        nvmlPciInfo_t pci = {};
        if (api.getPciInfo && api.getPciInfo(device, &pci) == NVML_SUCCESS)
            info.busId = fromBuffer(pci.busId, sizeof pci.busId);
        if (withMetrics) {
            nvmlUtilization_t utilization = {};
            if (api.getUtilization && api.getUtilization(device, &utilization) == NVML_SUCCESS && utilization.gpu <= 100)
                info.utilizationPercent = int(utilization.gpu);
            nvmlMemory_t memory = {};
            if (api.getMemory && api.getMemory(device, &memory) == NVML_SUCCESS && memory.total <= LLONG_MAX
                && memory.used <= memory.total) {
                info.memoryUsedBytes = qint64(memory.used);
                info.memoryTotalBytes = qint64(memory.total);
            }
            unsigned temperature = 0;
            if (api.getTemperature && api.getTemperature(device, NVML_TEMPERATURE_GPU, &temperature) == NVML_SUCCESS
                && temperature < 1000)
                info.temperatureCelsius = int(temperature);
            unsigned power = 0;
            if (api.getPower && api.getPower(device, &power) == NVML_SUCCESS && power <= unsigned(INT_MAX))
                info.powerMilliwatts = int(power);
            // Volta and later; older GPUs answer NOT_SUPPORTED and their power is integrated instead.
            unsigned long long energy = 0;
            if (api.getTotalEnergy && api.getTotalEnergy(device, &energy) == NVML_SUCCESS && energy <= LLONG_MAX)
                info.energyMillijoules = qint64(energy);
        }
        QList<GpuProcessUse> compute;
        QList<GpuProcessUse> graphics;
        const bool computeKnown = api.readProcesses(api.getComputeProcesses, device, false, &compute);
        const bool graphicsKnown = api.readProcesses(api.getGraphicsProcesses, device, true, &graphics);
        info.processesKnown = computeKnown || graphicsKnown;
        info.processes = compute;
        for (const GpuProcessUse &use : std::as_const(graphics)) {
            // A process in both lists (CUDA with OpenGL interop) is listed once, with the compute figure.
            bool listed = false;
            for (const GpuProcessUse &known : std::as_const(info.processes))
                listed = listed || known.pid == use.pid;
            if (!listed)
                info.processes.append(use);
        }
        // How busy each listed process kept the GPU: only worth a call when someone is listed.
        UtilizationWindow &window = api.utilization[i];
        std::vector<nvmlProcessUtilizationSample_t> samples;
        if (info.processes.isEmpty())
            window.forget();
        else if (api.readProcessUtilization(device, window.lastSeen(), &samples))
            window.takeIn(samples, m_clock->nowMs());
        else
            window.forget();
        for (GpuProcessUse &use : info.processes)
            use.busyPercent = window.busyPercentOf(use.pid);
        gpus.append(info);
    }
    return gpus;
}
