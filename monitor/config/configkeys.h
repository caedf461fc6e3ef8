// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The table of the config's keys, one row per key, with where the key stands, the kind of value it holds, the values
// it accepts, its default and the setting of Config it fills. docs/development.md ("Adding a config key") says who
// reads the table; the rows are in configkeys.cpp and the *keys.cpp files beside it.
#include <QList>
#include <QString>
#include <QStringList>
#include <QtGlobal>

#include <optional>
#include <span>

struct Config;
struct GpuGroupConfig;
struct WorkloadConfig;
class KeyReading;

// The whole numbers a key accepts.
struct ConfigRange
{
    qint64 min;
    qint64 max;

    constexpr bool contains(qint64 value) const { return value >= min && value <= max; }
};

// Parses a config value as Python's int() does: white space around, an optional sign, ASCII digits. A value too
// large for an int comes back as a number beyond every range of the table.
std::optional<qint64> parseWholeNumber(const QString &text);
// Parses a config value as configparser's getboolean() does: 1/yes/true/on and 0/no/false/off, in any case.
std::optional<bool> parseConfigBoolean(const QString &text);

// The kind of value a key holds, which decides how the reader takes the value and how its messages say what is
// wrong.
enum class KeyKind {
    Seconds, // a whole number of seconds within the row's range
    Number,  // a whole number of the row's unit within its range
    Boolean, // configparser's boolean words
    Word,    // one word of the key's table in configwords.h
    List,    // a comma-separated list of names
    Path,    // an absolute path
    Custom,  // read by the row's own function (a GPU list, a command, a schedule...)
};

// The settings one section's keys are read into or shown from: the whole configuration, and for a [gpu-*] or
// [process-*] section the group or workload of that section.
template<typename ConfigT, typename GroupT, typename WorkloadT>
struct KeyOwners
{
    ConfigT *config = nullptr;
    GroupT *group = nullptr;
    WorkloadT *workload = nullptr;
};
using KeyTarget = KeyOwners<Config, GpuGroupConfig, WorkloadConfig>;
using KeySource = KeyOwners<const Config, const GpuGroupConfig, const WorkloadConfig>;

// A row of the table: one key of the config file.
struct KeyRow
{
    // Reads the key's entry of the section into the target and reports what is wrong at the entry's line. It is
    // called for every section of the row's, with the key or without it. It is null for a key that the row of another
    // key reads (cmd's row reads start_cmd and stop_cmd).
    using Read = void (*)(const KeyRow &row, KeyReading &reading);
    // The value as the file would write it; empty when the key says nothing (an empty list, no textfile).
    using Text = QString (*)(const KeyRow &row, const KeySource &source);
    // Extra text that the printout gives about the value, such as the words a command is split into.
    using Detail = QString (*)(const KeySource &source);

    const char *section; // "defaults", or "gpu-*" and "process-*" for the sections of every GPU group and workload
    const char *key;
    KeyKind kind;
    ConfigRange range{0, 0};        // Seconds and Number
    const char *unit = nullptr;     // for Number, the unit as messages say it ("MiB")
    const char *zeroMeans = nullptr; // for Number, what 0 stands for when it is not a number of the unit ("off")
    // The default, where it is not a value of the key ("the short host name"); otherwise the default is the text of
    // the setting as the settings structs start.
    const char *defaultNote = nullptr;
    const char *emptyText = nullptr; // what --check-config prints for an empty text ("(none)")
    // Whether the settings dialog writes the key even at its default value, instead of removing it.
    bool writtenAtDefault = false;
    Read read = nullptr;
    Text text = nullptr;
    // What --check-config prints for an empty text, where what a key left out amounts to depends on other keys
    // (busy_memory_mib on busy_when).
    Text effective = nullptr;
    Detail detail = nullptr;

    // "[defaults] max_temperature_c": the key as the user finds it in the file, for messages and the dialog.
    QString name() const;
    // "defaults/max_temperature_c": the key as IniEdit and the settings draft name it.
    QString path() const;
    // Whether it is a [gpu-*] or [process-*] key, read once per GPU group or workload.
    bool repeated() const;
    // Returns the default as the documentation says it: "10", "auto", "the short host name".
    QString defaultText() const;
    // Returns the value as --check-config prints it: the text ("user1,user2" for a list, without spaces, so that it
    // reads as one value among the others of its line), "(none)" for an empty one, or "0 (off)".
    QString display(const KeySource &source) const;

    // Modifiers for the table: each returns the row with one more column filled.
    constexpr KeyRow withDefaultNote(const char *note) const
    {
        KeyRow row = *this;
        row.defaultNote = note;
        return row;
    }
    constexpr KeyRow withEmptyText(const char *empty) const
    {
        KeyRow row = *this;
        row.emptyText = empty;
        return row;
    }
    constexpr KeyRow withZeroMeaning(const char *meaning) const
    {
        KeyRow row = *this;
        row.zeroMeans = meaning;
        return row;
    }
    constexpr KeyRow alwaysWritten() const
    {
        KeyRow row = *this;
        row.writtenAtDefault = true;
        return row;
    }
    // For a key with more to read than its kind says (busy_memory_mib also marks itself given).
    constexpr KeyRow readBy(Read function) const
    {
        KeyRow row = *this;
        row.read = function;
        return row;
    }
    constexpr KeyRow withText(Text function) const
    {
        KeyRow row = *this;
        row.text = function;
        return row;
    }
    constexpr KeyRow withEffective(Text function) const
    {
        KeyRow row = *this;
        row.effective = function;
        return row;
    }
    constexpr KeyRow withDetail(Detail function) const
    {
        KeyRow row = *this;
        row.detail = function;
        return row;
    }
};

// The functions that look up rows of the table and read or write one key through its row.
namespace ConfigKeys {
// Returns every row, in the order the reader reads them: the lists of configkeys.cpp one after the other.
const QList<const KeyRow *> &table();
// Returns the rows of a section of the table ("tty", "gpu-*"), in table order.
QList<const KeyRow *> rowsOf(const QString &section);
// Returns the sections of the table, each once, in the order of their first row: defaults, gpu-*, process-*, ...
QStringList sections();
// Returns the row of `key` in `section`, a section of the table ("process-*" for every workload). A key that the
// table lacks is a mistake in the calling code, so it stops the program.
const KeyRow &row(const QString &section, const QString &key);
// Returns the section of the table that a section of a file belongs to: itself, "gpu-*" for a name that starts with
// gpu, or "process-*" for a name that starts with process (gpu_mon chose them with startswith()); empty when none.
QString sectionOf(const QString &fileSection);

// Returns the text of a key of a single section ([defaults], [tty]...) in `config`.
QString text(const KeyRow &row, const Config &config);
// Returns `config` with a key of a single section set from `text` as the reader reads it. What the reader finds
// wrong with the text goes to *problems (without file and line), and the key then keeps its value.
Config withText(const KeyRow &row, const QString &text, const Config &config, QStringList *problems = nullptr);
} // namespace ConfigKeys
