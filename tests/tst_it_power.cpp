// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// Integration test of [defaults] on_battery: a real Monitor and ProcessRunner, a fake GPU and a fixture
// <sysfs_root>/class/power_supply. A test cannot make the kernel send uevents for its fixture, so the watcher reads
// it at the monitor's fallback poll (interval_seconds = 1), the path taken where no uevent socket opens.
#include "monitorfixture.h"
#include "statusreport.h"

#include <QJsonObject>
#include <QTemporaryDir>
#include <QtTest>

using namespace TestSupport;

class TestPowerIntegration : public QObject, private MonitorFixture
{
    Q_OBJECT

private:
    // `onBattery` in [defaults], with the fallback poll every second.
    QString writePowerConfig(const QString &onBattery)
    {
        return writeConfig(defaultsSection(m_dev->path(), {.intervalSeconds = 1, .more = onBattery + QLatin1Char('\n')})
                           + sleeperSection(QStringLiteral("0"), QStringLiteral("0")));
    }
    // A laptop's AC adapter and battery, plugged in or not.
    void setPlugged(bool plugged)
    {
        const QString root = m_sysfs->filePath(QStringLiteral("class/power_supply"));
        writeFile(root + QStringLiteral("/AC/type"), "Mains\n");
        writeFile(root + QStringLiteral("/AC/online"), plugged ? "1\n" : "0\n");
        writeFile(root + QStringLiteral("/BAT0/type"), "Battery\n");
        writeFile(root + QStringLiteral("/BAT0/status"), plugged ? "Charging\n" : "Discharging\n");
    }
    void startMonitor(const QString &onBattery)
    {
        MonitorPaths paths;
        paths.sysfsRoot = m_sysfs->path();
        makeMonitor(writePowerConfig(onBattery), paths);
        QVERIFY(m_monitor->start());
    }
    WorkloadRuntime::State state() const { return stateOf(QStringLiteral("process-0")); }
    qint64 pid() const { return pidOf(QStringLiteral("process-0")); }

    std::unique_ptr<QTemporaryDir> m_sysfs;

private Q_SLOTS:
    void init()
    {
        setUpMonitorFixture(1);
        m_sysfs = std::make_unique<QTemporaryDir>();
    }
    void cleanup()
    {
        QVERIFY(tearDownMonitorFixture());
        m_sysfs.reset();
    }

    // Unplugged: the running workload stops; plugged in again: it starts again.
    void stopsOnBatteryAndStartsOnAc()
    {
        setPlugged(true);
        startMonitor(QStringLiteral("on_battery=pause"));
        QTRY_COMPARE_WITH_TIMEOUT(state(), WorkloadRuntime::Running, 5000);
        QCOMPARE(m_monitor->state().snapshot.power, (PowerState{true, false, QStringLiteral("AC")}));
        const qint64 firstPid = pid();

        setPlugged(false);
        QTRY_COMPARE_WITH_TIMEOUT(state(), WorkloadRuntime::Stopped, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(firstPid), 3000);
        const MonitorState stopped = m_monitor->state();
        QCOMPARE(stopped.snapshot.power, (PowerState{true, true, QStringLiteral("BAT0")}));
        QCOMPARE(stopped.decision.hold, HoldReason::OnBattery);
        QCOMPARE(stopped.decision.workloadReasons.value(QStringLiteral("process-0")).text,
                 QStringLiteral("the computer runs on battery"));
        QTest::qWait(1500); // a poll later it is still held back
        QCOMPARE(state(), WorkloadRuntime::Stopped);

        setPlugged(true);
        QTRY_COMPARE_WITH_TIMEOUT(state(), WorkloadRuntime::Running, 5000);
        QVERIFY(pid() != firstPid);
        QCOMPARE(m_monitor->state().decision.hold, HoldReason::None);
    }

    // Started on battery: nothing runs until the machine is plugged in.
    void startedOnBatteryWaitsForAc()
    {
        setPlugged(false);
        startMonitor(QStringLiteral("on_battery=pause"));
        QTest::qWait(1500);
        QCOMPARE(state(), WorkloadRuntime::Stopped);
        QCOMPARE(m_monitor->state().decision.hold, HoldReason::OnBattery);
        setPlugged(true);
        QTRY_COMPARE_WITH_TIMEOUT(state(), WorkloadRuntime::Running, 5000);
    }

    // on_battery = run: the supplies are not watched and the workload runs on battery; a reload to pause stops it.
    void runIgnoresTheBatteryUntilReloaded()
    {
        setPlugged(false);
        startMonitor(QStringLiteral("on_battery=run"));
        QTRY_COMPARE_WITH_TIMEOUT(state(), WorkloadRuntime::Running, 5000);
        QCOMPARE(m_monitor->state().snapshot.power, PowerState());

        writePowerConfig(QStringLiteral("on_battery=pause"));
        QTRY_COMPARE_WITH_TIMEOUT(state(), WorkloadRuntime::Stopped, 5000);
        QCOMPARE(m_monitor->state().decision.hold, HoldReason::OnBattery);
    }

    // --status reads the supplies once and says where the power comes from, and what on_battery makes of it.
    void statusSaysWhereThePowerComesFrom_data()
    {
        QTest::addColumn<bool>("plugged");
        QTest::addColumn<QString>("onBattery");
        QTest::addColumn<QString>("powerLine");
        QTest::addColumn<QString>("workloadLine");
        QTest::newRow("on AC") << true << "on_battery=pause" << "Power: on AC (AC)\n" << ": would run\n";
        QTest::newRow("on battery") << false << "on_battery=pause" << "Power: on battery (BAT0)\n"
                                    << ": the computer runs on battery\n";
        QTest::newRow("on battery, run") << false << "on_battery=run"
                                         << "Power: on battery (BAT0), workloads run all the same (on_battery = run)\n"
                                         << ": would run\n";
    }

    void statusSaysWhereThePowerComesFrom()
    {
        QFETCH(bool, plugged);
        QFETCH(QString, onBattery);
        QFETCH(QString, powerLine);
        QFETCH(QString, workloadLine);
        setPlugged(plugged);
        const ConfigLoadResult loaded = ConfigLoader::load(writePowerConfig(onBattery));
        QVERIFY(loaded.ok());
        MonitorPaths paths;
        paths.sysfsRoot = m_sysfs->path();
        const MonitorState state = Monitor::lookOnce(loaded.config, paths);
        const QString text = StatusReport::formatText(state);
        QVERIFY2(text.contains(powerLine), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("[process-0] on GPUs 0") + workloadLine), qPrintable(text));
        const QJsonObject power = StatusReport::toJson(state).value(QStringLiteral("power")).toObject();
        QCOMPARE(power.value(QStringLiteral("on_battery")).toBool(), !plugged);
        QCOMPARE(power.value(QStringLiteral("source")).toString(), plugged ? QStringLiteral("AC") : QStringLiteral("BAT0"));
    }

    // A desktop (no supply at all) says nothing of power; the JSON has null.
    void statusOfADesktop()
    {
        const ConfigLoadResult loaded = ConfigLoader::load(writePowerConfig(QStringLiteral("on_battery=pause")));
        QVERIFY(loaded.ok());
        MonitorPaths paths;
        paths.sysfsRoot = m_sysfs->path();
        const MonitorState state = Monitor::lookOnce(loaded.config, paths);
        QVERIFY(!StatusReport::formatText(state).contains(QLatin1String("Power:")));
        QVERIFY(StatusReport::toJson(state).value(QStringLiteral("power")).isNull());
        QVERIFY(state.decision.workloadReasons.value(QStringLiteral("process-0")).text.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestPowerIntegration)
#include "tst_it_power.moc"
