// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "slurm/runnerrouter.h"

#include "base/logging.h"
#include "run/controlcommandrunner.h"
#include "run/processrunner.h"
#include "slurm/slurmlender.h"

RunnerRouter::RunnerRouter(QObject *parent) : WorkloadRunner(parent) {}

RunnerRouter::~RunnerRouter() = default;

void RunnerRouter::addRunner(WorkloadKind kind, std::unique_ptr<WorkloadRunner> runner)
{
    WorkloadRunner *added = runner.get();
    if (auto previous = m_runners.find(kind); previous != m_runners.end()) {
        for (auto it = m_owners.begin(); it != m_owners.end();)
            it = it.value() == previous->second.get() ? m_owners.erase(it) : std::next(it);
        m_stillStopping.removeAll(previous->second.get());
    }
    connect(added, &WorkloadRunner::runtimeChanged, this, &WorkloadRunner::runtimeChanged);
    connect(added, &WorkloadRunner::workloadFailed, this, &WorkloadRunner::workloadFailed);
    connect(added, &WorkloadRunner::allStopped, this, [this, added] { onRunnerStopped(added); });
    m_runners[kind] = std::move(runner);
}

WorkloadRunner *RunnerRouter::runner(WorkloadKind kind) const
{
    const auto it = m_runners.find(kind);
    return it == m_runners.end() ? nullptr : it->second.get();
}

void RunnerRouter::claim(const QString &id, WorkloadRunner *runner)
{
    WorkloadRunner *former = ownerOf(id);
    if (former && former != runner)
        former->forget(id); // a no-op while it still runs there; the Monitor stops it first (its settings changed)
    m_owners.insert(id, runner);
}

bool RunnerRouter::start(const WorkloadConfig &config, const QList<int> &gpus, bool allGpus)
{
    WorkloadRunner *target = runner(config.kind());
    if (!target) {
        qCWarning(lcRunner).noquote() << QStringLiteral("cannot start %1: no runner for its kind of workload").arg(config.id);
        return false;
    }
    claim(config.id, target);
    return target->start(config, gpus, allGpus);
}

void RunnerRouter::stop(const QString &id, const QString &reason)
{
    if (WorkloadRunner *owner = ownerOf(id))
        owner->stop(id, reason);
}

void RunnerRouter::stopAll(const QString &reason)
{
    m_stoppingAll = true;
    m_stillStopping.clear();
    for (const auto &[kind, runner] : m_runners)
        m_stillStopping.append(runner.get());
    if (m_stillStopping.isEmpty()) {
        // As the runners do: from the event loop, since the caller connects to allStopped() after calling.
        QMetaObject::invokeMethod(this, [this] { onRunnerStopped(nullptr); }, Qt::QueuedConnection);
        return;
    }
    const QList<WorkloadRunner *> runners = m_stillStopping; // a runner may answer at once
    for (WorkloadRunner *runner : runners)
        runner->stopAll(reason);
}

void RunnerRouter::onRunnerStopped(WorkloadRunner *runner)
{
    if (!m_stoppingAll)
        return;
    m_stillStopping.removeAll(runner);
    if (!m_stillStopping.isEmpty())
        return;
    m_stoppingAll = false;
    emit allStopped();
}

void RunnerRouter::forget(const QString &id)
{
    WorkloadRunner *owner = ownerOf(id);
    if (!owner)
        return;
    owner->forget(id);
    if (!owner->runtimes().contains(id))
        m_owners.remove(id);
}

QHash<QString, WorkloadRuntime> RunnerRouter::runtimes() const
{
    QHash<QString, WorkloadRuntime> merged;
    for (const auto &[kind, runner] : m_runners) {
        const QHash<QString, WorkloadRuntime> own = runner->runtimes();
        for (auto it = own.cbegin(); it != own.cend(); ++it)
            // A workload whose kind changed may linger in its former runner until forgotten: its owner speaks for it.
            if (!merged.contains(it.key()) || ownerOf(it.key()) == runner.get())
                merged.insert(it.key(), it.value());
    }
    return merged;
}

void RunnerRouter::setGpuUuids(const QHash<int, QString> &uuidsByIndex)
{
    for (const auto &[kind, runner] : m_runners)
        runner->setGpuUuids(uuidsByIndex);
}

void RunnerRouter::setGpuDevices(const QList<GpuDevice> &devices)
{
    for (const auto &[kind, runner] : m_runners)
        runner->setGpuDevices(devices);
}

void RunnerRouter::setGpuHolders(const QList<Holder> &holders)
{
    for (const auto &[kind, runner] : m_runners)
        runner->setGpuHolders(holders);
}

void RunnerRouter::setWorkloads(const QList<WorkloadConfig> &workloads)
{
    for (const auto &[kind, runner] : m_runners) {
        QList<WorkloadConfig> ofKind;
        for (const WorkloadConfig &workload : workloads)
            if (workload.kind() == kind) {
                ofKind.append(workload);
                claim(workload.id, runner.get());
            }
        runner->setWorkloads(ofKind);
    }
}

std::unique_ptr<RunnerRouter> makeWorkloadRunner(const Clock *clock, const QString &reaperPath)
{
    auto router = std::make_unique<RunnerRouter>();
    router->addRunner(WorkloadKind::Process, std::make_unique<ProcessRunner>(clock, reaperPath));
    router->addRunner(WorkloadKind::ControlCommands, std::make_unique<ControlCommandRunner>(clock, reaperPath));
    router->addRunner(WorkloadKind::SlurmLending, std::make_unique<SlurmLender>(clock));
    return router;
}
