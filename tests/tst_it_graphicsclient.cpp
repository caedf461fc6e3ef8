// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// busy_when = auto on a desktop: the real monitor and runner with NVML (the fake libnvidia-ml, driven by a script
// this test rewrites) over fake nodes held by real processes. A graphics client (nvidia0 and nvidiactl, no
// nvidia-uvm) that NVML lists as a graphics process leaves the workload running while it uses little of the GPU,
// and stops it, through the open-only watch, once NVML measures it above graphics_busy_percent. A compute client
// (it holds nvidia-uvm) stops the workload at once, whatever NVML says.
#include "backends/nvmlbackend.h"
#include "monitorfixture.h"

#include <QtTest>

#include <cstdio>

using namespace TestSupport;

class TestGraphicsClient : public QObject, private MonitorFixture
{
    Q_OBJECT

    QByteArray m_script;

    // NVML's GPU 0 is /dev/nvidia0 of the fake root; `lines` add its processes and samples.
    void writeScript(const QByteArray &lines)
    {
        m_script = "device 0 0 0 85899345920 40 50000 GPU-test-0000 00000000:19:00.0 Fake GPU\n" + lines;
        // Written whole, then renamed: the fake re-reads it at the start of each sample.
        const QString path = m_dir->filePath(QStringLiteral("nvml-script"));
        writeFile(path + QStringLiteral(".new"), m_script);
        QVERIFY(::rename(QFile::encodeName(path + QStringLiteral(".new")).constData(), QFile::encodeName(path).constData())
                == 0);
        qputenv("FAKE_NVML_SCRIPT", QFile::encodeName(path));
    }

    void startMonitor()
    {
        const QString config = writeConfig(defaults(0) + sleeperSection(QStringLiteral("w"), QStringLiteral("0")));
        makeMonitor(config);
        auto nvml = std::make_unique<NvmlBackend>(QStringLiteral(IDLEGPU_FAKE_NVML), QStringList(), m_dev->path());
        QVERIFY2(nvml->available(), qPrintable(nvml->unavailableReason()));
        m_monitor->setGpuBackend(std::move(nvml));
        QVERIFY(m_monitor->start());
    }

    WorkloadRuntime::State state() const { return stateOf(QStringLiteral("process-w")); }
    QString uvm() const { return m_dev->path() + QStringLiteral("/nvidia-uvm"); }

    // The holder `pid` as the last decision saw it on GPU 0: among the holders that count or among those that
    // only have it open.
    Holder holderOnGpu0(qint64 pid, bool *counts) const
    {
        const GpuStatus *status = m_monitor->state().decision.gpu(0);
        if (!status)
            return Holder();
        for (const Holder &holder : status->foreignHolders)
            if (holder.pid == pid) {
                *counts = true;
                return holder;
            }
        for (const Holder &holder : status->openOnlyHolders)
            if (holder.pid == pid) {
                *counts = false;
                return holder;
            }
        return Holder();
    }

private Q_SLOTS:
    void init()
    {
        setUpMonitorFixture(1);
        writeScript(QByteArray());
    }
    void cleanup() { QVERIFY(tearDownMonitorFixture()); }

    void graphicsClientCountsOnlyWhenBusy()
    {
        startMonitor();
        QTRY_COMPARE_WITH_TIMEOUT(state(), WorkloadRuntime::Running, 10000);

        NodeHolder game({m_dev->ctl(), m_dev->node(0)}, QStringLiteral("game"));
        QVERIFY(game.waitUntilOpen());
        const QByteArray listed = "process 0 graphics " + QByteArray::number(game.pid()) + " 268435456\n";
        writeScript(listed + "sample 0 " + QByteArray::number(game.pid()) + " 1000 5\n");

        // The watch reads NVML; a rescan shows what the decision makes of it: a graphics client at 5 % (0 % once
        // NVML's window has passed without a newer sample, as on a very slow machine).
        bool counts = true;
        const auto measured = [&] {
            m_monitor->rescan();
            const std::optional<int> busy = holderOnGpu0(game.pid(), &counts).gpuUse.value(0).busyPercent;
            return busy.has_value() && *busy <= 5;
        };
        QTRY_VERIFY_WITH_TIMEOUT(measured(), 10000);
        QVERIFY(!counts);
        const GpuUse use = holderOnGpu0(game.pid(), &counts).gpuUse.value(0);
        QVERIFY(use.graphicsOnly);
        QVERIFY(!use.compute);
        QCOMPARE(state(), WorkloadRuntime::Running);
        // Many watch periods on, it still runs.
        QTest::qWait(10 * Monitor::kOpenOnlyWatchMs);
        QCOMPARE(state(), WorkloadRuntime::Running);

        // The game gets busy: the watch sees it without any node event, and the workload stops.
        writeScript(listed + "sample 0 " + QByteArray::number(game.pid()) + " 1000 5\n" + "sample 0 "
                    + QByteArray::number(game.pid()) + " 2000 60\n");
        QTRY_VERIFY_WITH_TIMEOUT(state() != WorkloadRuntime::Running, 50 * Monitor::kOpenOnlyWatchMs);
        const GpuStatus *status = m_monitor->state().decision.gpu(0);
        QVERIFY(status);
        QCOMPARE(status->state, GpuState::Busy);
        const Holder busy = holderOnGpu0(game.pid(), &counts);
        QVERIFY(counts);
        QCOMPARE(busy.gpuUse.value(0).busyPercent, std::optional<int>(60));

        // The game ends: the workload comes back.
        game.kill();
        writeScript(QByteArray());
        QTRY_COMPARE_WITH_TIMEOUT(state(), WorkloadRuntime::Running, 10000);
    }

    // nvidia-uvm makes a compute client: the workload stops at once, before NVML has listed anything.
    void computeClientStopsAtOnce()
    {
        startMonitor();
        QTRY_COMPARE_WITH_TIMEOUT(state(), WorkloadRuntime::Running, 10000);
        NodeHolder job({m_dev->ctl(), uvm(), m_dev->node(0)}, QStringLiteral("python3"));
        QVERIFY(job.waitUntilOpen());
        QTRY_VERIFY_WITH_TIMEOUT(state() != WorkloadRuntime::Running, 5000);
        bool counts = false;
        QTRY_COMPARE_WITH_TIMEOUT(holderOnGpu0(job.pid(), &counts).pid, job.pid(), 5000);
        QVERIFY(counts);
        QVERIFY(holderOnGpu0(job.pid(), &counts).holdsComputeNode);
    }
};

QTEST_GUILESS_MAIN(TestGraphicsClient)
#include "tst_it_graphicsclient.moc"
