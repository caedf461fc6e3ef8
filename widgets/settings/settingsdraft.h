// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// What the settings dialog edits, apart from its widgets: a draft of the configuration (SettingsDraft), the rules
// it is checked and written by (DraftRules), its problems, and how to write it back so that only what changed is
// touched (SavePlan).
//
// Every section of a draft is turned into the key texts it stands for (DraftRules::defaultsKeys(), groupKeys(),
// workloadKeys()...); the texts of the draft as loaded are the baseline. Saving writes a key only when its text
// differs from the baseline, so a file the user did not change in the dialog is not changed on disk, whatever its
// spelling ("gpus = 0, 1", "enabled = yes").
#include "config/config.h"
#include "config/gpuselection.h"
#include "config/inifile.h"
#include "model/snapshot.h"

#include <QCoreApplication>
#include <QList>
#include <QMap>
#include <QPair>
#include <QString>
#include <QStringList>

struct GroupDraft
{
    QString id; // section name; new groups get theirs when saved
    GpuSelection gpus;
    QStringList ignorePrograms;
    std::optional<BusyWhen> busyWhen; // busy_when; absent: the key is not written
    qint64 busyMemoryMib = GpuGroupConfig::kDefaultBusyMemoryMib; // busy_memory_mib, for memory and auto
    // The key was in the file or the user set it: written. Otherwise absent, and each rule uses its own default
    // (memory 256 MiB, auto 1024 MiB: effectiveBusyMemoryMib()).
    bool busyMemoryMibGiven = false;
    int graphicsBusyPercent = GpuGroupConfig::kDefaultGraphicsBusyPercent; // written when not the default

    // What busy_memory_mib means for this group now: the value given, else the default of its rule.
    qint64 effectiveBusyMemoryMib() const
    {
        if (busyMemoryMibGiven)
            return busyMemoryMib;
        return busyWhen == BusyWhen::Memory ? GpuGroupConfig::kDefaultBusyMemoryMib
                                            : GpuGroupConfig::kDefaultGraphicsBusyMemoryMib;
    }
    // busy_memory_mib and graphics_busy_percent count under this rule (busy_when absent is auto).
    bool usesBusyMemory() const { return !busyWhen || busyWhen == BusyWhen::Auto || busyWhen == BusyWhen::Memory; }
    bool usesGraphicsPercent() const { return !busyWhen || busyWhen == BusyWhen::Auto; }
};

struct WorkloadDraft
{
    QString id; // section name; empty for a workload added in the dialog (named when saved)
    QString name;
    QString cmd; // one line: continuation lines of the file are joined with spaces (the same words)
    // Controls a service that pauses itself (start_cmd=, stop_cmd=) instead of running cmd=.
    bool controlsService = false;
    QString startCmd; // one line each, as cmd
    QString stopCmd;
    QString servicePrograms;                        // service_programs, comma list as typed
    QString commandTimeout = QString::number(WorkloadConfig().commandTimeoutSeconds); // command_timeout_seconds, as typed
    QString user; // user=: empty for the user idlegpu runs as
    QString dir;
    GpuSelection gpus;
    QString log;
    QList<QPair<QString, QString>> env;
    // stop_timeout_seconds as text, so that "0" or "abc" can be shown and explained
    QString stopTimeout = QString::number(WorkloadConfig().stopTimeoutSeconds);
    WorkloadPriority priority = ConfigWords<WorkloadPriority>::defaultValue;
    bool enabled = true;
    // The template it was made from in this dialog (WorkloadTemplates), whose explanation the pages show; not saved.
    QString templateId;
};

struct SettingsDraft
{
    QString interval = QString::number(Config().intervalSeconds);
    QString startDelay = QString::number(Config().startDelaySeconds);
    NotifyConfig notify;
    QList<GroupDraft> groups;
    QList<WorkloadDraft> workloads;
    // The defaults are the config's (a file without the key), as numbers in text fields.
    bool ttyEnabled = TtyConfig().enabled;
    QString whitelist; // comma list as typed
    QString ttyIdle = QString::number(TtyConfig().idleSeconds);
    bool pauseWhileActive = ActivityConfig().pauseWhileActive;            // [activity]
    QString activityIdle = QString::number(ActivityConfig().idleSeconds); // [activity] idle_seconds, as typed
    QString schedule;                                                     // [schedule] run, as typed; empty: always
    OnBattery onBattery = ConfigWords<OnBattery>::defaultValue;           // [defaults] on_battery
    int maxTemperatureC = Config().maxTemperatureC;                       // [defaults] max_temperature_c; 0: off
    QString deviceRoot = Config().deviceRoot;                             // [defaults] device_root; no page edits it

    // `file` gives what the config keeps only parsed: the text of [schedule] run (when it parsed; else the field
    // shows its default, as every other field whose value could not be read).
    static SettingsDraft fromConfig(const Config &config, const IniDocument &file = IniDocument());
};

// One problem of the draft, shown next to its field.
struct SettingsProblem
{
    enum Page { General, Groups, Workloads, Activity };
    // Error: not saved until fixed. Warning: saved, but likely not what is meant. Note: how it will behave.
    enum Severity { Error, Warning, Note };
    Page page = General;
    int item = -1;  // index of the group or workload, -1 on General and Activity
    QString field;  // "interval", "cmd", "gpus", ... (the dialog's field names)
    QString message;
    Severity severity = Error;
};

// How a draft is checked and turned into the key texts it writes.
namespace DraftRules {
// The checks done before saving: numbers in the ranges ConfigLoader accepts (config/configranges.h),
// programs that can be run, folders and logs that exist or can be written, names that do not collide; and
// notes on the order of workloads that share a GPU (startOrderNotes()).
// `presentGpus`: the GPUs detected now; empty means unknown, and a missing GPU is then only a warning.
// `users`: who idlegpu runs as and the accounts a workload's user= may name (checkWorkloadUser()).
QList<SettingsProblem> validate(const SettingsDraft &draft, const QList<int> &presentGpus,
                                const UserLookup &users = UserLookup::system());
// Two enabled workloads that want the same GPU are an order, not an error (Policy::startOrder()): a note on
// the one that waits says which runs first, and one on the first says which waits.
QList<SettingsProblem> startOrderNotes(const SettingsDraft &draft);

// The workload the draft stands for, as a runner takes it: what a test run starts. argv is empty when cmd=
// cannot be split; dir= and log= are taken as typed, as validate() checks them.
WorkloadConfig workloadConfig(const WorkloadDraft &workload);

// env= text that parseEnvAssignments() reads back as `env`: KEY=VALUE words, quoted where needed.
QString envText(const QList<QPair<QString, QString>> &env);
// A word quoted for splitCommand(): as it is when it holds nothing special, else in single quotes.
QString shellQuote(const QString &word);

// The key texts a section's draft stands for ("section" -> key -> text); keys left at a value that means
// "not set" (an empty dir=, log=, env=, the default name) are absent, and so are the keys whose table
// (configwords.h) gives a default, left at it (on_battery, priority): choosing the default removes such a key, and
// a file that lacked it stays as it was.
QMap<QString, QString> defaultsKeys(const SettingsDraft &draft);
QMap<QString, QString> ttyKeys(const SettingsDraft &draft);
QMap<QString, QString> activityKeys(const SettingsDraft &draft);
QMap<QString, QString> scheduleKeys(const SettingsDraft &draft);
QMap<QString, QString> groupKeys(const GroupDraft &group);
QMap<QString, QString> workloadKeys(const WorkloadDraft &workload, const QString &id);

// "process-" + the name in lower case letters, digits and dashes, made unique against `taken`.
QString newWorkloadId(const QString &name, const QStringList &taken);
QString newGroupId(const GpuSelection &gpus, const QStringList &taken);
} // namespace DraftRules

// How a draft is written to a file: one IniEdit on one parse of the file, written with one atomic replace, so
// that a running idlegpu never sees a workload missing. Keys are edited where they stand; a workload moved up
// or down takes its lines with it, and the comment lines directly above its header.
struct SavePlan
{
    IniEdit edit;
    QStringList workloadIds; // the ids the workloads of the draft have after saving, in order
    QStringList groupIds;

    bool isEmpty() const { return edit.isEmpty(); }

    // `baseline` is the draft as loaded from `file`; `current` the edited one.
    static SavePlan make(const SettingsDraft &baseline, const SettingsDraft &current, const IniDocument &file);
    // Carries the plan out on `file`, the contents of `path`: one replace of the file, none when the bytes
    // come out the same. Returns false with *error when the file cannot be edited or written.
    bool apply(const QString &path, const IniText &file, QString *error) const;
};
