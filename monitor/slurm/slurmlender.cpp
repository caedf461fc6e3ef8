// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "slurm/slurmlender.h"

#include "base/logging.h"
#include "base/printablename.h"
#include "slurm/guardfile.h"
#include "slurm/slurmcommands.h"

#include <QProcess>
#include <QTimer>

#include <algorithm>
#include <memory>

namespace {
// After a timeout the command gets SIGTERM (salloc then revokes its pending request), and SIGKILL this much later.
constexpr int kKillGraceMs = 1'000;
constexpr qint64 kFirstRetryMs = 1'000;

qint64 backoffMs(int failures)
{
    const int doublings = qBound(0, failures - 1, 16);
    return qMin<qint64>(SlurmLender::kMaxRetryMs, kFirstRetryMs << doublings);
}

QList<WorkloadRuntime::LabJob> labJobsOf(const QList<Slurm::Job> &jobs)
{
    QList<WorkloadRuntime::LabJob> result;
    for (const Slurm::Job &job : jobs)
        result.append({job.id, job.user, job.name});
    return result;
}

// The NVIDIA GPUs' indices in gres.conf's order: an untyped GRES index names the GPU at that position.
QList<int> gresOrderOf(const QList<GpuDevice> &devices)
{
    QList<int> order;
    for (const GpuDevice &device : devices)
        if (device.vendor == GpuVendor::Nvidia)
            order.append(device.index);
    std::sort(order.begin(), order.end());
    return order;
}

bool sameRuntime(const WorkloadRuntime &a, const WorkloadRuntime &b)
{
    return a.state == b.state && a.startedAtMs == b.startedAtMs && a.labJobs == b.labJobs
           && a.unreachable == b.unreachable && a.gpus == b.gpus;
}
} // namespace

struct SlurmLender::Gpu
{
    int index = -1;
    QString id;
    bool wantLent = false;
    qint64 lentAtMs = 0;
    // Slurm's side as far as known: the listing's, then each command's result.
    bool holdPlaced = false;
    QList<qint64> holdIds;
    QPointer<QProcess> command;
    Op op = Op::Hold;
    quint64 lastCommandEnd = 0; // m_commandsFinished when its last command ended
    qint64 commandStartedMs = 0;
    int failures = 0;
    qint64 retryAtMs = 0;
    QString unreachable;
    QList<WorkloadRuntime::LabJob> labJobs;
    bool gaveUp = false; // during stopAll(): its hold failed, no more tries
    WorkloadRuntime reported;
};

SlurmLender::SlurmLender(const Clock *clock, QObject *parent) : SlurmLender(SlurmCommands(), clock, parent) {}

SlurmLender::SlurmLender(const SlurmCommands &commands, const Clock *clock, QObject *parent)
    : WorkloadRunner(parent), m_commands(commands), m_clock(clock)
{
    m_refreshTimer = new QTimer(this);
    m_refreshTimer->setInterval(kRefreshMs);
    connect(m_refreshTimer, &QTimer::timeout, this, &SlurmLender::list);
    m_retryTimer = new QTimer(this);
    m_retryTimer->setSingleShot(true);
    connect(m_retryTimer, &QTimer::timeout, this, [this] { converge(); });
    m_stopAllTimer = new QTimer(this);
    m_stopAllTimer->setSingleShot(true);
    m_stopAllTimer->setInterval(kStopAllTimeoutMs);
    connect(m_stopAllTimer, &QTimer::timeout, this, [this] {
        qCWarning(lcSlurm, "gave up waiting for the holds after %d s", kStopAllTimeoutMs / 1000);
        finishStopAll();
    });
}

SlurmLender::~SlurmLender()
{
    for (Gpu *gpu : std::as_const(m_gpus)) {
        if (gpu->command) {
            gpu->command->disconnect(this);
            gpu->command->kill();
            gpu->command->waitForFinished(kKillGraceMs); // reaped at once after SIGKILL; only at exit
        }
        delete gpu;
    }
    if (m_listing) {
        m_listing->disconnect(this);
        m_listing->kill();
        m_listing->waitForFinished(kKillGraceMs);
    }
}

SlurmLender::Gpu *SlurmLender::gpuOf(const QString &id) const
{
    for (Gpu *gpu : m_gpus)
        if (gpu->id == id)
            return gpu;
    return nullptr;
}

SlurmLender::Gpu &SlurmLender::ensureGpu(const WorkloadConfig &config)
{
    const int index = config.gpus.indices.value(0, -1);
    if (config.slurm && !(*config.slurm == m_slurm)) {
        if (!m_slurm.node.isEmpty())
            qCInfo(lcSlurm, "Slurm settings changed (node %s, partition %s): reading the jobs again",
                   qPrintable(config.slurm->node), qPrintable(config.slurm->partition));
        m_slurm = *config.slurm;
        m_listed = false;
    }
    Gpu *&gpu = m_gpus[index];
    if (!gpu) {
        gpu = new Gpu;
        gpu->index = index;
        gpu->id = config.id;
        gpu->reported.id = config.id;
        if (!m_refreshTimer->isActive())
            m_refreshTimer->start();
    }
    return *gpu;
}

void SlurmLender::setWorkloads(const QList<WorkloadConfig> &workloads)
{
    for (const WorkloadConfig &workload : workloads)
        if (workload.slurm && !workload.gpus.indices.isEmpty())
            ensureGpu(workload);
    converge();
}

bool SlurmLender::start(const WorkloadConfig &config, const QList<int> &gpus, bool allGpus)
{
    Q_UNUSED(gpus)
    Q_UNUSED(allGpus)
    if (!config.slurm || config.gpus.indices.size() != 1) {
        qCWarning(lcSlurm, "%s is not a GPU lent to the lab", qPrintable(config.id));
        return false;
    }
    Gpu &gpu = ensureGpu(config);
    if (!gpu.wantLent) {
        qCInfo(lcSlurm, "lending GPU %d to the lab: releasing its hold", gpu.index);
        gpu.wantLent = true;
        gpu.lentAtMs = m_clock->nowMs();
        gpu.failures = 0;
        gpu.retryAtMs = 0;
    }
    converge(gpu);
    converge(); // the listing, where it is still due, and the runtime reported
    return true;
}

void SlurmLender::stop(const QString &id, const QString &reason)
{
    Gpu *gpu = gpuOf(id);
    if (!gpu)
        return;
    if (gpu->wantLent) {
        qCInfo(lcSlurm, "holding GPU %d for the owner: %s", gpu->index, qPrintable(reason));
        gpu->wantLent = false;
        gpu->failures = 0;
        gpu->retryAtMs = 0;
    }
    converge(*gpu);
    converge();
}

void SlurmLender::stopAll(const QString &reason)
{
    if (!m_gpus.isEmpty()) // not in Slurm mode: nothing to say
        qCInfo(lcSlurm, "holding every GPU for the owner: %s", qPrintable(reason));
    m_stoppingAll = true;
    m_refreshTimer->stop();
    for (Gpu *gpu : std::as_const(m_gpus)) {
        gpu->wantLent = false;
        gpu->failures = 0;
        gpu->retryAtMs = 0;
        gpu->gaveUp = false;
    }
    m_listRetryAtMs = 0;
    m_stopAllTimer->start();
    converge();
    // As ProcessRunner does: from the event loop, since the caller connects to allStopped() after calling.
    QMetaObject::invokeMethod(this, &SlurmLender::maybeFinishStopAll, Qt::QueuedConnection);
}

void SlurmLender::forget(const QString &id)
{
    Gpu *gpu = gpuOf(id);
    if (!gpu || gpu->wantLent || gpu->command)
        return;
    m_gpus.remove(gpu->index);
    delete gpu;
}

QHash<QString, WorkloadRuntime> SlurmLender::runtimes() const
{
    QHash<QString, WorkloadRuntime> result;
    for (const Gpu *gpu : m_gpus)
        result.insert(gpu->id, runtimeOf(*gpu));
    return result;
}

WorkloadRuntime SlurmLender::runtimeOf(const Gpu &gpu) const
{
    WorkloadRuntime runtime;
    runtime.id = gpu.id;
    runtime.gpus = {gpu.index};
    if (gpu.wantLent) {
        runtime.state = WorkloadRuntime::Running;
        runtime.startedAtMs = gpu.lentAtMs;
    } else if (gpu.command && gpu.op == Op::Hold) {
        runtime.state = WorkloadRuntime::Stopping;
    } else {
        runtime.state = WorkloadRuntime::Stopped;
    }
    runtime.labJobs = gpu.labJobs;
    runtime.unreachable = !gpu.unreachable.isEmpty() ? gpu.unreachable : m_listProblem;
    runtime.consecutiveFailures = gpu.failures;
    return runtime;
}

void SlurmLender::converge()
{
    if (!m_listed && !m_gpus.isEmpty() && !m_listing && (m_stoppingAll || m_listRetryAtMs <= m_clock->nowMs()))
        list();
    const QList<Gpu *> gpus = m_gpus.values();
    for (Gpu *gpu : gpus)
        converge(*gpu);
    scheduleRetry();
    for (Gpu *gpu : gpus) {
        const WorkloadRuntime now = runtimeOf(*gpu);
        if (!sameRuntime(now, gpu->reported)) {
            gpu->reported = now;
            Q_EMIT runtimeChanged(gpu->id);
        }
    }
}

void SlurmLender::converge(Gpu &gpu)
{
    if (gpu.command || !m_listed || gpu.gaveUp)
        return;
    if (gpu.retryAtMs > m_clock->nowMs())
        return;
    if (!gpu.wantLent && !gpu.holdPlaced)
        runCommand(gpu, Op::Hold);
    else if (!gpu.wantLent && gpu.holdIds.size() > 1)
        runCommand(gpu, Op::CancelDuplicates);
    else if (gpu.wantLent && gpu.holdPlaced)
        runCommand(gpu, Op::Release);
}

void SlurmLender::runCommand(Gpu &gpu, Op op)
{
    QString program;
    QStringList arguments;
    int timeoutMs = m_commands.commandTimeoutMs;
    switch (op) {
    case Op::Hold:
        program = m_commands.salloc;
        arguments = Slurm::holdArguments(m_slurm, gpu.index);
        timeoutMs = m_commands.holdTimeoutMs;
        break;
    case Op::Release:
        program = m_commands.scancel;
        arguments = Slurm::releaseArguments(m_slurm, gpu.index, gpu.holdIds);
        break;
    case Op::CancelDuplicates:
        program = m_commands.scancel;
        arguments = Slurm::releaseArguments(m_slurm, gpu.index, gpu.holdIds.mid(1));
        qCInfo(lcSlurm, "GPU %d has %lld hold jobs: cancelling all but the first", gpu.index,
               qlonglong(gpu.holdIds.size()));
        break;
    }
    qCDebug(lcSlurm).noquote() << program << arguments.join(QLatin1Char(' '));
    gpu.op = op;
    gpu.commandStartedMs = m_clock->nowMs();
    const int index = gpu.index;
    gpu.command = launch(program, arguments, timeoutMs, [this, index, op](QProcess *process, bool timedOut) {
        onCommandFinished(index, op, process, timedOut);
    });
}

QProcess *SlurmLender::launch(const QString &program, const QStringList &arguments, int timeoutMs,
                              std::function<void(QProcess *, bool)> done)
{
    auto *process = new QProcess(this);
    process->setProcessChannelMode(QProcess::MergedChannels);
    process->setStandardInputFile(QProcess::nullDevice());
    auto timedOut = std::make_shared<bool>(false);
    auto reported = std::make_shared<bool>(false);
    auto *timer = new QTimer(process);
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, process, [process, timedOut] {
        *timedOut = true;
        process->terminate();
        QTimer::singleShot(kKillGraceMs, process, [process] { process->kill(); });
    });
    const auto finish = [process, timedOut, reported, done] {
        if (std::exchange(*reported, true))
            return;
        done(process, *timedOut);
        process->deleteLater();
    };
    connect(process, &QProcess::finished, this, finish);
    connect(process, &QProcess::errorOccurred, this, [process, finish](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            finish();
    });
    process->start(program, arguments);
    timer->start(timeoutMs);
    return process;
}

// Whether a command launch() ran did what it was asked: started, answered in time, exit status 0.
static bool succeeded(const QProcess *process, bool timedOut)
{
    return !timedOut && process->error() != QProcess::FailedToStart && process->exitStatus() == QProcess::NormalExit
           && process->exitCode() == 0;
}

// The reason a command failed, in words: "salloc: Unable to contact slurm controller (connect failure)".
static QString failureOf(const QString &program, QProcess *process, bool timedOut, int timeoutMs)
{
    const QString name = program.mid(program.lastIndexOf(QLatin1Char('/')) + 1);
    if (process->error() == QProcess::FailedToStart)
        return QStringLiteral("%1 cannot be run (%2)").arg(name, process->errorString());
    if (timedOut)
        return QStringLiteral("%1 got no answer within %2 s").arg(name).arg(timeoutMs / 1000.0);
    const QString error = Slurm::errorOf(process->readAll());
    if (process->exitStatus() == QProcess::CrashExit)
        return QStringLiteral("%1 crashed").arg(name);
    return error.isEmpty() ? QStringLiteral("%1 failed (exit code %2)").arg(name).arg(process->exitCode())
                           : QStringLiteral("%1: %2").arg(name, error);
}

void SlurmLender::onCommandFinished(int gpuIndex, Op op, QProcess *process, bool timedOut)
{
    Gpu *gpu = m_gpus.value(gpuIndex);
    if (!gpu)
        return;
    gpu->lastCommandEnd = ++m_commandsFinished;
    const bool ok = succeeded(process, timedOut);
    const QString program = op == Op::Hold ? m_commands.salloc : m_commands.scancel;
    if (ok) {
        const QByteArray output = process->readAll();
        gpu->failures = 0;
        gpu->retryAtMs = 0;
        gpu->unreachable.clear();
        switch (op) {
        case Op::Hold:
            gpu->holdPlaced = true;
            gpu->holdIds.clear();
            if (const std::optional<qint64> id = Slurm::jobIdOfSalloc(output))
                gpu->holdIds.append(*id);
            qCInfo(lcSlurm, "GPU %d held for the owner (job %s, granted in %lld ms)", gpuIndex,
                   gpu->holdIds.isEmpty() ? "?" : qPrintable(QString::number(gpu->holdIds.first())),
                   qlonglong(m_clock->nowMs() - gpu->commandStartedMs));
            break;
        case Op::Release:
            gpu->holdPlaced = false;
            gpu->holdIds.clear();
            qCInfo(lcSlurm, "GPU %d lent to the lab", gpuIndex);
            // Name the lab's job that lands there soon, not at the next refresh.
            QTimer::singleShot(kSoonAfterReleaseMs, this, &SlurmLender::list);
            break;
        case Op::CancelDuplicates:
            gpu->holdIds = gpu->holdIds.mid(0, 1);
            break;
        }
    } else {
        const int timeoutMs = op == Op::Hold ? m_commands.holdTimeoutMs : m_commands.commandTimeoutMs;
        fail(*gpu, failureOf(program, process, timedOut, timeoutMs));
        // A command that timed out may have acted all the same (a hold granted late): read the jobs before the next.
        if (timedOut)
            m_listed = false;
        if (m_stoppingAll && op == Op::Hold)
            gpu->gaveUp = true;
    }
    gpu->command = nullptr;
    converge();
    maybeFinishStopAll();
}

void SlurmLender::fail(Gpu &gpu, const QString &what)
{
    ++gpu.failures;
    gpu.retryAtMs = m_clock->nowMs() + backoffMs(gpu.failures);
    gpu.unreachable = what;
    qCWarning(lcSlurm, "GPU %d: %s; trying again in %lld s", gpu.index, qPrintable(what),
              qlonglong((gpu.retryAtMs - m_clock->nowMs() + 999) / 1000));
}

void SlurmLender::list()
{
    if (m_listing || m_gpus.isEmpty())
        return;
    m_listingStartedAt = m_commandsFinished;
    m_listing = launch(m_commands.scontrol, Slurm::listArguments(), m_commands.commandTimeoutMs,
                       [this](QProcess *process, bool timedOut) { onListFinished(process, timedOut); });
}

void SlurmLender::onListFinished(QProcess *process, bool timedOut)
{
    m_listing = nullptr;
    const bool ok = succeeded(process, timedOut);
    if (!ok) {
        ++m_listFailures;
        m_listRetryAtMs = m_clock->nowMs() + backoffMs(m_listFailures);
        m_listProblem = failureOf(m_commands.scontrol, process, timedOut, m_commands.commandTimeoutMs);
        qCWarning(lcSlurm, "Slurm unreachable: %s; trying again in %lld s", qPrintable(m_listProblem),
                  qlonglong((m_listRetryAtMs - m_clock->nowMs() + 999) / 1000));
        if (m_stoppingAll && !m_listed)
            for (Gpu *gpu : std::as_const(m_gpus))
                gpu->gaveUp = true;
        converge();
        maybeFinishStopAll();
        return;
    }
    if (!m_listProblem.isEmpty())
        qCInfo(lcSlurm, "Slurm answers again");
    m_listFailures = 0;
    m_listProblem.clear();
    QList<int> gresOrder = m_gresOrder;
    if (gresOrder.isEmpty()) {
        gresOrder = m_gpus.keys();
        std::sort(gresOrder.begin(), gresOrder.end());
    }
    const Slurm::NodeView view = Slurm::viewOfNode(Slurm::parseShowJobs(process->readAll()), m_slurm, gresOrder);
    // The node's state belongs to the listing: before the first hold, since a drained node gets none.
    m_listing = launch(m_commands.scontrol, Slurm::nodeArguments(m_slurm.node), m_commands.commandTimeoutMs,
                       [this, view](QProcess *node, bool nodeTimedOut) { onNodeShown(view, node, nodeTimedOut); });
}

void SlurmLender::onNodeShown(const Slurm::NodeView &view, QProcess *process, bool timedOut)
{
    m_listing = nullptr;
    const bool ok = succeeded(process, timedOut);
    std::optional<Slurm::NodeState> node;
    if (ok)
        node = Slurm::parseShowNode(process->readAll(), m_slurm.node);
    if (!node) {
        // The holds do not wait for it: only a drain of idlegpu's own goes unresumed until the next listing.
        qCDebug(lcSlurm, "cannot read the state of node %s: %s", qPrintable(m_slurm.node),
                ok ? "not in scontrol's answer"
                   : qPrintable(failureOf(m_commands.scontrol, process, timedOut, m_commands.commandTimeoutMs)));
    } else if (node->drained() && node->reason.startsWith(QLatin1String(SlurmGuard::kReasonPrefix))
               && !m_stoppingAll) {
        // Drained by idlegpu's prolog or health check while idlegpu was not running (or a GPU was in use): it runs now.
        qCInfo(lcSlurm, "node %s is drained by idlegpu (\"%s\"): resuming it", qPrintable(m_slurm.node),
               qPrintable(printableName(node->reason)));
        m_listing = launch(m_commands.scontrol, Slurm::resumeArguments(m_slurm.node), m_commands.commandTimeoutMs,
                           [this, view](QProcess *resume, bool resumeTimedOut) {
                               m_listing = nullptr;
                               if (!succeeded(resume, resumeTimedOut))
                                   qCWarning(lcSlurm, "cannot resume node %s: %s", qPrintable(m_slurm.node),
                                             qPrintable(failureOf(m_commands.scontrol, resume, resumeTimedOut,
                                                                  m_commands.commandTimeoutMs)));
                               else
                                   qCInfo(lcSlurm, "node %s resumed", qPrintable(m_slurm.node));
                               finishListing(view);
                           });
        return;
    } else if (node->drained() && node->reason != m_foreignDrainSeen) {
        qCInfo(lcSlurm, "node %s is drained (\"%s\"), not by idlegpu: left as it is", qPrintable(m_slurm.node),
               qPrintable(printableName(node->reason)));
    }
    m_foreignDrainSeen = node && node->drained() ? node->reason : QString();
    finishListing(view);
}

void SlurmLender::finishListing(const Slurm::NodeView &view)
{
    applyView(view);
    m_listed = true;
    converge();
    maybeFinishStopAll();
}

void SlurmLender::applyView(const Slurm::NodeView &view)
{
    for (Gpu *gpu : std::as_const(m_gpus)) {
        gpu->labJobs = labJobsOf(view.labJobs.value(gpu->index));
        if (gpu->command || gpu->lastCommandEnd > m_listingStartedAt)
            continue; // the listing began before this GPU's last command ended: it may not show its result
        const QList<Slurm::Job> holds = view.holds.value(gpu->index);
        const bool placed = !holds.isEmpty();
        if (placed != gpu->holdPlaced && m_listed)
            qCInfo(lcSlurm, "GPU %d: %s", gpu->index,
                   placed ? "a hold job appeared (placed by hand?)" : "its hold job is gone (cancelled by hand?)");
        else if (placed && !m_listed)
            qCInfo(lcSlurm, "GPU %d is already held (job %lld, from an earlier run)", gpu->index,
                   qlonglong(holds.first().id));
        gpu->holdPlaced = placed;
        gpu->holdIds.clear();
        for (const Slurm::Job &job : holds)
            gpu->holdIds.append(job.id);
    }
}

void SlurmLender::scheduleRetry()
{
    const qint64 now = m_clock->nowMs();
    qint64 next = 0;
    const auto consider = [&](qint64 at) {
        if (at > now && (next == 0 || at < next))
            next = at;
    };
    for (const Gpu *gpu : std::as_const(m_gpus))
        if (!gpu->command && !gpu->gaveUp)
            consider(gpu->retryAtMs);
    if (!m_listed && !m_listing)
        consider(m_listRetryAtMs);
    if (next == 0)
        return;
    if (!m_retryTimer->isActive() || m_retryTimer->remainingTime() > next - now)
        m_retryTimer->start(int(qMin<qint64>(next - now, kMaxRetryMs)));
}

void SlurmLender::maybeFinishStopAll()
{
    if (!m_stoppingAll)
        return;
    for (const Gpu *gpu : std::as_const(m_gpus))
        if (gpu->command || (!gpu->holdPlaced && !gpu->gaveUp))
            return;
    finishStopAll();
}

void SlurmLender::finishStopAll()
{
    if (!m_stoppingAll)
        return;
    m_stoppingAll = false;
    m_stopAllTimer->stop();
    for (const Gpu *gpu : std::as_const(m_gpus))
        if (!gpu->holdPlaced)
            qCWarning(lcSlurm, "GPU %d could not be held: lab jobs may land on it while idlegpu is not running",
                      gpu->index);
    Q_EMIT allStopped();
}

void SlurmLender::setGpuDevices(const QList<GpuDevice> &devices)
{
    m_gresOrder = gresOrderOf(devices);
}

std::optional<QByteArray> SlurmLender::runOnce(const QString &program, const QStringList &arguments, int timeoutMs,
                                               QString *error, const std::optional<QProcessEnvironment> &environment)
{
    QProcess process;
    process.setStandardInputFile(QProcess::nullDevice());
    if (environment)
        process.setProcessEnvironment(*environment);
    process.start(program, arguments);
    const bool started = process.waitForStarted(timeoutMs);
    const bool finished = started && process.waitForFinished(timeoutMs);
    if (started && !finished) {
        process.kill();
        process.waitForFinished(kKillGraceMs);
    }
    if (!finished || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        if (error) {
            const QString name = program.mid(program.lastIndexOf(QLatin1Char('/')) + 1);
            const QString message = Slurm::errorOf(process.readAllStandardError());
            if (!started)
                *error = QStringLiteral("%1 cannot be run (%2)").arg(name, process.errorString());
            else if (!finished)
                *error = QStringLiteral("%1 got no answer within %2 s").arg(name).arg(timeoutMs / 1000.0);
            else
                *error = message.isEmpty() ? QStringLiteral("%1 failed (exit code %2)").arg(name).arg(process.exitCode())
                                           : QStringLiteral("%1: %2").arg(name, message);
        }
        return std::nullopt;
    }
    return process.readAllStandardOutput();
}

std::optional<Slurm::NodeView> SlurmLender::listOnce(const SlurmConfig &slurm, const QList<int> &gresOrder,
                                                     QString *error, const SlurmCommands &commands)
{
    const std::optional<QByteArray> output =
        runOnce(commands.scontrol, Slurm::listArguments(), commands.commandTimeoutMs, error);
    if (!output)
        return std::nullopt;
    return Slurm::viewOfNode(Slurm::parseShowJobs(*output), slurm, gresOrder);
}

QHash<QString, WorkloadRuntime> SlurmLender::lookOnce(const Config &config, const QList<GpuDevice> &devices,
                                                      const SlurmCommands &commands)
{
    QString error;
    const std::optional<Slurm::NodeView> view = listOnce(config.slurm, gresOrderOf(devices), &error, commands);
    QHash<QString, WorkloadRuntime> runtimes;
    for (const WorkloadConfig &workload : config.workloads) {
        if (workload.kind() != WorkloadKind::SlurmLending)
            continue;
        const int gpu = workload.gpus.indices.value(0, -1);
        WorkloadRuntime runtime;
        runtime.id = workload.id;
        runtime.gpus = {gpu};
        if (!view) {
            runtime.unreachable = error;
        } else {
            runtime.state = view->holds.contains(gpu) ? WorkloadRuntime::Stopped : WorkloadRuntime::Running;
            runtime.labJobs = labJobsOf(view->labJobs.value(gpu));
        }
        runtimes.insert(workload.id, runtime);
    }
    return runtimes;
}
