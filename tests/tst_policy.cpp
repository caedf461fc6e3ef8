// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// Policy::decide and Policy::isForeign: tables of small worlds (GPUs, holders, workloads, runner state) and
// timelines over a fake clock. Every timeline step also checks that the decision is stable: deciding again
// on the same input gives the same orders, and after the runner applied them, no new ones.
#include "policy/policy.h"

#include <QRegularExpression>
#include <QTest>

#include <functional>

namespace {

constexpr qint64 T0 = 1'000'000; // the fake clock at the start of every world
constexpr qint64 selfPid = 100;   // idlegpu's own pid in every world
constexpr qint64 firstWorkloadPid = 5000; // the simulated runner gives started workloads 5000, 5001, ...

constexpr qint64 sec(double seconds)
{
    return qint64(seconds * 1000);
}

struct HolderBuilder
{
    Holder holder;

    HolderBuilder &gpu(int index)
    {
        holder.gpus.append(index);
        return *this;
    }
    HolderBuilder &shared()
    {
        holder.holdsSharedNode = true;
        return *this;
    }
    // Only nvidia0 and nvidiactl, no nvidia-uvm: a browser, a compositor, an OpenGL program.
    HolderBuilder &graphics()
    {
        holder.holdsComputeNode = false;
        return *this;
    }
    HolderBuilder &exe(const QString &path)
    {
        holder.exe = path;
        return *this;
    }
    HolderBuilder &argv0(const QString &word)
    {
        holder.argv0 = word;
        return *this;
    }
    HolderBuilder &sid(qint64 session)
    {
        holder.sid = session;
        return *this;
    }
    HolderBuilder &ancestors(const QList<qint64> &chain)
    {
        holder.ancestors = chain;
        holder.ppid = chain.isEmpty() ? 1 : chain.first();
        return *this;
    }
    HolderBuilder &user(const QString &name)
    {
        holder.user = name;
        return *this;
    }
    HolderBuilder &slurmJob(qint64 jobId)
    {
        holder.slurmJobId = jobId;
        return *this;
    }
    HolderBuilder &hidden()
    {
        holder.hidden = true;
        return *this;
    }
    // What a backend said of it on a GPU: computing there or not, its memory there (absent: listed without one).
    HolderBuilder &uses(int gpuIndex, bool compute, std::optional<qint64> memoryBytes)
    {
        holder.gpuUse.insert(gpuIndex, GpuUse{compute, memoryBytes, false, std::nullopt});
        return *this;
    }
    // What a backend measured of a graphics client (NVML type G, or DRM fdinfo without compute engine time).
    HolderBuilder &measured(int gpuIndex, std::optional<int> busyPercent, std::optional<qint64> memoryBytes)
    {
        GpuUse use;
        use.graphicsOnly = true;
        use.busyPercent = busyPercent;
        use.memoryBytes = memoryBytes;
        holder.gpuUse.insert(gpuIndex, use);
        return *this;
    }
    operator Holder() const { return holder; }
};

// A visible process of alice: its own session, exe /usr/bin/<comm>, argv[0] <comm>. A CUDA job (it holds nvidiactl
// and nvidia-uvm beside its GPUs) unless made graphics().
HolderBuilder proc(qint64 pid, const QString &comm = QStringLiteral("python3"))
{
    HolderBuilder builder;
    Holder &h = builder.holder;
    h.pid = pid;
    h.holdsSharedNode = true;
    h.holdsComputeNode = true;
    h.ppid = 1;
    h.sid = pid;
    h.pgid = pid;
    h.uid = 1000;
    h.user = QStringLiteral("alice");
    h.comm = comm;
    h.exe = QStringLiteral("/usr/bin/") + comm;
    h.argv0 = comm;
    return builder;
}

// A GPU node opened by a process whose fds could not be read: nothing known of it.
HolderBuilder unseen()
{
    HolderBuilder builder;
    builder.holder.hidden = true;
    return builder;
}

GpuSelection selection(const QString &text)
{
    QString error;
    const std::optional<GpuSelection> parsed = GpuSelection::parse(text, &error);
    if (!parsed)
        qFatal("bad GPU selection in a test: %s", qPrintable(error));
    return *parsed;
}

struct World;
// Whether what --status prints of a decision names the rules the decision followed; run on every decision of a World.
void checkExplanations(const World &world, const Decision &decision);

// Everything decide() reads, with a tiny runner simulation that applies its orders.
struct World
{
    Config config;
    Snapshot snapshot;
    QHash<QString, WorkloadRuntime> runtimes;
    PauseState pause;
    qint64 now = T0;
    QDateTime localAtT0 = QDateTime(QDate(2026, 1, 5), QTime(12, 0)); // a Monday noon
    PolicyMemory memory;
    qint64 nextPid = firstWorkloadPid;

    World()
    {
        config.startDelaySeconds = 10;
        config.tty.idleSeconds = 300;
        config.tty.whitelist = QStringList{QStringLiteral("bob")};
    }

    World &gpus(const QList<int> &indices)
    {
        snapshot.devices.gpus.clear();
        for (int index : indices)
            addGpu(index);
        return *this;
    }
    World &workload(const QString &id, const QString &gpuText = QStringLiteral("ALL"), bool enabled = true)
    {
        WorkloadConfig w;
        w.id = id;
        w.name = id.startsWith(QLatin1String("process-")) ? id.mid(8) : id;
        w.cmd = QStringLiteral("miner");
        w.argv = QStringList{w.cmd};
        w.gpus = selection(gpuText);
        w.enabled = enabled;
        config.workloads.append(w);
        return *this;
    }
    // A control workload (start_cmd/stop_cmd) whose service runs `programs`.
    World &service(const QString &id, const QString &gpuText, const QStringList &programs, bool enabled = true)
    {
        workload(id, gpuText, enabled);
        WorkloadConfig &w = config.workloads.last();
        w.cmd.clear();
        w.argv.clear();
        w.startCmd = QStringLiteral("boinccmd --set_gpu_mode auto 0");
        w.startArgv = w.startCmd.split(QLatin1Char(' '));
        w.stopCmd = QStringLiteral("boinccmd --set_gpu_mode never 0");
        w.stopArgv = w.stopCmd.split(QLatin1Char(' '));
        w.servicePrograms = programs;
        return *this;
    }
    World &ignore(const QString &gpuText, const QStringList &programs)
    {
        GpuGroupConfig group;
        group.id = QStringLiteral("gpu-%1").arg(gpuText.toLower());
        group.gpus = selection(gpuText);
        group.ignorePrograms = programs;
        group.ignoreProgramsGiven = true;
        config.gpuGroups.append(group);
        return *this;
    }
    World &busyWhen(const QString &gpuText, BusyWhen when, qint64 memoryMib = GpuGroupConfig::kDefaultBusyMemoryMib)
    {
        GpuGroupConfig group;
        group.id = QStringLiteral("gpu-busy-%1").arg(gpuText.toLower());
        group.gpus = selection(gpuText);
        group.busyWhen = when;
        group.busyMemoryMib = memoryMib;
        config.gpuGroups.append(group);
        return *this;
    }
    World &presence(UserPresence::State state, qint64 idleSinceMs = 0)
    {
        config.activity.pauseWhileActive = true;
        snapshot.presence.state = state;
        snapshot.presence.idleSinceMs = idleSinceMs;
        snapshot.presence.source = QStringLiteral("logind");
        return *this;
    }
    World &onBattery(bool battery, OnBattery rule = OnBattery::Pause)
    {
        config.onBattery = rule;
        snapshot.power.known = true;
        snapshot.power.onBattery = battery;
        return *this;
    }
    World &temperature(int gpu, int celsius, int maxCelsius = 85)
    {
        config.maxTemperatureC = maxCelsius;
        snapshot.temperatures.insert(gpu, celsius);
        return *this;
    }
    World &schedule(const QString &rules)
    {
        QString message;
        const std::optional<Schedule> parsed = Schedule::parse(rules, &message);
        if (!parsed)
            qFatal("bad schedule in a test: %s", qPrintable(message));
        config.schedule = *parsed;
        return *this;
    }
    World &ttyCheck(bool enabled = true)
    {
        config.tty.enabled = enabled;
        return *this;
    }
    World &tty(const QString &user, qint64 idleMs)
    {
        TtySession session;
        session.tty = QStringLiteral("/dev/pts/%1").arg(snapshot.ttys.size());
        session.user = user;
        session.idleMs = idleMs;
        snapshot.ttys.append(session);
        return *this;
    }
    World &holder(const Holder &h)
    {
        snapshot.holders.append(h);
        return *this;
    }
    World &pausedAll(qint64 untilMs = 0)
    {
        pause.all = true;
        pause.allUntilMs = untilMs;
        return *this;
    }
    World &paused(const QString &id)
    {
        pause.workloads.insert(id);
        return *this;
    }
    World &freeSince(int gpu, qint64 ms)
    {
        memory.freeSinceMs.insert(gpu, ms);
        return *this;
    }
    World &running(const QString &id, const QList<int> &onGpus, WorkloadRuntime::State state = WorkloadRuntime::Running)
    {
        WorkloadRuntime &r = runtimes[id];
        r.id = id;
        r.state = state;
        r.pid = nextPid++;
        r.gpus = onGpus;
        r.startedAtMs = now;
        return *this;
    }
    World &backingOff(const QString &id, qint64 retryAtMs, const QString &lastExit = QStringLiteral("exit code 3"))
    {
        WorkloadRuntime &r = runtimes[id];
        r.id = id;
        r.state = WorkloadRuntime::BackingOff;
        r.pid = 0;
        r.gpus.clear();
        r.retryAtMs = retryAtMs;
        r.lastExit = lastExit;
        r.consecutiveFailures++;
        return *this;
    }

    void addGpu(int index)
    {
        snapshot.devices.gpus.append({index, QStringLiteral("/dev/nvidia%1").arg(index)});
        std::sort(snapshot.devices.gpus.begin(), snapshot.devices.gpus.end(),
                  [](const GpuDevice &a, const GpuDevice &b) { return a.index < b.index; });
    }
    void removeGpu(int index)
    {
        snapshot.devices.gpus.removeIf([index](const GpuDevice &gpu) { return gpu.index == index; });
    }
    WorkloadConfig *workloadConfig(const QString &id)
    {
        for (WorkloadConfig &w : config.workloads)
            if (w.id == id)
                return &w;
        qFatal("no workload %s in this test world", qPrintable(id));
        return nullptr;
    }

    PolicyInput input() const
    {
        PolicyInput in;
        in.snapshot = snapshot;
        in.snapshot.takenAtMs = now;
        in.config = config;
        in.runtimes = runtimes;
        in.pause = pause;
        in.nowMs = now;
        in.snapshot.localTime = localAtT0.addMSecs(now - T0);
        in.selfPid = selfPid;
        in.memory = memory;
        return in;
    }
    Decision decide()
    {
        Decision decision = Policy::decide(input());
        checkExplanations(*this, decision);
        memory = decision.memory;
        return decision;
    }
    // What the runner does with the orders: a stop sends SIGTERM (Stopping), a start spawns a session.
    void apply(const Decision &decision)
    {
        for (const StopOrder &order : decision.stop)
            runtimes[order.workloadId].state = WorkloadRuntime::Stopping;
        for (const StartOrder &order : decision.start)
            running(order.workloadId, order.gpus);
    }
};

// The words by which --status names each rule, written here apart from the policy: the reason a decision gives must
// be the one of the rule it followed. None: the words of no rule, or of more than one.
HoldReason ruleNamedBy(const QString &text)
{
    static const QList<QPair<QRegularExpression, HoldReason>> words = {
        {QRegularExpression("^removed from the configuration$"), HoldReason::Removed},
        {QRegularExpression("^disabled$"), HoldReason::Disabled},
        {QRegularExpression("^refused: "), HoldReason::Refused},
        {QRegularExpression("^paused$"), HoldReason::Paused},
        {QRegularExpression("^outside the schedule( until .+)?$"), HoldReason::OutsideSchedule},
        {QRegularExpression("^the computer runs on battery$"), HoldReason::OnBattery},
        {QRegularExpression("^you are at the computer( \\(.+\\))?$"), HoldReason::OwnerPresent},
        {QRegularExpression("^users? .+ (is|are) active on a terminal$"), HoldReason::TerminalUser},
        {QRegularExpression("^failed( \\(.*\\))?; retrying in \\d+ s$"), HoldReason::BackingOff},
        {QRegularExpression("^(no GPU is present|its GPU list is empty)$"), HoldReason::NoGpu},
        {QRegularExpression("^GPU \\d+ does not exist$"), HoldReason::GpuMissing},
        {QRegularExpression("^GPU \\d+ is in use by "), HoldReason::ForeignHolder},
        {QRegularExpression("^GPU \\d+ is too hot"), HoldReason::TooHot},
        {QRegularExpression("^GPU \\d+ is used by workload '"), HoldReason::GpuTaken},
        {QRegularExpression("^waiting \\d+ s more for GPU \\d+ to stay free$"), HoldReason::Settling},
    };
    HoldReason named = HoldReason::None;
    for (const auto &[pattern, reason] : words) {
        if (!pattern.match(text).hasMatch())
            continue;
        if (named != HoldReason::None)
            return HoldReason::None;
        named = reason;
    }
    return named;
}

// The exemptions whose words a holder's explanation has (idlegpu's and a workload's share theirs).
QList<Exemption> exemptionsNamedBy(const QString &why)
{
    static const QList<QPair<QRegularExpression, QList<Exemption>>> words = {
        {QRegularExpression("^idlegpu itself or a process of a workload it runs$"),
         {Exemption::Self, Exemption::Workload}},
        {QRegularExpression("^a process of (Slurm job \\d+|a Slurm job \\(under slurmstepd\\)): the lab's jobs never "
                            "count$"),
         {Exemption::SlurmJob}},
        {QRegularExpression("^ignore_programs names it \\(.+\\)$"), {Exemption::IgnoredProgram}},
        {QRegularExpression("^the service_programs of \\[.+\\] name it \\(.+\\)$"), {Exemption::ServiceProgram}},
    };
    QList<Exemption> named;
    for (const auto &[pattern, exemptions] : words)
        if (pattern.match(why).hasMatch())
            named += exemptions;
    return named;
}

// The rules that may hold every workload at once (Decision::hold).
bool holdsEveryone(HoldReason reason)
{
    return reason >= HoldReason::Paused && reason <= HoldReason::TerminalUser;
}

void checkExplanations(const World &world, const Decision &decision)
{
    // What holds every workload back.
    if (decision.hold == HoldReason::None)
        QVERIFY2(decision.holdText.isEmpty(), qPrintable(decision.holdText));
    else
        QVERIFY2(ruleNamedBy(decision.holdText) == decision.hold,
                 qPrintable(QStringLiteral("hold %1 explained as \"%2\"")
                                .arg(Policy::holdReasonName(decision.hold), decision.holdText)));
    // Each workload's line: the rule it followed, in that rule's words. One that holds everyone holds each workload
    // the same, but for a workload paused on its own; and no rule after it holds a workload.
    for (auto it = decision.workloadReasons.cbegin(); it != decision.workloadReasons.cend(); ++it) {
        const WorkloadReason &reason = it.value();
        const QString where = QStringLiteral("workload %1: ").arg(it.key());
        if (reason.hold == HoldReason::None) {
            QVERIFY2(reason.text.isEmpty() || reason.text == QLatin1String("stopping")
                         || reason.text.contains(QLatin1String("its GPUs stay its own")),
                     qPrintable(where + reason.text));
            continue;
        }
        QVERIFY2(ruleNamedBy(reason.text) == reason.hold,
                 qPrintable(where + QStringLiteral("%1 explained as \"%2\"")
                                        .arg(Policy::holdReasonName(reason.hold), reason.text)));
        if (decision.hold != HoldReason::None) {
            QVERIFY2(reason.hold <= decision.hold, qPrintable(where + Policy::holdReasonName(reason.hold)));
            if (holdsEveryone(reason.hold) && !world.pause.workloads.contains(it.key()))
                QVERIFY2(reason.hold == decision.hold,
                         qPrintable(where + QStringLiteral("%1, while everyone is held for %2")
                                                .arg(Policy::holdReasonName(reason.hold),
                                                     Policy::holdReasonName(decision.hold))));
        } else {
            QVERIFY2(!holdsEveryone(reason.hold) || reason.hold == HoldReason::Paused,
                     qPrintable(where + Policy::holdReasonName(reason.hold)));
        }
    }
    // A stop order follows the rule its workload's line names.
    for (const StopOrder &order : decision.stop)
        QVERIFY2(decision.workloadReasons.value(order.workloadId).hold == order.cause,
                 qPrintable(QStringLiteral("stop %1 for %2, explained as \"%3\"")
                                .arg(order.workloadId, Policy::holdReasonName(order.cause),
                                     decision.workloadReasons.value(order.workloadId).text)));
    for (const GpuStatus &gpu : decision.gpus) {
        const QString where = QStringLiteral("GPU %1: ").arg(gpu.index);
        // An idle GPU's line: the hold on everyone, its own heat where the heat holds a workload that wants it, or
        // the rule of the first workload that wants it.
        bool heatHoldsAWorkload = false;
        for (const WorkloadConfig &workload : world.config.workloads)
            if (workload.gpus.contains(gpu.index)
                && decision.workloadReasons.value(workload.id).hold == HoldReason::TooHot)
                heatHoldsAWorkload = true;
        if (gpu.state == GpuState::Idle && !gpu.reason.isEmpty()) {
            if (decision.hold != HoldReason::None) {
                QCOMPARE(gpu.reason, decision.holdText);
            } else if (gpu.tooHot && heatHoldsAWorkload) {
                QVERIFY2(ruleNamedBy(gpu.reason) == HoldReason::TooHot, qPrintable(where + gpu.reason));
            } else if (gpu.reason != QLatin1String("no workload for this GPU")) {
                const qsizetype colon = gpu.reason.indexOf(QLatin1String(": "));
                QVERIFY2(colon > 0, qPrintable(where + gpu.reason));
                const QString name = gpu.reason.left(colon);
                const QString text = gpu.reason.mid(colon + 2);
                HoldReason followed = HoldReason::None;
                for (const WorkloadConfig &workload : world.config.workloads)
                    if (workload.name == name)
                        followed = decision.workloadReasons.value(workload.id).hold;
                QVERIFY2(followed != HoldReason::None && ruleNamedBy(text) == followed, qPrintable(where + gpu.reason));
            }
        }
        // Each holder left out: the words of the exemption the decision recorded.
        for (const IgnoredHolder &ignored : gpu.ignoredHolders) {
            const QString why = Policy::explainHolder(ignored, gpu.index).why;
            QVERIFY2(exemptionsNamedBy(why).contains(ignored.exemption),
                     qPrintable(where + QStringLiteral("%1 left out by exemption %2, explained as \"%3\"")
                                            .arg(ignored.holder.describe())
                                            .arg(int(ignored.exemption))
                                            .arg(why)));
        }
    }
}

// The orders of a decision in one line: "start all[0,1]; stop a(foreign holder 0)", or "none".
QString ordersOf(const Decision &decision)
{
    QStringList parts;
    for (const StopOrder &order : decision.stop) {
        QString cause = Policy::holdReasonName(order.cause);
        if (order.gpu >= 0)
            cause += QStringLiteral(" %1").arg(order.gpu);
        parts.append(QStringLiteral("stop %1(%2)").arg(order.workloadId, cause));
    }
    for (const StartOrder &order : decision.start) {
        QStringList gpus;
        for (int gpu : order.gpus)
            gpus.append(QString::number(gpu));
        parts.append(QStringLiteral("start %1[%2]").arg(order.workloadId, gpus.join(QLatin1Char(','))));
    }
    return parts.isEmpty() ? QStringLiteral("none") : parts.join(QStringLiteral("; "));
}

// Changes a timeline makes to its world before a decision.
using Change = std::function<void(World &)>;

Change opens(const Holder &holder)
{
    return [holder](World &w) { w.snapshot.holders.append(holder); };
}
Change closes(qint64 pid)
{
    return [pid](World &w) { w.snapshot.holders.removeIf([pid](const Holder &h) { return h.pid == pid; }); };
}
Change stopped(const QString &id)
{
    return [id](World &w) {
        WorkloadRuntime &r = w.runtimes[id];
        r.state = WorkloadRuntime::Stopped;
        r.pid = 0;
        r.gpus.clear();
    };
}
Change exits(const QString &id, qint64 retryInMs)
{
    return [id, retryInMs](World &w) { w.backingOff(id, w.now + retryInMs); };
}
Change pauseAll(qint64 untilMs = 0)
{
    return [untilMs](World &w) {
        w.pause.all = true;
        w.pause.allUntilMs = untilMs;
    };
}
Change resumeAll()
{
    return [](World &w) { w.pause.all = false; };
}
Change pauseWorkload(const QString &id)
{
    return [id](World &w) { w.pause.workloads.insert(id); };
}
Change resumeWorkload(const QString &id)
{
    return [id](World &w) { w.pause.workloads.remove(id); };
}
Change disable(const QString &id)
{
    return [id](World &w) { w.workloadConfig(id)->enabled = false; };
}
Change removeFromConfig(const QString &id)
{
    return [id](World &w) { w.config.workloads.removeIf([id](const WorkloadConfig &c) { return c.id == id; }); };
}
Change gpuAppears(int index)
{
    return [index](World &w) { w.addGpu(index); };
}
Change gpuVanishes(int index)
{
    return [index](World &w) { w.removeGpu(index); };
}
Change terminal(const QString &user, qint64 idleMs)
{
    return [user, idleMs](World &w) { w.tty(user, idleMs); };
}
Change temperatureOf(int gpu, int celsius)
{
    return [gpu, celsius](World &w) { w.snapshot.temperatures.insert(gpu, celsius); };
}
Change presenceIs(UserPresence::State state, qint64 idleSinceMs = 0)
{
    return [state, idleSinceMs](World &w) {
        w.snapshot.presence.state = state;
        w.snapshot.presence.idleSinceMs = idleSinceMs;
    };
}
Change terminalsIdle(qint64 idleMs)
{
    return [idleMs](World &w) {
        for (TtySession &session : w.snapshot.ttys)
            session.idleMs = idleMs;
    };
}

struct Step
{
    qint64 atMs = 0; // since T0
    QList<Change> changes;
    QString orders; // expected, as ordersOf() writes them
};
using Timeline = QList<Step>;

Step at(qint64 atMs, const QString &orders)
{
    return {atMs, {}, orders};
}
Step at(qint64 atMs, const QList<Change> &changes, const QString &orders)
{
    return {atMs, changes, orders};
}

} // namespace

Q_DECLARE_METATYPE(World)
Q_DECLARE_METATYPE(Timeline)
Q_DECLARE_METATYPE(Holder)
Q_DECLARE_METATYPE(BusyRule)

class TestPolicy : public QObject
{
    Q_OBJECT

private slots:
    void timeline_data();
    void timeline();
    void isForeign_data();
    void isForeign();
    void makesBusy_data();
    void makesBusy();
    void explainHolder_data();
    void explainHolder();
    void exemptionOrder_data();
    void exemptionOrder();
    void followedRule_data();
    void followedRule();
    void openOnlyHoldersLeaveTheWorkload_data();
    void openOnlyHoldersLeaveTheWorkload();
    void workloadReason_data();
    void workloadReason();
    void gpuStatus_data();
    void gpuStatus();
    void nextWake_data();
    void nextWake();
    void holdsEveryWorkload_data();
    void holdsEveryWorkload();
    void heatTimeline_data();
    void heatTimeline();
    void hotGpuLineNamesTheRuleFollowed();
    void presenceTimeline();
    void freeSinceMemory();
    void stopOrderNamesTheCulprit();
    void activeUsersAreUniqueAndSorted();
    void sameInputSameDecision();
    void oddInputs();
};

void TestPolicy::timeline_data()
{
    QTest::addColumn<World>("world");
    QTest::addColumn<Timeline>("timeline");

    const World oneGpu = World().gpus({0}).workload("a");
    const World twoGpusTwoWorkloads = World().gpus({0, 1}).workload("a", "0").workload("b", "1");

    QTest::newRow("starts after the start delay, not before")
        << oneGpu << Timeline{at(0, "none"), at(sec(9.999), "none"), at(sec(10), "start a[0]"), at(sec(20), "none")};

    QTest::newRow("a foreign open preempts at once; restart after the delay")
        << oneGpu
        << Timeline{at(sec(10), "start a[0]"),
                    at(sec(10.001), {opens(proc(4242).gpu(0))}, "stop a(foreign holder 0)"),
                    at(sec(10.002), {stopped("a")}, "none"),
                    at(sec(15), {closes(4242)}, "none"),
                    at(sec(24.999), "none"),
                    at(sec(25), "start a[0]")};

    QTest::newRow("a foreign holder present from the start keeps the GPU")
        << World(oneGpu).holder(proc(4242).gpu(0))
        << Timeline{at(0, "none"), at(sec(60), "none"), at(sec(61), {closes(4242)}, "none"),
                    at(sec(71), "start a[0]")};

    QTest::newRow("an ignored program does not preempt")
        << World(oneGpu).ignore("ALL", {"Xorg"})
        << Timeline{at(sec(10), "start a[0]"), at(sec(11), {opens(proc(50, "Xorg").gpu(0))}, "none")};

    QTest::newRow("ignoring nvidia does not ignore nvidia-smi")
        << World(oneGpu).ignore("ALL", {"nvidia"})
        << Timeline{at(sec(10), "start a[0]"),
                    at(sec(11), {opens(proc(4242, "nvidia-smi").gpu(0))}, "stop a(foreign holder 0)")};

    QTest::newRow("a program ignored on GPU 1 preempts on GPU 0")
        << World(twoGpusTwoWorkloads).ignore("1", {"blender"})
        << Timeline{at(sec(10), "start a[0]; start b[1]"),
                    at(sec(11), {opens(proc(60, "blender").gpu(1))}, "none"),
                    at(sec(12), {opens(proc(61, "blender").gpu(0))}, "stop a(foreign holder 0)")};

    // The simulated runner gives the first started workload pid 5000.
    QTest::newRow("the workload's own session, children and grandchildren are not foreign")
        << oneGpu
        << Timeline{at(sec(10), "start a[0]"),
                    at(sec(11), {opens(proc(5000, "miner").gpu(0))}, "none"),
                    at(sec(12), {opens(proc(5001, "cuda-worker").sid(5000).ancestors({5000}).gpu(0))}, "none"),
                    at(sec(13), {opens(proc(5002, "setsid-child").ancestors({5001, 5000}).gpu(0))}, "none")};

    QTest::newRow("idlegpu itself is not foreign")
        << World(oneGpu)
               .holder(proc(selfPid, "idlegpu").gpu(0))
        << Timeline{at(sec(10), "start a[0]")};

    QTest::newRow("a holder of the shared nodes only does not make a GPU busy")
        << World(oneGpu).holder(proc(4242).shared())
        << Timeline{at(sec(10), "start a[0]")};

    QTest::newRow("a hidden holder is foreign")
        << oneGpu
        << Timeline{at(sec(10), "start a[0]"),
                    at(sec(11), {opens(unseen().gpu(0))}, "stop a(foreign holder 0)"),
                    at(sec(12), {stopped("a")}, "none"), at(sec(100), "none")};

    QTest::newRow("a holder on another GPU leaves a per-GPU workload alone")
        << twoGpusTwoWorkloads
        << Timeline{at(sec(10), "start a[0]; start b[1]"),
                    at(sec(11), {opens(proc(4242).gpu(1))}, "stop b(foreign holder 1)"),
                    at(sec(12), {stopped("b")}, "none")};

    QTest::newRow("ALL takes every GPU when all are free, whatever the file order")
        << World().gpus({0, 1}).workload("a", "0").workload("all").workload("b", "1")
        << Timeline{at(sec(10), "start all[0,1]"), at(sec(60), "none")};

    QTest::newRow("ALL waits while a per-GPU workload runs")
        << World().gpus({0, 1}).workload("all").workload("a", "0").holder(proc(4242).gpu(1))
        << Timeline{at(sec(10), "start a[0]"), at(sec(11), {closes(4242)}, "none"), at(sec(21), "none"),
                    at(sec(300), "none")};

    QTest::newRow("ALL preempted; per-GPU workloads take the free GPUs")
        << World().gpus({0, 1}).workload("all").workload("a", "0").workload("b", "1")
        << Timeline{at(sec(10), "start all[0,1]"),
                    at(sec(20), {opens(proc(4242).gpu(0))}, "stop all(foreign holder 0)"),
                    at(sec(21), "none"), // stopping: it still holds both GPUs
                    at(sec(22), {stopped("all")}, "start b[1]"),
                    at(sec(30), {closes(4242)}, "none"),
                    at(sec(39.999), "none"),
                    at(sec(40), "start a[0]"),
                    at(sec(100), "none")};

    QTest::newRow("no GPU runs two workloads")
        << World().gpus({0}).workload("a", "0").workload("b", "0")
        << Timeline{at(sec(10), "start a[0]"),
                    at(sec(11), {exits("a", sec(30))}, "start b[0]"),
                    at(sec(41), "none"),
                    at(sec(42), {opens(proc(4242).gpu(0))}, "stop b(foreign holder 0)"),
                    at(sec(43), {stopped("b"), closes(4242)}, "none"),
                    at(sec(53), "start a[0]")};

    QTest::newRow("a listed GPU that does not exist yet must appear and settle")
        << World().gpus({0}).workload("a", "0,3")
        << Timeline{at(sec(10), "none"), at(sec(20), {gpuAppears(3)}, "none"), at(sec(29.999), "none"),
                    at(sec(30), "start a[0,3]")};

    QTest::newRow("a GPU vanishing under a workload stops it")
        << World().gpus({0, 1}).workload("a", "0,1")
        << Timeline{at(sec(10), "start a[0,1]"), at(sec(11), {gpuVanishes(1)}, "stop a(GPU missing 1)"),
                    at(sec(12), {stopped("a")}, "none")};

    QTest::newRow("a GPU vanishing under an ALL workload stops it")
        << World().gpus({0, 1}).workload("all")
        << Timeline{at(sec(10), "start all[0,1]"), at(sec(11), {gpuVanishes(1)}, "stop all(GPU missing 1)"),
                    at(sec(12), {stopped("all")}, "start all[0]")};

    QTest::newRow("an active terminal user stops all workloads")
        << World(twoGpusTwoWorkloads).ttyCheck()
        << Timeline{at(sec(10), "start a[0]; start b[1]"),
                    at(sec(11), {terminal("alice", sec(1))}, "stop a(user active); stop b(user active)"),
                    at(sec(12), {stopped("a"), stopped("b")}, "none"),
                    at(sec(300), {terminalsIdle(sec(299.999))}, "none"),
                    at(sec(301), {terminalsIdle(sec(300))}, "start a[0]; start b[1]")};

    QTest::newRow("a whitelisted terminal user does not stop workloads")
        << World(oneGpu).ttyCheck()
        << Timeline{at(sec(10), "start a[0]"), at(sec(11), {terminal("bob", 0)}, "none")};

    QTest::newRow("a terminal idle beyond idle_seconds does not stop workloads")
        << World(oneGpu).ttyCheck()
        << Timeline{at(sec(10), "start a[0]"), at(sec(11), {terminal("alice", sec(300))}, "none")};

    QTest::newRow("terminals are ignored while the tty check is off")
        << World(oneGpu).ttyCheck(false)
        << Timeline{at(sec(10), "start a[0]"), at(sec(11), {terminal("alice", 0)}, "none")};

    QTest::newRow("pause all stops everything and starts nothing until resumed")
        << twoGpusTwoWorkloads
        << Timeline{at(sec(10), "start a[0]; start b[1]"),
                    at(sec(11), {pauseAll()}, "stop a(paused); stop b(paused)"),
                    at(sec(12), {stopped("a"), stopped("b")}, "none"),
                    at(sec(1000), "none"),
                    at(sec(1001), {resumeAll()}, "start a[0]; start b[1]")};

    QTest::newRow("pause for a while resumes at its end")
        << oneGpu
        << Timeline{at(sec(10), "start a[0]"),
                    at(sec(11), {pauseAll(T0 + sec(71))}, "stop a(paused)"),
                    at(sec(12), {stopped("a")}, "none"),
                    at(sec(70.999), "none"),
                    at(sec(71), "start a[0]")};

    QTest::newRow("pausing one workload stops only that one")
        << twoGpusTwoWorkloads
        << Timeline{at(sec(10), "start a[0]; start b[1]"),
                    at(sec(11), {pauseWorkload("a")}, "stop a(paused)"),
                    at(sec(12), {stopped("a")}, "none"),
                    at(sec(13), {resumeWorkload("a")}, "start a[0]")};

    QTest::newRow("a disabled workload is stopped and not started")
        << twoGpusTwoWorkloads
        << Timeline{at(sec(10), "start a[0]; start b[1]"),
                    at(sec(11), {disable("b")}, "stop b(disabled)"),
                    at(sec(12), {stopped("b")}, "none"), at(sec(100), "none")};

    QTest::newRow("a workload disabled in the file never starts")
        << World().gpus({0}).workload("a", "ALL", false)
        << Timeline{at(sec(10), "none"), at(sec(100), "none")};

    QTest::newRow("a workload removed from the config is stopped")
        << twoGpusTwoWorkloads
        << Timeline{at(sec(10), "start a[0]; start b[1]"),
                    at(sec(11), {removeFromConfig("a")}, "stop a(removed)"),
                    at(sec(12), {stopped("a")}, "none")};

    QTest::newRow("a failed workload restarts at retryAtMs, not before")
        << oneGpu
        << Timeline{at(sec(10), "start a[0]"), at(sec(11), {exits("a", sec(40))}, "none"), at(sec(50.999), "none"),
                    at(sec(51), "start a[0]")};

    QTest::newRow("a stopping workload keeps its GPU until it is gone")
        << World().gpus({0}).workload("a", "0").workload("b", "0")
        << Timeline{at(sec(10), "start a[0]"),
                    at(sec(11), {pauseWorkload("a")}, "stop a(paused)"),
                    at(sec(12), "none"),
                    at(sec(13), {stopped("a")}, "start b[0]")};
}

void TestPolicy::timeline()
{
    QFETCH(World, world);
    QFETCH(Timeline, timeline);

    // idlegpu starts at T0: its first decision sees every GPU for the first time and so starts nothing.
    QCOMPARE(ordersOf(world.decide()), QStringLiteral("none"));

    for (const Step &step : std::as_const(timeline)) {
        QVERIFY2(T0 + step.atMs >= world.now, "a timeline must not go back in time");
        world.now = T0 + step.atMs;
        for (const Change &change : step.changes)
            change(world);
        const QString when = QStringLiteral("at %1 s: ").arg(double(step.atMs) / 1000);

        const PolicyInput input = world.input();
        const Decision decision = world.decide();
        QCOMPARE(when + ordersOf(decision), when + step.orders);
        QVERIFY2(decision.nextWakeMs == 0 || decision.nextWakeMs > world.now,
                 qPrintable(when + "nextWakeMs in the past"));

        const Decision again = Policy::decide(input);
        QCOMPARE(when + ordersOf(again), when + step.orders);

        world.apply(decision);
        const Decision afterApplying = world.decide();
        QCOMPARE(when + ordersOf(afterApplying), when + QStringLiteral("none"));
    }
}

void TestPolicy::makesBusy_data()
{
    QTest::addColumn<Holder>("holder");
    QTest::addColumn<BusyRule>("rule");
    QTest::addColumn<bool>("busy");
    constexpr qint64 mib = 1024 * 1024;
    const BusyRule opened{true, false, 0, false};
    const BusyRule computes{false, true, 0, false};
    const BusyRule memory{false, false, 256 * mib, false};
    const BusyRule computesOrMemory{false, true, 256 * mib, false};
    const BusyRule autoRule; // the default: 30% or 1024 MiB

    QTest::newRow("opened: an open node is enough") << Holder(proc(1).gpu(0).uses(0, false, 0)) << opened << true;
    QTest::newRow("computes: no backend said anything") << Holder(proc(1).gpu(0)) << computes << true;
    QTest::newRow("computes: the backend spoke of another GPU only")
        << Holder(proc(1).gpu(0).uses(1, false, 0)) << computes << true;
    QTest::newRow("computes: hidden, no pid") << Holder(unseen().gpu(0)) << computes << true;
    QTest::newRow("computes: not listed") << Holder(proc(1).gpu(0).uses(0, false, 0)) << computes << false;
    QTest::newRow("computes: a compute process") << Holder(proc(1).gpu(0).uses(0, true, 0)) << computes << true;
    QTest::newRow("computes: graphics with much memory")
        << Holder(proc(1).gpu(0).uses(0, false, 4096 * mib)) << computes << false;
    QTest::newRow("memory: below") << Holder(proc(1).gpu(0).uses(0, true, 255 * mib)) << memory << false;
    QTest::newRow("memory: at the threshold") << Holder(proc(1).gpu(0).uses(0, false, 256 * mib)) << memory << true;
    QTest::newRow("memory: listed without a figure") << Holder(proc(1).gpu(0).uses(0, true, std::nullopt)) << memory
                                                     << true;
    QTest::newRow("memory: no backend") << Holder(proc(1).gpu(0)) << memory << true;
    QTest::newRow("computes or memory: a small compute process")
        << Holder(proc(1).gpu(0).uses(0, true, 1 * mib)) << computesOrMemory << true;
    QTest::newRow("computes or memory: large graphics")
        << Holder(proc(1).gpu(0).uses(0, false, 300 * mib)) << computesOrMemory << true;
    QTest::newRow("computes or memory: neither") << Holder(proc(1).gpu(0).uses(0, false, 1 * mib))
                                                 << computesOrMemory << false;
    QTest::newRow("auto: holds nvidia-uvm, no backend") << Holder(proc(1).gpu(0)) << autoRule << true;
    QTest::newRow("auto: computing per the backend, no uvm")
        << Holder(proc(1).graphics().gpu(0).uses(0, true, 1 * mib)) << autoRule << true;
    QTest::newRow("auto: uvm but listed as graphics only, idle")
        << Holder(proc(1).gpu(0).measured(0, 2, 100 * mib)) << autoRule << false;
    QTest::newRow("auto: graphics, no backend") << Holder(proc(1).graphics().gpu(0)) << autoRule << false;
    QTest::newRow("auto: graphics, listed without figures")
        << Holder(proc(1).graphics().gpu(0).measured(0, std::nullopt, std::nullopt)) << autoRule << false;
    QTest::newRow("auto: graphics below both") << Holder(proc(1).graphics().gpu(0).measured(0, 29, 1023 * mib))
                                               << autoRule << false;
    QTest::newRow("auto: graphics at the percent") << Holder(proc(1).graphics().gpu(0).measured(0, 30, 10 * mib))
                                                   << autoRule << true;
    QTest::newRow("auto: graphics at the memory") << Holder(proc(1).graphics().gpu(0).measured(0, 0, 1024 * mib))
                                                  << autoRule << true;
    QTest::newRow("auto: graphics, memory measured only")
        << Holder(proc(1).graphics().gpu(0).measured(0, std::nullopt, 2048 * mib)) << autoRule << true;
    QTest::newRow("auto: hidden, no pid") << Holder(unseen().gpu(0)) << autoRule << true;
    QTest::newRow("opened: a graphics client") << Holder(proc(1).graphics().gpu(0)) << opened << true;
}

void TestPolicy::makesBusy()
{
    QFETCH(Holder, holder);
    QFETCH(BusyRule, rule);
    QFETCH(bool, busy);
    QCOMPARE(Policy::makesBusy(holder, 0, rule), busy);
}

// busy_when = computes: a job that only opened the workload's GPU (CUDA opens every GPU it may use) leaves the
// workload running and is listed apart; once it computes there the workload stops. Another GPU keeps the default.
void TestPolicy::openOnlyHoldersLeaveTheWorkload_data()
{
    QTest::addColumn<World>("world");
    QTest::addColumn<bool>("stops");
    QTest::addColumn<QList<qint64>>("openOnlyPids");
    const qint64 longAgo = T0 - sec(60);
    const World running = World()
                              .gpus({0, 1})
                              .freeSince(0, longAgo)
                              .freeSince(1, longAgo)
                              .busyWhen("0", BusyWhen::Computes)
                              .workload("a", "0")
                              .running("a", {0})
                              .workload("b", "1")
                              .running("b", {1});
    QTest::newRow("open only") << World(running).holder(proc(4242).gpu(0).uses(0, false, 0)) << false
                               << QList<qint64>{4242};
    QTest::newRow("computing") << World(running).holder(proc(4242).gpu(0).uses(0, true, 0)) << true
                               << QList<qint64>{};
    QTest::newRow("no backend: in doubt, busy") << World(running).holder(proc(4242).gpu(0)) << true << QList<qint64>{};
}

void TestPolicy::openOnlyHoldersLeaveTheWorkload()
{
    QFETCH(World, world);
    QFETCH(bool, stops);
    QFETCH(QList<qint64>, openOnlyPids);
    const Decision decision = world.decide();
    QCOMPARE(decision.stopFor(QStringLiteral("a")) != nullptr, stops);
    const GpuStatus *status = decision.gpu(0);
    QVERIFY(status);
    QCOMPARE(status->state == GpuState::Busy, stops);
    QList<qint64> pids;
    for (const Holder &holder : status->openOnlyHolders)
        pids.append(holder.pid);
    QCOMPARE(pids, openOnlyPids);

    // The same job on GPU 1, whose rule is the default, stops b at once.
    World onGpu1 = world;
    for (Holder &holder : onGpu1.snapshot.holders)
        if (holder.pid == 4242)
            holder.gpus = {1};
    QVERIFY(onGpu1.decide().stopFor(QStringLiteral("b")));
}

void TestPolicy::isForeign_data()
{
    QTest::addColumn<Holder>("holder");
    QTest::addColumn<int>("gpu");
    QTest::addColumn<bool>("foreign");

    QTest::newRow("a plain process") << Holder(proc(4242).gpu(0)) << 0 << true;
    QTest::newRow("idlegpu") << Holder(proc(selfPid, "idlegpu").gpu(0)) << 0 << false;
    // idlegpu's own children that are no workload (the demo's simulated job, a settings "Test run") use the
    // GPU like anyone else.
    QTest::newRow("a child of idlegpu") << Holder(proc(101, "sh").ancestors({selfPid}).gpu(0)) << 0 << true;
    QTest::newRow("the workload's session leader") << Holder(proc(500, "miner").gpu(0)) << 0 << false;
    QTest::newRow("in the workload's session") << Holder(proc(501, "worker").sid(500).gpu(0)) << 0 << false;
    QTest::newRow("a grandchild in its own session")
        << Holder(proc(503, "worker").ancestors({502, 500}).gpu(0)) << 0 << false;
    QTest::newRow("in the session of a stopping workload") << Holder(proc(801, "w").sid(800).gpu(0)) << 0 << false;
    QTest::newRow("in the session of a stopped workload (pid reused)")
        << Holder(proc(701, "w").sid(700).gpu(0)) << 0 << true;
    QTest::newRow("session 0 while a runtime has pid 0") << Holder(proc(2, "kthread").sid(0).gpu(0)) << 0 << true;
    QTest::newRow("ignored by comm") << Holder(proc(50, "Xorg").exe("/usr/lib/xorg/Xorg.bin").argv0("X").gpu(0))
                                     << 0 << false;
    QTest::newRow("ignored by exe basename")
        << Holder(proc(51, "Xorg.wrap").exe("/usr/lib/xorg/Xorg").argv0("/usr/bin/X").gpu(0)) << 0 << false;
    QTest::newRow("ignored by exe basename of a deleted binary")
        << Holder(proc(52, "X.old").exe("/usr/lib/xorg/Xorg (deleted)").argv0("X").gpu(0)) << 0 << false;
    QTest::newRow("ignored by argv0 basename")
        << Holder(proc(53, "X:0").exe("/usr/bin/X").argv0("/usr/lib/xorg/Xorg").gpu(0)) << 0 << false;
    QTest::newRow("a name that an ignored name is a prefix of")
        << Holder(proc(54, "nvidia-smi").gpu(0)) << 0 << true;
    QTest::newRow("a name that is a prefix of an ignored name") << Holder(proc(55, "Xor").gpu(0)) << 0 << true;
    QTest::newRow("a different case") << Holder(proc(56, "xorg").gpu(0)) << 0 << true;
    QTest::newRow("comm truncated to 15 characters")
        << Holder(proc(57, "tensorboard-lon").exe("/usr/bin/python3").argv0("python3").gpu(0)) << 0 << false;
    QTest::newRow("comm of 14 characters is no truncation")
        << Holder(proc(58, "tensorboard-lo").exe("/usr/bin/python3").argv0("python3").gpu(0)) << 0 << true;
    QTest::newRow("ignored on GPU 1 only, held on GPU 1") << Holder(proc(60, "blender").gpu(1)) << 1 << false;
    QTest::newRow("ignored on GPU 1 only, held on GPU 0") << Holder(proc(60, "blender").gpu(0)) << 0 << true;
    QTest::newRow("a service's program on its workload's GPU") << Holder(proc(70, "boinc").gpu(1)) << 1 << false;
    QTest::newRow("a service's other program on its workload's GPU")
        << Holder(proc(71, "boinc-client").gpu(1)) << 1 << false;
    QTest::newRow("a service's program on another GPU") << Holder(proc(70, "boinc").gpu(0)) << 0 << true;
    QTest::newRow("a service's program by exe basename")
        << Holder(proc(72, "einstein_O3").exe("/usr/bin/boinc-client").gpu(1)) << 1 << false;
    QTest::newRow("a prefix of a service's program") << Holder(proc(73, "boin").gpu(1)) << 1 << true;
    QTest::newRow("a service's program, its workload disabled") << Holder(proc(74, "FAHClient").gpu(0)) << 0 << true;
    QTest::newRow("hidden, nothing known") << Holder(unseen().gpu(0)) << 0 << true;
    QTest::newRow("hidden, known to be the workload") << Holder(unseen().sid(500).gpu(0)) << 0 << true;
    QTest::newRow("hidden, pid named by a backend as the workload's")
        << Holder(proc(500, "miner").hidden().gpu(0)) << 0 << false;
    QTest::newRow("hidden, pid named by a backend as a stranger's")
        << Holder(proc(9000, "python3").hidden().gpu(0)) << 0 << true;
}

void TestPolicy::isForeign()
{
    QFETCH(Holder, holder);
    QFETCH(int, gpu);
    QFETCH(bool, foreign);

    World world = World().gpus({0, 1});
    world.ignore("ALL", {"Xorg", "nvidia", "tensorboard-long-name"}).ignore("1", {"blender"});
    world.service("process-boinc", "1", {"boinc", "boinc-client"});
    world.service("process-fah", "ALL", {"FAHClient"}, false);
    world.runtimes.insert("run", {});
    world.runtimes["run"].state = WorkloadRuntime::Running;
    world.runtimes["run"].pid = 500;
    world.runtimes.insert("halting", {});
    world.runtimes["halting"].state = WorkloadRuntime::Stopping;
    world.runtimes["halting"].pid = 800;
    world.runtimes.insert("old", {});
    world.runtimes["old"].state = WorkloadRuntime::Stopped;
    world.runtimes["old"].pid = 700;
    world.runtimes.insert("odd", {});
    world.runtimes["odd"].state = WorkloadRuntime::Running; // a runtime without a pid must match nobody

    QCOMPARE(Policy::isForeign(holder, gpu, world.config, world.runtimes, selfPid), foreign);
}

// What --status and the status window say of a listed holder: judgeHolder's words for a foreign one; for an ignored
// one, the exemption the decision recorded: which ignore_programs entry names it, or that it is idlegpu's or a
// workload's own.
void TestPolicy::explainHolder_data()
{
    QTest::addColumn<Holder>("holder");
    QTest::addColumn<bool>("foreign");
    QTest::addColumn<int>("kind");
    QTest::addColumn<QString>("why");

    const BusyRule autoRule;
    const Holder cuda = proc(1).gpu(0);
    const Holder browser = proc(2, "firefox").gpu(0).graphics();
    QTest::newRow("foreign compute client") << cuda << true << int(Policy::ClientKind::Compute)
                                            << Policy::judgeHolder(cuda, 0, autoRule).why;
    QTest::newRow("foreign graphics client") << browser << true << int(Policy::ClientKind::Graphics)
                                             << Policy::judgeHolder(browser, 0, autoRule).why;
    QTest::newRow("ignored by name") << Holder(proc(3, "nvidia-smi").gpu(0)) << false
                                     << int(Policy::ClientKind::Compute)
                                     << QStringLiteral("ignore_programs names it (nvidia-smi)");
    QTest::newRow("named by service_programs") << Holder(proc(5, "boinc").gpu(0).graphics()) << false
                                               << int(Policy::ClientKind::Graphics)
                                               << QStringLiteral("the service_programs of [process-boinc] name it (boinc)");
    QTest::newRow("the workload's own") << Holder(proc(firstWorkloadPid, "miner").gpu(0).graphics()) << false
                                        << int(Policy::ClientKind::Graphics)
                                        << QStringLiteral("idlegpu itself or a process of a workload it runs");
    // The decision's order: a workload's process is its own before ignore_programs names it.
    QTest::newRow("the workload's own, named by ignore_programs too")
        << Holder(proc(firstWorkloadPid, "nvidia-smi").gpu(0)) << false << int(Policy::ClientKind::Compute)
        << QStringLiteral("idlegpu itself or a process of a workload it runs");
}

void TestPolicy::explainHolder()
{
    QFETCH(Holder, holder);
    QFETCH(bool, foreign);
    QFETCH(int, kind);
    QFETCH(QString, why);
    World world = World().gpus({0}).ignore("ALL", {"nvidia-smi"}).service("process-boinc", "ALL", {"boinc"});
    world.workload("miner", "0").running("miner", {0}); // pid firstWorkloadPid
    const std::optional<IgnoredHolder> ignored =
        Policy::exemptionOf(holder, 0, world.config, world.runtimes, selfPid);
    QCOMPARE(!ignored, foreign);
    const Policy::HolderVerdict verdict =
        foreign ? Policy::explainHolder(holder, 0, world.config) : Policy::explainHolder(*ignored, 0);
    QCOMPARE(int(verdict.kind), kind);
    QCOMPARE(verdict.why, why);
    if (!foreign)
        QVERIFY(!verdict.makesBusy);
    QVERIFY(!verdict.why.isEmpty());
}

// Of the exemptions that name a holder, the decision records the first in Exemption's order, and --status gives that
// one (checkExplanations(), on every decision).
void TestPolicy::exemptionOrder_data()
{
    QTest::addColumn<Holder>("holder");
    QTest::addColumn<int>("exemption");

    QTest::newRow("idlegpu itself, named by ignore_programs") << Holder(proc(selfPid, "nvidia-smi").gpu(0))
                                                              << int(Exemption::Self);
    QTest::newRow("a workload's process, named by ignore_programs and service_programs")
        << Holder(proc(firstWorkloadPid, "boinc").gpu(0)) << int(Exemption::Workload);
    QTest::newRow("a Slurm job's process, named by ignore_programs")
        << Holder(proc(900, "nvidia-smi").slurmJob(42).gpu(0)) << int(Exemption::SlurmJob);
    QTest::newRow("named by ignore_programs and service_programs") << Holder(proc(901, "boinc").gpu(0))
                                                                   << int(Exemption::IgnoredProgram);
    QTest::newRow("named by service_programs") << Holder(proc(902, "boinc-client").gpu(0))
                                               << int(Exemption::ServiceProgram);
}

void TestPolicy::exemptionOrder()
{
    QFETCH(Holder, holder);
    QFETCH(int, exemption);
    World world = World().gpus({0}).ignore("ALL", {"nvidia-smi", "boinc"});
    world.service("process-boinc", "ALL", {"boinc", "boinc-client"}).workload("miner", "0").running("miner", {0});
    world.config.slurm.enabled = true;
    world.holder(holder);

    const Decision decision = world.decide();
    QVERIFY(decision.gpu(0));
    const QList<IgnoredHolder> &ignored = decision.gpu(0)->ignoredHolders;
    QCOMPARE(ignored.size(), 1);
    QCOMPARE(int(ignored.first().exemption), exemption);
    QCOMPARE(Policy::exemptionOf(holder, 0, world.config, world.runtimes, selfPid), ignored.first());
}

// Where more than one rule holds a workload back, the decision follows the first in HoldReason's order, whether it
// stops the workload or keeps it from starting, and names that one (checkExplanations(), on every decision).
void TestPolicy::followedRule_data()
{
    QTest::addColumn<World>("world");
    QTest::addColumn<QString>("workload");
    QTest::addColumn<int>("rule");
    const World settled = World().gpus({0, 1}).freeSince(0, T0 - sec(60)).freeSince(1, T0 - sec(60));
    const World running = World(settled).workload("a", "0").running("a", {0});
    const World stopped = World(settled).workload("a", "0");

    QTest::newRow("running: removed before paused") << World(settled).running("a", {0}).pausedAll() << "a"
                                                    << int(HoldReason::Removed);
    QTest::newRow("running: paused on its own before the battery") << World(running).paused("a").onBattery(true)
                                                                   << "a" << int(HoldReason::Paused);
    QTest::newRow("running: a terminal user before a foreign holder")
        << World(running).ttyCheck().tty("alice", 0).holder(proc(4242).gpu(0)) << "a"
        << int(HoldReason::TerminalUser);
    QTest::newRow("running: a foreign holder before the heat")
        << World(running).holder(proc(4242).gpu(0)).temperature(0, 90) << "a" << int(HoldReason::ForeignHolder);
    QTest::newRow("stopped: disabled on a hot GPU") << World(settled).workload("a", "0", false).temperature(0, 90)
                                                    << "a" << int(HoldReason::Disabled);
    QTest::newRow("stopped: failing before a foreign holder")
        << World(stopped).backingOff("a", T0 + sec(30)).holder(proc(4242).gpu(0)) << "a"
        << int(HoldReason::BackingOff);
    QTest::newRow("stopped: a missing GPU before a foreign holder")
        << World(settled).workload("a", "0,3").holder(proc(4242).gpu(0)) << "a" << int(HoldReason::GpuMissing);
    QTest::newRow("stopped: too hot before taken")
        << World(settled).workload("b", "0").running("b", {0}).workload("a", "0").temperature(0, 90) << "a"
        << int(HoldReason::TooHot);
    QTest::newRow("stopped: taken before settling")
        << World(settled).workload("b", "1").running("b", {1}).workload("a", "0,1").freeSince(0, T0) << "a"
        << int(HoldReason::GpuTaken);
}

void TestPolicy::followedRule()
{
    QFETCH(World, world);
    QFETCH(QString, workload);
    QFETCH(int, rule);
    const Decision decision = world.decide();
    QCOMPARE(Policy::holdReasonName(decision.workloadReasons.value(workload).hold),
             Policy::holdReasonName(HoldReason(rule)));
    if (const StopOrder *order = decision.stopFor(workload))
        QCOMPARE(int(order->cause), rule);
}

void TestPolicy::workloadReason_data()
{
    QTest::addColumn<World>("world");
    QTest::addColumn<QString>("workload");
    QTest::addColumn<QString>("reason");

    // GPUs settled long ago unless a row says otherwise.
    const World settled = World().gpus({0, 1}).freeSince(0, T0 - sec(60)).freeSince(1, T0 - sec(60));

    QTest::newRow("running") << World(settled).workload("a", "0").running("a", {0}) << "a" << "";
    QTest::newRow("being started") << World(settled).workload("a", "0") << "a" << "";
    QTest::newRow("paused, one workload")
        << World(settled).workload("a", "0").paused("a") << "a"
        << "paused";
    QTest::newRow("paused, all")
        << World(settled).workload("a", "0").pausedAll() << "a" << "paused";
    QTest::newRow("disabled") << World(settled).workload("a", "0", false) << "a" << "disabled";
    QTest::newRow("user active") << World(settled).workload("a", "0").ttyCheck().tty("alice", 0) << "a"
                                 << "user alice is active on a terminal";
    QTest::newRow("users active")
        << World(settled).workload("a", "0").ttyCheck().tty("carol", 0).tty("alice", 0).tty("carol", 5) << "a"
        << "users alice, carol are active on a terminal";
    QTest::newRow("GPU in use") << World().gpus({0}).workload("a").holder(proc(4242).gpu(0)) << "a"
                                << "GPU 0 is in use by python3 (alice, pid 4242)";
    QTest::newRow("GPU in use by someone unseen") << World().gpus({0}).workload("a").holder(unseen().gpu(0)) << "a"
                                                  << "GPU 0 is in use by a process of another user (not visible "
                                                     "without root)";
    QTest::newRow("running, but a foreign process opened its GPU")
        << World(settled).workload("a", "0").running("a", {0}).holder(proc(4242).gpu(0)) << "a"
        << "GPU 0 is in use by python3 (alice, pid 4242)";
    QTest::newRow("waiting for the slowest GPU") << World(settled).workload("a").freeSince(1, T0 - sec(3)) << "a"
                                                 << "waiting 7 s more for GPU 1 to stay free";
    QTest::newRow("seconds rounded up") << World(settled).workload("a", "1").freeSince(1, T0 - sec(2.5)) << "a"
                                        << "waiting 8 s more for GPU 1 to stay free";
    QTest::newRow("first decision") << World().gpus({0}).workload("a") << "a"
                                    << "waiting 10 s more for GPU 0 to stay free";
    QTest::newRow("GPU does not exist") << World(settled).workload("a", "0,3") << "a" << "GPU 3 does not exist";
    QTest::newRow("no GPU at all") << World().workload("a") << "a" << "no GPU is present";
    QTest::newRow("GPU used by another workload")
        << World(settled).workload("process-a", "0,1").workload("process-miner-b", "1").running("process-miner-b", {1})
        << "process-a" << "GPU 1 is used by workload 'miner-b'";
    QTest::newRow("GPU taken by ALL in this decision")
        << World(settled).workload("b", "1").workload("all") << "b" << "GPU 1 is used by workload 'all'";
    QTest::newRow("failing") << World(settled).workload("a", "0").backingOff("a", T0 + sec(40)) << "a"
                             << "failed (exit code 3); retrying in 40 s";
    QTest::newRow("failing, exit not known") << World(settled).workload("a", "0").backingOff("a", T0 + sec(39.5), "")
                                             << "a" << "failed; retrying in 40 s";
    QTest::newRow("stopping") << World(settled).workload("a", "0").running("a", {0}, WorkloadRuntime::Stopping)
                              << "a" << "stopping";
    QTest::newRow("removed while running") << World(settled).running("gone", {0}) << "gone"
                                           << "removed from the configuration";
    QTest::newRow("running on a GPU that vanished") << World(settled).workload("a", "0,2").running("a", {0, 2})
                                                    << "a" << "GPU 2 does not exist";
}

void TestPolicy::workloadReason()
{
    QFETCH(World, world);
    QFETCH(QString, workload);
    QFETCH(QString, reason);

    const Decision decision = world.decide();
    QVERIFY2(decision.workloadReasons.contains(workload), "every workload gets an entry");
    QCOMPARE(decision.workloadReasons.value(workload).text, reason);
}

void TestPolicy::gpuStatus_data()
{
    QTest::addColumn<World>("world");
    QTest::addColumn<int>("gpu");
    QTest::addColumn<QString>("state");
    QTest::addColumn<QString>("workload");
    QTest::addColumn<QString>("reason");
    QTest::addColumn<qint64>("freeSinceMs");
    QTest::addColumn<QList<qint64>>("foreignPids");
    QTest::addColumn<QList<qint64>>("ignoredPids");

    const qint64 longAgo = T0 - sec(60);
    const World settled = World().gpus({0, 1}).freeSince(0, longAgo).freeSince(1, longAgo);

    QTest::newRow("busy; its ignored holders listed apart")
        << World(settled).ignore("ALL", {"Xorg"}).holder(proc(50, "Xorg").gpu(0)).holder(proc(4242).gpu(0)) << 0
        << "busy" << "" << "in use by python3 (alice, pid 4242)" << qint64(0) << QList<qint64>{4242}
        << QList<qint64>{50};
    QTest::newRow("busy while its workload stops")
        << World(settled).workload("a", "0").running("a", {0}).holder(proc(4242).gpu(0)) << 0 << "busy" << "a"
        << "in use by python3 (alice, pid 4242)" << qint64(0) << QList<qint64>{4242} << QList<qint64>{};
    QTest::newRow("running; the workload's process listed as ignored")
        << World(settled).workload("a", "0").running("a", {0}).holder(proc(firstWorkloadPid, "miner").gpu(0)) << 0
        << "running" << "a" << "" << longAgo << QList<qint64>{} << QList<qint64>{firstWorkloadPid};
    QTest::newRow("running the workload started now") << World(settled).workload("all") << 1 << "running" << "all"
                                                      << "" << longAgo << QList<qint64>{} << QList<qint64>{};
    QTest::newRow("waiting") << World(settled).workload("a", "1").freeSince(1, T0 - sec(3)) << 1 << "waiting" << ""
                             << "waiting 7 s more for it to stay free" << T0 - sec(3) << QList<qint64>{}
                             << QList<qint64>{};
    QTest::newRow("first seen: waiting, free since now") << World().gpus({0}).workload("a") << 0 << "waiting" << ""
                                                         << "waiting 10 s more for it to stay free" << T0
                                                         << QList<qint64>{} << QList<qint64>{};
    QTest::newRow("idle, no workload for it") << World(settled).workload("a", "0") << 1 << "idle" << ""
                                              << "no workload for this GPU" << longAgo << QList<qint64>{}
                                              << QList<qint64>{};
    QTest::newRow("idle while all paused")
        << World(settled).workload("a").pausedAll() << 0 << "idle" << ""
        << "paused" << longAgo << QList<qint64>{} << QList<qint64>{};
    QTest::newRow("idle, not waiting, while a user is active")
        << World().gpus({0}).workload("a").ttyCheck().tty("alice", 0) << 0 << "idle" << ""
        << "user alice is active on a terminal" << T0 << QList<qint64>{} << QList<qint64>{};
    QTest::newRow("idle, its workload disabled") << World(settled).workload("a", "1", false) << 1 << "idle" << ""
                                                 << "a: disabled" << longAgo << QList<qint64>{} << QList<qint64>{};
    QTest::newRow("idle, ALL blocked by another GPU's holder")
        << World(settled).workload("all").holder(proc(4242).gpu(1)) << 0 << "idle" << ""
        << "all: GPU 1 is in use by python3 (alice, pid 4242)" << longAgo << QList<qint64>{} << QList<qint64>{};
    QTest::newRow("shared-node holder is nobody's") << World(settled).holder(proc(4242).shared()) << 0 << "idle"
                                                    << "" << "no workload for this GPU" << longAgo << QList<qint64>{}
                                                    << QList<qint64>{};
}

void TestPolicy::gpuStatus()
{
    QFETCH(World, world);
    QFETCH(int, gpu);
    QFETCH(QString, state);
    QFETCH(QString, workload);
    QFETCH(QString, reason);
    QFETCH(qint64, freeSinceMs);
    QFETCH(QList<qint64>, foreignPids);
    QFETCH(QList<qint64>, ignoredPids);

    const Decision decision = world.decide();
    QList<int> listed;
    for (const GpuStatus &status : decision.gpus)
        listed.append(status.index);
    QCOMPARE(listed, world.snapshot.devices.indices());

    const GpuStatus *status = decision.gpu(gpu);
    QVERIFY(status);
    QCOMPARE(Policy::gpuStateName(status->state), state);
    QCOMPARE(status->workloadId, workload);
    QCOMPARE(status->reason, reason);
    QCOMPARE(status->freeSinceMs, freeSinceMs);
    QList<qint64> pids;
    for (const Holder &holder : status->foreignHolders)
        pids.append(holder.pid);
    QCOMPARE(pids, foreignPids);
    pids.clear();
    for (const IgnoredHolder &ignored : status->ignoredHolders)
        pids.append(ignored.holder.pid);
    QCOMPARE(pids, ignoredPids);
}

void TestPolicy::nextWake_data()
{
    QTest::addColumn<World>("world");
    QTest::addColumn<qint64>("nextWakeMs"); // 0: none

    const World settled = World().gpus({0, 1}).freeSince(0, T0 - sec(60)).freeSince(1, T0 - sec(60));

    QTest::newRow("a workload waits for a fresh GPU") << World().gpus({0}).workload("a") << T0 + sec(10);
    QTest::newRow("the earliest of two settling GPUs")
        << World().gpus({0, 1}).workload("a", "0").workload("b", "1")
               .freeSince(0, T0 - sec(4)).freeSince(1, T0 - sec(8))
        << T0 + sec(2);
    QTest::newRow("nothing to wait for once running") << World(settled).workload("a").running("a", {0, 1})
                                                      << qint64(0);
    QTest::newRow("started now") << World(settled).workload("a") << qint64(0);
    QTest::newRow("no workload waits for a settling GPU") << World().gpus({0}) << qint64(0);
    QTest::newRow("a disabled workload waits for nothing") << World().gpus({0}).workload("a", "0", false)
                                                           << qint64(0);
    QTest::newRow("a busy GPU changes only with a new scan")
        << World().gpus({0}).workload("a").holder(proc(4242).gpu(0)) << qint64(0);
    QTest::newRow("a GPU used by another workload changes only with the runner")
        << World(settled).workload("all").workload("a", "0").running("a", {0}).freeSince(1, T0 - sec(1)) << qint64(0);
    QTest::newRow("a retry") << World(settled).workload("a").backingOff("a", T0 + sec(40)) << T0 + sec(40);
    QTest::newRow("a retry before the GPU settles")
        << World().gpus({0}).workload("a").backingOff("a", T0 + sec(4)) << T0 + sec(4);
    QTest::newRow("a pause that ends")
        << World(settled).workload("a").pausedAll(T0 + sec(60))
        << T0 + sec(60);
    QTest::newRow("a pause without end")
        << World(settled).workload("a").pausedAll() << qint64(0);
    QTest::newRow("an active terminal user turning idle")
        << World(settled).workload("a").ttyCheck().tty("alice", sec(100)) << T0 + sec(200);
    QTest::newRow("a whitelisted terminal user")
        << World(settled).workload("a").running("a", {0, 1}).ttyCheck().tty("bob", 0) << qint64(0);
}

void TestPolicy::nextWake()
{
    QFETCH(World, world);
    QFETCH(qint64, nextWakeMs);

    QCOMPARE(world.decide().nextWakeMs, nextWakeMs);
}

void TestPolicy::freeSinceMemory()
{
    World world = World().gpus({0, 1}).holder(proc(4242).gpu(1));

    Decision decision = world.decide();
    QCOMPARE(decision.memory.freeSinceMs, (QHash<int, qint64>{{0, T0}})); // a busy GPU has no entry

    world.now = T0 + sec(5);
    world.snapshot.holders.clear();
    decision = world.decide();
    QCOMPARE(decision.memory.freeSinceMs, (QHash<int, qint64>{{0, T0}, {1, T0 + sec(5)}}));

    world.now = T0 + sec(6);
    world.snapshot.holders.append(proc(4243).gpu(0));
    decision = world.decide();
    QCOMPARE(decision.memory.freeSinceMs, (QHash<int, qint64>{{1, T0 + sec(5)}}));

    world.now = T0 + sec(7);
    world.snapshot.holders.clear();
    world.removeGpu(1);
    decision = world.decide();
    QCOMPARE(decision.memory.freeSinceMs, (QHash<int, qint64>{{0, T0 + sec(7)}})); // a vanished GPU is forgotten
}

void TestPolicy::stopOrderNamesTheCulprit()
{
    World world = World().gpus({0, 1}).workload("a").running("a", {0, 1});
    world.holder(proc(4242).gpu(1)).holder(proc(4243, "nvidia-smi").gpu(1));

    const Decision decision = world.decide();
    const StopOrder *order = decision.stopFor("a");
    QVERIFY(order);
    QCOMPARE(order->cause, HoldReason::ForeignHolder);
    QCOMPARE(order->gpu, 1);
    QCOMPARE(order->culprit.pid, qint64(4242));
    QCOMPARE(order->reason, QStringLiteral("python3 (alice, pid 4242) opened GPU 1"));
}

void TestPolicy::activeUsersAreUniqueAndSorted()
{
    World world = World().gpus({0}).ttyCheck();
    world.tty("zoe", 0).tty("alice", sec(10)).tty("zoe", sec(1)).tty("bob", 0).tty("carl", sec(400));
    QCOMPARE(world.decide().activeUsers, (QStringList{"alice", "zoe"}));

    world.ttyCheck(false);
    QVERIFY(world.decide().activeUsers.isEmpty());
}

void TestPolicy::sameInputSameDecision()
{
    World world = World().gpus({0, 1, 2}).workload("all").workload("a", "0").workload("b", "1,2").workload("c", "2");
    world.freeSince(0, T0 - sec(60)).freeSince(1, T0 - sec(60)).freeSince(2, T0 - sec(3));
    world.holder(proc(4242).gpu(2));
    for (const char *id : {"x", "y", "z"})
        world.running(id, {}); // removed from the config: their stop order must not depend on hash order

    const Decision first = Policy::decide(world.input());
    const Decision second = Policy::decide(world.input());
    QCOMPARE(ordersOf(first), QStringLiteral("stop x(removed); stop y(removed); stop z(removed); start a[0]"));
    QCOMPARE(ordersOf(second), ordersOf(first));
    QCOMPARE(second.workloadReasons, first.workloadReasons);
    QCOMPARE(second.memory.freeSinceMs, first.memory.freeSinceMs);
    QCOMPARE(second.nextWakeMs, first.nextWakeMs);
}

void TestPolicy::oddInputs()
{
    // A start delay of 0 (or a negative one) starts at the first decision.
    World world = World().gpus({0}).workload("a");
    world.config.startDelaySeconds = -5;
    QCOMPARE(ordersOf(world.decide()), QStringLiteral("start a[0]"));

    // A holder of a GPU that is not present, a remembered time in the future, a runtime on a GPU list that
    // names no present GPU: no crash, no order about them, the future time clamped to now.
    world = World().gpus({0}).workload("a", "0").holder(proc(4242).gpu(7)).freeSince(0, T0 + sec(3600));
    world.running("ghost", {9});
    const Decision decision = world.decide();
    QCOMPARE(ordersOf(decision), QStringLiteral("stop ghost(removed)"));
    QCOMPARE(decision.gpus.size(), 1);
    QCOMPARE(decision.gpu(0)->state, GpuState::Waiting);
    QCOMPARE(decision.memory.freeSinceMs.value(0), T0);
}

// Presence, schedule and battery hold every workload back: a running one stops with the cause, a stopped one does
// not start, and the decision names the reason for the tray (the first that holds, in HoldReason's order).
void TestPolicy::holdsEveryWorkload_data()
{
    QTest::addColumn<World>("world");
    QTest::addColumn<QString>("orders");
    QTest::addColumn<int>("hold");
    QTest::addColumn<QString>("holdText");
    const qint64 longAgo = T0 - sec(600);
    const World running = World().gpus({0}).freeSince(0, longAgo).workload("a", "0").running("a", {0});
    const World stopped = World().gpus({0}).freeSince(0, longAgo).workload("a", "0");
    using S = UserPresence::State;
    QTest::newRow("nothing set: runs on") << World(running) << "none" << int(HoldReason::None) << QString();
    QTest::newRow("stopped, nothing set: starts") << World(stopped) << "start a[0]" << int(HoldReason::None) << QString();
    QTest::newRow("owner active") << World(running).presence(S::Active) << "stop a(owner present)"
                                  << int(HoldReason::OwnerPresent) << "you are at the computer";
    QTest::newRow("presence unknown counts as active")
        << World(running).presence(S::Unknown) << "stop a(owner present)" << int(HoldReason::OwnerPresent)
        << "you are at the computer (no source tells whether you are away)";
    QTest::newRow("idle, not long enough") << World(running).presence(S::Idle, T0 - sec(299))
                                           << "stop a(owner present)" << int(HoldReason::OwnerPresent)
                                           << "you are at the computer (idle for 299 s of 300)";
    QTest::newRow("idle long enough") << World(running).presence(S::Idle, T0 - sec(300)) << "none"
                                      << int(HoldReason::None) << QString();
    QTest::newRow("stopped, idle long enough: starts") << World(stopped).presence(S::Idle, T0 - sec(300))
                                                       << "start a[0]" << int(HoldReason::None) << QString();
    QTest::newRow("locked is away") << World(running).presence(S::Locked) << "none" << int(HoldReason::None)
                                    << QString();
    QTest::newRow("nobody logged in is away") << World(running).presence(S::NoLocalSession) << "none"
                                              << int(HoldReason::None) << QString();
    World presenceOff = World(running).presence(S::Active);
    presenceOff.config.activity.pauseWhileActive = false;
    QTest::newRow("presence off: the GPU decides") << presenceOff << "none" << int(HoldReason::None) << QString();
    QTest::newRow("on battery") << World(running).onBattery(true) << "stop a(on battery)"
                                << int(HoldReason::OnBattery) << "the computer runs on battery";
    QTest::newRow("on battery, run") << World(running).onBattery(true, OnBattery::Run) << "none"
                                     << int(HoldReason::None) << QString();
    QTest::newRow("on AC") << World(running).onBattery(false) << "none" << int(HoldReason::None) << QString();
    QTest::newRow("stopped on battery: no start") << World(stopped).onBattery(true) << "none"
                                                  << int(HoldReason::OnBattery) << "the computer runs on battery";
    // The worlds' clock says Monday 12:00.
    QTest::newRow("inside the schedule") << World(running).schedule("Mon 08:00-18:00") << "none"
                                         << int(HoldReason::None) << QString();
    QTest::newRow("outside the schedule") << World(running).schedule("Mon-Fri 18:00-08:00, Sat, Sun")
                                          << "stop a(outside the schedule)" << int(HoldReason::OutsideSchedule)
                                          << "outside the schedule until Mon 18:00";
    QTest::newRow("stopped outside the schedule") << World(stopped).schedule("Sat")
                                                  << "none" << int(HoldReason::OutsideSchedule)
                                                  << "outside the schedule until Sat 00:00";
    QTest::newRow("paused by hand comes first")
        << World(running).pausedAll().schedule("Sat").onBattery(true).presence(S::Active) << "stop a(paused)"
        << int(HoldReason::Paused) << "paused";
    QTest::newRow("schedule before battery") << World(running).schedule("Sat").onBattery(true).presence(S::Active)
                                             << "stop a(outside the schedule)" << int(HoldReason::OutsideSchedule)
                                             << "outside the schedule until Sat 00:00";
    QTest::newRow("battery before presence") << World(running).onBattery(true).presence(S::Active)
                                             << "stop a(on battery)" << int(HoldReason::OnBattery)
                                             << "the computer runs on battery";
    QTest::newRow("presence before terminals")
        << World(running).presence(S::Active).ttyCheck().tty(QStringLiteral("carol"), 0) << "stop a(owner present)"
        << int(HoldReason::OwnerPresent) << "you are at the computer";
    QTest::newRow("terminal user") << World(running).ttyCheck().tty(QStringLiteral("carol"), 0)
                                   << "stop a(user active)" << int(HoldReason::TerminalUser)
                                   << "user carol is active on a terminal";
}

void TestPolicy::holdsEveryWorkload()
{
    QFETCH(World, world);
    QFETCH(QString, orders);
    QFETCH(int, hold);
    QFETCH(QString, holdText);
    const Decision decision = world.decide();
    QCOMPARE(ordersOf(decision), orders);
    QCOMPARE(int(decision.hold), hold);
    QCOMPARE(decision.holdText, holdText);
    if (decision.hold != HoldReason::None)
        QCOMPARE(decision.workloadReasons.value(QStringLiteral("a")).text, holdText);
    if (decision.hold != HoldReason::None && decision.stop.isEmpty()) {
        QCOMPARE(decision.gpu(0)->state, GpuState::Idle);
        QCOMPARE(decision.gpu(0)->reason, holdText);
    }
    QCOMPARE(decision.holdEndsAt.isValid(), decision.hold == HoldReason::OutsideSchedule);
}

// max_temperature_c: a workload stops when its GPU reaches the limit and may start again once the GPU is 5 °C
// cooler; its other GPUs and the other workloads are not concerned.
void TestPolicy::heatTimeline_data()
{
    QTest::addColumn<World>("world");
    QTest::addColumn<Timeline>("timeline");
    const qint64 longAgo = T0 - sec(600);
    const World twoGpus = World()
                              .gpus({0, 1})
                              .freeSince(0, longAgo)
                              .freeSince(1, longAgo)
                              .workload("a", "0")
                              .workload("b", "1")
                              .running("a", {0})
                              .running("b", {1})
                              .temperature(0, 70)
                              .temperature(1, 70);
    QTest::newRow("hot, cools down, runs again")
        << twoGpus
        << Timeline{at(0, "none"),
                    at(sec(1), {temperatureOf(0, 84)}, "none"),
                    at(sec(2), {temperatureOf(0, 85)}, "stop a(too hot 0)"),
                    at(sec(3), {stopped("a"), temperatureOf(0, 83)}, "none"),
                    at(sec(4), {temperatureOf(0, 81)}, "none"),
                    at(sec(5), {temperatureOf(0, 80)}, "start a[0]"),
                    at(sec(6), {temperatureOf(0, 84)}, "none")};
    QTest::newRow("no reading: not hot") << World(twoGpus).temperature(0, 90)
                                         << Timeline{at(0, "stop a(too hot 0)"),
                                                     at(sec(1), {stopped("a"), [](World &w) {
                                                                     w.snapshot.temperatures.remove(0);
                                                                 }},
                                                        "start a[0]")};
    World off = twoGpus;
    off.config.maxTemperatureC = 0;
    QTest::newRow("off") << off << Timeline{at(0, {temperatureOf(0, 120)}, "none")};
}

// A hot GPU whose workload is held for an earlier rule (disabled) says that rule, as the workload's line does; once
// a workload that wants it is held by the heat, it says the heat.
void TestPolicy::hotGpuLineNamesTheRuleFollowed()
{
    World world = World().gpus({0}).freeSince(0, T0 - sec(600)).workload("a", "0", false).temperature(0, 90);
    Decision decision = world.decide();
    QCOMPARE(decision.workloadReasons.value(QStringLiteral("a")).hold, HoldReason::Disabled);
    QCOMPARE(decision.gpus.size(), 1);
    QVERIFY(decision.gpus.first().tooHot);
    QCOMPARE(decision.gpus.first().reason,
             QStringLiteral("a: ") + decision.workloadReasons.value(QStringLiteral("a")).text);
    checkExplanations(world, decision);

    world.workload("b", "0");
    decision = world.decide();
    QCOMPARE(decision.workloadReasons.value(QStringLiteral("b")).hold, HoldReason::TooHot);
    QVERIFY2(decision.gpus.first().reason.startsWith(QLatin1String("GPU 0 is ")),
             qPrintable(decision.gpus.first().reason));
    checkExplanations(world, decision);
}

void TestPolicy::heatTimeline()
{
    QFETCH(World, world);
    QFETCH(Timeline, timeline);
    for (const Step &step : timeline) {
        world.now = T0 + step.atMs;
        for (const Change &change : step.changes)
            change(world);
        const Decision decision = world.decide();
        QCOMPARE(ordersOf(decision), step.orders);
        world.apply(decision);
    }
}

// pause_while_active: the owner going idle wakes the policy when idle_seconds have passed, and the workload starts
// then; coming back stops it.
void TestPolicy::presenceTimeline()
{
    using S = UserPresence::State;
    World world = World().gpus({0}).freeSince(0, T0 - sec(600)).workload("a", "0").presence(S::Active);
    Decision decision = world.decide();
    QCOMPARE(ordersOf(decision), QStringLiteral("none"));
    QCOMPARE(decision.nextWakeMs, 0);

    world.now = T0 + sec(10);
    presenceIs(S::Idle, T0 + sec(5))(world);
    decision = world.decide();
    QCOMPARE(ordersOf(decision), QStringLiteral("none"));
    QCOMPARE(decision.nextWakeMs, T0 + sec(305));

    world.now = decision.nextWakeMs;
    decision = world.decide();
    QCOMPARE(ordersOf(decision), QStringLiteral("start a[0]"));
    world.apply(decision);

    world.now += sec(60);
    presenceIs(S::Active)(world);
    decision = world.decide();
    QCOMPARE(ordersOf(decision), QStringLiteral("stop a(owner present)"));
    QCOMPARE(decision.stopFor(QStringLiteral("a"))->reason, QStringLiteral("you are at the computer"));

    // The schedule's end wakes the policy too.
    World scheduled = World().gpus({0}).freeSince(0, T0 - sec(600)).workload("a", "0").schedule("Mon 08:00-13:00");
    decision = scheduled.decide();
    QCOMPARE(ordersOf(decision), QStringLiteral("start a[0]"));
    QCOMPARE(decision.nextWakeMs, T0 + sec(3600));
}

QTEST_GUILESS_MAIN(TestPolicy)
#include "tst_policy.moc"
