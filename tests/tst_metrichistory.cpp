// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// MetricHistory: the last hour of a GPU's backend metrics, lines broken at gaps, the axes' tops.
#include "status/metrichistory.h"

#include <QtTest>

namespace {
constexpr qint64 kGiB = 1024LL * 1024 * 1024;

GpuInfo sample(std::optional<int> utilization, std::optional<int> powerMilliwatts = std::nullopt)
{
    GpuInfo info;
    info.index = 0;
    info.utilizationPercent = utilization;
    info.powerMilliwatts = powerMilliwatts;
    return info;
}
} // namespace

class TestMetricHistory : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void keepsTheLastHour();
    void sameSampleOnce();
    void onlyGivenMetrics();
    void linesBreakAtGapsAndMissingValues();
    void unitsAndAxes();
    void capacityBoundsMemory();
};

void TestMetricHistory::keepsTheLastHour()
{
    MetricHistory history;
    for (qint64 at = 0; at <= 2 * 3'600'000; at += 60'000)
        history.record(sample(int(at / 60'000 % 100)), at);
    QCOMPARE(history.sampleCount(), 61); // the hour before the last sample, both ends
    const QList<MetricHistory::Line> lines = history.lines(GpuMetric::Utilization, 2 * 3'600'000);
    QCOMPARE(lines.size(), 1);
    QCOMPARE(lines.first().first().atMs, 3'600'000);
    QCOMPARE(lines.first().last().atMs, 7'200'000);
    QCOMPARE(lines.first().last().value, 20.0); // minute 120
    QCOMPARE(history.latest(GpuMetric::Utilization, 7'200'000), std::optional<double>(20));
    // An hour after the last sample nothing is left to draw.
    QVERIFY(history.lines(GpuMetric::Utilization, 3 * 3'600'000 + 1).isEmpty());
    QVERIFY(!history.has(GpuMetric::Utilization, 3 * 3'600'000 + 1));
    QVERIFY(!history.latest(GpuMetric::Utilization, 3 * 3'600'000 + 1));
}

// The window hands on the same GpuMetrics at every state update (every second): it counts once.
void TestMetricHistory::sameSampleOnce()
{
    MetricHistory history;
    history.record(sample(10), 2000);
    history.record(sample(10), 2000);
    history.record(sample(99), 1000); // older: not a new sample
    QCOMPARE(history.sampleCount(), 1);
    history.record(sample(30), 4000);
    QCOMPARE(history.sampleCount(), 2);
}

void TestMetricHistory::onlyGivenMetrics()
{
    MetricHistory history;
    history.record(sample(37), 1000);
    QVERIFY(history.has(GpuMetric::Utilization, 1000));
    QVERIFY(!history.has(GpuMetric::Memory, 1000));
    QVERIFY(!history.has(GpuMetric::Temperature, 1000));
    QVERIFY(!history.has(GpuMetric::Power, 1000));

    // A backend that gives nothing for this GPU leaves no history at all.
    MetricHistory none;
    none.record(GpuInfo(), 1000);
    QCOMPARE(none.sampleCount(), 0);
    for (GpuMetric metric : MetricHistory::allMetrics())
        QVERIFY(!none.has(metric, 1000));
}

void TestMetricHistory::linesBreakAtGapsAndMissingValues()
{
    MetricHistory history;
    history.record(sample(10, 100'000), 0);
    history.record(sample(20, 110'000), 2000);
    history.record(sample(30), 4000); // no power this time
    history.record(sample(40, 130'000), 6000);
    history.record(sample(50, 140'000), 6000 + MetricHistory::kMaxGapMs + 1); // the machine slept
    const QList<MetricHistory::Line> utilization = history.lines(GpuMetric::Utilization, 400'000);
    QCOMPARE(utilization.size(), 2);
    QCOMPARE(utilization.at(0).size(), 4);
    QCOMPARE(utilization.at(1).size(), 1);
    const QList<MetricHistory::Line> power = history.lines(GpuMetric::Power, 400'000);
    QCOMPARE(power.size(), 3);
    QCOMPARE(power.at(0).size(), 2);
    QCOMPARE(power.at(0).at(1).value, 110.0); // watts
    QCOMPARE(power.at(1).size(), 1);
    QCOMPARE(history.latest(GpuMetric::Power, 400'000), std::optional<double>(140));
}

void TestMetricHistory::unitsAndAxes()
{
    GpuInfo info;
    info.utilizationPercent = 37;
    info.memoryUsedBytes = 12 * kGiB;
    info.memoryTotalBytes = 140 * kGiB;
    info.temperatureCelsius = 54;
    info.powerMilliwatts = 231'000;
    MetricHistory history;
    history.record(info, 1000);
    QCOMPARE(history.latest(GpuMetric::Memory, 1000), std::optional<double>(12));
    QCOMPARE(history.latest(GpuMetric::Temperature, 1000), std::optional<double>(54));
    QCOMPARE(history.latest(GpuMetric::Power, 1000), std::optional<double>(231));
    QCOMPARE(history.axisMax(GpuMetric::Utilization, 1000), 100.0);
    QCOMPARE(history.axisMax(GpuMetric::Memory, 1000), 140.0); // the GPU's memory
    QCOMPARE(history.axisMax(GpuMetric::Temperature, 1000), 100.0);
    QCOMPARE(history.axisMax(GpuMetric::Power, 1000), 250.0); // the peak, rounded up to 50 W

    info.temperatureCelsius = 104;
    info.powerMilliwatts = 640'000;
    history.record(info, 2000);
    QCOMPARE(history.axisMax(GpuMetric::Temperature, 2000), 120.0);
    QCOMPARE(history.axisMax(GpuMetric::Power, 2000), 700.0);

    MetricHistory idle;
    idle.record(sample(std::nullopt, 0), 1000);
    QCOMPARE(idle.axisMax(GpuMetric::Power, 1000), 50.0); // never a zero-high axis
}

void TestMetricHistory::capacityBoundsMemory()
{
    MetricHistory history;
    for (qint64 at = 0; at < 3000; ++at) // faster than anyone samples: one a millisecond
        history.record(sample(1), at);
    QCOMPARE(history.sampleCount(), MetricHistory::kCapacity);
    QCOMPARE(history.lines(GpuMetric::Utilization, 3000).first().first().atMs, 3000 - MetricHistory::kCapacity);
}

QTEST_GUILESS_MAIN(TestMetricHistory)
#include "tst_metrichistory.moc"
