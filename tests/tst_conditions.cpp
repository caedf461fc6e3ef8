// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The list of conditions (monitor/conditions/conditions.h): each names its own rule, in HoldReason's order, and every
// rule on every workload but the user's pause has its condition; the configuration starts and stops a watcher; a
// one-shot read puts the fact in the snapshot; the schedule's wall-clock timer rings at the schedule's change; the heat
// condition passes a sample's temperatures on.
#include "conditions/conditions.h"
#include "conditions/heatcondition.h"
#include "conditions/powersupply.h"
#include "conditions/schedulecondition.h"
#include "policy/holdwords.h"

#include <set>

#include <QTemporaryDir>
#include <QtTest>

namespace {

// A fake sysfs with one battery: <root>/class/power_supply/BAT0.
void writeBattery(const QTemporaryDir &root, const QByteArray &status)
{
    const QString folder = root.filePath(QStringLiteral("class/power_supply/BAT0"));
    QVERIFY(QDir().mkpath(folder));
    for (const auto &[name, text] : {std::pair<const char *, QByteArray>{"type", "Battery\n"},
                                     std::pair<const char *, QByteArray>{"scope", "System\n"},
                                     std::pair<const char *, QByteArray>{"status", status + '\n'}}) {
        QFile file(folder + QLatin1Char('/') + QLatin1String(name));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(text);
    }
}

} // namespace

class TestConditions : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void eachNamesItsRuleInOrder();
    void configurationStartsAndStopsTheWatcher();
    void readOnceFillsTheSnapshot();
    void scheduleRingsAtItsChange();
    void scheduleFillsTheWallTime();
    void heatPassesTheSampleOn();
};

void TestConditions::eachNamesItsRuleInOrder()
{
    const Conditions conditions;
    QVERIFY(!conditions.all().empty());
    int previous = int(HoldReason::None);
    std::set<HoldReason> named;
    for (const auto &condition : conditions.all()) {
        QVERIFY2(int(condition->reason()) > previous, "not in HoldReason's order, or twice");
        previous = int(condition->reason());
        named.insert(condition->reason());
    }
    // Every rule that holds every workload is a condition's, but the pause, which is the user's and no fact.
    for (int reason = int(HoldReason::None) + 1; reason <= int(HoldReason::Settling); ++reason)
        if (HoldWords::holdsEveryone(HoldReason(reason)) && HoldReason(reason) != HoldReason::Paused)
            QVERIFY2(named.count(HoldReason(reason)),
                     qPrintable(QStringLiteral("rule %1 has no condition").arg(reason)));
    QVERIFY(named.count(HoldReason::TooHot));
}

void TestConditions::configurationStartsAndStopsTheWatcher()
{
    QTemporaryDir sysfs;
    QVERIFY(sysfs.isValid());
    writeBattery(sysfs, "Discharging");
    QObject owner;
    ConditionSources sources;
    sources.sysfsRoot = sysfs.path();
    Conditions conditions(sources);
    conditions.setParent(&owner);

    Config config;
    config.onBattery = OnBattery::Pause;
    conditions.configure(config);
    QVERIFY(owner.findChild<PowerSupplyWatcher *>());
    Snapshot snapshot;
    conditions.fill(config, snapshot);
    QCOMPARE(snapshot.power, (PowerState{true, true, QStringLiteral("BAT0")}));

    config.onBattery = OnBattery::Run;
    conditions.configure(config);
    QVERIFY(!owner.findChild<PowerSupplyWatcher *>());
    snapshot = Snapshot();
    conditions.fill(config, snapshot);
    QCOMPARE(snapshot.power, PowerState()); // forgotten with its watcher
}

// --status reads the power whatever on_battery says, and watches nothing.
void TestConditions::readOnceFillsTheSnapshot()
{
    QTemporaryDir sysfs;
    QVERIFY(sysfs.isValid());
    writeBattery(sysfs, "Discharging");
    QObject owner;
    ConditionSources sources;
    sources.sysfsRoot = sysfs.path();
    Conditions conditions(sources);
    conditions.setParent(&owner);

    Config config;
    config.onBattery = OnBattery::Run;
    conditions.readOnce(config);
    QVERIFY(!owner.findChild<PowerSupplyWatcher *>());
    Snapshot snapshot;
    conditions.fill(config, snapshot);
    QCOMPARE(snapshot.power, (PowerState{true, true, QStringLiteral("BAT0")}));
}

// [schedule]: the timer on the wall clock is set to the schedule's next change while the schedule limits the hours,
// rings then (a test clock 300 ms before 18:00), and is off for a schedule that always allows.
void TestConditions::scheduleRingsAtItsChange()
{
    FakeClock clock;
    clock.setLocalNow(QDateTime(QDate(2026, 1, 5), QTime(17, 59, 59, 700))); // a Monday
    ScheduleCondition schedule(&clock);
    QCOMPARE(schedule.msUntilRing(), -1);

    Config config;
    QString message;
    config.schedule = *Schedule::parse(QStringLiteral("Mon-Fri 18:00-08:00"), &message);
    schedule.configure(config);
    const qint64 msUntilRing = schedule.msUntilRing();
    QVERIFY2(msUntilRing > 0 && msUntilRing <= 300, qPrintable(QString::number(msUntilRing)));
    QSignalSpy rang(&schedule, &Condition::changed);
    QVERIFY(rang.wait(5000));
    QCOMPARE(rang.first().first().value<Condition::Rescan>(), Condition::Rescan::Now);
    // Set again, for the next change: Tuesday 08:00 on the test clock, which stood still.
    clock.setLocalNow(QDateTime(QDate(2026, 1, 5), QTime(18, 0)));
    schedule.configure(config);
    QVERIFY(schedule.msUntilRing() > 13 * 3600 * 1000);

    config.schedule = Schedule();
    schedule.configure(config);
    QCOMPARE(schedule.msUntilRing(), -1);
}

void TestConditions::scheduleFillsTheWallTime()
{
    FakeClock clock;
    const QDateTime monday(QDate(2026, 1, 5), QTime(9, 30));
    clock.setLocalNow(monday);
    ConditionSources sources;
    sources.clock = &clock;
    Conditions conditions(sources);
    Snapshot snapshot;
    conditions.fill(Config(), snapshot);
    QCOMPARE(snapshot.localTime, monday);
}

void TestConditions::heatPassesTheSampleOn()
{
    Conditions conditions;
    GpuInfo warm;
    warm.index = 0;
    warm.temperatureCelsius = 71;
    GpuInfo unread;
    unread.index = 1;
    conditions.heat().takeSample({{0, warm}, {1, unread}});
    Snapshot snapshot;
    conditions.fill(Config(), snapshot);
    QCOMPARE(snapshot.temperatures, (QHash<int, int>{{0, 71}}));

    conditions.heat().takeSample({{1, unread}}); // a later sample without GPU 0's reading: unknown, not 71
    conditions.fill(Config(), snapshot);
    QVERIFY(snapshot.temperatures.isEmpty());
}

QTEST_GUILESS_MAIN(TestConditions)
#include "tst_conditions.moc"
