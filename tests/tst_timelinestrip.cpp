// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// TimelineStrip: where the ledger's 24-hour segments lie on the strip, its clock marks, what its tooltip says.
#include "status/timelinestrip.h"

#include <QtTest>

namespace {
const QDateTime kWallNow(QDate(2026, 11, 5), QTime(14, 20), Qt::UTC);
const qint64 kNowMs = kWallNow.toMSecsSinceEpoch();
constexpr qint64 kHour = 3'600'000;
} // namespace

class TestTimelineStrip : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void barsAreClippedToTheSpan();
    void ticksOnTheHoursDivisibleBySix();
    void tooltipSaysTheShares();
};

void TestTimelineStrip::barsAreClippedToTheSpan()
{
    const qint64 start = kNowMs - 24 * kHour;
    const QList<ActivitySegment> segments = {
        {start - 2 * kHour, start - kHour, GpuActivity::Idle},        // before the span: left out
        {start - kHour, start + 6 * kHour, GpuActivity::Workload},    // begins before: clipped
        {start + 12 * kHour, start + 18 * kHour, GpuActivity::ForeignUse},
        {kNowMs - kHour, kNowMs + kHour, GpuActivity::Workload},      // beyond now: clipped
    };
    const QList<TimelineStrip::Bar> bars = TimelineStrip::bars(segments, start, kNowMs, 480);
    QCOMPARE(bars.size(), 3);
    QCOMPARE(bars.at(0).fromX, 0.0);
    QCOMPARE(bars.at(0).toX, 120.0);
    QCOMPARE(bars.at(0).activity, GpuActivity::Workload);
    QCOMPARE(bars.at(1).fromX, 240.0);
    QCOMPARE(bars.at(1).toX, 360.0);
    QCOMPARE(bars.at(1).activity, GpuActivity::ForeignUse);
    QCOMPARE(bars.at(2).fromX, 460.0);
    QCOMPARE(bars.at(2).toX, 480.0);
    QVERIFY(TimelineStrip::bars(segments, kNowMs, kNowMs, 480).isEmpty());
}

void TestTimelineStrip::ticksOnTheHoursDivisibleBySix()
{
    const QList<qint64> ticks = TimelineStrip::ticks(kNowMs - 24 * kHour, kNowMs, 6, kWallNow);
    QStringList times;
    for (qint64 tick : ticks)
        times.append(QDateTime::fromMSecsSinceEpoch(tick, Qt::UTC).toString(QStringLiteral("dd HH:mm")));
    QCOMPARE(times, QStringList({"04 18:00", "05 00:00", "05 06:00", "05 12:00"}));
}

void TestTimelineStrip::tooltipSaysTheShares()
{
    TimelineStrip strip;
    strip.setTimeline({}, kWallNow);
    QCOMPARE(strip.toolTip(), QStringLiteral("The last 24 hours: nothing recorded yet"));
    strip.setTimeline({{kNowMs - 2 * kHour, kNowMs - kHour, GpuActivity::Workload},
                       {kNowMs - kHour, kNowMs, GpuActivity::ForeignUse}},
                      kWallNow);
    QCOMPARE(strip.toolTip(), QStringLiteral("The last 24 hours: workload 1 h 00 min, your jobs 1 h 00 min"));
    QCOMPARE(strip.segments().size(), 2);
    strip.resize(480, strip.sizeHint().height());
    QVERIFY(!strip.grab().isNull()); // paints without trouble
}

QTEST_MAIN(TestTimelineStrip)
#include "tst_timelinestrip.moc"
