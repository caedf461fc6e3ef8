// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "config/config.h"

#include "config/commandsplit.h"
#include "config/configranges.h"
#include "config/inifile.h"
#include "config/securefile.h"
#include "base/logging.h"

#include <QDir>
#include <QFileInfo>
#include <QSet>

#include <unistd.h>

namespace {

// dir= and log= are paths a user writes as in a shell: a leading ~/ (or a lone ~) is the home folder (of the
// user the workload runs as).
QString expandHome(const QString &path, const QString &home)
{
    if (path == QLatin1String("~"))
        return home;
    if (path.startsWith(QLatin1String("~/")))
        return home + path.mid(1);
    return path;
}

const QStringList defaultsKeys{QStringLiteral("interval_seconds"), QStringLiteral("start_delay_seconds"),
                               QStringLiteral("device_root"), configKey<NotifyKind>(), configKey<GpuVendor>(),
                               configKey<OnBattery>(), QStringLiteral("max_temperature_c")};
const QStringList gpuGroupKeys{QStringLiteral("gpus"), QStringLiteral("ignore_programs"), configKey<BusyWhen>(),
                               QStringLiteral("busy_memory_mib"), QStringLiteral("graphics_busy_percent")};
const QStringList workloadKeys{QStringLiteral("dir"),  QStringLiteral("cmd"), QStringLiteral("user"),
                               QStringLiteral("gpus"), QStringLiteral("log"),
                               QStringLiteral("name"), QStringLiteral("env"),
                               QStringLiteral("stop_timeout_seconds"), QStringLiteral("enabled"),
                               configKey<WorkloadPriority>(), QStringLiteral("start_cmd"),
                               QStringLiteral("stop_cmd"), QStringLiteral("command_timeout_seconds"),
                               QStringLiteral("service_programs")};
const QStringList ttyKeys{QStringLiteral("enabled"), QStringLiteral("whitelist"), QStringLiteral("idle_seconds")};
const QStringList activityKeys{QStringLiteral("pause_while_active"), QStringLiteral("idle_seconds")};
const QStringList scheduleKeys{QStringLiteral("run")};
const QStringList slurmKeys{QStringLiteral("enabled"), QStringLiteral("node"), QStringLiteral("partition"),
                            QStringLiteral("gres_type")};
const QStringList metricsKeys{QStringLiteral("textfile")};

// The host name up to its first dot, as `hostname -s` prints it: [slurm] node's default.
QString shortHostName()
{
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0)
        return QString();
    const QString host = QString::fromLocal8Bit(name);
    return host.left(host.indexOf(QLatin1Char('.')));
}

// A word Slurm takes as one name (a node, a partition, a GRES type): no white space, ',', ':', '=' or parentheses.
bool isSlurmName(const QString &text)
{
    if (text.isEmpty())
        return false;
    for (const QChar c : text)
        if (c.isSpace() || c == QLatin1Char(',') || c == QLatin1Char(':') || c == QLatin1Char('=')
            || c == QLatin1Char('(') || c == QLatin1Char(')'))
            return false;
    return true;
}

// Words a shell would take as operators; idlegpu runs no shell, so they reach the program as arguments.
const QStringList shellOperators{QStringLiteral("|"),  QStringLiteral("||"), QStringLiteral("&"),
                                 QStringLiteral("&&"), QStringLiteral(";"),  QStringLiteral(">"),
                                 QStringLiteral(">>"), QStringLiteral("<"),  QStringLiteral("2>"),
                                 QStringLiteral("2>&1"), QStringLiteral("&>")};

// configparser's getboolean().
std::optional<bool> parseBoolean(const QString &text)
{
    const QString lower = text.toLower();
    if (lower == QLatin1String("1") || lower == QLatin1String("yes") || lower == QLatin1String("true")
        || lower == QLatin1String("on"))
        return true;
    if (lower == QLatin1String("0") || lower == QLatin1String("no") || lower == QLatin1String("false")
        || lower == QLatin1String("off"))
        return false;
    return std::nullopt;
}

// "a, b,,c" -> a b c
QStringList parseCommaList(const QString &text)
{
    QStringList items;
    const QStringList parts = text.split(QLatin1Char(','));
    for (const QString &part : parts) {
        const QString item = part.trimmed();
        if (!item.isEmpty())
            items.append(item);
    }
    return items;
}

class ConfigReader
{
public:
    ConfigReader(const IniDocument &doc, const UserLookup &users, ConfigLoadResult &result)
        : m_doc(doc), m_users(users), m_result(result)
    {
        for (const IniDocument::Entry &entry : doc.entries)
            m_entriesOfSection[entry.section].append(&entry);
    }

    void read()
    {
        for (const IniDocument::Problem &problem : m_doc.problems)
            error(problem.line, problem.message);
        for (const IniDocument::Section &section : m_doc.sections)
            readSection(section);
        if (m_result.config.slurm.node.isEmpty())
            m_result.config.slurm.node = shortHostName();
        checkMetricsFolder();
        if (m_droppedErrors + m_droppedWarnings > 0)
            m_result.diagnostics.append({m_droppedErrors > 0 ? ConfigDiagnostic::Error : ConfigDiagnostic::Warning,
                                         m_result.config.filePath, 0,
                                         QStringLiteral("%1 more errors and %2 more warnings not shown")
                                             .arg(m_droppedErrors)
                                             .arg(m_droppedWarnings)});
    }

private:
    void readSection(const IniDocument::Section &section)
    {
        // gpu_mon chose sections with startswith('gpu') and startswith('process'), so [gpu0] and [process1]
        // are groups and workloads as much as [gpu-0] and [process-1] are.
        const bool isGpuGroup = section.name.startsWith(QLatin1String("gpu"));
        const bool isWorkload = section.name.startsWith(QLatin1String("process"));
        // Keys are written as "section/key" (QSettings' form, and IniEdit's), where a '/' in the section would be
        // ambiguous.
        if ((isGpuGroup || isWorkload) && section.name.contains(QLatin1Char('/'))) {
            error(section.line, QStringLiteral("section name [%1] must not contain '/'").arg(section.name));
            return;
        }
        if (section.name == QLatin1String("defaults")) {
            checkKeys(section, defaultsKeys);
            readDefaults(section);
        } else if (section.name == QLatin1String("tty")) {
            checkKeys(section, ttyKeys);
            readTty(section);
        } else if (section.name == QLatin1String("activity")) {
            checkKeys(section, activityKeys);
            readActivity(section);
        } else if (section.name == QLatin1String("schedule")) {
            checkKeys(section, scheduleKeys);
            readSchedule(section);
        } else if (section.name == QLatin1String("slurm")) {
            checkKeys(section, slurmKeys);
            readSlurm(section);
        } else if (section.name == QLatin1String("metrics")) {
            checkKeys(section, metricsKeys);
            readMetrics(section);
        } else if (isGpuGroup) {
            checkKeys(section, gpuGroupKeys);
            readGpuGroup(section);
        } else if (isWorkload) {
            checkKeys(section, workloadKeys);
            readWorkload(section);
        } else if (section.name == QLatin1String("default")) {
            warning(section.line, QStringLiteral("section [%1] ignored: configparser would give its keys to every "
                                                 "section, idlegpu does not")
                                      .arg(section.name));
        } else {
            warning(section.line, QStringLiteral("unknown section [%1] ignored: idlegpu reads [defaults], [gpu-*], "
                                                 "[process-*], [tty], [activity], [schedule], [slurm] and [metrics]")
                                      .arg(section.name));
        }
    }

    void readDefaults(const IniDocument::Section &section)
    {
        Config &config = m_result.config;
        readSeconds(section, QStringLiteral("interval_seconds"), ConfigRanges::intervalSeconds,
                    &config.intervalSeconds);
        readSeconds(section, QStringLiteral("start_delay_seconds"), ConfigRanges::startDelaySeconds,
                    &config.startDelaySeconds);
        if (const IniDocument::Entry *entry = find(section, QStringLiteral("device_root"))) {
            const QString root = value(*entry);
            if (!QDir::isAbsolutePath(root))
                error(entry->line, QStringLiteral("device_root: '%1' is not an absolute path (it must start with /)")
                                       .arg(root));
            else
                config.deviceRoot = QDir::cleanPath(root);
        }
        if (const IniDocument::Entry *entry = find(section, configKey<NotifyKind>()))
            readNotify(*entry, &config.notify);
        if (const IniDocument::Entry *entry = find(section, configKey<GpuVendor>()))
            readVendors(*entry, &config.vendors);
        if (const auto choice = readWord<OnBattery>(section))
            config.onBattery = *choice;
        readNumber(section, QStringLiteral("max_temperature_c"), ConfigRanges::maxTemperatureC,
                   QStringLiteral("degrees Celsius (0: off)"), &config.maxTemperatureC);
    }

    void readActivity(const IniDocument::Section &section)
    {
        ActivityConfig &activity = m_result.config.activity;
        readBoolean(section, QStringLiteral("pause_while_active"), &activity.pauseWhileActive);
        readSeconds(section, QStringLiteral("idle_seconds"), ConfigRanges::activityIdleSeconds, &activity.idleSeconds);
    }

    void readSchedule(const IniDocument::Section &section)
    {
        const IniDocument::Entry *entry = find(section, QStringLiteral("run"));
        if (!entry)
            return;
        QString message;
        if (const std::optional<Schedule> schedule = Schedule::parse(value(*entry), &message))
            m_result.config.schedule = *schedule;
        else
            error(entry->line, QStringLiteral("run: %1").arg(message));
    }

    void readSlurm(const IniDocument::Section &section)
    {
        SlurmConfig &slurm = m_result.config.slurm;
        readBoolean(section, QStringLiteral("enabled"), &slurm.enabled);
        const auto readName = [&](const QString &key, QString *name, const char *what) {
            const IniDocument::Entry *entry = find(section, key);
            if (!entry)
                return;
            const QString text = value(*entry).trimmed();
            if (!isSlurmName(text))
                error(entry->line, QStringLiteral("%1: '%2' is not %3 (one word, without spaces, ',', ':', '=' or "
                                                  "parentheses)")
                                       .arg(key, value(*entry), QLatin1String(what)));
            else
                *name = text;
        };
        readName(QStringLiteral("node"), &slurm.node, "a Slurm node name");
        readName(QStringLiteral("partition"), &slurm.partition, "a Slurm partition name");
        const IniDocument::Entry *typeEntry = find(section, QStringLiteral("gres_type"));
        readName(QStringLiteral("gres_type"), &slurm.gresType, "a GRES type");
        if (typeEntry && slurm.gresType.count(QLatin1String("%d")) != 1)
            error(typeEntry->line, QStringLiteral("gres_type: '%1' must hold %d once, where the GPU index goes (one GRES "
                                                  "type per GPU: gpu%d gives gpu0, gpu1...)")
                                       .arg(value(*typeEntry)));
    }

    void readMetrics(const IniDocument::Section &section)
    {
        const IniDocument::Entry *entry = find(section, QStringLiteral("textfile"));
        if (!entry)
            return;
        const QString path = value(*entry).trimmed();
        if (path.isEmpty())
            return; // off, as without the key
        if (!QDir::isAbsolutePath(path)) {
            error(entry->line, QStringLiteral("textfile: '%1' is not an absolute path (it must start with /)").arg(path));
            return;
        }
        const QFileInfo file(QDir::cleanPath(path));
        if (file.isDir()) {
            error(entry->line, QStringLiteral("textfile: %1 is a folder; name the file in it (idlegpu.prom)")
                                   .arg(file.filePath()));
            return;
        }
        MetricsConfig &metrics = m_result.config.metrics;
        metrics.textfile = file.filePath();
        metrics.line = entry->line;
        // Not fatal: node_exporter may be installed later; the writer tries again at each write.
        if (!QFileInfo(file.absolutePath()).isDir())
            warning(entry->line, QStringLiteral("textfile: the folder %1 does not exist (yet); no metrics are written "
                                                "until it does (Debian's prometheus-node-exporter makes "
                                                "/var/lib/prometheus/node-exporter)")
                                     .arg(file.absolutePath()));
        else if (const SecureFile::Opened folder = SecureFile::openTrustedFolder(file.absolutePath(),
                                                                                 m_users.effectiveUid);
                 !folder.ok())
            warning(entry->line, QStringLiteral("textfile: %1; no metrics are written to %2 while other users can "
                                                "change its folder (node_exporter's /var/lib/prometheus/node-exporter "
                                                "is root's)")
                                     .arg(folder.error, file.filePath()));
        else if (!file.fileName().endsWith(QLatin1String(".prom")))
            warning(entry->line, QStringLiteral("textfile: node_exporter's textfile collector reads only files whose "
                                                "name ends in .prom; %1 would be ignored")
                                     .arg(file.fileName()));
    }

    // Once every section is read (device_root may come after [metrics]): the monitor watches the config file's folder
    // and device_root (and its dri/) for changes, and answers each with a reload or a scan, which writes the textfile
    // again: a file there would rewrite itself four times a second.
    void checkMetricsFolder()
    {
        const MetricsConfig &metrics = m_result.config.metrics;
        if (metrics.textfile.isEmpty())
            return;
        const auto same = [](const QString &a, const QString &b) {
            const QString canonicalA = QFileInfo(a).canonicalFilePath();
            const QString canonicalB = QFileInfo(b).canonicalFilePath();
            return QDir::cleanPath(a) == QDir::cleanPath(b) || (!canonicalA.isEmpty() && canonicalA == canonicalB);
        };
        const QString folder = QFileInfo(metrics.textfile).absolutePath();
        const QString deviceRoot = m_result.config.deviceRoot;
        const QString configFolder = m_result.config.filePath.isEmpty()
                                         ? QString()
                                         : QFileInfo(m_result.config.filePath).absolutePath();
        if (!configFolder.isEmpty() && same(folder, configFolder))
            error(metrics.line, QStringLiteral("textfile: %1 is in the folder of the config file, which idlegpu watches "
                                               "for edits: each write would make it read the file again; choose "
                                               "another folder (/var/lib/prometheus/node-exporter)")
                                    .arg(metrics.textfile));
        else if (same(folder, deviceRoot) || same(folder, QDir(deviceRoot).filePath(QStringLiteral("dri"))))
            error(metrics.line, QStringLiteral("textfile: %1 is in device_root, which idlegpu watches for GPUs; choose "
                                               "another folder (/var/lib/prometheus/node-exporter)")
                                    .arg(metrics.textfile));
    }

    // vendors = auto | a comma list of GpuVendor's words
    void readVendors(const IniDocument::Entry &entry, QList<GpuVendor> *vendors)
    {
        using Words = ConfigWords<GpuVendor>;
        const QStringList words = parseCommaList(value(entry));
        if (words.size() == 1 && words.first().toLower() == QLatin1String(Words::automatic)) {
            vendors->clear();
            return;
        }
        const QString write = QStringLiteral("write %1, or a comma list of %2")
                                  .arg(QLatin1String(Words::automatic), configWordList<GpuVendor>());
        QList<GpuVendor> chosen;
        for (const QString &word : words) {
            const std::optional<GpuVendor> vendor = configValue<GpuVendor>(word);
            if (!vendor) {
                error(entry.line, QStringLiteral("%1: '%2' is not a GPU vendor: %3").arg(entry.key, word, write));
                return;
            }
            if (!chosen.contains(*vendor))
                chosen.append(*vendor);
        }
        if (chosen.isEmpty()) {
            error(entry.line, QStringLiteral("%1 is empty: %2").arg(entry.key, write));
            return;
        }
        *vendors = chosen;
    }

    // notify = all | none | a comma list of NotifyKind's words
    void readNotify(const IniDocument::Entry &entry, NotifyConfig *notify)
    {
        using Words = ConfigWords<NotifyKind>;
        const QStringList kinds = parseCommaList(value(entry));
        NotifyConfig chosen{false, false, false};
        for (const QString &kind : kinds) {
            const QString k = kind.toLower();
            if (k == QLatin1String(Words::all))
                chosen = NotifyConfig();
            else if (k == QLatin1String(Words::none))
                continue;
            else if (const std::optional<NotifyKind> known = configValue<NotifyKind>(k))
                chosen[*known] = true;
            else {
                error(entry.line, QStringLiteral("%1: '%2' is not a kind of notification: write %3, %4, or a comma list "
                                                 "of %5")
                                      .arg(entry.key, kind, QLatin1String(Words::all), QLatin1String(Words::none),
                                           configWordList<NotifyKind>()));
                return;
            }
        }
        *notify = chosen;
    }

    void readTty(const IniDocument::Section &section)
    {
        TtyConfig &tty = m_result.config.tty;
        readBoolean(section, QStringLiteral("enabled"), &tty.enabled);
        if (const IniDocument::Entry *entry = find(section, QStringLiteral("whitelist")))
            tty.whitelist = parseCommaList(value(*entry));
        readSeconds(section, QStringLiteral("idle_seconds"), ConfigRanges::ttyIdleSeconds, &tty.idleSeconds);
    }

    void readGpuGroup(const IniDocument::Section &section)
    {
        GpuGroupConfig group;
        group.id = section.name;
        group.line = section.line;
        readGpus(section, &group.gpus);
        if (const IniDocument::Entry *entry = find(section, QStringLiteral("ignore_programs"))) {
            group.ignorePrograms = parseCommaList(value(*entry));
            group.ignoreProgramsGiven = true;
        }
        group.busyWhen = readWord<BusyWhen>(section);
        if (const IniDocument::Entry *entry = find(section, QStringLiteral("busy_memory_mib"))) {
            constexpr ConfigRange range = ConfigRanges::busyMemoryMib;
            const QString text = value(*entry);
            const std::optional<qint64> mib = parseWholeNumber(text);
            if (!mib || !range.contains(*mib))
                error(entry->line, QStringLiteral("busy_memory_mib: '%1' is not a whole number of MiB (%2 to %3)")
                                       .arg(text)
                                       .arg(range.min)
                                       .arg(range.max));
            else {
                group.busyMemoryMib = *mib; // read with busy_when = memory and auto; kept otherwise, as written
                group.busyMemoryMibGiven = true;
            }
        }
        readNumber(section, QStringLiteral("graphics_busy_percent"), ConfigRanges::graphicsBusyPercent,
                   QStringLiteral("percent"), &group.graphicsBusyPercent);
        m_result.config.gpuGroups.append(group);
    }

    void readWorkload(const IniDocument::Section &section)
    {
        WorkloadConfig workload;
        workload.id = section.name;
        workload.line = section.line;

        const QLatin1String prefix("process-");
        const bool hasShortName = section.name.startsWith(prefix) && section.name.size() > prefix.size();
        workload.name = hasShortName ? section.name.mid(prefix.size()) : section.name;
        int nameLine = section.line;
        if (const IniDocument::Entry *entry = find(section, QStringLiteral("name"))) {
            nameLine = entry->line;
            if (value(*entry).trimmed().isEmpty())
                error(entry->line, QStringLiteral("name is empty"));
            else
                workload.name = value(*entry);
        }
        const auto sameName = m_workloadNames.constFind(workload.name);
        if (sameName != m_workloadNames.constEnd())
            error(nameLine, QStringLiteral("[%1] has the name '%2' of [%3] (line %4): names must differ")
                                .arg(section.name, workload.name, sameName->id)
                                .arg(sameName->line));
        else
            m_workloadNames.insert(workload.name, {section.name, section.line});

        readCommands(section, &workload);
        readBoolean(section, QStringLiteral("enabled"), &workload.enabled);
        const QString home = readUser(section, &workload);
        if (const IniDocument::Entry *entry = find(section, QStringLiteral("dir")))
            workload.dir = expandHome(value(*entry), home);
        if (const IniDocument::Entry *entry = find(section, QStringLiteral("log")))
            workload.log = expandHome(value(*entry), home);
        readGpus(section, &workload.gpus);
        if (const IniDocument::Entry *entry = find(section, QStringLiteral("env"))) {
            workload.envText = value(*entry);
            QString message;
            if (const auto env = parseEnvAssignments(workload.envText, &message))
                workload.env = *env;
            else
                error(entry->line, QStringLiteral("env: %1").arg(message));
        }
        readSeconds(section, QStringLiteral("stop_timeout_seconds"), ConfigRanges::stopTimeoutSeconds,
                    &workload.stopTimeoutSeconds);
        readSeconds(section, QStringLiteral("command_timeout_seconds"), ConfigRanges::commandTimeoutSeconds,
                    &workload.commandTimeoutSeconds);
        if (const IniDocument::Entry *entry = find(section, QStringLiteral("command_timeout_seconds"));
            entry && workload.kind() != WorkloadKind::ControlCommands)
            warning(entry->line, QStringLiteral("command_timeout_seconds is ignored without start_cmd= and stop_cmd="));
        if (const IniDocument::Entry *entry = find(section, QStringLiteral("service_programs")))
            workload.servicePrograms = parseCommaList(value(*entry));
        if (const auto choice = readWord<WorkloadPriority>(section))
            workload.priority = *choice;
        m_result.config.workloads.append(workload);
    }

    // user= and whether the workload may run as it (see checkWorkloadUser()). A problem refuses this workload
    // alone: it depends on who runs idlegpu and on the accounts of the machine, not only on the file. A
    // disabled workload never runs, so it is checked once enabled (an example file may name a user the
    // machine lacks). Returns the home folder ~ stands for.
    QString readUser(const IniDocument::Section &section, WorkloadConfig *workload)
    {
        const IniDocument::Entry *entry = find(section, QStringLiteral("user"));
        if (entry)
            workload->user = value(*entry).trimmed();
        if (!workload->enabled) {
            const std::optional<UserAccount> account =
                workload->user.isEmpty() || !m_users.find ? std::nullopt : m_users.find(workload->user);
            return account ? account->home : QDir::homePath();
        }
        const WorkloadUserCheck check = checkWorkloadUser(workload->user, m_users);
        const int line = entry ? entry->line : section.line;
        if (!check.error.isEmpty()) {
            workload->refusal = check.error;
            report(ConfigDiagnostic::Error, line,
                   QStringLiteral("[%1] will not run: %2").arg(section.name, check.error), section.name);
        } else if (check.rootByDefault) {
            if (ConfigDiagnostic *said = report(ConfigDiagnostic::Warning, line,
                                                QStringLiteral("[%1] %2").arg(section.name, check.warning)))
                said->rootWorkload = section.name;
        } else if (!check.warning.isEmpty()) {
            warning(line, check.warning);
        }
        return check.account && !workload->user.isEmpty() ? check.account->home : QDir::homePath();
    }

    // A workload either runs a command (cmd=) or controls a service that pauses itself (start_cmd= and stop_cmd=).
    void readCommands(const IniDocument::Section &section, WorkloadConfig *workload)
    {
        const IniDocument::Entry *cmd = find(section, QStringLiteral("cmd"));
        const IniDocument::Entry *start = find(section, QStringLiteral("start_cmd"));
        const IniDocument::Entry *stop = find(section, QStringLiteral("stop_cmd"));
        if (cmd && (start || stop)) {
            const IniDocument::Entry *other = start ? start : stop;
            error(other->line, QStringLiteral("[%1] has cmd= (line %2) and %3=: a workload either runs a command "
                                              "(cmd=) or controls a service (start_cmd= and stop_cmd=), not both")
                                   .arg(section.name)
                                   .arg(cmd->line)
                                   .arg(other->key));
            return;
        }
        if (cmd) {
            workload->cmd = value(*cmd);
            readCommand(*cmd, workload->cmd, &workload->argv);
            return;
        }
        if (!start && !stop) {
            error(section.line, QStringLiteral("[%1] has no cmd=: nothing to run (or start_cmd= and stop_cmd= to "
                                               "control a service)")
                                    .arg(section.name));
            return;
        }
        if (!start || !stop) {
            const IniDocument::Entry *given = start ? start : stop;
            error(given->line, QStringLiteral("[%1] has %2= but no %3=: a service is lent with start_cmd= and taken "
                                              "back with stop_cmd=, both are needed")
                                   .arg(section.name, given->key,
                                        start ? QStringLiteral("stop_cmd") : QStringLiteral("start_cmd")));
        }
        if (start) {
            workload->startCmd = value(*start);
            readCommand(*start, workload->startCmd, &workload->startArgv);
        }
        if (stop) {
            workload->stopCmd = value(*stop);
            readCommand(*stop, workload->stopCmd, &workload->stopArgv);
        }
    }

    // One command line (cmd=, start_cmd=, stop_cmd=) split into *argv, as a POSIX shell would.
    void readCommand(const IniDocument::Entry &entry, const QString &command, QStringList *argv)
    {
        const QString &key = entry.key;
        QString message;
        const std::optional<QStringList> words = splitCommand(command, &message);
        if (!words) {
            error(entry.line, QStringLiteral("%1: %2").arg(key, message));
            return;
        }
        *argv = *words;
        if (words->isEmpty()) {
            error(entry.line, QStringLiteral("%1 is empty: nothing to run").arg(key));
            return;
        }
        if (words->first().isEmpty()) {
            error(entry.line, QStringLiteral("%1: the program name is empty").arg(key));
            return;
        }
        for (const QString &word : *words)
            if (shellOperators.contains(word)) {
                warning(entry.line, QStringLiteral("%1: '%2' is passed to the program as an argument: idlegpu runs "
                                                   "no shell (write %1=sh -c '...' for pipes and redirections)")
                                        .arg(key, word));
                break;
            }
    }

    void readGpus(const IniDocument::Section &section, GpuSelection *gpus)
    {
        const IniDocument::Entry *entry = find(section, QStringLiteral("gpus"));
        if (!entry)
            return;
        QString message;
        if (const std::optional<GpuSelection> selection = GpuSelection::parse(value(*entry), &message))
            *gpus = *selection;
        else
            error(entry->line, QStringLiteral("gpus: %1").arg(message));
    }

    void readSeconds(const IniDocument::Section &section, const QString &key, ConfigRange range, int *seconds)
    {
        const qint64 min = range.min, max = range.max;
        const IniDocument::Entry *entry = find(section, key);
        if (!entry)
            return;
        const QString text = value(*entry);
        const std::optional<qint64> number = parseWholeNumber(text);
        if (!number)
            error(entry->line, QStringLiteral("%1: '%2' is not a whole number of seconds (%3 to %4)")
                                   .arg(key, text)
                                   .arg(min)
                                   .arg(max));
        else if (*number < min || *number > max)
            error(entry->line,
                  QStringLiteral("%1: '%2' is out of range (%3 to %4 seconds)").arg(key, text).arg(min).arg(max));
        else
            *seconds = int(*number);
    }

    // A key that takes one of its table's words (configwords.h; any case, white space around): what that word stands
    // for; nullopt when the key is absent or, with an error "KEY: 'VALUE' is not A (meaning), B or C" ("is neither
    // A nor B" for two), when the value is none of them.
    template<typename Enum>
    std::optional<Enum> readWord(const IniDocument::Section &section)
    {
        const IniDocument::Entry *entry = find(section, configKey<Enum>());
        if (!entry)
            return std::nullopt;
        if (const std::optional<Enum> meaning = configValue<Enum>(value(*entry)))
            return meaning;
        QStringList choices;
        for (const ConfigWord<Enum> &choice : ConfigWords<Enum>::words)
            choices.append(choice.meaning ? QStringLiteral("%1 (%2)").arg(QLatin1String(choice.word),
                                                                         QLatin1String(choice.meaning))
                                          : QString(QLatin1String(choice.word)));
        const QString last = choices.takeLast();
        const QString expected = choices.size() == 1
                                     ? QStringLiteral("is neither %1 nor %2").arg(choices.first(), last)
                                     : QStringLiteral("is not %1 or %2").arg(choices.join(QStringLiteral(", ")), last);
        error(entry->line, QStringLiteral("%1: '%2' %3").arg(entry->key, value(*entry), expected));
        return std::nullopt;
    }

    // A whole number in `unit` (for the message) within range.
    void readNumber(const IniDocument::Section &section, const QString &key, ConfigRange range, const QString &unit,
                    int *number)
    {
        const IniDocument::Entry *entry = find(section, key);
        if (!entry)
            return;
        const QString text = value(*entry);
        const std::optional<qint64> parsed = parseWholeNumber(text);
        if (!parsed || !range.contains(*parsed))
            error(entry->line, QStringLiteral("%1: '%2' is not a whole number of %3 (%4 to %5)")
                                   .arg(key, text, unit)
                                   .arg(range.min)
                                   .arg(range.max));
        else
            *number = int(*parsed);
    }

    void readBoolean(const IniDocument::Section &section, const QString &key, bool *flag)
    {
        const IniDocument::Entry *entry = find(section, key);
        if (!entry)
            return;
        const QString text = value(*entry);
        if (const std::optional<bool> parsed = parseBoolean(text))
            *flag = *parsed;
        else
            error(entry->line, QStringLiteral("%1: '%2' is neither true nor false (also accepted: yes/no, on/off, "
                                              "1/0)")
                                   .arg(key, text));
    }

    // An unknown key is a warning. A continuation line that reads as a known key is an error: configparser takes an
    // indented line after a key for more of its value, so a tab-indented `user = alice` under cmd= would be part of
    // the command, and the workload would run as whoever idlegpu runs as, not as the user its author wrote.
    void checkKeys(const IniDocument::Section &section, const QStringList &known)
    {
        for (const IniDocument::Entry *entry : m_entriesOfSection.value(section.name)) {
            if (!known.contains(entry->key))
                warning(entry->line, QStringLiteral("unknown key '%1' in [%2] ignored").arg(entry->key, section.name));
            for (const IniDocument::Entry::Continuation &continuation : entry->continuations) {
                const QString &text = continuation.text;
                qsizetype delimiter = 0;
                while (delimiter < text.size() && text.at(delimiter) != QLatin1Char('=')
                       && text.at(delimiter) != QLatin1Char(':'))
                    ++delimiter;
                const QString key = text.left(delimiter).trimmed().toLower();
                if (delimiter < text.size() && known.contains(key))
                    error(continuation.line, QStringLiteral("'%1' is indented, so it continues the value of %2 (line "
                                                            "%3) instead of setting %4 in [%5]: write it without "
                                                            "indentation")
                                                 .arg(text.size() > 60 ? text.left(60) + QStringLiteral("...") : text,
                                                      entry->key)
                                                 .arg(entry->line)
                                                 .arg(key, section.name));
            }
        }
    }

    const IniDocument::Entry *find(const IniDocument::Section &section, const QString &key) const
    {
        for (const IniDocument::Entry *entry : m_entriesOfSection.value(section.name))
            if (entry->key == key)
                return entry;
        return nullptr;
    }

    // The value verbatim, as idlegpu's QSettings format reads it.
    QString value(const IniDocument::Entry &entry) const { return entry.value; }

    void error(int line, const QString &message) { report(ConfigDiagnostic::Error, line, message); }
    void warning(int line, const QString &message) { report(ConfigDiagnostic::Warning, line, message); }
    // Returns the diagnostic added, for the caller to tag; nullptr when past the limit.
    ConfigDiagnostic *report(ConfigDiagnostic::Severity severity, int line, const QString &message,
                             const QString &refusedWorkload = QString())
    {
        // A file of garbage gives a problem a line; the first ones show what is wrong.
        constexpr int maxDiagnostics = 200;
        if (m_result.diagnostics.size() < maxDiagnostics) {
            m_result.diagnostics.append({severity, m_result.config.filePath, line, message, refusedWorkload});
            return &m_result.diagnostics.last();
        }
        ++(severity == ConfigDiagnostic::Error ? m_droppedErrors : m_droppedWarnings);
        return nullptr;
    }

    struct SectionRef
    {
        QString id;
        int line = 0;
    };

    const IniDocument &m_doc;
    const UserLookup &m_users;
    ConfigLoadResult &m_result;
    QHash<QString, SectionRef> m_workloadNames; // name -> the workload that has it
    QHash<QString, QList<const IniDocument::Entry *>> m_entriesOfSection;
    int m_droppedErrors = 0;
    int m_droppedWarnings = 0;
};

QString configHome()
{
    // The XDG base directory spec says to ignore a relative XDG_CONFIG_HOME.
    const QString xdgConfigHome = qEnvironmentVariable("XDG_CONFIG_HOME");
    if (QDir::isAbsolutePath(xdgConfigHome))
        return xdgConfigHome;
    return QDir::homePath() + QStringLiteral("/.config");
}

} // namespace

namespace ConfigLoader {

// A config names the commands idlegpu runs, as root when idlegpu is root: one that another user can change, or
// reach through a folder another user can change, is a way to run their code as us. readIniFile() refuses it as
// sshd's StrictModes refuses such an authorized_keys.
ConfigLoadResult load(const QString &path, const UserLookup &users)
{
    QString message;
    IniReadFailure failure = IniReadFailure::None;
    const std::optional<QByteArray> contents = readIniFile(path, &message, &failure);
    if (!contents) {
        ConfigLoadResult result;
        result.config.filePath = path;
        result.changedWhileRead = failure == IniReadFailure::ChangedWhileRead;
        if (failure == IniReadFailure::Untrusted)
            message = QStringLiteral("refused: %1 (only root and the user idlegpu runs as may be able to change its "
                                     "config: the file and every folder above it)")
                          .arg(message);
        else if (failure == IniReadFailure::ChangedWhileRead)
            message = QStringLiteral("not used: it changed while it was read (read again when its writer is done)");
        else
            message = QStringLiteral("cannot read this file: %1").arg(message);
        result.diagnostics.append({ConfigDiagnostic::Error, path, 0, message});
        return result;
    }
    ConfigLoadResult result = parse(*contents, path, users);
    result.fileBlank = contents->trimmed().isEmpty();
    return result;
}

ConfigLoadResult parse(const QByteArray &contents, const QString &path, const UserLookup &users)
{
    return read(IniDocument::parse(contents), path, users);
}

// The values come from the document, not through QSettings: QSettings reads only a file it opens itself by
// path, and the registered format's read function gets that file's bytes, not this document. Reading through it
// would take a second parse of a second copy (a temporary file: the bytes need not be on disk, and the file may
// have changed since), which costs more than the parse itself and fails where the temporary folder is full. The
// registered format reads the same values (IniDocument's); it stays for code that opens the file with QSettings.
ConfigLoadResult read(const IniDocument &document, const QString &path, const UserLookup &users)
{
    ConfigLoadResult result;
    result.config.filePath = path;
    ConfigReader(document, users, result).read();
    return result;
}

Location locate(const QString &overridePath)
{
    if (!overridePath.isEmpty())
        return {QFileInfo(overridePath).absoluteFilePath(), false};
    const QString home = configHome();
    const QString current = home + QStringLiteral("/idlegpu/idlegpu.conf");
    const QString legacy = home + QStringLiteral("/gpu_mon.conf");
    if (!QFileInfo::exists(current) && QFileInfo::exists(legacy)) {
        qCInfo(lcConfig).noquote() << "Using gpu_mon's config file" << legacy << "because" << current
                                   << "does not exist";
        return {legacy, true};
    }
    return {current, false};
}

} // namespace ConfigLoader
