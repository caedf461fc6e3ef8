// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// Schedule: [schedule] run = RULES parsed, and which minutes of the week it allows, and when that changes next.
#include "config/schedule.h"

#include <QTest>

namespace {
// 2026-01-05 is a Monday.
QDateTime at(int dayOfJanuary, int hour, int minute, int second = 0)
{
    return QDateTime(QDate(2026, 1, dayOfJanuary), QTime(hour, minute, second));
}

Schedule parsed(const QString &text)
{
    QString message;
    const std::optional<Schedule> schedule = Schedule::parse(text, &message);
    if (!schedule)
        qFatal("bad schedule in a test: %s", qPrintable(message));
    return *schedule;
}
} // namespace

class TestSchedule : public QObject
{
    Q_OBJECT

private slots:
    void weekTime();
    void allows_data();
    void allows();
    void untilChange_data();
    void untilChange();
    void rejects_data();
    void rejects();
    void writesWhatItReads_data();
    void writesWhatItReads();
};

void TestSchedule::weekTime()
{
    QCOMPARE(WeekTime::of(at(5, 0, 0)).minuteOfWeek, 0);            // Monday 00:00
    QCOMPARE(WeekTime::of(at(11, 23, 59)).minuteOfWeek, 10079);     // Sunday 23:59
    QCOMPARE(WeekTime::of(at(7, 1, 2, 3)).minuteOfWeek, 2 * 1440 + 62);
    QCOMPARE(WeekTime::of(at(7, 1, 2, 3)).msIntoMinute, 3000);
}

void TestSchedule::allows_data()
{
    QTest::addColumn<QString>("rules");
    QTest::addColumn<QDateTime>("when");
    QTest::addColumn<bool>("allowed");
    QTest::newRow("empty: always") << QString() << at(6, 3, 0) << true;
    QTest::newRow("spaces: always") << QStringLiteral("  ") << at(6, 3, 0) << true;
    QTest::newRow("a day: in") << QStringLiteral("Sat") << at(10, 0, 0) << true;
    QTest::newRow("a day: before") << QStringLiteral("Sat") << at(9, 23, 59) << false;
    QTest::newRow("full day name") << QStringLiteral("saturday") << at(10, 12, 0) << true;
    QTest::newRow("time: at the start") << QStringLiteral("08:00-17:00") << at(6, 8, 0) << true;
    QTest::newRow("time: the end is out") << QStringLiteral("08:00-17:00") << at(6, 17, 0) << false;
    QTest::newRow("to 24:00") << QStringLiteral("20:00-24:00") << at(6, 23, 59) << true;
    QTest::newRow("to 24:00, midnight out") << QStringLiteral("20:00-24:00") << at(7, 0, 0) << false;
    QTest::newRow("night: evening") << QStringLiteral("22:00-07:00") << at(6, 23, 0) << true;
    QTest::newRow("night: morning") << QStringLiteral("22:00-07:00") << at(6, 6, 59) << true;
    QTest::newRow("night: day") << QStringLiteral("22:00-07:00") << at(6, 12, 0) << false;
    QTest::newRow("weekday nights: Friday night runs into Saturday")
        << QStringLiteral("Mon-Fri 22:00-07:00") << at(10, 6, 0) << true;
    QTest::newRow("weekday nights: not Monday morning (Sunday night is not listed)")
        << QStringLiteral("Mon-Fri 22:00-07:00") << at(5, 6, 0) << false;
    QTest::newRow("wrapping day range Fri-Mon: Sunday") << QStringLiteral("Fri-Mon") << at(11, 12, 0) << true;
    QTest::newRow("wrapping day range Fri-Mon: Wednesday") << QStringLiteral("Fri-Mon") << at(7, 12, 0) << false;
    QTest::newRow("several rules: second matches")
        << QStringLiteral("Mon-Fri 18:00-08:00, Sat, Sun") << at(11, 10, 0) << true;
    QTest::newRow("several rules: workday office hours")
        << QStringLiteral("Mon-Fri 18:00-08:00, Sat, Sun") << at(7, 10, 0) << false;
    QTest::newRow("case and spaces") << QStringLiteral("  mon-FRI   09:00-10:00 ,") << at(9, 9, 30) << true;
}

void TestSchedule::allows()
{
    QFETCH(QString, rules);
    QFETCH(QDateTime, when);
    QFETCH(bool, allowed);
    QCOMPARE(parsed(rules).allowsAt(WeekTime::of(when)), allowed);
}

void TestSchedule::untilChange_data()
{
    QTest::addColumn<QString>("rules");
    QTest::addColumn<QDateTime>("when");
    QTest::addColumn<QDateTime>("changesAt"); // invalid: never
    QTest::newRow("always: never") << QString() << at(6, 3, 0) << QDateTime();
    QTest::newRow("every day all day: never") << QStringLiteral("Mon-Sun") << at(6, 3, 0) << QDateTime();
    QTest::newRow("office hours: ends at 17:00") << QStringLiteral("08:00-17:00") << at(6, 9, 15, 30) << at(6, 17, 0);
    QTest::newRow("office hours: next morning") << QStringLiteral("08:00-17:00") << at(6, 18, 0) << at(7, 8, 0);
    QTest::newRow("weekend: from Monday to Saturday") << QStringLiteral("Sat,Sun") << at(5, 10, 0) << at(10, 0, 0);
    QTest::newRow("weekend: ends Monday 00:00") << QStringLiteral("Sat,Sun") << at(10, 10, 0) << at(12, 0, 0);
    // Friday night runs into the weekend; Monday 00:00-08:00 would need Sunday's night (Sun 18:00-08:00).
    QTest::newRow("nights joined to the weekend")
        << QStringLiteral("Mon-Fri 18:00-08:00, Sat, Sun") << at(9, 19, 0) << at(12, 0, 0);
    QTest::newRow("every night and the weekend")
        << QStringLiteral("18:00-08:00, Sat, Sun") << at(9, 19, 0) << at(12, 8, 0);
}

void TestSchedule::untilChange()
{
    QFETCH(QString, rules);
    QFETCH(QDateTime, when);
    QFETCH(QDateTime, changesAt);
    const std::optional<qint64> ms = parsed(rules).msUntilChange(WeekTime::of(when));
    QCOMPARE(ms.has_value(), changesAt.isValid());
    if (ms)
        QCOMPARE(when.addMSecs(*ms), changesAt);
}

void TestSchedule::rejects_data()
{
    QTest::addColumn<QString>("rules");
    QTest::addColumn<QString>("message");
    QTest::newRow("unknown day") << QStringLiteral("Mo") << QStringLiteral("'Mo' in 'Mo' is not a day or a range of days (Mon..Sun, like Mon-Fri)");
    QTest::newRow("three days") << QStringLiteral("Mon-Wed-Fri") << QStringLiteral("'Mon-Wed-Fri' in 'Mon-Wed-Fri' is not a day or a range of days (Mon..Sun, like Mon-Fri)");
    QTest::newRow("no end") << QStringLiteral("08:00") << QStringLiteral("'08:00' in '08:00' is not a time range HH:MM-HH:MM (00:00 to 24:00)");
    QTest::newRow("24:00 as a start") << QStringLiteral("24:00-08:00") << QStringLiteral("'24:00-08:00' in '24:00-08:00' is not a time range HH:MM-HH:MM (00:00 to 24:00)");
    QTest::newRow("minutes 60") << QStringLiteral("08:60-09:00") << QStringLiteral("'08:60-09:00' in '08:60-09:00' is not a time range HH:MM-HH:MM (00:00 to 24:00)");
    QTest::newRow("days after time") << QStringLiteral("08:00-09:00 Mon") << QStringLiteral("'08:00-09:00' in '08:00-09:00 Mon' is not a day or a range of days (Mon..Sun, like Mon-Fri)");
}

void TestSchedule::rejects()
{
    QFETCH(QString, rules);
    QFETCH(QString, message);
    QString got;
    QVERIFY(!Schedule::parse(rules, &got));
    QCOMPARE(got, message);
}

void TestSchedule::writesWhatItReads_data()
{
    QTest::addColumn<QString>("rules");
    QTest::addColumn<QString>("written");
    QTest::newRow("always") << QString() << QString();
    QTest::newRow("every day") << QStringLiteral("Mon-Sun") << QStringLiteral("Mon-Sun");
    QTest::newRow("times every day") << QStringLiteral("22:00-07:00") << QStringLiteral("22:00-07:00");
    QTest::newRow("nights and weekends") << QStringLiteral("mon-fri 18:00-08:00,sat,  Sunday")
                                         << QStringLiteral("Mon-Fri 18:00-08:00, Sat, Sun");
    QTest::newRow("a wrapping range splits") << QStringLiteral("Fri-Mon 20:00-24:00")
                                             << QStringLiteral("Mon 20:00-24:00, Fri-Sun 20:00-24:00");
}

// toString() gives rules that parse() reads back as the same schedule.
void TestSchedule::writesWhatItReads()
{
    QFETCH(QString, rules);
    QFETCH(QString, written);
    const Schedule schedule = parsed(rules);
    QCOMPARE(schedule.toString(), written);
    const Schedule reread = parsed(written);
    for (int minute = 0; minute < WeekTime::kMinutesPerWeek; minute += 15)
        QCOMPARE(reread.allowsAt({minute, 0}), schedule.allowsAt({minute, 0}));
}

QTEST_GUILESS_MAIN(TestSchedule)
#include "tst_schedule.moc"
