// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// WorkLedger on a FakeClock: workload time by local day across midnight and the Monday that starts a week, a workload
// on two GPUs, energy from a counter and from the power, the 24-hour timeline (merged, trimmed, an Unwatched gap
// after a restart), preemptions, each workload's time, the open-to-stop histogram; LedgerStore: the JSON round trip,
// older files, a damaged or hostile file set aside with a warning, the file's mode, one writer at a time.
#include "base/clock.h"
#include "ledger/ledgerstore.h"
#include "ledger/workledger.h"
#include "policy/policy.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonDocument>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

using TestSupport::modeOf;

namespace {
constexpr qint64 kMinute = 60'000;
constexpr qint64 kHour = 3'600'000;

using Activity = GpuActivity;

QDateTime local(int year, int month, int day, int hour, int minute = 0)
{
    return QDateTime(QDate(year, month, day), QTime(hour, minute));
}

GpuInfo sample(int index, std::optional<qint64> energyMillijoules, std::optional<int> powerMilliwatts)
{
    GpuInfo info;
    info.index = index;
    info.energyMillijoules = energyMillijoules;
    info.powerMilliwatts = powerMilliwatts;
    return info;
}

QString describe(const QList<ActivitySegment> &segments)
{
    QStringList parts;
    for (const ActivitySegment &segment : segments) {
        const char *name = segment.activity == Activity::Workload     ? "workload"
                           : segment.activity == Activity::ForeignUse ? "foreign"
                           : segment.activity == Activity::Idle       ? "idle"
                                                                      : "unwatched";
        parts.append(QStringLiteral("%1 %2 min").arg(QLatin1String(name)).arg((segment.toWallMs - segment.fromWallMs) / kMinute));
    }
    return parts.join(QStringLiteral(", "));
}

bool sameTotals(const WorkTotals &a, const WorkTotals &b)
{
    return a.workloadMs == b.workloadMs && a.preemptions == b.preemptions && a.energyJoules.has_value() == b.energyJoules.has_value()
           && qAbs(a.energyJoules.value_or(0) - b.energyJoules.value_or(0)) < 1e-6;
}
bool samePeriods(const WorkPeriods &a, const WorkPeriods &b)
{
    return sameTotals(a.today, b.today) && sameTotals(a.week, b.week) && sameTotals(a.total, b.total);
}
} // namespace

class TestWorkLedger : public QObject
{
    Q_OBJECT

    FakeClock m_clock;

    void at(const QDateTime &localTime) { m_clock.setLocalNow(localTime); }
    void pass(qint64 ms)
    {
        m_clock.advance(ms);
    }

private Q_SLOTS:
    void init() { m_clock = FakeClock(); }

    void activityFollowsTheDecision()
    {
        GpuStatus gpu;
        gpu.index = 1;
        WorkloadRuntime running;
        running.id = QStringLiteral("miner");
        running.state = WorkloadRuntime::Running;
        running.gpus = {0, 1};
        const QHash<QString, WorkloadRuntime> runtimes{{running.id, running}};
        QCOMPARE(WorkLedger::activityOf(gpu, {}), Activity::Idle);
        QCOMPARE(WorkLedger::activityOf(gpu, runtimes), Activity::Workload);
        gpu.state = GpuState::Busy; // a foreign job came: the workload is stopping, the GPU is the job's
        running.state = WorkloadRuntime::Stopping;
        QCOMPARE(WorkLedger::activityOf(gpu, {{running.id, running}}), Activity::ForeignUse);
        gpu.state = GpuState::Waiting;
        QCOMPARE(WorkLedger::activityOf(gpu, {{running.id, running}}), Activity::Workload); // stopping still holds it
        running.state = WorkloadRuntime::BackingOff;
        QCOMPARE(WorkLedger::activityOf(gpu, {{running.id, running}}), Activity::Idle);
    }

    void totalsAcrossMidnight()
    {
        at(local(2026, 1, 5, 23, 30)); // a Monday
        WorkLedger ledger(&m_clock);
        ledger.setActivity({{0, Activity::Workload}});
        pass(45 * kMinute);
        ledger.advance();
        pass(15 * kMinute);
        ledger.setActivity({{0, Activity::Idle}});
        pass(2 * kHour); // idle time counts nothing
        ledger.advance();
        const LedgerSummary summary = ledger.summary();
        QCOMPARE(summary.byGpu.value(0).total.workloadMs, kHour);
        QCOMPARE(summary.byGpu.value(0).today.workloadMs, 30 * kMinute); // Tuesday's part only
        QCOMPARE(summary.byGpu.value(0).week.workloadMs, kHour);          // Monday and Tuesday
        QCOMPARE(summary.all.today.workloadMs, 30 * kMinute);
        QVERIFY(!summary.all.total.energyJoules); // nothing measured it
    }

    void weekStartsOnMonday()
    {
        at(local(2026, 1, 9, 12)); // Friday
        WorkLedger ledger(&m_clock);
        ledger.setActivity({{0, Activity::Workload}});
        pass(3 * kHour);
        ledger.setActivity({{0, Activity::Idle}});
        at(local(2026, 1, 11, 23)); // Sunday night
        ledger.setActivity({{0, Activity::Workload}});
        pass(2 * kHour);            // into Monday 01:00
        ledger.advance();
        LedgerSummary summary = ledger.summary();
        QCOMPARE(summary.all.total.workloadMs, 5 * kHour);
        QCOMPARE(summary.all.week.workloadMs, kHour);
        QCOMPARE(summary.all.today.workloadMs, kHour);

        ledger.setActivity({{0, Activity::Idle}});
        pass(24 * kHour); // Tuesday: nothing ran today
        ledger.advance();
        summary = ledger.summary();
        QCOMPARE(summary.all.today.workloadMs, 0);
        QCOMPARE(summary.all.week.workloadMs, kHour);
        QCOMPARE(summary.all.total.workloadMs, 5 * kHour);
    }

    void workloadOnTwoGpusCountsOnEach()
    {
        WorkLedger ledger(&m_clock);
        ledger.setActivity({{0, Activity::Workload}, {1, Activity::Workload}, {2, Activity::ForeignUse}});
        pass(30 * kMinute);
        ledger.advance();
        const LedgerSummary summary = ledger.summary();
        QCOMPARE(summary.byGpu.value(0).total.workloadMs, 30 * kMinute);
        QCOMPARE(summary.byGpu.value(1).total.workloadMs, 30 * kMinute);
        QCOMPARE(summary.byGpu.value(2).total.workloadMs, 0);
        QCOMPARE(summary.all.total.workloadMs, kHour);
        QCOMPARE(summary.all.today.workloadMs, kHour);
    }

    void energyFromTheCounter()
    {
        WorkLedger ledger(&m_clock);
        ledger.setActivity({{0, Activity::Workload}, {1, Activity::Idle}});
        ledger.addEnergySample({{0, sample(0, 1'000'000, 300'000)}, {1, sample(1, 5'000'000, 50'000)}});
        pass(10'000);
        // 2000 J in 10 s while the workload ran all of it; GPU 1 used 500 J idle, which is no workload's.
        ledger.addEnergySample({{0, sample(0, 3'000'000, 300'000)}, {1, sample(1, 5'500'000, 50'000)}});
        LedgerSummary summary = ledger.summary();
        QCOMPARE(summary.byGpu.value(0).total.energyJoules, std::optional<double>(2000));
        QCOMPARE(summary.byGpu.value(1).total.energyJoules, std::optional<double>(0));
        QCOMPARE(summary.all.today.energyJoules, std::optional<double>(2000));

        // The workload ran half of the next 10 s: half of the counter's 1000 J.
        pass(5'000);
        ledger.setActivity({{0, Activity::ForeignUse}, {1, Activity::Idle}});
        pass(5'000);
        ledger.addEnergySample({{0, sample(0, 4'000'000, 300'000)}});
        summary = ledger.summary();
        QCOMPARE(summary.byGpu.value(0).total.energyJoules, std::optional<double>(2500));

        // A counter that went back (the driver reloaded) says nothing: the power stands in (300 W for 4 s).
        ledger.setActivity({{0, Activity::Workload}});
        pass(4'000);
        ledger.addEnergySample({{0, sample(0, 1'000, 300'000)}});
        summary = ledger.summary();
        QCOMPARE(summary.byGpu.value(0).total.energyJoules, std::optional<double>(3700));
    }

    void energyFromThePower()
    {
        WorkLedger ledger(&m_clock);
        ledger.setActivity({{0, Activity::Workload}});
        ledger.addEnergySample({{0, sample(0, std::nullopt, 200'000)}});
        pass(10'000);
        ledger.addEnergySample({{0, sample(0, std::nullopt, 300'000)}}); // 250 W on average for 10 s
        QCOMPARE(ledger.summary().byGpu.value(0).total.energyJoules, std::optional<double>(2500));
        QCOMPARE(ledger.summary().all.week.energyJoules, std::optional<double>(2500));
    }

    void noEnergyWhereNothingMeasures()
    {
        WorkLedger ledger(&m_clock);
        ledger.setActivity({{0, Activity::Workload}});
        ledger.addEnergySample({{0, sample(0, std::nullopt, std::nullopt)}});
        pass(10'000);
        ledger.addEnergySample({{0, sample(0, std::nullopt, std::nullopt)}});
        const LedgerSummary summary = ledger.summary();
        QVERIFY(!summary.byGpu.value(0).total.energyJoules);
        QVERIFY(!summary.all.total.energyJoules);
        QCOMPARE(summary.all.total.workloadMs, 10'000);
    }

    void timelineMergesAndTrims()
    {
        at(local(2026, 1, 5, 8));
        WorkLedger ledger(&m_clock);
        const qint64 startMs = m_clock.localNow().toMSecsSinceEpoch();
        ledger.setActivity({{0, Activity::Idle}});
        pass(10 * kMinute);
        ledger.setActivity({{0, Activity::Workload}});
        pass(10 * kMinute);
        ledger.setActivity({{0, Activity::Workload}}); // no change: one segment
        pass(10 * kMinute);
        ledger.setActivity({{0, Activity::ForeignUse}});
        pass(300); // a blip too short to draw takes what follows
        ledger.setActivity({{0, Activity::Idle}});
        pass(10 * kMinute);
        ledger.advance();
        LedgerSummary summary = ledger.summary();
        QCOMPARE(describe(summary.lastDay.value(0)), QStringLiteral("idle 10 min, workload 20 min, idle 10 min"));
        const QList<ActivitySegment> segments = summary.lastDay.value(0);
        QCOMPARE(segments.first().fromWallMs, startMs);
        for (qsizetype i = 1; i < segments.size(); ++i)
            QCOMPARE(segments.at(i).fromWallMs, segments.at(i - 1).toWallMs);

        pass(24 * kHour); // the first 30 min leave the timeline; the totals stay
        ledger.advance();
        summary = ledger.summary();
        QCOMPARE(summary.lastDay.value(0).first().fromWallMs, m_clock.localNow().toMSecsSinceEpoch() - 24 * kHour);
        QCOMPARE(summary.lastDay.value(0).size(), 1);
        QCOMPARE(summary.lastDay.value(0).first().activity, Activity::Idle);
        QCOMPARE(summary.all.total.workloadMs, 20 * kMinute);
    }

    // An open/close storm flips the GPU thousands of times: changes too short to draw are absorbed, the totals stay
    // exact.
    void stormOfShortChangesIsAbsorbed()
    {
        WorkLedger ledger(&m_clock);
        for (int i = 0; i < 20'000; ++i) {
            ledger.setActivity({{0, i % 2 ? Activity::Idle : Activity::Workload}});
            pass(i % 100 == 0 ? 5'000 : 10);
        }
        ledger.advance();
        const LedgerSummary summary = ledger.summary();
        QVERIFY2(summary.lastDay.value(0).size() <= 2 * 200 + 1,
                 qPrintable(QString::number(summary.lastDay.value(0).size())));
        qint64 expected = 0;
        for (int i = 0; i < 20'000; i += 2)
            expected += i % 100 == 0 ? 5'000 : 10;
        QCOMPARE(summary.all.total.workloadMs, expected);
    }

    // Changes long enough to draw, more than the bound: the oldest merge, the span stays whole.
    void manyChangesStayBounded()
    {
        WorkLedger ledger(&m_clock);
        const qint64 startMs = m_clock.localNow().toMSecsSinceEpoch();
        for (int i = 0; i < 3000; ++i) {
            ledger.setActivity({{0, i % 2 ? Activity::Idle : Activity::Workload}});
            pass(2'000);
        }
        ledger.advance();
        const QList<ActivitySegment> segments = ledger.summary().lastDay.value(0);
        QCOMPARE(segments.size(), WorkLedger::kMaxSegmentsPerGpu);
        QCOMPARE(segments.first().fromWallMs, startMs);
        QCOMPARE(segments.last().toWallMs, m_clock.localNow().toMSecsSinceEpoch());
        QCOMPARE(ledger.summary().all.total.workloadMs, 1500 * 2'000);
    }

    void gpuGoneIsUnwatched()
    {
        WorkLedger ledger(&m_clock);
        ledger.setActivity({{0, Activity::Workload}, {1, Activity::Workload}});
        pass(10 * kMinute);
        ledger.setActivity({{0, Activity::Workload}}); // GPU 1 went away
        pass(10 * kMinute);
        ledger.advance();
        const LedgerSummary summary = ledger.summary();
        QCOMPARE(describe(summary.lastDay.value(1)), QStringLiteral("workload 10 min, unwatched 10 min"));
        QCOMPARE(summary.byGpu.value(1).total.workloadMs, 10 * kMinute);
    }

    void restartLeavesAnUnwatchedGap()
    {
        WorkLedger before(&m_clock);
        before.setActivity({{0, Activity::Workload}});
        pass(kHour);
        before.stopWatching();
        const QByteArray saved = before.toJson();

        pass(2 * kHour); // idlegpu not running
        WorkLedger after(&m_clock);
        QString error;
        QVERIFY2(after.restore(saved, &error), qPrintable(error));
        after.setActivity({{0, Activity::Workload}});
        pass(10 * kMinute);
        after.advance();
        const LedgerSummary summary = after.summary();
        QCOMPARE(describe(summary.lastDay.value(0)),
                 QStringLiteral("workload 60 min, unwatched 120 min, workload 10 min"));
        QCOMPARE(summary.all.total.workloadMs, 70 * kMinute);
        QCOMPARE(summary.all.today.workloadMs, 70 * kMinute);
        QCOMPARE(summary.sinceWallMs, before.summary().sinceWallMs);
    }

    void preemptionsNewestFirstAndBounded()
    {
        WorkLedger ledger(&m_clock);
        ledger.setActivity({{0, Activity::Workload}});
        for (int i = 0; i < 60; ++i) {
            PreemptionRecord record;
            record.gpu = i % 2;
            record.workloadName = QStringLiteral("miner");
            record.culpritPid = 1000 + i;
            ledger.addPreemption(record);
            pass(kMinute);
        }
        const LedgerSummary summary = ledger.summary();
        QCOMPARE(summary.recentPreemptions.size(), LedgerSummary::kRecentPreemptions);
        QCOMPARE(summary.recentPreemptions.first().culpritPid, 1059);
        QVERIFY(summary.recentPreemptions.first().wallMs > summary.recentPreemptions.last().wallMs);
        QCOMPARE(summary.all.total.preemptions, 60); // counted, though listed no more
        QCOMPARE(summary.byGpu.value(1).today.preemptions, 30);
    }

    void roundTrip()
    {
        at(local(2026, 1, 7, 22));
        WorkLedger ledger(&m_clock);
        ledger.setActivity({{0, Activity::Workload}, {3, Activity::Idle}});
        ledger.addEnergySample({{0, sample(0, 0, 100'000)}, {3, sample(3, std::nullopt, 20'000)}});
        pass(3 * kHour);
        ledger.addEnergySample({{0, sample(0, 1'080'000'000, 100'000)}, {3, sample(3, std::nullopt, 20'000)}});
        PreemptionRecord record;
        record.gpu = 0;
        record.workloadName = QStringLiteral("miner \"quoted\" \u00e9");
        record.culpritProgram = QStringLiteral("python3");
        record.culpritUser = QStringLiteral("alice");
        record.culpritPid = 4242;
        record.openToStopMs = 2.75;
        ledger.addPreemption(record);
        record.openToStopMs.reset();
        record.culpritProgram.clear();
        ledger.addPreemption(record);
        ledger.setActivity({{0, Activity::ForeignUse}, {3, Activity::Idle}});
        pass(kMinute);
        ledger.advance();

        WorkLedger copy(&m_clock);
        QString error;
        QVERIFY2(copy.restore(ledger.toJson(), &error), qPrintable(error));
        const LedgerSummary a = ledger.summary();
        const LedgerSummary b = copy.summary();
        QCOMPARE(b.sinceWallMs, a.sinceWallMs);
        QVERIFY(samePeriods(b.all, a.all));
        QList<int> gpus = a.byGpu.keys();
        QList<int> copied = b.byGpu.keys();
        std::sort(gpus.begin(), gpus.end());
        std::sort(copied.begin(), copied.end());
        QCOMPARE(copied, gpus);
        for (int gpu : std::as_const(gpus))
            QVERIFY2(samePeriods(b.byGpu.value(gpu), a.byGpu.value(gpu)), qPrintable(QString::number(gpu)));
        QCOMPARE(b.all.total.energyJoules, std::optional<double>(1'080'000));
        QCOMPARE(b.recentPreemptions.size(), 2);
        for (int i = 0; i < 2; ++i) {
            QCOMPARE(b.recentPreemptions.at(i).wallMs, a.recentPreemptions.at(i).wallMs);
            QCOMPARE(b.recentPreemptions.at(i).workloadName, a.recentPreemptions.at(i).workloadName);
            QCOMPARE(b.recentPreemptions.at(i).culpritProgram, a.recentPreemptions.at(i).culpritProgram);
            QCOMPARE(b.recentPreemptions.at(i).culpritUser, a.recentPreemptions.at(i).culpritUser);
            QCOMPARE(b.recentPreemptions.at(i).culpritPid, a.recentPreemptions.at(i).culpritPid);
            QCOMPARE(b.recentPreemptions.at(i).openToStopMs, a.recentPreemptions.at(i).openToStopMs);
        }
        QCOMPARE(describe(b.lastDay.value(0)), describe(a.lastDay.value(0)));
        QCOMPARE(describe(b.lastDay.value(0)), QStringLiteral("workload 180 min, foreign 1 min"));
    }

    // Each workload's time on each GPU (for the metrics' per-workload counter): while the GPU does Workload, for each
    // workload that occupies it; not while the GPU is the owner's or idle.
    void workloadTimeByWorkload()
    {
        WorkloadRuntime miner;
        miner.id = QStringLiteral("process-miner");
        miner.state = WorkloadRuntime::Running;
        miner.gpus = {0, 1};
        WorkloadRuntime boinc;
        boinc.id = QStringLiteral("process-boinc");
        boinc.state = WorkloadRuntime::Stopping; // still holds its GPU
        boinc.gpus = {1};
        const QHash<QString, WorkloadRuntime> runtimes{{miner.id, miner}, {boinc.id, boinc}};
        QCOMPARE(WorkLedger::workloadsOn(0, runtimes), QStringList{miner.id});
        QCOMPARE(WorkLedger::workloadsOn(1, runtimes), (QStringList{boinc.id, miner.id}));
        QCOMPARE(WorkLedger::workloadsOn(2, runtimes), QStringList());

        WorkLedger ledger(&m_clock);
        ledger.setActivity({{0, Activity::Workload}, {1, Activity::Workload}},
                           {{0, {miner.id}}, {1, {boinc.id, miner.id}}});
        pass(10 * kMinute);
        ledger.setActivity({{0, Activity::ForeignUse}, {1, Activity::Workload}}, {{0, {miner.id}}, {1, {miner.id}}});
        pass(5 * kMinute);
        ledger.setActivity({{0, Activity::Idle}, {1, Activity::Idle}});
        pass(kHour);
        ledger.advance();
        const LedgerSummary summary = ledger.summary();
        QCOMPARE(summary.workloadMs.value(0).value(miner.id), 10 * kMinute);
        QCOMPARE(summary.workloadMs.value(1).value(miner.id), 15 * kMinute);
        QCOMPARE(summary.workloadMs.value(1).value(boinc.id), 10 * kMinute);
        QCOMPARE(summary.byGpu.value(1).total.workloadMs, 15 * kMinute); // the GPU's own time counts once

        WorkLedger copy(&m_clock);
        QString error;
        QVERIFY2(copy.restore(ledger.toJson(), &error), qPrintable(error));
        QCOMPARE(copy.summary().workloadMs, summary.workloadMs);
    }

    // Every open-to-stop time counts in the histogram, beyond the recent list's 50; a preemption without one does not.
    void openToStopHistogram()
    {
        WorkLedger ledger(&m_clock);
        PreemptionRecord record;
        record.gpu = 0;
        for (int i = 0; i < 60; ++i) {
            record.openToStopMs = 3.0; // (2, 5] ms
            ledger.addPreemption(record);
        }
        record.openToStopMs = 1.0; // exactly on a bound: that bucket (le is inclusive)
        ledger.addPreemption(record);
        record.openToStopMs = 60'000.0; // above the last bound
        ledger.addPreemption(record);
        record.openToStopMs.reset(); // the poll found it
        ledger.addPreemption(record);
        const LatencyHistogram histogram = ledger.summary().openToStop;
        QCOMPARE(histogram.count(), 62);
        QCOMPARE(histogram.counts[0], 1);
        QCOMPARE(histogram.counts[2], 60);
        QCOMPARE(histogram.counts.back(), 1);
        QCOMPARE(histogram.sumMs, 60 * 3.0 + 1.0 + 60'000.0);
        QCOMPARE(ledger.summary().all.total.preemptions, 63);

        WorkLedger copy(&m_clock);
        QString error;
        QVERIFY2(copy.restore(ledger.toJson(), &error), qPrintable(error));
        QCOMPARE(copy.summary().openToStop, histogram);
    }

    // A file written before the ledger kept workloads and the histogram reads as one with neither; one whose
    // histogram has other bounds keeps its totals and starts the histogram afresh.
    void olderFilesStillRead()
    {
        const QByteArray old = "{\"format\":\"idlegpu-ledger\",\"version\":1,\"since_ms\":1767614400000,"
                               "\"gpus\":{\"0\":{\"total\":{\"workload_ms\":5000,\"preemptions\":2},\"timeline\":[]}},"
                               "\"days\":{},\"preemptions\":[]}";
        WorkLedger ledger(&m_clock);
        QString error;
        QVERIFY2(ledger.restore(old, &error), qPrintable(error));
        QCOMPARE(ledger.summary().byGpu.value(0).total.preemptions, 2);
        QVERIFY(ledger.summary().workloadMs.isEmpty());
        QCOMPARE(ledger.summary().openToStop.count(), 0);

        QByteArray otherBounds = old;
        otherBounds.chop(1);
        otherBounds += ",\"open_to_stop\":{\"bounds_ms\":[1,10],\"counts\":[4,5,6],\"sum_ms\":99}}";
        QVERIFY2(ledger.restore(otherBounds, &error), qPrintable(error));
        QCOMPARE(ledger.summary().byGpu.value(0).total.workloadMs, 5000);
        QCOMPARE(ledger.summary().openToStop, LatencyHistogram());
    }

    // Ledgers written before the totals had one writer (workTotalsToJson(), which --status --json shares) name the
    // energy energy_j: it reads as before, and the next save names it energy_joules.
    void energyOfOlderFilesStillReads()
    {
        const QByteArray old = "{\"format\":\"idlegpu-ledger\",\"version\":1,\"since_ms\":1767614400000,"
                               "\"gpus\":{\"0\":{\"total\":{\"workload_ms\":5000,\"preemptions\":2,\"energy_j\":1234.5},"
                               "\"timeline\":[]}},\"days\":{},\"preemptions\":[]}";
        WorkLedger ledger(&m_clock);
        QString error;
        QVERIFY2(ledger.restore(old, &error), qPrintable(error));
        QCOMPARE(ledger.summary().byGpu.value(0).total.energyJoules, std::optional<double>(1234.5));

        const QByteArray saved = ledger.toJson();
        QVERIFY2(saved.contains("\"energy_joules\":1234.5") && !saved.contains("energy_j\""), saved.constData());
        WorkLedger again(&m_clock);
        QVERIFY2(again.restore(saved, &error), qPrintable(error));
        QCOMPARE(again.summary().byGpu.value(0).total.energyJoules, std::optional<double>(1234.5));
        const QJsonObject gpu = QJsonDocument::fromJson(saved).object().value(QStringLiteral("gpus")).toObject();
        QCOMPARE(gpu.value(QStringLiteral("0")).toObject().value(QStringLiteral("total")).toObject(),
                 workTotalsToJson(again.summary().byGpu.value(0).total));
    }

    void restoreRefusesWhatIsNoLedger_data()
    {
        QTest::addColumn<QByteArray>("json");
        QTest::addColumn<QString>("why");
        const QByteArray head = "{\"format\":\"idlegpu-ledger\",\"version\":1,\"since_ms\":1767614400000,";
        const QByteArray empty = "\"gpus\":{},\"days\":{},\"preemptions\":[]}";
        QTest::newRow("not JSON") << QByteArray("{\"format\": ") << "not JSON";
        QTest::newRow("an array") << QByteArray("[1,2]") << "not a JSON object";
        QTest::newRow("another format") << QByteArray("{\"format\":\"x\",\"version\":1}") << "not an idlegpu ledger";
        QTest::newRow("a newer version") << QByteArray("{\"format\":\"idlegpu-ledger\",\"version\":2}") << "version";
        QTest::newRow("since as text")
            << QByteArray("{\"format\":\"idlegpu-ledger\",\"version\":1,\"since_ms\":\"yesterday\",") + empty << "since_ms";
        QTest::newRow("negative workload time")
            << head + "\"gpus\":{\"0\":{\"total\":{\"workload_ms\":-5,\"preemptions\":0},\"timeline\":[]}},\"days\":{},\"preemptions\":[]}"
            << "gpus.0.total.workload_ms";
        QTest::newRow("fractional preemptions")
            << head + "\"gpus\":{\"0\":{\"total\":{\"workload_ms\":5,\"preemptions\":0.5},\"timeline\":[]}},\"days\":{},\"preemptions\":[]}"
            << "gpus.0.total.preemptions";
        QTest::newRow("absurd energy")
            << head + "\"gpus\":{\"0\":{\"total\":{\"workload_ms\":5,\"preemptions\":0,\"energy_j\":1e300},\"timeline\":[]}},\"days\":{},\"preemptions\":[]}"
            << "energy_j";
        QTest::newRow("absurd energy, key of workTotalsToJson()")
            << head + "\"gpus\":{\"0\":{\"total\":{\"workload_ms\":5,\"preemptions\":0,\"energy_joules\":1e300},\"timeline\":[]}},\"days\":{},\"preemptions\":[]}"
            << "energy_joules";
        QTest::newRow("GPU index not a number")
            << head + "\"gpus\":{\"zero\":{\"total\":{\"workload_ms\":5,\"preemptions\":0},\"timeline\":[]}},\"days\":{},\"preemptions\":[]}"
            << "not a GPU index";
        QTest::newRow("huge GPU index")
            << head + "\"gpus\":{\"99999999\":{\"total\":{\"workload_ms\":5,\"preemptions\":0},\"timeline\":[]}},\"days\":{},\"preemptions\":[]}"
            << "not a GPU index";
        QTest::newRow("segment ends before it starts")
            << head + "\"gpus\":{\"0\":{\"total\":{\"workload_ms\":5,\"preemptions\":0},\"timeline\":[[2000,1000,\"idle\"]]}},\"days\":{},\"preemptions\":[]}"
            << "timeline[0][1]";
        QTest::newRow("unknown activity")
            << head + "\"gpus\":{\"0\":{\"total\":{\"workload_ms\":5,\"preemptions\":0},\"timeline\":[[1000,2000,\"mining\"]]}},\"days\":{},\"preemptions\":[]}"
            << "timeline[0][2]";
        QTest::newRow("a day that is no date")
            << head + "\"gpus\":{},\"days\":{\"2026-02-30\":{}},\"preemptions\":[]}" << "not a date";
        QTest::newRow("preemption without pid")
            << head + "\"gpus\":{},\"days\":{},\"preemptions\":[{\"wall_ms\":1,\"gpu\":0,\"workload\":\"w\",\"program\":\"p\",\"user\":\"u\"}]}"
            << "preemptions[0].pid";
        QTest::newRow("a long program name")
            << head + "\"gpus\":{},\"days\":{},\"preemptions\":[{\"wall_ms\":1,\"gpu\":0,\"workload\":\"w\",\"program\":\""
                   + QByteArray(300, 'x') + "\",\"user\":\"u\",\"pid\":1}]}"
            << "preemptions[0].program";
        QTest::newRow("days missing") << head + "\"gpus\":{},\"preemptions\":[]}" << "days: not an object";
        QTest::newRow("negative workload time of a workload")
            << head + "\"gpus\":{\"0\":{\"total\":{\"workload_ms\":5,\"preemptions\":0},\"timeline\":[],"
                      "\"workloads\":{\"process-0\":-1}}},\"days\":{},\"preemptions\":[]}"
            << "gpus.0.workloads.process-0";
        QTest::newRow("workloads as a list")
            << head + "\"gpus\":{\"0\":{\"total\":{\"workload_ms\":5,\"preemptions\":0},\"timeline\":[],"
                      "\"workloads\":[1]}},\"days\":{},\"preemptions\":[]}"
            << "gpus.0.workloads: not an object";
        const QByteArray bounds = "\"bounds_ms\":[1,2,5,10,20,50,100,200,500,1000,2000,5000,10000]";
        QTest::newRow("a fractional histogram count")
            << head + empty.chopped(1) + ",\"open_to_stop\":{" + bounds
                   + ",\"counts\":[0,0.5,0,0,0,0,0,0,0,0,0,0,0,0],\"sum_ms\":1}}"
            << "open_to_stop.counts[1]";
        QTest::newRow("a negative histogram sum")
            << head + empty.chopped(1) + ",\"open_to_stop\":{" + bounds
                   + ",\"counts\":[0,0,0,0,0,0,0,0,0,0,0,0,0,0],\"sum_ms\":-1}}"
            << "open_to_stop.sum_ms";
    }
    void restoreRefusesWhatIsNoLedger()
    {
        QFETCH(QByteArray, json);
        QFETCH(QString, why);
        WorkLedger ledger(&m_clock);
        ledger.setActivity({{0, Activity::Workload}});
        pass(kMinute);
        ledger.advance();
        QString error;
        QVERIFY(!ledger.restore(json, &error));
        QVERIFY2(error.contains(why), qPrintable(error));
        QCOMPARE(ledger.summary().all.total.workloadMs, kMinute); // unchanged
    }

    void storeWritesAPrivateFile()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("state/idlegpu/ledger.json"));
        WorkLedger ledger(&m_clock);
        LedgerStore store(path);
        QVERIFY(store.open(&ledger));
        ledger.setActivity({{0, Activity::Workload}});
        pass(kHour);
        ledger.advance();
        QVERIFY(store.save(ledger));
        QCOMPARE(modeOf(path), 0600);
        QCOMPARE(modeOf(QFileInfo(path).absolutePath()), 0700);
        // No temporary file left beside it; the lock stays while the store is open.
        QCOMPARE(QFileInfo(path).absoluteDir().entryList(QDir::Files | QDir::Hidden, QDir::Name),
                 QStringList({QStringLiteral("ledger.json"), QStringLiteral("ledger.json.lock")}));

        // Read back as --status does, without the lock.
        WorkLedger read(&m_clock);
        QString error;
        QCOMPARE(LedgerStore::read(path, &read, &error), LedgerStore::ReadResult::Loaded);
        QCOMPARE(read.summary().all.total.workloadMs, kHour);
        QCOMPARE(LedgerStore::read(dir.filePath(QStringLiteral("none.json")), &read, &error),
                 LedgerStore::ReadResult::Missing);
    }

    void oneWriterAtATime()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ledger.json"));
        WorkLedger first(&m_clock), second(&m_clock);
        LedgerStore writer(path);
        QVERIFY(writer.open(&first));
        LedgerStore other(path);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("ledger\\.json is kept by another idlegpu")));
        QVERIFY(!other.open(&second));
        QVERIFY(!other.isWriter());
        QVERIFY(!other.save(second));
        QVERIFY(!QFileInfo::exists(path)); // nothing written by either yet
    }

    void damagedFileIsSetAside_data()
    {
        QTest::addColumn<QByteArray>("contents");
        QTest::addColumn<QString>("why");
        QTest::newRow("bad JSON") << QByteArray("{\"format\":\"idlegpu-ledger\", \"vers") << "not JSON";
        QTest::newRow("wrong types") << QByteArray("{\"format\":\"idlegpu-ledger\",\"version\":1,\"since_ms\":{}}")
                                     << "since_ms";
        QTest::newRow("absurd values")
            << QByteArray("{\"format\":\"idlegpu-ledger\",\"version\":1,\"since_ms\":1,\"gpus\":{\"0\":{\"total\":"
                          "{\"workload_ms\":1e30,\"preemptions\":0},\"timeline\":[]}},\"days\":{},\"preemptions\":[]}")
            << "workload_ms";
        QTest::newRow("huge") << QByteArray(LedgerStore::kMaxFileBytes + 1, ' ') << "too big";
        QTest::newRow("binary") << QByteArray("\x00\xff\xfe\x01", 4) << "not JSON";
    }
    void damagedFileIsSetAside()
    {
        QFETCH(QByteArray, contents);
        QFETCH(QString, why);
        QTemporaryDir dir;
        const QString path = TestSupport::writeFile(dir.filePath(QStringLiteral("ledger.json")), contents);
        WorkLedger ledger(&m_clock);
        LedgerStore store(path);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QRegularExpression::escape(path) + QStringLiteral(" holds no ledger \\(.*")
                                                              + QRegularExpression::escape(why) + QStringLiteral(".*\\): set aside as ")
                                                              + QRegularExpression::escape(path + QStringLiteral(".bad"))));
        QVERIFY(store.open(&ledger));
        QCOMPARE(ledger.summary().sinceWallMs, 0); // afresh
        QFile aside(path + QStringLiteral(".bad"));
        QVERIFY(aside.open(QIODevice::ReadOnly));
        QCOMPARE(aside.readAll(), contents); // nothing lost
        QVERIFY(!QFileInfo::exists(path));
        ledger.setActivity({{0, Activity::Workload}});
        pass(kMinute);
        QVERIFY(store.save(ledger));
        WorkLedger read(&m_clock);
        QString error;
        QCOMPARE(LedgerStore::read(path, &read, &error), LedgerStore::ReadResult::Loaded);
    }

    // A folder (or a FIFO, which would block a read) where the file should be: not opened, set aside.
    void notAFileIsSetAside()
    {
        QTemporaryDir dir;
        const QString path = dir.filePath(QStringLiteral("ledger.json"));
        QVERIFY(QDir().mkpath(path));
        WorkLedger ledger(&m_clock);
        LedgerStore store(path);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("not a regular file.*set aside")));
        QVERIFY(store.open(&ledger));
        QVERIFY(QFileInfo(path + QStringLiteral(".bad")).isDir());
        QVERIFY(store.save(ledger));
        QVERIFY(QFileInfo(path).isFile());
    }
};

QTEST_GUILESS_MAIN(TestWorkLedger)
#include "tst_workledger.moc"
