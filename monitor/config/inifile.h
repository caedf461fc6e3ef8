// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The reader and writer of gpu_mon.conf's INI dialect, as Python's configparser reads it, also offered as a QSettings
// format. Values are kept verbatim, and a write keeps every untouched line byte for byte; inifile.cpp gives the
// dialect's rules.
#include <QByteArray>
#include <QList>
#include <QMap>
#include <QSettings>
#include <QString>

#include <memory>
#include <optional>

// A parsed config file, with the line of every section and key for FILE:LINE messages.
struct IniDocument
{
    struct Entry
    {
        QString section; // lower case
        QString key;     // lower case
        QString value;   // verbatim (continuation lines joined with \n)
        int line = 0;
        struct Continuation
        {
            int line = 0;
            QString text; // stripped
        };
        QList<Continuation> continuations; // the value's continuation lines, blank ones aside
    };
    struct Section
    {
        QString name; // lower case
        int line = 0;
    };
    struct Problem
    {
        int line = 0;
        QString message;
    };

    QList<Section> sections;
    QList<Entry> entries;
    QList<Problem> problems; // syntax errors: text outside a section, a line without =, a duplicate, ...

    // The largest file that is read. A config file is a few kilobytes, so a larger file is something else.
    static constexpr qint64 maxFileSize = 1024 * 1024;

    // Parses `contents`; it never fails. Binary, non-UTF-8 or oversized content gives one problem and no sections.
    static IniDocument parse(const QByteArray &contents);
    const Entry *find(const QString &section, const QString &key) const;
    int sectionLine(const QString &section) const; // 0 when absent
};

// The reason readIniFile() returned nothing.
enum class IniReadFailure {
    None,
    Unreadable,       // the file is missing, not a regular file or too large, or a read failed
    Untrusted,        // a user other than root and idlegpu's own may change the file or a folder on its way
    ChangedWhileRead, // the file was written or replaced while it was read, so the bytes may be half a file
};

// Reads a config file through SecureFile::openTrustedFile(), the only way idlegpu reads one. Returns nullopt and sets
// *error (naming the file or folder at fault) and *failure when the file is untrusted, unreadable or changed while
// it was read.
std::optional<QByteArray> readIniFile(const QString &path, QString *error, IniReadFailure *failure = nullptr);

// Returns the QSettings format of this dialect, registered on first use. Keys are "section/key" in lower case, since
// QSettings compares keys case-sensitively. A read fails (FormatError) only for binary, non-UTF-8 or oversized files.
// A write edits the file in place and fails (AccessError), leaving it untouched, for a value that would not read back
// as given, so trim values before setValue().
QSettings::Format idlegpuIniFormat();

// A set of edits to a config file, applied in memory by IniText::edited and written in one replace by replaceIniFile,
// so that a watcher never sees the file half edited. Keys are "section/key" in lower case.
struct IniEdit
{
    // The values to set, each where it stands, else after the last key of its section, else in a new section. Trim
    // them: a value must read back as given.
    QMap<QString, QString> setKeys;
    QStringList removeKeys;
    // The whole sections to remove, with their keys and the comment lines directly above them. A removed section must
    // not be in setKeys or sectionsAtEnd.
    QStringList removeSections;
    // The sections to place after every other section, in this order, moved with their lines or written new. New
    // sections not named here follow, in key order.
    QStringList sectionsAtEnd;

    bool isEmpty() const
    {
        return setKeys.isEmpty() && removeKeys.isEmpty() && removeSections.isEmpty() && sectionsAtEnd.isEmpty();
    }
};

// A config file's bytes, parsed once, which gives what they hold and the same bytes with edits applied.
class IniText
{
public:
    IniText(); // an empty file
    static IniText parse(const QByteArray &contents);

    const QByteArray &contents() const;
    const IniDocument &document() const;

    // Returns the file with `edit` applied, proven to read back as the edited settings; nullopt with *error set for a
    // value or key that cannot be written so, a file that is not text, or a section both removed and edited.
    std::optional<QByteArray> edited(const IniEdit &edit, QString *error) const;

private:
    struct Parsed;
    explicit IniText(std::shared_ptr<const Parsed> parsed);
    std::shared_ptr<const Parsed> m_parsed;
};

// Puts `contents` in the place of the file at `path` in one atomic replace, keeping its mode (a new file is 0600, in a
// folder made 0700). Returns false and sets *error, keeping the old file whole, when it cannot.
bool replaceIniFile(const QString &path, const QByteArray &contents, QString *error);
