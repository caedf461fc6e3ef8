// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// busy_when = auto (the default) end to end: real processes holding fake device nodes, the real monitor and runner.
// A compute client (it holds nvidia-uvm, as every CUDA process does) stops the workload on its GPU at once; a
// graphics client (nvidia0 and nvidiactl only: a browser, a compositor, an OpenGL program) leaves it running and is
// listed as open only; a CUDA process that opens nvidia0 first is stopped at once on its later nvidia-uvm open;
// busy_when = opened still counts the graphics client. No GPU backend: nothing measures the graphics client.
#include "monitorfixture.h"

#include <QtTest>

using namespace TestSupport;

class TestClientsIntegration : public QObject, private MonitorFixture
{
    Q_OBJECT

private:
    static constexpr auto kWorkload = "process-0";

    // One workload on GPU 0; interval_seconds = 60, so that only node events (not the poll) can answer within a test.
    void startMonitor(const QString &groups = QString(), const QString &procRoot = QStringLiteral("/proc"))
    {
        const QString config =
            writeConfig(defaults(0) + groups + sleeperSection(QStringLiteral("0"), QStringLiteral("0")));
        MonitorPaths paths;
        paths.procRoot = procRoot;
        makeMonitor(config, paths);
        QVERIFY(m_monitor->start());
        QTRY_COMPARE_WITH_TIMEOUT(state(), WorkloadRuntime::Running, 10000);
        QTest::qWait(200); // every event of the start handled
    }
    WorkloadRuntime::State state() const { return stateOf(QLatin1String(kWorkload)); }
    GpuStatus gpu0() const
    {
        const GpuStatus *status = m_monitor->state().decision.gpu(0);
        return status ? *status : GpuStatus();
    }
    static QList<qint64> pids(const QList<Holder> &holders)
    {
        QList<qint64> result;
        for (const Holder &holder : holders)
            result.append(holder.pid);
        return result;
    }

private Q_SLOTS:
    void init() { setUpMonitorFixture(2); }
    void cleanup() { QVERIFY(tearDownMonitorFixture()); }

    void computeClientPreempts()
    {
        startMonitor();
        NodeHolder job(m_dev->computeJob(0), QStringLiteral("python3"));
        QTRY_COMPARE_WITH_TIMEOUT(m_preempted->count(), 1, 5000);
        const auto event = m_preempted->first().first().value<PreemptionEvent>();
        QCOMPARE(event.workloadId, QLatin1String(kWorkload));
        QCOMPARE(event.gpu, 0);
        QCOMPARE(event.culprit.pid, job.pid());
        QVERIFY(event.culprit.holdsComputeNode);
        QCOMPARE(Policy::clientKind(event.culprit, 0), Policy::ClientKind::Compute);
        QTRY_VERIFY_WITH_TIMEOUT(state() != WorkloadRuntime::Running, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(gpu0().state, GpuState::Busy, 5000);
        QCOMPARE(pids(gpu0().foreignHolders), QList<qint64>{job.pid()});
    }

    void graphicsClientLeavesTheWorkloadRunning()
    {
        startMonitor();
        const qint64 workloadPid = m_runner->runtimes().value(QLatin1String(kWorkload)).pid;
        NodeHolder browser(m_dev->graphicsClient(0), QStringLiteral("firefox"));
        QVERIFY(browser.waitUntilOpen());
        // Listed once its open was answered: any preemption for it would have come with that scan.
        QTRY_COMPARE_WITH_TIMEOUT(pids(gpu0().openOnlyHolders), QList<qint64>{browser.pid()}, 5000);
        m_monitor->rescan();
        QCOMPARE(m_preempted->count(), 0);
        QCOMPARE(state(), WorkloadRuntime::Running);
        QCOMPARE(m_runner->runtimes().value(QLatin1String(kWorkload)).pid, workloadPid);
        const GpuStatus status = gpu0();
        QCOMPARE(status.state, GpuState::RunningWorkload);
        QVERIFY(status.foreignHolders.isEmpty());
        const Holder holder = status.openOnlyHolders.value(0);
        QVERIFY(holder.holdsSharedNode); // nvidiactl
        QVERIFY(!holder.holdsComputeNode);
        const Policy::HolderVerdict verdict = Policy::judgeHolder(holder, 0, m_monitor->state().config.busyRuleFor(0));
        QCOMPARE(verdict.kind, Policy::ClientKind::Graphics);
        QVERIFY(!verdict.makesBusy);
        QVERIFY2(verdict.why.contains(QLatin1String("graphics client")), qPrintable(verdict.why));
    }

    // A CUDA process that opens nvidia0 before nvidia-uvm is a graphics client until the uvm open, which must stop
    // the workload at once: the poll is a minute away, so only that open's event can.
    void uvmOpenedLaterPreemptsOnTheUvmOpen()
    {
        startMonitor();
        NodeHolder job({m_dev->node(0), m_dev->ctl()}, QStringLiteral("python3"), {m_dev->uvm()});
        QVERIFY(job.waitUntilOpen());
        QTRY_COMPARE_WITH_TIMEOUT(pids(gpu0().openOnlyHolders), QList<qint64>{job.pid()}, 5000);
        QCOMPARE(m_preempted->count(), 0);
        QCOMPARE(state(), WorkloadRuntime::Running);

        job.openLater();
        QTRY_COMPARE_WITH_TIMEOUT(m_preempted->count(), 1, 5000);
        const auto event = m_preempted->first().first().value<PreemptionEvent>();
        QCOMPARE(event.culprit.pid, job.pid());
        QVERIFY(event.culprit.holdsComputeNode);
        QTRY_COMPARE_WITH_TIMEOUT(gpu0().state, GpuState::Busy, 5000);
        QCOMPARE(pids(gpu0().foreignHolders), QList<qint64>{job.pid()});
    }

    // The same, when the uvm open's event is answered before its fd shows in /proc (the kernel reports the open
    // first): the scan that answers it sees a graphics client, and the monitor must look again at once. A fake proc
    // root shows the fd only after that scan, with no further event.
    void uvmOpenSeenLateIsLookedAtAgain()
    {
        FakeProc proc;
        FakeProc::Process job;
        job.pid = 4244;
        job.sid = 4244;
        job.comm = "python3";
        job.fds = m_dev->graphicsClient(0);
        proc.add(job);
        startMonitor(QString(), proc.path());
        QTRY_COMPARE_WITH_TIMEOUT(pids(gpu0().openOnlyHolders), QList<qint64>{4244}, 5000);
        QCOMPARE(state(), WorkloadRuntime::Running);

        bool added = false;
        QObject addsOnce; // the connection ends with this scope
        connect(m_monitor.get(), &Monitor::stateChanged, &addsOnce, [&] {
            if (!added) {
                added = true;
                job.fds.append(m_dev->uvm());
                proc.add(job);
            }
        });
        QFile uvm(m_dev->uvm());
        QVERIFY(uvm.open(QIODevice::ReadOnly));
        QTRY_VERIFY_WITH_TIMEOUT(added, 3000);
        QTRY_COMPARE_WITH_TIMEOUT(m_preempted->count(), 1, 3000);
        QCOMPARE(m_preempted->first().first().value<PreemptionEvent>().culprit.pid, 4244);
        QVERIFY(m_preempted->first().first().value<PreemptionEvent>().culprit.holdsComputeNode);
    }

    void openedRuleCountsTheGraphicsClient()
    {
        startMonitor(QStringLiteral("[gpu-all]\ngpus=ALL\nbusy_when=opened\n\n"));
        NodeHolder browser(m_dev->graphicsClient(0), QStringLiteral("firefox"));
        QTRY_COMPARE_WITH_TIMEOUT(m_preempted->count(), 1, 5000);
        const auto event = m_preempted->first().first().value<PreemptionEvent>();
        QCOMPARE(event.culprit.pid, browser.pid());
        QCOMPARE(Policy::clientKind(event.culprit, 0), Policy::ClientKind::Graphics);
        QTRY_COMPARE_WITH_TIMEOUT(gpu0().state, GpuState::Busy, 5000);
        const Policy::HolderVerdict verdict =
            Policy::judgeHolder(gpu0().foreignHolders.value(0), 0, m_monitor->state().config.busyRuleFor(0));
        QVERIFY(verdict.makesBusy);
        QVERIFY2(verdict.why.contains(QLatin1String("busy_when = opened")), qPrintable(verdict.why));
    }
};

QTEST_GUILESS_MAIN(TestClientsIntegration)
#include "tst_it_clients.moc"
