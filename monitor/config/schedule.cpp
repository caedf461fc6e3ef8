// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "config/schedule.h"

#include <QRegularExpression>
#include <QStringList>

namespace {

const QStringList dayNames{QStringLiteral("mon"), QStringLiteral("tue"), QStringLiteral("wed"), QStringLiteral("thu"),
                           QStringLiteral("fri"), QStringLiteral("sat"), QStringLiteral("sun")};
const QStringList fullDayNames{QStringLiteral("monday"),   QStringLiteral("tuesday"), QStringLiteral("wednesday"),
                               QStringLiteral("thursday"), QStringLiteral("friday"),  QStringLiteral("saturday"),
                               QStringLiteral("sunday")};

// "Mon" (any case) or "monday" -> 0; -1 when neither.
int dayIndex(const QString &word)
{
    const QString lower = word.toLower();
    const int index = dayNames.indexOf(lower);
    return index >= 0 ? index : fullDayNames.indexOf(lower);
}

// "Mon-Fri" or "Sat": a bit per day, wrapping ranges (Fri-Mon) included; 0 when not days.
int parseDays(const QString &text)
{
    const QStringList ends = text.split(QLatin1Char('-'));
    if (ends.size() == 1) {
        const int day = dayIndex(ends.first());
        return day < 0 ? 0 : 1 << day;
    }
    if (ends.size() != 2)
        return 0;
    const int first = dayIndex(ends.at(0)), last = dayIndex(ends.at(1));
    if (first < 0 || last < 0)
        return 0;
    int days = 0;
    for (int day = first;; day = (day + 1) % 7) {
        days |= 1 << day;
        if (day == last)
            break;
    }
    return days;
}

// "07:30" -> 450; "24:00" -> 1440 (only where allowed); -1 when not a time.
int parseMinute(const QString &text, bool allowEndOfDay)
{
    static const QRegularExpression pattern(QStringLiteral("^(\\d{1,2}):(\\d{2})$"));
    const QRegularExpressionMatch match = pattern.match(text);
    if (!match.hasMatch())
        return -1;
    const int hours = match.captured(1).toInt(), minutes = match.captured(2).toInt();
    if (allowEndOfDay && hours == 24 && minutes == 0)
        return WeekTime::kMinutesPerDay;
    if (hours > 23 || minutes > 59)
        return -1;
    return hours * 60 + minutes;
}

} // namespace

WeekTime WeekTime::of(const QDateTime &local)
{
    const QTime time = local.time();
    WeekTime week;
    week.minuteOfWeek = (local.date().dayOfWeek() - 1) * kMinutesPerDay + time.hour() * 60 + time.minute();
    week.msIntoMinute = time.second() * 1000 + time.msec();
    return week;
}

// The rules are comma-separated, each DAYS, HH:MM-HH:MM or DAYS HH:MM-HH:MM. Days are Mon..Sun, alone or as ranges
// (Fri-Mon wraps). A time range whose end is not after its start crosses midnight and belongs to the day it starts on;
// 24:00 ends a day.
std::optional<Schedule> Schedule::parse(const QString &text, QString *message)
{
    Schedule schedule;
    const QStringList parts = text.split(QLatin1Char(','));
    if (text.trimmed().isEmpty())
        return schedule;
    for (const QString &part : parts) {
        const QString rule = part.simplified();
        if (rule.isEmpty())
            continue;
        const QStringList words = rule.split(QLatin1Char(' '));
        ScheduleRule parsed;
        QString timeText;
        if (words.size() > 2) {
            *message = QStringLiteral("'%1' is not a rule: write DAYS, HH:MM-HH:MM or DAYS HH:MM-HH:MM").arg(rule);
            return std::nullopt;
        }
        if (words.size() == 2 || !words.first().contains(QLatin1Char(':'))) {
            parsed.days = parseDays(words.first());
            if (parsed.days == 0) {
                *message = QStringLiteral("'%1' in '%2' is not a day or a range of days (Mon..Sun, like Mon-Fri)")
                               .arg(words.first(), rule);
                return std::nullopt;
            }
            if (words.size() == 2)
                timeText = words.at(1);
        } else {
            timeText = words.first();
        }
        if (!timeText.isEmpty()) {
            const QStringList ends = timeText.split(QLatin1Char('-'));
            const int start = ends.size() == 2 ? parseMinute(ends.at(0), false) : -1;
            const int end = ends.size() == 2 ? parseMinute(ends.at(1), true) : -1;
            if (start < 0 || end < 0) {
                *message = QStringLiteral("'%1' in '%2' is not a time range HH:MM-HH:MM (00:00 to 24:00)")
                               .arg(timeText, rule);
                return std::nullopt;
            }
            if (start == end) {
                *message = QStringLiteral("'%1' in '%2' is empty: its start and end are the same").arg(timeText, rule);
                return std::nullopt;
            }
            parsed.startMinute = start;
            parsed.endMinute = end;
        }
        schedule.m_rules.append(parsed);
    }
    return schedule;
}

bool Schedule::allowsMinute(int minuteOfWeek) const
{
    const int day = minuteOfWeek / WeekTime::kMinutesPerDay;
    const int minute = minuteOfWeek % WeekTime::kMinutesPerDay;
    const int previousDay = (day + 6) % 7;
    for (const ScheduleRule &rule : m_rules) {
        if (rule.startMinute < rule.endMinute) {
            if ((rule.days & (1 << day)) && minute >= rule.startMinute && minute < rule.endMinute)
                return true;
        } else if (((rule.days & (1 << day)) && minute >= rule.startMinute)
                   || ((rule.days & (1 << previousDay)) && minute < rule.endMinute)) {
            return true;
        }
    }
    return false;
}

bool Schedule::allowsAt(WeekTime time) const
{
    return always() || allowsMinute(time.minuteOfWeek);
}

std::optional<qint64> Schedule::msUntilChange(WeekTime time) const
{
    if (always())
        return std::nullopt;
    // Answers change only at whole minutes: a week of them is 10080 cheap steps, and only while a schedule is set.
    const bool now = allowsMinute(time.minuteOfWeek);
    for (int ahead = 1; ahead <= WeekTime::kMinutesPerWeek; ++ahead)
        if (allowsMinute((time.minuteOfWeek + ahead) % WeekTime::kMinutesPerWeek) != now)
            return qint64(ahead) * 60'000 - time.msIntoMinute;
    return std::nullopt;
}

QString Schedule::toString() const
{
    const auto time = [](int minute) {
        return QStringLiteral("%1:%2").arg(minute / 60, 2, 10, QLatin1Char('0')).arg(minute % 60, 2, 10, QLatin1Char('0'));
    };
    QStringList parts;
    for (const ScheduleRule &rule : m_rules) {
        const bool allDay = rule.startMinute == 0 && rule.endMinute == WeekTime::kMinutesPerDay;
        const QString hours = allDay ? QString() : time(rule.startMinute) + QLatin1Char('-') + time(rule.endMinute);
        if (rule.days == 0x7f) {
            parts.append(allDay ? QStringLiteral("Mon-Sun") : hours);
            continue;
        }
        // One rule per run of consecutive days: a rule has one DAYS word.
        for (int day = 0; day < 7; ++day) {
            if (!(rule.days & (1 << day)) || (day > 0 && (rule.days & (1 << (day - 1)))))
                continue;
            int last = day;
            while (last + 1 < 7 && (rule.days & (1 << (last + 1))))
                ++last;
            QString days = dayNames.at(day);
            days[0] = days[0].toUpper();
            if (last > day) {
                QString end = dayNames.at(last);
                end[0] = end[0].toUpper();
                days += QLatin1Char('-') + end;
            }
            parts.append(hours.isEmpty() ? days : days + QLatin1Char(' ') + hours);
        }
    }
    return parts.join(QStringLiteral(", "));
}
