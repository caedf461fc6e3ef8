// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "monitor.h"

// What makes the monitor scan and decide:
//
//   inotify open/close on a node ─┐ (an open while a workload runs: rescan at once; else coalesced)
//   device_root changes ──────────┤
//   QTimer, interval_seconds ─────┼─► rescan ─► Policy::decide ─► runner stop/start ─► stateChanged()
//   config file changes / SIGHUP ─┤
//   a condition changes ──────────┘ (power supplies, logind, the desktop: conditions/; polled where none tells)
//
// Each part keeps its own clocks: ConfigReloader reads the file again after an edit, DeviceFolderWatcher sees GPUs
// appear and go, GpuSampler asks the GPU backends, LedgerKeeper counts and saves the ledger, SlurmGuard::GuardKeeper
// writes Slurm's heartbeat and MetricsTextFile the [metrics] textfile.

#include "base/logging.h"
#include "conditions/presencecondition.h"
#include "config/configreloader.h"
#include "devices/devicefolderwatcher.h"
#include "holders/procstatfile.h"
#include "ledger/ledgerkeeper.h"
#include "ledger/ledgerstore.h"
#include "metrics/metricstext.h"
#include "metrics/metricstextfile.h"
#include "pausestore.h"
#include "slurm/guardkeeper.h"
#include "slurm/slurmlender.h"

#include <QFile>
#include <QTimer>

#include <algorithm>
#include <utility>

#include <unistd.h>

namespace {
// Events that cannot preempt (a close, an open while nothing runs) are answered within this time, so that an
// open/close storm costs a scan per interval instead of one per event.
constexpr int kCoalesceMs = 100;
// A hidden holder the GPU backend does not confirm is dropped once its node has been quiet this long.
constexpr qint64 kHiddenCheckedByBackendAfterMs = 30'000;
// An open that no visible process explains yet is checked again this soon: its fd shows in /proc microseconds
// after the event (bench_preemption without bystanders: 5 ms gave p90 6.7 ms, 1 ms gives p90 2.0 ms).
constexpr int kRecheckMs = 1;
// An open read this long ago is no longer what a preemption answers (the poll found the job, or a backend).
constexpr qint64 kOpenAnsweredAfterNs = 10'000'000'000LL;

// ", stopped 2.8 ms after the open" for the preemption's log line; empty when no open was behind it.
QString describeOpenToStop(const std::optional<double> &openToStopMs)
{
    if (!openToStopMs)
        return QString();
    return QStringLiteral(", stopped %1 ms after the open").arg(*openToStopMs, 0, 'f', 1);
}

// What the policy is asked of a snapshot, at a running monitor's scan and at a one-shot look alike.
PolicyInput policyInputOf(const Snapshot &snapshot, const Config &config,
                          const QHash<QString, WorkloadRuntime> &runtimes, qint64 selfPid)
{
    PolicyInput input;
    input.snapshot = snapshot;
    input.config = config;
    input.runtimes = runtimes;
    input.nowMs = snapshot.takenAtMs;
    input.selfPid = selfPid;
    return input;
}

// What the idle GPUs did, as the ledger file says, read without its lock (the running monitor writes it); empty when
// there is none or it cannot be used.
LedgerSummary readLedgerSummary(const QString &path)
{
    WorkLedger ledger;
    QString error;
    switch (LedgerStore::read(path, &ledger, &error)) {
    case LedgerStore::ReadResult::Unusable:
        qCWarning(lcLedger, "%s holds no ledger (%s); the running idlegpu sets it aside", qPrintable(path),
                  qPrintable(error));
        break;
    case LedgerStore::ReadResult::Unreadable:
        qCWarning(lcLedger, "cannot read %s: %s", qPrintable(path), qPrintable(error));
        break;
    case LedgerStore::ReadResult::Loaded:
    case LedgerStore::ReadResult::Missing:
        break;
    }
    return ledger.summary();
}

// When a process started, in clock ticks after boot (/proc/<pid>/stat); 0 when unknown.
unsigned long long processStartTicks(const QString &procRoot, qint64 pid)
{
    ProcStat stat;
    return readProcStat(QFile::encodeName(procRoot).constData(), long(pid), &stat) ? stat.startTime : 0;
}

} // namespace

Monitor::Monitor(const QString &configPath, WorkloadRunner *runner, const Clock *clock, const MonitorPaths &paths,
                 QObject *parent)
    : QObject(parent), m_runner(runner), m_clock(clock), m_selfPid(::getpid()), m_inferHiddenHolders(::geteuid() != 0),
      m_pausePath(paths.pausePath), m_collector(paths, clock)
{
    m_pollTimer = new QTimer(this);
    connect(m_pollTimer, &QTimer::timeout, this, &Monitor::poll);
    m_wakeTimer = new QTimer(this);
    m_wakeTimer->setSingleShot(true);
    m_wakeTimer->setTimerType(Qt::PreciseTimer);
    connect(m_wakeTimer, &QTimer::timeout, this, &Monitor::rescan);
    m_coalesceTimer = new QTimer(this);
    m_coalesceTimer->setSingleShot(true);
    connect(m_coalesceTimer, &QTimer::timeout, this, &Monitor::rescan);
    m_heartbeatTimer = new QTimer(this);
    m_heartbeatTimer->setInterval(kHeartbeatMs);
    connect(m_heartbeatTimer, &QTimer::timeout, this, &Monitor::onHeartbeat);
    m_nodeWatcher = new NodeWatcher(this);
    connect(m_nodeWatcher, &NodeWatcher::eventsArrived, this, &Monitor::onNodeEvents);

    m_configReloader = new ConfigReloader(configPath, this);
    connect(m_configReloader, &ConfigReloader::reloadDue, this, &Monitor::reloadConfig);
    m_deviceFolders = new DeviceFolderWatcher(this);
    connect(m_deviceFolders, &DeviceFolderWatcher::changed, this, &Monitor::rescan);
    m_gpuSampler = new GpuSampler(m_collector, clock, m_config, m_decision, this);
    connect(m_gpuSampler, &GpuSampler::sampleDue, this, &Monitor::sampleGpus);
    connect(m_gpuSampler, &GpuSampler::openOnlyHolderBusy, this, &Monitor::rescan);
    m_ledger = new LedgerKeeper(clock, [this] { return anyWorkloadRunning(); }, this);
    connect(m_ledger, &LedgerKeeper::moved, this, &Monitor::stateChanged);
    m_slurmGuard = new SlurmGuard::GuardKeeper(paths.slurmGuardFolder, paths.procRoot,
                                               [this] { return slurmGuardGpus(); }, this);
    m_metrics = new MetricsTextFile([this] { return renderMetrics(); }, this);
    connect(this, &Monitor::stateChanged, m_metrics, &MetricsTextFile::changed);

    m_collector.conditions().setParent(this);
    for (const auto &condition : m_collector.conditions().all())
        connect(condition.get(), &Condition::changed, this, &Monitor::onConditionChanged);

    connect(m_runner, &WorkloadRunner::runtimeChanged, this, &Monitor::onRuntimeChanged);
    connect(m_runner, &WorkloadRunner::workloadFailed, this, &Monitor::workloadFailed);
    connect(m_runner, &WorkloadRunner::allStopped, this, &Monitor::finishShutdown);
}

Monitor::~Monitor() = default;

QString Monitor::configPath() const
{
    return m_configReloader->path();
}

// The placeholder has no workloads; its device_root is where GPUs are looked for. The file is applied once it
// appears, even where its folder does not exist yet. The tray calls this for its default file.
void Monitor::acceptMissingConfig(const Config &placeholder)
{
    m_configReloader->acceptMissing(placeholder);
}

bool Monitor::start()
{
    // Before the config: a tray whose file has errors still shows what the idle GPUs did, and its pause.
    m_ledger->open(m_collector.paths().ledgerPath);
    if (!m_pausePath.isEmpty() && !std::exchange(m_pauseLoaded, true))
        m_pause = PauseStore(m_pausePath).load(m_clock->nowMs(), QDateTime::currentDateTimeUtc());
    if (!applyConfig(m_configReloader->readFirst(), true))
        return false;
    m_started = true;
    m_configReloader->watch();
    m_heartbeatNs = monotonicNowNs();
    m_heartbeatTimer->start();
    m_slurmGuard->startBeating(); // after the pulse, which takes the events a stall held back first
    m_ledger->startTicking();
    if (const GpuBackend *library = m_collector.backends().vendorLibrary()) {
        if (library->available())
            qCInfo(lcScan, "%s available: GPU names, UUIDs, metrics and other users' GPU processes are shown",
                   qPrintable(library->name()));
        else
            qCInfo(lcScan, "%s not available (%s): node-only mode", qPrintable(library->name()),
                   qPrintable(library->unavailableReason()));
    }
    sampleGpus(); // once at start: UUIDs for CUDA_VISIBLE_DEVICES, jobs of other users already running
    return true;
}

void Monitor::poll()
{
    // What no event announces (power supplies under a fixture's root, or where no uevent socket opens) is read at the
    // poll, before the scan that follows.
    m_collector.conditions().poll();
    // The poll refreshes the backend's process lists too, so what a sample named does not outlive its process.
    sampleGpus();
}

// The vendor library gives names, UUIDs, metrics and other users' processes of NVIDIA GPUs; the DRM backend (sysfs,
// fdinfo) covers AMD and Intel GPUs. Where the library is not available, NVIDIA GPUs are watched from device nodes
// only. No backend is asked on the preemption path: only at start(), at each fallback poll (interval_seconds) and on
// the GpuSampler's clocks.
void Monitor::setGpuBackend(std::unique_ptr<GpuBackend> backend)
{
    m_collector.backends().setVendorLibrary(std::move(backend));
    m_gpuSampler->describeBackends();
}

void Monitor::setGpuSamplingWanted(bool wanted)
{
    m_gpuSampler->setWanted(wanted);
}

void Monitor::sampleGpus()
{
    if (!m_started) {
        rescan();
        return;
    }
    updateDevices(); // the backends speak for the GPUs present now
    const QHash<int, GpuInfo> &sample = m_gpuSampler->sample().gpus;
    m_ledger->ledger().addEnergySample(sample);
    m_runner->setGpuUuids(gpuUuidsByIndex(sample.values()));
    // The backend lists every process using a GPU, other users' too: a hidden holder inferred from node events
    // on a GPU where it names none but visible ones, quiet for a while (a new job has had time to make its CUDA
    // context), is a drift of the event counts (inotify merges events), not a job.
    const qint64 now = m_clock->nowMs();
    for (const GpuInfo &info : sample) {
        const GpuBackend *backend = m_collector.backends().judgeOf(info.index);
        const QList<GpuDevice> &gpus = m_collector.devices().gpus;
        const auto device = std::find_if(gpus.cbegin(), gpus.cend(),
                                         [&info](const GpuDevice &d) { return d.index == info.index; });
        if (!backend || device == gpus.cend() || m_hidden.hiddenCount(device->path) == 0
            || now - m_hidden.lastEventMs(device->path) < kHiddenCheckedByBackendAfterMs
            || !backendSeesOnlyVisibleProcesses(info, m_snapshot.holders))
            continue;
        qCInfo(lcScan, "%s names no process of another user on GPU %d: dropping the hidden holder inferred "
                       "from its node events", qPrintable(backend->name()), info.index);
        m_hidden.forgetNode(device->path);
    }
    rescan();
}

void Monitor::shutdown()
{
    if (m_shuttingDown)
        return;
    m_shuttingDown = true;
    m_started = false;
    m_pollTimer->stop();
    m_wakeTimer->stop();
    m_coalesceTimer->stop();
    m_configReloader->cancelPending();
    m_gpuSampler->stop();
    m_heartbeatTimer->stop();
    m_slurmGuard->stop();
    m_ledger->stopTicking();
    m_nodeWatcher->setNodes({});
    qCInfo(lcMonitor, "stopping all workloads");
    Q_EMIT stateChanged();
    m_runner->stopAll(QStringLiteral("idlegpu is exiting"));
}

void Monitor::setPausedAll(bool paused, qint64 untilMs)
{
    PauseState pause = m_pause;
    pause.all = paused;
    pause.allUntilMs = paused ? untilMs : 0;
    qCInfo(lcMonitor, "%s", paused ? "paused all workloads" : "resumed all workloads");
    changePause(pause);
}

void Monitor::setWorkloadPaused(const QString &id, bool paused, qint64 untilMs)
{
    PauseState pause = m_pause;
    if (paused) {
        pause.workloads.insert(id);
        if (untilMs > 0)
            pause.workloadUntilMs.insert(id, untilMs);
        else
            pause.workloadUntilMs.remove(id);
    } else {
        pause.workloads.remove(id);
        pause.workloadUntilMs.remove(id);
    }
    qCInfo(lcMonitor, "%s %s", paused ? "paused" : "resumed", qPrintable(id));
    changePause(pause);
}

void Monitor::setPause(const PauseState &pause)
{
    changePause(pause);
}

void Monitor::resumeAll()
{
    qCInfo(lcMonitor, "resumed all workloads");
    changePause(PauseState());
}

// A pause that changes nothing (a second Pause of the same) writes nothing: the file is written on this thread.
void Monitor::changePause(const PauseState &pause)
{
    const bool changed = !(pause == m_pause);
    m_pause = pause;
    if (changed)
        savePause();
    rescan();
}

void Monitor::savePause()
{
    if (m_pausePath.isEmpty())
        return;
    PauseStore store(m_pausePath);
    if (!store.save(m_pause, m_clock->nowMs(), QDateTime::currentDateTimeUtc()))
        qCWarning(lcMonitor, "cannot save the pause: %s", qPrintable(store.errorString()));
}

void Monitor::setDesktopIdle(const DesktopIdleReport &report)
{
    m_collector.conditions().presence().setDesktopIdle(report);
}

void Monitor::onConditionChanged(Condition::Rescan when)
{
    switch (when) {
    case Condition::Rescan::Now: rescan(); return;
    case Condition::Rescan::IfWorkloadRuns:
        if (anyWorkloadRunning())
            rescan();
        return;
    case Condition::Rescan::Soon:
        if (!m_coalesceTimer->isActive())
            m_coalesceTimer->start(kCoalesceMs);
        return;
    }
}

MonitorState Monitor::state() const
{
    MonitorState state;
    state.config = m_config;
    state.configProblems = m_configProblems;
    state.snapshot = m_snapshot;
    state.decision = m_decision;
    state.runtimes = m_runner->runtimes();
    state.pause = m_pause;
    state.gpuMetrics = m_gpuSampler->metrics();
    state.ledger = m_ledger->ledger().summary();
    state.notSetUp = m_configReloader->notSetUp();
    state.shuttingDown = m_shuttingDown;
    return state;
}

// The look uses the same collector and policy as the scans, with power, logind and Slurm ([slurm]: each GPU held or
// lent, as Slurm has it) read once and the ledger read from paths.ledgerPath where given; nothing is started,
// stopped, watched, written or locked. It waits for logind (1 s at most) and Slurm (its commands' timeout).
MonitorState Monitor::lookOnce(const Config &config, const MonitorPaths &paths,
                               std::unique_ptr<GpuBackend> vendorLibrary)
{
    const Clock *clock = SystemClock::instance();
    SnapshotCollector collector(paths);
    collector.backends().setVendorLibrary(std::move(vendorLibrary));
    collector.conditions().readOnce(config);
    const SnapshotCollector::Survey survey = collector.survey(config);
    MonitorState state;
    state.config = config.withGpuWorkloads(survey.snapshot.devices.indices());
    if (config.slurm.enabled)
        state.runtimes = SlurmLender::lookOnce(state.config, survey.snapshot.devices.gpus);
    state.snapshot = survey.snapshot;
    state.snapshot.takenAtMs = clock->nowMs(); // the presence's idle time is measured from it
    state.gpuMetrics = survey.gpuMetrics;

    PolicyInput input = policyInputOf(state.snapshot, state.config, state.runtimes, ::getpid());
    input.config.startDelaySeconds = 0; // "what would run": as if every GPU had been free long enough
    state.decision = Policy::decide(input);
    if (!paths.ledgerPath.isEmpty())
        state.ledger = readLedgerSummary(paths.ledgerPath);
    return state;
}

void Monitor::reloadConfig()
{
    if (m_shuttingDown)
        return;
    const std::optional<ConfigLoadResult> result = m_configReloader->readAgain();
    if (!result)
        return;
    if (applyConfig(*result, false))
        rescan();
    else
        Q_EMIT stateChanged();
}

bool Monitor::applyConfig(const ConfigLoadResult &result, bool initial)
{
    m_configProblems = result.diagnostics;
    // Errors and warnings alike at warning priority: each asks the admin to act, and `journalctl -p warning` is where
    // an admin looks.
    for (const ConfigDiagnostic &problem : result.diagnostics)
        qCWarning(lcConfig, "%s", qPrintable(problem.toString()));
    if (!result.ok()) {
        if (!initial) {
            qCWarning(lcConfig, "%s has errors; keeping the configuration in force, workloads undisturbed",
                      qPrintable(configPath()));
            Q_EMIT configRejected(result.diagnostics);
        }
        return false;
    }

    // The file's settings, and the workloads they imply for the GPUs present ([slurm]: one per GPU).
    const Config next = result.config.withGpuWorkloads(m_collector.devices().indices());
    if (!initial && result.config.settings() == m_fileConfig.settings())
        return true; // touched or rewritten without a change (a log file written in its folder, say)
    if (!initial) {
        // A workload whose settings changed restarts (if it was running); the others are left alone. A removed
        // or disabled one is stopped by the policy.
        const auto runtimes = m_runner->runtimes();
        for (const WorkloadConfig &old : std::as_const(m_config.workloads)) {
            const WorkloadConfig *updated = next.workload(old.id);
            const WorkloadRuntime runtime = runtimes.value(old.id);
            if (updated && updated->settings() != old.settings() && runtime.state == WorkloadRuntime::Running)
                m_runner->stop(old.id, QStringLiteral("its settings changed"));
        }
        for (const WorkloadRuntime &runtime : runtimes)
            if (!next.workload(runtime.id) && !runtime.occupiesGpus())
                m_runner->forget(runtime.id);
        qCInfo(lcConfig, "applied the new configuration of %s", qPrintable(configPath()));
    }
    const bool deviceRootChanged = next.deviceRoot != m_config.deviceRoot || initial;
    m_fileConfig = result.config;
    m_config = next;
    m_slurmGuard->setSlurm(m_config.slurm);
    m_collector.conditions().configure(m_config);
    m_pollTimer->start(m_config.intervalSeconds * 1000);
    if (deviceRootChanged) {
        if (!m_deviceFolders->watchRoot(m_config.deviceRoot))
            qCWarning(lcScan, "cannot watch %s for GPUs appearing; the poll every %d s will notice them",
                      qPrintable(m_config.deviceRoot), m_config.intervalSeconds);
        m_collector.setDevices(DeviceNodes());
        m_runner->setGpuDevices({});
        m_config = m_fileConfig.withGpuWorkloads({});
    }
    m_slurmGuard->write(); // before any Slurm command
    m_runner->setWorkloads(m_config.workloads);
    m_metrics->setRefreshIntervalMs(m_config.intervalSeconds * 1000);
    m_metrics->setPath(m_config.metrics.textfile);
    return true;
}

void Monitor::updateDevices()
{
    m_deviceFolders->watchDriIfMade();
    const DeviceNodes devices = m_collector.scanDevices(m_config);
    // A node that could not be watched (gone between the scan and its watch, in a storm of removals and additions) is
    // tried again at every scan until it is: else a job that opens it is noticed by the poll only.
    if (devices == m_collector.devices() && !m_rewatchNodes && m_nodeWatcher->watchesAll())
        return;
    m_rewatchNodes = false;
    if (devices != m_collector.devices()) {
        QStringList found;
        for (const GpuDevice &gpu : devices.gpus)
            found.append(gpu.describe().isEmpty() ? QString::number(gpu.index)
                                                  : QStringLiteral("%1 (%2)").arg(gpu.index).arg(gpu.describe()));
        qCInfo(lcScan, "GPUs under %s: %s", qPrintable(m_config.deviceRoot),
               found.isEmpty() ? "none" : qPrintable(found.join(QStringLiteral(", "))));
        for (const QString &path : m_collector.devices().allPaths())
            if (!devices.allPaths().contains(path))
                m_hidden.forgetNode(path); // the others' counts stand: a node keeps its path
        m_collector.setDevices(devices);
        m_slurmGuard->write(); // the GPUs the prolog checks, before the Slurm commands for them
        m_runner->setGpuDevices(devices.gpus);
        // Workloads the file implies per GPU ([slurm]) come and go with the GPUs.
        const Config config = m_fileConfig.withGpuWorkloads(devices.indices());
        if (config.workloads.size() != m_config.workloads.size() || config.settings() != m_config.settings()) {
            m_config = config;
            m_runner->setWorkloads(m_config.workloads);
        }
    }
    m_nodeWatcher->setNodes(devices.allPaths()); // unchanged nodes keep their watch
}

void Monitor::absorbEvents(const NodeEvents &events)
{
    for (auto it = events.opens.cbegin(); it != events.opens.cend() && events.readAtNs > 0; ++it)
        if (!m_openReadAtNs.contains(it.key()))
            m_openReadAtNs.insert(it.key(), earliestOpenNs(events.readAtNs));
    if (events.overflow) {
        qCWarning(lcScan, "inotify queue overflowed: events were lost, rescanning everything");
        // What the lost events did is unknown: a GPU another user's job may hold stays busy until shown free, and
        // nodes removed or made anew meanwhile are watched afresh.
        m_hidden.eventsLost(m_clock->nowMs());
        m_rewatchNodes = true;
        m_pendingEvents = NodeEvents();
        return;
    }
    for (const QString &path : events.gone)
        m_hidden.forgetNode(path); // a node deleted: its counts mean nothing for a node recreated there
    m_rewatchNodes = m_rewatchNodes || !events.gone.isEmpty();
    for (auto it = events.opens.cbegin(); it != events.opens.cend(); ++it)
        m_pendingEvents.opens[it.key()] += it.value();
    for (auto it = events.closes.cbegin(); it != events.closes.cend(); ++it)
        m_pendingEvents.closes[it.key()] += it.value();
}

void Monitor::onNodeEvents(const NodeEvents &events)
{
    if (!m_started)
        return;
    absorbEvents(events);

    // The fast path: an open while a workload runs may be a user's job arriving; answer at once.
    if ((!events.opens.isEmpty() && anyWorkloadRunning()) || !events.gone.isEmpty() || events.overflow)
        rescan();
    else if (!m_coalesceTimer->isActive())
        m_coalesceTimer->start(kCoalesceMs);
}

void Monitor::preemptEarly(const Holder &scanned)
{
    // Called for each holder while the scan is still going: a foreign holder on a GPU where a workload runs
    // stops it now instead of after the scan of every other process.
    const auto runtimes = m_runner->runtimes();
    Holder holder = scanned;
    bool lastWordTaken = false;
    for (const WorkloadRuntime &runtime : runtimes) {
        if (runtime.state != WorkloadRuntime::Running)
            continue;
        for (int gpu : holder.gpus) {
            if (!runtime.gpus.contains(gpu) || !Policy::isForeign(holder, gpu, m_config, runtimes, m_selfPid))
                continue;
            // busy_when = auto: a compute client (it holds nvidia-uvm or kfd) stops the workload now; a graphics client
            // is the policy's to judge once a backend has measured it. busy_when = computes or memory: where a backend
            // can tell what the holder does there, the policy judges it once that has spoken; with nothing to ask, in
            // doubt it is busy now.
            const BusyRule rule = m_config.busyRuleFor(gpu);
            if (!rule.opened && !rule.byClientKind && m_collector.backends().canJudgeUse(gpu))
                continue;
            // No backend is asked on this path, but what one said of this process at the last scan still stands: a
            // uvm holder NVML lists among the graphics processes only is a graphics client, and stopping the
            // workload for it at every scan would make it flap.
            if (!lastWordTaken) {
                lastWordTaken = true;
                for (const Holder &seen : std::as_const(m_snapshot.holders))
                    if (!seen.hidden && seen.pid == holder.pid && seen.comm == holder.comm) {
                        holder.gpuUse = seen.gpuUse;
                        break;
                    }
            }
            if (!Policy::judgeHolder(holder, gpu, rule).makesBusy)
                continue;
            const WorkloadConfig *config = m_config.workload(runtime.id);
            const QString reason = QStringLiteral("%1 opened GPU %2").arg(holder.describe()).arg(gpu);
            m_runner->stop(runtime.id, reason);
            reportPreemption({runtime.id, config ? config->name : runtime.id, gpu, holder, m_clock->nowMs(), std::nullopt},
                             reason);
            break;
        }
    }
}

bool Monitor::anyWorkloadRunning() const
{
    const auto runtimes = m_runner->runtimes();
    return std::any_of(runtimes.cbegin(), runtimes.cend(),
                       [](const WorkloadRuntime &r) { return r.state == WorkloadRuntime::Running; });
}

void Monitor::rescan()
{
    if (!m_started || m_inScan)
        return;
    m_inScan = true;
    m_coalesceTimer->stop();
    const qint64 scanStartNs = monotonicNowNs();

    updateDevices();
    EventsDuringScan events;
    SnapshotCollector::Hooks hooks;
    hooks.onHolder = [this](const Holder &h) { preemptEarly(h); };
    hooks.addHidden = [this, &events](const HolderScanner::Result &scan, QList<Holder> &holders) {
        addHiddenHolders(scan, holders, &events);
    };
    Snapshot snapshot = m_collector.collect(m_config, hooks);
    scheduleRecheck(events);
    snapshot.takenAtMs = m_clock->nowMs();

    // A pause whose time has come ends here, so that the state says so too.
    if (m_pause.expireAt(snapshot.takenAtMs)) {
        qCInfo(lcMonitor, "a pause ended at its time");
        savePause();
    }
    PolicyInput input = policyInputOf(snapshot, m_config, m_runner->runtimes(), m_selfPid);
    input.pause = m_pause;
    input.memory = m_memory;
    const Decision decision = Policy::decide(input);
    m_memory = decision.memory;
    m_snapshot = snapshot;
    m_decision = decision;
    if (m_config.slurm.enabled) // the lab's jobs' processes, which an owner's open of their GPU signals at once
        m_runner->setGpuHolders(snapshot.holders);
    apply(decision);
    // A GPU lent or held, a holder left out or gone: the prolog judges by this, so it is written now, not at the next
    // beat. Only on a change: a scan that changes nothing writes nothing.
    m_slurmGuard->writeIfChanged();
    m_gpuSampler->updateOpenOnlyWatch();
    forgetAnsweredOpens(scanStartNs);
    m_ledger->follow(m_decision, m_runner->runtimes());
    m_inScan = false;
    Q_EMIT stateChanged();
}

void Monitor::addHiddenHolders(const HolderScanner::Result &scan, QList<Holder> &holders, EventsDuringScan *events)
{
    // Opens that no visible process explains are another user's jobs: a hidden holder per such GPU. The events queued
    // during the scan count too: the kernel queues an open before its fd shows, so every fd the scan saw has its open
    // counted.
    events->taken = m_nodeWatcher->takePendingEvents();
    absorbEvents(events->taken);
    // Root reads every process's fds but the few the kernel refuses it all the same (an LSM's): those may hold a GPU
    // as another user's do for a non-root idlegpu, and an open no visible fd explains is theirs. With none refused,
    // nothing is hidden, and inferring could only add errors.
    const bool someUnreadable = m_inferHiddenHolders ? scan.unreadableProcesses > 0 : scan.refusedProcesses > 0;
    for (const GpuDevice &gpu : m_collector.devices().gpus) {
        m_hidden.update(gpu.path, m_pendingEvents.opens.value(gpu.path), m_pendingEvents.closes.value(gpu.path),
                        scan.visibleFdsByNode.value(gpu.path), someUnreadable, m_clock->nowMs());
        events->provisional = events->provisional || m_hidden.provisionalCount(gpu.path) > 0;
        if (m_hidden.hiddenCount(gpu.path) > 0) {
            Holder hidden;
            hidden.hidden = true;
            hidden.gpus = {gpu.index};
            hidden.user = QStringLiteral("?");
            holders.append(hidden);
        }
    }
    // nvidia-uvm and kfd make a holder a compute client (busy_when = auto), and a CUDA process may open its GPU's node
    // before nvidia-uvm: that later open must stop the workload as the first would have. Its fd too shows in /proc only
    // after the event, so an open the scan did not see is looked at again at once. They name no GPU, so no hidden
    // holder is made of them.
    for (const QString &path : m_collector.devices().sharedNodes) {
        if (!HolderScanner::isComputeNode(path))
            continue;
        m_hidden.update(path, m_pendingEvents.opens.value(path), m_pendingEvents.closes.value(path),
                        scan.visibleFdsByNode.value(path), false, m_clock->nowMs());
        events->provisional = events->provisional || m_hidden.provisionalCount(path) > 0;
    }
    m_pendingEvents = NodeEvents();
}

void Monitor::scheduleRecheck(const EventsDuringScan &events)
{
    // An open nobody explains yet: look again at once, it is a hidden holder or a late sight. A watch lost during the
    // scan: watch the node again at once, before a job opens it unseen.
    if (events.provisional || m_rewatchNodes)
        m_coalesceTimer->start(kRecheckMs);
    // Events the scan took never reach onNodeEvents: answer them as it would. An open during the scan may be a process
    // the scan had not listed yet (it started meanwhile): look again at once where a workload runs, or idlegpu (as
    // root, with nothing inferred) would miss it until the next event.
    const NodeEvents &taken = events.taken;
    if (!taken.opens.isEmpty() && anyWorkloadRunning())
        m_coalesceTimer->start(kRecheckMs);
    else if ((!taken.opens.isEmpty() || !taken.closes.isEmpty() || !taken.gone.isEmpty() || taken.overflow)
             && !m_coalesceTimer->isActive())
        m_coalesceTimer->start(kCoalesceMs);
}

void Monitor::apply(const Decision &decision)
{
    const auto runtimes = m_runner->runtimes();
    for (const StopOrder &order : decision.stop) {
        if (runtimes.value(order.workloadId).state != WorkloadRuntime::Running)
            continue; // already stopped early by preemptEarly()
        if (order.cause != HoldReason::ForeignHolder) {
            qCInfo(lcPolicy, "stopping %s: %s", qPrintable(order.workloadId), qPrintable(order.reason));
            m_runner->stop(order.workloadId, order.reason);
            continue;
        }
        m_runner->stop(order.workloadId, order.reason);
        const WorkloadConfig *config = m_config.workload(order.workloadId);
        reportPreemption({order.workloadId, config ? config->name : order.workloadId, order.gpu, order.culprit,
                          m_clock->nowMs(), std::nullopt},
                         order.reason);
    }
    for (const StartOrder &order : decision.start) {
        const WorkloadConfig *config = m_config.workload(order.workloadId);
        if (!config)
            continue;
        QStringList gpus;
        for (int gpu : order.gpus)
            gpus.append(QString::number(gpu));
        qCInfo(lcPolicy, "starting %s on GPU %s", qPrintable(config->name), qPrintable(gpus.join(QLatin1Char(','))));
        m_runner->start(*config, order.gpus, order.allGpus);
    }
    scheduleWake(decision.nextWakeMs);
}

void Monitor::scheduleWake(qint64 wakeAtMs)
{
    if (wakeAtMs <= 0) {
        m_wakeTimer->stop();
        return;
    }
    const qint64 delay = qMax<qint64>(0, wakeAtMs - m_clock->nowMs());
    m_wakeTimer->start(int(qMin<qint64>(delay, 24 * 3600 * 1000)));
}

void Monitor::reportPreemption(PreemptionEvent event, const QString &reason)
{
    event.openToStopMs = openToStopMs(event.culprit, event.gpu);
    qCInfo(lcMonitor, "preempting %s: %s%s", qPrintable(event.workloadName), qPrintable(reason),
           qPrintable(describeOpenToStop(event.openToStopMs)));
    PreemptionRecord record;
    record.gpu = event.gpu;
    record.workloadName = event.workloadName;
    const bool seen = !(event.culprit.hidden && event.culprit.pid == 0);
    record.culpritProgram = seen ? event.culprit.comm : QString();
    record.culpritUser = seen ? event.culprit.user : QString();
    record.culpritPid = event.culprit.pid;
    record.openToStopMs = event.openToStopMs;
    m_ledger->recordPreemption(record);
    Q_EMIT preempted(event);
}

// inotify gives no time of its own, so an open counts from when its event was read (earliestOpenNs()).
std::optional<double> Monitor::openToStopMs(const Holder &culprit, int gpu) const
{
    qint64 readAtNs = 0;
    const auto consider = [&](const QString &path) {
        const qint64 at = m_openReadAtNs.value(path);
        if (at > 0 && (readAtNs == 0 || at < readAtNs))
            readAtNs = at;
    };
    for (const GpuDevice &device : m_collector.devices().gpus)
        if (device.index == gpu)
            consider(device.path);
    // A CUDA job opens nvidiactl, nvidia-uvm and nvidiaN within microseconds: the scan that answers the first event
    // read (often nvidiactl's alone) already finds all three fds and stops the workload before the others' events
    // are read. Its time counts from that first event.
    if (culprit.holdsSharedNode || culprit.holdsComputeNode)
        for (const QString &path : m_collector.devices().sharedNodes)
            consider(path);
    if (readAtNs == 0)
        return std::nullopt;
    // No process opens a node before it exists: after a stall, the culprit's start narrows the window earliestOpenNs()
    // left open (a tick's rounding down keeps it a lower bound). Read now, after the stop: off the preemption path.
    if (culprit.pid > 0)
        readAtNs = qMax(readAtNs, monotonicNsOfBootTicks(processStartTicks(m_collector.paths().procRoot, culprit.pid)));
    return double(monotonicNowNs() - readAtNs) / 1e6;
}

qint64 Monitor::earliestOpenNs(qint64 readAtNs) const
{
    // inotify events carry no time. One read the moment it is queued counts from its reading (the figure is then off
    // by the wake-up, microseconds). One read after the monitor thread stood still (SIGSTOP, a blocked loop, a scan
    // that took seconds) may have waited all that time: it counts from the last beat before, so that the figure
    // includes the stall rather than hide it. A stall shorter than kHeartbeatMs + kHeartbeatLateMs goes unseen.
    const qint64 lateAfterNs = qint64(kHeartbeatMs + kHeartbeatLateMs) * 1'000'000;
    if (m_heartbeatNs > 0 && readAtNs - m_heartbeatNs > lateAfterNs)
        return m_heartbeatNs;
    return readAtNs;
}

void Monitor::onHeartbeat()
{
    // After a stall this beat and the node events are due at once, in either order: take the events first, while the
    // last beat still marks when the thread stopped.
    const qint64 nowNs = monotonicNowNs();
    if (earliestOpenNs(nowNs) != nowNs) {
        const NodeEvents events = m_nodeWatcher->takePendingEvents();
        if (!events.isEmpty())
            onNodeEvents(events);
    }
    m_heartbeatNs = monotonicNowNs();
}

QList<SlurmGuard::GuardGpu> Monitor::slurmGuardGpus() const
{
    return SlurmGuard::gpusOfDecision(m_collector.devices().gpus, m_decision, m_runner->runtimes());
}

void Monitor::forgetAnsweredOpens(qint64 scanStartNs)
{
    const qint64 staleBeforeNs = monotonicNowNs() - kOpenAnsweredAfterNs;
    for (auto it = m_openReadAtNs.begin(); it != m_openReadAtNs.end();) {
        const bool answered = it.value() < scanStartNs && m_hidden.provisionalCount(it.key()) == 0;
        if (answered || it.value() < staleBeforeNs)
            it = m_openReadAtNs.erase(it);
        else
            ++it;
    }
}

QByteArray Monitor::renderMetrics()
{
    // A workload's seconds move between decisions too (the refresh every interval_seconds).
    m_ledger->ledger().advance();
    MetricsText::Moment moment;
    moment.nowMs = m_clock->nowMs();
    moment.nowWallMs = m_clock->localNow().toMSecsSinceEpoch();
    moment.up = m_metricsUp;
    moment.version = QStringLiteral(IDLEGPU_VERSION);
    return MetricsText::render(state(), moment);
}

void Monitor::onRuntimeChanged()
{
    // A workload that ended frees its GPUs for another; decide again once the current scan is done.
    if (!m_inScan && m_started && !m_coalesceTimer->isActive())
        m_coalesceTimer->start(kCoalesceMs);
}

void Monitor::finishShutdown()
{
    if (!m_shuttingDown)
        return;
    m_ledger->follow(m_decision, m_runner->runtimes()); // the workloads' time ends here
    m_ledger->finish();
    // The last file: node_exporter goes on serving it, so it says that idlegpu is down (and since when), with the
    // counters where they ended and no workload running.
    m_metricsUp = false;
    m_metrics->writeNow();
    m_slurmGuard->writeStopped(); // every GPU held: Slurm's prolog refuses the lab's jobs from now on
    Q_EMIT shutdownFinished();
}
