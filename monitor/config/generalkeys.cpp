// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The rows of gpu_mon's keys and of those idlegpu adds beside them: [defaults] (the poll, the start delay, where the
// GPUs are, whose and which notifications), [gpu-*] and [process-*], with the parsers of the keys that need their own.
#include "config/keyrows.h"
#include "config/workloadchecks.h"

#include "config/commandsplit.h"

#include <QDir>

namespace {

// ---------------------------------------------------------------------------------------------------------
// [defaults]

// notify = all | none | a comma list of NotifyKind's words
void readNotify(const KeyRow &row, KeyReading &reading)
{
    using Words = ConfigWords<NotifyKind>;
    const IniDocument::Entry *entry = reading.entry(row);
    if (!entry)
        return;
    NotifyConfig chosen{false, false, false};
    for (const QString &kind : reading.list(row).value_or(QStringList())) {
        const QString k = kind.toLower();
        if (k == QLatin1String(Words::all))
            chosen = NotifyConfig();
        else if (k == QLatin1String(Words::none))
            continue;
        else if (const std::optional<NotifyKind> known = configValue<NotifyKind>(k))
            chosen[*known] = true;
        else {
            reading.error(entry->line, QStringLiteral("%1: '%2' is not a kind of notification: write %3, %4, or a "
                                                      "comma list of %5")
                                           .arg(entry->key, kind, QLatin1String(Words::all), QLatin1String(Words::none),
                                                configWordList<NotifyKind>()));
            return;
        }
    }
    reading.target().config->notify = chosen;
}

QString notifyText(const KeyRow &, const KeySource &source)
{
    using Words = ConfigWords<NotifyKind>;
    const NotifyConfig &notify = source.config->notify;
    QStringList kinds;
    for (const ConfigWord<NotifyKind> &kind : Words::words)
        if (notify[kind.value])
            kinds.append(QLatin1String(kind.word));
    if (kinds.size() == qsizetype(std::size(Words::words)))
        return QLatin1String(Words::all);
    return kinds.isEmpty() ? QString(QLatin1String(Words::none)) : kinds.join(QStringLiteral(", "));
}

// vendors = auto | a comma list of GpuVendor's words
void readVendors(const KeyRow &row, KeyReading &reading)
{
    using Words = ConfigWords<GpuVendor>;
    const IniDocument::Entry *entry = reading.entry(row);
    if (!entry)
        return;
    QList<GpuVendor> &vendors = reading.target().config->vendors;
    const QStringList words = reading.list(row).value_or(QStringList());
    if (words.size() == 1 && words.first().toLower() == QLatin1String(Words::automatic)) {
        vendors.clear();
        return;
    }
    const QString write = QStringLiteral("write %1, or a comma list of %2")
                              .arg(QLatin1String(Words::automatic), configWordList<GpuVendor>());
    QList<GpuVendor> chosen;
    for (const QString &word : words) {
        const std::optional<GpuVendor> vendor = configValue<GpuVendor>(word);
        if (!vendor) {
            reading.error(entry->line, QStringLiteral("%1: '%2' is not a GPU vendor: %3").arg(entry->key, word, write));
            return;
        }
        if (!chosen.contains(*vendor))
            chosen.append(*vendor);
    }
    if (chosen.isEmpty()) {
        reading.error(entry->line, QStringLiteral("%1 is empty: %2").arg(entry->key, write));
        return;
    }
    vendors = chosen;
}

QString vendorsText(const KeyRow &, const KeySource &source)
{
    QStringList words;
    for (const GpuVendor vendor : source.config->vendors)
        words.append(configWord(vendor));
    return words.isEmpty() ? QString(QLatin1String(ConfigWords<GpuVendor>::automatic))
                           : words.join(QStringLiteral(", "));
}

constexpr KeyRow generalRows[] = {
    KeyRows::seconds<&Config::intervalSeconds>("defaults", "interval_seconds", {1, 3600}).alwaysWritten(),
    KeyRows::seconds<&Config::startDelaySeconds>("defaults", "start_delay_seconds", {0, 86400}).alwaysWritten(),
    KeyRows::path<&Config::deviceRoot>("defaults", "device_root"),
    KeyRows::custom("defaults", "notify", readNotify, notifyText).alwaysWritten(),
    KeyRows::custom("defaults", "vendors", readVendors, vendorsText),
};

// ---------------------------------------------------------------------------------------------------------
// [gpu-*] and [process-*]

// gpus = ALL | a comma list of GPU indices
template<auto Member>
void readGpus(const KeyRow &row, KeyReading &reading)
{
    const IniDocument::Entry *entry = reading.entry(row);
    if (!entry)
        return;
    QString message;
    if (const std::optional<GpuSelection> selection = GpuSelection::parse(entry->value, &message))
        *KeyField<Member>::in(reading.target()) = *selection;
    else
        reading.error(entry->line, QStringLiteral("gpus: %1").arg(message));
}

template<auto Member>
QString gpusText(const KeyRow &, const KeySource &source)
{
    return KeyField<Member>::in(source)->toString();
}

void readIgnorePrograms(const KeyRow &row, KeyReading &reading)
{
    if (const std::optional<QStringList> programs = reading.list(row)) {
        reading.target().group->ignorePrograms = *programs;
        reading.target().group->ignoreProgramsGiven = true;
    }
}

// Given empty, the key ignores nothing; not given, the built-in list applies.
QString ignoreProgramsEffective(const KeyRow &, const KeySource &source)
{
    return source.group->ignoreProgramsGiven ? QStringLiteral("(nothing)") : QStringLiteral("(the built-in list)");
}

void readBusyMemoryMib(const KeyRow &row, KeyReading &reading)
{
    if (const std::optional<qint64> mib = reading.number(row)) {
        reading.target().group->busyMemoryMib = *mib; // read with busy_when = memory and auto; kept otherwise, as written
        reading.target().group->busyMemoryMibGiven = true;
    }
}

QString busyMemoryMibText(const KeyRow &, const KeySource &source)
{
    return source.group->busyMemoryMibGiven ? QString::number(source.group->busyMemoryMib) : QString();
}

// Not given, the rule's own default: 256 MiB for memory, 1024 MiB for auto; no other rule reads it.
QString busyMemoryMibEffective(const KeyRow &, const KeySource &source)
{
    const BusyWhen rule = source.group->busyWhen.value_or(ConfigWords<BusyWhen>::defaultValue);
    if (rule == BusyWhen::Memory)
        return QStringLiteral("%1 (memory's default)").arg(GpuGroupSettings::kDefaultBusyMemoryMib);
    if (rule == BusyWhen::Auto)
        return QStringLiteral("%1 (auto's default)").arg(GpuGroupSettings::kDefaultGraphicsBusyMemoryMib);
    return QStringLiteral("(not used by busy_when = %1)").arg(configWord(rule));
}

constexpr KeyRow gpuGroupRows[] = {
    KeyRows::custom("gpu-*", "gpus", readGpus<&GpuGroupSettings::gpus>, gpusText<&GpuGroupSettings::gpus>),
    KeyRows::list<&GpuGroupSettings::ignorePrograms>("gpu-*", "ignore_programs")
        .readBy(readIgnorePrograms)
        .withEffective(ignoreProgramsEffective)
        .withDefaultNote("the built-in list"),
    KeyRows::word<&GpuGroupSettings::busyWhen>("gpu-*"),
    KeyRows::number<&GpuGroupSettings::busyMemoryMib>("gpu-*", "busy_memory_mib", {1, 16 * 1024 * 1024}, "MiB")
        .readBy(readBusyMemoryMib)
        .withText(busyMemoryMibText)
        .withEffective(busyMemoryMibEffective)
        .withDefaultNote("256 (memory), 1024 (auto)"),
    KeyRows::number<&GpuGroupSettings::graphicsBusyPercent>("gpu-*", "graphics_busy_percent", {1, 100}, "percent"),
};

// Words a shell would take as operators; idlegpu runs no shell, so they reach the program as arguments.
const QStringList shellOperators{QStringLiteral("|"),  QStringLiteral("||"), QStringLiteral("&"),
                                 QStringLiteral("&&"), QStringLiteral(";"),  QStringLiteral(">"),
                                 QStringLiteral(">>"), QStringLiteral("<"),  QStringLiteral("2>"),
                                 QStringLiteral("2>&1"), QStringLiteral("&>")};

// name= ; default: the section name without "process-". Names must differ.
void readName(const KeyRow &row, KeyReading &reading)
{
    WorkloadConfig &workload = *reading.target().workload;
    const IniDocument::Section &section = reading.section();
    const QLatin1String prefix("process-");
    const bool hasShortName = section.name.startsWith(prefix) && section.name.size() > prefix.size();
    workload.name = hasShortName ? section.name.mid(prefix.size()) : section.name;
    int nameLine = section.line;
    if (const IniDocument::Entry *entry = reading.entry(row)) {
        nameLine = entry->line;
        if (entry->value.trimmed().isEmpty())
            reading.error(entry->line, QStringLiteral("name is empty"));
        else
            workload.name = entry->value;
    }
    QHash<QString, ConfigReadState::TakenName> &names = reading.state().workloadNames;
    const auto sameName = names.constFind(workload.name);
    if (sameName != names.constEnd())
        reading.error(nameLine, QStringLiteral("[%1] has the name '%2' of [%3] (line %4): names must differ")
                                    .arg(section.name, workload.name, sameName->id, QString::number(sameName->line)));
    else
        names.insert(workload.name, {section.name, section.line});
}

// One command line (cmd=, start_cmd=, stop_cmd=) split into *argv, as a POSIX shell would.
void readCommand(KeyReading &reading, const IniDocument::Entry &entry, QString *command, QStringList *argv)
{
    const QString &key = entry.key;
    *command = entry.value;
    QString message;
    const std::optional<QStringList> words = splitCommand(*command, &message);
    if (!words) {
        reading.error(entry.line, QStringLiteral("%1: %2").arg(key, message));
        return;
    }
    *argv = *words;
    if (words->isEmpty()) {
        reading.error(entry.line, QStringLiteral("%1 is empty: nothing to run").arg(key));
        return;
    }
    if (words->first().isEmpty()) {
        reading.error(entry.line, QStringLiteral("%1: the program name is empty").arg(key));
        return;
    }
    for (const QString &word : *words)
        if (shellOperators.contains(word)) {
            reading.warning(entry.line, QStringLiteral("%1: '%2' is passed to the program as an argument: idlegpu "
                                                       "runs no shell (write %1=sh -c '...' for pipes and "
                                                       "redirections)")
                                            .arg(key, word));
            break;
        }
}

// A workload either runs a command (cmd=) or controls a service that pauses itself (start_cmd= and stop_cmd=): the
// three keys are read together, by cmd's row.
void readCommands(const KeyRow &, KeyReading &reading)
{
    WorkloadConfig &workload = *reading.target().workload;
    const QString &sectionName = reading.section().name;
    const IniDocument::Entry *cmd = reading.find(QStringLiteral("cmd"));
    const IniDocument::Entry *start = reading.find(QStringLiteral("start_cmd"));
    const IniDocument::Entry *stop = reading.find(QStringLiteral("stop_cmd"));
    if (cmd && (start || stop)) {
        const IniDocument::Entry *other = start ? start : stop;
        reading.error(other->line, QStringLiteral("[%1] has cmd= (line %2) and %3=: a workload either runs a command "
                                                  "(cmd=) or controls a service (start_cmd= and stop_cmd=), not both")
                                       .arg(sectionName, QString::number(cmd->line), other->key));
        return;
    }
    if (cmd) {
        readCommand(reading, *cmd, &workload.cmd, &workload.argv);
        return;
    }
    if (!start && !stop) {
        reading.error(reading.section().line, QStringLiteral("[%1] has no cmd=: nothing to run (or start_cmd= and "
                                                             "stop_cmd= to control a service)")
                                                  .arg(sectionName));
        return;
    }
    if (!start || !stop) {
        const IniDocument::Entry *given = start ? start : stop;
        reading.error(given->line, QStringLiteral("[%1] has %2= but no %3=: a service is lent with start_cmd= and taken "
                                                  "back with stop_cmd=, both are needed")
                                       .arg(sectionName, given->key,
                                            start ? QStringLiteral("stop_cmd") : QStringLiteral("start_cmd")));
    }
    if (start)
        readCommand(reading, *start, &workload.startCmd, &workload.startArgv);
    if (stop)
        readCommand(reading, *stop, &workload.stopCmd, &workload.stopArgv);
}

// The words a command is split into, as the program receives them: [sh] [-c] [...].
template<auto Argv>
QString argvDetail(const KeySource &source)
{
    const QStringList &argv = *KeyField<Argv>::in(source);
    if (argv.isEmpty())
        return QString();
    QString words = QStringLiteral("argv =");
    for (const QString &arg : argv)
        words += QStringLiteral(" [%1]").arg(arg);
    return words;
}

// user= and whether the workload may run as it (see checkWorkloadUser()). A problem refuses this workload
// alone: it depends on who runs idlegpu and on the accounts of the machine, not only on the file. A
// disabled workload never runs, so it is checked once enabled (an example file may name a user the
// machine lacks). Sets the home folder ~ stands for.
void readUser(const KeyRow &row, KeyReading &reading)
{
    WorkloadConfig &workload = *reading.target().workload;
    const IniDocument::Section &section = reading.section();
    const UserLookup &users = reading.users();
    const IniDocument::Entry *entry = reading.entry(row);
    if (entry)
        workload.user = entry->value.trimmed();
    if (!workload.enabled) {
        const std::optional<UserAccount> account =
            workload.user.isEmpty() || !users.find ? std::nullopt : users.find(workload.user);
        reading.home = account ? account->home : QDir::homePath();
        return;
    }
    const WorkloadUserCheck check = checkWorkloadUser(workload.user, users);
    const int line = entry ? entry->line : section.line;
    if (!check.error.isEmpty()) {
        workload.refusal = check.error;
        reading.state().report(ConfigDiagnostic::Error, line,
                               QStringLiteral("[%1] will not run: %2").arg(section.name, check.error), section.name);
    } else if (check.rootByDefault) {
        if (ConfigDiagnostic *said = reading.state().report(ConfigDiagnostic::Warning, line,
                                                            QStringLiteral("[%1] %2").arg(section.name, check.warning)))
            said->rootWorkload = section.name;
    } else if (!check.warning.isEmpty()) {
        reading.warning(line, check.warning);
    }
    reading.home = check.account && !workload.user.isEmpty() ? check.account->home : QDir::homePath();
}

// dir= and log=, with ~ the home folder of the workload's user.
template<auto Member>
void readHomePath(const KeyRow &row, KeyReading &reading)
{
    if (const IniDocument::Entry *entry = reading.entry(row))
        *KeyField<Member>::in(reading.target()) = expandHome(entry->value, reading.home);
}

void readEnv(const KeyRow &row, KeyReading &reading)
{
    const IniDocument::Entry *entry = reading.entry(row);
    if (!entry)
        return;
    WorkloadConfig &workload = *reading.target().workload;
    workload.envText = entry->value;
    QString message;
    if (const auto env = parseEnvAssignments(workload.envText, &message))
        workload.env = *env;
    else
        reading.error(entry->line, QStringLiteral("env: %1").arg(message));
}

QString envText(const KeyRow &, const KeySource &source)
{
    return source.workload->envText;
}

void readCommandTimeout(const KeyRow &row, KeyReading &reading)
{
    WorkloadConfig &workload = *reading.target().workload;
    if (const std::optional<qint64> seconds = reading.seconds(row))
        workload.commandTimeoutSeconds = int(*seconds);
    if (const IniDocument::Entry *entry = reading.entry(row); entry && workload.kind() != WorkloadKind::ControlCommands)
        reading.warning(entry->line, QStringLiteral("command_timeout_seconds is ignored without start_cmd= and "
                                                    "stop_cmd="));
}

// In the order the reader takes them: name first (the names must differ), the commands before what depends on the
// workload's kind, enabled before user (a disabled workload's user is not checked), user before dir and log (~).
constexpr KeyRow workloadRows[] = {
    KeyRows::custom("process-*", "name", readName, KeyRows::text<&WorkloadSettings::name>())
        .withDefaultNote("the section name without process-"),
    KeyRows::custom("process-*", "cmd", readCommands, KeyRows::text<&WorkloadSettings::cmd>())
        .withDefaultNote("required (or start_cmd and stop_cmd)")
        .withEmptyText("(none)")
        .withDetail(argvDetail<&WorkloadSettings::argv>),
    KeyRows::custom("process-*", "start_cmd", nullptr, KeyRows::text<&WorkloadSettings::startCmd>())
        .withEmptyText("(none)")
        .withDetail(argvDetail<&WorkloadSettings::startArgv>),
    KeyRows::custom("process-*", "stop_cmd", nullptr, KeyRows::text<&WorkloadSettings::stopCmd>())
        .withEmptyText("(none)")
        .withDetail(argvDetail<&WorkloadSettings::stopArgv>),
    KeyRows::boolean<&WorkloadSettings::enabled>("process-*", "enabled"),
    KeyRows::custom("process-*", "user", readUser, KeyRows::text<&WorkloadSettings::user>())
        .withEmptyText("(the user idlegpu runs as)"),
    KeyRows::custom("process-*", "dir", readHomePath<&WorkloadSettings::dir>, KeyRows::text<&WorkloadSettings::dir>())
        .withEmptyText("(the home folder)"),
    KeyRows::custom("process-*", "log", readHomePath<&WorkloadSettings::log>, KeyRows::text<&WorkloadSettings::log>())
        .withEmptyText("(idlegpu's log)"),
    KeyRows::custom("process-*", "gpus", readGpus<&WorkloadSettings::gpus>, gpusText<&WorkloadSettings::gpus>),
    KeyRows::custom("process-*", "env", readEnv, envText).withEmptyText("(none)"),
    KeyRows::seconds<&WorkloadSettings::stopTimeoutSeconds>("process-*", "stop_timeout_seconds", {1, 3600}),
    KeyRows::seconds<&WorkloadSettings::commandTimeoutSeconds>("process-*", "command_timeout_seconds", {1, 3600})
        .readBy(readCommandTimeout),
    KeyRows::list<&WorkloadSettings::servicePrograms>("process-*", "service_programs"),
    KeyRows::word<&WorkloadSettings::priority>("process-*"),
};

} // namespace

namespace KeyLists {
std::span<const KeyRow> general()
{
    return generalRows;
}
std::span<const KeyRow> gpuGroup()
{
    return gpuGroupRows;
}
std::span<const KeyRow> workload()
{
    return workloadRows;
}
} // namespace KeyLists
