#include "policy/policy.h"

#include <QMap>

#include <algorithm>
#include <optional>

namespace {

// Linux keeps 15 bytes of a program name in /proc/<pid>/comm (TASK_COMM_LEN - 1).
constexpr int commBytes = 15;

QString baseName(const QString &path)
{
    return path.mid(path.lastIndexOf(QLatin1Char('/')) + 1);
}

// /proc/<pid>/exe of a binary replaced on disk (a package upgrade) reads "/usr/bin/foo (deleted)".
QString exeBaseName(const QString &exe)
{
    static const QString deletedSuffix = QStringLiteral(" (deleted)");
    QString name = baseName(exe);
    if (name.endsWith(deletedSuffix))
        name.chop(deletedSuffix.size());
    return name;
}

qint64 secondsRoundedUp(qint64 ms)
{
    return (ms + 999) / 1000;
}

QList<int> sortedUnique(QList<int> list)
{
    std::sort(list.begin(), list.end());
    list.erase(std::unique(list.begin(), list.end()), list.end());
    return list;
}

bool belongsToWorkload(const Holder &holder, const WorkloadRuntime &runtime)
{
    // A stopped workload's pid may have been reused by anyone: only a live session counts.
    if (!runtime.occupiesGpus() || runtime.pid <= 0)
        return false;
    return holder.pid == runtime.pid || holder.sid == runtime.pid || holder.ancestors.contains(runtime.pid);
}

QString displayName(const Config &config, const QString &workloadId)
{
    const WorkloadConfig *workload = config.workload(workloadId);
    return workload && !workload->name.isEmpty() ? workload->name : workloadId;
}

QString usersActiveReason(const QStringList &users)
{
    if (users.size() == 1)
        return QStringLiteral("user %1 is active on a terminal").arg(users.first());
    return QStringLiteral("users %1 are active on a terminal").arg(users.join(QStringLiteral(", ")));
}

QString inUseReason(int gpu, const Holder &culprit)
{
    return QStringLiteral("GPU %1 is in use by %2").arg(gpu).arg(culprit.describe());
}

QString missingGpuReason(int gpu)
{
    return QStringLiteral("GPU %1 does not exist").arg(gpu);
}

// What one decision knows of one present GPU.
struct GpuView
{
    QList<Holder> foreign;
    QList<Holder> ignored;
    QList<Holder> openOnly;
    qint64 freeSinceMs = 0; // meaningful only when foreign is empty
    qint64 settledAtMs = 0; // freeSinceMs + start delay
    QString occupant;       // workload running, stopping or started on it
};

class Decider
{
public:
    explicit Decider(const PolicyInput &input) : in(input) {}

    Decision run()
    {
        present = sortedUnique(in.snapshot.devices.indices());
        viewGpus();
        findGlobalBlocker();
        collectOccupants();
        decideRunningWorkloads();
        decideStoppedWorkloads();
        describeGpus();
        findNextWake();
        return std::move(decision);
    }

private:
    const PolicyInput &in;
    Decision decision;
    QList<int> present;
    QMap<int, GpuView> gpus;
    QString globalBlocker; // why no workload may run at all; empty when none
    QSet<int> waitedFor;   // free GPUs a workload waits on until they settle

    qint64 now() const { return in.nowMs; }
    qint64 startDelayMs() const { return qMax(0, in.config.startDelaySeconds) * qint64(1000); }
    bool isPresent(int gpu) const { return gpus.contains(gpu); }
    const GpuView &view(int gpu) const
    {
        static const GpuView absent;
        const auto it = gpus.constFind(gpu);
        return it != gpus.constEnd() ? *it : absent;
    }
    bool isFree(int gpu) const { return view(gpu).foreign.isEmpty(); }
    bool isSettled(int gpu) const { return isFree(gpu) && view(gpu).settledAtMs <= now(); }

    WorkloadRuntime runtimeOf(const QString &id) const
    {
        WorkloadRuntime runtime = in.runtimes.value(id);
        runtime.id = id;
        return runtime;
    }

    bool isPaused(const QString &id) const
    {
        return in.pause.allPausedAt(now()) || in.pause.workloads.contains(id);
    }

    void viewGpus()
    {
        for (int gpu : present) {
            GpuView view;
            const BusyRule rule = in.config.busyRuleFor(gpu);
            for (const Holder &holder : in.snapshot.holders) {
                if (!holder.gpus.contains(gpu))
                    continue; // holders of the shared nodes only name no GPU
                if (!Policy::isForeign(holder, gpu, in.config, in.runtimes, in.selfPid))
                    view.ignored.append(holder);
                else if (!Policy::makesBusy(holder, gpu, rule))
                    view.openOnly.append(holder);
                else
                    view.foreign.append(holder);
            }
            if (view.foreign.isEmpty()) {
                const auto remembered = in.memory.freeSinceMs.constFind(gpu);
                view.freeSinceMs = remembered != in.memory.freeSinceMs.constEnd() ? qMin(*remembered, now()) : now();
                view.settledAtMs = view.freeSinceMs + startDelayMs();
                decision.memory.freeSinceMs.insert(gpu, view.freeSinceMs);
            }
            gpus.insert(gpu, view);
        }
    }

    void findGlobalBlocker()
    {
        const TtyConfig &tty = in.config.tty;
        if (tty.enabled) {
            const qint64 idleLimitMs = qint64(tty.idleSeconds) * 1000;
            for (const TtySession &session : in.snapshot.ttys)
                if (!tty.whitelist.contains(session.user) && session.idleMs < idleLimitMs
                    && !decision.activeUsers.contains(session.user))
                    decision.activeUsers.append(session.user);
            decision.activeUsers.sort();
        }
        if (in.pause.allPausedAt(now()))
            globalBlocker = QStringLiteral("paused");
        else if (!decision.activeUsers.isEmpty())
            globalBlocker = usersActiveReason(decision.activeUsers);
    }

    // The workloads in gpu_mon's order (Policy::startOrder()).
    QList<const WorkloadConfig *> workloadsInPrecedence() const
    {
        QList<GpuSelection> selections;
        for (const WorkloadConfig &workload : in.config.workloads)
            selections.append(workload.gpus);
        QList<const WorkloadConfig *> ordered;
        for (int index : Policy::startOrder(selections))
            ordered.append(&in.config.workloads.at(index));
        return ordered;
    }

    // Runtimes not in the config, sorted so that decisions do not depend on hash order.
    QStringList removedWorkloadIds() const
    {
        QStringList ids;
        for (auto it = in.runtimes.constBegin(); it != in.runtimes.constEnd(); ++it)
            if (!in.config.workload(it.key()))
                ids.append(it.key());
        ids.sort();
        return ids;
    }

    // Those of the config in file order, then the removed ones that the runner still knows.
    QStringList allWorkloadIds() const
    {
        QStringList ids;
        for (const WorkloadConfig &workload : in.config.workloads)
            ids.append(workload.id);
        return ids + removedWorkloadIds();
    }

    // The GPUs a running workload holds: those it was started on; with gpus=ALL also any GPU that appeared
    // since, as its processes may see that one too.
    QList<int> gpusOfRunning(const WorkloadRuntime &runtime) const
    {
        QList<int> result = runtime.gpus;
        const WorkloadConfig *workload = in.config.workload(runtime.id);
        if (workload && workload->gpus.all)
            result += present;
        else if (workload && result.isEmpty())
            result = workload->gpus.indices;
        return sortedUnique(result);
    }

    void collectOccupants()
    {
        for (const QString &id : allWorkloadIds()) {
            const WorkloadRuntime runtime = runtimeOf(id);
            if (!runtime.occupiesGpus())
                continue;
            for (int gpu : gpusOfRunning(runtime))
                if (isPresent(gpu) && gpus[gpu].occupant.isEmpty())
                    gpus[gpu].occupant = id;
        }
    }

    // Why a running workload must stop now; nullopt when it may go on.
    std::optional<StopOrder> stopOrderFor(const WorkloadRuntime &runtime) const
    {
        StopOrder order;
        order.workloadId = runtime.id;
        const WorkloadConfig *workload = in.config.workload(runtime.id);
        if (!workload) {
            order.cause = StopCause::Removed;
            order.reason = QStringLiteral("removed from the configuration");
            return order;
        }
        if (!workload->enabled) {
            order.cause = StopCause::Disabled;
            order.reason = QStringLiteral("disabled");
            return order;
        }
        if (!workload->refusal.isEmpty()) {
            order.cause = StopCause::Disabled;
            order.reason = QStringLiteral("refused: %1").arg(workload->refusal);
            return order;
        }
        if (isPaused(runtime.id)) {
            order.cause = StopCause::Paused;
            order.reason = QStringLiteral("paused");
            return order;
        }
        if (!decision.activeUsers.isEmpty()) {
            order.cause = StopCause::UserActive;
            order.reason = usersActiveReason(decision.activeUsers);
            return order;
        }
        const QList<int> held = gpusOfRunning(runtime);
        for (int gpu : held) {
            if (!isPresent(gpu)) {
                order.cause = StopCause::GpuMissing;
                order.gpu = gpu;
                order.reason = QStringLiteral("GPU %1 disappeared").arg(gpu);
                return order;
            }
        }
        for (int gpu : held) {
            const QList<Holder> &foreign = view(gpu).foreign;
            if (!foreign.isEmpty()) {
                order.cause = StopCause::ForeignHolder;
                order.gpu = gpu;
                order.culprit = foreign.first();
                order.reason = QStringLiteral("%1 opened GPU %2").arg(order.culprit.describe()).arg(gpu);
                return order;
            }
        }
        return std::nullopt;
    }

    QString workloadReasonForStop(const StopOrder &order) const
    {
        if (order.cause == StopCause::ForeignHolder)
            return inUseReason(order.gpu, order.culprit);
        if (order.cause == StopCause::GpuMissing)
            return missingGpuReason(order.gpu);
        return order.reason;
    }

    void decideRunningWorkloads()
    {
        for (const QString &id : allWorkloadIds()) {
            const WorkloadRuntime runtime = runtimeOf(id);
            if (runtime.state == WorkloadRuntime::Stopping) {
                decision.workloadReasons.insert(id, QStringLiteral("stopping"));
            } else if (runtime.state == WorkloadRuntime::Running) {
                const std::optional<StopOrder> order = stopOrderFor(runtime);
                decision.workloadReasons.insert(id, order ? workloadReasonForStop(*order) : QString());
                if (order)
                    decision.stop.append(*order);
            }
        }
    }

    // Why a workload that does not run may not start; empty when it may. *waitsOnlyToSettle tells whether
    // the start delay is all that keeps it.
    QString startBlocker(const WorkloadConfig &workload, const WorkloadRuntime &runtime, const QList<int> &wanted,
                         bool *waitsOnlyToSettle) const
    {
        *waitsOnlyToSettle = false;
        if (!workload.enabled)
            return QStringLiteral("disabled");
        if (!workload.refusal.isEmpty())
            return QStringLiteral("refused: %1").arg(workload.refusal);
        if (isPaused(workload.id))
            return QStringLiteral("paused");
        if (!globalBlocker.isEmpty())
            return globalBlocker;
        if (runtime.state == WorkloadRuntime::BackingOff && runtime.retryAtMs > now()) {
            const QString failure = runtime.lastExit.isEmpty()
                                        ? QStringLiteral("failed")
                                        : QStringLiteral("failed (%1)").arg(runtime.lastExit);
            return QStringLiteral("%1; retrying in %2 s").arg(failure).arg(secondsRoundedUp(runtime.retryAtMs - now()));
        }
        if (wanted.isEmpty())
            return workload.gpus.all ? QStringLiteral("no GPU is present") : QStringLiteral("its GPU list is empty");
        for (int gpu : wanted)
            if (!isPresent(gpu))
                return missingGpuReason(gpu);
        for (int gpu : wanted)
            if (!isFree(gpu))
                return inUseReason(gpu, view(gpu).foreign.first());
        for (int gpu : wanted) {
            const QString &occupant = view(gpu).occupant;
            if (!occupant.isEmpty())
                return QStringLiteral("GPU %1 is used by workload '%2'").arg(gpu).arg(displayName(in.config, occupant));
        }
        int slowest = -1;
        for (int gpu : wanted)
            if (!isSettled(gpu) && (slowest < 0 || view(gpu).settledAtMs > view(slowest).settledAtMs))
                slowest = gpu;
        if (slowest >= 0) {
            *waitsOnlyToSettle = true;
            return QStringLiteral("waiting %1 s more for GPU %2 to stay free")
                .arg(secondsRoundedUp(view(slowest).settledAtMs - now()))
                .arg(slowest);
        }
        return QString();
    }

    void decideStoppedWorkloads()
    {
        for (const WorkloadConfig *workload : workloadsInPrecedence()) {
            const WorkloadRuntime runtime = runtimeOf(workload->id);
            if (runtime.occupiesGpus())
                continue;
            const QList<int> wanted = sortedUnique(workload->gpus.resolve(present));
            bool waitsOnlyToSettle = false;
            const QString blocker = startBlocker(*workload, runtime, wanted, &waitsOnlyToSettle);
            decision.workloadReasons.insert(workload->id, blocker);
            if (waitsOnlyToSettle) {
                for (int gpu : wanted)
                    if (!isSettled(gpu))
                        waitedFor.insert(gpu);
            }
            if (!blocker.isEmpty())
                continue;
            decision.start.append({workload->id, wanted, workload->gpus.all});
            for (int gpu : wanted)
                gpus[gpu].occupant = workload->id;
        }
    }

    // Why a free GPU nobody waits on stays idle.
    QString idleReason(int gpu) const
    {
        if (!globalBlocker.isEmpty())
            return globalBlocker;
        bool covered = false;
        for (const WorkloadConfig *workload : workloadsInPrecedence()) {
            if (!workload->gpus.contains(gpu))
                continue;
            covered = true;
            const QString reason = decision.workloadReasons.value(workload->id);
            if (!reason.isEmpty())
                return QStringLiteral("%1: %2").arg(displayName(in.config, workload->id), reason);
        }
        return covered ? QString() : QStringLiteral("no workload for this GPU");
    }

    void describeGpus()
    {
        for (int gpu : present) {
            const GpuView &gpuView = view(gpu);
            GpuStatus status;
            status.index = gpu;
            status.foreignHolders = gpuView.foreign;
            status.ignoredHolders = gpuView.ignored;
            status.openOnlyHolders = gpuView.openOnly;
            status.workloadId = gpuView.occupant;
            if (!gpuView.foreign.isEmpty()) {
                status.state = GpuState::Busy;
                status.reason = QStringLiteral("in use by %1").arg(gpuView.foreign.first().describe());
            } else {
                status.freeSinceMs = gpuView.freeSinceMs;
                if (!gpuView.occupant.isEmpty()) {
                    status.state = GpuState::RunningWorkload;
                } else if (waitedFor.contains(gpu)) {
                    status.state = GpuState::Waiting;
                    status.reason = QStringLiteral("waiting %1 s more for it to stay free")
                                        .arg(secondsRoundedUp(gpuView.settledAtMs - now()));
                } else {
                    status.state = GpuState::Idle;
                    status.reason = idleReason(gpu);
                }
            }
            decision.gpus.append(status);
        }
    }

    void findNextWake()
    {
        QList<qint64> moments;
        for (int gpu : std::as_const(waitedFor))
            moments.append(view(gpu).settledAtMs);
        for (const WorkloadRuntime &runtime : in.runtimes)
            if (runtime.state == WorkloadRuntime::BackingOff)
                moments.append(runtime.retryAtMs);
        if (in.pause.all)
            moments.append(in.pause.allUntilMs);
        // An active terminal user turns idle after idle_seconds without typing.
        const TtyConfig &tty = in.config.tty;
        if (tty.enabled)
            for (const TtySession &session : in.snapshot.ttys)
                if (!tty.whitelist.contains(session.user))
                    moments.append(now() + qint64(tty.idleSeconds) * 1000 - session.idleMs);
        for (qint64 moment : std::as_const(moments))
            if (moment > now() && (decision.nextWakeMs == 0 || moment < decision.nextWakeMs))
                decision.nextWakeMs = moment;
    }
};

} // namespace

namespace Policy {

bool matchesProgram(const Holder &holder, const QString &program)
{
    if (program.isEmpty())
        return false;
    if (program == holder.comm)
        return true;
    const QByteArray comm = holder.comm.toUtf8();
    const QByteArray programBytes = program.toUtf8();
    if (comm.size() == commBytes && programBytes.size() > commBytes && programBytes.startsWith(comm))
        return true;
    if (!holder.exe.isEmpty() && program == exeBaseName(holder.exe))
        return true;
    return !holder.argv0.isEmpty() && program == baseName(holder.argv0);
}

bool isForeign(const Holder &holder, int gpu, const Config &config, const QHash<QString, WorkloadRuntime> &runtimes,
               qint64 selfPid)
{
    if (holder.hidden && holder.pid <= 0)
        return true; // nobody can tell whose it is
    // Only idlegpu itself: its other children (the demo's simulated job, a settings "Test run") are foreign.
    if (selfPid > 0 && holder.pid == selfPid)
        return false;
    for (const WorkloadRuntime &runtime : runtimes)
        if (belongsToWorkload(holder, runtime))
            return false;
    const QStringList ignored = config.ignoredProgramsFor(gpu);
    for (const QString &program : ignored)
        if (matchesProgram(holder, program))
            return false;
    return true;
}

bool makesBusy(const Holder &holder, int gpu, const BusyRule &rule)
{
    if (rule.opened)
        return true;
    const auto use = holder.gpuUse.constFind(gpu);
    if (use == holder.gpuUse.constEnd())
        return true;
    if (rule.computes && use->compute)
        return true;
    // Listed without a figure (no permission, MIG): in doubt.
    return rule.memoryThresholdBytes > 0 && (!use->memoryBytes || *use->memoryBytes >= rule.memoryThresholdBytes);
}

QList<int> startOrder(const QList<GpuSelection> &gpusOfWorkloads)
{
    QList<int> order;
    for (int i = 0; i < gpusOfWorkloads.size(); ++i)
        if (gpusOfWorkloads.at(i).all)
            order.append(i);
    for (int i = 0; i < gpusOfWorkloads.size(); ++i)
        if (!gpusOfWorkloads.at(i).all)
            order.append(i);
    return order;
}

Decision decide(const PolicyInput &input)
{
    return Decider(input).run();
}

QString stopCauseName(StopCause cause)
{
    switch (cause) {
    case StopCause::ForeignHolder: return QStringLiteral("foreign holder");
    case StopCause::UserActive: return QStringLiteral("user active");
    case StopCause::Paused: return QStringLiteral("paused");
    case StopCause::Disabled: return QStringLiteral("disabled");
    case StopCause::Removed: return QStringLiteral("removed");
    case StopCause::GpuMissing: return QStringLiteral("GPU missing");
    }
    return QString();
}

QString gpuStateName(GpuState state)
{
    switch (state) {
    case GpuState::Idle: return QStringLiteral("idle");
    case GpuState::Waiting: return QStringLiteral("waiting");
    case GpuState::RunningWorkload: return QStringLiteral("running");
    case GpuState::Busy: return QStringLiteral("busy");
    }
    return QString();
}

} // namespace Policy
