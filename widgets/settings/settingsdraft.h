// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The draft of the configuration that the settings dialog edits (SettingsDraft), apart from its widgets, with the
// rules it is checked and written by (DraftRules), its problems, and the plan that writes back only what changed
// (SavePlan).
#include "config/config.h"
#include "config/configkeys.h"
#include "config/gpuselection.h"
#include "config/inifile.h"
#include "model/snapshot.h"

#include <QCoreApplication>
#include <QList>
#include <QMap>
#include <QPair>
#include <QString>
#include <QStringList>

#include <functional>

struct GroupDraft
{
    QString id; // section name; new groups get theirs when saved
    GpuSelection gpus;
    QStringList ignorePrograms;
    std::optional<BusyWhen> busyWhen; // busy_when; when absent, the key is not written
    qint64 busyMemoryMib = GpuGroupConfig::kDefaultBusyMemoryMib; // busy_memory_mib, for memory and auto
    // Whether busy_memory_mib is written: it was in the file or the user set it. Without it, each rule uses its own
    // default (memory 256 MiB, auto 1024 MiB: effectiveBusyMemoryMib()).
    bool busyMemoryMibGiven = false;
    int graphicsBusyPercent = GpuGroupConfig::kDefaultGraphicsBusyPercent; // written when not the default

    // Returns what busy_memory_mib means for this group now: the value given, else the default of its rule.
    qint64 effectiveBusyMemoryMib() const
    {
        if (busyMemoryMibGiven)
            return busyMemoryMib;
        return busyWhen == BusyWhen::Memory ? GpuGroupConfig::kDefaultBusyMemoryMib
                                            : GpuGroupConfig::kDefaultGraphicsBusyMemoryMib;
    }
    // Returns whether busy_memory_mib and graphics_busy_percent count under this rule (an absent busy_when is auto).
    bool usesBusyMemory() const { return !busyWhen || busyWhen == BusyWhen::Auto || busyWhen == BusyWhen::Memory; }
    bool usesGraphicsPercent() const { return !busyWhen || busyWhen == BusyWhen::Auto; }
};

struct WorkloadDraft
{
    QString id; // section name; empty for a workload added in the dialog (named when saved)
    QString name;
    QString cmd; // one line: continuation lines of the file are joined with spaces (the same words)
    // Whether it controls a service that pauses itself (start_cmd=, stop_cmd=) instead of running cmd=.
    bool controlsService = false;
    QString startCmd; // one line each, as cmd
    QString stopCmd;
    QString servicePrograms;                        // service_programs, comma list as typed
    // The command_timeout_seconds text, as typed.
    QString commandTimeout = ConfigKeys::row(QStringLiteral("process-*"), QStringLiteral("command_timeout_seconds")).defaultText();
    QString user; // user=: empty for the user idlegpu runs as
    QString dir;
    GpuSelection gpus;
    QString log;
    QList<QPair<QString, QString>> env;
    // The stop_timeout_seconds text, so that "0" or "abc" can be shown and explained
    QString stopTimeout = ConfigKeys::row(QStringLiteral("process-*"), QStringLiteral("stop_timeout_seconds")).defaultText();
    WorkloadPriority priority = ConfigWords<WorkloadPriority>::defaultValue;
    bool enabled = true;
    // The template it was made from in this dialog (WorkloadTemplates), whose explanation the pages show; not saved.
    QString templateId;
};

struct SettingsDraft
{
    // The keys of the sections a file has once ([defaults], [tty], [activity], [schedule], [slurm], [metrics]), by the
    // path of their row ("tty/idle_seconds", KeyRow::path()): each as the file would write it, or as the user typed
    // it. The defaults are the config's (a file without the key).
    QMap<QString, QString> keys = keyTexts(Config());
    QList<GroupDraft> groups;
    QList<WorkloadDraft> workloads;

    QString key(const KeyRow &row) const { return keys.value(row.path()); }
    void setKey(const KeyRow &row, const QString &text) { keys.insert(row.path(), text); }
    // Returns the key's value as the config reader reads it, into a Config that is otherwise at its defaults: for a
    // field that shows a value rather than a text (a check box, a spin box).
    Config read(const KeyRow &row) const;
    // Sets the key to the text of the value `change` makes of it; keeps the text as it is when that is the same value
    // (the file's own spelling stays, and a field that shows a value edits nothing until it is changed).
    void edit(const KeyRow &row, const std::function<void(Config &)> &change);

    // Returns the draft of `config`. `file` gives the text a key's value came from where the config keeps only what it
    // means ([schedule] run "Mon-Fri ..."): that text is kept when it reads as the same value.
    static SettingsDraft fromConfig(const Config &config, const IniDocument &file = IniDocument());
    // Returns the text of every key of those sections in `config`.
    static QMap<QString, QString> keyTexts(const Config &config, const IniDocument &file = IniDocument());
};

// One problem of the draft, shown next to its field.
struct SettingsProblem
{
    // Key is a key of the draft's `keys`, `field` its path ("tty/idle_seconds"), shown by the page whose field edits
    // it.
    enum Page { General, Groups, Workloads, Activity, Key };
    // An error keeps the draft from being saved; a warning says it is likely not what is meant; a note says how it
    // will behave.
    enum Severity { Error, Warning, Note };
    Page page = General;
    int item = -1;  // index of the group or workload, -1 on General, Activity and for a Key
    QString field;  // "interval", "cmd", "gpus", ... (the dialog's field names)
    QString message;
    Severity severity = Error;
};

// How a draft is checked and turned into the key texts it writes.
namespace DraftRules {
// Returns the problems found before saving: numbers in the ranges ConfigLoader accepts (the rows of
// config/configkeys.h), programs that can be run, folders and logs that exist or can be written, names that do not
// collide; and notes on the order of workloads that share a GPU (startOrderNotes()). `presentGpus`: the GPUs detected
// now; empty means unknown, and a missing GPU is then only a warning. `users`: who idlegpu runs as and the accounts a
// workload's user= may name (checkWorkloadUser()).
QList<SettingsProblem> validate(const SettingsDraft &draft, const QList<int> &presentGpus,
                                const UserLookup &users = UserLookup::system());
// Returns the notes on workloads that want the same GPU, an order rather than an error (Policy::startOrder()): the one
// that waits is told which runs first, and the first which waits.
QList<SettingsProblem> startOrderNotes(const SettingsDraft &draft);

// Returns the workload the draft stands for, as a runner takes it: what a test run starts. argv is empty when cmd=
// cannot be split; dir= and log= are taken as typed, as validate() checks them.
WorkloadConfig workloadConfig(const WorkloadDraft &workload);

// Returns the env= text that parseEnvAssignments() reads back as `env`: KEY=VALUE words, quoted where needed.
QString envText(const QList<QPair<QString, QString>> &env);
// Returns a word quoted for splitCommand(): as it is when it holds nothing special, else in single quotes.
QString shellQuote(const QString &word);

// Returns the key texts a section's draft stands for (key -> text); keys left at a value that means "not set" (an empty
// dir=, log=, env=, the default name) are absent, and so are the keys left at their default (on_battery, priority,
// max_temperature_c): choosing the default removes such a key, and a file that lacked it stays as it was. The keys
// whose row says so (interval_seconds, [tty] enabled...) are written even at their default.
QMap<QString, QString> sectionKeys(const SettingsDraft &draft, const QString &section);
QMap<QString, QString> groupKeys(const GroupDraft &group);
QMap<QString, QString> workloadKeys(const WorkloadDraft &workload, const QString &id);

// Returns "process-" and the name in lower case letters, digits and dashes, made unique against `taken`.
QString newWorkloadId(const QString &name, const QStringList &taken);
QString newGroupId(const GpuSelection &gpus, const QStringList &taken);
} // namespace DraftRules

// The plan that writes a draft to a file: one IniEdit on one parse of the file, written with one atomic replace, so
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
