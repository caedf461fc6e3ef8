// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "config/configranges.h"

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
