// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// Integration tests of AMD and Intel GPUs: the real monitor and runner on a fake device root with dri/renderD128
// and kfd, matched to a fixture sysfs, with real processes holding the nodes. Only the GPU and sysfs are fake.
#include "drmfixture.h"
#include "monitorfixture.h"
#include "statusreport.h"

#include <QJsonArray>
#include <QJsonObject>
#include <QSignalSpy>
#include <QtTest>

using namespace TestSupport;

class TestDrmIntegration : public QObject, private MonitorFixture
{
    Q_OBJECT

private:
    // One AMD GPU at 0000:03:00.0 (renderD128, with a unique_id) and kfd.
    void addAmdGpu()
    {
        m_sysfs->addPciGpu(128, QStringLiteral("0000:03:00.0"), QStringLiteral("0x1002"), QStringLiteral("0x744c"),
                           QStringLiteral("amdgpu"), QStringLiteral("8fe9b1e1726f2a10"));
        m_renderNode = FakeSysfs::addRenderNode(m_dev->path(), 128);
    }
    void startMonitor()
    {
        const QString path = writeConfig(
            defaults(0)
            + QStringLiteral("[process-rocm]\ncmd=sh -c 'echo \"$ROCR_VISIBLE_DEVICES $HIP_VISIBLE_DEVICES\" > %1; "
                             "exec sleep 1000'\ngpus=0\nstop_timeout_seconds=2\n")
                  .arg(envFile()));
        MonitorPaths paths;
        paths.sysfsRoot = m_sysfs->path();
        makeMonitor(path, paths);
        QVERIFY(m_monitor->start());
    }
    QString envFile() const { return m_dir->filePath(QStringLiteral("env.txt")); }
    QString kfd() const { return m_dev->filePath(QStringLiteral("kfd")); }
    WorkloadRuntime::State state() const { return stateOf(QStringLiteral("process-rocm")); }

    std::unique_ptr<FakeSysfs> m_sysfs;
    QString m_renderNode;

private Q_SLOTS:
    void init()
    {
        setUpMonitorFixture(0); // no NVIDIA node: the AMD GPU's render node and kfd alone
        m_sysfs = std::make_unique<FakeSysfs>();
        m_dev->addNode(QStringLiteral("kfd"));
    }
    void cleanup()
    {
        QVERIFY(tearDownMonitorFixture());
        m_sysfs.reset();
    }

    void renderNodeHolderPreemptsKfdAloneDoesNot()
    {
        addAmdGpu();
        startMonitor();
        QTRY_COMPARE_WITH_TIMEOUT(state(), WorkloadRuntime::Running, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(envFile()).size() > 0, 5000);
        QFile env(envFile());
        QVERIFY(env.open(QIODevice::ReadOnly));
        QCOMPARE(env.readAll().trimmed(), QByteArray("GPU-8fe9b1e1726f2a10 0"));
        QSignalSpy preempted(m_monitor.get(), &Monitor::preempted);

        // Every ROCm process opens kfd, which names no GPU: alone it makes no GPU busy.
        NodeHolder kfdOnly(QStringList{kfd()}, QStringLiteral("rocminfo"));
        QVERIFY(kfdOnly.waitUntilOpen());
        m_monitor->rescan();
        QCOMPARE(state(), WorkloadRuntime::Running);
        QCOMPARE(preempted.count(), 0);
        const MonitorState idle = m_monitor->state();
        QCOMPARE(idle.decision.gpus.size(), 1);
        QVERIFY(idle.decision.gpus.at(0).state != GpuState::Busy);
        const auto kfdHolder = std::find_if(idle.snapshot.holders.cbegin(), idle.snapshot.holders.cend(),
                                            [&](const Holder &h) { return h.pid == kfdOnly.pid(); });
        QVERIFY(kfdHolder != idle.snapshot.holders.cend());
        QVERIFY(kfdHolder->holdsSharedNode);
        QVERIFY(kfdHolder->gpus.isEmpty());

        // A job that opens the render node takes the GPU.
        NodeHolder job(QStringList{kfd(), m_renderNode}, QStringLiteral("python3"));
        QTRY_VERIFY_WITH_TIMEOUT(preempted.count() >= 1, 3000);
        const auto event = preempted.first().first().value<PreemptionEvent>();
        QCOMPARE(event.gpu, 0);
        QCOMPARE(event.culprit.pid, job.pid());
        QTRY_COMPARE_WITH_TIMEOUT(state(), WorkloadRuntime::Stopped, 5000);
        QCOMPARE(m_monitor->state().decision.gpus.at(0).state, GpuState::Busy);
    }

    void renderNodeAppearingIsNoticed()
    {
        startMonitor();
        QVERIFY(m_monitor->state().snapshot.devices.gpus.isEmpty());
        QVERIFY(QDir(m_dev->path()).mkdir(QStringLiteral("dri"))); // amdgpu loads: dri/ first, its nodes next
        QTRY_VERIFY_WITH_TIMEOUT(m_monitor->state().snapshot.takenAtMs > 0, 1000);
        QTest::qWait(300); // the rescan for dri/ has run and watches it
        addAmdGpu();
        QTRY_COMPARE_WITH_TIMEOUT(m_monitor->state().snapshot.devices.gpus.size(), 1, 5000);
        const GpuDevice gpu = m_monitor->state().snapshot.devices.gpus.first();
        QCOMPARE(gpu.vendor, GpuVendor::Amd);
        QCOMPARE(gpu.path, m_renderNode);
        QTRY_COMPARE_WITH_TIMEOUT(state(), WorkloadRuntime::Running, 5000);
    }

    void statusNamesTheGpuAndItsHolder()
    {
        addAmdGpu();
        NodeHolder job(QStringList{kfd(), m_renderNode}, QStringLiteral("python3"));
        QVERIFY(job.waitUntilOpen());
        Config config;
        config.deviceRoot = m_dev->path();
        MonitorPaths paths;
        paths.sysfsRoot = m_sysfs->path();
        const MonitorState state = Monitor::lookOnce(config, paths, nullptr);
        const QString text = StatusReport::formatText(state);
        QVERIFY2(text.contains(QStringLiteral("GPU 0, AMD GPU 1002:744c (amdgpu, 0000:03:00.0) (GPU-8fe9b1e1726f2a10): busy")), qPrintable(text));
        QVERIFY2(text.contains(QStringLiteral("held by python3")), qPrintable(text));
        const QJsonObject gpu = StatusReport::toJson(state).value(QStringLiteral("gpus")).toArray().at(0).toObject();
        QCOMPARE(gpu.value(QStringLiteral("vendor")).toString(), QStringLiteral("amd"));
        QCOMPARE(gpu.value(QStringLiteral("driver")).toString(), QStringLiteral("amdgpu"));
        QCOMPARE(gpu.value(QStringLiteral("pci_slot")).toString(), QStringLiteral("0000:03:00.0"));
        QCOMPARE(gpu.value(QStringLiteral("unique_id")).toString(), QStringLiteral("8fe9b1e1726f2a10"));
        QCOMPARE(gpu.value(QStringLiteral("node")).toString(), m_renderNode);
    }
};

QTEST_GUILESS_MAIN(TestDrmIntegration)
#include "tst_it_drm.moc"
