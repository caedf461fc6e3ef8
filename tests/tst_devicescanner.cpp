#include "devicescanner.h"
#include "testsupport.h"

#include <QDir>
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

QTEST_GUILESS_MAIN(TestDeviceScanner)
#include "tst_devicescanner.moc"
