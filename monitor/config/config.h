// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The configuration model: the settings of gpu_mon.conf's sections and keys, plus idlegpu's own, with their
// defaults. A config is read from one parse of the file (IniDocument, inifile.h), with values verbatim as the
// project's QSettings format reads them.
#include "config/configwords.h"
#include "config/gpuselection.h"
#include "config/inifile.h"
#include "config/schedule.h"
#include "config/useraccount.h"

#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <limits>
#include <optional>

// The built-in list of programs that hold GPU nodes open without computing on them: display servers and
// compositors, the persistence daemon, monitoring tools. They are ignored on every GPU for which no [gpu-*] group
// gives ignore_programs; the word @builtin in an ignore_programs list stands for them.
inline const QStringList &builtinIgnoredPrograms()
{
    static const QStringList programs{
        QStringLiteral("Xorg"),         QStringLiteral("X"),           QStringLiteral("Xwayland"),
        QStringLiteral("gnome-shell"),  QStringLiteral("mutter"),      QStringLiteral("kwin_x11"),
        QStringLiteral("kwin_wayland"), QStringLiteral("weston"),      QStringLiteral("sway"),
        QStringLiteral("Hyprland"),     QStringLiteral("picom"),       QStringLiteral("nvidia-persistenced"),
        QStringLiteral("nvidia-smi"),   QStringLiteral("nvidia-settings"), QStringLiteral("nvtop"),
        QStringLiteral("nvitop"),       QStringLiteral("gpustat")};
    return programs;
}
inline const QString kBuiltinIgnoredWord = QStringLiteral("@builtin");

// The rule that judges whether the holders of one GPU make it busy: it is busy when any [gpu-*] group covering it
// says so. Groups that give no busy_when do not count; when none gives it, busy_when = auto with its defaults.
struct BusyRule
{
    bool opened = false;
    bool computes = false;
    qint64 memoryThresholdBytes = 0; // 0 means that memory does not count
    bool byClientKind = true;        // auto: compute clients count, and graphics clients by the two thresholds below
    int graphicsBusyPercent = 30;
    qint64 graphicsMemoryBytes = qint64(1024) << 20;
    bool operator==(const BusyRule &) const = default;
};

// The settings of one [gpu-*] group: GPUs whose holders are judged with a list of programs to ignore and a rule of
// what makes them busy. They are compared as a whole: a reload that changes none of them changes nothing.
struct GpuGroupSettings
{
    QString id; // the section name in lower case: "gpu-all"
    GpuSelection gpus;
    QStringList ignorePrograms; // whole program names, never prefixes; may hold @builtin
    bool ignoreProgramsGiven = false; // the key is there (even empty), so the built-in list is not implied
    std::optional<BusyWhen> busyWhen;       // busy_when (configwords.h); absent means auto
    qint64 busyMemoryMib = kDefaultBusyMemoryMib; // busy_memory_mib, for busy_when = memory and auto
    bool busyMemoryMibGiven = false;              // the key is there, so auto uses it instead of its own default
    int graphicsBusyPercent = kDefaultGraphicsBusyPercent; // graphics_busy_percent, for busy_when = auto
    static constexpr qint64 kDefaultBusyMemoryMib = 256;
    // The memory from which a graphics client counts under busy_when = auto without busy_memory_mib. It is higher
    // than memory's 256 MiB because a browser's or an editor's GPU process holds 100-600 MiB all day.
    static constexpr qint64 kDefaultGraphicsBusyMemoryMib = 1024;
    static constexpr int kDefaultGraphicsBusyPercent = 30;

    bool operator==(const GpuGroupSettings &) const = default;
};

// A [gpu-*] group as read: its settings, and where it stands in the file (which no comparison looks at).
struct GpuGroupConfig : GpuGroupSettings
{
    int line = 0; // the line of the section header

    const GpuGroupSettings &settings() const { return *this; }
};

// The settings of [slurm]: one queue for a lab of workstations. Each GPU is lent to the lab's Slurm jobs while it is
// free, and held for the owner while a foreign program uses it (a job of the hidden owner partition on its GRES type
// preempts the lab's job there). A workload per GPU carries it out (Config::withGpuWorkloads(), slurm/ SlurmLender).
struct SlurmConfig
{
    bool enabled = false;
    QString node;                                // the NodeName of this workstation; by default the short host name
    QString partition = QStringLiteral("owner"); // the partition of the holds: hidden, high PriorityTier, root only
    QString gresType = QStringLiteral("gpu%d");  // the GRES type of GPU %d (gres.conf Type=)
    // How long a lab job's processes on a GPU the owner takes back have between idlegpu's SIGTERM and its SIGKILL,
    // whatever the cluster's KillWait (30 s by default), as a local workload's stop_timeout_seconds.
    int stopTimeoutSeconds = 10;
    // Returns the GRES type of GPU `gpu`, such as "gpu1".
    QString gresTypeOf(int gpu) const
    {
        QString type = gresType;
        return type.replace(QLatin1String("%d"), QString::number(gpu));
    }
    bool operator==(const SlurmConfig &) const = default;
};

// The way a workload is carried out, with one runner for each (slurm/runnerrouter.h routes a workload to the runner
// of its kind).
enum class WorkloadKind {
    Process,         // cmd=: idlegpu runs the command while the GPUs are idle and ends it to preempt (ProcessRunner)
    ControlCommands, // start_cmd= and stop_cmd=: a service that pauses itself, lent by one command, taken back by
                     // the other
    SlurmLending,    // [slurm]: a GPU lent to the lab's Slurm queue, held for the owner to preempt (SlurmLender)
};

// The settings of one [process-*] idle workload. They are compared as a whole: a running workload whose settings
// are equal after a reload keeps running.
struct WorkloadSettings
{
    QString id;          // the section name in lower case: "process-0"
    QString name;        // name= ; by default the section name without "process-"
    QString cmd;         // cmd= exactly as written
    QStringList argv;    // cmd split into words as a POSIX shell would (no shell is run)
    QString startCmd;    // start_cmd= exactly as written: lends the GPUs to a service (instead of cmd=)
    QStringList startArgv;
    QString stopCmd;     // stop_cmd= exactly as written: takes them back
    QStringList stopArgv;
    int commandTimeoutSeconds = 30; // command_timeout_seconds: how long start_cmd or stop_cmd may take
    // service_programs: the service's own programs (whole names, matched as ignore_programs are). They are never
    // foreign on this workload's GPUs, because the service computes there when lent and may keep them open when not.
    QStringList servicePrograms;
    QString user;        // user= (a login name or uid), trimmed; empty means the user idlegpu runs as
    QString dir;         // dir= ; empty means the home folder of the user it runs as
    GpuSelection gpus;   // gpus= ; ALL by default
    QString log;         // log= ; empty means that the output goes to idlegpu's own log
    QList<QPair<QString, QString>> env; // env= split into KEY=VALUE pairs, in order
    int stopTimeoutSeconds = 10;
    WorkloadPriority priority = ConfigWords<WorkloadPriority>::defaultValue;
    bool enabled = true;
    // The reason it must not run, a problem with user= (none given as root, an unknown or forbidden user); empty
    // when it may. Such a workload is shown but never started; the rest of the config is used.
    QString refusal;
    // For a GPU lent to the lab ([slurm]), the settings that its holds use, and gpus names that one GPU. Such a
    // workload comes from no section of the file: Config::withGpuWorkloads() makes one per GPU present.
    std::optional<SlurmConfig> slurm;

    WorkloadKind kind() const
    {
        if (slurm)
            return WorkloadKind::SlurmLending;
        return startCmd.isEmpty() && stopCmd.isEmpty() ? WorkloadKind::Process : WorkloadKind::ControlCommands;
    }

    bool operator==(const WorkloadSettings &) const = default;
};

// A workload as read: its settings, and how the file writes them (which no comparison looks at).
struct WorkloadConfig : WorkloadSettings
{
    int line = 0;    // the line of the section header
    QString envText; // env= exactly as written; its pairs (env) are the setting

    const WorkloadSettings &settings() const { return *this; }
};

// The settings of [tty]: stop all workloads while a user who is not on the whitelist is active on a pseudo-terminal.
struct TtyConfig
{
    bool enabled = false;
    QStringList whitelist;
    int idleSeconds = 300;
    bool operator==(const TtyConfig &) const = default;
};

// The settings of [activity]: pause every workload while a person is at the computer.
struct ActivityConfig
{
    bool pauseWhileActive = false; // when off, the GPUs alone decide
    int idleSeconds = 300;         // the user is away after this long without local input (at once when locked)
    bool operator==(const ActivityConfig &) const = default;
};

// The setting of [defaults] notify: which desktop notifications the tray shows, one flag per NotifyKind.
struct NotifyConfig
{
    bool preemption = true;  // a workload stopped because someone opened its GPU
    bool failure = true;     // a workload fails again and again
    bool configError = true; // an edit of the config file that cannot be used
    bool operator==(const NotifyConfig &) const = default;

    bool &operator[](NotifyKind kind) { return this->*flag(kind); }
    bool operator[](NotifyKind kind) const { return this->*flag(kind); }

private:
    static bool NotifyConfig::*flag(NotifyKind kind)
    {
        switch (kind) {
        case NotifyKind::Preemption: return &NotifyConfig::preemption;
        case NotifyKind::Failure: return &NotifyConfig::failure;
        case NotifyKind::ConfigError: return &NotifyConfig::configError;
        }
        return &NotifyConfig::preemption;
    }
};

// The settings of [metrics]: what idlegpu does, written for a fleet's Prometheus (metrics/ MetricsText,
// MetricsTextFile).
struct MetricsConfig
{
    // textfile: the file that node_exporter's textfile collector reads (on Debian /var/lib/prometheus/node-exporter/
    // *.prom), replaced at each change and every interval_seconds; empty means none.
    QString textfile;
    bool operator==(const MetricsConfig &) const = default;
};

// Every setting of a config file, compared as a whole: a reload whose settings are equal changes nothing and says
// nothing. What is not a setting (the file's path, the lines things stand on) lives in Config and the structs it
// holds. ConfigKeys (configkeys.h) has a row for each key, saying which of these fields it fills.
struct ConfigSettings
{
    int intervalSeconds = 10;   // [defaults] interval_seconds: the period of the fallback poll
    int startDelaySeconds = 10; // [defaults] start_delay_seconds: the calm needed before a workload starts
    QString deviceRoot = QStringLiteral("/dev"); // [defaults] device_root
    NotifyConfig notify;                         // [defaults] notify
    // [defaults] vendors: the makers whose GPUs idlegpu manages. Empty (auto) means NVIDIA's when the machine has
    // any (gpu_mon's view: the graphics built into the CPU of an NVIDIA workstation is no GPU to lend), else AMD's
    // and Intel's.
    QList<GpuVendor> vendors;
    QList<GpuGroupConfig> gpuGroups;
    QList<WorkloadConfig> workloads;
    TtyConfig tty;
    ActivityConfig activity;                   // [activity]
    Schedule schedule;                         // [schedule] run; empty means always
    OnBattery onBattery = ConfigWords<OnBattery>::defaultValue; // [defaults] on_battery
    int maxTemperatureC = 0;                   // [defaults] max_temperature_c; 0 means off
    // The degrees below max_temperature_c at which a GPU stopped for heat may run again.
    static constexpr int kCoolDownCelsius = 5;
    SlurmConfig slurm; // [slurm]
    MetricsConfig metrics; // [metrics]

    bool operator==(const ConfigSettings &) const = default;
};

// A config file as read: its settings, and the file they came from.
struct Config : ConfigSettings
{
    QString filePath;

    const ConfigSettings &settings() const { return *this; }

    // Returns the config with the workloads that the file implies for the GPUs present added after its own: with
    // [slurm] enabled, one per GPU that lends it to the lab (id slurm-gpuN, kind Slurm lending). This is the
    // configuration that the monitor puts in force.
    Config withGpuWorkloads(const QList<int> &gpus) const
    {
        Config config = *this;
        if (!slurm.enabled)
            return config;
        for (int gpu : gpus) {
            WorkloadConfig lending;
            lending.id = slurmWorkloadId(gpu);
            lending.name = QStringLiteral("lent to the lab (GPU %1)").arg(gpu);
            lending.gpus = GpuSelection::of({gpu});
            lending.slurm = slurm;
            config.workloads.append(lending);
        }
        return config;
    }
    static QString slurmWorkloadId(int gpu) { return QStringLiteral("slurm-gpu%1").arg(gpu); }

    const WorkloadConfig *workload(const QString &id) const
    {
        for (const WorkloadConfig &w : workloads)
            if (w.id == id)
                return &w;
        return nullptr;
    }

    // Returns the programs ignored on this GPU: the union of the ignore_programs of every [gpu-*] group covering it,
    // with @builtin expanded, or the built-in list when no such group gives ignore_programs.
    QStringList ignoredProgramsFor(int gpu) const
    {
        QStringList result;
        bool given = false;
        const auto add = [&result](const QString &program) {
            if (!result.contains(program))
                result.append(program);
        };
        for (const GpuGroupConfig &group : gpuGroups) {
            if (!group.gpus.contains(gpu) || !group.ignoreProgramsGiven)
                continue;
            given = true;
            for (const QString &program : group.ignorePrograms) {
                if (program == kBuiltinIgnoredWord)
                    for (const QString &builtin : builtinIgnoredPrograms())
                        add(builtin);
                else
                    add(program);
            }
        }
        return given ? result : builtinIgnoredPrograms();
    }

    // Returns the service_programs of each enabled workload that may run on this GPU, with that workload's id. A
    // service's own processes are not foreign where it is lent its GPUs (and stay out of the way of the others).
    QList<QPair<QString, QString>> serviceProgramsFor(int gpu) const
    {
        QList<QPair<QString, QString>> result;
        for (const WorkloadConfig &workload : workloads)
            if (workload.enabled && workload.gpus.contains(gpu))
                for (const QString &program : workload.servicePrograms)
                    result.append({program, workload.id});
        return result;
    }

    // Returns what makes this GPU busy: the union of the busy_when of every [gpu-*] group covering it (groups that
    // give none do not count), or busy_when = auto when none gives it. Auto's thresholds are the lowest of the groups
    // that use it, given or by default.
    BusyRule busyRuleFor(int gpu) const
    {
        BusyRule given;
        given.byClientKind = false;
        bool anyGiven = false;
        int graphicsPercent = 101;
        qint64 graphicsMemoryBytes = std::numeric_limits<qint64>::max();
        for (const GpuGroupConfig &group : gpuGroups) {
            if (!group.gpus.contains(gpu))
                continue;
            if (!group.busyWhen || *group.busyWhen == BusyWhen::Auto) {
                const qint64 mib = group.busyMemoryMibGiven ? group.busyMemoryMib
                                                            : GpuGroupConfig::kDefaultGraphicsBusyMemoryMib;
                graphicsPercent = qMin(graphicsPercent, group.graphicsBusyPercent);
                graphicsMemoryBytes = qMin(graphicsMemoryBytes, mib << 20);
            }
            if (!group.busyWhen)
                continue;
            anyGiven = true;
            switch (*group.busyWhen) {
            case BusyWhen::Auto: given.byClientKind = true; break;
            case BusyWhen::Opened: given.opened = true; break;
            case BusyWhen::Computes: given.computes = true; break;
            case BusyWhen::Memory: {
                const qint64 threshold = group.busyMemoryMib << 20;
                if (given.memoryThresholdBytes == 0 || threshold < given.memoryThresholdBytes)
                    given.memoryThresholdBytes = threshold;
                break;
            }
            }
        }
        BusyRule rule = anyGiven ? given : BusyRule();
        if (rule.byClientKind && graphicsPercent <= 100) {
            rule.graphicsBusyPercent = graphicsPercent;
            rule.graphicsMemoryBytes = graphicsMemoryBytes;
        }
        return rule;
    }
};

// One problem found in a config file, printed as FILE:LINE: severity: message.
struct ConfigDiagnostic
{
    enum Severity { Warning, Error };
    ConfigDiagnostic() = default;
    ConfigDiagnostic(Severity severity, const QString &file, int line, const QString &message,
                     const QString &refusedWorkload = QString())
        : severity(severity), file(file), line(line), message(message), refusedWorkload(refusedWorkload)
    {
    }

    Severity severity = Error;
    QString file;
    int line = 0; // 0 for a problem with the whole file
    QString message;
    // For an Error that refuses only this workload, its section id; the rest of the file is used.
    QString refusedWorkload;
    // For a Warning that this workload runs as root because it names no user (as gpu_mon ran it), its section id.
    // The warning is shown wherever idlegpu says what it runs, the tray's tooltip included.
    QString rootWorkload;

    QString toString() const
    {
        const QString where = line > 0 ? QStringLiteral("%1:%2").arg(file).arg(line) : file;
        return QStringLiteral("%1: %2: %3")
            .arg(where, severity == Error ? QStringLiteral("error") : QStringLiteral("warning"), message);
    }
};

// The result of reading a config file: the config and the problems found in it.
struct ConfigLoadResult
{
    Config config;
    QList<ConfigDiagnostic> diagnostics;
    // Set by load() when the file changed while it was read (an error says so): its writer is not done, and its
    // close or rename brings the whole file.
    bool changedWhileRead = false;
    bool fileBlank = false; // set by load() when the file holds nothing but white space

    // Whether no error keeps the file from being used (refused workloads aside: see refusedWorkloads()).
    bool ok() const
    {
        for (const ConfigDiagnostic &d : diagnostics)
            if (d.severity == ConfigDiagnostic::Error && d.refusedWorkload.isEmpty())
                return false;
        return true;
    }
    // Returns the workloads that will not run, each with the error that says why.
    QList<ConfigDiagnostic> refusedWorkloads() const
    {
        QList<ConfigDiagnostic> refused;
        for (const ConfigDiagnostic &d : diagnostics)
            if (!d.refusedWorkload.isEmpty())
                refused.append(d);
        return refused;
    }
};

// The functions that find, read and check a config file.
namespace ConfigLoader {
// Reads and checks a config file, through readIniFile() (a file that only root or idlegpu's user can change, read
// whole). It never throws or crashes, whatever the file holds; on errors the returned config is a best effort and
// must not be applied (ok() is false). `users` says who idlegpu runs as and finds the accounts that user= names
// (see checkWorkloadUser()).
ConfigLoadResult load(const QString &path, const UserLookup &users = UserLookup::system());
// Does the same as load() for bytes already read (the fuzzer and tests use it); `path` only names them in messages.
ConfigLoadResult parse(const QByteArray &contents, const QString &path, const UserLookup &users = UserLookup::system());
// Does the same as load() for a file already parsed (the settings dialog keeps the parse it saves through).
ConfigLoadResult read(const IniDocument &document, const QString &path, const UserLookup &users = UserLookup::system());

// The config file to use: `overridePath` when given; else ~/.config/idlegpu/idlegpu.conf; else, when that does
// not exist but ~/.config/gpu_mon.conf does, the latter (usedLegacy = true). XDG_CONFIG_HOME is honoured.
struct Location
{
    QString path;
    bool usedLegacy = false;
};
Location locate(const QString &overridePath);
} // namespace ConfigLoader
