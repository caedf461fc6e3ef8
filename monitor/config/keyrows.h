// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The parts that the rows of the key table (configkeys.h) are made of: the reader's side of a section (KeyReading)
// and the makers of rows whose kind says how to read them (KeyRows::seconds<&Config::intervalSeconds>(...)). Only
// the files that define rows include it; the reader, the printer and the dialog need configkeys.h alone.
#include "config/config.h"
#include "config/configkeys.h"
#include "config/configwords.h"
#include "config/inifile.h"

#include <QHash>
#include <QList>

#include <type_traits>

// The state that the reading of one file keeps across its sections: where its problems go, and the names that its
// workloads took.
struct ConfigReadState
{
    ConfigReadState(ConfigLoadResult &result, const UserLookup &users) : result(result), users(users) {}

    ConfigLoadResult &result;
    const UserLookup &users;
    struct TakenName
    {
        QString id; // the workload's section
        int line = 0;
    };
    QHash<QString, TakenName> workloadNames; // name -> the workload that has it
    int textfileLine = 0;                    // the line of [metrics] textfile, for the checks after every section
    int droppedErrors = 0;                   // the problems past the limit that a file shows
    int droppedWarnings = 0;

    // Adds a problem at `line` of the file and returns it for the caller to tag; nullptr when past the limit.
    ConfigDiagnostic *report(ConfigDiagnostic::Severity severity, int line, const QString &message,
                             const QString &refusedWorkload = QString());
};

// One section of a file as the rows of its keys read it: its entries, the settings they go to, and where problems
// go.
class KeyReading
{
public:
    KeyReading(ConfigReadState &state, const IniDocument::Section &section,
               const QList<const IniDocument::Entry *> &entries, const KeyTarget &target)
        : m_state(state), m_section(section), m_entries(entries), m_target(target)
    {
    }

    const IniDocument::Section &section() const { return m_section; }
    const KeyTarget &target() const { return m_target; }
    ConfigReadState &state() { return m_state; }
    const UserLookup &users() const { return m_state.users; }
    // Returns the entry of `key` in this section; nullptr when the section lacks it.
    const IniDocument::Entry *find(const QString &key) const;
    const IniDocument::Entry *entry(const KeyRow &row) const { return find(QLatin1String(row.key)); }

    void error(int line, const QString &message) { m_state.report(ConfigDiagnostic::Error, line, message); }
    void warning(int line, const QString &message) { m_state.report(ConfigDiagnostic::Warning, line, message); }

    // Returns the row's value when its entry is there and right for its kind. Otherwise returns nullopt, with an
    // error at the entry's line when the entry is there ("interval_seconds: 'ten' is not a whole number of seconds
    // (1 to 3600)").
    std::optional<qint64> seconds(const KeyRow &row);
    std::optional<qint64> number(const KeyRow &row);
    std::optional<bool> boolean(const KeyRow &row);
    std::optional<QString> path(const KeyRow &row);
    std::optional<QStringList> list(const KeyRow &row); // "a, b,,c" -> a b c; never wrong
    // Reads a key that takes one of its table's words (configwords.h; any case, white space around). The error
    // lists the words: "KEY: 'VALUE' is not A (meaning), B or C" ("is neither A nor B" for two).
    template<typename Enum>
    std::optional<Enum> word(const KeyRow &row)
    {
        const IniDocument::Entry *found = entry(row);
        if (!found)
            return std::nullopt;
        if (const std::optional<Enum> meaning = configValue<Enum>(found->value))
            return meaning;
        QStringList choices;
        for (const ConfigWord<Enum> &choice : ConfigWords<Enum>::words)
            choices.append(choice.meaning ? QStringLiteral("%1 (%2)").arg(QLatin1String(choice.word),
                                                                         QLatin1String(choice.meaning))
                                          : QString(QLatin1String(choice.word)));
        wrongWord(*found, choices);
        return std::nullopt;
    }

    // In [process-*], the home folder that ~ stands for in dir= and log=. user= sets it, so its row comes before
    // theirs.
    QString home;

private:
    void wrongWord(const IniDocument::Entry &entry, QStringList choices);

    ConfigReadState &m_state;
    const IniDocument::Section &m_section;
    const QList<const IniDocument::Entry *> &m_entries;
    KeyTarget m_target;
};

// A setting of the configuration, named by the path of members that leads to it from the settings of a section:
// KeyField<&Config::tty, &TtyConfig::idleSeconds>. The first member's class says whose it is: the whole
// configuration's, a GPU group's or a workload's.
template<auto... Members>
struct KeyField
{
private:
    template<typename T>
    struct MemberOf;
    template<typename Class, typename Type>
    struct MemberOf<Type Class::*>
    {
        using Owner = Class;
    };
    template<auto First, auto...>
    struct FirstMember
    {
        using Type = decltype(First);
    };

    // Returns the settings in `owners` (a KeyTarget or a KeySource) that the first member belongs to.
    template<typename Owners>
    static auto *ownerIn(const Owners &owners)
    {
        using Owner = typename MemberOf<typename FirstMember<Members...>::Type>::Owner;
        if constexpr (std::is_same_v<Owner, ConfigSettings>)
            return owners.config;
        else if constexpr (std::is_same_v<Owner, GpuGroupSettings>)
            return owners.group;
        else {
            static_assert(std::is_same_v<Owner, WorkloadSettings>, "a key fills a setting of a section");
            return owners.workload;
        }
    }

public:
    // Returns the setting in the section's settings; nullptr when the section is not of the field's owner.
    template<typename Owners>
    static auto *in(const Owners &owners)
    {
        auto *owner = ownerIn(owners);
        return owner ? &(*owner .* ... .* Members) : nullptr;
    }
    using Value = std::remove_reference_t<decltype(*in(std::declval<KeyTarget>()))>;
};

// The makers of the rows, one per kind: each row reads its key into the field and shows it from there.
namespace KeyRows {
namespace Impl {
template<typename T>
struct IsOptional : std::false_type
{
};
template<typename T>
struct IsOptional<std::optional<T>> : std::true_type
{
};

template<auto... Members>
void readSeconds(const KeyRow &row, KeyReading &reading)
{
    if (const std::optional<qint64> value = reading.seconds(row))
        *KeyField<Members...>::in(reading.target()) = typename KeyField<Members...>::Value(*value);
}
template<auto... Members>
void readNumber(const KeyRow &row, KeyReading &reading)
{
    if (const std::optional<qint64> value = reading.number(row))
        *KeyField<Members...>::in(reading.target()) = typename KeyField<Members...>::Value(*value);
}
template<auto... Members>
void readBoolean(const KeyRow &row, KeyReading &reading)
{
    if (const std::optional<bool> value = reading.boolean(row))
        *KeyField<Members...>::in(reading.target()) = *value;
}
template<auto... Members>
void readPath(const KeyRow &row, KeyReading &reading)
{
    if (const std::optional<QString> value = reading.path(row))
        *KeyField<Members...>::in(reading.target()) = *value;
}
template<auto... Members>
void readList(const KeyRow &row, KeyReading &reading)
{
    if (const std::optional<QStringList> value = reading.list(row))
        *KeyField<Members...>::in(reading.target()) = *value;
}
template<typename Value>
struct WordOf
{
    using Enum = Value;
};
template<typename Value>
struct WordOf<std::optional<Value>>
{
    using Enum = Value;
};
template<auto... Members>
void readWord(const KeyRow &row, KeyReading &reading)
{
    using Enum = typename WordOf<typename KeyField<Members...>::Value>::Enum;
    if (const std::optional<Enum> value = reading.word<Enum>(row))
        *KeyField<Members...>::in(reading.target()) = *value;
}

// Returns the word of the table's default value.
template<typename Enum>
constexpr const char *defaultWord()
{
    for (const ConfigWord<Enum> &word : ConfigWords<Enum>::words)
        if (word.value == ConfigWords<Enum>::defaultValue)
            return word.word;
    return nullptr;
}
template<typename Enum>
QString defaultWordText(const KeyRow &, const KeySource &)
{
    return QStringLiteral("%1 (default)").arg(QLatin1String(defaultWord<Enum>()));
}

template<auto... Members>
QString numberText(const KeyRow &, const KeySource &source)
{
    return QString::number(*KeyField<Members...>::in(source));
}
template<auto... Members>
QString booleanText(const KeyRow &, const KeySource &source)
{
    return *KeyField<Members...>::in(source) ? QStringLiteral("true") : QStringLiteral("false");
}
template<auto... Members>
QString stringText(const KeyRow &, const KeySource &source)
{
    return *KeyField<Members...>::in(source);
}
template<auto... Members>
QString listText(const KeyRow &, const KeySource &source)
{
    return KeyField<Members...>::in(source)->join(QStringLiteral(", "));
}
template<auto... Members>
QString wordText(const KeyRow &, const KeySource &source)
{
    const auto &value = *KeyField<Members...>::in(source);
    if constexpr (IsOptional<std::remove_cvref_t<decltype(value)>>::value)
        return value ? configWord(*value) : QString();
    else
        return configWord(value);
}
} // namespace Impl

template<auto... Members>
constexpr KeyRow seconds(const char *section, const char *key, ConfigRange range)
{
    return {section, key, KeyKind::Seconds, range, nullptr, nullptr, nullptr, nullptr, false,
            Impl::readSeconds<Members...>, Impl::numberText<Members...>};
}
// `unit` is the unit that the messages give: "percent", "MiB".
template<auto... Members>
constexpr KeyRow number(const char *section, const char *key, ConfigRange range, const char *unit)
{
    return {section, key, KeyKind::Number, range, unit, nullptr, nullptr, nullptr, false,
            Impl::readNumber<Members...>, Impl::numberText<Members...>};
}
template<auto... Members>
constexpr KeyRow boolean(const char *section, const char *key)
{
    return {section, key, KeyKind::Boolean, {0, 0}, nullptr, nullptr, nullptr, nullptr, false,
            Impl::readBoolean<Members...>, Impl::booleanText<Members...>};
}
// The key is the one of the field's enum table in configwords.h (on_battery for OnBattery). A field that is an
// optional stays empty while the key is absent; --check-config then prints the table's default word, "(default)".
template<auto... Members>
constexpr KeyRow word(const char *section)
{
    using Value = typename KeyField<Members...>::Value;
    using Enum = typename Impl::WordOf<Value>::Enum;
    KeyRow row{section, ConfigWords<Enum>::key, KeyKind::Word, {0, 0}, nullptr, nullptr, nullptr, nullptr, false,
               Impl::readWord<Members...>, Impl::wordText<Members...>};
    if constexpr (Impl::IsOptional<Value>::value) {
        row.defaultNote = Impl::defaultWord<Enum>();
        row.effective = Impl::defaultWordText<Enum>;
    }
    return row;
}
template<auto... Members>
constexpr KeyRow list(const char *section, const char *key)
{
    return {section, key, KeyKind::List, {0, 0}, nullptr, nullptr, nullptr, "(none)", false,
            Impl::readList<Members...>, Impl::listText<Members...>};
}
// An absolute path, kept cleaned (QDir::cleanPath()).
template<auto... Members>
constexpr KeyRow path(const char *section, const char *key)
{
    return {section, key, KeyKind::Path, {0, 0}, nullptr, nullptr, nullptr, nullptr, false,
            Impl::readPath<Members...>, Impl::stringText<Members...>};
}
// A key with a parser of its own.
constexpr KeyRow custom(const char *section, const char *key, KeyRow::Read read, KeyRow::Text text)
{
    return {section, key, KeyKind::Custom, {0, 0}, nullptr, nullptr, nullptr, nullptr, false, read, text};
}
// The setting's text, for a custom row: its string, or its list joined with ", ".
template<auto... Members>
constexpr KeyRow::Text text()
{
    using Value = typename KeyField<Members...>::Value;
    if constexpr (std::is_same_v<Value, QStringList>)
        return Impl::listText<Members...>;
    else
        return Impl::stringText<Members...>;
}
} // namespace KeyRows

// The lists of rows that the table is made of, in the table's order (configkeys.cpp joins them). Each concern
// brings the rows of its keys.
namespace KeyLists {
std::span<const KeyRow> general();  // [defaults]: the poll, the start delay, device_root, notify, vendors
std::span<const KeyRow> battery();  // [defaults] on_battery
std::span<const KeyRow> heat();     // [defaults] max_temperature_c
std::span<const KeyRow> gpuGroup(); // [gpu-*]
std::span<const KeyRow> workload(); // [process-*]
std::span<const KeyRow> terminal(); // [tty]
std::span<const KeyRow> activity(); // [activity]
std::span<const KeyRow> schedule(); // [schedule]
std::span<const KeyRow> slurm();    // [slurm]
std::span<const KeyRow> metrics();  // [metrics]
} // namespace KeyLists
