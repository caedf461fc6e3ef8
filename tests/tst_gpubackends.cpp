// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// GpuBackends: which backend speaks for which GPU (the vendor library for NVIDIA GPUs under its device root, DRM
// for AMD and Intel ones), and that a backend covering nothing is never asked.
#include "backends/gpubackend.h"
#include "backends/nvmlbackend.h"
#include "testsupport.h"

#include <QTemporaryDir>
#include <QtTest>

using namespace TestSupport;

namespace {
// Stands in for NVML: counts its reads, lists one process on each GPU it knows.
class CountingLibrary : public NvidiaLibraryBackend
{
public:
    CountingLibrary(const QString &deviceRoot, bool available, int *reads)
        : NvidiaLibraryBackend(deviceRoot), m_available(available), m_reads(reads)
    {
    }
    QString name() const override { return QStringLiteral("Counting"); }
    bool available() const override { return m_available; }
    QString unavailableReason() const override { return m_available ? QString() : QStringLiteral("no driver"); }
    QList<GpuInfo> sample() override
    {
        ++*m_reads;
        QList<GpuInfo> gpus;
        for (int index : {0, 1}) {
            GpuInfo info;
            info.index = index;
            info.uuid = QStringLiteral("GPU-%1").arg(index);
            info.processesKnown = true;
            info.processes = {GpuProcessUse{4200 + index, qint64(1) << 20, false}};
            gpus.append(info);
        }
        return gpus;
    }

private:
    bool m_available;
    int *m_reads;
};
} // namespace

class TestGpuBackends : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

    // NVIDIA GPUs 0 and 1 under dev/, an AMD GPU 2 at 0000:03:00.0.
    DeviceNodes devices() const
    {
        DeviceNodes nodes;
        nodes.gpus.append(GpuDevice{0, m_dir.filePath(QStringLiteral("dev/nvidia0"))});
        nodes.gpus.append(GpuDevice{1, m_dir.filePath(QStringLiteral("dev/nvidia1"))});
        GpuDevice amd{2, m_dir.filePath(QStringLiteral("dev/dri/renderD128")), GpuVendor::Amd};
        amd.pciSlot = QStringLiteral("0000:03:00.0");
        nodes.gpus.append(amd);
        return nodes;
    }

private Q_SLOTS:
    void initTestCase()
    {
        writeFile(m_dir.filePath(QStringLiteral("dev/nvidia0")), QByteArray());
        writeFile(m_dir.filePath(QStringLiteral("dev/nvidia1")), QByteArray());
        writeFile(m_dir.filePath(QStringLiteral("dev/dri/renderD128")), QByteArray());
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("elsewhere"))));
    }

    void eachGpuHasItsJudge()
    {
        int reads = 0;
        GpuBackends backends;
        backends.setVendorLibrary(
            std::make_unique<CountingLibrary>(m_dir.filePath(QStringLiteral("dev")), true, &reads));
        backends.setDevices(devices());
        QVERIFY(backends.canJudgeUse(0));
        QVERIFY(backends.canJudgeUse(1));
        QVERIFY(backends.canJudgeUse(2));
        QVERIFY(!backends.canJudgeUse(3));
        QCOMPARE(backends.judgeOf(0)->name(), QStringLiteral("Counting"));
        QCOMPARE(backends.judgeOf(2)->name(), QStringLiteral("DRM"));

        const QHash<int, GpuInfo> gpus = backends.refresh();
        QCOMPARE(reads, 1);
        QCOMPARE(gpus.value(1).uuid, QStringLiteral("GPU-1"));
        QVERIFY(!gpus.contains(2)); // no sysfs folder: DRM has nothing to say of its identity

        // What the library listed reaches the holders of its GPUs at the next scan, without asking it again.
        Holder holder;
        holder.pid = 4201;
        holder.comm = QStringLiteral("python3");
        holder.gpus = {1};
        QList<Holder> holders{holder};
        backends.judgeHolders(holders, QStringLiteral("/proc"));
        QCOMPARE(reads, 1);
        QCOMPARE(holders.value(0).gpuUse.value(1), (GpuUse{true, qint64(1) << 20, false, std::nullopt}));
    }

    // Without the library (node-only mode) or for GPUs under another device root (the demo's), NVIDIA GPUs have
    // no judge, and the library is never read; AMD and Intel GPUs keep DRM's.
    void nvidiaGpusWithoutTheLibrary_data()
    {
        QTest::addColumn<bool>("available");
        QTest::addColumn<QString>("libraryRoot");
        QTest::newRow("library not available") << false << QStringLiteral("dev");
        QTest::newRow("other device root") << true << QStringLiteral("elsewhere");
    }
    void nvidiaGpusWithoutTheLibrary()
    {
        QFETCH(bool, available);
        QFETCH(QString, libraryRoot);
        int reads = 0;
        GpuBackends backends;
        backends.setVendorLibrary(std::make_unique<CountingLibrary>(m_dir.filePath(libraryRoot), available, &reads));
        backends.setDevices(devices());
        QVERIFY(!backends.canJudgeUse(0));
        QVERIFY(backends.canJudgeUse(2));
        QVERIFY(backends.refresh().isEmpty());
        backends.refreshProcesses();
        QCOMPARE(reads, 0);
        QCOMPARE(backends.describe().available, available);
    }

    void noGpuNoJudge()
    {
        GpuBackends backends;
        QVERIFY(!backends.coversAny());
        backends.setDevices(devices());
        QVERIFY(backends.coversAny()); // DRM, for the AMD GPU
        QVERIFY(backends.describe().backend.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestGpuBackends)
#include "tst_gpubackends.moc"
