// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "policy/policy.h"

#include "policy/holdwords.h"

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

// The words of a rule that holds every workload (HoldWords), as the decision, the log and --status say them.
QString everyoneWords(HoldReason reason, const QDateTime &endsAt = QDateTime(), const QStringList &users = {})
{
    return HoldWords::of({reason, endsAt, users}, HoldWords::Language::English);
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
    return QStringLiteral("GPU %1 is %2")
        .arg(gpu)
        .arg(HoldWords::tooHot(celsius, maxCelsius - Config::kCoolDownCelsius + 1, HoldWords::Language::English));
}

QString mib(qint64 bytes)
{
    return QStringLiteral("%1 MiB").arg(bytes >> 20);
}

// What one decision knows of one present GPU.
struct GpuView
{
    QList<Holder> foreign;
    QList<IgnoredHolder> ignored;
    QList<Holder> openOnly;
    qint64 freeSinceMs = 0; // meaningful only when foreign is empty
    qint64 settledAtMs = 0; // freeSinceMs + start delay
    QString occupant;       // workload running, stopping or started on it
    bool tooHot = false;
};

// A rule found holding a workload back: its words and what it concerns.
struct Hold
{
    HoldReason reason = HoldReason::None;
    QString text;     // as --status says it: "GPU 0 is in use by python3 (alice, pid 4242)"
    QString stopLine; // a stop order's line for the log, where it says more: "python3 (alice, pid 4242) opened GPU 0"
    int gpu = -1;     // GpuMissing, ForeignHolder, TooHot: the GPU concerned
    Holder culprit;   // ForeignHolder: who holds it
    QDateTime endsAt; // OutsideSchedule: when the schedule lets workloads run again
};

std::optional<Hold> holdFor(const QString &text, int gpu = -1)
{
    Hold hold;
    hold.text = text;
    hold.gpu = gpu;
    return hold;
}

// The workload a rule is asked about. A rule that may hold every workload is also asked about none in particular:
// then the candidate is empty.
struct Candidate
{
    const WorkloadConfig *config = nullptr; // null: removed from the configuration
    WorkloadRuntime runtime;
    QList<int> gpus; // those it holds (running) or wants (not running)
};

class Decider;

// One rule of HoldReason's list: how it is tested, whom it concerns, and whether it stops a running workload,
// keeps one from starting, or both.
struct Rule
{
    enum class Scope {
        Workload, // asked about each workload
        Everyone, // may hold every workload at once: also asked about none in particular, for Decision::hold
    };
    HoldReason reason;
    const char *name; // Policy::holdReasonName(): "foreign holder"
    Scope scope;
    bool stops;       // a running workload stops while it holds
    bool blocksStart; // a workload that does not run does not start while it holds
    std::optional<Hold> (Decider::*test)(const Candidate &) const;
};

class Decider
{
public:
    explicit Decider(const PolicyInput &input) : in(input) {}

    Decision run()
    {
        present = sortedUnique(in.snapshot.devices.indices());
        viewGpus();
        findActiveUsers();
        findHoldOnEveryone();
        collectOccupants();
        decideRunningWorkloads();
        decideStoppedWorkloads();
        describeGpus();
        findNextWake();
        return std::move(decision);
    }

    // The tests of the rules, in HoldReason's order; kRules pairs each with its reason. Removed comes first: the
    // tests after it read the workload's configuration.
    std::optional<Hold> removed(const Candidate &candidate) const
    {
        if (candidate.config)
            return std::nullopt;
        return holdFor(QStringLiteral("removed from the configuration"));
    }
    std::optional<Hold> disabled(const Candidate &candidate) const
    {
        if (candidate.config->enabled)
            return std::nullopt;
        return holdFor(QStringLiteral("disabled"));
    }
    std::optional<Hold> refused(const Candidate &candidate) const
    {
        if (candidate.config->refusal.isEmpty())
            return std::nullopt;
        return holdFor(QStringLiteral("refused: %1").arg(candidate.config->refusal));
    }
    std::optional<Hold> paused(const Candidate &candidate) const
    {
        if (!in.pause.allPausedAt(now()) && !in.pause.workloadPausedAt(candidate.runtime.id, now()))
            return std::nullopt;
        return holdFor(everyoneWords(HoldReason::Paused));
    }
    // [schedule]: outside it, and until when.
    std::optional<Hold> outsideSchedule(const Candidate &) const
    {
        if (in.config.schedule.always() || !in.snapshot.localTime.isValid())
            return std::nullopt;
        const WeekTime at = WeekTime::of(in.snapshot.localTime);
        if (in.config.schedule.allowsAt(at))
            return std::nullopt;
        Hold hold;
        if (const std::optional<qint64> ms = in.config.schedule.msUntilChange(at))
            hold.endsAt = in.snapshot.localTime.addMSecs(*ms);
        hold.text = everyoneWords(HoldReason::OutsideSchedule, hold.endsAt);
        return hold;
    }
    std::optional<Hold> onBattery(const Candidate &) const
    {
        if (in.config.onBattery != OnBattery::Pause || !in.snapshot.power.known || !in.snapshot.power.onBattery)
            return std::nullopt;
        return holdFor(everyoneWords(HoldReason::OnBattery));
    }
    std::optional<Hold> ownerPresent(const Candidate &) const
    {
        if (!isOwnerPresent())
            return std::nullopt;
        return holdFor(presenceReason());
    }
    std::optional<Hold> terminalUser(const Candidate &) const
    {
        if (decision.activeUsers.isEmpty())
            return std::nullopt;
        return holdFor(everyoneWords(HoldReason::TerminalUser, QDateTime(), decision.activeUsers));
    }
    std::optional<Hold> backingOff(const Candidate &candidate) const
    {
        const WorkloadRuntime &runtime = candidate.runtime;
        if (runtime.state != WorkloadRuntime::BackingOff || runtime.retryAtMs <= now())
            return std::nullopt;
        const QString failure = runtime.lastExit.isEmpty() ? QStringLiteral("failed")
                                                           : QStringLiteral("failed (%1)").arg(runtime.lastExit);
        return holdFor(
            QStringLiteral("%1; retrying in %2 s").arg(failure).arg(secondsRoundedUp(runtime.retryAtMs - now())));
    }
    std::optional<Hold> noGpu(const Candidate &candidate) const
    {
        if (!candidate.gpus.isEmpty())
            return std::nullopt;
        return holdFor(candidate.config->gpus.all ? QStringLiteral("no GPU is present")
                                                  : QStringLiteral("its GPU list is empty"));
    }
    std::optional<Hold> gpuMissing(const Candidate &candidate) const
    {
        for (int gpu : candidate.gpus) {
            if (isPresent(gpu))
                continue;
            std::optional<Hold> hold = holdFor(missingGpuReason(gpu), gpu);
            hold->stopLine = QStringLiteral("GPU %1 disappeared").arg(gpu);
            return hold;
        }
        return std::nullopt;
    }
    std::optional<Hold> foreignHolder(const Candidate &candidate) const
    {
        for (int gpu : candidate.gpus) {
            const QList<Holder> &foreign = view(gpu).foreign;
            if (foreign.isEmpty())
                continue;
            std::optional<Hold> hold = holdFor(inUseReason(gpu, foreign.first()), gpu);
            hold->culprit = foreign.first();
            hold->stopLine = QStringLiteral("%1 opened GPU %2").arg(hold->culprit.describe()).arg(gpu);
            return hold;
        }
        return std::nullopt;
    }
    std::optional<Hold> tooHot(const Candidate &candidate) const
    {
        for (int gpu : candidate.gpus)
            if (view(gpu).tooHot)
                return holdFor(hotReason(gpu, temperatureOf(gpu), in.config.maxTemperatureC), gpu); // says until when
        return std::nullopt;
    }
    std::optional<Hold> gpuTaken(const Candidate &candidate) const
    {
        for (int gpu : candidate.gpus) {
            const QString &occupant = view(gpu).occupant;
            if (!occupant.isEmpty())
                return holdFor(
                    QStringLiteral("GPU %1 is used by workload '%2'").arg(gpu).arg(displayName(in.config, occupant)),
                    gpu);
        }
        return std::nullopt;
    }
    // The start delay: the GPU that settles last.
    std::optional<Hold> settling(const Candidate &candidate) const
    {
        int slowest = -1;
        for (int gpu : candidate.gpus)
            if (!isSettled(gpu) && (slowest < 0 || view(gpu).settledAtMs > view(slowest).settledAtMs))
                slowest = gpu;
        if (slowest < 0)
            return std::nullopt;
        return holdFor(QStringLiteral("waiting %1 s more for GPU %2 to stay free")
                           .arg(secondsRoundedUp(view(slowest).settledAtMs - now()))
                           .arg(slowest),
                       slowest);
    }

private:
    const PolicyInput &in;
    Decision decision;
    QList<int> present;
    QMap<int, GpuView> gpus;
    std::optional<Hold> everyoneHold; // the first rule that holds every workload back; none when none does
    QSet<int> waitedFor; // free GPUs a workload waits on until they settle

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

    void viewGpus()
    {
        for (int gpu : present) {
            GpuView view;
            const BusyRule rule = in.config.busyRuleFor(gpu);
            for (const Holder &holder : in.snapshot.holders) {
                if (!holder.gpus.contains(gpu))
                    continue; // holders of the shared nodes only name no GPU
                if (std::optional<IgnoredHolder> ignored =
                        Policy::exemptionOf(holder, gpu, in.config, in.runtimes, in.selfPid))
                    view.ignored.append(*std::move(ignored));
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

    // [tty]: the users active on a terminal, whether or not another rule holds the workloads back.
    void findActiveUsers()
    {
        const TtyConfig &tty = in.config.tty;
        if (!tty.enabled)
            return;
        const qint64 idleLimitMs = qint64(tty.idleSeconds) * 1000;
        for (const TtySession &session : in.snapshot.ttys)
            if (!tty.whitelist.contains(session.user) && session.idleMs < idleLimitMs
                && !decision.activeUsers.contains(session.user))
                decision.activeUsers.append(session.user);
        decision.activeUsers.sort();
    }

    void findHoldOnEveryone();
    // The first rule that holds `candidate` back: of those that stop a running workload when `running`, of those
    // that keep one from starting when not.
    std::optional<Hold> firstHold(const Candidate &candidate, bool running) const;

    // [activity] pause_while_active: someone at the computer, or nothing can tell (unknown counts as present).
    bool isOwnerPresent() const
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
    // The shared words, and for the log and --status what the presence sources said (the GUI leaves that out: the
    // idle seconds move).
    QString presenceReason() const
    {
        const QString words = everyoneWords(HoldReason::OwnerPresent);
        const UserPresence &presence = in.snapshot.presence;
        if (presence.state == UserPresence::State::Unknown)
            return QStringLiteral("%1 (no source tells whether you are away)").arg(words);
        if (presence.state == UserPresence::State::Idle)
            return QStringLiteral("%1 (idle for %2 s of %3)")
                .arg(words)
                .arg(qMax<qint64>(0, now() - presence.idleSinceMs) / 1000)
                .arg(in.config.activity.idleSeconds);
        return words;
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

    static WorkloadReason reasonOf(const std::optional<Hold> &hold)
    {
        return hold ? WorkloadReason{hold->reason, hold->text} : WorkloadReason();
    }

    void decideRunningWorkloads()
    {
        for (const QString &id : allWorkloadIds()) {
            const WorkloadRuntime runtime = runtimeOf(id);
            if (runtime.state == WorkloadRuntime::Stopping) {
                decision.workloadReasons.insert(id, {HoldReason::None, QStringLiteral("stopping")});
            } else if (runtime.state == WorkloadRuntime::StopFailed) {
                decision.workloadReasons.insert(
                    id, {HoldReason::None, QStringLiteral("%1; its GPUs stay its own, stopping again in %2 s")
                                               .arg(runtime.lastExit)
                                               .arg(secondsRoundedUp(qMax<qint64>(0, runtime.retryAtMs - now())))});
            } else if (runtime.state == WorkloadRuntime::Running) {
                const std::optional<Hold> hold =
                    firstHold({in.config.workload(id), runtime, gpusOfRunning(runtime)}, true);
                decision.workloadReasons.insert(id, reasonOf(hold));
                if (hold)
                    decision.stop.append({id, hold->reason, hold->gpu, hold->culprit,
                                          hold->stopLine.isEmpty() ? hold->text : hold->stopLine});
            }
        }
    }

    void decideStoppedWorkloads()
    {
        for (const WorkloadConfig *workload : workloadsInPrecedence()) {
            const WorkloadRuntime runtime = runtimeOf(workload->id);
            if (runtime.occupiesGpus())
                continue;
            const QList<int> wanted = sortedUnique(workload->gpus.resolve(present));
            const std::optional<Hold> hold = firstHold({workload, runtime, wanted}, false);
            decision.workloadReasons.insert(workload->id, reasonOf(hold));
            if (hold && hold->reason == HoldReason::Settling) {
                for (int gpu : wanted)
                    if (!isSettled(gpu))
                        waitedFor.insert(gpu);
            }
            if (hold)
                continue;
            decision.start.append({workload->id, wanted, workload->gpus.all});
            for (int gpu : wanted)
                gpus[gpu].occupant = workload->id;
        }
    }

    // Whether the heat is what keeps a workload off `gpu`. A workload held by an earlier rule (disabled, backing off)
    // is not, so a hot GPU's line names that rule then, as the workload's own line does.
    bool heatHoldsAWorkloadOn(int gpu) const
    {
        for (const WorkloadConfig *workload : workloadsInPrecedence())
            if (workload->gpus.contains(gpu) && decision.workloadReasons.value(workload->id).hold == HoldReason::TooHot)
                return true;
        return false;
    }

    // Why a free GPU nobody waits on stays idle.
    QString idleReason(int gpu) const
    {
        if (everyoneHold)
            return everyoneHold->text;
        bool covered = false;
        for (const WorkloadConfig *workload : workloadsInPrecedence()) {
            if (!workload->gpus.contains(gpu))
                continue;
            covered = true;
            const QString reason = decision.workloadReasons.value(workload->id).text;
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
                    status.reason = gpuView.tooHot && !everyoneHold && heatHoldsAWorkloadOn(gpu)
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
        for (auto it = in.pause.workloadUntilMs.cbegin(); it != in.pause.workloadUntilMs.cend(); ++it)
            if (in.pause.workloads.contains(it.key()))
                moments.append(it.value());
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
        if (!in.config.schedule.always() && in.snapshot.localTime.isValid())
            if (const std::optional<qint64> ms = in.config.schedule.msUntilChange(WeekTime::of(in.snapshot.localTime)))
                moments.append(now() + *ms);
        for (qint64 moment : std::as_const(moments))
            if (moment > now() && (decision.nextWakeMs == 0 || moment < decision.nextWakeMs))
                decision.nextWakeMs = moment;
    }
};

using Scope = Rule::Scope;

// HoldReason's list with each rule's test, its words and whether it stops a running workload, keeps one from
// starting, or both. A running workload stops for the first rule that holds of those that stop; one that does not run
// starts when none of those that block a start holds.
constexpr Rule kRules[] = {
    // reason                        name                    scope            stops  blocks start
    {HoldReason::Removed,         "removed",              Scope::Workload, true,  false, &Decider::removed},
    {HoldReason::Disabled,        "disabled",             Scope::Workload, true,  true,  &Decider::disabled},
    {HoldReason::Refused,         "refused",              Scope::Workload, true,  true,  &Decider::refused},
    {HoldReason::Paused,          "paused",               Scope::Everyone, true,  true,  &Decider::paused},
    {HoldReason::OutsideSchedule, "outside the schedule", Scope::Everyone, true,  true,  &Decider::outsideSchedule},
    {HoldReason::OnBattery,       "on battery",           Scope::Everyone, true,  true,  &Decider::onBattery},
    {HoldReason::OwnerPresent,    "owner present",        Scope::Everyone, true,  true,  &Decider::ownerPresent},
    {HoldReason::TerminalUser,    "user active",          Scope::Everyone, true,  true,  &Decider::terminalUser},
    {HoldReason::BackingOff,      "backing off",          Scope::Workload, false, true,  &Decider::backingOff},
    {HoldReason::NoGpu,           "no GPU",               Scope::Workload, false, true,  &Decider::noGpu},
    {HoldReason::GpuMissing,      "GPU missing",          Scope::Workload, true,  true,  &Decider::gpuMissing},
    {HoldReason::ForeignHolder,   "foreign holder",       Scope::Workload, true,  true,  &Decider::foreignHolder},
    {HoldReason::TooHot,          "too hot",              Scope::Workload, true,  true,  &Decider::tooHot},
    {HoldReason::GpuTaken,        "GPU taken",            Scope::Workload, false, true,  &Decider::gpuTaken},
    {HoldReason::Settling,        "settling",             Scope::Workload, false, true,  &Decider::settling},
};

// The table follows HoldReason's order: that order is the precedence, declared once.
constexpr bool rulesInDeclaredOrder()
{
    int expected = int(HoldReason::None) + 1;
    for (const Rule &rule : kRules)
        if (int(rule.reason) != expected++)
            return false;
    return expected == int(HoldReason::Settling) + 1;
}
static_assert(rulesInDeclaredOrder(), "kRules must list every HoldReason but None, in the enum's order");

const Rule &ruleOf(HoldReason reason)
{
    return kRules[int(reason) - 1];
}

void Decider::findHoldOnEveryone()
{
    for (const Rule &rule : kRules) {
        if (rule.scope != Scope::Everyone)
            continue;
        if (std::optional<Hold> hold = (this->*rule.test)(Candidate())) {
            hold->reason = rule.reason;
            decision.hold = rule.reason;
            decision.holdText = hold->text;
            decision.holdEndsAt = hold->endsAt;
            everyoneHold = std::move(hold);
            return;
        }
    }
}

std::optional<Hold> Decider::firstHold(const Candidate &candidate, bool running) const
{
    for (const Rule &rule : kRules) {
        if (!(running ? rule.stops : rule.blocksStart))
            continue;
        if (everyoneHold && everyoneHold->reason == rule.reason)
            return everyoneHold; // found once for every workload: its words (a date, seconds) cost the most
        if (std::optional<Hold> hold = (this->*rule.test)(candidate)) {
            hold->reason = rule.reason;
            return hold;
        }
    }
    return std::nullopt;
}

// What an exemption looks at besides the holder.
struct ExemptionContext
{
    int gpu;
    const Config &config;
    const QHash<QString, WorkloadRuntime> &runtimes;
    qint64 selfPid;
};

// Whose process an exempt holder is, or which listed name matched it (IgnoredHolder's fields).
struct ExemptionMatch
{
    QString workloadId;
    QString program;
};

// One exemption of Exemption's list: whether it names a holder, and how --status says that it does.
struct ExemptionRule
{
    Exemption exemption;
    bool (*names)(const Holder &, const ExemptionContext &, ExemptionMatch *);
    QString (*why)(const IgnoredHolder &);
};

// Only idlegpu itself: its other children (the demo's simulated job, a settings "Test run") are foreign.
bool namesSelf(const Holder &holder, const ExemptionContext &context, ExemptionMatch *)
{
    return context.selfPid > 0 && holder.pid == context.selfPid;
}

bool namesWorkloadProcess(const Holder &holder, const ExemptionContext &context, ExemptionMatch *match)
{
    for (auto it = context.runtimes.cbegin(); it != context.runtimes.cend(); ++it)
        if (belongsToWorkload(holder, *it)) {
            match->workloadId = it.key();
            return true;
        }
    return false;
}

// [slurm]: the lab's jobs run on the GPUs lent to them; a hold takes a GPU back from them, not the reverse.
bool namesSlurmJob(const Holder &holder, const ExemptionContext &context, ExemptionMatch *)
{
    return context.config.slurm.enabled && holder.slurmJobId != 0;
}

bool namesIgnoredProgram(const Holder &holder, const ExemptionContext &context, ExemptionMatch *match)
{
    const QStringList ignored = context.config.ignoredProgramsFor(context.gpu);
    for (const QString &program : ignored)
        if (Policy::matchesProgram(holder, program)) {
            match->program = program;
            return true;
        }
    return false;
}

bool namesServiceProgram(const Holder &holder, const ExemptionContext &context, ExemptionMatch *match)
{
    const QList<QPair<QString, QString>> services = context.config.serviceProgramsFor(context.gpu);
    for (const auto &[program, workloadId] : services)
        if (Policy::matchesProgram(holder, program)) {
            *match = {workloadId, program};
            return true;
        }
    return false;
}

QString ownProcessWhy(const IgnoredHolder &)
{
    return QStringLiteral("idlegpu itself or a process of a workload it runs");
}

QString slurmJobWhy(const IgnoredHolder &ignored)
{
    const qint64 job = ignored.holder.slurmJobId;
    return job > 0 ? QStringLiteral("a process of Slurm job %1: the lab's jobs never count").arg(job)
                   : QStringLiteral("a process of a Slurm job (under slurmstepd): the lab's jobs never count");
}

QString ignoredProgramWhy(const IgnoredHolder &ignored)
{
    return QStringLiteral("ignore_programs names it (%1)").arg(ignored.program);
}

QString serviceProgramWhy(const IgnoredHolder &ignored)
{
    return QStringLiteral("the service_programs of [%1] name it (%2)").arg(ignored.workloadId, ignored.program);
}

constexpr ExemptionRule kExemptions[] = {
    {Exemption::Self, namesSelf, ownProcessWhy},
    {Exemption::Workload, namesWorkloadProcess, ownProcessWhy},
    {Exemption::SlurmJob, namesSlurmJob, slurmJobWhy},
    {Exemption::IgnoredProgram, namesIgnoredProgram, ignoredProgramWhy},
    {Exemption::ServiceProgram, namesServiceProgram, serviceProgramWhy},
};

constexpr bool exemptionsInDeclaredOrder()
{
    int expected = 0;
    for (const ExemptionRule &rule : kExemptions)
        if (int(rule.exemption) != expected++)
            return false;
    return expected == int(Exemption::ServiceProgram) + 1;
}
static_assert(exemptionsInDeclaredOrder(), "kExemptions must list every Exemption, in the enum's order");

// The first exemption that names the holder; null when none does (it is foreign).
const ExemptionRule *firstExemption(const Holder &holder, const ExemptionContext &context, ExemptionMatch *match)
{
    if (holder.hidden && holder.pid <= 0)
        return nullptr; // nobody can tell whose it is
    for (const ExemptionRule &rule : kExemptions)
        if (rule.names(holder, context, match))
            return &rule;
    return nullptr;
}

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

// The exemptions, in Exemption's order: idlegpu itself; a process of a running workload's session or its descendants;
// in Slurm mode a process of a Slurm job (Holder::slurmJobId), because the lab's jobs run on the GPUs lent to them; a
// program that ignore_programs names by the whole name of comm, exe basename or argv[0] basename; a program that a
// workload that may run on this GPU names in service_programs, matched the same way. The decision records the exemption
// in GpuStatus::ignoredHolders.
std::optional<IgnoredHolder> exemptionOf(const Holder &holder, int gpu, const Config &config,
                                         const QHash<QString, WorkloadRuntime> &runtimes, qint64 selfPid)
{
    ExemptionMatch match;
    const ExemptionRule *rule = firstExemption(holder, {gpu, config, runtimes, selfPid}, &match);
    if (!rule)
        return std::nullopt;
    return IgnoredHolder{holder, rule->exemption, match.workloadId, match.program};
}

bool isForeign(const Holder &holder, int gpu, const Config &config, const QHash<QString, WorkloadRuntime> &runtimes,
               qint64 selfPid)
{
    ExemptionMatch match;
    return !firstExemption(holder, {gpu, config, runtimes, selfPid}, &match);
}

// A compute client holds nvidia-uvm or /dev/kfd (unless the vendor library lists it only among the GPU's graphics
// processes) or a backend lists it computing there. A graphics client is anything else that could be seen. An unseen
// one is a hidden holder without a pid.
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

// A holder makes the GPU busy always when opening is enough; for auto, a compute client at once and a graphics client
// only while a backend measures it above a threshold; for computes and memory, when a backend lists it as computing
// there or using at least the threshold. Under computes and memory a holder that no backend could judge makes the GPU
// busy, and so does a hidden holder without a pid under every rule: when in doubt, the GPU is the user's. Under auto
// a graphics client that no backend measures does not, because a browser must not keep the GPU idle.
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

HolderVerdict explainHolder(const Holder &holder, int gpu, const Config &config)
{
    return judgeHolder(holder, gpu, config.busyRuleFor(gpu));
}

HolderVerdict explainHolder(const IgnoredHolder &ignored, int gpu)
{
    HolderVerdict verdict;
    verdict.kind = clientKind(ignored.holder, gpu);
    verdict.makesBusy = false;
    verdict.why = kExemptions[int(ignored.exemption)].why(ignored);
    return verdict;
}

// Of two workloads that want the same GPU, the first in this order starts; the other waits while it runs.
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

// A GPU must have been free of foreign holders for start_delay_seconds before a workload starts on it. At the first
// decision (the memory knows nothing of a GPU) the GPU counts as free since now, so idlegpu never starts a workload
// the moment it starts itself, because a job may be about to open the GPU. Workloads with gpus=ALL are considered
// before those with a GPU list (gpu_mon's order); no GPU ever runs two workloads.
Decision decide(const PolicyInput &input)
{
    return Decider(input).run();
}

QString holdReasonName(HoldReason reason)
{
    if (reason == HoldReason::None)
        return QStringLiteral("none");
    return QString::fromLatin1(ruleOf(reason).name);
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
