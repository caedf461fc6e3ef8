// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "settings/settingsdraft.h"

#include "policy/policy.h"

#include "config/commandsplit.h"
#include "config/configkeys.h"
#include "config/inifile.h"
#include "config/workloadchecks.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QHash>
#include <QLocale>
#include <QRegularExpression>
#include <QSet>
#include <QStandardPaths>

#include <algorithm>
#include <iterator>

namespace {

QString defaultWorkloadName(const QString &id)
{
    const QLatin1String prefix("process-");
    return id.startsWith(prefix) && id.size() > prefix.size() ? id.mid(prefix.size()) : id;
}

QString slug(const QString &text)
{
    QString result;
    for (const QChar c : text.toLower()) {
        if ((c >= QLatin1Char('a') && c <= QLatin1Char('z')) || (c >= QLatin1Char('0') && c <= QLatin1Char('9')))
            result.append(c);
        else if (!result.isEmpty() && !result.endsWith(QLatin1Char('-')))
            result.append(QLatin1Char('-'));
    }
    while (result.endsWith(QLatin1Char('-')))
        result.chop(1);
    return result;
}

QString uniqueId(const QString &base, const QStringList &taken)
{
    QString id = base;
    for (int n = 2; taken.contains(id); ++n)
        id = base + QLatin1Char('-') + QString::number(n);
    return id;
}

// Changes from `before` to `after` of one section, as "section/key" edits.
void diffSection(const QString &section, const QMap<QString, QString> &before, const QMap<QString, QString> &after,
                 SavePlan *plan)
{
    for (auto it = after.constBegin(); it != after.constEnd(); ++it)
        if (before.value(it.key()) != it.value() || !before.contains(it.key()))
            plan->edit.setKeys.insert(section + QLatin1Char('/') + it.key(), it.value());
    for (auto it = before.constBegin(); it != before.constEnd(); ++it)
        if (!after.contains(it.key()))
            plan->edit.removeKeys.append(section + QLatin1Char('/') + it.key());
}

// The rows of the sections a file has once: the keys of SettingsDraft::keys.
QList<const KeyRow *> draftRows()
{
    QList<const KeyRow *> rows;
    for (const KeyRow *row : ConfigKeys::table())
        if (!row->repeated())
            rows.append(row);
    return rows;
}

const KeyRow &keyRow(const char *section, const char *key)
{
    return ConfigKeys::row(QLatin1String(section), QLatin1String(key));
}

bool isVariableName(const QString &name)
{
    static const QRegularExpression pattern(QStringLiteral("^[A-Za-z_][A-Za-z0-9_]*$"));
    return pattern.match(name).hasMatch();
}

} // namespace

namespace DraftRules {
namespace {
// The draft's messages are translated in the context DraftRules.
QString tr(const char *text, const char *disambiguation = nullptr, int n = -1)
{
    return QCoreApplication::translate("DraftRules", text, disambiguation, n);
}

// The dialog's field of a workload's key.
QString dialogField(const QString &key)
{
    if (key == QLatin1String("start_cmd"))
        return QStringLiteral("startCmd");
    if (key == QLatin1String("stop_cmd"))
        return QStringLiteral("stopCmd");
    return key;
}

// The dialog's words for a problem of WorkloadChecks, which gives the verdict and its plain English for the log.
QString problemText(const WorkloadProblem &problem)
{
    switch (problem.kind) {
    case WorkloadProblem::NoSuchUser: return tr("There is no user “%1”.").arg(problem.subject);
    case WorkloadProblem::UserNeedsRoot:
        return tr("Only root can run a workload as another user (“%1”).").arg(problem.subject);
    case WorkloadProblem::RootByDefault:
        return tr("idlegpu runs as root, so without a user this workload runs as root, with every privilege (as "
                  "gpu_mon ran it): enter a user to run it as that user.");
    case WorkloadProblem::RunsAsRoot: return tr("This workload runs as root, with every privilege.");
    case WorkloadProblem::NoFolder: return tr("The folder “%1” does not exist.").arg(problem.subject);
    case WorkloadProblem::FolderClosed:
        return tr("The workload's user cannot enter the folder “%1”.").arg(problem.subject);
    case WorkloadProblem::ProgramNotFound:
        return tr("The program “%1” does not exist yet: the workload cannot start until it does.").arg(problem.subject);
    case WorkloadProblem::ProgramNotInPath:
        return tr("The program “%1” is not found in the workload's PATH: the workload cannot start until it is "
                  "there.")
            .arg(problem.subject);
    case WorkloadProblem::NotExecutable:
        return tr("“%1” is not a program the workload's user can run.").arg(problem.subject);
    case WorkloadProblem::LogIsFolder: return tr("“%1” is a folder, not a file.").arg(problem.subject);
    case WorkloadProblem::LogNotWritable:
        return tr("The log file “%1” is not writable for the workload's user.").arg(problem.subject);
    case WorkloadProblem::NoLogFolder: return tr("The folder “%1” does not exist.").arg(problem.subject);
    case WorkloadProblem::LogFolderClosed:
        return tr("The workload's user cannot create a file in the folder “%1”.").arg(problem.subject);
    }
    return problem.message;
}
} // namespace
} // namespace DraftRules

QMap<QString, QString> SettingsDraft::keyTexts(const Config &config, const IniDocument &file)
{
    QMap<QString, QString> keys;
    for (const KeyRow *row : draftRows()) {
        QString text = ConfigKeys::text(*row, config);
        // A key read by a parser of its own may mean the same in other words: the file's are the user's.
        if (const IniDocument::Entry *entry = file.find(QLatin1String(row->section), QLatin1String(row->key));
            entry && row->kind == KeyKind::Custom) {
            QStringList problems;
            const Config read = ConfigKeys::withText(*row, entry->value, config, &problems);
            if (problems.isEmpty() && read.settings() == config.settings())
                text = entry->value.simplified(); // one line: continuation lines joined, as cmd=
        }
        keys.insert(row->path(), text);
    }
    return keys;
}

Config SettingsDraft::read(const KeyRow &row) const
{
    return ConfigKeys::withText(row, key(row), Config());
}

void SettingsDraft::edit(const KeyRow &row, const std::function<void(Config &)> &change)
{
    const Config before = read(row);
    Config after = before;
    change(after);
    if (after.settings() != before.settings())
        setKey(row, ConfigKeys::text(row, after));
}

SettingsDraft SettingsDraft::fromConfig(const Config &config, const IniDocument &file)
{
    SettingsDraft draft;
    draft.keys = keyTexts(config, file);
    for (const GpuGroupConfig &group : config.gpuGroups)
        draft.groups.append({group.id, group.gpus, group.ignorePrograms, group.busyWhen, group.busyMemoryMib,
                             group.busyMemoryMibGiven, group.graphicsBusyPercent});
    for (const WorkloadConfig &w : config.workloads) {
        WorkloadDraft workload;
        workload.id = w.id;
        workload.name = w.name;
        workload.cmd = QString(w.cmd).replace(QLatin1Char('\n'), QLatin1Char(' '));
        workload.controlsService = w.kind() == WorkloadKind::ControlCommands;
        workload.startCmd = QString(w.startCmd).replace(QLatin1Char('\n'), QLatin1Char(' '));
        workload.stopCmd = QString(w.stopCmd).replace(QLatin1Char('\n'), QLatin1Char(' '));
        workload.servicePrograms = w.servicePrograms.join(QStringLiteral(", "));
        workload.commandTimeout = QString::number(w.commandTimeoutSeconds);
        workload.user = w.user;
        workload.dir = w.dir;
        workload.gpus = w.gpus;
        workload.log = w.log;
        workload.env = w.env;
        workload.stopTimeout = QString::number(w.stopTimeoutSeconds);
        workload.priority = w.priority;
        workload.enabled = w.enabled;
        draft.workloads.append(workload);
    }
    return draft;
}

// ---------------------------------------------------------------------------------------------------------
// Validation

QList<SettingsProblem> DraftRules::validate(const SettingsDraft &draft, const QList<int> &presentGpus,
                                               const UserLookup &users)
{
    QList<SettingsProblem> problems;
    const auto checkSeconds = [&](SettingsProblem::Page page, int item, const QString &field, const QString &text,
                                  ConfigRange range) {
        const std::optional<qint64> value = parseWholeNumber(text);
        if (!value || !range.contains(*value))
            problems.append({page, item, field,
                             tr("Enter a whole number of seconds from %1 to %2.").arg(range.min).arg(range.max)});
    };
    const auto checkGpus = [&](SettingsProblem::Page page, int item, const GpuSelection &gpus) {
        if (gpus.all)
            return;
        if (gpus.indices.isEmpty()) {
            problems.append({page, item, QStringLiteral("gpus"), tr("Choose at least one GPU, or All GPUs.")});
            return;
        }
        for (int gpu : gpus.indices)
            if (!presentGpus.contains(gpu)) {
                if (presentGpus.isEmpty())
                    problems.append({page, item, QStringLiteral("gpus"),
                                     tr("No GPU is detected right now: GPU %1 cannot be checked.").arg(gpu),
                                     SettingsProblem::Warning});
                else
                    problems.append({page, item, QStringLiteral("gpus"), tr("GPU %1 is not present.").arg(gpu)});
                return;
            }
    };

    // The keys of the sections a file has once: numbers in their rows' ranges, a schedule that reads.
    for (const KeyRow *row : draftRows()) {
        const QString text = draft.key(*row);
        if (row->kind == KeyKind::Seconds)
            checkSeconds(SettingsProblem::Key, -1, row->path(), text, row->range);
    }
    const KeyRow &run = keyRow("schedule", "run");
    QString scheduleMessage;
    if (!Schedule::parse(draft.key(run), &scheduleMessage))
        problems.append({SettingsProblem::Key, -1, run.path(), tr("Not a schedule: %1.").arg(scheduleMessage)});

    for (int i = 0; i < draft.groups.size(); ++i) {
        const GroupDraft &group = draft.groups.at(i);
        checkGpus(SettingsProblem::Groups, i, group.gpus);
        for (const QString &program : group.ignorePrograms)
            if (program.contains(QLatin1Char(',')) || program.trimmed() != program || program.isEmpty()) {
                problems.append({SettingsProblem::Groups, i, QStringLiteral("ignore"),
                                 tr("“%1” cannot be a program name: no commas, no spaces around it.").arg(program)});
                break;
            }
    }

    for (int i = 0; i < draft.workloads.size(); ++i) {
        const WorkloadDraft &w = draft.workloads.at(i);
        const auto problem = [&](const QString &field, const QString &message) {
            problems.append({SettingsProblem::Workloads, i, field, message});
        };
        const QString name = w.name.trimmed();
        if (name.isEmpty())
            problem(QStringLiteral("name"), tr("Enter a name."));
        for (int j = 0; j < i && !name.isEmpty(); ++j)
            if (draft.workloads.at(j).name.trimmed() == name) {
                problem(QStringLiteral("name"), tr("Another workload is already named “%1”.").arg(name));
                break;
            }

        // Its user, folder, programs and log, as `idlegpu --check-config` checks them.
        for (const WorkloadProblem &found : WorkloadChecks::check(workloadConfig(w), users))
            problems.append(
                {SettingsProblem::Workloads, i, dialogField(found.key), problemText(found),
                 found.severity == ConfigDiagnostic::Error ? SettingsProblem::Error : SettingsProblem::Warning});

        // cmd=, start_cmd= or stop_cmd=: a program that can be run.
        const auto checkCommand = [&](const QString &field, const QString &command, const QString &whenEmpty) {
            QString splitError;
            const std::optional<QStringList> argv = splitCommand(command, &splitError);
            if (command.trimmed().isEmpty()) {
                problem(field, whenEmpty);
            } else if (!argv) {
                problem(field, tr("The command cannot be split into words: %1.").arg(splitError));
            } else if (argv->isEmpty() || argv->first().isEmpty()) {
                problem(field, tr("The command names no program."));
            }
        };
        if (w.controlsService) {
            checkCommand(QStringLiteral("startCmd"), w.startCmd,
                         tr("Enter the command that lets the service use the GPUs."));
            checkCommand(QStringLiteral("stopCmd"), w.stopCmd,
                         tr("Enter the command that makes the service leave the GPUs."));
            const ConfigRange range = keyRow("process-*", "command_timeout_seconds").range;
            const std::optional<qint64> seconds = parseWholeNumber(w.commandTimeout);
            if (!seconds || !range.contains(*seconds))
                problem(QStringLiteral("commandTimeout"),
                        tr("Enter a whole number of seconds from %1 to %2.").arg(range.min).arg(range.max));
        } else {
            checkCommand(QStringLiteral("cmd"), w.cmd, tr("Enter the command to run."));
        }

        checkGpus(SettingsProblem::Workloads, i, w.gpus);

        for (int row = 0; row < w.env.size(); ++row) {
            const auto &[key, value] = w.env.at(row);
            if (!isVariableName(key)) {
                problem(QStringLiteral("env"), tr("Row %1: “%2” is not a variable name (letters, digits and _, not "
                                                  "starting with a digit).")
                                                   .arg(row + 1)
                                                   .arg(key));
                break;
            }
            if (value.contains(QLatin1Char('\n')) || value.contains(QLatin1Char('\r')) || value.contains(QChar())) {
                problem(QStringLiteral("env"), tr("Row %1: a value cannot hold a line break.").arg(row + 1));
                break;
            }
        }
        checkSeconds(SettingsProblem::Workloads, i, QStringLiteral("stopTimeout"), w.stopTimeout,
                     keyRow("process-*", "stop_timeout_seconds").range);
    }
    problems += startOrderNotes(draft);
    return problems;
}

QList<SettingsProblem> DraftRules::startOrderNotes(const SettingsDraft &draft)
{
    QList<GpuSelection> selections;
    for (const WorkloadDraft &w : draft.workloads)
        selections.append(w.gpus);
    QList<int> order; // the enabled ones: a disabled workload never runs, so it keeps none waiting
    for (int index : Policy::startOrder(selections))
        if (draft.workloads.at(index).enabled)
            order.append(index);
    const auto share = [](const GpuSelection &a, const GpuSelection &b) {
        return a.all || b.all
               || std::any_of(a.indices.cbegin(), a.indices.cend(), [&b](int gpu) { return b.indices.contains(gpu); });
    };
    const auto quoted = [&draft](const QList<int> &indices) {
        QStringList names;
        for (int index : indices)
            names.append(tr("“%1”").arg(draft.workloads.at(index).name.trimmed()));
        return QLocale().createSeparatedList(names);
    };

    // Every workload it shares a GPU with is named: those that go first, and those that wait for it.
    QList<SettingsProblem> notes;
    for (int position = 0; position < order.size(); ++position) {
        const int i = order.at(position);
        const WorkloadDraft &w = draft.workloads.at(i);
        QList<int> first, waiting;
        for (int other = 0; other < order.size(); ++other)
            if (other != position && share(draft.workloads.at(order.at(other)).gpus, w.gpus))
                (other < position ? first : waiting).append(order.at(other));
        QStringList sentences;
        if (first.size() == 1)
            sentences.append(tr("%1 goes first on a GPU this workload also uses: this one waits while it runs there.")
                                 .arg(quoted(first)));
        else if (first.size() > 1)
            sentences.append(tr("%1 go first on GPUs this workload also uses: this one waits while they run there.")
                                 .arg(quoted(first)));
        if (waiting.size() == 1)
            sentences.append(
                tr("%1 also uses one of its GPUs and waits while this one runs there.").arg(quoted(waiting)));
        else if (waiting.size() > 1)
            sentences.append(tr("%1 also use its GPUs and wait while this one runs there.").arg(quoted(waiting)));
        if (!sentences.isEmpty())
            notes.append({SettingsProblem::Workloads, i, QStringLiteral("gpus"), sentences.join(QLatin1Char(' ')),
                          SettingsProblem::Note});
    }
    return notes;
}

WorkloadConfig DraftRules::workloadConfig(const WorkloadDraft &workload)
{
    WorkloadConfig config;
    config.id = workload.id;
    config.name = workload.name.trimmed();
    config.cmd = workload.cmd.trimmed();
    QString error;
    config.argv = splitCommand(config.cmd, &error).value_or(QStringList());
    if (workload.controlsService) {
        config.cmd.clear();
        config.argv.clear();
        config.startCmd = workload.startCmd.trimmed();
        config.startArgv = splitCommand(config.startCmd, &error).value_or(QStringList());
        config.stopCmd = workload.stopCmd.trimmed();
        config.stopArgv = splitCommand(config.stopCmd, &error).value_or(QStringList());
        if (const std::optional<qint64> seconds = parseWholeNumber(workload.commandTimeout);
            seconds && keyRow("process-*", "command_timeout_seconds").range.contains(*seconds))
            config.commandTimeoutSeconds = int(*seconds);
    }
    for (const QString &program : workload.servicePrograms.split(QLatin1Char(',')))
        if (!program.trimmed().isEmpty())
            config.servicePrograms.append(program.trimmed());
    config.user = workload.user.trimmed();
    config.dir = workload.dir.trimmed();
    config.gpus = workload.gpus;
    config.log = workload.log.trimmed();
    config.env = workload.env;
    const ConfigRange range = keyRow("process-*", "stop_timeout_seconds").range;
    if (const std::optional<qint64> seconds = parseWholeNumber(workload.stopTimeout))
        config.stopTimeoutSeconds = int(qBound(range.min, *seconds, range.max));
    config.priority = workload.priority;
    config.enabled = workload.enabled;
    return config;
}

QString DraftRules::shellQuote(const QString &word)
{
    static const QRegularExpression plain(QStringLiteral("^[A-Za-z0-9_@%+=:,./-]+$"));
    if (plain.match(word).hasMatch())
        return word;
    QString quoted = word;
    quoted.replace(QLatin1Char('\''), QStringLiteral("'\\''"));
    return QLatin1Char('\'') + quoted + QLatin1Char('\'');
}

QString DraftRules::envText(const QList<QPair<QString, QString>> &env)
{
    QStringList words;
    for (const auto &[key, value] : env)
        words.append(key + QLatin1Char('=') + (value.isEmpty() ? QStringLiteral("''") : shellQuote(value)));
    return words.join(QLatin1Char(' '));
}

// ---------------------------------------------------------------------------------------------------------
// Key texts

// Every section of a draft is turned into the key texts it stands for (sectionKeys(), groupKeys(), workloadKeys()); the
// texts of the draft as loaded are the baseline. Saving writes a key only when its text differs from the baseline, so a
// file the user did not change in the dialog is not changed on disk, whatever its spelling ("gpus = 0, 1", "enabled =
// yes").
QMap<QString, QString> DraftRules::sectionKeys(const SettingsDraft &draft, const QString &section)
{
    QMap<QString, QString> keys;
    for (const KeyRow *row : ConfigKeys::rowsOf(section)) {
        QString text = draft.key(*row).trimmed();
        if (row->kind == KeyKind::List) // "a , b," as "a, b"
            text = ConfigKeys::text(*row, ConfigKeys::withText(*row, text, Config()));
        if (row->writtenAtDefault || text != ConfigKeys::text(*row, Config()))
            keys.insert(QLatin1String(row->key), text);
    }
    return keys;
}

QMap<QString, QString> DraftRules::groupKeys(const GroupDraft &group)
{
    QMap<QString, QString> keys{{QStringLiteral("gpus"), group.gpus.toString()}};
    if (!group.ignorePrograms.isEmpty())
        keys.insert(QStringLiteral("ignore_programs"), group.ignorePrograms.join(QStringLiteral(", ")));
    if (group.busyWhen)
        keys.insert(configKey<BusyWhen>(), configWord(*group.busyWhen));
    if (group.busyMemoryMibGiven)
        keys.insert(QStringLiteral("busy_memory_mib"), QString::number(group.busyMemoryMib));
    if (group.graphicsBusyPercent != GpuGroupConfig::kDefaultGraphicsBusyPercent)
        keys.insert(QStringLiteral("graphics_busy_percent"), QString::number(group.graphicsBusyPercent));
    return keys;
}

QMap<QString, QString> DraftRules::workloadKeys(const WorkloadDraft &workload, const QString &id)
{
    QMap<QString, QString> keys{
        {QStringLiteral("gpus"), workload.gpus.toString()},
        {QStringLiteral("stop_timeout_seconds"), workload.stopTimeout.trimmed()},
        {QStringLiteral("enabled"), workload.enabled ? QStringLiteral("true") : QStringLiteral("false")}};
    if (workload.controlsService) {
        keys.insert(QStringLiteral("start_cmd"), workload.startCmd.trimmed());
        keys.insert(QStringLiteral("stop_cmd"), workload.stopCmd.trimmed());
        if (workload.commandTimeout.trimmed() != QString::number(WorkloadConfig().commandTimeoutSeconds))
            keys.insert(QStringLiteral("command_timeout_seconds"), workload.commandTimeout.trimmed());
    } else {
        keys.insert(QStringLiteral("cmd"), workload.cmd.trimmed());
    }
    if (!workload.servicePrograms.trimmed().isEmpty())
        keys.insert(QStringLiteral("service_programs"), workload.servicePrograms.trimmed());
    if (workload.name.trimmed() != defaultWorkloadName(id))
        keys.insert(QStringLiteral("name"), workload.name.trimmed());
    if (!workload.user.trimmed().isEmpty())
        keys.insert(QStringLiteral("user"), workload.user.trimmed());
    if (!workload.dir.trimmed().isEmpty())
        keys.insert(QStringLiteral("dir"), workload.dir.trimmed());
    if (!workload.log.trimmed().isEmpty())
        keys.insert(QStringLiteral("log"), workload.log.trimmed());
    if (!workload.env.isEmpty())
        keys.insert(QStringLiteral("env"), envText(workload.env));
    if (workload.priority != ConfigWords<WorkloadPriority>::defaultValue)
        keys.insert(configKey<WorkloadPriority>(), configWord(workload.priority));
    return keys;
}

QString DraftRules::newWorkloadId(const QString &name, const QStringList &taken)
{
    const QString base = slug(name);
    return uniqueId(QStringLiteral("process-") + (base.isEmpty() ? QStringLiteral("workload") : base), taken);
}

QString DraftRules::newGroupId(const GpuSelection &gpus, const QStringList &taken)
{
    const QString base = gpus.all ? QStringLiteral("all") : slug(gpus.toString());
    return uniqueId(QStringLiteral("gpu-") + (base.isEmpty() ? QStringLiteral("group") : base), taken);
}

// ---------------------------------------------------------------------------------------------------------
// Saving

SavePlan SavePlan::make(const SettingsDraft &baseline, const SettingsDraft &current, const IniDocument &file)
{
    SavePlan plan;
    QStringList taken;
    for (const IniDocument::Section &section : file.sections)
        taken.append(section.name);
    const auto addSection = [&plan](const QString &id, const QMap<QString, QString> &keys) {
        plan.edit.sectionsAtEnd.append(id);
        for (auto it = keys.constBegin(); it != keys.constEnd(); ++it)
            plan.edit.setKeys.insert(id + QLatin1Char('/') + it.key(), it.value());
    };

    for (const QString &section : ConfigKeys::sections())
        if (!section.endsWith(QLatin1String("-*")))
            diffSection(section, DraftRules::sectionKeys(baseline, section), DraftRules::sectionKeys(current, section),
                        &plan);

    // GPU groups: their order means nothing (a GPU's ignore list is the union), so new ones are just appended.
    QHash<QString, const GroupDraft *> baselineGroups;
    for (const GroupDraft &group : baseline.groups)
        baselineGroups.insert(group.id, &group);
    for (const GroupDraft &group : current.groups) {
        if (const GroupDraft *before = baselineGroups.value(group.id)) {
            diffSection(group.id, DraftRules::groupKeys(*before), DraftRules::groupKeys(group), &plan);
            baselineGroups.remove(group.id);
            plan.groupIds.append(group.id);
        } else {
            const QString id = DraftRules::newGroupId(group.gpus, taken);
            taken.append(id);
            plan.groupIds.append(id);
            addSection(id, DraftRules::groupKeys(group));
        }
    }
    for (const GroupDraft &group : baseline.groups)
        if (baselineGroups.contains(group.id))
            plan.edit.removeSections.append(group.id);

    // Workloads: their order is their priority. Those that keep their order stay where they are; from the first
    // one out of order on, each is put at the end of the file in turn (moved there when it exists). Either way
    // its keys are edited where they stand.
    QHash<QString, int> baselineIndex;
    for (int i = 0; i < baseline.workloads.size(); ++i)
        baselineIndex.insert(baseline.workloads.at(i).id, i);
    int lastKeptIndex = -1;
    bool appending = false;
    QSet<QString> kept;
    for (const WorkloadDraft &workload : current.workloads) {
        const auto before = baselineIndex.constFind(workload.id);
        const bool exists = !workload.id.isEmpty() && before != baselineIndex.constEnd();
        if (exists) {
            appending = appending || *before < lastKeptIndex;
            lastKeptIndex = qMax(lastKeptIndex, *before);
            kept.insert(workload.id);
            plan.workloadIds.append(workload.id);
            diffSection(workload.id, DraftRules::workloadKeys(baseline.workloads.at(*before), workload.id),
                        DraftRules::workloadKeys(workload, workload.id), &plan);
            if (appending)
                plan.edit.sectionsAtEnd.append(workload.id);
            continue;
        }
        appending = true;
        const QString id = DraftRules::newWorkloadId(workload.name, taken);
        taken.append(id);
        plan.workloadIds.append(id);
        // Keys left at their default are not written.
        WorkloadDraft defaults;
        defaults.name = defaultWorkloadName(id);
        const QMap<QString, QString> defaultKeys = DraftRules::workloadKeys(defaults, id);
        QMap<QString, QString> keys = DraftRules::workloadKeys(workload, id);
        for (auto it = defaultKeys.constBegin(); it != defaultKeys.constEnd(); ++it)
            if (keys.value(it.key()) == it.value())
                keys.remove(it.key());
        addSection(id, keys);
    }
    for (const WorkloadDraft &workload : baseline.workloads)
        if (!kept.contains(workload.id))
            plan.edit.removeSections.append(workload.id);
    return plan;
}

bool SavePlan::apply(const QString &path, const IniText &file, QString *error) const
{
    const std::optional<QByteArray> edited = file.edited(edit, error);
    if (!edited)
        return false;
    if (*edited == file.contents() && QFileInfo::exists(path))
        return true;
    return replaceIniFile(path, *edited, error);
}
