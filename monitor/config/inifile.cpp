// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "config/inifile.h"

// Qt's stock IniFormat mangles gpu_mon.conf files (`cmd=miner --pool "a:1" -u x,y` comes back as a list with the
// quotes gone), so idlegpu registers its own format: values are kept verbatim, `;` and `#` start comment lines,
// spaces around `=` (or `:`) are allowed, section and key names are case-insensitive (kept lower case), and
// indented lines continue a value. A write changes a file in place: comments, order and untouched lines stay
// byte for byte, and the file is replaced atomically with its mode kept.
//
// Reading follows configparser's defaults (ConfigParser(), strict=True): `[name]` headers (the text up to the
// last `]`), `key = value` split at the first `=` or `:`, no inline comments, no interpolation, blank lines
// inside a continued value kept. Unlike configparser, a UTF-8 byte order mark is skipped, and problems are
// collected with their lines instead of stopping at the first.

#include "base/errnotext.h"
#include "config/securefile.h"
#include "base/logging.h"

#include <QDir>
#include <QFile>
#include <QFileDevice>
#include <QFileInfo>
#include <QHash>
#include <QMap>
#include <QSet>
#include <QStringDecoder>

#include <algorithm>

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

// Python's str.isspace(), which configparser's strip() and \S rely on: Qt's notion plus the separators
// U+001C..U+001F.
bool isPythonSpace(QChar c)
{
    return c.isSpace() || (c.unicode() >= 0x1c && c.unicode() <= 0x1f);
}

qsizetype leadingSpaceCount(QStringView text)
{
    qsizetype i = 0;
    while (i < text.size() && isPythonSpace(text.at(i)))
        ++i;
    return i;
}

QStringView pythonRstrip(QStringView text)
{
    qsizetype end = text.size();
    while (end > 0 && isPythonSpace(text.at(end - 1)))
        --end;
    return text.left(end);
}

QStringView pythonStrip(QStringView text)
{
    return pythonRstrip(text.mid(leadingSpaceCount(text)));
}

// A line of hostile text quoted in a message, cut to a readable length.
QString quoted(QStringView text)
{
    constexpr qsizetype maxShown = 60;
    if (text.size() <= maxShown)
        return QLatin1Char('\'') + text.toString() + QLatin1Char('\'');
    return QLatin1Char('\'') + text.left(maxShown).toString() + QStringLiteral("...'");
}

const QByteArray utf8Bom("\xEF\xBB\xBF");

struct RawLine
{
    QByteArray bytes; // without the line ending
    QByteArray eol;   // "\n", "\r\n", "\r", or empty for a last line without one
    QString text;
};

// An option line, in the document or not (a duplicate, a key of a duplicate section).
struct KeyLine
{
    QString section;
    QString key;
    int line = 0;         // index into ParsedFile::lines
    int header = -1;      // index into ParsedFile::headers of the section it stands in
    bool inDocument = false;
    qsizetype keyEnd = 0;     // in the line's text: end of the key
    qsizetype valueStart = 0; // in the line's text: start of the value (its end when the value is empty)
    QList<int> continuationLines;
    QStringList valueLines; // the value's first line, then one per continuation line ("" for a blank line)
};

struct SectionHeader
{
    QString name;
    int line = 0;
    bool inDocument = false; // false for a duplicate
};

struct ParsedFile
{
    QByteArray bom;
    QList<RawLine> lines;
    QList<qsizetype> indentLevels; // configparser's indent_level after each line
    QList<KeyLine> keyLines;
    QList<SectionHeader> headers;
    IniDocument document;
    bool isText = true;
};

QList<RawLine> splitLines(const QByteArray &bytes)
{
    // Python's universal newlines: \n, \r\n and a lone \r all end a line. Neither byte occurs inside a
    // UTF-8 sequence, so splitting the bytes before decoding is safe.
    QList<RawLine> lines;
    qsizetype start = 0;
    const qsizetype size = bytes.size();
    while (start < size) {
        qsizetype end = start;
        while (end < size && bytes.at(end) != '\n' && bytes.at(end) != '\r')
            ++end;
        RawLine line;
        line.bytes = bytes.mid(start, end - start);
        qsizetype next = end;
        if (end < size) {
            const bool crlf = bytes.at(end) == '\r' && end + 1 < size && bytes.at(end + 1) == '\n';
            next = end + (crlf ? 2 : 1);
            line.eol = bytes.mid(end, next - end);
        }
        lines.append(line);
        start = next;
    }
    return lines;
}

ParsedFile parseFile(const QByteArray &contents)
{
    ParsedFile file;
    IniDocument &doc = file.document;
    if (contents.size() > IniDocument::maxFileSize) {
        doc.problems.append({0, QStringLiteral("larger than 1 MiB: not a config file")});
        file.isText = false;
        return file;
    }
    QByteArray body = contents;
    if (body.startsWith(utf8Bom)) {
        file.bom = utf8Bom;
        body.remove(0, utf8Bom.size());
    }
    file.lines = splitLines(body);
    for (int i = 0; i < file.lines.size(); ++i) {
        RawLine &line = file.lines[i];
        QStringDecoder decoder(QStringConverter::Utf8,
                               QStringConverter::Flag::Stateless | QStringConverter::Flag::ConvertInitialBom);
        line.text = decoder.decode(line.bytes);
        if (decoder.hasError() || line.bytes.contains('\0')) {
            doc.problems.append({i + 1, QStringLiteral("binary or not UTF-8 text")});
            file.isText = false;
            file.lines.clear();
            return file;
        }
    }

    // A file of garbage would give one problem a line; the first ones are enough to see what is wrong.
    constexpr int maxProblems = 100;
    int suppressedProblems = 0;
    const auto addProblem = [&](int line, const QString &message) {
        if (doc.problems.size() < maxProblems)
            doc.problems.append({line, message});
        else
            ++suppressedProblems;
    };

    // configparser's _read(), line by line.
    QHash<QString, int> headerOf;               // section -> index into headers, for the first header
    QHash<QString, int> keyLineOf;              // "section/key" -> index into keyLines, for the first
    int currentHeader = -1;                     // the section we are in, -1 before the first header
    int currentKeyLine = -1;                    // the option continuation lines extend, -1 for none
    qsizetype indentLevel = 0;
    int blankLinesInValue = 0;                  // blank lines since the last line of the current option

    for (int i = 0; i < file.lines.size(); ++i) {
        file.indentLevels.append(indentLevel);
        const int lineNumber = i + 1;
        const QString &text = file.lines.at(i).text;
        const QStringView stripped = pythonStrip(text);
        if (stripped.startsWith(QLatin1Char(';')) || stripped.startsWith(QLatin1Char('#')))
            continue;
        if (stripped.isEmpty()) {
            // empty_lines_in_values: a blank line belongs to the value if a continuation line follows.
            if (currentKeyLine >= 0)
                ++blankLinesInValue;
            continue;
        }
        const qsizetype indent = leadingSpaceCount(text);
        if (currentHeader >= 0 && currentKeyLine >= 0 && indent > indentLevel) {
            KeyLine &keyLine = file.keyLines[currentKeyLine];
            keyLine.continuationLines.append(i);
            for (; blankLinesInValue > 0; --blankLinesInValue)
                keyLine.valueLines.append(QString());
            keyLine.valueLines.append(stripped.toString());
            continue;
        }
        indentLevel = indent;
        file.indentLevels.last() = indentLevel;

        const qsizetype closing = stripped.lastIndexOf(QLatin1Char(']'));
        if (stripped.startsWith(QLatin1Char('[')) && closing >= 2) {
            SectionHeader header;
            header.name = stripped.mid(1, closing - 1).toString().toLower();
            header.line = i;
            const auto first = headerOf.constFind(header.name);
            if (first != headerOf.constEnd()) {
                addProblem(lineNumber, QStringLiteral("duplicate section [%1] (first at line %2)")
                                                     .arg(header.name)
                                                     .arg(file.headers.at(*first).line + 1));
            } else {
                header.inDocument = true;
                headerOf.insert(header.name, file.headers.size());
                doc.sections.append({header.name, lineNumber});
            }
            currentHeader = file.headers.size();
            file.headers.append(header);
            currentKeyLine = -1;
            blankLinesInValue = 0;
            continue;
        }
        if (currentHeader < 0) {
            addProblem(lineNumber, QStringLiteral("%1 comes before any [section] header").arg(quoted(stripped)));
            continue;
        }
        qsizetype delimiter = -1;
        for (qsizetype j = 0; j < stripped.size() && delimiter < 0; ++j)
            if (stripped.at(j) == QLatin1Char('=') || stripped.at(j) == QLatin1Char(':'))
                delimiter = j;
        if (delimiter < 0) {
            // configparser keeps the current option here, so a deeper line after this one still continues it.
            addProblem(lineNumber, QStringLiteral("%1 is neither a [section] header nor a key = value line")
                                                 .arg(quoted(stripped)));
            continue;
        }
        const QStringView rawKey = pythonRstrip(stripped.left(delimiter));
        if (rawKey.isEmpty()) {
            addProblem(lineNumber, QStringLiteral("%1 has no key before the %2")
                                                 .arg(quoted(stripped), stripped.at(delimiter)));
            currentKeyLine = -1;
            blankLinesInValue = 0;
            continue;
        }
        const SectionHeader &header = file.headers.at(currentHeader);
        const qsizetype textStart = leadingSpaceCount(text);
        const QStringView afterDelimiter = stripped.mid(delimiter + 1);
        const qsizetype valueOffset = leadingSpaceCount(afterDelimiter);

        KeyLine keyLine;
        keyLine.section = header.name;
        keyLine.key = rawKey.toString().toLower();
        keyLine.line = i;
        keyLine.header = currentHeader;
        keyLine.keyEnd = textStart + rawKey.size();
        keyLine.valueStart = valueOffset < afterDelimiter.size() ? textStart + delimiter + 1 + valueOffset
                                                                 : textStart + stripped.size();
        if (header.inDocument) {
            const QString fullKey = keyLine.section + QLatin1Char('/') + keyLine.key;
            const auto first = keyLineOf.constFind(fullKey);
            if (first != keyLineOf.constEnd()) {
                addProblem(lineNumber, QStringLiteral("duplicate key '%1' in [%2] (first at line %3)")
                                                     .arg(keyLine.key, keyLine.section)
                                                     .arg(file.keyLines.at(*first).line + 1));
            } else {
                keyLine.inDocument = true;
                keyLineOf.insert(fullKey, file.keyLines.size());
            }
        }
        keyLine.valueLines.append(pythonStrip(afterDelimiter).toString());
        currentKeyLine = file.keyLines.size();
        blankLinesInValue = 0;
        file.keyLines.append(keyLine);
    }

    for (const KeyLine &keyLine : std::as_const(file.keyLines)) {
        if (!keyLine.inDocument)
            continue;
        IniDocument::Entry entry{keyLine.section, keyLine.key, keyLine.valueLines.join(QLatin1Char('\n')),
                                 keyLine.line + 1, {}};
        for (const int line : keyLine.continuationLines)
            entry.continuations.append({line + 1, pythonStrip(file.lines.at(line).text).toString()});
        doc.entries.append(entry);
    }
    if (suppressedProblems > 0)
        doc.problems.append(
            {0, QStringLiteral("%1 more %2 not shown")
                    .arg(suppressedProblems)
                    .arg(suppressedProblems == 1 ? QStringLiteral("problem") : QStringLiteral("problems"))});
    return file;
}

// ---------------------------------------------------------------------------------------------------------
// Writing

QString fullKey(const QString &section, const QString &key)
{
    return section + QLatin1Char('/') + key;
}

// What configparser reads back for a value written out: each line trimmed, trailing empty lines dropped.
QString readBackForm(const QString &value)
{
    QStringList lines = value.split(QLatin1Char('\n'));
    for (QString &line : lines)
        line = pythonStrip(line).toString();
    while (lines.size() > 1 && lines.constLast().isEmpty())
        lines.removeLast();
    return lines.join(QLatin1Char('\n'));
}

std::optional<QString> valueText(const QVariant &value)
{
    if (value.typeId() == QMetaType::QStringList)
        return value.toStringList().join(QLatin1Char(','));
    if (!value.isValid() || !value.canConvert<QString>())
        return std::nullopt;
    return value.toString();
}

// Why this name cannot be written so that it reads back the same; empty when it can.
QString sectionNameProblem(const QString &name)
{
    if (name.isEmpty())
        return QStringLiteral("the section name is empty");
    if (name.contains(QLatin1Char('\n')) || name.contains(QLatin1Char('\r')) || name.contains(QChar()))
        return QStringLiteral("the section name holds a line break or NUL");
    return {};
}

QString keyProblem(const QString &key)
{
    if (key.isEmpty())
        return QStringLiteral("the key is empty");
    if (pythonStrip(key) != key)
        return QStringLiteral("the key starts or ends with white space");
    if (key.contains(QLatin1Char('=')) || key.contains(QLatin1Char(':')))
        return QStringLiteral("the key holds = or :");
    if (key.startsWith(QLatin1Char(';')) || key.startsWith(QLatin1Char('#')) || key.startsWith(QLatin1Char('[')))
        return QStringLiteral("the key starts with ; # or [");
    if (key.contains(QLatin1Char('\n')) || key.contains(QLatin1Char('\r')) || key.contains(QChar()))
        return QStringLiteral("the key holds a line break or NUL");
    return {};
}

QString valueProblem(const QString &value)
{
    if (value.contains(QChar()))
        return QStringLiteral("the value holds a NUL character");
    if (value.contains(QLatin1Char('\r')))
        return QStringLiteral("the value holds a carriage return");
    // QSettings keeps what it wrote as the file's contents: a value must read back exactly as written.
    if (readBackForm(value) != value)
        return QStringLiteral("white space around the value or one of its lines, or a trailing empty line, would "
                              "not read back");
    const QStringList lines = value.split(QLatin1Char('\n'));
    for (qsizetype i = 1; i < lines.size(); ++i)
        if (lines.at(i).startsWith(QLatin1Char(';')) || lines.at(i).startsWith(QLatin1Char('#')))
            return QStringLiteral("a continuation line of the value starts with ; or # and would read as a comment");
    return {};
}

// The lines of `key<assignment>value`, continuation lines indented deeper than `indent`.
QList<QByteArray> keyLines(const QString &prefix, const QString &indent, const QString &value)
{
    const QStringList valueLines = value.split(QLatin1Char('\n'));
    QList<QByteArray> result{(prefix + valueLines.first()).toUtf8()};
    for (qsizetype i = 1; i < valueLines.size(); ++i)
        result.append(valueLines.at(i).isEmpty() ? QByteArray()
                                                 : (indent + QStringLiteral("    ") + valueLines.at(i)).toUtf8());
    return result;
}

// What stays of an existing key line when its value changes: everything up to the value. For "key =" with
// an empty value, the space before the delimiter is mirrored after it.
QString keptPrefix(const KeyLine &keyLine, const QString &text, const QString &newValue)
{
    QString prefix = text.left(keyLine.valueStart);
    const bool wasEmpty = keyLine.valueStart == pythonRstrip(text).size();
    const qsizetype delimiterAt = keyLine.valueStart - 1;
    if (wasEmpty && !newValue.section(QLatin1Char('\n'), 0, 0).isEmpty() && delimiterAt > 0
        && isPythonSpace(text.at(delimiterAt - 1)))
        prefix += QLatin1Char(' ');
    return prefix;
}

// The settings QSettings hands over, as lower-case "section/key" -> value text.
std::optional<QMap<QString, QString>> wantedSettings(const QSettings::SettingsMap &map, QString *why)
{
    QMap<QString, QString> wanted;
    for (auto it = map.constBegin(); it != map.constEnd(); ++it) {
        const std::optional<QString> text = valueText(it.value());
        if (!text) {
            *why = QStringLiteral("the value of %1 is not text").arg(it.key());
            return std::nullopt;
        }
        const QString key = it.key().toLower();
        const auto existing = wanted.constFind(key);
        if (existing != wanted.constEnd() && *existing != *text) {
            *why = QStringLiteral("two keys differ only in case: %1").arg(key);
            return std::nullopt;
        }
        wanted.insert(key, *text);
    }
    return wanted;
}

// The file with `edit` applied: changed values replaced on their lines, removed keys deleted with their
// continuation lines, new keys after the last key of their section, removed sections deleted, the sections to
// put at the end moved there (or written there when new), other new sections after them.
//
// For moving, the file is cut into blocks: one a header, from the comment lines directly above it to its last
// line that is not blank; the blank lines after a block stay where they are, so that a moved section leaves
// the file's spacing as it was.
std::optional<QByteArray> editedFile(const ParsedFile &file, const IniEdit &edit, QString *why)
{
    QByteArray defaultEol("\n");
    for (const RawLine &line : file.lines)
        if (!line.eol.isEmpty()) {
            defaultEol = line.eol;
            break;
        }
    const auto isComment = [&file](int line) {
        const QStringView stripped = pythonStrip(file.lines.at(line).text);
        return stripped.startsWith(QLatin1Char(';')) || stripped.startsWith(QLatin1Char('#'));
    };
    const auto isBlank = [&file](int line) { return pythonStrip(file.lines.at(line).text).isEmpty(); };

    const QSet<QString> removedSections(edit.removeSections.cbegin(), edit.removeSections.cend());
    const QSet<QString> removedKeys(edit.removeKeys.cbegin(), edit.removeKeys.cend());
    for (const QString &section : edit.removeSections) {
        const QString prefix = section + QLatin1Char('/');
        const bool edited = edit.sectionsAtEnd.contains(section)
                            || std::any_of(edit.setKeys.keyBegin(), edit.setKeys.keyEnd(),
                                           [&prefix](const QString &key) { return key.startsWith(prefix); });
        if (edited) {
            *why = QStringLiteral("the section [%1] is both removed and edited").arg(section);
            return std::nullopt;
        }
    }

    QList<bool> deleted(file.lines.size(), false);
    QHash<int, QList<QByteArray>> replacement; // line index -> its new lines
    QMap<QString, QString> added = edit.setKeys; // what is left to add once the existing keys are handled
    QHash<int, int> lastLineOfHeader;            // header index -> last line of its keys and their continuations
    QString fileAssignment;                      // "=", " = ", ": "... as the file writes it
    QHash<int, QString> assignmentOfHeader;
    for (const KeyLine &keyLine : file.keyLines) {
        const int last = keyLine.continuationLines.isEmpty() ? keyLine.line : keyLine.continuationLines.constLast();
        lastLineOfHeader[keyLine.header] = qMax(lastLineOfHeader.value(keyLine.header, -1), last);
        const QString &text = file.lines.at(keyLine.line).text;
        if (keyLine.valueStart < text.size()) { // a non-empty value shows the spacing around the delimiter
            const QString assignment = text.mid(keyLine.keyEnd, keyLine.valueStart - keyLine.keyEnd);
            assignmentOfHeader.insert(keyLine.header, assignment);
            if (fileAssignment.isEmpty())
                fileAssignment = assignment;
        }
        if (!keyLine.inDocument || removedSections.contains(keyLine.section))
            continue;
        const QString key = fullKey(keyLine.section, keyLine.key);
        if (removedKeys.contains(key) && !added.contains(key)) {
            deleted[keyLine.line] = true;
            for (int continuation : keyLine.continuationLines)
                deleted[continuation] = true;
            continue;
        }
        const auto wantedValue = added.constFind(key);
        if (wantedValue == added.constEnd())
            continue;
        if (*wantedValue != keyLine.valueLines.join(QLatin1Char('\n'))) {
            const QString problem = valueProblem(*wantedValue);
            if (!problem.isEmpty()) {
                *why = QStringLiteral("%1: %2").arg(key, problem);
                return std::nullopt;
            }
            replacement.insert(keyLine.line, keyLines(keptPrefix(keyLine, text, *wantedValue),
                                                      text.left(leadingSpaceCount(text)), *wantedValue));
            for (int continuation : keyLine.continuationLines)
                deleted[continuation] = true;
        }
        added.remove(key);
    }
    if (fileAssignment.isEmpty())
        fileAssignment = QStringLiteral("=");

    QHash<QString, int> headerIndexOf;
    for (int h = 0; h < file.headers.size(); ++h)
        if (file.headers.at(h).inDocument)
            headerIndexOf.insert(file.headers.at(h).name, h);
    QHash<int, QList<QByteArray>> insertedAfter; // line index -> new lines after it
    QStringList newSectionOrder;
    QHash<QString, QList<QByteArray>> newSections;
    for (auto it = added.constBegin(); it != added.constEnd(); ++it) {
        // The section is the longest existing one the key starts with, else the text before the first '/'.
        QString section;
        for (auto h = headerIndexOf.constBegin(); h != headerIndexOf.constEnd(); ++h)
            if (it.key().startsWith(h.key() + QLatin1Char('/')) && h.key().size() > section.size())
                section = h.key();
        if (section.isEmpty()) {
            const qsizetype slash = it.key().indexOf(QLatin1Char('/'));
            if (slash < 0) {
                *why = QStringLiteral("the key %1 has no section").arg(it.key());
                return std::nullopt;
            }
            section = it.key().left(slash);
        }
        const QString key = it.key().mid(section.size() + 1);
        QString problem = sectionNameProblem(section);
        if (problem.isEmpty())
            problem = keyProblem(key);
        if (problem.isEmpty())
            problem = valueProblem(it.value());
        if (!problem.isEmpty()) {
            *why = QStringLiteral("%1: %2").arg(it.key(), problem);
            return std::nullopt;
        }
        const auto header = headerIndexOf.constFind(section);
        if (header != headerIndexOf.constEnd()) {
            const int anchor = lastLineOfHeader.value(*header, file.headers.at(*header).line);
            // As deep as configparser's indent level there, so that the new key neither continues the value
            // above nor turns the line below into a continuation of its own.
            const QString indent(file.indentLevels.at(anchor), QLatin1Char(' '));
            insertedAfter[anchor] += keyLines(indent + key + assignmentOfHeader.value(*header, fileAssignment),
                                              indent, it.value());
        } else {
            if (!newSections.contains(section)) {
                newSectionOrder.append(section);
                newSections[section].append((QLatin1Char('[') + section + QLatin1Char(']')).toUtf8());
            }
            newSections[section] += keyLines(key + fileAssignment, QString(), it.value());
        }
    }

    // The blocks, and what a removed section takes away.
    const int headerCount = int(file.headers.size());
    QList<int> blockStart(headerCount), blockEnd(headerCount);
    for (int h = 0; h < headerCount; ++h) {
        int start = file.headers.at(h).line;
        while (start > 0 && isComment(start - 1))
            --start;
        blockStart[h] = start;
    }
    for (int h = 0; h < headerCount; ++h) {
        int end = (h + 1 < headerCount ? blockStart.at(h + 1) : int(file.lines.size())) - 1;
        while (end > file.headers.at(h).line && isBlank(end))
            --end;
        blockEnd[h] = end;
    }
    for (int h = 0; h < headerCount; ++h) {
        if (!removedSections.contains(file.headers.at(h).name))
            continue;
        const int first = blockStart.at(h);
        const int last = lastLineOfHeader.value(h, file.headers.at(h).line);
        for (int line = first; line <= last; ++line)
            deleted[line] = true;
        const bool blankBefore = first == 0 || isBlank(first - 1);
        if (blankBefore && last + 1 < file.lines.size() && isBlank(last + 1))
            deleted[last + 1] = true;
    }

    // What goes where: the blocks that stay, in file order; then the sections put at the end; then other new ones.
    struct Piece
    {
        int header = -1;    // a block of the file
        QString newSection; // or a new section
    };
    QList<Piece> pieces;
    QSet<int> movedHeaders;
    QStringList expectedOrder; // the sections the result must read as, in order
    QSet<QString> placed;
    for (const QString &section : edit.sectionsAtEnd) {
        const auto header = headerIndexOf.constFind(section);
        if (header != headerIndexOf.constEnd() && !removedSections.contains(section))
            movedHeaders.insert(*header);
    }
    for (int h = 0; h < headerCount; ++h) {
        if (movedHeaders.contains(h))
            continue;
        pieces.append({h, QString()});
        const SectionHeader &header = file.headers.at(h);
        if (header.inDocument && !removedSections.contains(header.name))
            expectedOrder.append(header.name);
    }
    for (const QString &section : edit.sectionsAtEnd) {
        if (placed.contains(section))
            continue;
        placed.insert(section);
        const auto header = headerIndexOf.constFind(section);
        if (header != headerIndexOf.constEnd() && movedHeaders.contains(*header)) {
            pieces.append({*header, QString()});
            expectedOrder.append(section);
        } else if (newSections.contains(section)) {
            pieces.append({-1, section});
            expectedOrder.append(section);
        }
    }
    for (const QString &section : std::as_const(newSectionOrder))
        if (!placed.contains(section)) {
            pieces.append({-1, section});
            expectedOrder.append(section);
        }

    struct OutLine
    {
        QByteArray bytes;
        QByteArray eol;
    };
    QList<OutLine> out;
    bool separateNext = false; // a new section was just written: what follows starts after a blank line
    const auto lastIsBlank = [&out] { return out.isEmpty() || pythonStrip(QString::fromUtf8(out.constLast().bytes)).isEmpty(); };
    const auto push = [&](const QByteArray &bytes, const QByteArray &eol) {
        if (separateNext && !pythonStrip(QString::fromUtf8(bytes)).isEmpty())
            out.append({QByteArray(), defaultEol});
        separateNext = false;
        out.append({bytes, eol});
    };
    const auto emitLine = [&](int i) {
        const RawLine &line = file.lines.at(i);
        const auto replaced = replacement.constFind(i);
        if (replaced != replacement.constEnd()) {
            for (qsizetype j = 0; j < replaced->size(); ++j)
                push(replaced->at(j), j + 1 < replaced->size() ? defaultEol : line.eol);
        } else if (!deleted.at(i)) {
            push(line.bytes, line.eol);
        }
        for (const QByteArray &bytes : insertedAfter.value(i))
            push(bytes, defaultEol);
    };
    for (int i = 0; i < (headerCount > 0 ? blockStart.first() : int(file.lines.size())); ++i)
        emitLine(i);
    int position = 0; // blank lines stay by position: those after the position-th block of the file
    for (const Piece &piece : std::as_const(pieces)) {
        if (piece.header < 0) {
            if (!lastIsBlank())
                out.append({QByteArray(), defaultEol});
            for (const QByteArray &bytes : newSections.value(piece.newSection))
                out.append({bytes, defaultEol});
            separateNext = true;
            continue;
        }
        for (int i = blockStart.at(piece.header); i <= blockEnd.at(piece.header); ++i)
            emitLine(i);
        const int gapEnd = position + 1 < headerCount ? blockStart.at(position + 1) : int(file.lines.size());
        for (int i = blockEnd.at(position) + 1; i < gapEnd; ++i)
            emitLine(i);
        ++position;
    }

    QByteArray result = file.bom;
    for (int i = 0; i < out.size(); ++i) {
        result += out.at(i).bytes;
        // A last line without a line ending gets one when something now follows it.
        result += out.at(i).eol.isEmpty() && i + 1 < out.size() ? defaultEol : out.at(i).eol;
    }

    // The proof: the new file must read back as exactly the settings wanted, its sections in the order wanted.
    QMap<QString, QString> wanted;
    for (const IniDocument::Entry &entry : file.document.entries)
        if (!removedSections.contains(entry.section))
            wanted.insert(fullKey(entry.section, entry.key), entry.value);
    for (const QString &key : edit.removeKeys)
        wanted.remove(key);
    for (auto it = edit.setKeys.constBegin(); it != edit.setKeys.constEnd(); ++it)
        wanted.insert(it.key(), it.value());
    const ParsedFile check = parseFile(result);
    QMap<QString, QString> readBack;
    for (const IniDocument::Entry &entry : check.document.entries)
        readBack.insert(fullKey(entry.section, entry.key), entry.value);
    QStringList readOrder;
    for (const IniDocument::Section &section : check.document.sections)
        readOrder.append(section.name);
    if (!check.isText || readBack != wanted || readOrder != expectedOrder) {
        *why = QStringLiteral("the edited file would not read back as the settings");
        return std::nullopt;
    }
    return result;
}

bool writeIni(QIODevice &device, const QSettings::SettingsMap &map)
{
    const auto *target = qobject_cast<QFileDevice *>(&device);
    if (!target) {
        qCWarning(lcConfig) << "idlegpu's INI format writes files only";
        return false;
    }
    const QString path = target->fileName();
    const auto refuse = [&path](const QString &why) {
        qCWarning(lcConfig).noquote() << "not saving" << path + QLatin1Char(':') << why;
        return false;
    };

    QByteArray original;
    if (QFileInfo::exists(path)) {
        QString error;
        const std::optional<QByteArray> contents = readIniFile(path, &error);
        if (!contents)
            return refuse(error);
        original = *contents;
    }
    const ParsedFile file = parseFile(original);
    if (!file.isText)
        return refuse(QStringLiteral("it is not a text config file that idlegpu can edit"));

    QString why;
    const std::optional<QMap<QString, QString>> wanted = wantedSettings(map, &why);
    if (!wanted)
        return refuse(why);
    // QSettings hands over every key it keeps: the file's keys it lacks were removed.
    IniEdit edit;
    edit.setKeys = *wanted;
    for (const IniDocument::Entry &entry : file.document.entries)
        if (!wanted->contains(fullKey(entry.section, entry.key)))
            edit.removeKeys.append(fullKey(entry.section, entry.key));
    const std::optional<QByteArray> edited = editedFile(file, edit, &why);
    if (!edited)
        return refuse(why);
    return device.write(*edited) == edited->size();
}

bool readIni(QIODevice &device, QSettings::SettingsMap &map)
{
    const ParsedFile file = parseFile(device.read(IniDocument::maxFileSize + 1));
    if (!file.isText)
        return false;
    for (const IniDocument::Entry &entry : file.document.entries)
        map.insert(fullKey(entry.section, entry.key), entry.value);
    return true;
}

} // namespace

IniDocument IniDocument::parse(const QByteArray &contents)
{
    return parseFile(contents).document;
}

const IniDocument::Entry *IniDocument::find(const QString &section, const QString &key) const
{
    for (const Entry &entry : entries)
        if (entry.section == section && entry.key == key)
            return &entry;
    return nullptr;
}

int IniDocument::sectionLine(const QString &section) const
{
    for (const Section &s : sections)
        if (s.name == section)
            return s.line;
    return 0;
}

// The file is opened once for the user idlegpu runs as (every folder on the way is checked on the fd it was opened as,
// and a link is followed only in a trusted folder), without blocking (a FIFO is refused). Only a regular file of at
// most IniDocument::maxFileSize bytes is read, from that fd, and only when its status (inode, size, modification and
// change times) is the same after the read as before and its path still names it.
std::optional<QByteArray> readIniFile(const QString &path, QString *error, IniReadFailure *failure)
{
    const auto fail = [error, failure](IniReadFailure why, const QString &message) {
        if (error)
            *error = message;
        if (failure)
            *failure = why;
        return std::nullopt;
    };
    if (failure)
        *failure = IniReadFailure::None;
    const SecureFile::Opened opened = SecureFile::openTrustedFile(path, ::geteuid());
    if (!opened.ok())
        return fail(opened.untrusted ? IniReadFailure::Untrusted : IniReadFailure::Unreadable, opened.error);
    struct stat before = {};
    if (::fstat(opened.fd.get(), &before) != 0)
        return fail(IniReadFailure::Unreadable, errnoText(errno).toLower());
    if (before.st_size > IniDocument::maxFileSize)
        return fail(IniReadFailure::Unreadable, QStringLiteral("it is larger than 1 MiB: not a config file"));
    QString readError;
    const std::optional<QByteArray> contents =
        SecureFile::readAll(opened.fd.get(), IniDocument::maxFileSize, &readError);
    if (!contents) {
        // Grown past the limit while it was read: changed, or simply too large.
        struct stat grown = {};
        if (::fstat(opened.fd.get(), &grown) == 0 && grown.st_size != before.st_size)
            return fail(IniReadFailure::ChangedWhileRead, QStringLiteral("it changed while it was read"));
        return fail(IniReadFailure::Unreadable, before.st_size > IniDocument::maxFileSize
                                                    ? QStringLiteral("it is larger than 1 MiB: not a config file")
                                                    : readError);
    }
    // An editor that writes in place may be between two writes: what was read is then half a file. Nothing that
    // changed under the read is used; the writer's close (or rename) that follows brings the whole file.
    struct stat after = {};
    struct stat named = {};
    const auto same = [](const struct stat &a, const struct stat &b) {
        return a.st_dev == b.st_dev && a.st_ino == b.st_ino && a.st_size == b.st_size
               && a.st_mtim.tv_sec == b.st_mtim.tv_sec && a.st_mtim.tv_nsec == b.st_mtim.tv_nsec
               && a.st_ctim.tv_sec == b.st_ctim.tv_sec && a.st_ctim.tv_nsec == b.st_ctim.tv_nsec;
    };
    if (::fstat(opened.fd.get(), &after) != 0 || !same(before, after) || contents->size() != after.st_size
        || ::lstat(QFile::encodeName(opened.path).constData(), &named) != 0 || named.st_dev != after.st_dev
        || named.st_ino != after.st_ino)
        return fail(IniReadFailure::ChangedWhileRead, QStringLiteral("it changed while it was read"));
    return contents;
}

// A read gives every key that the document holds (the first of duplicates) with the values IniDocument gives;
// ConfigLoader reads IniDocument itself, which spares a second parse (config.cpp says why). Syntax problems are
// IniDocument's to report, and a write leaves their lines alone.
// A write reads the file on disk again and edits it in place (see IniEdit); a multi-line value gets its continuation
// lines indented by 4 spaces; a QStringList is written comma-separated. QSettings takes what it wrote for the file's
// contents, so a value must read back exactly as given. The write fails (QSettings::AccessError, a warning in
// idlegpu.config) for white space around a value or one of its lines, a continuation line starting with `;` or `#`, a
// key with `=` or `:`, a key without a section, two keys that differ only in case, or a file that is not text.
QSettings::Format idlegpuIniFormat()
{
    static const QSettings::Format format =
        QSettings::registerFormat(QStringLiteral("conf"), readIni, writeIni, Qt::CaseInsensitive);
    return format;
}

struct IniText::Parsed
{
    QByteArray contents;
    ParsedFile file;
};

IniText::IniText() : IniText(std::make_shared<const Parsed>(Parsed{QByteArray(), parseFile(QByteArray())})) {}

IniText::IniText(std::shared_ptr<const Parsed> parsed) : m_parsed(std::move(parsed)) {}

IniText IniText::parse(const QByteArray &contents)
{
    return IniText(std::make_shared<const Parsed>(Parsed{contents, parseFile(contents)}));
}

const QByteArray &IniText::contents() const
{
    return m_parsed->contents;
}

const IniDocument &IniText::document() const
{
    return m_parsed->file.document;
}

// IniEdit's rules, in full: a value is replaced where it stands (its continuation lines too), else added after the last
// key of its section, else written in a new section. A removed section's header goes with its keys, their continuation
// lines, the comments among them and the comment lines directly above the header; of two blank lines left around it,
// one goes too (QSettings cannot remove a section: removing a group's keys leaves its header, and an empty [process-*]
// is an error). A section in sectionsAtEnd moves with all its lines (setKeys and removeKeys applied where they stand)
// and the comment lines directly above its header; a new one is written there with its keys from setKeys. Every line
// that an edit does not touch stays byte for byte, so unchanged values give the same bytes back.
std::optional<QByteArray> IniText::edited(const IniEdit &edit, QString *error) const
{
    const auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return std::nullopt;
    };
    if (!m_parsed->file.isText)
        return fail(QStringLiteral("it is not a text config file that idlegpu can edit"));
    if (edit.isEmpty())
        return m_parsed->contents;
    QString why;
    std::optional<QByteArray> result = editedFile(m_parsed->file, edit, &why);
    if (!result)
        return fail(why);
    return result;
}

// The replace is SecureFile::replaceFileAt's, through a symbolic link to its target when the link's folder is trusted.
// It fails for a folder that other users can change or a full disk, among others, naming the file and the reason.
bool replaceIniFile(const QString &path, const QByteArray &contents, QString *error)
{
    const auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return false;
    };
    // The folder made for a first file (~/.config/idlegpu) is private from the start, as the file is.
    const QString folderPath = QFileInfo(path).absolutePath();
    if (!QFileInfo(folderPath).isDir()
        && (!QDir().mkpath(QFileInfo(folderPath).absolutePath())
            || (::mkdir(QFile::encodeName(folderPath).constData(), 0700) != 0 && errno != EEXIST)))
        return fail(QStringLiteral("cannot create the folder %1").arg(folderPath));
    // The file's final folder (through a link in a trusted folder, to its target), checked as ConfigLoader checks the
    // config's: nobody but root and this user can change it. The file is replaced there in one rename, which a
    // watcher sees whole; a failed write (a full disk) keeps the old file. A new config file is private from the
    // start (ConfigLoader refuses one that others can write); an existing one keeps its mode.
    QString name;
    const SecureFile::Opened folder = SecureFile::openTrustedFolderOf(path, ::geteuid(), &name);
    if (!folder.ok())
        return fail(QStringLiteral("cannot save %1: %2").arg(path, folder.error));
    QString why;
    if (!SecureFile::replaceFileAt(folder.fd.get(), name, contents, 0600, true, &why))
        return fail(QStringLiteral("%1: %2").arg(QDir(folder.path).filePath(name), why));
    return true;
}
