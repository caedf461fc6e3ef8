// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The runner that the Monitor gets, which hands each workload to the runner of its WorkloadKind and acts as one runner
// over them all. A new way of carrying out a workload is a runner registered for a new kind (addRunner).
#include "base/clock.h"
#include "run/workloadrunner.h"

#include <QHash>

#include <map>
#include <memory>

// The WorkloadRunner that hands each workload to the runner of its kind.
class RunnerRouter : public WorkloadRunner
{
    Q_OBJECT
public:
    explicit RunnerRouter(QObject *parent = nullptr);
    ~RunnerRouter() override;

    // Sends the workloads of `kind` to `runner` from now on; the router owns it. There is one runner per kind: a
    // second replaces the first, which must have nothing running.
    void addRunner(WorkloadKind kind, std::unique_ptr<WorkloadRunner> runner);
    WorkloadRunner *runner(WorkloadKind kind) const;

    // Passes the start to the runner of config.kind(); returns false, with a warning, when no runner is registered
    // for it. A workload that changed kind (a reload: cmd= became start_cmd=) is forgotten by its former runner first.
    bool start(const WorkloadConfig &config, const QList<int> &gpus, bool allGpus) override;
    void stop(const QString &id, const QString &reason) override;
    void stopAll(const QString &reason) override;
    void forget(const QString &id) override;
    QHash<QString, WorkloadRuntime> runtimes() const override;
    void setGpuUuids(const QHash<int, QString> &uuidsByIndex) override;
    void setGpuDevices(const QList<GpuDevice> &devices) override;
    // Gives each runner the workloads of its kind (an empty list when none is of it).
    void setWorkloads(const QList<WorkloadConfig> &workloads) override;
    void setGpuHolders(const QList<Holder> &holders) override;

private:
    // Returns the runner that last got this workload (start, setWorkloads); null when none did.
    WorkloadRunner *ownerOf(const QString &id) const { return m_owners.value(id); }
    void claim(const QString &id, WorkloadRunner *runner);
    void onRunnerStopped(WorkloadRunner *runner);

    std::map<WorkloadKind, std::unique_ptr<WorkloadRunner>> m_runners;
    QHash<QString, WorkloadRunner *> m_owners;
    QList<WorkloadRunner *> m_stillStopping; // during stopAll(), the runners that have not said allStopped
    bool m_stoppingAll = false;
};

// Returns the router with every kind's runner registered, as idlegpu's modes give it the Monitor. `reaperPath` is as
// for ProcessRunner; empty means its default.
std::unique_ptr<RunnerRouter> makeWorkloadRunner(const Clock *clock = SystemClock::instance(),
                                                 const QString &reaperPath = QString());
