// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "config/commandsplit.h"

#include <QRegularExpression>

namespace {

bool isWordSeparator(QChar c)
{
    // The <blank> characters and newline of the shell grammar; a newline in a multi-line cmd= value
    // separates words like a space (idlegpu runs one command, never a list of commands).
    return c == QLatin1Char(' ') || c == QLatin1Char('\t') || c == QLatin1Char('\n');
}

} // namespace

std::optional<QStringList> splitCommand(const QString &command, QString *error)
{
    QStringList words;
    QString word;
    bool inWord = false; // true once the current word has begun, even if it is empty so far ('' is a word)
    const qsizetype length = command.size();

    for (qsizetype i = 0; i < length; ++i) {
        const QChar c = command.at(i);
        if (isWordSeparator(c)) {
            if (inWord)
                words.append(word);
            word.clear();
            inWord = false;
        } else if (c == QLatin1Char('#') && !inWord) {
            // A comment, as in the shell: up to the end of the line.
            while (i + 1 < length && command.at(i + 1) != QLatin1Char('\n'))
                ++i;
        } else if (c == QLatin1Char('\\')) {
            if (i + 1 >= length) {
                if (error)
                    *error = QStringLiteral("trailing backslash at column %1: nothing follows it to escape").arg(i + 1);
                return std::nullopt;
            }
            ++i;
            if (command.at(i) != QLatin1Char('\n')) { // backslash-newline joins lines
                word.append(command.at(i));
                inWord = true;
            }
        } else if (c == QLatin1Char('\'')) {
            const qsizetype close = command.indexOf(QLatin1Char('\''), i + 1);
            if (close < 0) {
                if (error)
                    *error = QStringLiteral("unterminated single quote: the ' at column %1 is never closed").arg(i + 1);
                return std::nullopt;
            }
            word.append(QStringView(command).mid(i + 1, close - i - 1));
            inWord = true;
            i = close;
        } else if (c == QLatin1Char('"')) {
            const qsizetype open = i;
            bool closed = false;
            for (++i; i < length; ++i) {
                const QChar d = command.at(i);
                if (d == QLatin1Char('"')) {
                    closed = true;
                    break;
                }
                if (d == QLatin1Char('\\') && i + 1 < length) {
                    const QChar next = command.at(i + 1);
                    if (next == QLatin1Char('\n')) {
                        ++i;
                        continue;
                    }
                    if (next == QLatin1Char('$') || next == QLatin1Char('`') || next == QLatin1Char('"')
                        || next == QLatin1Char('\\')) {
                        word.append(next);
                        ++i;
                        continue;
                    }
                }
                word.append(d);
            }
            if (!closed) {
                if (error)
                    *error = QStringLiteral("unterminated double quote: the \" at column %1 is never closed")
                                 .arg(open + 1);
                return std::nullopt;
            }
            inWord = true;
        } else {
            word.append(c);
            inWord = true;
        }
    }
    if (inWord)
        words.append(word);
    return words;
}

std::optional<QList<QPair<QString, QString>>> parseEnvAssignments(const QString &text, QString *error)
{
    const std::optional<QStringList> words = splitCommand(text, error);
    if (!words)
        return std::nullopt;

    static const QRegularExpression variableName(QStringLiteral("\\A[A-Za-z_][A-Za-z0-9_]*\\z"));
    QList<QPair<QString, QString>> assignments;
    for (const QString &word : *words) {
        const qsizetype equals = word.indexOf(QLatin1Char('='));
        if (equals < 0) {
            if (error)
                *error = QStringLiteral("'%1' is not of the form KEY=VALUE").arg(word);
            return std::nullopt;
        }
        const QString key = word.left(equals);
        if (!variableName.match(key).hasMatch()) {
            if (error)
                *error = QStringLiteral("'%1' is not a valid variable name (letters, digits and _, not starting "
                                        "with a digit)")
                             .arg(key);
            return std::nullopt;
        }
        assignments.append({key, word.mid(equals + 1)});
    }
    return assignments;
}
