// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The monitor with a GPU backend (a scripted one standing in for NVML): sampled at start and while someone
// looks, never by a rescan; its processes become holders; workloads get CUDA_VISIBLE_DEVICES by UUID.
#include "backends/nvmlbackend.h"
#include "monitorfixture.h"

#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace TestSupport;

namespace {
// Stands in for NVML: its GPUs have their nodes in `deviceRoot`.
class ScriptedBackend : public NvidiaLibraryBackend
{
public:
    ScriptedBackend(bool available, int *samples, const QString &deviceRoot)
        : NvidiaLibraryBackend(deviceRoot), m_available(available), m_samples(samples)
    {
    }
    QString name() const override { return QStringLiteral("Scripted"); }
    bool available() const override { return m_available; }
    QString unavailableReason() const override { return m_available ? QString() : QStringLiteral("no driver"); }
    QList<GpuInfo> sample() override
    {
        ++*m_samples;
        return gpus;
    }
    QList<GpuInfo> sampleProcesses() override
    {
        ++processSamples;
        QList<GpuInfo> lists = gpus;
        for (GpuInfo &info : lists)
            info.utilizationPercent.reset();
        return lists;
    }
    // What NVML's graphics list says of a uvm holder (nvidia-smi's type G only): a graphics client after all.
    void judgeHolders(QList<Holder> &holders, const DeviceNodes &covered, const QString &procRoot) const override
    {
        NvidiaLibraryBackend::judgeHolders(holders, covered, procRoot);
        for (Holder &holder : holders)
            for (auto it = holder.gpuUse.begin(); it != holder.gpuUse.end(); ++it)
                if (graphicsOnlyPids.contains(holder.pid)) {
                    it->compute = false;
                    it->graphicsOnly = true;
                }
    }
    QList<GpuInfo> gpus;
    QSet<qint64> graphicsOnlyPids;
    int processSamples = 0;

private:
    bool m_available;
    int *m_samples;
};

GpuInfo gpu(int index, const QString &uuid)
{
    GpuInfo info;
    info.index = index;
    info.backendIndex = 1 - index;
    info.name = QStringLiteral("Scripted GPU");
    info.uuid = uuid;
    info.utilizationPercent = 50;
    info.processesKnown = true;
    return info;
}
} // namespace

class TestGpuBackendIntegration : public QObject, private MonitorFixture
{
    Q_OBJECT

    ScriptedBackend *m_backend = nullptr;
    int m_samples = 0;

    // A monitor over the fake nodes whose backend names GPU 0 and 1 by UUID.
    void startMonitor(const QString &workloads, bool available = true, const QString &procRoot = QStringLiteral("/proc"),
                      bool backendRootMatches = true)
    {
        const QString config = writeConfig(defaults(0) + workloads);
        MonitorPaths paths;
        paths.procRoot = procRoot;
        makeMonitor(config, paths);
        auto backend = std::make_unique<ScriptedBackend>(available, &m_samples,
                                                         backendRootMatches ? m_dev->path() : m_dir->path());
        backend->gpus = {gpu(0, QStringLiteral("GPU-test-0000")), gpu(1, QStringLiteral("GPU-test-0001"))};
        m_backend = backend.get();
        m_monitor->setGpuBackend(std::move(backend));
        QVERIFY(m_monitor->start());
    }

    QString visibleDevicesWorkload(const QString &gpus)
    {
        return QStringLiteral("[process-probe]\ncmd=sh -c 'echo \"$CUDA_VISIBLE_DEVICES\" > %1; exec sleep 1000'\n"
                              "gpus=%2\nstop_timeout_seconds=2\n")
            .arg(m_dir->filePath(QStringLiteral("visible")), gpus);
    }
    QByteArray visibleDevices() const
    {
        QFile file(m_dir->filePath(QStringLiteral("visible")));
        return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed() : QByteArray();
    }

private Q_SLOTS:
    void init()
    {
        setUpMonitorFixture(2);
        m_samples = 0;
    }
    void cleanup() { QVERIFY(tearDownMonitorFixture()); }

    void sampledAtStartNotByRescan()
    {
        startMonitor(QString());
        QCOMPARE(m_samples, 1);
        const MonitorState state = m_monitor->state();
        QCOMPARE(state.gpuMetrics.backend, QStringLiteral("Scripted"));
        QVERIFY(state.gpuMetrics.available);
        QCOMPARE(state.gpuMetrics.gpus.value(1).uuid, QStringLiteral("GPU-test-0001"));
        QCOMPARE(state.gpuMetrics.gpus.value(0).utilizationPercent, std::optional<int>(50));
        m_monitor->rescan();
        m_monitor->rescan();
        QCOMPARE(m_samples, 1);
    }

    void samplesWhileWanted()
    {
        startMonitor(QString());
        m_monitor->setGpuSamplingWanted(true);
        QCOMPARE(m_samples, 2); // at once
        QTRY_VERIFY_WITH_TIMEOUT(m_samples >= 3, 3 * Monitor::kGpuSampleMs);
        m_monitor->setGpuSamplingWanted(false);
        const int samples = m_samples;
        QTest::qWait(Monitor::kGpuSampleMs + 500);
        QCOMPARE(m_samples, samples);
    }

    void cudaVisibleDevicesByUuid()
    {
        startMonitor(visibleDevicesWorkload(QStringLiteral("1")));
        QTRY_COMPARE_WITH_TIMEOUT(visibleDevices(), QByteArray("GPU-test-0001"), 10000);
    }

    void unavailableIsNodeOnly()
    {
        startMonitor(visibleDevicesWorkload(QStringLiteral("1")), false);
        QTRY_COMPARE_WITH_TIMEOUT(visibleDevices(), QByteArray("1"), 10000);
        QCOMPARE(m_samples, 0);
        m_monitor->setGpuSamplingWanted(true);
        QCOMPARE(m_samples, 0);
        const MonitorState state = m_monitor->state();
        QVERIFY(!state.gpuMetrics.available);
        QCOMPARE(state.gpuMetrics.unavailableReason, QStringLiteral("no driver"));
        QVERIFY(state.gpuMetrics.gpus.isEmpty());
    }

    // The demo's simulated GPUs are not the backend's: no metrics, numbers in CUDA_VISIBLE_DEVICES.
    void otherDeviceRootIgnoresBackend()
    {
        startMonitor(visibleDevicesWorkload(QStringLiteral("1")), true, QStringLiteral("/proc"), false);
        QTRY_COMPARE_WITH_TIMEOUT(visibleDevices(), QByteArray("1"), 10000);
        QVERIFY(m_monitor->state().gpuMetrics.gpus.isEmpty());
    }

    // Another user's job (its /proc/<pid>/fd unreadable) that NVML names makes its GPU busy, with its pid; once
    // NVML no longer lists it, a later sample frees the GPU.
    void hiddenProcessHoldsGpu()
    {
        QTemporaryDir proc;
        writeFile(proc.filePath(QStringLiteral("4242/status")), "Name:\ttrain.py\nUid:\t12345\t0\t0\t0\n");
        const QString config = QStringLiteral("[process-w]\ncmd=sleep 1000\ngpus=0\nstop_timeout_seconds=2\n");
        startMonitor(config, true, proc.path());
        QTRY_COMPARE_WITH_TIMEOUT(m_runner->runtimes().value(QStringLiteral("process-w")).state, WorkloadRuntime::Running,
                                  10000);
        GpuInfo busy = gpu(0, QStringLiteral("GPU-test-0000"));
        busy.processes = {GpuProcessUse{4242, qint64(1) << 30, false}};
        m_backend->gpus = {busy, gpu(1, QStringLiteral("GPU-test-0001"))};
        m_monitor->setGpuSamplingWanted(true);

        const auto holderOnGpu0 = [this]() -> Holder {
            for (const GpuStatus &status : m_monitor->state().decision.gpus)
                if (status.index == 0 && !status.foreignHolders.isEmpty())
                    return status.foreignHolders.first();
            return Holder();
        };
        QTRY_COMPARE_WITH_TIMEOUT(holderOnGpu0().pid, 4242, 5000);
        const Holder holder = holderOnGpu0();
        QVERIFY(holder.hidden);
        QCOMPARE(holder.comm, QStringLiteral("train.py"));
        QCOMPARE(holder.gpuMemoryBytes, std::optional<qint64>(qint64(1) << 30));
        QTRY_COMPARE_WITH_TIMEOUT(m_runner->runtimes().value(QStringLiteral("process-w")).state == WorkloadRuntime::Running,
                                  false, 10000);

        m_backend->gpus = {gpu(0, QStringLiteral("GPU-test-0000")), gpu(1, QStringLiteral("GPU-test-0001"))};
        QTRY_COMPARE_WITH_TIMEOUT(holderOnGpu0().pid, 0, 3 * Monitor::kGpuSampleMs);
        QTRY_COMPARE_WITH_TIMEOUT(m_runner->runtimes().value(QStringLiteral("process-w")).state, WorkloadRuntime::Running,
                                  10000);
    }

    // busy_when = computes: a job that opens the workload's GPU without computing there (a CUDA process before
    // its context: nvidia-uvm open is not enough under this rule) leaves the workload running, watched through the
    // quick process lists; once the backend lists it as computing there the workload stops within a few watch
    // periods; when the job is gone the workload comes back.
    void computesOnlyPreemptsOnCompute()
    {
        startMonitor(QStringLiteral("[gpu-0]\ngpus=0\nbusy_when=computes\n\n"
                                    "[process-w]\ncmd=sleep 1000\ngpus=0\nstop_timeout_seconds=2\n"));
        const auto state = [this] { return m_runner->runtimes().value(QStringLiteral("process-w")).state; };
        QTRY_COMPARE_WITH_TIMEOUT(state(), WorkloadRuntime::Running, 10000);

        auto job = std::make_unique<NodeHolder>(m_dev->computeJob(0));
        QVERIFY(job->waitUntilOpen());
        const auto openOnlyOnGpu0 = [this]() -> QList<qint64> {
            QList<qint64> pids;
            for (const GpuStatus &status : m_monitor->state().decision.gpus)
                if (status.index == 0)
                    for (const Holder &holder : status.openOnlyHolders)
                        pids.append(holder.pid);
            return pids;
        };
        QTRY_COMPARE_WITH_TIMEOUT(openOnlyOnGpu0(), QList<qint64>{job->pid()}, 5000);
        // The status window opening and closing (metrics sampling) leaves the watch alone.
        m_monitor->setGpuSamplingWanted(true);
        m_monitor->setGpuSamplingWanted(false);
        const int before = m_backend->processSamples;
        QTRY_VERIFY_WITH_TIMEOUT(m_backend->processSamples >= before + 3, 20 * Monitor::kOpenOnlyWatchMs);
        QCOMPARE(state(), WorkloadRuntime::Running);

        GpuInfo computing = gpu(0, QStringLiteral("GPU-test-0000"));
        computing.processes = {GpuProcessUse{job->pid(), qint64(1) << 30, false}};
        m_backend->gpus = {computing, gpu(1, QStringLiteral("GPU-test-0001"))};
        QTRY_VERIFY_WITH_TIMEOUT(state() != WorkloadRuntime::Running, 20 * Monitor::kOpenOnlyWatchMs);
        const GpuStatus *status = m_monitor->state().decision.gpu(0);
        QVERIFY(status);
        QCOMPARE(status->state, GpuState::Busy);
        QCOMPARE(status->foreignHolders.value(0).pid, job->pid());

        job.reset();
        m_backend->gpus = {gpu(0, QStringLiteral("GPU-test-0000")), gpu(1, QStringLiteral("GPU-test-0001"))};
        QTRY_COMPARE_WITH_TIMEOUT(state(), WorkloadRuntime::Running, 10000);
        // Nothing left to watch: the quick sampling stops.
        QTRY_VERIFY_WITH_TIMEOUT(openOnlyOnGpu0().isEmpty(), 5000);
        const int samples = m_backend->processSamples;
        QTest::qWait(5 * Monitor::kOpenOnlyWatchMs);
        QCOMPARE(m_backend->processSamples, samples);
    }

    // busy_when = auto: a graphics client beside the workload is measured through the quick process lists (a
    // backend can); under the threshold it leaves the workload running, once it uses graphics_busy_percent or the
    // memory threshold (1024 MiB without busy_memory_mib) it stops it.
    void graphicsClientCountsOnceMeasuredBusy()
    {
        startMonitor(QStringLiteral("[process-w]\ncmd=sleep 1000\ngpus=0\nstop_timeout_seconds=2\n"));
        const auto state = [this] { return m_runner->runtimes().value(QStringLiteral("process-w")).state; };
        QTRY_COMPARE_WITH_TIMEOUT(state(), WorkloadRuntime::Running, 10000);

        NodeHolder viewport(m_dev->graphicsClient(0), QStringLiteral("blender"));
        QVERIFY(viewport.waitUntilOpen());
        const auto openOnlyOnGpu0 = [this]() -> QList<qint64> {
            QList<qint64> pids;
            if (const GpuStatus *status = m_monitor->state().decision.gpu(0))
                for (const Holder &holder : status->openOnlyHolders)
                    pids.append(holder.pid);
            return pids;
        };
        QTRY_COMPARE_WITH_TIMEOUT(openOnlyOnGpu0(), QList<qint64>{viewport.pid()}, 5000);

        GpuInfo light = gpu(0, QStringLiteral("GPU-test-0000"));
        light.processes = {GpuProcessUse{viewport.pid(), qint64(200) << 20, true}};
        m_backend->gpus = {light, gpu(1, QStringLiteral("GPU-test-0001"))};
        int before = m_backend->processSamples;
        QTRY_VERIFY_WITH_TIMEOUT(m_backend->processSamples >= before + 3, 20 * Monitor::kOpenOnlyWatchMs);
        QCOMPARE(state(), WorkloadRuntime::Running);

        GpuInfo heavy = gpu(0, QStringLiteral("GPU-test-0000"));
        heavy.processes = {GpuProcessUse{viewport.pid(), qint64(2048) << 20, true}};
        m_backend->gpus = {heavy, gpu(1, QStringLiteral("GPU-test-0001"))};
        QTRY_VERIFY_WITH_TIMEOUT(state() != WorkloadRuntime::Running, 20 * Monitor::kOpenOnlyWatchMs);
        const GpuStatus *status = m_monitor->state().decision.gpu(0);
        QVERIFY(status);
        QCOMPARE(status->state, GpuState::Busy);
        const Holder holder = status->foreignHolders.value(0);
        QCOMPARE(holder.pid, viewport.pid());
        const Policy::HolderVerdict verdict =
            Policy::judgeHolder(holder, 0, m_monitor->state().config.busyRuleFor(0));
        QCOMPARE(verdict.kind, Policy::ClientKind::Graphics);
        QVERIFY2(verdict.why.contains(QLatin1String("2048 MiB")), qPrintable(verdict.why));
    }

    // A uvm holder the backend lists among the GPU's graphics processes only is a graphics client: the fast path,
    // which asks no backend, stops the workload at its open (in doubt), but once the backend has spoken the
    // workload comes back and later scans leave it running instead of stopping it each time.
    void graphicsOnlyUvmHolderDoesNotFlap()
    {
        startMonitor(QStringLiteral("[process-w]\ncmd=sleep 1000\ngpus=0\nstop_timeout_seconds=2\n"));
        const auto state = [this] { return m_runner->runtimes().value(QStringLiteral("process-w")).state; };
        QSignalSpy preempted(m_monitor.get(), &Monitor::preempted);
        QTRY_COMPARE_WITH_TIMEOUT(state(), WorkloadRuntime::Running, 10000);

        NodeHolder compositor(m_dev->computeJob(0), QStringLiteral("gamescope"));
        QTRY_COMPARE_WITH_TIMEOUT(preempted.count(), 1, 5000);
        GpuInfo listed = gpu(0, QStringLiteral("GPU-test-0000"));
        listed.processes = {GpuProcessUse{compositor.pid(), qint64(64) << 20, true}};
        m_backend->gpus = {listed, gpu(1, QStringLiteral("GPU-test-0001"))};
        m_backend->graphicsOnlyPids = {compositor.pid()};
        m_monitor->sampleGpus();
        QTRY_COMPARE_WITH_TIMEOUT(state(), WorkloadRuntime::Running, 10000);
        const GpuStatus *status = m_monitor->state().decision.gpu(0);
        QVERIFY(status);
        QCOMPARE(status->openOnlyHolders.value(0).pid, compositor.pid());
        QCOMPARE(Policy::clientKind(status->openOnlyHolders.value(0), 0), Policy::ClientKind::Graphics);

        for (int i = 0; i < 3; ++i)
            m_monitor->rescan();
        QCOMPARE(preempted.count(), 1);
        QCOMPARE(state(), WorkloadRuntime::Running);
    }

    // Without busy_when (auto) the same CUDA job is a compute client: its open stops the workload at once,
    // without asking the backend.
    void computeClientPreemptsOnOpen()
    {
        startMonitor(QStringLiteral("[process-w]\ncmd=sleep 1000\ngpus=0\nstop_timeout_seconds=2\n"));
        const auto state = [this] { return m_runner->runtimes().value(QStringLiteral("process-w")).state; };
        QTRY_COMPARE_WITH_TIMEOUT(state(), WorkloadRuntime::Running, 10000);
        NodeHolder job(m_dev->computeJob(0));
        QVERIFY(job.waitUntilOpen());
        QTRY_VERIFY_WITH_TIMEOUT(state() != WorkloadRuntime::Running, 5000);
        QCOMPARE(m_backend->processSamples, 0);
    }
};

QTEST_GUILESS_MAIN(TestGpuBackendIntegration)
#include "tst_it_gpubackend.moc"
