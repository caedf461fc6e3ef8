// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "config/config.h"

#include "config/inifile.h"
#include "config/keyrows.h"
#include "config/workloadchecks.h"
#include "base/logging.h"
#include "base/nearestword.h"

#include <QDir>
#include <QFileInfo>
#include <QSet>

#include <algorithm>

#include <unistd.h>

namespace {

// The host name up to its first dot, as `hostname -s` prints it: [slurm] node's default.
QString shortHostName()
{
    char name[256] = {};
    if (::gethostname(name, sizeof name - 1) != 0)
        return QString();
    const QString host = QString::fromLocal8Bit(name);
    return host.left(host.indexOf(QLatin1Char('.')));
}

// "1 more error", "2 more errors": the reader's messages are English only.
QString countOf(int count, const char *one, const char *many)
{
    return QStringLiteral("%1 %2").arg(count).arg(QLatin1String(count == 1 ? one : many));
}

// Reads a parsed file section by section, each key through its row of the key table (configkeys.h).
class ConfigReader
{
public:
    ConfigReader(const IniDocument &doc, const UserLookup &users, ConfigLoadResult &result)
        : m_doc(doc), m_state(result, users)
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
        Config &config = m_state.result.config;
        if (config.slurm.node.isEmpty())
            config.slurm.node = shortHostName();
        checkMetricsFolder();
        // In the file's order, as a user fixes them: the reader goes by sections and the key table's rows.
        // Messages about the whole file (line 0) come after those about a line.
        sortProblemsByLine(&m_state.result.diagnostics);
        if (m_state.droppedErrors + m_state.droppedWarnings > 0)
            m_state.result.diagnostics.append(
                {m_state.droppedErrors > 0 ? ConfigDiagnostic::Error : ConfigDiagnostic::Warning, config.filePath, 0,
                 QStringLiteral("%1 and %2 not shown")
                     .arg(countOf(m_state.droppedErrors, "more error", "more errors"),
                          countOf(m_state.droppedWarnings, "more warning", "more warnings"))});
    }

private:
    void readSection(const IniDocument::Section &section)
    {
        const QString tableSection = ConfigKeys::sectionOf(section.name);
        // Keys are written as "section/key" (QSettings' form, and IniEdit's), where a '/' in a GPU group's or a
        // workload's section would be ambiguous.
        if (tableSection.endsWith(QLatin1String("-*")) && section.name.contains(QLatin1Char('/'))) {
            error(section.line, QStringLiteral("section name [%1] must not contain '/'").arg(section.name));
            return;
        }
        if (tableSection.isEmpty()) {
            if (section.name == QLatin1String("default"))
                warning(section.line, QStringLiteral("section [%1] ignored: configparser would give its keys to every "
                                                     "section, idlegpu does not")
                                          .arg(section.name));
            else
                warning(section.line, QStringLiteral("unknown section [%1] ignored: idlegpu reads %2")
                                          .arg(section.name, knownSections()));
            return;
        }
        const QList<const KeyRow *> rows = ConfigKeys::rowsOf(tableSection);
        checkKeys(section, rows);
        Config &config = m_state.result.config;
        if (tableSection == QLatin1String("gpu-*")) {
            GpuGroupConfig group;
            group.id = section.name;
            group.line = section.line;
            readKeys(section, rows, KeyTarget{&config, &group});
            config.gpuGroups.append(group);
        } else if (tableSection == QLatin1String("process-*")) {
            WorkloadConfig workload;
            workload.id = section.name;
            workload.line = section.line;
            readKeys(section, rows, KeyTarget{&config, nullptr, &workload});
            config.workloads.append(workload);
        } else {
            readKeys(section, rows, KeyTarget{&config});
        }
    }

    void readKeys(const IniDocument::Section &section, const QList<const KeyRow *> &rows, const KeyTarget &target)
    {
        KeyReading reading(m_state, section, m_entriesOfSection[section.name], target);
        for (const KeyRow *row : rows)
            if (row->read)
                row->read(*row, reading);
    }

    // "[defaults], [gpu-*], ... and [metrics]"
    static QString knownSections()
    {
        QStringList names;
        for (const QString &name : ConfigKeys::sections())
            names.append(QLatin1Char('[') + name + QLatin1Char(']'));
        const QString last = names.takeLast();
        return names.join(QStringLiteral(", ")) + QStringLiteral(" and ") + last;
    }

    // Once every section is read (device_root may come after [metrics]): the monitor watches the config file's folder
    // and device_root (and its dri/) for changes, and answers each with a reload or a scan, which writes the textfile
    // again: a file there would rewrite itself four times a second.
    void checkMetricsFolder()
    {
        const Config &config = m_state.result.config;
        const MetricsConfig &metrics = config.metrics;
        if (metrics.textfile.isEmpty())
            return;
        const auto same = [](const QString &a, const QString &b) {
            const QString canonicalA = QFileInfo(a).canonicalFilePath();
            const QString canonicalB = QFileInfo(b).canonicalFilePath();
            return QDir::cleanPath(a) == QDir::cleanPath(b) || (!canonicalA.isEmpty() && canonicalA == canonicalB);
        };
        const QString folder = QFileInfo(metrics.textfile).absolutePath();
        const QString deviceRoot = config.deviceRoot;
        const QString configFolder = config.filePath.isEmpty() ? QString() : QFileInfo(config.filePath).absolutePath();
        if (!configFolder.isEmpty() && same(folder, configFolder))
            error(m_state.textfileLine,
                  QStringLiteral("textfile: %1 is in the folder of the config file, which idlegpu watches for edits: "
                                 "each write would make it read the file again; choose another folder "
                                 "(/var/lib/prometheus/node-exporter)")
                      .arg(metrics.textfile));
        else if (same(folder, deviceRoot) || same(folder, QDir(deviceRoot).filePath(QStringLiteral("dri"))))
            error(m_state.textfileLine,
                  QStringLiteral("textfile: %1 is in device_root, which idlegpu watches for GPUs; choose another folder "
                                 "(/var/lib/prometheus/node-exporter)")
                      .arg(metrics.textfile));
    }

    // An unknown key is a warning. A continuation line that reads as a known key is an error: configparser takes an
    // indented line after a key for more of its value, so a tab-indented `user = alice` under cmd= would be part of
    // the command, and the workload would run as whoever idlegpu runs as, not as the user its author wrote.
    void checkKeys(const IniDocument::Section &section, const QList<const KeyRow *> &rows)
    {
        QStringList known;
        for (const KeyRow *row : rows)
            known.append(QLatin1String(row->key));
        for (const IniDocument::Entry *entry : m_entriesOfSection.value(section.name)) {
            if (!known.contains(entry->key))
                warning(entry->line, unknownKeyMessage(*entry, section, known));
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

    // "unknown key 'ignore_program' in [gpu-all] ignored: did you mean ignore_programs?", and what a typo of a key
    // that has a default costs: a group whose ignore_programs is misspelt ignores the built-in list instead.
    QString unknownKeyMessage(const IniDocument::Entry &entry, const IniDocument::Section &section,
                              const QStringList &known) const
    {
        QString message = QStringLiteral("unknown key '%1' in [%2] ignored").arg(entry.key, section.name);
        const QString nearest = nearestWord(entry.key, known);
        if (nearest.isEmpty())
            return message;
        message += QStringLiteral(": did you mean %1?").arg(nearest);
        const bool given = std::any_of(m_entriesOfSection.value(section.name).cbegin(),
                                       m_entriesOfSection.value(section.name).cend(),
                                       [&](const IniDocument::Entry *other) { return other->key == nearest; });
        if (!given && nearest == QLatin1String("ignore_programs"))
            message += QStringLiteral(" Without it, the built-in ignore list applies to this group's GPUs, not the "
                                      "programs this line names");
        return message;
    }

    void error(int line, const QString &message) { m_state.report(ConfigDiagnostic::Error, line, message); }
    void warning(int line, const QString &message) { m_state.report(ConfigDiagnostic::Warning, line, message); }

    const IniDocument &m_doc;
    ConfigReadState m_state;
    QHash<QString, QList<const IniDocument::Entry *>> m_entriesOfSection;
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
