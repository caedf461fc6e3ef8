// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "devices/devicescanner.h"
#include "drmfixture.h"
#include "testsupport.h"

#include <QDir>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QTest>

class TestDeviceScanner : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void namesAreClassified_data();
    void namesAreClassified();
    void fakeDevRootIsFound();
    void missingRootGivesNothing();
    void trailingSlashGivesCleanPaths();
    void drmGpusAreFoundThroughSysfs_data();
    void drmGpusAreFoundThroughSysfs();
    void skippedRenderNodesSayWhy_data();
    void skippedRenderNodesSayWhy();
    void kfdIsASharedNode();
    void drmGpusAreDescribed();
    void keepVendors_data();
    void keepVendors();
};

void TestDeviceScanner::namesAreClassified_data()
{
    QTest::addColumn<QStringList>("files");
    QTest::addColumn<QList<int>>("gpus");
    QTest::addColumn<QStringList>("shared");

    QTest::newRow("empty") << QStringList{} << QList<int>{} << QStringList{};
    QTest::newRow("one gpu and the shared nodes")
        << QStringList{"nvidia0", "nvidiactl", "nvidia-uvm", "nvidia-uvm-tools", "nvidia-modeset"} << QList<int>{0}
        << QStringList{"nvidia-modeset", "nvidia-uvm", "nvidia-uvm-tools", "nvidiactl"};
    QTest::newRow("sorted by number, not by name")
        << QStringList{"nvidia10", "nvidia2", "nvidia1", "nvidia0"} << QList<int>{0, 1, 2, 10} << QStringList{};
    QTest::newRow("highest index") << QStringList{"nvidia255", "nvidia256", "nvidia1000"} << QList<int>{255}
                                   << QStringList{};
    QTest::newRow("leading zero is not a second name for a gpu")
        << QStringList{"nvidia01", "nvidia00", "nvidia1"} << QList<int>{1} << QStringList{};
    QTest::newRow("other names are ignored")
        << QStringList{"nvidia",     "nvidia-caps", "nvidia0p1", "nvidia-1", "nvidia 1", "nvidia0.bak",
                       "nvidiactl2", "NVIDIA0",     "null",      "tty0",     "nvidia+1", "xnvidia0"}
        << QList<int>{} << QStringList{};
}

void TestDeviceScanner::namesAreClassified()
{
    QFETCH(QStringList, files);
    QFETCH(QList<int>, gpus);
    QFETCH(QStringList, shared);
    QTemporaryDir root;
    QVERIFY(root.isValid());
    for (const QString &file : std::as_const(files))
        TestSupport::writeFile(root.filePath(file), {});
    QDir().mkpath(root.filePath("nvidia7")); // a folder named like a GPU still counts: majors are not checked

    const DeviceNodes nodes = scanDevices(root.path());
    QList<int> expectedGpus = gpus;
    expectedGpus.append(7);
    std::sort(expectedGpus.begin(), expectedGpus.end());
    QCOMPARE(nodes.indices(), expectedGpus);
    for (const GpuDevice &gpu : nodes.gpus)
        QCOMPARE(gpu.path, root.filePath(QStringLiteral("nvidia%1").arg(gpu.index)));
    QStringList expectedShared;
    for (const QString &name : std::as_const(shared))
        expectedShared.append(root.filePath(name));
    QCOMPARE(nodes.sharedNodes, expectedShared);
}

void TestDeviceScanner::fakeDevRootIsFound()
{
    TestSupport::FakeDevRoot dev(3);
    DeviceNodes nodes = scanDevices(dev.path());
    QCOMPARE(nodes.indices(), (QList<int>{0, 1, 2}));
    QCOMPARE(nodes.gpus.at(1).path, dev.node(1));
    QVERIFY(nodes.sharedNodes.contains(dev.ctl()));

    dev.removeGpu(1);
    dev.addGpu(4);
    nodes = scanDevices(dev.path());
    QCOMPARE(nodes.indices(), (QList<int>{0, 2, 4}));
    QCOMPARE(nodes, scanDevices(dev.path()));
}

void TestDeviceScanner::missingRootGivesNothing()
{
    QTemporaryDir root;
    const DeviceNodes nodes = scanDevices(root.filePath("absent"));
    QVERIFY(nodes.gpus.isEmpty());
    QVERIFY(nodes.sharedNodes.isEmpty());
    const QString file = TestSupport::writeFile(root.filePath("plainfile"), "x");
    QVERIFY(scanDevices(file).allPaths().isEmpty());
}

void TestDeviceScanner::trailingSlashGivesCleanPaths()
{
    TestSupport::FakeDevRoot dev(1);
    const DeviceNodes nodes = scanDevices(dev.path() + "/");
    QCOMPARE(nodes.gpus.value(0).path, dev.node(0));
}

namespace {
// "<index> <node> <vendor> <slot> <driver> <unique id or ->", e.g. "3 renderD129 amd 0000:03:00.0 amdgpu -".
QString describeForTest(const GpuDevice &gpu)
{
    const QString vendor = gpu.vendor == GpuVendor::Amd     ? QStringLiteral("amd")
                           : gpu.vendor == GpuVendor::Intel ? QStringLiteral("intel")
                                                            : QStringLiteral("nvidia");
    if (!gpu.isDrm())
        return QStringLiteral("%1 %2 nvidia").arg(gpu.index).arg(QFileInfo(gpu.path).fileName());
    return QStringLiteral("%1 %2 %3 %4 %5 %6")
        .arg(gpu.index)
        .arg(QFileInfo(gpu.path).fileName(), vendor, gpu.pciSlot, gpu.driver,
             gpu.uniqueId.isEmpty() ? QStringLiteral("-") : gpu.uniqueId);
}
} // namespace

void TestDeviceScanner::drmGpusAreFoundThroughSysfs_data()
{
    // Render nodes: "<minor> <slot> <vendor> <device> <driver> <unique_id>", "-" for a file left out.
    QTest::addColumn<QStringList>("renderNodes");
    QTest::addColumn<QStringList>("nvidiaNodes");
    QTest::addColumn<QStringList>("expected"); // describeForTest of each GPU, by index

    QTest::newRow("amd with unique_id")
        << QStringList{"128 0000:03:00.0 0x1002 0x744c amdgpu 8FE9B1E1726F2A10"} << QStringList{}
        << QStringList{"0 renderD128 amd 0000:03:00.0 amdgpu 8fe9b1e1726f2a10"};
    QTest::newRow("amd unique_id padded to 16 digits, zero is none")
        << QStringList{"128 0000:03:00.0 0x1002 0x744c amdgpu 1f", "129 0000:04:00.0 0x1002 0x744c amdgpu 0"}
        << QStringList{}
        << QStringList{"0 renderD128 amd 0000:03:00.0 amdgpu 000000000000001f",
                       "1 renderD129 amd 0000:04:00.0 amdgpu -"};
    QTest::newRow("amd without unique_id, garbage unique_id")
        << QStringList{"128 0000:03:00.0 0x1002 0x744c amdgpu -", "129 0000:04:00.0 0x1002 0x744c amdgpu xyz!"}
        << QStringList{}
        << QStringList{"0 renderD128 amd 0000:03:00.0 amdgpu -", "1 renderD129 amd 0000:04:00.0 amdgpu -"};
    QTest::newRow("intel i915 and xe")
        << QStringList{"128 0000:00:02.0 0x8086 0xa780 i915 -", "129 0000:03:00.0 0x8086 0xe20b xe -"}
        << QStringList{}
        << QStringList{"0 renderD128 intel 0000:00:02.0 i915 -", "1 renderD129 intel 0000:03:00.0 xe -"};
    QTest::newRow("nvidia render node skipped: nvidiaN covers it")
        << QStringList{"128 0000:01:00.0 0x10de 0x2330 nvidia -"} << QStringList{"nvidia0"}
        << QStringList{"0 nvidia0 nvidia"};
    QTest::newRow("other vendors and drivers skipped")
        << QStringList{"128 0000:00:01.0 0x1af4 0x1050 virtio-pci -", "129 0000:05:00.0 0x1002 0x6798 radeon -",
                       "130 0000:06:00.0 0x8086 0x56a0 vfio-pci -"}
        << QStringList{} << QStringList{};
    QTest::newRow("garbage vendor file, uevent has no PCI_ID: skipped")
        << QStringList{"128 0000:03:00.0 nonsense 0x744c amdgpu -"} << QStringList{} << QStringList{};
    QTest::newRow("missing vendor file: skipped") << QStringList{"128 0000:03:00.0 - 0x744c amdgpu -"}
                                                  << QStringList{} << QStringList{};
    QTest::newRow("no driver bound: skipped") << QStringList{"128 0000:03:00.0 0x1002 0x744c - -"} << QStringList{}
                                              << QStringList{};
    QTest::newRow("mixed: after the highest nvidia index, in PCI order, not render minor order")
        << QStringList{"128 0000:c1:00.0 0x1002 0x740f amdgpu -", "129 0000:03:00.0 0x1002 0x740f amdgpu -",
                       "130 0000:41:00.0 0x8086 0x56a0 i915 -"}
        << QStringList{"nvidia0", "nvidia2"}
        << QStringList{"0 nvidia0 nvidia", "2 nvidia2 nvidia", "3 renderD129 amd 0000:03:00.0 amdgpu -",
                       "4 renderD130 intel 0000:41:00.0 i915 -", "5 renderD128 amd 0000:c1:00.0 amdgpu -"};
    QTest::newRow("PCI domains compare as numbers")
        << QStringList{"128 10000:01:00.0 0x8086 0x56a0 i915 -", "129 0002:01:00.0 0x8086 0x56a0 i915 -"}
        << QStringList{}
        << QStringList{"0 renderD129 intel 0002:01:00.0 i915 -", "1 renderD128 intel 10000:01:00.0 i915 -"};
}

void TestDeviceScanner::drmGpusAreFoundThroughSysfs()
{
    QFETCH(QStringList, renderNodes);
    QFETCH(QStringList, nvidiaNodes);
    QFETCH(QStringList, expected);
    QTemporaryDir dev;
    TestSupport::FakeSysfs sysfs;
    for (const QString &name : std::as_const(nvidiaNodes))
        TestSupport::writeFile(dev.filePath(name), {});
    for (const QString &spec : std::as_const(renderNodes)) {
        const QStringList f = spec.split(QLatin1Char(' '));
        auto field = [&f](int i) { return f.at(i) == QLatin1String("-") ? QString() : f.at(i); };
        sysfs.addPciGpu(f.at(0).toInt(), f.at(1), field(2), field(3), field(4), field(5));
        TestSupport::FakeSysfs::addRenderNode(dev.path(), f.at(0).toInt());
    }
    // Never GPUs: card nodes, a render node without a sysfs entry, and a platform device without PCI ids (vgem).
    TestSupport::writeFile(dev.filePath("dri/card0"), {});
    TestSupport::FakeSysfs::addRenderNode(dev.path(), 200);
    TestSupport::FakeSysfs::addRenderNode(dev.path(), 201);
    TestSupport::writeFile(sysfs.path() + "/devices/platform/vgem/uevent", "DRIVER=vgem\nMODALIAS=platform:vgem\n");
    sysfs.linkRenderNode(201, "../../../devices/platform/vgem");

    const DeviceNodes nodes = scanDevices(dev.path(), sysfs.path());
    QStringList found;
    for (const GpuDevice &gpu : nodes.gpus)
        found.append(describeForTest(gpu));
    QCOMPARE(found, expected);
    for (const GpuDevice &gpu : nodes.gpus) {
        if (gpu.isDrm()) {
            QCOMPARE(gpu.sysfsDevice, QFileInfo(sysfs.deviceFolder(gpu.pciSlot)).canonicalFilePath());
            QCOMPARE(gpu.path, dev.filePath("dri/" + QFileInfo(gpu.path).fileName()));
        }
    }
    QCOMPARE(nodes, scanDevices(dev.path(), sysfs.path())); // stable from scan to scan
}

void TestDeviceScanner::skippedRenderNodesSayWhy_data()
{
    QTest::addColumn<QString>("setup");
    QTest::addColumn<QString>("reasonContains");
    QTest::newRow("no sysfs entry") << "none" << "class/drm/renderD128/device does not exist";
    QTest::newRow("dangling link") << "dangling" << "class/drm/renderD128/device does not exist";
    QTest::newRow("nvidia") << "nvidia" << "NVIDIA";
    QTest::newRow("binary vendor file") << "binary" << "/vendor is missing or not a PCI vendor id";
    QTest::newRow("huge vendor file") << "huge" << "/vendor is missing or not a PCI vendor id";
    QTest::newRow("vendor file a folder") << "folder" << "/vendor is missing or not a PCI vendor id";
    QTest::newRow("not a PCI slot") << "badslot" << "is not a PCI device";
}

void TestDeviceScanner::skippedRenderNodesSayWhy()
{
    QFETCH(QString, setup);
    QFETCH(QString, reasonContains);
    QTemporaryDir dev;
    TestSupport::FakeSysfs sysfs;
    const QString node = TestSupport::FakeSysfs::addRenderNode(dev.path(), 128);
    const QString slot = QStringLiteral("0000:03:00.0");
    if (setup == "dangling") {
        sysfs.linkRenderNode(128, "../../../devices/pci0000:00/gone");
    } else if (setup == "nvidia") {
        sysfs.addPciGpu(128, slot, "0x10de", "0x2330", "nvidia");
    } else if (setup != "none") {
        sysfs.addPciGpu(128, setup == "badslot" ? QStringLiteral("card") : slot, "0x1002", "0x744c", "amdgpu");
        const QString vendor = sysfs.deviceFolder(setup == "badslot" ? QStringLiteral("card") : slot) + "/vendor";
        if (setup == "badslot") {
            TestSupport::writeFile(sysfs.deviceFolder("card") + "/uevent", "DRIVER=amdgpu\n");
        } else {
            QFile::remove(vendor);
            if (setup == "binary")
                TestSupport::writeFile(vendor, QByteArray("\x00\x10\x02\xff", 4));
            else if (setup == "huge")
                TestSupport::writeFile(vendor, QByteArray(100000, '1'));
            else if (setup == "folder")
                QDir().mkpath(vendor);
            // The uevent's PCI_ID would stand in for a damaged vendor file: leave it out.
            TestSupport::writeFile(sysfs.deviceFolder(slot) + "/uevent", "DRIVER=amdgpu\nPCI_SLOT_NAME=" + slot.toUtf8());
        }
    }
    QString whyNot;
    QVERIFY(!readDrmGpu(node, sysfs.path(), &whyNot));
    QVERIFY2(whyNot.contains(reasonContains), qPrintable(whyNot));
    QVERIFY(scanDevices(dev.path(), sysfs.path()).gpus.isEmpty());
}

void TestDeviceScanner::kfdIsASharedNode()
{
    QTemporaryDir dev;
    TestSupport::FakeSysfs sysfs;
    TestSupport::writeFile(dev.filePath("kfd"), {});
    sysfs.addPciGpu(128, "0000:03:00.0", "0x1002", "0x744c", "amdgpu");
    TestSupport::FakeSysfs::addRenderNode(dev.path(), 128);
    const DeviceNodes nodes = scanDevices(dev.path(), sysfs.path());
    QCOMPARE(nodes.sharedNodes, QStringList{dev.filePath("kfd")});
    QCOMPARE(nodes.indices(), QList<int>{0});
    QVERIFY(nodes.allPaths().contains(dev.filePath("dri/renderD128")));
}

void TestDeviceScanner::drmGpusAreDescribed()
{
    QTemporaryDir dev;
    TestSupport::FakeSysfs sysfs;
    sysfs.addPciGpu(128, "0000:03:00.0", "0x1002", "0x744C", "amdgpu");
    TestSupport::FakeSysfs::addRenderNode(dev.path(), 128);
    const DeviceNodes nodes = scanDevices(dev.path(), sysfs.path());
    QCOMPARE(nodes.gpus.value(0).describe(), QStringLiteral("AMD GPU 1002:744c (amdgpu, 0000:03:00.0)"));
    const GpuDevice nvidia{0, dev.filePath("nvidia0")};
    QCOMPARE(nvidia.describe(), QString()); // NVIDIA names come from NVML
}

void TestDeviceScanner::keepVendors_data()
{
    QTest::addColumn<QList<GpuVendor>>("found");
    QTest::addColumn<QList<GpuVendor>>("chosen");
    QTest::addColumn<QList<int>>("kept");
    QTest::addColumn<bool>("kfdKept");
    using V = GpuVendor;
    const QList<V> workstation{V::Nvidia, V::Nvidia, V::Intel};
    QTest::newRow("auto, NVIDIA and built-in Intel: NVIDIA only")
        << workstation << QList<V>{} << QList<int>{0, 1} << false;
    QTest::newRow("auto, AMD and Intel") << QList<V>{V::Amd, V::Intel} << QList<V>{} << QList<int>{0, 1} << true;
    QTest::newRow("auto, nothing") << QList<V>{} << QList<V>{} << QList<int>{} << true;
    QTest::newRow("chosen: NVIDIA and Intel") << workstation << QList<V>{V::Nvidia, V::Intel} << QList<int>{0, 1, 2}
                                              << false;
    QTest::newRow("chosen: Intel") << workstation << QList<V>{V::Intel} << QList<int>{2} << false;
    QTest::newRow("chosen: AMD, with NVIDIA") << QList<V>{V::Nvidia, V::Amd} << QList<V>{V::Amd} << QList<int>{1}
                                              << true;
}

void TestDeviceScanner::keepVendors()
{
    QFETCH(QList<GpuVendor>, found);
    QFETCH(QList<GpuVendor>, chosen);
    QFETCH(QList<int>, kept);
    QFETCH(bool, kfdKept);
    DeviceNodes nodes;
    for (int i = 0; i < found.size(); ++i)
        nodes.gpus.append(GpuDevice{i, QStringLiteral("/dev/gpu%1").arg(i), found.at(i)});
    nodes.sharedNodes = {QStringLiteral("/dev/kfd"), QStringLiteral("/dev/nvidiactl")};
    const DeviceNodes result = ::keepVendors(nodes, chosen);
    QCOMPARE(result.indices(), kept);
    QCOMPARE(result.sharedNodes.contains(QStringLiteral("/dev/kfd")), kfdKept);
    const bool nvidiaKept = chosen.isEmpty() || chosen.contains(GpuVendor::Nvidia);
    QCOMPARE(result.sharedNodes.contains(QStringLiteral("/dev/nvidiactl")), nvidiaKept);
}

QTEST_GUILESS_MAIN(TestDeviceScanner)
#include "tst_devicescanner.moc"
