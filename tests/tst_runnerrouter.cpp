// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// RunnerRouter over two fake runners: each workload reaches the runner of its kind, runtimes and signals are merged,
// stopAll() ends once every runner has stopped.
#include "slurm/runnerrouter.h"

#include <QSignalSpy>
#include <QtTest>

namespace {

// Records what it is asked; "runs" a workload until stop() (or at once stopped, with stopsAtOnce).
class FakeRunner : public WorkloadRunner
{
public:
    bool start(const WorkloadConfig &config, const QList<int> &gpus, bool) override
    {
        calls.append(QStringLiteral("start ") + config.id);
        WorkloadRuntime &runtime = m_runtimes[config.id];
        runtime.id = config.id;
        runtime.state = WorkloadRuntime::Running;
        runtime.gpus = gpus;
        emit runtimeChanged(config.id);
        return true;
    }
    void stop(const QString &id, const QString &) override
    {
        calls.append(QStringLiteral("stop ") + id);
        if (m_runtimes.contains(id))
            m_runtimes[id].state = WorkloadRuntime::Stopping;
    }
    void stopAll(const QString &) override
    {
        calls.append(QStringLiteral("stopAll"));
        for (const QString &id : m_runtimes.keys())
            stop(id, QString());
    }
    // What a runner does once its last workload has ended after stopAll().
    void finishStopping()
    {
        for (WorkloadRuntime &runtime : m_runtimes)
            runtime.state = WorkloadRuntime::Stopped;
        emit allStopped();
    }
    void forget(const QString &id) override
    {
        calls.append(QStringLiteral("forget ") + id);
        if (!m_runtimes.value(id).occupiesGpus())
            m_runtimes.remove(id);
    }
    QHash<QString, WorkloadRuntime> runtimes() const override { return m_runtimes; }
    void setGpuUuids(const QHash<int, QString> &uuids) override { calls.append(QStringLiteral("uuids %1").arg(uuids.size())); }
    void setGpuDevices(const QList<GpuDevice> &devices) override
    {
        calls.append(QStringLiteral("devices %1").arg(devices.size()));
    }
    void setWorkloads(const QList<WorkloadConfig> &workloads) override
    {
        QStringList ids;
        for (const WorkloadConfig &w : workloads)
            ids.append(w.id);
        calls.append(QStringLiteral("workloads ") + ids.join(QLatin1Char(',')));
    }
    void fail(const QString &id)
    {
        m_runtimes[id].state = WorkloadRuntime::BackingOff;
        emit workloadFailed(id, m_runtimes[id]);
    }

    QStringList calls;

private:
    QHash<QString, WorkloadRuntime> m_runtimes;
};

WorkloadConfig processWorkload(const QString &id)
{
    WorkloadConfig config;
    config.id = id;
    config.cmd = QStringLiteral("miner");
    config.argv = QStringList{QStringLiteral("miner")};
    return config;
}

WorkloadConfig controlWorkload(const QString &id)
{
    WorkloadConfig config;
    config.id = id;
    config.startCmd = QStringLiteral("boinccmd --set_gpu_mode auto 0");
    config.startArgv = config.startCmd.split(QLatin1Char(' '));
    config.stopCmd = QStringLiteral("boinccmd --set_gpu_mode never 0");
    config.stopArgv = config.stopCmd.split(QLatin1Char(' '));
    return config;
}

} // namespace

class TestRunnerRouter : public QObject
{
    Q_OBJECT

    std::unique_ptr<RunnerRouter> routerOwner;
    RunnerRouter &router() { return *routerOwner; }
    FakeRunner *processes = nullptr;
    FakeRunner *controls = nullptr;

private Q_SLOTS:
    void init()
    {
        routerOwner = std::make_unique<RunnerRouter>();
        auto p = std::make_unique<FakeRunner>();
        auto c = std::make_unique<FakeRunner>();
        processes = p.get();
        controls = c.get();
        router().addRunner(WorkloadKind::Process, std::move(p));
        router().addRunner(WorkloadKind::ControlCommands, std::move(c));
    }
    void cleanup() { routerOwner.reset(); }

    void routesByKind()
    {
        QVERIFY(router().start(processWorkload(QStringLiteral("process-miner")), {0}, false));
        QVERIFY(router().start(controlWorkload(QStringLiteral("process-boinc")), {1}, false));
        QCOMPARE(processes->calls, QStringList{QStringLiteral("start process-miner")});
        QCOMPARE(controls->calls, QStringList{QStringLiteral("start process-boinc")});

        router().stop(QStringLiteral("process-boinc"), QStringLiteral("test"));
        router().stop(QStringLiteral("process-unknown"), QStringLiteral("test")); // nobody's: nobody is asked
        QCOMPARE(controls->calls.last(), QStringLiteral("stop process-boinc"));
        QCOMPARE(processes->calls.size(), 1);
    }

    void mergesRuntimes()
    {
        router().start(processWorkload(QStringLiteral("process-miner")), {0}, false);
        router().start(controlWorkload(QStringLiteral("process-boinc")), {1}, false);
        router().stop(QStringLiteral("process-boinc"), QStringLiteral("test"));
        const QHash<QString, WorkloadRuntime> all = router().runtimes();
        QCOMPARE(all.size(), 2);
        QCOMPARE(all.value(QStringLiteral("process-miner")).state, WorkloadRuntime::Running);
        QCOMPARE(all.value(QStringLiteral("process-miner")).gpus, QList<int>{0});
        QCOMPARE(all.value(QStringLiteral("process-boinc")).state, WorkloadRuntime::Stopping);
        QVERIFY(router().anyRunning());
    }

    void forwardsSignals()
    {
        QSignalSpy changed(&router(), &WorkloadRunner::runtimeChanged);
        QSignalSpy failed(&router(), &WorkloadRunner::workloadFailed);
        router().start(controlWorkload(QStringLiteral("process-boinc")), {0}, false);
        QCOMPARE(changed.size(), 1);
        QCOMPARE(changed.at(0).at(0).toString(), QStringLiteral("process-boinc"));
        controls->fail(QStringLiteral("process-boinc"));
        QCOMPARE(failed.size(), 1);
        QCOMPARE(failed.at(0).at(0).toString(), QStringLiteral("process-boinc"));
    }

    void allStoppedOnceEveryRunnerHasStopped()
    {
        router().start(processWorkload(QStringLiteral("process-miner")), {0}, false);
        router().start(controlWorkload(QStringLiteral("process-boinc")), {1}, false);
        QSignalSpy stopped(&router(), &WorkloadRunner::allStopped);
        router().stopAll(QStringLiteral("exiting"));
        QCOMPARE(processes->calls.count(QStringLiteral("stopAll")), 1);
        QCOMPARE(controls->calls.count(QStringLiteral("stopAll")), 1);
        processes->finishStopping();
        QCOMPARE(stopped.size(), 0); // the service is still being taken back
        controls->finishStopping();
        QCOMPARE(stopped.size(), 1);
        processes->finishStopping(); // outside a stopAll(): not the router's news
        QCOMPARE(stopped.size(), 1);
    }

    void allStoppedWithoutRunners()
    {
        RunnerRouter empty;
        QSignalSpy stopped(&empty, &WorkloadRunner::allStopped);
        empty.stopAll(QStringLiteral("exiting"));
        QCOMPARE(stopped.size(), 0); // queued: the caller connects after calling
        QVERIFY(stopped.wait(1000));
    }

    void noRunnerForKind()
    {
        RunnerRouter onlyProcesses;
        onlyProcesses.addRunner(WorkloadKind::Process, std::make_unique<FakeRunner>());
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("no runner for its kind")));
        QVERIFY(!onlyProcesses.start(controlWorkload(QStringLiteral("process-boinc")), {0}, false));
        QVERIFY(onlyProcesses.runtimes().isEmpty());
    }

    void settingsReachEveryRunner()
    {
        router().setGpuUuids({{0, QStringLiteral("GPU-a")}});
        router().setGpuDevices({GpuDevice(), GpuDevice()});
        router().setWorkloads({processWorkload(QStringLiteral("process-miner")), controlWorkload(QStringLiteral("process-boinc")),
                             processWorkload(QStringLiteral("process-other"))});
        QCOMPARE(processes->calls, (QStringList{QStringLiteral("uuids 1"), QStringLiteral("devices 2"),
                                                QStringLiteral("workloads process-miner,process-other")}));
        QCOMPARE(controls->calls, (QStringList{QStringLiteral("uuids 1"), QStringLiteral("devices 2"),
                                               QStringLiteral("workloads process-boinc")}));
        // Known from setWorkloads() alone: a stop reaches its runner before any start.
        router().stop(QStringLiteral("process-boinc"), QStringLiteral("test"));
        QCOMPARE(controls->calls.last(), QStringLiteral("stop process-boinc"));
    }

    void kindChangeForgetsTheFormerRunner()
    {
        router().start(processWorkload(QStringLiteral("process-x")), {0}, false);
        router().stop(QStringLiteral("process-x"), QStringLiteral("its settings changed"));
        processes->finishStopping();
        router().start(controlWorkload(QStringLiteral("process-x")), {0}, false);
        QVERIFY(processes->calls.contains(QStringLiteral("forget process-x")));
        QVERIFY(!processes->runtimes().contains(QStringLiteral("process-x")));
        QCOMPARE(router().runtimes().value(QStringLiteral("process-x")).state, WorkloadRuntime::Running);
        router().stop(QStringLiteral("process-x"), QStringLiteral("test"));
        QCOMPARE(controls->calls.last(), QStringLiteral("stop process-x"));
    }
};

QTEST_GUILESS_MAIN(TestRunnerRouter)
#include "tst_runnerrouter.moc"
