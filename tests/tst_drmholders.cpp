// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// What holders of AMD and Intel GPUs do there, from their fdinfo under a fake proc root: compute engine time or
// an open /dev/kfd makes them computing, their resident memory is counted, and what cannot be told is left in doubt.
// Between two looks, the engine counters say how busy each holder kept its GPU.
#include "backends/drmbackend.h"
#include "backends/drmholders.h"
#include "base/clock.h"
#include "policy/policy.h"
#include "testsupport.h"

#include <QFile>
#include <QTemporaryDir>
#include <QtTest>

using namespace TestSupport;

namespace {
QByteArray fixture(const QString &name)
{
    QFile file(QStringLiteral(IDLEGPU_TEST_DATA "/fdinfo/") + name);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

// The fdinfo of an amdgpu client on the AMD GPU below, with its engine counters; a negative one is left out (amdgpu
// lists no engine the client never used).
QByteArray amdClient(quint64 clientId, qint64 gfxNs, qint64 computeNs = -1)
{
    QByteArray text = "pos:\t0\nflags:\t02100002\ndrm-driver:\tamdgpu\ndrm-client-id:\t" + QByteArray::number(clientId)
                      + "\ndrm-pdev:\t0000:03:00.0\ndrm-resident-vram:\t262144 KiB\n";
    if (gfxNs >= 0)
        text += "drm-engine-gfx:\t" + QByteArray::number(gfxNs) + " ns\n";
    if (computeNs >= 0)
        text += "drm-engine-compute:\t" + QByteArray::number(computeNs) + " ns\n";
    return text;
}
constexpr qint64 kMsNs = 1'000'000;
} // namespace

class TestDrmHolders : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;

    // Two GPUs: an AMD one at 0000:03:00.0 (renderD128) and an Intel one at 0000:00:02.0 (renderD129), plus kfd
    // and NVIDIA GPU 0 that no fdinfo speaks of.
    DeviceNodes devices() const
    {
        DeviceNodes nodes;
        nodes.gpus.append(GpuDevice{0, m_dir->filePath(QStringLiteral("dev/nvidia0"))});
        GpuDevice amd{1, m_dir->filePath(QStringLiteral("dev/dri/renderD128")), GpuVendor::Amd};
        amd.pciSlot = QStringLiteral("0000:03:00.0");
        amd.sysfsDevice = m_dir->filePath(QStringLiteral("sys/0000:03:00.0"));
        GpuDevice intel{2, m_dir->filePath(QStringLiteral("dev/dri/renderD129")), GpuVendor::Intel};
        intel.pciSlot = QStringLiteral("0000:00:02.0");
        intel.sysfsDevice = m_dir->filePath(QStringLiteral("sys/0000:00:02.0"));
        nodes.gpus << amd << intel;
        nodes.sharedNodes = {m_dir->filePath(QStringLiteral("dev/kfd")), m_dir->filePath(QStringLiteral("dev/nvidiactl"))};
        return nodes;
    }

    // /proc/<pid>/fd/<fd> -> node, and its fdinfo.
    void openFd(qint64 pid, int fd, const QString &node, const QByteArray &fdinfo = QByteArray())
    {
        const QString proc = m_dir->filePath(QStringLiteral("proc/%1").arg(pid));
        QVERIFY(QDir().mkpath(proc + QStringLiteral("/fd")));
        QVERIFY(QFile::link(m_dir->filePath(node), proc + QStringLiteral("/fd/%1").arg(fd)));
        writeFile(proc + QStringLiteral("/fdinfo/%1").arg(fd), fdinfo.isNull() ? "pos:\t0\nflags:\t02\n" : fdinfo);
    }

    static Holder holder(qint64 pid, const QList<int> &gpus)
    {
        Holder h;
        h.pid = pid;
        h.comm = QStringLiteral("job");
        h.gpus = gpus;
        return h;
    }

    QString procRoot() const { return m_dir->filePath(QStringLiteral("proc")); }

    void setFdinfo(qint64 pid, int fd, const QByteArray &fdinfo)
    {
        writeFile(m_dir->filePath(QStringLiteral("proc/%1/fdinfo/%2").arg(pid).arg(fd)), fdinfo);
    }

    // What the backend says pid 100 does on the AMD GPU (index 1), at this look.
    GpuUse lookAtAmd(const DrmBackend &backend)
    {
        QList<Holder> holders{holder(100, {1})};
        backend.judgeHolders(holders, devices(), procRoot());
        return holders.first().gpuUse.value(1);
    }

private Q_SLOTS:
    void init() { m_dir = std::make_unique<QTemporaryDir>(); }
    void usageFromFdinfo_data()
    {
        QTest::addColumn<QByteArray>("fdinfo");
        QTest::addColumn<bool>("withKfd");
        QTest::addColumn<bool>("known");
        QTest::addColumn<bool>("compute");
        QTest::addColumn<qint64>("memory"); // -1: absent
        const QByteArray computing = fixture(QStringLiteral("amdgpu_compute.txt"));
        QVERIFY(!computing.isEmpty());
        QByteArray graphics = computing;
        graphics.replace("drm-engine-compute:\t987654321 ns", "");
        QByteArray otherGpu = computing;
        otherGpu.replace("0000:03:00.0", "0000:04:00.0");
        QByteArray noEngines = computing;
        noEngines.replace("drm-engine-gfx:\t1234567 ns", "").replace("drm-engine-compute:\t987654321 ns", "");
        const qint64 vram = qint64(3145732) * 1024;
        QTest::newRow("compute engine used") << computing << false << true << true << vram;
        QTest::newRow("graphics only") << graphics << false << true << false << vram;
        QTest::newRow("graphics only, but kfd open (ROCm)") << graphics << true << true << true << vram;
        QTest::newRow("another GPU's client") << otherGpu << false << false << false << qint64(-1);
        QTest::newRow("another GPU's client, kfd open") << otherGpu << true << true << true << qint64(-1);
        QTest::newRow("not a DRM fdinfo (old kernel)") << QByteArray() << false << false << false << qint64(-1);
        QTest::newRow("garbage") << QByteArray("\x01\x02 drm-driver \xff\n", 17) << false << false << false
                                 << qint64(-1);
        // amdgpu leaves out engines it never used: no engine line means no compute.
        QTest::newRow("amdgpu, no engine line") << noEngines << false << true << false << vram;
    }
    void usageFromFdinfo()
    {
        QFETCH(QByteArray, fdinfo);
        QFETCH(bool, withKfd);
        QFETCH(bool, known);
        QFETCH(bool, compute);
        QFETCH(qint64, memory);
        openFd(100, 7, QStringLiteral("dev/dri/renderD128"), fdinfo);
        openFd(100, 3, QStringLiteral("etc/passwd"));
        if (withKfd)
            openFd(100, 5, QStringLiteral("dev/kfd"));
        QList<Holder> holders{holder(100, {1})};
        mergeDrmUsage(holders, devices(), procRoot());
        const Holder &h = holders.first();
        QCOMPARE(h.gpuUse.contains(1), known);
        if (!known)
            return;
        QCOMPARE(h.gpuUse.value(1).compute, compute);
        QCOMPARE(h.gpuUse.value(1).memoryBytes, memory < 0 ? std::optional<qint64>() : std::optional<qint64>(memory));
        QCOMPARE(h.gpuMemoryBytes, memory < 0 ? std::optional<qint64>() : std::optional<qint64>(memory));
    }

    // An Intel GPU whose driver reports no engine time cannot say whether it computed: in doubt, it does.
    // kfd says nothing about Intel GPUs.
    void intelWithoutEngineTimeIsInDoubt()
    {
        QByteArray text = fixture(QStringLiteral("i915_integrated.txt"));
        QVERIFY(!text.isEmpty());
        QByteArray noEngines;
        for (const QByteArray &line : text.split('\n'))
            if (!line.startsWith("drm-engine"))
                noEngines += line + '\n';
        noEngines.replace(QByteArray("0000:00:02.0"), QByteArray("0000:00:02.0")); // the fixture's own slot
        openFd(200, 4, QStringLiteral("dev/dri/renderD129"), noEngines);
        openFd(200, 5, QStringLiteral("dev/kfd"));
        QList<Holder> holders{holder(200, {2})};
        mergeDrmUsage(holders, devices(), procRoot());
        QVERIFY(holders.first().gpuUse.contains(2));
        QVERIFY(holders.first().gpuUse.value(2).compute);
    }

    // Hidden holders, holders of NVIDIA GPUs only and processes gone since the scan are left alone.
    void leavesOthersAlone()
    {
        openFd(300, 7, QStringLiteral("dev/dri/renderD128"), fixture(QStringLiteral("amdgpu_compute.txt")));
        Holder hidden = holder(300, {1});
        hidden.hidden = true;
        QList<Holder> holders{hidden, holder(300, {0}), holder(301, {1})};
        const QList<Holder> before = holders;
        mergeDrmUsage(holders, devices(), procRoot());
        QCOMPARE(holders, before);
    }

    // A graphics client's share: none at first sight, then the busiest engine class's share of the time since the
    // look before. A look too soon after the one before keeps the last figure and measures the next from the earlier
    // sample.
    void busyShareBetweenLooks()
    {
        FakeClock clock;
        DrmBackend backend(&clock);
        openFd(100, 7, QStringLiteral("dev/dri/renderD128"), amdClient(42, 1000 * kMsNs));
        GpuUse use = lookAtAmd(backend);
        QVERIFY(!use.compute);
        QVERIFY(use.graphicsOnly);
        QCOMPARE(use.memoryBytes, std::optional<qint64>(qint64(256) << 20));
        QCOMPARE(use.busyPercent, std::optional<int>());

        clock.advance(1000);
        setFdinfo(100, 7, amdClient(42, 1600 * kMsNs));
        use = lookAtAmd(backend);
        QCOMPARE(use.busyPercent, std::optional<int>(60));
        Holder game = holder(100, {1});
        game.gpuUse.insert(1, use);
        QCOMPARE(Policy::clientKind(game, 1), Policy::ClientKind::Graphics);
        QVERIFY(Policy::judgeHolder(game, 1, BusyRule()).makesBusy); // 60 % >= 30 %

        clock.advance(DrmEngineHistory::kMinWindowMs / 2);
        setFdinfo(100, 7, amdClient(42, 1650 * kMsNs));
        QCOMPARE(lookAtAmd(backend).busyPercent, std::optional<int>(60));

        clock.advance(1000 - DrmEngineHistory::kMinWindowMs / 2); // 1 s after the last sample taken, 50 ms busier
        use = lookAtAmd(backend);
        QCOMPARE(use.busyPercent, std::optional<int>(5));
        game.gpuUse.insert(1, use);
        QVERIFY(!Policy::judgeHolder(game, 1, BusyRule()).makesBusy);
    }

    // The busiest engine class counts, compute engine time makes a compute client; an engine amdgpu lists for the
    // first time was idle before.
    void busiestEngineAndCompute()
    {
        FakeClock clock;
        DrmBackend backend(&clock);
        openFd(100, 7, QStringLiteral("dev/dri/renderD128"), amdClient(42, 0));
        QCOMPARE(lookAtAmd(backend).busyPercent, std::optional<int>());
        clock.advance(2000);
        setFdinfo(100, 7, amdClient(42, 200 * kMsNs, 1400 * kMsNs));
        const GpuUse use = lookAtAmd(backend);
        QVERIFY(use.compute);
        QVERIFY(!use.graphicsOnly);
        QCOMPARE(use.busyPercent, std::optional<int>(70));
    }

    // A process's clients on one GPU add up per engine class; fds of one client (dup, fork) count once.
    void clientsOfOneProcessAddUp()
    {
        FakeClock clock;
        DrmBackend backend(&clock);
        openFd(100, 7, QStringLiteral("dev/dri/renderD128"), amdClient(42, 0));
        openFd(100, 8, QStringLiteral("dev/dri/renderD128"), amdClient(43, 0));
        openFd(100, 9, QStringLiteral("dev/dri/renderD128"), amdClient(42, 0));
        lookAtAmd(backend);
        clock.advance(1000);
        setFdinfo(100, 7, amdClient(42, 300 * kMsNs));
        setFdinfo(100, 8, amdClient(43, 200 * kMsNs));
        setFdinfo(100, 9, amdClient(42, 300 * kMsNs));
        QCOMPARE(lookAtAmd(backend).busyPercent, std::optional<int>(50));
    }

    // xe counts GPU cycles against the GPU's clock: the share needs no wall time, and an engine class of several
    // engines is busy by its capacity.
    void xeCyclesAndCapacity()
    {
        FakeClock clock;
        DrmBackend backend(&clock);
        const auto xeClient = [](qint64 rcs, qint64 ccs, qint64 total) {
            return "drm-driver:\txe\ndrm-client-id:\t3\ndrm-pdev:\t0000:00:02.0\ndrm-cycles-rcs:\t"
                   + QByteArray::number(rcs) + "\ndrm-total-cycles-rcs:\t" + QByteArray::number(total)
                   + "\ndrm-cycles-ccs:\t" + QByteArray::number(ccs) + "\ndrm-total-cycles-ccs:\t"
                   + QByteArray::number(total) + "\ndrm-engine-capacity-ccs:\t4\n";
        };
        openFd(200, 4, QStringLiteral("dev/dri/renderD129"), xeClient(0, 0, 1'000'000));
        QList<Holder> holders{holder(200, {2})};
        backend.judgeHolders(holders, devices(), procRoot());
        clock.advance(250); // the wall time does not enter
        setFdinfo(200, 4, xeClient(250'000, 2'000'000, 2'000'000));
        holders = {holder(200, {2})};
        backend.judgeHolders(holders, devices(), procRoot());
        const GpuUse use = holders.first().gpuUse.value(2);
        QVERIFY(use.compute);
        QCOMPARE(use.busyPercent, std::optional<int>(50)); // ccs: 2M cycles of 4 engines x 1M; rcs only 25 %
    }

    // A client closed and another opened (a new drm-client-id) starts over; a process gone is forgotten, so a
    // later one with its pid starts over too.
    void forgetsClosedClientsAndGoneProcesses()
    {
        FakeClock clock;
        DrmBackend backend(&clock);
        openFd(100, 7, QStringLiteral("dev/dri/renderD128"), amdClient(42, 0));
        lookAtAmd(backend);
        clock.advance(1000);
        setFdinfo(100, 7, amdClient(44, 500 * kMsNs));
        QCOMPARE(lookAtAmd(backend).busyPercent, std::optional<int>());
        clock.advance(1000);
        setFdinfo(100, 7, amdClient(44, 900 * kMsNs));
        QCOMPARE(lookAtAmd(backend).busyPercent, std::optional<int>(40));

        QVERIFY(QDir(m_dir->filePath(QStringLiteral("proc/100"))).removeRecursively());
        QList<Holder> none;
        backend.judgeHolders(none, devices(), procRoot()); // a scan without it
        openFd(100, 7, QStringLiteral("dev/dri/renderD128"), amdClient(44, 950 * kMsNs));
        clock.advance(1000);
        QCOMPARE(lookAtAmd(backend).busyPercent, std::optional<int>());
    }

    // Without engine time (a driver that reports none) there is no share to tell; mergeDrmUsage without a history
    // (the one-shot --status) gives none either.
    void noShareWithoutCounters()
    {
        FakeClock clock;
        DrmBackend backend(&clock);
        QByteArray text = fixture(QStringLiteral("i915_integrated.txt"));
        QByteArray noEngines;
        for (const QByteArray &line : text.split('\n'))
            if (!line.startsWith("drm-engine"))
                noEngines += line + '\n';
        openFd(200, 4, QStringLiteral("dev/dri/renderD129"), noEngines);
        for (int look = 0; look < 2; ++look) {
            QList<Holder> holders{holder(200, {2})};
            backend.judgeHolders(holders, devices(), procRoot());
            QCOMPARE(holders.first().gpuUse.value(2).busyPercent, std::optional<int>());
            QVERIFY(!holders.first().gpuUse.value(2).graphicsOnly); // in doubt it computes
            clock.advance(1000);
        }
        openFd(100, 7, QStringLiteral("dev/dri/renderD128"), amdClient(42, 0));
        QList<Holder> holders{holder(100, {1})};
        mergeDrmUsage(holders, devices(), procRoot());
        mergeDrmUsage(holders, devices(), procRoot());
        QCOMPARE(holders.first().gpuUse.value(1).busyPercent, std::optional<int>());
    }

    void metricsOfEachDrmGpu()
    {
        writeFile(m_dir->filePath(QStringLiteral("sys/0000:03:00.0/vendor")), "0x1002\n");
        writeFile(m_dir->filePath(QStringLiteral("sys/0000:03:00.0/device")), "0x744c\n");
        writeFile(m_dir->filePath(QStringLiteral("sys/0000:03:00.0/gpu_busy_percent")), "37\n");
        QHash<int, GpuInfo> metrics;
        DrmBackend backend;
        for (const GpuInfo &gpu : backend.refresh(devices()))
            metrics.insert(gpu.index, gpu);
        QCOMPARE(metrics.keys().size(), 2); // the AMD and the Intel GPU; NVIDIA's come from NVML
        QCOMPARE(metrics.value(1).index, 1);
        QCOMPARE(metrics.value(1).utilizationPercent, std::optional<int>(37));
        QVERIFY(metrics.value(1).name.contains(QLatin1String("744c")));
        QVERIFY(!metrics.contains(0));
    }
};

QTEST_GUILESS_MAIN(TestDrmHolders)
#include "tst_drmholders.moc"
