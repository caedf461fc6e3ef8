// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "duration.h"

#include <QCoreApplication>

namespace {

struct Unit
{
    char letter;
    qint64 seconds;
};
constexpr Unit kUnits[] = {{'d', 86'400}, {'h', 3'600}, {'m', 60}, {'s', 1}};

// Far beyond any pause, far below qint64's end: no sum of parts below it can overflow.
constexpr qint64 kMaxSeconds = 100ll * 366 * 86'400;

QString explained(const QString &text, const QString &why)
{
    return QCoreApplication::translate("idlegpu", "\"%1\" is not a duration: %2 (write it as 90s, 30m, 1h, 2h30m or "
                                                  "1d).")
        .arg(text, why);
}

} // namespace

std::optional<qint64> parseDuration(const QString &text, QString *error)
{
    const auto fail = [&](const QString &why) -> std::optional<qint64> {
        if (error)
            *error = explained(text, why);
        return std::nullopt;
    };
    if (text.isEmpty())
        return fail(QCoreApplication::translate("idlegpu", "it is empty"));
    qint64 total = 0;
    int nextUnit = 0; // the units left, largest first: a part's unit must come at or after this one
    qsizetype at = 0;
    while (at < text.size()) {
        const qsizetype digitsStart = at;
        qint64 number = 0;
        while (at < text.size() && text.at(at) >= QLatin1Char('0') && text.at(at) <= QLatin1Char('9')) {
            number = number * 10 + (text.at(at).unicode() - '0');
            if (number > kMaxSeconds)
                return fail(QCoreApplication::translate("idlegpu", "it is longer than 100 years"));
            ++at;
        }
        if (at == digitsStart)
            return fail(QCoreApplication::translate("idlegpu", "each part is a number and a unit"));
        if (at == text.size())
            return fail(
                QCoreApplication::translate("idlegpu", "%1 has no unit (d, h, m or s)").arg(text.mid(digitsStart)));
        const QChar letter = text.at(at).toLower();
        int unit = 0;
        while (unit < int(std::size(kUnits)) && letter != QLatin1Char(kUnits[unit].letter))
            ++unit;
        if (unit == int(std::size(kUnits)))
            return fail(QCoreApplication::translate("idlegpu", "\"%1\" is not a unit (d, h, m or s)").arg(text.at(at)));
        if (unit < nextUnit)
            return fail(QCoreApplication::translate("idlegpu", "the units go largest first, each once"));
        nextUnit = unit + 1;
        ++at;
        total += number * kUnits[unit].seconds;
        if (total > kMaxSeconds)
            return fail(QCoreApplication::translate("idlegpu", "it is longer than 100 years"));
    }
    if (total == 0)
        return fail(QCoreApplication::translate("idlegpu", "it is no time at all"));
    return total;
}

QString formatDuration(qint64 seconds)
{
    if (seconds <= 0)
        return QStringLiteral("0s");
    QString text;
    for (const Unit &unit : kUnits) {
        if (seconds >= unit.seconds) {
            text += QString::number(seconds / unit.seconds) + QLatin1Char(unit.letter);
            seconds %= unit.seconds;
        }
    }
    return text;
}
