// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The reader and writer of gpu_mon.conf's INI dialect, as Python's configparser reads it, also offered as a
// QSettings format.
//
// Qt's stock IniFormat mangles such files (`cmd=miner --pool "a:1" -u x,y` comes back as a list with the
// quotes gone), so idlegpu registers its own format: values are kept verbatim, `;` and `#` start comment lines,
// spaces around `=` (or `:`) are allowed, section and key names are case-insensitive (kept lower case), and
// indented lines continue a value. A write changes a file in place: comments, order and untouched lines stay
// byte for byte, and the file is replaced atomically with its mode kept.
//
// Reading follows configparser's defaults (ConfigParser(), strict=True): `[name]` headers (the text up to the
// last `]`), `key = value` split at the first `=` or `:`, no inline comments, no interpolation, blank lines
// inside a continued value kept. Unlike configparser, a UTF-8 byte order mark is skipped, and problems are
// collected with their lines instead of stopping at the first.
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

    // Parses `contents`; it never fails. Binary content, text that is not UTF-8 or a file over maxFileSize gives a
    // single problem and no sections.
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

// Reads a config file the only way idlegpu reads one. The file is opened once through SecureFile::openTrustedFile()
// for the user idlegpu runs as (every folder on the way is checked on the fd it was opened as, and a link is
// followed only in a trusted folder), without blocking (a FIFO is refused). Only a regular file of at most
// IniDocument::maxFileSize bytes is read, from that fd, and only when its status (inode, size, modification and
// change times) is the same after the read as before and its path still names it. Otherwise it returns nullopt and
// sets *error (naming the file or folder at fault) and *failure.
std::optional<QByteArray> readIniFile(const QString &path, QString *error, IniReadFailure *failure = nullptr);

// Returns the QSettings format of this dialect, registered once on first use. Keys are "section/key" in lower case:
// QSettings itself compares keys case-sensitively on Linux, so use lower-case keys with it.
//
// A read gives every key that the document holds (the first of duplicates) with the values IniDocument gives;
// ConfigLoader reads IniDocument itself, which spares a second parse (config.cpp says why). The read reports a
// failure (QSettings::FormatError, no keys) only for binary, non-UTF-8 or oversized files; syntax problems are
// IniDocument's to report, and a write leaves their lines alone.
// A write reads the file on disk again and edits it in place (see above, and IniEdit); a multi-line value gets
// its continuation lines indented by 4 spaces; a QStringList is written comma-separated. QSettings takes what it
// wrote for the file's contents, so a value must read back exactly as given. The write fails, leaving the file
// untouched (QSettings::AccessError, a warning in idlegpu.config), for white space around a value or one of its
// lines, a continuation line starting with `;` or `#`, a key with `=` or `:`, a key without a section, two
// keys that differ only in case, or a file that is not text. Trim values before setValue().
QSettings::Format idlegpuIniFormat();

// A set of edits to a config file, made in memory on one parse of it (IniText::edited) and written with one atomic
// replace (replaceIniFile). The settings dialog saves this way, so that a watcher of the file never sees it half
// edited. Keys are "section/key" in lower case, as with the QSettings format.
struct IniEdit
{
    // The values to set. Each value is replaced where it stands (its continuation lines too), else added after the
    // last key of its section, else written in a new section (see sectionsAtEnd). Values must read back as given,
    // as with the QSettings format, so trim them.
    QMap<QString, QString> setKeys;
    QStringList removeKeys;
    // The whole sections to remove, which QSettings cannot do (removing a group's keys leaves its header, and an
    // empty [process-*] is an error). Each header goes with its keys, their continuation lines, the comments among
    // them and the comment lines directly above the header; of two blank lines left around it, one goes too. A
    // removed section must not be in setKeys or sectionsAtEnd.
    QStringList removeSections;
    // The sections to place after every other section, in this order. An existing section moves there with all its
    // lines (setKeys and removeKeys applied where they stand) and the comment lines directly above its header; a
    // new section is written there with its keys from setKeys. New sections not named here follow, in key order.
    QStringList sectionsAtEnd;

    bool isEmpty() const
    {
        return setKeys.isEmpty() && removeKeys.isEmpty() && removeSections.isEmpty() && sectionsAtEnd.isEmpty();
    }
};

// A config file's bytes, parsed once: what they hold, and the same bytes with edits applied. Every line that an
// edit does not touch stays byte for byte.
class IniText
{
public:
    IniText(); // an empty file
    static IniText parse(const QByteArray &contents);

    const QByteArray &contents() const;
    const IniDocument &document() const;

    // Returns the file with `edit` applied, proven to read back as the edited settings. Returns nullopt and sets
    // *error for a value or key that cannot be written so, a file that is not text, or a section that is both
    // removed and edited. Unchanged values give the same bytes back.
    std::optional<QByteArray> edited(const IniEdit &edit, QString *error) const;

private:
    struct Parsed;
    explicit IniText(std::shared_ptr<const Parsed> parsed);
    std::shared_ptr<const Parsed> m_parsed;
};

// Puts `contents` in the place of the file at `path` in one atomic replace (SecureFile::replaceFileAt, through a
// symbolic link to its target when the link's folder is trusted). The replaced file's mode is kept; a new file is
// private (0600), and its folder is created 0700. Returns false and sets *error, naming the file and the reason,
// when it cannot, such as for a folder that other users can change or a full disk (the old file is then kept whole).
bool replaceIniFile(const QString &path, const QByteArray &contents, QString *error);
