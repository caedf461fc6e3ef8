// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "config/configkeys.h"

#include "config/keyrows.h"

#include <QDir>

#include <cstdlib>

std::optional<qint64> parseWholeNumber(const QString &text)
{
    const QString trimmed = text.trimmed();
    qsizetype i = 0;
    bool negative = false;
    if (i < trimmed.size() && (trimmed.at(i) == QLatin1Char('+') || trimmed.at(i) == QLatin1Char('-'))) {
        negative = trimmed.at(i) == QLatin1Char('-');
        ++i;
    }
    if (i == trimmed.size())
        return std::nullopt;
    constexpr qint64 beyondEveryRange = qint64(1) << 40;
    qint64 value = 0;
    for (; i < trimmed.size(); ++i) {
        const QChar c = trimmed.at(i);
        if (c < QLatin1Char('0') || c > QLatin1Char('9'))
            return std::nullopt;
        value = qMin(value * 10 + (c.unicode() - '0'), beyondEveryRange);
    }
    return negative ? -value : value;
}

std::optional<bool> parseConfigBoolean(const QString &text)
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

// ---------------------------------------------------------------------------------------------------------
// The rows

QString KeyRow::name() const
{
    return QStringLiteral("[%1] %2").arg(QLatin1String(section), QLatin1String(key));
}

QString KeyRow::path() const
{
    return QLatin1String(section) + QLatin1Char('/') + QLatin1String(key);
}

bool KeyRow::repeated() const
{
    return QLatin1String(section).endsWith(QLatin1String("-*"));
}

QString KeyRow::defaultText() const
{
    if (defaultNote)
        return QLatin1String(defaultNote);
    const Config config;
    const GpuGroupConfig group;
    const WorkloadConfig workload;
    const QString value = text ? text(*this, KeySource{&config, &group, &workload}) : QString();
    return value.isEmpty() && emptyText ? QString(QLatin1String(emptyText)) : value;
}

QString KeyRow::display(const KeySource &source) const
{
    QString value = text ? text(*this, source) : QString();
    if (value.isEmpty() && effective)
        return effective(*this, source);
    if (value.isEmpty())
        return emptyText ? QString(QLatin1String(emptyText)) : value;
    if (zeroMeans && value == QLatin1String("0"))
        return QStringLiteral("0 (%1)").arg(QLatin1String(zeroMeans));
    if (kind == KeyKind::List)
        value.replace(QLatin1String(", "), QLatin1String(","));
    return value;
}

// ---------------------------------------------------------------------------------------------------------
// Reading

ConfigDiagnostic *ConfigReadState::report(ConfigDiagnostic::Severity severity, int line, const QString &message,
                                          const QString &refusedWorkload)
{
    // A file of garbage gives a problem a line; the first ones show what is wrong.
    constexpr int maxDiagnostics = 200;
    if (result.diagnostics.size() < maxDiagnostics) {
        result.diagnostics.append({severity, result.config.filePath, line, message, refusedWorkload});
        return &result.diagnostics.last();
    }
    ++(severity == ConfigDiagnostic::Error ? droppedErrors : droppedWarnings);
    return nullptr;
}

const IniDocument::Entry *KeyReading::find(const QString &key) const
{
    for (const IniDocument::Entry *entry : m_entries)
        if (entry->key == key)
            return entry;
    return nullptr;
}

std::optional<qint64> KeyReading::seconds(const KeyRow &row)
{
    const IniDocument::Entry *found = entry(row);
    if (!found)
        return std::nullopt;
    const QString key = QLatin1String(row.key);
    const ConfigRange range = row.range;
    const std::optional<qint64> number = parseWholeNumber(found->value);
    if (!number)
        error(found->line, QStringLiteral("%1: '%2' is not a whole number of seconds (%3 to %4)")
                               .arg(key, found->value, QString::number(range.min), QString::number(range.max)));
    else if (!range.contains(*number))
        error(found->line, QStringLiteral("%1: '%2' is out of range (%3 to %4 seconds)")
                               .arg(key, found->value, QString::number(range.min), QString::number(range.max)));
    else
        return number;
    return std::nullopt;
}

std::optional<qint64> KeyReading::number(const KeyRow &row)
{
    const IniDocument::Entry *found = entry(row);
    if (!found)
        return std::nullopt;
    const std::optional<qint64> number = parseWholeNumber(found->value);
    if (number && row.range.contains(*number))
        return number;
    // The range and what 0 stands for in one pair of parentheses: "(0 to 150; 0 means off)".
    const QString zero = row.zeroMeans ? QStringLiteral("; 0 means %1").arg(QLatin1String(row.zeroMeans)) : QString();
    // One arg() for all: a later arg() would take a %1 in the value for its own.
    error(found->line, QStringLiteral("%1: '%2' is not a whole number of %3 (%4 to %5%6)")
                           .arg(QLatin1String(row.key), found->value, QLatin1String(row.unit),
                                QString::number(row.range.min), QString::number(row.range.max), zero));
    return std::nullopt;
}

std::optional<bool> KeyReading::boolean(const KeyRow &row)
{
    const IniDocument::Entry *found = entry(row);
    if (!found)
        return std::nullopt;
    if (const std::optional<bool> value = parseConfigBoolean(found->value))
        return value;
    error(found->line, QStringLiteral("%1: '%2' is neither true nor false (also accepted: yes/no, on/off, 1/0)")
                           .arg(QLatin1String(row.key), found->value));
    return std::nullopt;
}

std::optional<QString> KeyReading::path(const KeyRow &row)
{
    const IniDocument::Entry *found = entry(row);
    if (!found)
        return std::nullopt;
    if (QDir::isAbsolutePath(found->value))
        return QDir::cleanPath(found->value);
    error(found->line, QStringLiteral("%1: '%2' is not an absolute path (it must start with /)")
                           .arg(QLatin1String(row.key), found->value));
    return std::nullopt;
}

std::optional<QStringList> KeyReading::list(const KeyRow &row)
{
    const IniDocument::Entry *found = entry(row);
    if (!found)
        return std::nullopt;
    QStringList items;
    for (const QString &part : found->value.split(QLatin1Char(','))) {
        const QString item = part.trimmed();
        if (!item.isEmpty())
            items.append(item);
    }
    return items;
}

void KeyReading::wrongWord(const IniDocument::Entry &entry, QStringList choices)
{
    const QString last = choices.takeLast();
    const QString expected = choices.size() == 1
                                 ? QStringLiteral("is neither %1 nor %2").arg(choices.first(), last)
                                 : QStringLiteral("is not %1 or %2").arg(choices.join(QStringLiteral(", ")), last);
    error(entry.line, QStringLiteral("%1: '%2' %3").arg(entry.key, entry.value, expected));
}

// ---------------------------------------------------------------------------------------------------------
// The table

namespace ConfigKeys {

const QList<const KeyRow *> &table()
{
    static const QList<const KeyRow *> rows = [] {
        QList<const KeyRow *> all;
        for (const std::span<const KeyRow> list :
             {KeyLists::general(), KeyLists::battery(), KeyLists::heat(), KeyLists::gpuGroup(), KeyLists::workload(),
              KeyLists::terminal(), KeyLists::activity(), KeyLists::schedule(), KeyLists::slurm(),
              KeyLists::metrics()})
            for (const KeyRow &row : list)
                all.append(&row);
        return all;
    }();
    return rows;
}

QList<const KeyRow *> rowsOf(const QString &section)
{
    QList<const KeyRow *> rows;
    for (const KeyRow *row : table())
        if (QLatin1String(row->section) == section)
            rows.append(row);
    return rows;
}

QStringList sections()
{
    QStringList names;
    for (const KeyRow *row : table())
        if (!names.contains(QLatin1String(row->section)))
            names.append(QLatin1String(row->section));
    return names;
}

const KeyRow &row(const QString &section, const QString &key)
{
    for (const KeyRow *row : table())
        if (QLatin1String(row->section) == section && QLatin1String(row->key) == key)
            return *row;
    qFatal("the key table has no [%s] %s", qPrintable(section), qPrintable(key));
    std::abort();
}

QString sectionOf(const QString &fileSection)
{
    const QStringList names = sections();
    if (names.contains(fileSection) && !fileSection.endsWith(QLatin1String("-*")))
        return fileSection;
    for (const QString &name : names)
        if (name.endsWith(QLatin1String("-*")) && fileSection.startsWith(name.chopped(2)))
            return name;
    return QString();
}

QString text(const KeyRow &row, const Config &config)
{
    return row.text ? row.text(row, KeySource{&config}) : QString();
}

Config withText(const KeyRow &row, const QString &text, const Config &config, QStringList *problems)
{
    ConfigLoadResult result;
    result.config = config;
    const IniDocument::Section section{QLatin1String(row.section), 1};
    const IniDocument::Entry entry{QLatin1String(row.section), QLatin1String(row.key), text, 1, {}};
    const QList<const IniDocument::Entry *> entries{&entry};
    const UserLookup users = UserLookup::system();
    ConfigReadState state(result, users);
    KeyReading reading(state, section, entries, KeyTarget{&result.config});
    if (row.read && !row.repeated())
        row.read(row, reading);
    if (problems)
        for (const ConfigDiagnostic &diagnostic : std::as_const(result.diagnostics))
            if (diagnostic.severity == ConfigDiagnostic::Error)
                problems->append(diagnostic.message);
    return result.config;
}

} // namespace ConfigKeys
