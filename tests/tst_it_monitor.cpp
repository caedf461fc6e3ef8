// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// Integration tests of the monitor: real ProcessRunner, real processes holding fake device nodes, real /proc
// and inotify. Only the GPU is fake.
#include "monitorfixture.h"

#include <QSignalSpy>
#include <QtTest>

#include <signal.h>

using namespace TestSupport;

class TestMonitorIntegration : public QObject, private MonitorFixture
{
    Q_OBJECT

private Q_SLOTS:
    void init() { setUpMonitorFixture(2); }
    void cleanup() { QVERIFY(tearDownMonitorFixture()); }

    void startsAfterTheDelay()
    {
        const QString path = writeConfig(defaults(1) + sleeperSection(QStringLiteral("0"), QStringLiteral("0")));
        makeMonitor(path);
        QVERIFY(m_monitor->start());
        // Not at once: the GPU must stay free for start_delay_seconds first.
        QCOMPARE(stateOf(QStringLiteral("process-0")), WorkloadRuntime::Stopped);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-0")), WorkloadRuntime::Running, 5000);
        const MonitorState state = m_monitor->state();
        QCOMPARE(state.decision.gpus.size(), 2);
        QCOMPARE(state.decision.gpus.at(0).state, GpuState::RunningWorkload);
    }

    void preemptsOnOpenAndRestartsAfterClose()
    {
        const QString path = writeConfig(defaults(1) + sleeperSection(QStringLiteral("0"), QStringLiteral("0")));
        makeMonitor(path);
        QSignalSpy preempted(m_monitor.get(), &Monitor::preempted);
        QVERIFY(m_monitor->start());
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-0")), WorkloadRuntime::Running, 5000);
        const qint64 firstPid = pidOf(QStringLiteral("process-0"));

        auto job = std::make_unique<NodeHolder>(m_dev->computeJob(0), QStringLiteral("python3"));
        QTRY_VERIFY_WITH_TIMEOUT(preempted.count() >= 1, 3000);
        const auto event = preempted.first().first().value<PreemptionEvent>();
        QCOMPARE(event.workloadId, QStringLiteral("process-0"));
        QCOMPARE(event.gpu, 0);
        QCOMPARE(event.culprit.pid, job->pid());
        QCOMPARE(event.culprit.comm, QStringLiteral("python3"));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-0")), WorkloadRuntime::Stopped, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(firstPid), 3000);
        QCOMPARE(m_monitor->state().decision.gpus.at(0).state, GpuState::Busy);

        job.reset(); // the user's job ends: after start_delay of calm the workload comes back
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-0")), WorkloadRuntime::Running, 5000);
        QVERIFY(pidOf(QStringLiteral("process-0")) != firstPid);
    }

    // An open that comes while a scan runs, by a process the scan had not listed (it started meanwhile), is read by
    // that scan with the queued events and never reaches the event handler: the monitor must look again at once.
    // A fake proc root stands in for /proc so that the opener appears only after the scan: as root, or with no
    // unreadable process, nothing is inferred from the open, and it used to be missed until the next event.
    void openDuringScanIsLookedAtAgain()
    {
        FakeProc proc;
        const QString path = writeConfig(defaults(0) + sleeperSection(QStringLiteral("0"), QStringLiteral("0")));
        MonitorPaths paths;
        paths.procRoot = proc.path();
        makeMonitor(path, paths);
        QVERIFY(m_monitor->start());
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-0")), WorkloadRuntime::Running, 5000);
        QTest::qWait(200); // every event of the start handled

        // No event loop turn between the open and the scan: the scan takes the queued open itself.
        QFile node(m_dev->node(0));
        QVERIFY(node.open(QIODevice::ReadOnly));
        m_monitor->rescan();
        QCOMPARE(stateOf(QStringLiteral("process-0")), WorkloadRuntime::Running); // it saw no holder
        FakeProc::Process opener;
        opener.pid = 4242;
        opener.sid = 4242;
        opener.comm = "python3";
        opener.fds = m_dev->computeJob(0);
        proc.add(opener);
        QTRY_VERIFY_WITH_TIMEOUT(stateOf(QStringLiteral("process-0")) != WorkloadRuntime::Running, 3000);
        QCOMPARE(m_monitor->state().decision.gpus.at(0).foreignHolders.value(0).pid, 4242);
    }

    void openBeforeItsFdShowsIsLookedAtAgain()
    {
        FakeProc proc;
        const QString path = writeConfig(defaults(0) + sleeperSection(QStringLiteral("0"), QStringLiteral("0")));
        MonitorPaths paths;
        paths.procRoot = proc.path();
        makeMonitor(path, paths);
        QVERIFY(m_monitor->start());
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-0")), WorkloadRuntime::Running, 5000);
        QTest::qWait(200); // every event of the start handled

        // The kernel queues the open before the opener's fd is in /proc: the scan that answers the event sees no
        // holder. The fd shows right after that scan, with no further event.
        FakeProc::Process opener;
        opener.pid = 4243;
        opener.sid = 4243;
        opener.comm = "python3";
        opener.fds = m_dev->computeJob(0);
        bool added = false;
        QObject addsOnce; // the connection ends with this scope
        connect(m_monitor.get(), &Monitor::stateChanged, &addsOnce, [&] {
            if (!added) {
                added = true;
                proc.add(opener);
            }
        });
        QFile node(m_dev->node(0));
        QVERIFY(node.open(QIODevice::ReadOnly));
        QTRY_VERIFY_WITH_TIMEOUT(added, 3000);
        QTRY_VERIFY_WITH_TIMEOUT(stateOf(QStringLiteral("process-0")) != WorkloadRuntime::Running, 3000);
        QCOMPARE(m_monitor->state().decision.gpus.at(0).foreignHolders.value(0).pid, 4243);
    }

    void ignoredProgramDoesNotPreempt()
    {
        const QString path = writeConfig(defaults(1) + QStringLiteral("[gpu-all]\ngpus=ALL\nignore_programs=nvidia-smi\n\n")
                                         + sleeperSection(QStringLiteral("0"), QStringLiteral("0")));
        makeMonitor(path);
        QSignalSpy preempted(m_monitor.get(), &Monitor::preempted);
        QVERIFY(m_monitor->start());
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-0")), WorkloadRuntime::Running, 5000);

        NodeHolder smi(m_dev->computeJob(0), QStringLiteral("nvidia-smi")); // nvidia-smi opens nvidia-uvm too
        QVERIFY(smi.waitUntilOpen());
        m_monitor->rescan();
        QCOMPARE(preempted.count(), 0);
        QCOMPARE(stateOf(QStringLiteral("process-0")), WorkloadRuntime::Running);
        QCOMPARE(m_monitor->state().decision.gpus.at(0).ignoredHolders.size(), 1);

        // A name that only starts like an ignored one is foreign (gpu_mon matched prefixes).
        NodeHolder lookalike(m_dev->computeJob(0), QStringLiteral("nvidia-smi-x"));
        QTRY_VERIFY_WITH_TIMEOUT(preempted.count() >= 1, 3000);
    }

    void otherGpuTrafficLeavesWorkloadAlone()
    {
        const QString path = writeConfig(defaults(1) + sleeperSection(QStringLiteral("0"), QStringLiteral("0"))
                                         + sleeperSection(QStringLiteral("1"), QStringLiteral("1")));
        makeMonitor(path);
        QVERIFY(m_monitor->start());
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-0")), WorkloadRuntime::Running, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-1")), WorkloadRuntime::Running, 5000);
        const qint64 pid0 = pidOf(QStringLiteral("process-0"));

        NodeHolder job(m_dev->computeJob(1));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-1")), WorkloadRuntime::Stopped, 5000);
        QCOMPARE(stateOf(QStringLiteral("process-0")), WorkloadRuntime::Running);
        QCOMPARE(pidOf(QStringLiteral("process-0")), pid0);
    }

    void workloadChildrenAreNeverForeign()
    {
        // The workload opens GPU 0 itself, as a CUDA process does (nvidia-uvm too: a compute client were it
        // foreign), in a child, and in a grandchild that leaves its session.
        const QString cmd = QStringLiteral("sh -c 'exec 3<%1 4<%2; sleep 1000 & setsid sh -c \"sleep 1000\" & wait'")
                                .arg(m_dev->node(0), m_dev->uvm());
        const QString path = writeConfig(defaults(1) + QStringLiteral("[process-0]\ncmd=%1\ngpus=0\n\n").arg(cmd));
        makeMonitor(path);
        QSignalSpy preempted(m_monitor.get(), &Monitor::preempted);
        QVERIFY(m_monitor->start());
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-0")), WorkloadRuntime::Running, 5000);
        // The children inherit the open nodes: no open event tells the monitor of them, so look again until the
        // shell and both sleeps are seen (on a busy machine the first scan may come before the forks).
        QTRY_VERIFY_WITH_TIMEOUT((m_monitor->rescan(), m_monitor->state().decision.gpus.at(0).ignoredHolders.size() >= 3),
                                 5000);
        QCOMPARE(preempted.count(), 0);
        QCOMPARE(stateOf(QStringLiteral("process-0")), WorkloadRuntime::Running);
        QCOMPARE(m_monitor->state().decision.gpus.at(0).state, GpuState::RunningWorkload);
    }

    void validReloadKeepsUnchangedWorkloadsAndBrokenEditIsRejected()
    {
        const QString path = writeConfig(defaults(1) + sleeperSection(QStringLiteral("0"), QStringLiteral("0"))
                                         + sleeperSection(QStringLiteral("1"), QStringLiteral("1")));
        makeMonitor(path);
        QSignalSpy rejected(m_monitor.get(), &Monitor::configRejected);
        QVERIFY(m_monitor->start());
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-0")), WorkloadRuntime::Running, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-1")), WorkloadRuntime::Running, 5000);
        const qint64 pid0 = pidOf(QStringLiteral("process-0"));
        const qint64 pid1 = pidOf(QStringLiteral("process-1"));

        // Change process-1 only: it restarts, process-0 keeps running.
        writeConfig(defaults(1) + sleeperSection(QStringLiteral("0"), QStringLiteral("0"))
                    + QStringLiteral("[process-1]\ncmd=sleep 2000\ngpus=1\n\n"));
        QTRY_VERIFY_WITH_TIMEOUT(pidOf(QStringLiteral("process-1")) != pid1
                                     && stateOf(QStringLiteral("process-1")) == WorkloadRuntime::Running,
                                 8000);
        QCOMPARE(pidOf(QStringLiteral("process-0")), pid0);
        QCOMPARE(m_monitor->state().config.workload(QStringLiteral("process-1"))->cmd, QStringLiteral("sleep 2000"));

        // A broken edit: rejected, the last good config stays, nothing is disturbed.
        writeConfig(defaults(1) + QStringLiteral("[process-0]\ncmd=sleep 1000\ngpus=zero\n"));
        QTRY_VERIFY_WITH_TIMEOUT(rejected.count() >= 1, 5000);
        QCOMPARE(pidOf(QStringLiteral("process-0")), pid0);
        QCOMPARE(stateOf(QStringLiteral("process-0")), WorkloadRuntime::Running);
        QVERIFY(m_monitor->state().config.workload(QStringLiteral("process-1")) != nullptr);
        QVERIFY(!m_monitor->state().configProblems.isEmpty());

        // Removing a workload from the file stops it.
        writeConfig(defaults(1) + sleeperSection(QStringLiteral("0"), QStringLiteral("0")));
        QTRY_VERIFY_WITH_TIMEOUT(!m_runner->runtimes().value(QStringLiteral("process-1")).occupiesGpus(), 8000);
        QCOMPARE(pidOf(QStringLiteral("process-0")), pid0);
    }

    void gpuAppearingIsNoticed()
    {
        m_dev->removeGpu(1);
        const QString path = writeConfig(defaults(0) + sleeperSection(QStringLiteral("1"), QStringLiteral("1")));
        makeMonitor(path);
        QVERIFY(m_monitor->start());
        QCOMPARE(stateOf(QStringLiteral("process-1")), WorkloadRuntime::Stopped);
        QVERIFY(m_monitor->state().decision.workloadReasons.value(QStringLiteral("process-1")).text.contains(QLatin1String("1")));
        m_dev->addGpu(1);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-1")), WorkloadRuntime::Running, 5000);
    }

    void shutdownStopsEverything()
    {
        const QString path = writeConfig(defaults(0) + sleeperSection(QStringLiteral("0"), QStringLiteral("0")));
        makeMonitor(path);
        QVERIFY(m_monitor->start());
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-0")), WorkloadRuntime::Running, 5000);
        const qint64 pid = pidOf(QStringLiteral("process-0"));
        QSignalSpy finished(m_monitor.get(), &Monitor::shutdownFinished);
        m_monitor->shutdown();
        QVERIFY(finished.wait(8000));
        QVERIFY(!processAlive(pid));
        m_monitor.reset();
    }
};

QTEST_GUILESS_MAIN(TestMonitorIntegration)
#include "tst_it_monitor.moc"
