// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "policy/policy.h"

#include <QLocale>
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

QString hotReason(int gpu, std::optional<int> celsius, int maxCelsius)
{
    const QString now = celsius ? QStringLiteral(" (%1 °C)").arg(*celsius) : QString();
    return QStringLiteral("GPU %1 is too hot%2: runs again below %3 °C")
        .arg(gpu)
        .arg(now)
        .arg(maxCelsius - Config::kCoolDownCelsius + 1);
}

QString mib(qint64 bytes)
{
    return QStringLiteral("%1 MiB").arg(bytes >> 20);
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
    bool tooHot = false;
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
    StopCause globalCause = StopCause::Paused;
    QSet<int> waitedFor;   // free GPUs a workload waits on until they settle

    qint64 now() const { return in.nowMs; }
    bool isPresent(int gpu) const { return gpus.contains(gpu); }
    const GpuView &view(int gpu) const
    {
        static const GpuView absent;
        const auto it = gpus.constFind(gpu);
        return it != gpus.constEnd() ? *it : absent;
    }
    bool isFree(int gpu) const { return view(gpu).foreign.isEmpty(); }
    bool isSettled(int gpu) const { return isFree(gpu) && view(gpu).settledAtMs <= now(); }
    std::optional<int> temperatureOf(int gpu) const
    {
        const auto it = in.snapshot.temperatures.constFind(gpu);
        return it != in.snapshot.temperatures.constEnd() ? std::optional(*it) : std::nullopt;
    }

    // [defaults] max_temperature_c: hot from the limit on, until kCoolDownCelsius below it. No reading: not hot
    // (nothing can tell), and forgotten.
    bool judgeHeat(int gpu) const
    {
        const int limit = in.config.maxTemperatureC;
        const std::optional<int> celsius = temperatureOf(gpu);
        if (limit <= 0 || !celsius)
            return false;
        if (*celsius >= limit)
            return true;
        return in.memory.hotGpus.contains(gpu) && *celsius > limit - Config::kCoolDownCelsius;
    }

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
            view.tooHot = judgeHeat(gpu);
            if (view.tooHot)
                decision.memory.hotGpus.insert(gpu);
            if (view.foreign.isEmpty()) {
                const auto remembered = in.memory.freeSinceMs.constFind(gpu);
                view.freeSinceMs = remembered != in.memory.freeSinceMs.constEnd() ? qMin(*remembered, now()) : now();
                view.settledAtMs = Policy::settledAtMs(view.freeSinceMs, in.config);
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
        const auto hold = [this](HoldReason reason, StopCause cause, const QString &text) {
            decision.hold = reason;
            decision.holdText = text;
            globalCause = cause;
            globalBlocker = text;
        };
        if (in.pause.allPausedAt(now()))
            hold(HoldReason::Paused, StopCause::Paused, QStringLiteral("paused"));
        else if (outsideSchedule())
            hold(HoldReason::OutsideSchedule, StopCause::OutsideSchedule, scheduleReason());
        else if (in.config.onBattery == OnBattery::Pause && in.snapshot.power.known && in.snapshot.power.onBattery)
            hold(HoldReason::OnBattery, StopCause::OnBattery, QStringLiteral("the computer runs on battery"));
        else if (ownerPresent())
            hold(HoldReason::OwnerPresent, StopCause::OwnerPresent, presenceReason());
        else if (!decision.activeUsers.isEmpty())
            hold(HoldReason::TerminalUser, StopCause::UserActive, usersActiveReason(decision.activeUsers));
    }

    // [schedule]: outside it, and when that ends.
    bool outsideSchedule()
    {
        if (in.config.schedule.always() || !in.localNow.isValid())
            return false;
        if (in.config.schedule.allowsAt(WeekTime::of(in.localNow)))
            return false;
        if (const std::optional<qint64> ms = in.config.schedule.msUntilChange(WeekTime::of(in.localNow)))
            decision.holdEndsAt = in.localNow.addMSecs(*ms);
        return true;
    }
    QString scheduleReason() const
    {
        if (!decision.holdEndsAt.isValid())
            return QStringLiteral("outside the schedule");
        return QStringLiteral("outside the schedule until %1")
            .arg(QLocale::c().toString(decision.holdEndsAt, QStringLiteral("ddd HH:mm")));
    }

    // [activity] pause_while_active: someone at the computer, or nothing can tell (unknown counts as present).
    bool ownerPresent() const
    {
        if (!in.config.activity.pauseWhileActive)
            return false;
        const UserPresence &presence = in.snapshot.presence;
        switch (presence.state) {
        case UserPresence::State::Unknown:
        case UserPresence::State::Active: return true;
        case UserPresence::State::Idle: return now() < awayFromMs();
        case UserPresence::State::Locked:
        case UserPresence::State::NoLocalSession: return false;
        }
        return true;
    }
    // Idle: when the owner counts as away.
    qint64 awayFromMs() const
    {
        return in.snapshot.presence.idleSinceMs + qint64(in.config.activity.idleSeconds) * 1000;
    }
    QString presenceReason() const
    {
        const UserPresence &presence = in.snapshot.presence;
        if (presence.state == UserPresence::State::Unknown)
            return QStringLiteral("you are at the computer (no source tells whether you are away)");
        if (presence.state == UserPresence::State::Idle)
            return QStringLiteral("you are at the computer (idle for %1 s of %2)")
                .arg(qMax<qint64>(0, now() - presence.idleSinceMs) / 1000)
                .arg(in.config.activity.idleSeconds);
        return QStringLiteral("you are at the computer");
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
        if (!globalBlocker.isEmpty()) {
            order.cause = globalCause;
            order.reason = globalBlocker;
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
        for (int gpu : held) {
            if (view(gpu).tooHot) {
                order.cause = StopCause::TooHot;
                order.gpu = gpu;
                order.reason = hotReason(gpu, temperatureOf(gpu), in.config.maxTemperatureC);
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
        return order.reason; // TooHot's says when it may run again
    }

    void decideRunningWorkloads()
    {
        for (const QString &id : allWorkloadIds()) {
            const WorkloadRuntime runtime = runtimeOf(id);
            if (runtime.state == WorkloadRuntime::Stopping) {
                decision.workloadReasons.insert(id, QStringLiteral("stopping"));
            } else if (runtime.state == WorkloadRuntime::StopFailed) {
                decision.workloadReasons.insert(
                    id, QStringLiteral("%1; its GPUs stay its own, stopping again in %2 s")
                            .arg(runtime.lastExit)
                            .arg(secondsRoundedUp(qMax<qint64>(0, runtime.retryAtMs - now()))));
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
        for (int gpu : wanted)
            if (view(gpu).tooHot)
                return hotReason(gpu, temperatureOf(gpu), in.config.maxTemperatureC);
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
            status.tooHot = gpuView.tooHot;
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
                    status.reason = gpuView.tooHot && globalBlocker.isEmpty()
                                        ? hotReason(gpu, temperatureOf(gpu), in.config.maxTemperatureC)
                                        : idleReason(gpu);
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
            if (runtime.failing())
                moments.append(runtime.retryAtMs);
        if (in.pause.all)
            moments.append(in.pause.allUntilMs);
        // An active terminal user turns idle after idle_seconds without typing.
        const TtyConfig &tty = in.config.tty;
        if (tty.enabled)
            for (const TtySession &session : in.snapshot.ttys)
                if (!tty.whitelist.contains(session.user))
                    moments.append(now() + qint64(tty.idleSeconds) * 1000 - session.idleMs);
        // The owner idle, not yet for idle_seconds; the schedule's next change either way (a running workload stops
        // at its end).
        if (in.config.activity.pauseWhileActive && in.snapshot.presence.state == UserPresence::State::Idle)
            moments.append(awayFromMs());
        if (!in.config.schedule.always() && in.localNow.isValid())
            if (const std::optional<qint64> ms = in.config.schedule.msUntilChange(WeekTime::of(in.localNow)))
                moments.append(now() + *ms);
        for (qint64 moment : std::as_const(moments))
            if (moment > now() && (decision.nextWakeMs == 0 || moment < decision.nextWakeMs))
                decision.nextWakeMs = moment;
    }
};

} // namespace

namespace Policy {

qint64 startDelayMs(const Config &config)
{
    return qMax(0, config.startDelaySeconds) * qint64(1000);
}

qint64 settledAtMs(qint64 freeSinceMs, const Config &config)
{
    return freeSinceMs + startDelayMs(config);
}

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
    // [slurm]: the lab's jobs run on the GPUs lent to them; a hold takes a GPU back from them, not the reverse.
    if (config.slurm.enabled && holder.slurmJobId != 0)
        return false;
    const QStringList ignored = config.ignoredProgramsFor(gpu);
    for (const QString &program : ignored)
        if (matchesProgram(holder, program))
            return false;
    const QList<QPair<QString, QString>> services = config.serviceProgramsFor(gpu);
    for (const auto &[program, workloadId] : services)
        if (matchesProgram(holder, program))
            return false;
    return true;
}

ClientKind clientKind(const Holder &holder, int gpu)
{
    if (holder.hidden && holder.pid <= 0)
        return ClientKind::Unseen;
    const auto use = holder.gpuUse.constFind(gpu);
    const bool listed = use != holder.gpuUse.constEnd();
    if (listed && use->compute)
        return ClientKind::Compute;
    if (holder.holdsComputeNode && !(listed && use->graphicsOnly))
        return ClientKind::Compute;
    return ClientKind::Graphics;
}

HolderVerdict judgeHolder(const Holder &holder, int gpu, const BusyRule &rule)
{
    HolderVerdict verdict;
    verdict.kind = clientKind(holder, gpu);
    const auto use = holder.gpuUse.constFind(gpu);
    const bool listed = use != holder.gpuUse.constEnd();
    const auto busy = [&verdict](bool makesBusy, const QString &why) {
        verdict.makesBusy = makesBusy;
        verdict.why = why;
        return verdict;
    };
    if (rule.opened)
        return busy(true, QStringLiteral("it has the GPU open (busy_when = opened)"));
    if (verdict.kind == ClientKind::Unseen)
        return busy(true, QStringLiteral("another user's process, not visible: counted as using the GPU"));
    if (verdict.kind == ClientKind::Compute && (rule.byClientKind || (rule.computes && listed && use->compute))) {
        if (listed && use->compute)
            return busy(true, QStringLiteral("a compute client: a backend lists it computing on the GPU"));
        return busy(true, QStringLiteral("a compute client: it holds nvidia-uvm or /dev/kfd"));
    }
    if (rule.computes || rule.memoryThresholdBytes > 0) {
        if (!listed)
            return busy(true, QStringLiteral("no backend says what it does there: counted as using the GPU"));
        if (rule.computes && use->compute)
            return busy(true, QStringLiteral("a backend lists it computing on the GPU"));
        // Listed without a figure (no permission, MIG): in doubt.
        if (rule.memoryThresholdBytes > 0 && !use->memoryBytes)
            return busy(true, QStringLiteral("a backend lists it without a memory figure: counted as using the GPU"));
        if (rule.memoryThresholdBytes > 0 && *use->memoryBytes >= rule.memoryThresholdBytes)
            return busy(true, QStringLiteral("it uses %1 of the GPU's memory (counts from %2)")
                                  .arg(mib(*use->memoryBytes), mib(rule.memoryThresholdBytes)));
    }
    if (rule.byClientKind) {
        const QString thresholds =
            QStringLiteral("counts from %1% or %2").arg(rule.graphicsBusyPercent).arg(mib(rule.graphicsMemoryBytes));
        if (!listed || (!use->busyPercent && !use->memoryBytes))
            return busy(false, QStringLiteral("a graphics client no backend measures (%1)").arg(thresholds));
        QStringList measured;
        if (use->busyPercent)
            measured.append(QStringLiteral("%1%").arg(*use->busyPercent));
        if (use->memoryBytes)
            measured.append(mib(*use->memoryBytes));
        const bool over = (use->busyPercent && *use->busyPercent >= rule.graphicsBusyPercent)
                          || (use->memoryBytes && *use->memoryBytes >= rule.graphicsMemoryBytes);
        return busy(over, QStringLiteral("a graphics client using %1 (%2)")
                              .arg(measured.join(QStringLiteral(" and ")), thresholds));
    }
    return busy(false, rule.computes ? QStringLiteral("it has the GPU open without computing there")
                                     : QStringLiteral("it uses %1 of the GPU's memory (counts from %2)")
                                           .arg(mib(use->memoryBytes.value_or(0)), mib(rule.memoryThresholdBytes)));
}

bool makesBusy(const Holder &holder, int gpu, const BusyRule &rule)
{
    return judgeHolder(holder, gpu, rule).makesBusy;
}

HolderVerdict explainHolder(const Holder &holder, int gpu, const Config &config, bool foreign)
{
    if (foreign)
        return judgeHolder(holder, gpu, config.busyRuleFor(gpu));
    HolderVerdict verdict;
    verdict.kind = clientKind(holder, gpu);
    verdict.makesBusy = false;
    const QStringList ignored = config.ignoredProgramsFor(gpu);
    for (const QString &program : ignored)
        if (matchesProgram(holder, program)) {
            verdict.why = QStringLiteral("ignore_programs names it (%1)").arg(program);
            return verdict;
        }
    if (config.slurm.enabled && holder.slurmJobId != 0) {
        verdict.why = holder.slurmJobId > 0
                          ? QStringLiteral("a process of Slurm job %1: the lab's jobs never count").arg(holder.slurmJobId)
                          : QStringLiteral("a process of a Slurm job (under slurmstepd): the lab's jobs never count");
        return verdict;
    }
    const QList<QPair<QString, QString>> services = config.serviceProgramsFor(gpu);
    for (const auto &[program, workloadId] : services)
        if (matchesProgram(holder, program)) {
            verdict.why = QStringLiteral("the service_programs of [%1] name it (%2)").arg(workloadId, program);
            return verdict;
        }
    verdict.why = QStringLiteral("idlegpu itself or a process of a workload it runs");
    return verdict;
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
    case StopCause::OwnerPresent: return QStringLiteral("owner present");
    case StopCause::OutsideSchedule: return QStringLiteral("outside the schedule");
    case StopCause::OnBattery: return QStringLiteral("on battery");
    case StopCause::TooHot: return QStringLiteral("too hot");
    }
    return QString();
}

QString clientKindName(ClientKind kind)
{
    switch (kind) {
    case ClientKind::Compute: return QStringLiteral("compute");
    case ClientKind::Graphics: return QStringLiteral("graphics");
    case ClientKind::Unseen: return QStringLiteral("unseen");
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
