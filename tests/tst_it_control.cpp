// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// Integration test of control workloads (start_cmd/stop_cmd): the Monitor with the real runner (RunnerRouter,
// ControlCommandRunner), real commands, real processes holding fake device nodes, real /proc and inotify. A fake
// service holds the GPU open all along, as a BOINC client does; it is named in service_programs, so it is not foreign
// where its workload is lent the GPU, and is foreign elsewhere.
#include "monitor.h"
#include "slurm/runnerrouter.h"
#include "testsupport.h"

#include <QFile>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace TestSupport;

class TestControlIntegration : public QObject
{
    Q_OBJECT

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<FakeDevRoot> m_dev;
    std::unique_ptr<RunnerRouter> m_runner;
    std::unique_ptr<Monitor> m_monitor;

    QString journal() const { return m_dir->filePath(QStringLiteral("journal")); }
    QByteArray journalText() const
    {
        QFile file(journal());
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }
    WorkloadRuntime::State stateOf(const QString &id) const { return m_runner->runtimes().value(id).state; }
    GpuState gpuState(int gpu) const
    {
        const GpuStatus *status = m_monitor->state().decision.gpu(gpu);
        return status ? status->state : GpuState::Idle;
    }

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_dev = std::make_unique<FakeDevRoot>(2);
        m_runner = makeWorkloadRunner();
    }
    void cleanup()
    {
        if (m_monitor)
            QVERIFY(shutDownMonitor(*m_monitor));
        m_monitor.reset();
        m_runner.reset();
        m_dev.reset();
        m_dir.reset();
    }

    void lendsToTheServiceAndTakesBackOnOpen()
    {
        const QString config =
            QStringLiteral("[defaults]\ninterval_seconds=60\nstart_delay_seconds=1\ndevice_root=%1\n\n"
                           "[process-boinc]\nstart_cmd=sh -c 'echo start >> %2'\nstop_cmd=sh -c 'echo stop >> %2'\n"
                           "gpus=0\nservice_programs=boinc-fake, other\n")
                .arg(m_dev->path(), journal());
        const QString path = writeFile(m_dir->filePath(QStringLiteral("idlegpu.conf")), config.toUtf8());

        // The service computes on GPU 0 and keeps it open whether lent or not.
        NodeHolder service(m_dev->computeJob(0), QStringLiteral("boinc-fake"));
        QVERIFY(service.waitUntilOpen());

        m_monitor = std::make_unique<Monitor>(path, m_runner.get());
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
        QCOMPARE(gpu0->ignoredHolders.first().pid, service.pid());
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
        const QString config =
            QStringLiteral("[defaults]\ninterval_seconds=60\nstart_delay_seconds=1\ndevice_root=%1\n\n"
                           "[process-boinc]\nstart_cmd=sh -c 'echo start >> %2'\n"
                           "stop_cmd=sh -c 'echo stop >> %2; test -e %3'\ngpus=0\n\n"
                           "[process-miner]\ncmd=sleep 1000\ngpus=0\nstop_timeout_seconds=2\n")
                .arg(m_dev->path(), journal(), flag);
        const QString path = writeFile(m_dir->filePath(QStringLiteral("idlegpu.conf")), config.toUtf8());
        QFile(flag).open(QIODevice::WriteOnly); // the first, taking back at start, succeeds
        m_monitor = std::make_unique<Monitor>(path, m_runner.get());
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
        QVERIFY2(m_monitor->state().decision.workloadReasons.value(QStringLiteral("process-boinc"))
                     .startsWith(QStringLiteral("stop_cmd failed (exit code 1)")),
                 qPrintable(m_monitor->state().decision.workloadReasons.value(QStringLiteral("process-boinc"))));
        QFile(flag).open(QIODevice::WriteOnly); // the retry (after 5 s) succeeds
        // The GPU is free by then, so the service may be lent again at once: the retry's stop shows in the journal,
        // and the state leaves StopFailed, but Stopped may last too short a time for a poll to see it.
        QTRY_VERIFY_WITH_TIMEOUT(journalText().startsWith("stop\nstart\nstop\nstop\n"), 10000);
        QTRY_VERIFY_WITH_TIMEOUT(stateOf(QStringLiteral("process-boinc")) != WorkloadRuntime::StopFailed, 5000);
    }
};

QTEST_GUILESS_MAIN(TestControlIntegration)
#include "tst_it_control.moc"
