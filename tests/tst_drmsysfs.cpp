// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// readDrmSysfsGpu (drmsysfs.h) over fake sysfs trees built in a temporary folder: an amdgpu card with every
// attribute, one without product name and with power1_input only, an Intel card, garbage in every file, a
// missing folder, and the /sys/class/drm/renderD128/device link that callers pass.
#include "backends/drmsysfs.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

using SysfsFiles = QMap<QString, QByteArray>; // path under the PCI device folder -> contents

namespace {
constexpr qint64 kAbsent = -1;

std::optional<qint64> optionalFrom(qint64 value)
{
    return value == kAbsent ? std::nullopt : std::optional<qint64>(value);
}

std::optional<qint64> widened(std::optional<int> value)
{
    return value ? std::optional<qint64>(*value) : std::nullopt;
}

const SysfsFiles kAmdgpu = {
    {"vendor", "0x1002\n"},
    {"device", "0x744c\n"},
    {"product_name", "AMD Radeon RX 7900 XTX\n"},
    {"unique_id", "1a2b3c4d5e6f7081\n"},
    {"gpu_busy_percent", "37\n"},
    {"mem_info_vram_used", "12884901888\n"},
    {"mem_info_vram_total", "25753026560\n"},
    {"hwmon/hwmon3/name", "amdgpu\n"},
    {"hwmon/hwmon3/temp1_input", "54000\n"},
    {"hwmon/hwmon3/power1_average", "231000000\n"},
    {"hwmon/hwmon3/power1_input", "199000000\n"},
};
} // namespace

class TestDrmSysfs : public QObject
{
    Q_OBJECT

    // Writes `files` into <dir>/devices/pci0000:00/0000:00:01.1/<slot>/ and returns that folder.
    static QString buildDevice(const QTemporaryDir &dir, const QString &slot, const SysfsFiles &files)
    {
        const QString folder = dir.filePath(QStringLiteral("devices/pci0000:00/0000:00:01.1/") + slot);
        QDir().mkpath(folder);
        for (auto it = files.cbegin(); it != files.cend(); ++it)
            TestSupport::writeFile(folder + QLatin1Char('/') + it.key(), it.value());
        return folder;
    }

private Q_SLOTS:
    void fields_data()
    {
        QTest::addColumn<SysfsFiles>("files");
        QTest::addColumn<QString>("slot");
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("busId");
        QTest::addColumn<QString>("uuid");
        QTest::addColumn<qint64>("utilization");
        QTest::addColumn<qint64>("memoryUsed");
        QTest::addColumn<qint64>("memoryTotal");
        QTest::addColumn<qint64>("temperature");
        QTest::addColumn<qint64>("power");

        QTest::newRow("amdgpu, every attribute: power1_average preferred")
            << kAmdgpu << "0000:03:00.0" << "AMD Radeon RX 7900 XTX" << "0000:03:00.0" << "GPU-1a2b3c4d5e6f7081"
            << qint64(37) << qint64(12884901888) << qint64(25753026560) << qint64(54) << qint64(231000);

        SysfsFiles noName = kAmdgpu;
        noName.remove(QStringLiteral("product_name"));
        noName.remove(QStringLiteral("unique_id"));
        noName.remove(QStringLiteral("hwmon/hwmon3/power1_average"));
        noName[QStringLiteral("hwmon/hwmon3/temp1_input")] = "54600\n"; // rounds to 55
        QTest::newRow("amdgpu without product name or unique id, power1_input only")
            << noName << "0000:0C:00.0" << "AMD GPU 1002:744c" << "0000:0c:00.0" << "" << qint64(37)
            << qint64(12884901888) << qint64(25753026560) << qint64(55) << qint64(199000);

        SysfsFiles blankName = kAmdgpu;
        blankName[QStringLiteral("product_name")] = "\n";
        blankName[QStringLiteral("unique_id")] = "\n"; // amdgpu prints nothing when the id is 0
        QTest::newRow("amdgpu with blank product name and unique id")
            << blankName << "0000:03:00.0" << "AMD GPU 1002:744c" << "0000:03:00.0" << "" << qint64(37)
            << qint64(12884901888) << qint64(25753026560) << qint64(54) << qint64(231000);

        const SysfsFiles intel = {{"vendor", "0x8086\n"}, {"device", "0x56a0\n"},
                                  {"hwmon/hwmon5/name", "i915\n"}, {"hwmon/hwmon5/power1_max", "190000000\n"}};
        QTest::newRow("Intel: name from the PCI ids, no metrics")
            << intel << "0000:03:00.0" << "Intel GPU 8086:56a0" << "0000:03:00.0" << "" << kAbsent << kAbsent
            << kAbsent << kAbsent << kAbsent;

        const SysfsFiles other = {{"vendor", "0x1a03\n"}, {"device", "0x2000\n"}};
        QTest::newRow("other vendor") << other << "0000:05:00.0" << "GPU 1a03:2000" << "0000:05:00.0" << ""
                                      << kAbsent << kAbsent << kAbsent << kAbsent << kAbsent;

        const SysfsFiles garbage = {
            {"vendor", "0x1002\n"},
            {"device", "garbage"},
            {"product_name", QByteArray("\x01\x02\xff\xfe", 4)},
            {"unique_id", "not-hex-at-all!!\n"},
            {"gpu_busy_percent", "101\n"},
            {"mem_info_vram_used", "-5\n"},
            {"mem_info_vram_total", "99999999999999999999999\n"},
            {"hwmon/hwmon0/temp1_input", "54000 degrees\n"},
            {"hwmon/hwmon0/power1_average", QByteArray(8000, '7')},
            {"hwmon/hwmon0/power1_input", "12.5\n"},
        };
        QTest::newRow("garbage in every file") << garbage << "0000:03:00.0" << "AMD GPU 1002" << "0000:03:00.0"
                                               << "" << kAbsent << kAbsent << kAbsent << kAbsent << kAbsent;

        const SysfsFiles outOfRange = {
            {"vendor", "0x10020\n"},
            {"unique_id", "1a2b3c4d5e6f70811\n"}, // 17 digits
            {"gpu_busy_percent", "-1\n"},
            {"mem_info_vram_used", "2251799813685249\n"}, // above 1 PiB
            {"hwmon/hwmon0/temp1_input", "-273150000\n"},
            {"hwmon/hwmon0/power1_average", "-5\n"},
        };
        QTest::newRow("numbers out of range") << outOfRange << "0000:03:00.0" << "GPU" << "0000:03:00.0" << ""
                                              << kAbsent << kAbsent << kAbsent << kAbsent << kAbsent;

        SysfsFiles twoHwmons = {{"vendor", "0x1002\n"},
                                {"device", "0x73bf\n"},
                                {"hwmon/hwmon1/temp1_input", "41000\n"},
                                {"hwmon/hwmon2/power1_input", "15000000\n"},
                                {"hwmon/hwmon2/temp1_input", "99000\n"}};
        QTest::newRow("metrics spread over two hwmon folders: the first one's temperature")
            << twoHwmons << "0000:03:00.0" << "AMD GPU 1002:73bf" << "0000:03:00.0" << "" << kAbsent << kAbsent
            << kAbsent << qint64(41) << qint64(15000);

        QTest::newRow("folder that is not a PCI slot") << kAmdgpu << "card0" << "AMD Radeon RX 7900 XTX" << ""
                                                       << "GPU-1a2b3c4d5e6f7081" << qint64(37) << qint64(12884901888)
                                                       << qint64(25753026560) << qint64(54) << qint64(231000);
    }
    void fields()
    {
        QFETCH(SysfsFiles, files);
        QFETCH(QString, slot);
        QFETCH(QString, name);
        QFETCH(QString, busId);
        QFETCH(QString, uuid);
        QFETCH(qint64, utilization);
        QFETCH(qint64, memoryUsed);
        QFETCH(qint64, memoryTotal);
        QFETCH(qint64, temperature);
        QFETCH(qint64, power);

        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        const GpuInfo gpu = readDrmSysfsGpu(buildDevice(dir, slot, files));
        QCOMPARE(gpu.name, name);
        QCOMPARE(gpu.busId, busId);
        QCOMPARE(gpu.uuid, uuid);
        QCOMPARE(widened(gpu.utilizationPercent), optionalFrom(utilization));
        QCOMPARE(gpu.memoryUsedBytes, optionalFrom(memoryUsed));
        QCOMPARE(gpu.memoryTotalBytes, optionalFrom(memoryTotal));
        QCOMPARE(widened(gpu.temperatureCelsius), optionalFrom(temperature));
        QCOMPARE(widened(gpu.powerMilliwatts), optionalFrom(power));
        QCOMPARE(gpu.index, -1);
        QCOMPARE(gpu.backendIndex, -1);
        QCOMPARE(gpu.processesKnown, false);
    }

    // i915 and xe count energy in microjoules (energy1_input): read as millijoules; garbage leaves it absent.
    void energyCounter_data()
    {
        QTest::addColumn<QByteArray>("contents");
        QTest::addColumn<qint64>("millijoules");
        QTest::newRow("counter") << QByteArray("123456789012\n") << qint64(123456789);
        QTest::newRow("absent") << QByteArray() << kAbsent;
        QTest::newRow("negative") << QByteArray("-5\n") << kAbsent;
        QTest::newRow("not a number") << QByteArray("12 uJ\n") << kAbsent;
    }
    void energyCounter()
    {
        QFETCH(QByteArray, contents);
        QFETCH(qint64, millijoules);
        SysfsFiles files = {{"vendor", "0x8086\n"}, {"device", "0x56a0\n"}, {"hwmon/hwmon5/name", "i915\n"}};
        if (!contents.isEmpty())
            files.insert(QStringLiteral("hwmon/hwmon5/energy1_input"), contents);
        QTemporaryDir dir;
        const GpuInfo gpu = readDrmSysfsGpu(buildDevice(dir, QStringLiteral("0000:03:00.0"), files));
        QCOMPARE(gpu.energyMillijoules, optionalFrom(millijoules));
        QVERIFY(!gpu.powerMilliwatts);
    }

    // Callers pass /sys/class/drm/renderD128/device, a link: the bus id comes from where it leads.
    void throughTheDrmClassLink()
    {
        QTemporaryDir dir;
        const QString folder = buildDevice(dir, QStringLiteral("0000:03:00.0"), kAmdgpu);
        const QString renderNode = dir.filePath(QStringLiteral("class/drm/renderD128"));
        QVERIFY(QDir().mkpath(renderNode));
        QVERIFY(QFile::link(folder, renderNode + QStringLiteral("/device")));
        const GpuInfo gpu = readDrmSysfsGpu(renderNode + QStringLiteral("/device"));
        QCOMPARE(gpu.busId, QStringLiteral("0000:03:00.0"));
        QCOMPARE(gpu.name, QStringLiteral("AMD Radeon RX 7900 XTX"));
        QCOMPARE(gpu.utilizationPercent, std::optional<int>(37));
    }

    // The GPU went away (unbound, unplugged) between discovery and the sample.
    void missingFolder()
    {
        QTemporaryDir dir;
        const GpuInfo gpu = readDrmSysfsGpu(dir.filePath(QStringLiteral("0000:09:00.0")));
        QCOMPARE(gpu.name, QStringLiteral("GPU"));
        QCOMPARE(gpu.busId, QStringLiteral("0000:09:00.0"));
        QCOMPARE(gpu.uuid, QString());
        QCOMPARE(gpu.utilizationPercent, std::nullopt);
        QCOMPARE(gpu.memoryUsedBytes, std::nullopt);
        QCOMPARE(gpu.temperatureCelsius, std::nullopt);
        QCOMPARE(gpu.powerMilliwatts, std::nullopt);
    }

    // An attribute that exists but cannot be read (amdgpu answers reads with an error while the GPU resets):
    // a folder in its place makes read() fail the same way.
    void unreadableAttribute()
    {
        QTemporaryDir dir;
        SysfsFiles files = kAmdgpu;
        files.remove(QStringLiteral("gpu_busy_percent"));
        const QString folder = buildDevice(dir, QStringLiteral("0000:03:00.0"), files);
        QVERIFY(QDir().mkpath(folder + QStringLiteral("/gpu_busy_percent")));
        const GpuInfo gpu = readDrmSysfsGpu(folder);
        QCOMPARE(gpu.utilizationPercent, std::nullopt);
        QCOMPARE(gpu.temperatureCelsius, std::optional<int>(54));
    }
};

QTEST_GUILESS_MAIN(TestDrmSysfs)
#include "tst_drmsysfs.moc"
