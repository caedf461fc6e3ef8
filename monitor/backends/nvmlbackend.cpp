#include "backends/nvmlbackend.h"

#include "logging.h"

#include <QFile>
#include <QFileInfo>

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
    using ProcessList = nvmlReturn_t (*)(nvmlDevice_t, unsigned *, nvmlProcessInfo_t *);
    ProcessList getComputeProcesses = nullptr;
    ProcessList getGraphicsProcesses = nullptr;

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

NvmlBackend::NvmlBackend(const QString &libraryPath, const QStringList &missingSymbols, const QString &deviceRoot)
    : NvidiaLibraryBackend(deviceRoot), m_api(new Api)
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
    resolve(m_api->getComputeProcesses, "nvmlDeviceGetComputeRunningProcesses_v3");
    resolve(m_api->getGraphicsProcesses, "nvmlDeviceGetGraphicsRunningProcesses_v3");

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
    const Api &api = *m_api;
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
        gpus.append(info);
    }
    return gpus;
}
