// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The times when workloads may run, from [schedule] run = RULES ("Mon-Fri 18:00-08:00, Sat, Sun"). The rules are
// evaluated on minutes of the local week, so a decision costs no time-zone arithmetic.
#include <QDateTime>
#include <QList>
#include <QString>

#include <optional>

// A moment of the local week: Monday 00:00 is minute 0.
struct WeekTime
{
    static constexpr int kMinutesPerDay = 24 * 60;
    static constexpr int kMinutesPerWeek = 7 * kMinutesPerDay;
    int minuteOfWeek = 0;  // 0 .. kMinutesPerWeek - 1
    int msIntoMinute = 0;  // 0 .. 59999

    static WeekTime of(const QDateTime &local);
};

// One rule of a schedule: a set of days and a time range on each of them.
struct ScheduleRule
{
    int days = 0x7f;        // bit 0 Monday .. bit 6 Sunday
    int startMinute = 0;    // of the day, 0 .. 1439
    int endMinute = WeekTime::kMinutesPerDay; // 1 .. 1440; if not after startMinute, it ends the next day
    bool operator==(const ScheduleRule &) const = default;
};

// A parsed [schedule] run= value; a schedule without rules allows every moment.
class Schedule
{
public:
    // Parses `text`; empty text or white space means always. Returns nullopt and sets *message, naming the rule that
    // is wrong, on an error.
    static std::optional<Schedule> parse(const QString &text, QString *message);

    bool always() const { return m_rules.isEmpty(); }
    bool allowsAt(WeekTime time) const;
    // Returns the milliseconds from `time` to the next moment at which allowsAt() answers otherwise; nullopt when it
    // never does.
    std::optional<qint64> msUntilChange(WeekTime time) const;
    const QList<ScheduleRule> &rules() const { return m_rules; }
    // Returns the rules as parse() reads them back ("Mon-Fri 18:00-08:00, Sat-Sun"); empty for always.
    QString toString() const;
    bool operator==(const Schedule &) const = default;

private:
    bool allowsMinute(int minuteOfWeek) const;
    QList<ScheduleRule> m_rules;
};
