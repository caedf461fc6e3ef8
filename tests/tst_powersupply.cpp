// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// PowerSupply: the judgement over what the supplies say (a table), the reading of a fixture
// <sysfs_root>/class/power_supply with hostile contents, the parsing of kernel uevents, and the watcher's poll.
#include "conditions/powersupply.h"
#include "testsupport.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <poll.h>
#include <unistd.h>

Q_DECLARE_METATYPE(PowerSupplyReading)
Q_DECLARE_METATYPE(PowerState)

namespace {

using Readings = QList<PowerSupplyReading>;

PowerSupplyReading mains(const QString &name, const QString &online)
{
    return {name, QStringLiteral("Mains"), QString(), online, QString()};
}
PowerSupplyReading usb(const QString &name, const QString &online, const QString &type = QStringLiteral("USB"))
{
    return {name, type, QString(), online, QString()};
}
PowerSupplyReading battery(const QString &name, const QString &status, const QString &scope = QString())
{
    return {name, QStringLiteral("Battery"), scope, QString(), status};
}
PowerState onAc(const QString &source) { return {true, false, source}; }
PowerState onBattery(const QString &source) { return {true, true, source}; }

// A fake sysfs: <root>/class/power_supply/<name>/<attribute>.
class FakeSysfs
{
public:
    QString path() const { return m_dir.path(); }
    QString supply(const QString &name) const
    {
        return m_dir.filePath(QStringLiteral("class/power_supply/") + name);
    }
    void write(const QString &name, const QString &attribute, const QByteArray &contents)
    {
        TestSupport::writeFile(supply(name) + QLatin1Char('/') + attribute, contents);
    }
    // A laptop: an AC adapter and a battery (with a mouse's battery beside them, which must not count).
    void laptop(bool plugged)
    {
        write(QStringLiteral("AC"), QStringLiteral("type"), "Mains\n");
        write(QStringLiteral("AC"), QStringLiteral("online"), plugged ? "1\n" : "0\n");
        write(QStringLiteral("BAT0"), QStringLiteral("type"), "Battery\n");
        write(QStringLiteral("BAT0"), QStringLiteral("status"), plugged ? "Charging\n" : "Discharging\n");
        write(QStringLiteral("hidpp_battery_0"), QStringLiteral("type"), "Battery\n");
        write(QStringLiteral("hidpp_battery_0"), QStringLiteral("scope"), "Device\n");
        write(QStringLiteral("hidpp_battery_0"), QStringLiteral("status"), "Discharging\n");
    }

private:
    QTemporaryDir m_dir;
};

} // namespace

class TestPowerSupply : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void judge_data()
    {
        QTest::addColumn<Readings>("supplies");
        QTest::addColumn<PowerState>("expected");
        QTest::newRow("nothing: a desktop") << Readings{} << PowerState();
        QTest::newRow("laptop on AC") << Readings{mains("AC", "1"), battery("BAT0", "Charging")} << onAc("AC");
        QTest::newRow("laptop on battery")
            << Readings{mains("AC", "0"), battery("BAT0", "Discharging")} << onBattery("BAT0");
        QTest::newRow("full battery on AC") << Readings{mains("AC", "1"), battery("BAT0", "Full")} << onAc("AC");
        // Some laptops report their battery discharging under load while plugged in: the adapter decides.
        QTest::newRow("discharging while plugged in")
            << Readings{mains("AC", "1"), battery("BAT0", "Discharging")} << onAc("AC");
        QTest::newRow("USB-C charger") << Readings{usb("ucsi-source-psy-USBC000:001", "1"), mains("AC", "0"),
                                                   battery("BAT0", "Charging")}
                                       << onAc("ucsi-source-psy-USBC000:001");
        QTest::newRow("USB PD, older kernel") << Readings{usb("tcpm-source-psy", "2", "USB_PD"),
                                                          battery("BAT0", "Discharging")}
                                              << onAc("tcpm-source-psy");
        QTest::newRow("second battery discharges")
            << Readings{mains("AC", "0"), battery("BAT0", "Unknown"), battery("BAT1", "Discharging")}
            << onBattery("BAT1");
        QTest::newRow("battery not charging, no adapter listed")
            << Readings{battery("BAT0", "Not charging")} << onAc("BAT0");
        QTest::newRow("status unreadable") << Readings{mains("AC", "0"), battery("BAT0", "")} << onAc("BAT0");
        // A desktop with a wireless mouse: the mouse's battery is the mouse's business.
        QTest::newRow("mouse battery only") << Readings{battery("hidpp_battery_0", "Discharging", "Device")}
                                            << PowerState();
        QTest::newRow("mouse battery on a laptop")
            << Readings{mains("AC", "1"), battery("hidpp_battery_0", "Discharging", "Device"),
                        battery("BAT0", "Full")}
            << onAc("AC");
        QTest::newRow("USB ports of a desktop, offline") << Readings{usb("ucsi-source-psy-USBC000:001", "0")}
                                                         << PowerState();
        QTest::newRow("desktop with an ACPI adapter") << Readings{mains("ACAD", "1")} << onAc("ACAD");
        QTest::newRow("online garbage") << Readings{mains("AC", "yes"), battery("BAT0", "Discharging")}
                                        << onBattery("BAT0");
        QTest::newRow("status in other case") << Readings{mains("AC", "0"), battery("BAT0", "discharging")}
                                              << onAc("BAT0");
        QTest::newRow("unknown type") << Readings{{"X", "Gizmo", "", "1", "Discharging"}} << PowerState();
        QTest::newRow("device charger") << Readings{{"dock", "Mains", "Device", "1", ""}, battery("BAT0", "Discharging")}
                                        << onBattery("BAT0");
    }

    void judge()
    {
        QFETCH(Readings, supplies);
        QFETCH(PowerState, expected);
        const PowerState power = PowerSupply::judge(supplies);
        QCOMPARE(power.known, expected.known);
        QCOMPARE(power.onBattery, expected.onBattery);
        QCOMPARE(power.source, expected.source);
    }

    void readsALaptop()
    {
        FakeSysfs sysfs;
        sysfs.laptop(false);
        const Readings supplies = PowerSupply::read(sysfs.path());
        QCOMPARE(supplies.size(), 3);
        QCOMPARE(supplies.at(0), (PowerSupplyReading{"AC", "Mains", "", "0", ""}));
        QCOMPARE(supplies.at(1), (PowerSupplyReading{"BAT0", "Battery", "", "", "Discharging"}));
        QCOMPARE(supplies.at(2).scope, QStringLiteral("Device"));
        QCOMPARE(PowerSupply::readState(sysfs.path()), onBattery("BAT0"));

        sysfs.laptop(true);
        QCOMPARE(PowerSupply::readState(sysfs.path()), onAc("AC"));
        // On AC the battery's status decides nothing: its firmware is not asked.
        QCOMPARE(PowerSupply::read(sysfs.path()).at(1).status, QString());
    }

    // Files vanish, folders are half there, contents are garbage: nothing crashes, nothing is made up.
    void hostileTree()
    {
        FakeSysfs sysfs;
        QCOMPARE(PowerSupply::readState(sysfs.path()), PowerState()); // no class/power_supply at all
        QCOMPARE(PowerSupply::readState(sysfs.path() + QStringLiteral("/missing")), PowerState());

        sysfs.write(QStringLiteral("BAT0"), QStringLiteral("type"), "Battery\n");
        sysfs.write(QStringLiteral("BAT0"), QStringLiteral("status"), "Discharging\n");
        sysfs.write(QStringLiteral("AC"), QStringLiteral("type"), "Mains\n"); // online missing
        QDir().mkpath(sysfs.supply(QStringLiteral("empty")));                  // a supply gone but for its folder
        sysfs.write(QStringLiteral("binary"), QStringLiteral("type"), QByteArray("Mains\0\xff\xfe", 8));
        sysfs.write(QStringLiteral("binary"), QStringLiteral("online"), "1\n");
        sysfs.write(QStringLiteral("huge"), QStringLiteral("type"), QByteArray(1 << 20, 'M'));
        sysfs.write(QStringLiteral("huge"), QStringLiteral("online"), "1\n");
        sysfs.write(QStringLiteral("twolines"), QStringLiteral("type"), "USB\nMains\n");
        sysfs.write(QStringLiteral("twolines"), QStringLiteral("online"), "-1\n");
        TestSupport::writeFile(sysfs.supply(QStringLiteral("afile")), "Mains\n"); // a file, not a folder
        QVERIFY(QFile::link(sysfs.supply(QStringLiteral("unplugged-target")),
                            sysfs.supply(QStringLiteral("dangling")))); // a device gone, its link left
        const Readings supplies = PowerSupply::read(sysfs.path());
        QStringList names;
        for (const PowerSupplyReading &supply : supplies)
            names.append(supply.name);
        QCOMPARE(names, (QStringList{"AC", "BAT0", "twolines"}));
        QCOMPARE(supplies.at(2).type, QStringLiteral("USB"));
        QCOMPARE(PowerSupply::judge(supplies), onBattery("BAT0"));
    }

    void uevents_data()
    {
        QTest::addColumn<QByteArray>("message");
        QTest::addColumn<bool>("aboutPower");
        const QByteArray adapter("change@/devices/LNXSYSTM:00/LNXSYBUS:00/ACPI0003:00/power_supply/AC\0"
                                 "ACTION=change\0DEVPATH=/devices/LNXSYSTM:00/LNXSYBUS:00/ACPI0003:00/power_supply/AC\0"
                                 "SUBSYSTEM=power_supply\0POWER_SUPPLY_NAME=AC\0POWER_SUPPLY_ONLINE=0\0SEQNUM=4242\0",
                                 200);
        QTest::newRow("adapter change") << adapter << true;
        QTest::newRow("adapter change, cut short") << adapter.left(adapter.indexOf("POWER_SUPPLY_NAME")) << true;
        QTest::newRow("no null byte at the end") << adapter.left(adapter.indexOf("SUBSYSTEM") + 22) << true;
        // As the kernel sent it to this machine (see kernelSocketDelivers).
        QTest::newRow("another subsystem")
            << QByteArray("change@/devices/virtual/mem/null\0ACTION=change\0DEVPATH=/devices/virtual/mem/null\0"
                          "SUBSYSTEM=mem\0MAJOR=1\0MINOR=3\0DEVNAME=null\0SEQNUM=823\0", 118)
            << false;
        QTest::newRow("udev's message") << QByteArray("libudev\0\xfe\xed\xca\xfeSUBSYSTEM=power_supply\0", 32)
                                        << false;
        QTest::newRow("no header") << QByteArray("SUBSYSTEM=power_supply\0ACTION=change\0", 37) << false;
        QTest::newRow("subsystem in the header only")
            << QByteArray("change@/SUBSYSTEM=power_supply\0ACTION=change\0", 45) << false;
        QTest::newRow("similar subsystem")
            << QByteArray("add@/devices/x\0SUBSYSTEM=power_supply_x\0", 40) << false;
        QTest::newRow("empty") << QByteArray() << false;
        QTest::newRow("garbage") << QByteArray("\xff\xff@\0\0\0", 6) << false;
    }

    void uevents()
    {
        QFETCH(QByteArray, message);
        QFETCH(bool, aboutPower);
        QCOMPARE(PowerSupply::isPowerSupplyEvent(message), aboutPower);
    }

    // The socket the watcher listens on receives what the kernel announces. A uevent can be had on demand only by
    // writing to a device's uevent file (root, writable /sys): /dev/null's, which is not a power supply.
    void kernelSocketDelivers()
    {
        QString error;
        const int fd = PowerSupply::openUeventSocket(&error);
        if (fd < 0)
            QSKIP(qPrintable(QStringLiteral("no uevent socket here: %1").arg(error)));
        const auto closeSocket = qScopeGuard([fd] { ::close(fd); });
        QFile trigger(QStringLiteral("/sys/devices/virtual/mem/null/uevent"));
        if (!trigger.open(QIODevice::WriteOnly) || trigger.write("change") < 0)
            QSKIP("cannot make the kernel send a uevent here (needs root and a writable /sys)");
        trigger.close();
        QList<QByteArray> messages;
        for (int round = 0; round < 50 && messages.isEmpty(); ++round) {
            pollfd ready{fd, POLLIN, 0};
            ::poll(&ready, 1, 100); // test code may block
            bool lost = false;
            messages = PowerSupply::takeUevents(fd, &lost);
        }
        QVERIFY(std::any_of(messages.cbegin(), messages.cend(), [](const QByteArray &m) {
            return m.startsWith("change@/devices/virtual/mem/null") && !PowerSupply::isPowerSupplyEvent(m);
        }));
    }

    // On the kernel's own /sys the watcher listens to uevents where it may; a fixture root cannot have them.
    void watcherListensOnlyOnTheRealSysfs()
    {
        FakeSysfs sysfs;
        PowerSupplyWatcher fixture(sysfs.path());
        QVERIFY(!fixture.eventDriven());
        PowerSupplyWatcher real(QStringLiteral("/sys/"));
        if (PowerSupply::openUeventSocket() >= 0) // (leaks one fd of the test)
            QVERIFY(real.eventDriven());
    }

    // Without uevents a change is seen at the next poll, and only a change is announced.
    void watcherPollsWithoutEvents()
    {
        FakeSysfs sysfs;
        sysfs.laptop(true);
        PowerSupplyWatcher watcher(sysfs.path());
        QCOMPARE(watcher.state(), onAc("AC"));
        QSignalSpy changed(&watcher, &PowerSupplyWatcher::changed);
        watcher.poll();
        QCOMPARE(changed.count(), 0);

        sysfs.laptop(false);
        QCOMPARE(changed.count(), 0); // nothing reads before the poll
        watcher.poll();
        QCOMPARE(changed.count(), 1);
        QCOMPARE(changed.at(0).at(0).value<PowerState>(), onBattery("BAT0"));
        QCOMPARE(watcher.state(), onBattery("BAT0"));

        QVERIFY(QDir(sysfs.path() + QStringLiteral("/class")).removeRecursively()); // every supply gone
        watcher.poll();
        QCOMPARE(changed.count(), 2);
        QCOMPARE(watcher.state(), PowerState());
    }
};

QTEST_GUILESS_MAIN(TestPowerSupply)
#include "tst_powersupply.moc"
