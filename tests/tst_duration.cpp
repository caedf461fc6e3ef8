// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// parseDuration() reads what people type after `idlegpu --pause --for`, and says what is wrong with anything else,
// naming the value.
#include "base/duration.h"

#include <QtTest>

class TestDuration : public QObject
{
    Q_OBJECT

private slots:
    void parses_data()
    {
        QTest::addColumn<QString>("text");
        QTest::addColumn<qint64>("seconds"); // -1: refused
        QTest::addColumn<QString>("why");    // part of the message when refused

        QTest::newRow("seconds") << "90s" << qint64(90) << QString();
        QTest::newRow("minutes") << "30m" << qint64(1800) << QString();
        QTest::newRow("an hour") << "1h" << qint64(3600) << QString();
        QTest::newRow("hours and minutes") << "2h30m" << qint64(9000) << QString();
        QTest::newRow("a day") << "1d" << qint64(86'400) << QString();
        QTest::newRow("every unit") << "1d2h3m4s" << qint64(93'784) << QString();
        QTest::newRow("a skipped unit") << "1d30m" << qint64(88'200) << QString();
        QTest::newRow("upper case") << "2H30M" << qint64(9000) << QString();
        QTest::newRow("a zero part") << "1h0m" << qint64(3600) << QString();
        QTest::newRow("leading zeros") << "007m" << qint64(420) << QString();
        QTest::newRow("more than the unit") << "90m" << qint64(5400) << QString();
        QTest::newRow("thirty days") << "30d" << qint64(2'592'000) << QString();

        QTest::newRow("empty") << "" << qint64(-1) << "it is empty";
        QTest::newRow("a bare number") << "90" << qint64(-1) << "90 has no unit";
        QTest::newRow("a trailing number") << "1h30" << qint64(-1) << "30 has no unit";
        QTest::newRow("an unknown unit") << "3w" << qint64(-1) << "\"w\" is not a unit";
        QTest::newRow("a word") << "hour" << qint64(-1) << "each part is a number and a unit";
        QTest::newRow("a unit alone") << "h" << qint64(-1) << "each part is a number and a unit";
        QTest::newRow("a sign") << "-1h" << qint64(-1) << "each part is a number and a unit";
        QTest::newRow("a fraction") << "1.5h" << qint64(-1) << "\".\" is not a unit";
        QTest::newRow("a space") << "2h 30m" << qint64(-1) << "each part is a number and a unit";
        QTest::newRow("units out of order") << "30m2h" << qint64(-1) << "largest first";
        QTest::newRow("a unit twice") << "1h1h" << qint64(-1) << "largest first";
        QTest::newRow("nothing") << "0s" << qint64(-1) << "no time at all";
        QTest::newRow("zeros") << "0h0m" << qint64(-1) << "no time at all";
        QTest::newRow("a century") << "36600d1s" << qint64(-1) << "longer than 100 years";
        QTest::newRow("digits without end") << "99999999999999999999999s" << qint64(-1) << "longer than 100 years";
    }
    void parses()
    {
        QFETCH(QString, text);
        QFETCH(qint64, seconds);
        QFETCH(QString, why);
        QString error = QStringLiteral("untouched");
        const std::optional<qint64> parsed = parseDuration(text, &error);
        if (seconds >= 0) {
            QVERIFY2(parsed, qPrintable(error));
            QCOMPARE(*parsed, seconds);
            QCOMPARE(error, QStringLiteral("untouched"));
            QCOMPARE(parseDuration(formatDuration(*parsed), nullptr), parsed); // the form it prints reads back
        } else {
            QVERIFY2(!parsed, qPrintable(QString::number(parsed.value_or(0))));
            QVERIFY2(error.startsWith(QStringLiteral("\"%1\" is not a duration: ").arg(text)), qPrintable(error));
            QVERIFY2(error.contains(why), qPrintable(error));
            QVERIFY2(error.contains(QStringLiteral("2h30m")), qPrintable(error)); // and how to write one
        }
    }

    void formats_data()
    {
        QTest::addColumn<qint64>("seconds");
        QTest::addColumn<QString>("text");
        QTest::newRow("zero") << qint64(0) << "0s";
        QTest::newRow("seconds") << qint64(59) << "59s";
        QTest::newRow("a minute and a half") << qint64(90) << "1m30s";
        QTest::newRow("hours and minutes") << qint64(9000) << "2h30m";
        QTest::newRow("a day") << qint64(86'400) << "1d";
        QTest::newRow("every unit") << qint64(93'784) << "1d2h3m4s";
    }
    void formats()
    {
        QFETCH(qint64, seconds);
        QFETCH(QString, text);
        QCOMPARE(formatDuration(seconds), text);
    }
};

QTEST_APPLESS_MAIN(TestDuration)
#include "tst_duration.moc"
