// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "base/printablename.h"

#include <QList>

#include <algorithm>

namespace {

// Besides C0, DEL and C1 (a terminal takes U+009B for ESC [): format characters (bidi overrides, zero-width ones)
// and the line and paragraph separators, which reorder or break what a reader sees.
bool needsEscape(char32_t c)
{
    if (c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0) || c == '\\')
        return true;
    switch (QChar::category(c)) {
    case QChar::Other_Format:
    case QChar::Separator_Line:
    case QChar::Separator_Paragraph:
        return true;
    default:
        return false;
    }
}

} // namespace

// Control characters become visible escapes ("\n", "\t", "\x1b", and "\u202e" for a format character such as a bidi
// override) and a backslash becomes "\\", so a name cannot forge a line or a colour and each escape reads one way only.
// An ordinary name comes back unchanged; the names are a process's comm, exe or argv[0], a login, a Slurm job name.
QString printableName(const QString &name)
{
    const QList<uint> characters = name.toUcs4();
    if (std::none_of(characters.cbegin(), characters.cend(), [](uint c) { return needsEscape(c); }))
        return name;
    QString text;
    text.reserve(name.size() + 8);
    for (const uint c : characters) {
        if (!needsEscape(c)) {
            text.append(QString::fromUcs4(reinterpret_cast<const char32_t *>(&c), 1));
            continue;
        }
        switch (c) {
        case '\\': text.append(QLatin1String("\\\\")); break;
        case '\n': text.append(QLatin1String("\\n")); break;
        case '\r': text.append(QLatin1String("\\r")); break;
        case '\t': text.append(QLatin1String("\\t")); break;
        default:
            if (c < 0x100)
                text.append(QStringLiteral("\\x%1").arg(c, 2, 16, QLatin1Char('0')));
            else
                text.append(QStringLiteral("\\u%1").arg(c, 4, 16, QLatin1Char('0')));
        }
    }
    return text;
}

bool isPrintableName(const QString &name)
{
    const QList<uint> characters = name.toUcs4();
    return std::none_of(characters.cbegin(), characters.cend(), [](uint c) { return c != '\\' && needsEscape(c); });
}
