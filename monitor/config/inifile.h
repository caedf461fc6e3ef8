// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The INI dialect of gpu_mon.conf, as Python's configparser reads it, as a QSettings format.
//
// Qt's stock IniFormat mangles such files (`cmd=miner --pool "a:1" -u x,y` comes back as a list with the
// quotes gone), so idlegpu registers its own: values are kept verbatim, `;` and `#` start comment lines,
// spaces around `=` (or `:`) are allowed, section and key names are case-insensitive (kept lower case),
// indented lines continue a value. Writing changes a file in place: comments, order and untouched lines stay
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

// One parsed file, with the line of every section and key, for FILE:LINE messages.
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

    // Larger files are refused: a config file is a few kilobytes; this is something else.
    static constexpr qint64 maxFileSize = 1024 * 1024;

    // Never fails: binary content, text that is not UTF-8 or a file over maxFileSize gives a single problem
    // and no sections.
    static IniDocument parse(const QByteArray &contents);
    const Entry *find(const QString &section, const QString &key) const;
    int sectionLine(const QString &section) const; // 0 when absent
};

// Why readIniFile() returned nothing.
enum class IniReadFailure {
    None,
    Unreadable,       // missing, not a regular file, too large, a read error
    Untrusted,        // a user other than root and idlegpu's own may change the file or a folder on its way
    ChangedWhileRead, // written or replaced while it was read: what was read may be half a file
};

// Reads a config file the only way idlegpu reads one: opened once through SecureFile::openTrustedFile() for the user
// idlegpu runs as (every folder on the way checked on the fd it was opened as, a link followed only in a trusted
// folder), never blocking (a FIFO is refused), only a regular file of at most IniDocument::maxFileSize bytes, read
// from that fd, and only when its status (inode, size, modification and change times) is the same after the read
// as before and its path still names it. Returns nullopt and sets *error (naming the file or folder at fault) and
// *failure otherwise.
std::optional<QByteArray> readIniFile(const QString &path, QString *error, IniReadFailure *failure = nullptr);

// The registered format; register once, on first use. Keys are "section/key", lower case: QSettings itself
// compares keys case-sensitively on Linux, so use lower-case keys with it.
//
// Reading: every key the document holds (the first of duplicates), the values IniDocument gives; ConfigLoader
// reads IniDocument itself, which spares a second parse (config.cpp says why). The read reports failure (QSettings::
// FormatError, no keys) only for binary, non-UTF-8 or oversized files; syntax problems are IniDocument's to
// report, and their lines are left alone by a write.
// Writing: the file on disk is read again and edited in place (see above, and IniEdit); a multi-line value gets
// its continuation lines indented by 4 spaces; a QStringList is written comma-separated. QSettings takes what it
// wrote for the file's contents, so a value must read back exactly as given: the write fails, leaving the file
// untouched (QSettings::AccessError, a warning in idlegpu.config), for white space around a value or one of its
// lines, a continuation line starting with `;` or `#`, a key with `=` or `:`, a key without a section, two
// keys that differ only in case, or a file that is not text. Trim values before setValue().
QSettings::Format idlegpuIniFormat();

// Edits of a config file, made in memory on one parse of it (IniText::edited) and written with one atomic replace
// (replaceIniFile): how the settings dialog saves, so that a watcher of the file never sees it half edited.
// Keys are "section/key", lower case, as with the QSettings format.
struct IniEdit
{
    // Each value replaced where it stands (its continuation lines too), else added after the last key of its
    // section, else written in a new section (see sectionsAtEnd). Values must read back as given, as with the
    // QSettings format: trim them.
    QMap<QString, QString> setKeys;
    QStringList removeKeys;
    // Whole sections, which QSettings cannot remove (removing a group's keys leaves its header, and an empty
    // [process-*] is an error): each header with its keys, their continuation lines and the comments among them,
    // plus the comment lines directly above the header; one of two blank lines left around it goes too. A
    // removed section must not be in setKeys or sectionsAtEnd.
    QStringList removeSections;
    // Placed after every other section, in this order: an existing section moves there with all its lines
    // (setKeys and removeKeys applied where they stand) and the comment lines directly above its header; a new
    // one is written there with its keys from setKeys. New sections not named here follow them, in key order.
    QStringList sectionsAtEnd;

    bool isEmpty() const
    {
        return setKeys.isEmpty() && removeKeys.isEmpty() && removeSections.isEmpty() && sectionsAtEnd.isEmpty();
    }
};

// A config file's bytes parsed once: what they hold, and the same bytes with edits applied. Every line an edit
// does not touch stays byte for byte.
class IniText
{
public:
    IniText(); // an empty file
    static IniText parse(const QByteArray &contents);

    const QByteArray &contents() const;
    const IniDocument &document() const;

    // The file with `edit` applied, proven to read back as the edited settings (else nullopt with *error: a
    // value or key that cannot be written so, a file that is not text, a section both removed and edited).
    // Unchanged values give the same bytes back.
    std::optional<QByteArray> edited(const IniEdit &edit, QString *error) const;

private:
    struct Parsed;
    explicit IniText(std::shared_ptr<const Parsed> parsed);
    std::shared_ptr<const Parsed> m_parsed;
};

// Puts `contents` in the place of the file at `path` in one atomic replace (SecureFile::replaceFileAt, through a
// symbolic link to its target when the link's folder is trusted): the mode of the file replaced is kept; a new file
// is private (0600), its folder created (0700). Returns false and sets *error, naming the file and why, when it
// cannot: a folder other users can change, a full disk (the old file is then kept whole).
bool replaceIniFile(const QString &path, const QByteArray &contents, QString *error);
