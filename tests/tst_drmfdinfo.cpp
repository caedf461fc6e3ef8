// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The DRM fdinfo parser (drmfdinfo.h) on real-looking amdgpu, i915 and xe texts (tests/data/fdinfo/), on hostile
// text line by line, the per-process view by GPU, the busy percentage from two samples, and the reader over a
// fake proc root and the real /proc.
#include "backends/drmfdinfo.h"
#include "testsupport.h"

#include <QCoreApplication>
#include <QFile>
#include <QRandomGenerator>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <unistd.h>

Q_DECLARE_METATYPE(DrmEngineUsage)

namespace {
constexpr qint64 kKiB = 1024;
constexpr qint64 kMiB = 1024 * kKiB;
constexpr qint64 kAbsent = -1; // in the tables: an optional value that must be absent

QByteArray fixture(const QString &name)
{
    QFile file(QStringLiteral(IDLEGPU_TEST_DATA "/fdinfo/") + name);
    if (!file.open(QIODevice::ReadOnly))
        qFatal("missing fixture %s", qPrintable(file.fileName()));
    return file.readAll();
}

DrmFdInfo parsedFixture(const QString &name)
{
    const std::optional<DrmFdInfo> info = parseDrmFdInfo(fixture(name));
    if (!info)
        qFatal("fixture %s does not parse", qPrintable(name));
    return *info;
}

std::optional<qint64> optionalFrom(qint64 value)
{
    return value == kAbsent ? std::nullopt : std::optional<qint64>(value);
}

std::optional<bool> optionalBool(int value)
{
    return value < 0 ? std::nullopt : std::optional<bool>(value != 0);
}

DrmEngineUsage engineOf(std::optional<qint64> busyNs, std::optional<qint64> cycles = std::nullopt,
                        std::optional<qint64> totalCycles = std::nullopt, std::optional<qint64> capacity = std::nullopt)
{
    DrmEngineUsage usage;
    usage.busyNs = busyNs;
    usage.cycles = cycles;
    usage.totalCycles = totalCycles;
    usage.capacity = capacity;
    return usage;
}
} // namespace

class TestDrmFdInfo : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void fixtures_data()
    {
        QTest::addColumn<QString>("file");
        QTest::addColumn<QString>("driver");
        QTest::addColumn<QString>("pdev");
        QTest::addColumn<qint64>("clientId");
        QTest::addColumn<qint64>("gpuMemoryBytes");
        QTest::addColumn<int>("usedCompute");
        QTest::addColumn<QStringList>("engines");

        QTest::newRow("amdgpu computing: resident vram, gtt and cpu not counted")
            << "amdgpu_compute.txt" << "amdgpu" << "0000:03:00.0" << qint64(42) << 3145732 * kKiB << 1
            << QStringList{"compute", "gfx"};
        QTest::newRow("amdgpu before 6.11: drm-memory-vram only, graphics only")
            << "amdgpu_legacy_graphics.txt" << "amdgpu" << "0000:0c:00.0" << qint64(7) << 262144 * kKiB << 0
            << QStringList{"dma", "gfx"};
        QTest::newRow("amdgpu client that submitted nothing: no engine lines, so no compute")
            << "amdgpu_idle.txt" << "amdgpu" << "0000:03:00.0" << qint64(43) << qint64(0) << 0 << QStringList{};
        QTest::newRow("i915 discrete: local0, compute engine busy")
            << "i915_discrete_compute.txt" << "i915" << "0000:03:00.0" << qint64(7) << 1030 * kMiB << 1
            << QStringList{"compute", "copy", "render", "video", "video-enhance"};
        QTest::newRow("i915 integrated: system0 (not stolen), no compute class")
            << "i915_integrated.txt" << "i915" << "0000:00:02.0" << qint64(12) << 161 * kMiB << 0
            << QStringList{"copy", "render", "video", "video-enhance"};
        QTest::newRow("xe discrete: vram0 only, ccs idle")
            << "xe_discrete.txt" << "xe" << "0000:03:00.0" << qint64(3) << 23992 * kKiB << 0
            << QStringList{"bcs", "ccs", "rcs", "vcs", "vecs"};
        QTest::newRow("xe integrated: system and gtt, ccs cycles")
            << "xe_integrated_compute.txt" << "xe" << "0000:00:02.0" << qint64(18) << 1544 * kMiB << 1
            << QStringList{"bcs", "ccs", "rcs"};
    }
    void fixtures()
    {
        QFETCH(QString, file);
        QFETCH(QString, driver);
        QFETCH(QString, pdev);
        QFETCH(qint64, clientId);
        QFETCH(qint64, gpuMemoryBytes);
        QFETCH(int, usedCompute);
        QFETCH(QStringList, engines);
        const DrmFdInfo info = parsedFixture(file);
        QCOMPARE(info.driver, driver);
        QCOMPARE(info.pdev, pdev);
        QCOMPARE(info.clientId, std::optional<quint64>(quint64(clientId)));
        QCOMPARE(info.gpuMemoryBytes(), optionalFrom(gpuMemoryBytes));
        QCOMPARE(info.usedCompute(), optionalBool(usedCompute));
        QCOMPARE(info.engines.keys(), engines);
    }

    void amdgpuFields()
    {
        const DrmFdInfo info = parsedFixture(QStringLiteral("amdgpu_compute.txt"));
        QCOMPARE(info.engines.value(QStringLiteral("gfx")), engineOf(1234567));
        QCOMPARE(info.engines.value(QStringLiteral("compute")), engineOf(987654321));
        QCOMPARE(info.regions.keys(), (QStringList{"cpu", "gtt", "vram"}));
        const DrmRegionMemory vram = info.regions.value(QStringLiteral("vram"));
        QCOMPARE(vram.total, std::optional<qint64>(3145732 * kKiB));
        QCOMPARE(vram.shared, std::optional<qint64>(0));
        QCOMPARE(vram.resident, std::optional<qint64>(3145732 * kKiB));
        QCOMPARE(vram.purgeable, std::optional<qint64>(0));
        QCOMPARE(vram.active, std::nullopt);
        QCOMPARE(vram.legacyMemory, std::optional<qint64>(3145732 * kKiB));
        // "drm-memory-gtt: \t2048 KiB": a space before the tab
        QCOMPARE(info.regions.value(QStringLiteral("gtt")).legacyMemory, std::optional<qint64>(2 * kMiB));
    }

    void xeFields()
    {
        const DrmFdInfo info = parsedFixture(QStringLiteral("xe_discrete.txt"));
        QCOMPARE(info.engines.value(QStringLiteral("rcs")), engineOf(std::nullopt, 28257900, 7655183225));
        QCOMPARE(info.engines.value(QStringLiteral("ccs")), engineOf(std::nullopt, 0, 7655183225, 4));
        QCOMPARE(info.engines.value(QStringLiteral("vcs")).capacityOrOne(), 2);
        QCOMPARE(info.engines.value(QStringLiteral("rcs")).capacityOrOne(), 1);
        QCOMPARE(info.regions.value(QStringLiteral("vram0")).shared, std::optional<qint64>(16 * kMiB));
        QCOMPARE(info.regions.value(QStringLiteral("stolen")).resident, std::optional<qint64>(0));
    }

    void notDrm_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("regular file") << fixture(QStringLiteral("regular_file.txt"));
        QTest::newRow("eventfd") << fixture(QStringLiteral("eventfd.txt"));
        QTest::newRow("empty") << QByteArray();
        QTest::newRow("driver without value") << QByteArray("drm-driver:\t\ndrm-client-id: 4\n");
        QTest::newRow("driver with a space") << QByteArray("drm-driver: amd gpu\n");
        QTest::newRow("driver with a control byte") << QByteArray("drm-driver: amd\x01gpu\n");
        QTest::newRow("driver line without colon") << QByteArray("drm-driver amdgpu\n");
        QTest::newRow("driver key with a space") << QByteArray("drm- driver: amdgpu\n");
        QTest::newRow("only usage keys") << QByteArray("drm-client-id: 4\ndrm-engine-gfx: 5 ns\n");
        QTest::newRow("NUL in the key") << QByteArray("drm-dri\0ver: amdgpu\n", 21);
        QTest::newRow("truncated in the key") << QByteArray("pos: 0\ndrm-dri");
    }
    void notDrm()
    {
        QFETCH(QByteArray, text);
        QCOMPARE(parseDrmFdInfo(text).has_value(), false);
    }

    // One line after "drm-driver: amdgpu"; `field` names what it should set: resident-vram, engine-gfx,
    // capacity-gfx, cycles-ccs or client-id.
    void hostileValues_data()
    {
        QTest::addColumn<QByteArray>("lines");
        QTest::addColumn<QString>("field");
        QTest::addColumn<qint64>("expected");

        QTest::newRow("bytes without unit") << QByteArray("drm-resident-vram: 12") << "resident-vram" << qint64(12);
        QTest::newRow("KiB") << QByteArray("drm-resident-vram:\t12 KiB") << "resident-vram" << 12 * kKiB;
        QTest::newRow("KiB without space") << QByteArray("drm-resident-vram: 12KiB") << "resident-vram" << 12 * kKiB;
        QTest::newRow("MiB") << QByteArray("drm-resident-vram: 3 MiB") << "resident-vram" << 3 * kMiB;
        QTest::newRow("GiB") << QByteArray("drm-resident-vram: 2 GiB") << "resident-vram" << 2048 * kMiB;
        QTest::newRow("CRLF") << QByteArray("drm-resident-vram: 12 KiB\r") << "resident-vram" << 12 * kKiB;
        QTest::newRow("trailing blanks") << QByteArray("drm-resident-vram: 12 KiB \t ") << "resident-vram"
                                         << 12 * kKiB;
        QTest::newRow("largest") << QByteArray("drm-resident-vram: 9223372036854775807") << "resident-vram"
                                 << qint64(9223372036854775807);
        QTest::newRow("largest in KiB") << QByteArray("drm-resident-vram: 9007199254740991 KiB") << "resident-vram"
                                        << qint64(9007199254740991) * kKiB;
        QTest::newRow("overflow by the unit") << QByteArray("drm-resident-vram: 9007199254740992 KiB")
                                              << "resident-vram" << kAbsent;
        QTest::newRow("overflow") << QByteArray("drm-resident-vram: 9223372036854775808") << "resident-vram"
                                  << kAbsent;
        QTest::newRow("huge number") << QByteArray("drm-resident-vram: " + QByteArray(5000, '9')) << "resident-vram"
                                     << kAbsent;
        QTest::newRow("negative") << QByteArray("drm-resident-vram: -5 KiB") << "resident-vram" << kAbsent;
        QTest::newRow("plus sign") << QByteArray("drm-resident-vram: +5") << "resident-vram" << kAbsent;
        QTest::newRow("unknown unit") << QByteArray("drm-resident-vram: 12 kB") << "resident-vram" << kAbsent;
        QTest::newRow("unit cut short") << QByteArray("drm-resident-vram: 12 Ki") << "resident-vram" << kAbsent;
        QTest::newRow("words after the unit") << QByteArray("drm-resident-vram: 12 KiB more") << "resident-vram"
                                              << kAbsent;
        QTest::newRow("fraction") << QByteArray("drm-resident-vram: 1.5 MiB") << "resident-vram" << kAbsent;
        QTest::newRow("hex") << QByteArray("drm-resident-vram: 0x10") << "resident-vram" << kAbsent;
        QTest::newRow("no value") << QByteArray("drm-resident-vram:") << "resident-vram" << kAbsent;
        QTest::newRow("NUL in the value") << QByteArray("drm-resident-vram: 1\0 KiB", 25) << "resident-vram"
                                          << kAbsent;
        QTest::newRow("duplicated key: the first counts")
            << QByteArray("drm-resident-vram: 1 KiB\ndrm-resident-vram: 2 KiB") << "resident-vram" << kKiB;
        QTest::newRow("a bad first value does not hide a good second")
            << QByteArray("drm-resident-vram: -1\ndrm-resident-vram: 2 KiB") << "resident-vram" << 2 * kKiB;
        QTest::newRow("key with a space") << QByteArray("drm-resident vram: 5") << "resident-vram" << kAbsent;
        QTest::newRow("region name with a byte above ASCII") << QByteArray("drm-resident-vr\xc3\xa4m: 5\n")
                                                             << "resident-vram" << kAbsent;
        QTest::newRow("legacy drm-memory stands in for resident") << QByteArray("drm-memory-vram: 4 KiB")
                                                                  << "resident-vram" << 4 * kKiB;

        QTest::newRow("engine ns") << QByteArray("drm-engine-gfx: 100 ns") << "engine-gfx" << qint64(100);
        QTest::newRow("engine without unit") << QByteArray("drm-engine-gfx: 100") << "engine-gfx" << qint64(100);
        QTest::newRow("engine in ms") << QByteArray("drm-engine-gfx: 100 ms") << "engine-gfx" << kAbsent;
        QTest::newRow("engine negative") << QByteArray("drm-engine-gfx: -100 ns") << "engine-gfx" << kAbsent;
        QTest::newRow("capacity") << QByteArray("drm-engine-capacity-gfx: 2") << "capacity-gfx" << qint64(2);
        QTest::newRow("capacity zero is not allowed") << QByteArray("drm-engine-capacity-gfx: 0") << "capacity-gfx"
                                                      << kAbsent;
        QTest::newRow("capacity absurd") << QByteArray("drm-engine-capacity-gfx: 100000") << "capacity-gfx"
                                         << kAbsent;
        QTest::newRow("capacity with a unit") << QByteArray("drm-engine-capacity-gfx: 2 ns") << "capacity-gfx"
                                              << kAbsent;
        QTest::newRow("cycles") << QByteArray("drm-cycles-ccs: 77") << "cycles-ccs" << qint64(77);
        QTest::newRow("cycles with a unit") << QByteArray("drm-cycles-ccs: 77 Hz") << "cycles-ccs" << kAbsent;
        QTest::newRow("client id") << QByteArray("drm-client-id: 18446") << "client-id" << qint64(18446);
        QTest::newRow("client id negative") << QByteArray("drm-client-id: -3") << "client-id" << kAbsent;
    }
    void hostileValues()
    {
        QFETCH(QByteArray, lines);
        QFETCH(QString, field);
        QFETCH(qint64, expected);
        const std::optional<DrmFdInfo> info = parseDrmFdInfo("drm-driver:\tamdgpu\n" + lines + '\n');
        QVERIFY(info);
        std::optional<qint64> value;
        if (field == QLatin1String("resident-vram"))
            value = info->regions.value(QStringLiteral("vram")).residentBytes();
        else if (field == QLatin1String("engine-gfx"))
            value = info->engines.value(QStringLiteral("gfx")).busyNs;
        else if (field == QLatin1String("capacity-gfx"))
            value = info->engines.value(QStringLiteral("gfx")).capacity;
        else if (field == QLatin1String("cycles-ccs"))
            value = info->engines.value(QStringLiteral("ccs")).cycles;
        else if (field == QLatin1String("client-id") && info->clientId)
            value = qint64(*info->clientId);
        QCOMPARE(value, optionalFrom(expected));
    }

    void pciSlot_data()
    {
        QTest::addColumn<QByteArray>("value");
        QTest::addColumn<QString>("pdev");
        QTest::newRow("plain") << QByteArray("0000:03:00.0") << "0000:03:00.0";
        QTest::newRow("upper case") << QByteArray("ABCD:0C:1F.7") << "abcd:0c:1f.7";
        QTest::newRow("eight-digit domain") << QByteArray("00000000:19:00.0") << "00000000:19:00.0";
        QTest::newRow("function 8") << QByteArray("0000:03:00.8") << "";
        QTest::newRow("one-digit bus") << QByteArray("0000:3:00.0") << "";
        QTest::newRow("no function") << QByteArray("0000:03:00") << "";
        QTest::newRow("trailing garbage") << QByteArray("0000:03:00.0x") << "";
        QTest::newRow("not hex") << QByteArray("000g:03:00.0") << "";
    }
    void pciSlot()
    {
        QFETCH(QByteArray, value);
        QFETCH(QString, pdev);
        const std::optional<DrmFdInfo> info = parseDrmFdInfo("drm-driver: amdgpu\ndrm-pdev:\t" + value + '\n');
        QVERIFY(info);
        QCOMPARE(info->pdev, pdev);
    }

    void gpuMemoryChoice_data()
    {
        QTest::addColumn<QByteArray>("lines");
        QTest::addColumn<qint64>("expected");
        QTest::newRow("discrete: vram regions add up, gtt left out")
            << QByteArray("drm-resident-vram0: 1 MiB\ndrm-resident-vram1: 2 MiB\ndrm-resident-gtt: 4 MiB") << 3 * kMiB;
        QTest::newRow("discrete: a vram region without resident counts as nothing, no fallback to gtt")
            << QByteArray("drm-total-vram: 1 MiB\ndrm-resident-gtt: 4 MiB") << kAbsent;
        QTest::newRow("integrated: gtt, system and memory, not cpu or stolen")
            << QByteArray("drm-resident-gtt: 1 MiB\ndrm-resident-system: 2 MiB\ndrm-resident-memory: 4 MiB\n"
                          "drm-resident-cpu: 8 MiB\ndrm-resident-stolen: 16 MiB\ndrm-resident-stolen-system0: 32 MiB")
            << 7 * kMiB;
        QTest::newRow("vram-like names that are not") << QByteArray("drm-resident-vramx: 1 MiB\n"
                                                                    "drm-resident-local: 2 MiB\n"
                                                                    "drm-resident-system0: 4 MiB")
                                                      << 4 * kMiB;
        QTest::newRow("no regions") << QByteArray("drm-engine-gfx: 5 ns") << kAbsent;
        QTest::newRow("sum saturates") << QByteArray("drm-resident-vram0: 9223372036854775807\n"
                                                     "drm-resident-vram1: 9223372036854775807")
                                       << qint64(9223372036854775807);
    }
    void gpuMemoryChoice()
    {
        QFETCH(QByteArray, lines);
        QFETCH(qint64, expected);
        const std::optional<DrmFdInfo> info = parseDrmFdInfo("drm-driver: xe\n" + lines + '\n');
        QVERIFY(info);
        QCOMPARE(info->gpuMemoryBytes(), optionalFrom(expected));
    }

    void usedCompute_data()
    {
        QTest::addColumn<QByteArray>("text");
        QTest::addColumn<int>("expected");
        QTest::newRow("i915 without engine stats (before gen 8)") << QByteArray("drm-driver: i915\n") << -1;
        QTest::newRow("amdgpu without engine lines") << QByteArray("drm-driver: amdgpu\n") << 0;
        QTest::newRow("compute listed but idle") << QByteArray("drm-driver: i915\ndrm-engine-compute: 0 ns\n") << 0;
        QTest::newRow("ccs busy cycles") << QByteArray("drm-driver: xe\ndrm-cycles-ccs: 1\n") << 1;
        QTest::newRow("other engines only") << QByteArray("drm-driver: panfrost\ndrm-engine-fragment: 9 ns\n") << 0;
    }
    void usedCompute()
    {
        QFETCH(QByteArray, text);
        QFETCH(int, expected);
        const std::optional<DrmFdInfo> info = parseDrmFdInfo(text);
        QVERIFY(info);
        QCOMPARE(info->usedCompute(), optionalBool(expected));
    }

    void hugeAndBinaryInput()
    {
        QByteArray text = "drm-driver: amdgpu\n";
        text += "drm-engine-" + QByteArray(1024 * 1024, 'x') + ": 5 ns\n"; // a 1 MiB name
        text += "drm-resident-vram: " + QByteArray(1024 * 1024, ' ') + "7 KiB\n"; // 1 MiB of blanks: still fine
        QByteArray noise(256 * 1024, Qt::Uninitialized);
        QRandomGenerator generator(4242);
        for (char &byte : noise)
            byte = char(generator.bounded(256));
        text += noise + '\n';
        for (int i = 0; i < 1000; ++i) // more engines than any GPU has
            text += "drm-engine-e" + QByteArray::number(i) + ": 1 ns\n";
        text += "drm-client-id: 9\n";
        const std::optional<DrmFdInfo> info = parseDrmFdInfo(text);
        QVERIFY(info);
        QCOMPARE(info->driver, QStringLiteral("amdgpu"));
        QCOMPARE(info->clientId, std::optional<quint64>(9));
        QCOMPARE(info->regions.value(QStringLiteral("vram")).resident, std::optional<qint64>(7 * kKiB));
        QVERIFY(info->engines.size() <= 64);
        for (const QString &name : info->engines.keys())
            QVERIFY2(name.size() <= 64, qPrintable(name.left(80)));
    }

    void usageByGpu()
    {
        const DrmFdInfo compute = parsedFixture(QStringLiteral("amdgpu_compute.txt")); // client 42 on 03:00.0
        const DrmFdInfo idle = parsedFixture(QStringLiteral("amdgpu_idle.txt"));       // client 43 on 03:00.0
        const DrmFdInfo intel = parsedFixture(QStringLiteral("i915_integrated.txt"));  // 00:02.0
        // The compute client's fd dup()ed twice: one client, counted once.
        const QList<DrmGpuUsage> gpus = drmUsageByGpu({compute, idle, compute, intel, compute});
        QCOMPARE(gpus.size(), 2);
        const DrmGpuUsage &amd = gpus.at(0);
        QCOMPARE(amd.pdev, QStringLiteral("0000:03:00.0"));
        QCOMPARE(amd.driver, QStringLiteral("amdgpu"));
        QCOMPARE(amd.clients, 2);
        QCOMPARE(amd.gpuMemoryBytes, std::optional<qint64>(3145732 * kKiB));
        QCOMPARE(amd.usedCompute, std::optional<bool>(true));
        QCOMPARE(amd.engines.value(QStringLiteral("compute")).busyNs, std::optional<qint64>(987654321));
        const DrmGpuUsage &integrated = gpus.at(1);
        QCOMPARE(integrated.pdev, QStringLiteral("0000:00:02.0"));
        QCOMPARE(integrated.clients, 1);
        QCOMPARE(integrated.gpuMemoryBytes, std::optional<qint64>(161 * kMiB));
        QCOMPARE(integrated.usedCompute, std::optional<bool>(false));
    }

    void usageAddsClientsUp()
    {
        DrmFdInfo first = parsedFixture(QStringLiteral("xe_discrete.txt"));
        DrmFdInfo second = first;
        second.clientId = 4;
        second.engines[QStringLiteral("rcs")].totalCycles = 7655183999; // read a moment later
        DrmFdInfo noId = first;
        noId.clientId.reset(); // cannot be told apart: each fd counts
        const QList<DrmGpuUsage> gpus = drmUsageByGpu({first, second, noId, noId});
        QCOMPARE(gpus.size(), 1);
        QCOMPARE(gpus.at(0).clients, 4);
        QCOMPARE(gpus.at(0).gpuMemoryBytes, std::optional<qint64>(4 * 23992 * kKiB));
        const DrmEngineUsage rcs = gpus.at(0).engines.value(QStringLiteral("rcs"));
        QCOMPARE(rcs.cycles, std::optional<qint64>(4 * 28257900));
        QCOMPARE(rcs.totalCycles, std::optional<qint64>(7655183999)); // a clock: the latest, not a sum
        QCOMPARE(gpus.at(0).engines.value(QStringLiteral("ccs")).capacity, std::optional<qint64>(4));
        QCOMPARE(gpus.at(0).usedCompute, std::optional<bool>(false));
    }

    void usageComputeUnknown()
    {
        const DrmFdInfo unknown = *parseDrmFdInfo("drm-driver: i915\ndrm-client-id: 1\n");
        const DrmFdInfo idle = *parseDrmFdInfo("drm-driver: i915\ndrm-client-id: 2\ndrm-engine-render: 5 ns\n");
        const DrmFdInfo busy = *parseDrmFdInfo("drm-driver: i915\ndrm-client-id: 3\ndrm-engine-compute: 5 ns\n");
        QCOMPARE(drmUsageByGpu({idle, unknown}).at(0).usedCompute, std::nullopt);
        QCOMPARE(drmUsageByGpu({unknown, idle}).at(0).usedCompute, std::nullopt);
        QCOMPARE(drmUsageByGpu({unknown, busy, idle}).at(0).usedCompute, std::optional<bool>(true));
        QCOMPARE(drmUsageByGpu({}).size(), 0);
    }

    void busyPercent_data()
    {
        QTest::addColumn<DrmEngineUsage>("earlier");
        QTest::addColumn<DrmEngineUsage>("later");
        QTest::addColumn<qint64>("elapsedNs");
        QTest::addColumn<double>("expected"); // negative: absent

        constexpr qint64 second = 1000 * 1000 * 1000;
        QTest::newRow("half of one second") << engineOf(0) << engineOf(second / 2) << second << 50.0;
        QTest::newRow("capacity 4: two engine-seconds in one second")
            << engineOf(10) << engineOf(10 + 2 * second, std::nullopt, std::nullopt, 4) << second << 50.0;
        QTest::newRow("cycles over total cycles, preferred to time")
            << engineOf(0, 1000, 10000) << engineOf(second, 3000, 18000) << second << 25.0;
        QTest::newRow("cycles with capacity 2") << engineOf(std::nullopt, 0, 0)
                                                << engineOf(std::nullopt, 800, 1000, 2) << qint64(0) << 40.0;
        QTest::newRow("clock stood still: time instead") << engineOf(0, 5, 100) << engineOf(second / 4, 5, 100)
                                                         << second << 25.0;
        QTest::newRow("counter went backwards") << engineOf(5 * second) << engineOf(second) << second << 0.0;
        QTest::newRow("more than the elapsed time") << engineOf(0) << engineOf(3 * second) << second << 100.0;
        QTest::newRow("no elapsed time") << engineOf(0) << engineOf(5) << qint64(0) << -1.0;
        QTest::newRow("no counters in the earlier sample") << engineOf(std::nullopt) << engineOf(5) << second << -1.0;
        QTest::newRow("cycles without a clock") << engineOf(std::nullopt, 1) << engineOf(std::nullopt, 9) << second
                                                << -1.0;
    }
    void busyPercent()
    {
        QFETCH(DrmEngineUsage, earlier);
        QFETCH(DrmEngineUsage, later);
        QFETCH(qint64, elapsedNs);
        QFETCH(double, expected);
        const std::optional<double> percent = drmEngineBusyPercent(earlier, later, elapsedNs);
        if (expected < 0) {
            QCOMPARE(percent, std::nullopt);
        } else {
            QVERIFY(percent);
            QCOMPARE(*percent, expected);
        }
    }

    void readerOverFakeProc()
    {
        QTemporaryDir proc;
        QVERIFY(proc.isValid());
        const QList<QPair<int, QString>> fds = {{3, "amdgpu_compute.txt"},
                                                {4, "amdgpu_compute.txt"}, // a dup of fd 3
                                                {5, "amdgpu_idle.txt"},
                                                {6, "regular_file.txt"}};
        for (const auto &[fd, file] : fds)
            TestSupport::writeFile(proc.filePath(QStringLiteral("4242/fdinfo/%1").arg(fd)), fixture(file));

        const std::optional<DrmFdInfo> info = readDrmFdInfo(proc.path(), 4242, 3);
        QVERIFY(info);
        QCOMPARE(info->clientId, std::optional<quint64>(42));
        QCOMPARE(readDrmFdInfo(proc.path(), 4242, 6).has_value(), false); // not DRM
        QCOMPARE(readDrmFdInfo(proc.path(), 4242, 99).has_value(), false); // fd closed
        QCOMPARE(readDrmFdInfo(proc.path(), 777, 3).has_value(), false);   // process gone

        const QList<DrmGpuUsage> gpus = readDrmUsageOfProcess(proc.path(), 4242, {3, 4, 5, 6, 99});
        QCOMPARE(gpus.size(), 1);
        QCOMPARE(gpus.at(0).clients, 2);
        QCOMPARE(gpus.at(0).usedCompute, std::optional<bool>(true));
    }

    // A file longer than the reader takes: the line the cut falls into must not give a shortened number.
    void readerDropsTheCutLine()
    {
        QTemporaryDir proc;
        QByteArray text = "drm-driver: amdgpu\ndrm-client-id: 1\n";
        const QByteArray filler = "amd-filler: " + QByteArray(50, 'f') + '\n';
        while (text.size() + filler.size() <= 64 * 1024 - 23)
            text += filler;
        text += QByteArray(64 * 1024 - 23 - text.size(), '\n');
        text += "drm-resident-vram: 123456789 KiB\n"; // the 64 KiB boundary falls after "1234"
        QVERIFY(text.size() > 64 * 1024);
        TestSupport::writeFile(proc.filePath(QStringLiteral("1/fdinfo/3")), text);
        const std::optional<DrmFdInfo> info = readDrmFdInfo(proc.path(), 1, 3);
        QVERIFY(info);
        QCOMPARE(info->clientId, std::optional<quint64>(1));
        QCOMPARE(info->regions.value(QStringLiteral("vram")).resident, std::nullopt);
    }

    // The real /proc: an fd of this test (a plain file) reads as not DRM, without error.
    void readerOnRealProc()
    {
        QTemporaryDir dir;
        const QString path = TestSupport::writeFile(dir.filePath(QStringLiteral("plain")), "x");
        const int fd = ::open(QFile::encodeName(path).constData(), O_RDONLY | O_CLOEXEC);
        QVERIFY(fd >= 0);
        QVERIFY(QFile::exists(QStringLiteral("/proc/%1/fdinfo/%2").arg(QCoreApplication::applicationPid()).arg(fd)));
        QCOMPARE(readDrmFdInfo(QStringLiteral("/proc"), QCoreApplication::applicationPid(), fd).has_value(), false);
        ::close(fd);
    }
};


QTEST_GUILESS_MAIN(TestDrmFdInfo)
#include "tst_drmfdinfo.moc"
