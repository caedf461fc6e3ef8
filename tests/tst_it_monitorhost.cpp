// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The monitor's host: the Monitor and its runner live on a worker thread, the GUI thread gets the state by value
// through queued signals and sends requests. Real ProcessRunner, real processes on fake device nodes.
#include "monitorhost.h"
#include "run/processrunner.h"
#include "testsupport.h"

#include <QAtomicPointer>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

using namespace TestSupport;

class TestMonitorHost : public QObject
{
    Q_OBJECT

private:
    QString writeConfig(const QString &workloads)
    {
        return writeFile(m_dir->filePath(QStringLiteral("idlegpu.conf")),
                         (defaultsSection(m_dev->path()) + workloads).toUtf8());
    }
    // A host whose factory notes the thread it ran on and the thread each Monitor::stateChanged comes from.
    std::unique_ptr<MonitorHost> makeHost(const QString &configPath)
    {
        return std::make_unique<MonitorHost>(configPath, [this, configPath] {
            m_factoryThread.storeRelease(QThread::currentThread());
            MonitorParts parts;
            parts.runner = std::make_unique<ProcessRunner>();
            parts.monitor = std::make_unique<Monitor>(configPath, parts.runner.get());
            connect(parts.monitor.get(), &Monitor::stateChanged, parts.monitor.get(),
                    [this] {
                        if (QThread::currentThread() == qApp->thread())
                            m_scansOnGuiThread.ref();
                    },
                    Qt::DirectConnection);
            return parts;
        });
    }
    static WorkloadRuntime runtimeOf(const MonitorHost &host, const QString &id)
    {
        return host.state().runtimes.value(id);
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<FakeDevRoot> m_dev;
    QAtomicPointer<QThread> m_factoryThread;
    QAtomicInt m_scansOnGuiThread;

private Q_SLOTS:
    void init()
    {
        m_dir = std::make_unique<QTemporaryDir>();
        m_dev = std::make_unique<FakeDevRoot>(2);
        m_factoryThread.storeRelease(nullptr);
        m_scansOnGuiThread.storeRelease(0);
    }
    void cleanup()
    {
        m_dev.reset();
        m_dir.reset();
    }

    // The monitor is made and works on the worker thread; the state reaches the GUI thread by value, through a
    // queued signal, and follows a change of the device tree.
    void monitorWorksOnItsOwnThread()
    {
        const QString path = writeConfig(sleeperSection(QStringLiteral("0"), QStringLiteral("0")));
        auto host = makeHost(path);
        QCOMPARE(host->configPath(), path);
        QThread *guiThread = QThread::currentThread();
        QVERIFY(host->workerThread() != guiThread);
        QVERIFY(host->workerThread()->isRunning());

        QList<QThread *> receivedOn;
        QList<MonitorState> received;
        connect(host.get(), &MonitorHost::stateChanged, this, [&](const MonitorState &state) {
            receivedOn.append(QThread::currentThread());
            received.append(state);
        });
        QSignalSpy started(host.get(), &MonitorHost::started);
        host->start();
        QVERIFY(received.isEmpty()); // nothing synchronous: the start is a request to the other thread
        QVERIFY(started.wait(5000));
        QCOMPARE(started.first().first().toBool(), true);
        QCOMPARE(m_factoryThread.loadAcquire(), host->workerThread());

        QTRY_COMPARE_WITH_TIMEOUT(runtimeOf(*host, QStringLiteral("process-0")).state, WorkloadRuntime::Running, 5000);
        QCOMPARE(host->state().decision.gpus.size(), 2);
        QCOMPARE(host->state().snapshot.devices.gpus.size(), 2);

        // A GPU appears: the monitor (watching device_root) scans on its thread, the GUI gets the new state.
        m_dev->addGpu(2);
        QTRY_COMPARE_WITH_TIMEOUT(host->state().snapshot.devices.gpus.size(), 3, 5000);
        QCOMPARE(host->state().decision.gpus.size(), 3);
        QCOMPARE(host->state().decision.gpus.at(0).state, GpuState::RunningWorkload);
        QCOMPARE(received.last().snapshot.devices.gpus.size(), 3);
        QVERIFY(std::all_of(receivedOn.cbegin(), receivedOn.cend(), [guiThread](QThread *t) { return t == guiThread; }));
        QCOMPARE(m_scansOnGuiThread.loadAcquire(), 0);

        QSignalSpy finished(host.get(), &MonitorHost::shutdownFinished);
        host->shutdown();
        QVERIFY(finished.wait(10000));
        QVERIFY(host->state().shuttingDown);
        host.reset(); // joins the thread
    }

    // Preemption does not wait for the GUI thread: with its event loop blocked, a job that opens the workload's GPU
    // still stops the workload, and the GUI hears of it afterwards, by value.
    void preemptsWhileTheGuiThreadIsBlocked()
    {
        const QString path = writeConfig(sleeperSection(QStringLiteral("0"), QStringLiteral("0")));
        auto host = makeHost(path);
        QSignalSpy preempted(host.get(), &MonitorHost::preempted);
        host->start();
        QTRY_COMPARE_WITH_TIMEOUT(runtimeOf(*host, QStringLiteral("process-0")).state, WorkloadRuntime::Running, 5000);
        const qint64 workload = runtimeOf(*host, QStringLiteral("process-0")).pid;
        QVERIFY(workload > 0);

        NodeHolder job(m_dev->computeJob(0), QStringLiteral("python3"));
        QElapsedTimer blocked;
        blocked.start();
        while (processAlive(workload) && blocked.elapsed() < 5000)
            QThread::msleep(5); // no event processing on this thread meanwhile
        QVERIFY2(!processAlive(workload), "the workload ran on while the GUI thread was blocked");
        QCOMPARE(preempted.count(), 0); // queued for the GUI thread, not delivered yet

        QTRY_COMPARE_WITH_TIMEOUT(preempted.count(), 1, 3000);
        const auto event = preempted.first().first().value<PreemptionEvent>();
        QCOMPARE(event.workloadId, QStringLiteral("process-0"));
        QCOMPARE(event.gpu, 0);
        QCOMPARE(event.culprit.pid, job.pid());
        QTRY_COMPARE_WITH_TIMEOUT(host->state().decision.gpus.at(0).state, GpuState::Busy, 3000);
        QCOMPARE(m_scansOnGuiThread.loadAcquire(), 0);

        QSignalSpy finished(host.get(), &MonitorHost::shutdownFinished);
        host->shutdown();
        QVERIFY(finished.wait(10000));
    }

    // Requests are queued in order: a pause sent before start() is in force at the first decision, and a pause
    // request comes back in the state.
    void requestsArriveInOrder()
    {
        const QString path = writeConfig(sleeperSection(QStringLiteral("0"), QStringLiteral("0")));
        auto host = makeHost(path);
        PauseState pause;
        pause.all = true;
        host->setPause(pause);
        host->start();
        QTRY_VERIFY_WITH_TIMEOUT(host->state().pause.all, 5000);
        QTest::qWait(300);
        QCOMPARE(runtimeOf(*host, QStringLiteral("process-0")).state, WorkloadRuntime::Stopped);

        host->setPausedAll(false);
        QTRY_COMPARE_WITH_TIMEOUT(runtimeOf(*host, QStringLiteral("process-0")).state, WorkloadRuntime::Running, 5000);
        QVERIFY(!host->state().pause.all);
        host->setWorkloadPaused(QStringLiteral("process-0"), true);
        QTRY_COMPARE_WITH_TIMEOUT(runtimeOf(*host, QStringLiteral("process-0")).state, WorkloadRuntime::Stopped, 5000);
        QVERIFY(host->state().pause.workloads.contains(QStringLiteral("process-0")));

        QSignalSpy finished(host.get(), &MonitorHost::shutdownFinished);
        host->shutdown();
        QVERIFY(finished.wait(10000));
    }

    // The monitor keeps the pause (MonitorPaths::pausePath): saved when it changes, in force again after a restart; a
    // workload paused for a while is resumed at its time, and the file says so.
    void pauseIsKeptAndEnds()
    {
        const QString path = writeConfig(sleeperSection(QStringLiteral("0"), QStringLiteral("0")));
        const QString pausePath = m_dir->filePath(QStringLiteral("state/state.ini"));
        const auto make = [&] {
            MonitorPaths paths;
            paths.pausePath = pausePath;
            return std::make_unique<MonitorHost>(path, [path, paths] {
                MonitorParts parts;
                parts.runner = std::make_unique<ProcessRunner>();
                parts.monitor = std::make_unique<Monitor>(path, parts.runner.get(), SystemClock::instance(), paths);
                return parts;
            });
        };
        const QString id = QStringLiteral("process-0");
        {
            auto host = make();
            host->start();
            QTRY_COMPARE_WITH_TIMEOUT(runtimeOf(*host, id).state, WorkloadRuntime::Running, 5000);
            host->setPausedAll(true);
            QTRY_COMPARE_WITH_TIMEOUT(runtimeOf(*host, id).state, WorkloadRuntime::Stopped, 5000);
            QVERIFY(readFileOrEmpty(pausePath).contains("all=true"));
            QSignalSpy finished(host.get(), &MonitorHost::shutdownFinished);
            host->shutdown();
            QVERIFY(finished.wait(10000));
        }
        auto host = make();
        host->start();
        QTRY_VERIFY_WITH_TIMEOUT(host->state().pause.all, 5000);
        QTest::qWait(300);
        QCOMPARE(runtimeOf(*host, id).state, WorkloadRuntime::Stopped);

        host->resumeAll();
        host->setWorkloadPaused(id, true, SystemClock::instance()->nowMs() + 3000);
        QTRY_VERIFY_WITH_TIMEOUT(!host->state().pause.all && host->state().pause.workloads.contains(id), 5000);
        QVERIFY(readFileOrEmpty(pausePath).contains("workloads_until=process-0 "));
        // (the resume may have started it for a moment)
        QTRY_COMPARE_WITH_TIMEOUT(runtimeOf(*host, id).state, WorkloadRuntime::Stopped, 2500);
        QTRY_COMPARE_WITH_TIMEOUT(runtimeOf(*host, id).state, WorkloadRuntime::Running, 8000); // its time came
        QVERIFY(!host->state().pause.workloads.contains(id));
        QVERIFY(!readFileOrEmpty(pausePath).contains("process-0"));

        QSignalSpy finished(host.get(), &MonitorHost::shutdownFinished);
        host->shutdown();
        QVERIFY(finished.wait(10000));
    }

    // A configuration that cannot be used: started(false) after the state that holds its problems; a later
    // start() once the file is good starts the monitor.
    void badConfigIsReportedThenRetried()
    {
        const QString path =
            writeFile(m_dir->filePath(QStringLiteral("idlegpu.conf")), "[defaults]\ndevice_root=not-absolute\n");
        auto host = makeHost(path);
        QSignalSpy started(host.get(), &MonitorHost::started);
        host->start();
        QVERIFY(started.wait(5000));
        QCOMPARE(started.first().first().toBool(), false);
        QVERIFY(!host->state().configProblems.isEmpty());

        writeConfig(sleeperSection(QStringLiteral("0"), QStringLiteral("0")));
        host->start();
        QVERIFY(started.wait(5000));
        QCOMPARE(started.last().first().toBool(), true);
        QTRY_COMPARE_WITH_TIMEOUT(runtimeOf(*host, QStringLiteral("process-0")).state, WorkloadRuntime::Running, 5000);

        QSignalSpy finished(host.get(), &MonitorHost::shutdownFinished);
        host->shutdown();
        QVERIFY(finished.wait(10000));
    }
};

QTEST_GUILESS_MAIN(TestMonitorHost)
#include "tst_it_monitorhost.moc"
