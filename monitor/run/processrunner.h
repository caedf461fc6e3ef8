#pragma once
// Runs each workload as a supervised process through idlegpu-reaper (see reaper/reaper.cpp), which puts it
// in a session of its own, adopts anything that forks away, and ends the whole tree when told to or when
// idlegpu dies (even by SIGKILL). With user= naming another user (idlegpu as root), the reaper stays root and
// the workload drops to that user before its exec; its log= file is opened as that user.
#include "clock.h"
#include "run/workloadrunner.h"

#include <QHash>
#include <QPointer>
#include <QProcessEnvironment>

class QProcess;
class QTimer;

class ProcessRunner : public WorkloadRunner
{
    Q_OBJECT
public:
    // reaperPath: the idlegpu-reaper executable; empty: defaultReaperPath().
    explicit ProcessRunner(const Clock *clock = SystemClock::instance(), const QString &reaperPath = QString(),
                           QObject *parent = nullptr);
    ~ProcessRunner() override; // kills what still runs (no waiting): the reaper ends the trees

    bool start(const WorkloadConfig &config, const QList<int> &gpus, bool allGpus) override;
    void stop(const QString &id, const QString &reason) override;
    void stopAll(const QString &reason) override;
    void forget(const QString &id) override;
    QHash<QString, WorkloadRuntime> runtimes() const override;
    void setGpuUuids(const QHash<int, QString> &uuidsByIndex) override { m_gpuUuids = uuidsByIndex; }
    void setGpuDevices(const QList<GpuDevice> &devices) override { m_gpuDevices = devices; }

    // The environment a workload gets: idlegpu's own (PATH, HOME...), CUDA_DEVICE_ORDER=PCI_BUS_ID so that
    // CUDA numbers GPUs in PCI order, then, unless allGpus, each vendor's selection of `gpus`, then env= over all.
    // - NVIDIA: CUDA_VISIBLE_DEVICES names the selected NVIDIA GPUs by UUID (GPU-...) when `uuidsByIndex` knows
    //   every one of them, so no renumbering can put a workload on another card; else by number. "-1" (an
    //   invalid index: CUDA shows the devices before it, none) when none of them is selected. Unset on a machine
    //   without NVIDIA GPUs, since HIP reads it too.
    // - AMD (when present): ROCR_VISIBLE_DEVICES names the selected ones by "GPU-<unique_id>" when sysfs has it
    //   for each, else by their ordinal among the AMD GPUs in PCI order; empty hides them all (ROCr filters as
    //   soon as the variable is set). HIP_VISIBLE_DEVICES then lists all that ROCr exposes (0..k-1), so that
    //   neither an inherited value nor CUDA_VISIBLE_DEVICES (HIP's fallback) narrows it again; an inherited
    //   GPU_DEVICE_ORDINAL, which would index into them, is removed.
    // - Intel (when present): ZE_AFFINITY_MASK lists the ordinals of the selected ones among the Intel GPUs in
    //   PCI order, with ZE_ENABLE_PCI_ID_DEVICE_ORDER=1 (Level Zero numbers them so) and
    //   ZE_FLAT_DEVICE_HIERARCHY=COMPOSITE (an ordinal names a card, not one tile of it). None selected: the
    //   ordinal past the last one (Level Zero drops it, leaving no device).
    // `devices` empty (the caller does not know them): every index is an NVIDIA GPU, as before DRM support.
    static QProcessEnvironment workloadEnvironment(const QList<QPair<QString, QString>> &env, const QList<int> &gpus,
                                                   bool allGpus,
                                                   const QHash<int, QString> &uuidsByIndex = QHash<int, QString>(),
                                                   const QList<GpuDevice> &devices = QList<GpuDevice>());
    // With user= naming someone else (idlegpu as root): `base` with HOME, USER, LOGNAME and SHELL of `account`
    // and without idlegpu's XDG folders, then env= over all again.
    static QProcessEnvironment userEnvironment(const QProcessEnvironment &base, const UserAccount &account,
                                               const QList<QPair<QString, QString>> &env);
    // argv[0] as the workload would find it: a path (relative to its working folder) when it holds '/', else
    // looked up in `pathVariable` (the PATH the workload gets; env= may change it). Empty when not found;
    // *notExecutable then says whether a file by that name exists but cannot be run.
    static QString resolveProgram(const QString &argv0, const QString &workingDir, const QString &pathVariable,
                                  bool *notExecutable = nullptr);

    // Next to the running executable (build/bin, /usr/libexec/idlegpu), else the build tree's.
    static QString defaultReaperPath();

    // Backoff after a workload exits by itself: 5 s doubling to 10 min; a run longer than this resets it.
    static constexpr qint64 kFirstBackoffMs = 5'000;
    static constexpr qint64 kMaxBackoffMs = 600'000;
    static constexpr qint64 kCleanRunMs = 600'000;
    // After the SIGUSR1 (reaper: SIGKILL the tree), how long before the reaper itself gets SIGKILL.
    static constexpr int kReaperKillDelayMs = 2'000;
    // runtime.lastOutput keeps this many lines of the last run, each cut to kMaxOutputLineChars.
    static constexpr int kMaxOutputLines = 20;
    static constexpr int kMaxOutputLineChars = 500;

private:
    struct Entry;
    void onFinished(const QString &id);
    void onEscalation(const QString &id);
    void appendOutput(const QString &id, const QByteArray &bytes);
    void addOutputLine(Entry &entry, const QByteArray &line);
    void writeLogLine(Entry &entry, const QString &line);
    bool failToStart(Entry &entry, const QString &message);
    // State BackingOff after a failed start or an unasked exit; `what` is the warning's first words.
    void backOff(Entry &entry, const QString &lastExit, const QString &what);
    void maybeEmitAllStopped();

    const Clock *m_clock;
    QString m_reaperPath;
    QHash<QString, Entry *> m_entries;
    bool m_stoppingAll = false;
    QHash<int, QString> m_gpuUuids;
    QList<GpuDevice> m_gpuDevices;
};
