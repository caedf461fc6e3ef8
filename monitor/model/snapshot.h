// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The value types that describe what one scan saw: the GPUs, the processes that hold their device nodes, and the
// tty sessions.
#include "config/configwords.h"

#include <QDateTime>
#include <QHash>
#include <QList>
#include <QMetaType>
#include <QString>
#include <QStringList>

#include <optional>

// One GPU and its device node. An NVIDIA GPU is <device_root>/nvidiaN; an AMD or Intel GPU is
// <device_root>/dri/renderDN, matched by name to <sysfs_root>/class/drm/renderDN/device (the PCI device) for the
// fields below.
struct GpuDevice
{
    int index = -1; // NVIDIA: the N of nvidiaN; AMD and Intel: after the highest NVIDIA index, in PCI order
    QString path;   // the device node its holders are looked up by (nvidiaN or dri/renderDN)
    GpuVendor vendor = GpuVendor::Nvidia;
    // The following fields are for DRM GPUs only (empty for NVIDIA nodes, which are not looked up in sysfs).
    QString pciSlot = QString(); // "0000:03:00.0"
    QString driver = QString(); // "amdgpu", "i915", "xe"
    QString sysfsDevice = QString(); // the PCI device folder in sysfs, resolved (for metrics readers)
    QString pciId = QString(); // "1002:744c": vendor and device id
    QString uniqueId = QString(); // AMD's sysfs unique_id: 16 lower-case hex digits, as in ROCm's "GPU-<id>"

    bool isDrm() const { return vendor != GpuVendor::Nvidia; }
    // Returns how a GPU without a backend's name is shown: "AMD GPU 1002:744c (amdgpu, 0000:03:00.0)".
    QString describe() const
    {
        if (!isDrm())
            return QString();
        const QString maker = vendor == GpuVendor::Amd ? QStringLiteral("AMD") : QStringLiteral("Intel");
        return QStringLiteral("%1 GPU %2 (%3, %4)").arg(maker, pciId, driver, pciSlot);
    }

    bool operator==(const GpuDevice &) const = default;
};

// The device nodes under device_root: one per GPU, plus the shared nodes that name no GPU, namely those that every
// CUDA process opens (nvidiactl, nvidia-uvm, nvidia-uvm-tools, nvidia-modeset) and kfd, which every ROCm process
// opens.
struct DeviceNodes
{
    QList<GpuDevice> gpus;   // sorted by index
    QStringList sharedNodes; // absolute paths
    QList<int> indices() const
    {
        QList<int> result;
        for (const GpuDevice &gpu : gpus)
            result.append(gpu.index);
        return result;
    }
    QStringList allPaths() const
    {
        QStringList paths = sharedNodes;
        for (const GpuDevice &gpu : gpus)
            paths.append(gpu.path);
        return paths;
    }
    bool operator==(const DeviceNodes &) const = default;
};

// What a backend says that one process does on one GPU.
struct GpuUse
{
    // Whether it computes there: NVML lists it as a compute process, or on AMD and Intel it holds /dev/kfd or fdinfo
    // shows compute engine time. Merely holding the node open (a CUDA process opens every GPU it may use) is not.
    bool compute = false;
    std::optional<qint64> memoryBytes; // the GPU memory it uses there; absent when the backend gives no figure
    // Whether the vendor library lists it only among the GPU's graphics processes (nvidia-smi's type G). Such a
    // process is a graphics client, even where it holds nvidia-uvm.
    bool graphicsOnly = false;
    // The share of the GPU's time that its work took over the backend's last sample window (NVML per-process
    // utilization, DRM fdinfo engine time), 0..100; absent when not measured.
    std::optional<int> busyPercent;
    bool operator==(const GpuUse &) const = default;
};

// A process that holds a device node open.
struct Holder
{
    qint64 pid = 0;
    qint64 ppid = 0;
    qint64 sid = 0;          // session id
    qint64 pgid = 0;         // process group
    // The start time (/proc/<pid>/stat field 22, clock ticks after boot), read with the rest. Together with the pid
    // it names this process, not another that gets the pid later. 0 means unknown.
    quint64 startTime = 0;
    uint uid = uint(-1);
    QString user;            // the login name, or the uid as text when unknown
    QString comm;            // /proc/<pid>/comm
    QString exe;             // the target of /proc/<pid>/exe; empty when unreadable
    QString argv0;           // the first word of /proc/<pid>/cmdline
    QList<qint64> ancestors; // the ppid chain, parent first, ending before pid 1 (or at the first unreadable one)
    QList<int> gpus;         // the indices of the GPU nodes it holds
    bool holdsSharedNode = false; // it holds nvidiactl, nvidia-uvm or kfd
    // Whether it holds nvidia-uvm or /dev/kfd, which makes it a CUDA or ROCm process (nvidiactl alone is held by
    // every NVIDIA client, OpenGL too).
    bool holdsComputeNode = false;
    // Whether it is a holder that could not be seen: a GPU node was opened (inotify) by a process whose fds idlegpu
    // may not read (another user's when idlegpu is not root; one an LSM keeps from root). pid is 0 unless a backend
    // names it.
    bool hidden = false;
    std::optional<qint64> gpuMemoryBytes; // the GPU memory it uses in all, when a backend (NVML, DRM fdinfo) says
    // By GPU index, what a backend says it does there. A GPU missing here means that no backend could say.
    QHash<int, GpuUse> gpuUse;
    // For a process of a Slurm job, SLURM_JOB_ID from its environment (readable as root), or -1 when it descends from
    // slurmstepd but its environment could not be read; 0 when it belongs to no Slurm job.
    qint64 slurmJobId = 0;
    // The job that its nearest slurmstepd ancestor runs, from that root process's title ("slurmstepd: [7.batch]"),
    // which the job's user cannot change as they can their environment; 0 when it has none or it cannot be read. A
    // process named slurmstepd that is not root's is no slurmstepd: any user may name a process so.
    qint64 slurmStepJobId = 0;

    // Returns how the user is told who holds a GPU: "python3 (alice, pid 4242)".
    QString describe() const
    {
        if (hidden && pid == 0)
            return QStringLiteral("a process of another user (not visible without root)");
        return QStringLiteral("%1 (%2, pid %3)").arg(comm.isEmpty() ? QStringLiteral("?") : comm, user).arg(pid);
    }
    bool operator==(const Holder &) const = default;
};

// A pseudo-terminal and how long its user has been idle on it (for gpu_mon's [tty] check).
struct TtySession
{
    QString tty; // e.g. /dev/pts/3
    uint uid = uint(-1);
    QString user;
    qint64 idleMs = 0; // now minus the atime of the pts node
};

// Whether a person sits at this computer, as the presence sources ([activity]) see it.
struct UserPresence
{
    enum class State {
        Unknown,        // no source could tell; counts as active
        Active,         // there is input now, or a source says that the session is not idle
        Idle,           // there was no input since idleSinceMs
        Locked,         // every local session's screen is locked; counts as away
        NoLocalSession  // nobody is logged in at the machine itself; counts as away
    };
    State state = State::Unknown;
    qint64 idleSinceMs = 0; // for Idle, the monotonic time of the last input
    QString source;         // the source that said so: "logind", "GNOME", "KDE", "X11"
    bool operator==(const UserPresence &) const = default;
};

// The source of the machine's power, for [defaults] on_battery.
struct PowerState
{
    bool known = false;     // false when no power supply says (a desktop without one runs on AC)
    bool onBattery = false;
    QString source;         // the supply that said so: "BAT0"
    bool operator==(const PowerState &) const = default;
};

// What one scan saw: the policy's input.
struct Snapshot
{
    qint64 takenAtMs = 0; // monotonic, from the Clock
    DeviceNodes devices;
    QList<Holder> holders;    // the visible holders, plus hidden ones (hidden=true)
    QList<TtySession> ttys;
    int unreadableProcesses = 0; // processes whose fds could not be read (other users' without root)
    UserPresence presence;       // [activity]
    PowerState power;            // [defaults] on_battery
    QHash<int, int> temperatures; // GPU index -> °C, from the backends' last sample; a missing GPU is unknown
    QDateTime localTime;          // the wall time, for [schedule]; when invalid, the schedule is not checked
};

Q_DECLARE_METATYPE(Snapshot)
