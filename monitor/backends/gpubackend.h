#pragma once
// What a vendor library (NVML now) tells about each GPU beyond its device node: name, UUID, bus id, metrics and
// the processes using it. Sampled for display at a modest rate, never on the preemption path.
#include "policy/snapshot.h"

#include <QHash>
#include <QList>
#include <QString>

#include <optional>

// A process the vendor library says uses a GPU.
struct GpuProcessUse
{
    qint64 pid = 0;
    std::optional<qint64> usedMemoryBytes; // absent when the driver does not say (no permission, MIG)
    bool graphics = false;                 // from the graphics list, else the compute list
};

struct GpuInfo
{
    int index = -1;        // ours: the N of /dev/nvidiaN (device minor number); -1 when the library cannot say
    int backendIndex = -1; // the library's own numbering (nvidia-smi's index)
    QString name;          // "NVIDIA H200"
    QString uuid;          // "GPU-8f0c..."; what CUDA_VISIBLE_DEVICES accepts
    QString busId;         // "00000000:19:00.0"
    // Each metric is absent when the library lacks it or answers with an error.
    std::optional<int> utilizationPercent;
    std::optional<qint64> memoryUsedBytes;
    std::optional<qint64> memoryTotalBytes;
    std::optional<int> temperatureCelsius;
    std::optional<int> powerMilliwatts;
    bool processesKnown = false; // the process lists could be read
    QList<GpuProcessUse> processes;
};

// One vendor library. available() is settled at construction; sample() only reads.
class GpuBackend
{
public:
    virtual ~GpuBackend() = default;
    virtual QString name() const = 0;                // "NVML"
    virtual bool available() const = 0;
    virtual QString unavailableReason() const = 0;   // why not available, for the log and the status
    virtual QList<GpuInfo> sample() = 0;             // empty when unavailable
    // Identity and process lists only, without the slower metrics: for watching who computes (busy_when =
    // computes) several times a second. Metrics are left absent.
    virtual QList<GpuInfo> sampleProcesses() { return sample(); }
};

// The backend's view as the status shows it.
struct GpuMetrics
{
    QString backend;            // "NVML"; empty: no backend was tried
    bool available = false;
    QString unavailableReason;
    QHash<int, GpuInfo> gpus;   // by our index; GPUs whose minor number is unknown are left out
    qint64 sampledAtMs = 0;     // monotonic; 0: never
};

// "37% busy, 12.3 of 140.4 GiB, 54 °C, 231 W": the metrics present, for the status; empty when none is.
QString describeGpuMetrics(const GpuInfo &gpu);

// The backend numbers GPUs by the minor numbers of /dev/nvidiaN (backendDeviceRoot): a device_root elsewhere
// (the demo's simulated GPUs) holds other GPUs, whatever their names, so the backend's view does not apply to it.
bool backendMatchesDeviceRoot(const QString &deviceRoot, const QString &backendDeviceRoot);

// The UUID of each GPU by our index, for CUDA_VISIBLE_DEVICES.
QHash<int, QString> gpuUuidsByIndex(const QList<GpuInfo> &gpus);

// Whether the backend's process list of this GPU names only processes the scan saw (`holders`, the visible
// ones): then no other user's job uses it, and a hidden holder inferred from node events is stale. False when
// the list could not be read.
bool backendSeesOnlyVisibleProcesses(const GpuInfo &gpu, const QList<Holder> &holders);

// Adds what the backend's process lists know to a scan's holders. A pid the /proc scan saw as a holder gets its
// memory. A pid the scan could not inspect (its /proc/<pid>/fd unreadable: another user's, idlegpu not root) is
// a hidden holder: it takes over a pid-less hidden holder of that GPU (inferred from inotify), or becomes a new
// one, with comm and uid from /proc/<pid>/status where readable. Pids whose /proc entry is gone (the sample is
// older than the scan) and readable processes that hold no node are left out: the scan is authoritative there.
// Each holder with a pid gets its Holder::gpuUse for every GPU whose lists could be read.
void mergeBackendProcesses(QList<Holder> &holders, const QList<GpuInfo> &gpus, const QString &procRoot);
