// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// Integration test of control workloads (start_cmd/stop_cmd): the Monitor with the real runner (RunnerRouter,
// ControlCommandRunner), real commands, real processes holding fake device nodes, real /proc and inotify. A fake
// service holds the GPU open all along, as a BOINC client does; it is named in service_programs, so it is not foreign
// where its workload is lent the GPU, and is foreign elsewhere.
#include "monitorfixture.h"
#include "slurm/runnerrouter.h"

#include <QFile>
#include <QSignalSpy>
#include <QtTest>

using namespace TestSupport;

class TestControlIntegration : public QObject, private MonitorFixture
{
    Q_OBJECT

    QString journal() const { return m_dir->filePath(QStringLiteral("journal")); }
    QByteArray journalText() const
    {
        QFile file(journal());
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }
    GpuState gpuState(int gpu) const
    {
        const GpuStatus *status = m_monitor->state().decision.gpu(gpu);
        return status ? status->state : GpuState::Idle;
    }

private Q_SLOTS:
    void init() { setUpMonitorFixture(2, makeWorkloadRunner()); }
    void cleanup() { QVERIFY(tearDownMonitorFixture()); }

    void lendsToTheServiceAndTakesBackOnOpen()
    {
        const QString path = writeConfig(defaults(1)
                                         + QStringLiteral("[process-boinc]\nstart_cmd=sh -c 'echo start >> %1'\n"
                                                          "stop_cmd=sh -c 'echo stop >> %1'\ngpus=0\n"
                                                          "service_programs=boinc-fake, other\n")
                                               .arg(journal()));

        // The service computes on GPU 0 and keeps it open whether lent or not.
        NodeHolder service(m_dev->computeJob(0), QStringLiteral("boinc-fake"));
        QVERIFY(service.waitUntilOpen());

        makeMonitor(path);
        QSignalSpy preempted(m_monitor.get(), &Monitor::preempted);
        QVERIFY(m_monitor->start());
        // Taken back first, since idlegpu cannot know how it was left; lent once the GPU has been free for the delay.
        QTRY_COMPARE_WITH_TIMEOUT(journalText(), QByteArray("stop\n"), 5000);
        QTRY_COMPARE_WITH_TIMEOUT(journalText(), QByteArray("stop\nstart\n"), 8000);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-boinc")), WorkloadRuntime::Running, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(gpuState(0), GpuState::RunningWorkload, 5000);
        const GpuStatus *gpu0 = m_monitor->state().decision.gpu(0);
        QVERIFY(gpu0->foreignHolders.isEmpty());
        QCOMPARE(gpu0->ignoredHolders.size(), 1);
        QCOMPARE(gpu0->ignoredHolders.first().holder.pid, service.pid());
        QVERIFY(preempted.isEmpty());

        // On GPU 1, where the workload is not lent, the same program is as foreign as anyone.
        NodeHolder elsewhere(m_dev->computeJob(1), QStringLiteral("boinc-fake"));
        QTRY_COMPARE_WITH_TIMEOUT(gpuState(1), GpuState::Busy, 5000);

        // A user's job opens GPU 0: stop_cmd runs, the service stays, the workload is stopped.
        NodeHolder job(m_dev->computeJob(0), QStringLiteral("python3"));
        QTRY_COMPARE_WITH_TIMEOUT(preempted.size(), 1, 5000);
        QCOMPARE(preempted.first().first().value<PreemptionEvent>().workloadId, QStringLiteral("process-boinc"));
        QTRY_COMPARE_WITH_TIMEOUT(journalText(), QByteArray("stop\nstart\nstop\n"), 5000);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-boinc")), WorkloadRuntime::Stopped, 5000);
        QCOMPARE(gpuState(0), GpuState::Busy);
    }

    // A stop_cmd that fails keeps the GPU the service's: nothing else starts there, and the failure is reported.
    void failedStopKeepsTheGpu()
    {
        const QString flag = m_dir->filePath(QStringLiteral("may-stop"));
        const QString path = writeConfig(defaults(1)
                                         + QStringLiteral("[process-boinc]\nstart_cmd=sh -c 'echo start >> %1'\n"
                                                          "stop_cmd=sh -c 'echo stop >> %1; test -e %2'\ngpus=0\n\n")
                                               .arg(journal(), flag)
                                         + sleeperSection(QStringLiteral("miner"), QStringLiteral("0")));
        QFile(flag).open(QIODevice::WriteOnly); // the first, taking back at start, succeeds
        makeMonitor(path);
        QSignalSpy failed(m_monitor.get(), &Monitor::workloadFailed);
        QVERIFY(m_monitor->start());
        QTRY_COMPARE_WITH_TIMEOUT(journalText(), QByteArray("stop\nstart\n"), 8000);
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-boinc")), WorkloadRuntime::Running, 5000);
        QVERIFY(QFile::remove(flag));

        NodeHolder job(m_dev->computeJob(0), QStringLiteral("python3"));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-boinc")), WorkloadRuntime::StopFailed, 5000);
        QTRY_COMPARE_WITH_TIMEOUT(failed.size(), 1, 5000);
        job.kill();
        // The GPU is free again, but the service may still compute there: the miner does not start.
        QTest::qWait(2500);
        QCOMPARE(stateOf(QStringLiteral("process-miner")), WorkloadRuntime::Stopped);
        QVERIFY2(m_monitor->state().decision.workloadReasons.value(QStringLiteral("process-boinc")).text
                     .startsWith(QStringLiteral("stop_cmd failed (exit code 1)")),
                 qPrintable(m_monitor->state().decision.workloadReasons.value(QStringLiteral("process-boinc")).text));
        QFile(flag).open(QIODevice::WriteOnly); // the retry (after 5 s) succeeds
        // The GPU is free by then, so the service may be lent again at once: the retry's stop shows in the journal,
        // and the state leaves StopFailed, but Stopped may last too short a time for a poll to see it.
        QTRY_VERIFY_WITH_TIMEOUT(journalText().startsWith("stop\nstart\nstop\nstop\n"), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(stateOf(QStringLiteral("process-boinc")) != WorkloadRuntime::StopFailed, 5000);
    }
};

QTEST_GUILESS_MAIN(TestControlIntegration)
#include "tst_it_control.moc"
