// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The list of conditions (monitor/conditions/conditions.h): each names a rule that holds every workload, in
// HoldReason's order; the configuration starts and stops a watcher; a one-shot read puts the fact in the snapshot.
#include "conditions/conditions.h"
#include "conditions/powersupply.h"
#include "policy/holdwords.h"

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
    void eachNamesARuleOnEveryone();
    void configurationStartsAndStopsTheWatcher();
    void readOnceFillsTheSnapshot();
};

void TestConditions::eachNamesARuleOnEveryone()
{
    const Conditions conditions;
    QVERIFY(!conditions.all().empty());
    int previous = int(HoldReason::None);
    for (const auto &condition : conditions.all()) {
        QVERIFY2(HoldWords::holdsEveryone(condition->reason()), condition->metaObject()->className());
        QVERIFY2(int(condition->reason()) > previous, "not in HoldReason's order, or twice");
        previous = int(condition->reason());
    }
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

QTEST_GUILESS_MAIN(TestConditions)
#include "tst_conditions.moc"
