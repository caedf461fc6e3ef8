// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "slurm/slurmlender.h"

// Every command runs through QProcess, asynchronously, under a timeout (Slurm's clients hang for seconds while
// slurmctld is down), one at a time per GPU; a failed one is retried with a backoff and its reason shown
// (WorkloadRuntime::unreachable). Holds are idempotent: a listing of the jobs (squeue --json, slurm/slurmjobs.h)
// comes before the first command, so an existing hold job (from an earlier run) counts as held and duplicates are
// cancelled, all but the one salloc gave this run (Slurm::holdToKeep()); the listing is read again every kRefreshMs
// to converge on what is wanted (a hold cancelled by hand is placed again) and to name the lab's jobs on each GPU. A
// hold is root's job of the hold partition with the hold's name on this node, as Slurm's JSON says, never text a
// lab user wrote; a release or a duplicate is cancelled by its id and every filter that narrows it to such a job
// (Slurm::cancelArguments()). The listing reads the node's state too (sinfo --json): a node drained with a reason of
// idlegpu's own ("idlegpu: not running on ws3 ..." by its prolog or health check, slurm/guardfile.h) is resumed
// before any hold; a drain of anyone else's is left alone. A listing over Slurm::kMaxListingBytes, or one that is no
// JSON, counts as Slurm unreachable; it is parsed on a pool thread, not the monitor's (1,000 jobs take 32 ms,
// bench_slurmlisting). A GPU is held until the policy lends it: from the first workloads given, and
// again by stopAll(), which emits allStopped() once every hold is placed or has failed.

#include "base/logging.h"
#include "base/printablename.h"
#include "slurm/guardfile.h"
#include "slurm/labprocesses.h"
#include "slurm/slurmcommands.h"

#include <QElapsedTimer>
#include <QFutureWatcher>
#include <QProcess>
#include <QPromise>
#include <QThreadPool>
#include <QTimer>

#include <algorithm>
#include <csignal>
#include <memory>
#include <sys/prctl.h>
#include <unistd.h>

namespace {
// After a timeout the command gets SIGTERM (salloc then revokes its pending request), and SIGKILL this much later.
constexpr int kKillGraceMs = 1'000;
constexpr qint64 kFirstRetryMs = 1'000;

// A command's messages (salloc's, scancel's, or any listing's on stderr): a few lines.
constexpr qsizetype kMaxMessageBytes = 64 * 1024;

QString programName(const QString &program)
{
    return program.mid(program.lastIndexOf(QLatin1Char('/')) + 1);
}

// Whether a command launch() ran did what it was asked: started, answered in time, exit status 0.
bool succeeded(const QProcess *process, bool timedOut)
{
    return !timedOut && process->error() != QProcess::FailedToStart && process->exitStatus() == QProcess::NormalExit
           && process->exitCode() == 0;
}

// The reason a command failed, in words: "salloc: Unable to contact slurm controller (connect failure)", from its
// `messages`.
QString failureOf(const QString &program, const QProcess *process, bool timedOut, int timeoutMs,
                  const QByteArray &messages)
{
    const QString name = programName(program);
    if (process->error() == QProcess::FailedToStart)
        return QStringLiteral("%1 cannot be run (%2)").arg(name, process->errorString());
    if (timedOut)
        return QStringLiteral("%1 got no answer within %2 s").arg(name).arg(timeoutMs / 1000.0);
    if (process->exitStatus() == QProcess::CrashExit)
        return QStringLiteral("%1 crashed").arg(name);
    const QString error = Slurm::errorOf(messages);
    return error.isEmpty() ? QStringLiteral("%1 failed (exit code %2)").arg(name).arg(process->exitCode())
                           : QStringLiteral("%1: %2").arg(name, error);
}

// The hold salloc has just granted: job `id`, running on this node.
Slurm::Job placedHold(const SlurmConfig &slurm, int gpu, qint64 id)
{
    Slurm::Job job;
    job.id = id;
    job.name = Slurm::holdJobName(gpu);
    job.uid = 0;
    job.user = QStringLiteral("root");
    job.state = QStringLiteral("RUNNING");
    job.partition = slurm.partition;
    job.nodeList = slurm.node;
    return job;
}

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
    QList<Slurm::Job> holds; // idlegpu's hold jobs of this GPU (placed with no id known: none)
    qint64 placedId = 0;     // the job id salloc printed for the last hold placed, while the listing still shows it
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
    m_labProcesses = new LabProcesses(this);
    if (const QString reclaim = qEnvironmentVariable("IDLEGPU_LAB_RECLAIM"); !reclaim.isEmpty()) {
        if (reclaim == QLatin1String("hold"))
            m_reclaim = Reclaim::HoldOnly;
        else if (reclaim == QLatin1String("requeue"))
            m_reclaim = Reclaim::Requeue;
        qCWarning(lcSlurm, "IDLEGPU_LAB_RECLAIM=%s: taking GPUs back from the lab %s, for the bench",
                  qPrintable(reclaim),
                  m_reclaim == Reclaim::Direct ? "directly (an unknown word)" : "through Slurm first");
    }
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
    for (const auto &[index, gpu] : m_gpus) {
        if (gpu->command) {
            gpu->command->disconnect(this);
            gpu->command->kill();
            gpu->command->waitForFinished(kKillGraceMs); // reaped at once after SIGKILL; only at exit
        }
    }
    if (m_listing) {
        m_listing->disconnect(this);
        m_listing->kill();
        m_listing->waitForFinished(kKillGraceMs);
    }
}

SlurmLender::Gpu *SlurmLender::gpuOf(const QString &id) const
{
    for (const auto &[index, gpu] : m_gpus)
        if (gpu->id == id)
            return gpu.get();
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
    std::unique_ptr<Gpu> &gpu = m_gpus[index];
    if (!gpu) {
        gpu = std::make_unique<Gpu>();
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
        // First the lab job's processes on the GPU, which idlegpu as root reaches in a millisecond where Slurm takes
        // a hundred; then Slurm's books: the requeue of their jobs and the hold.
        const QList<qint64> jobs = m_reclaim == Reclaim::Direct
                                       ? m_labProcesses->terminate(gpu->index, m_slurm.stopTimeoutSeconds * 1000)
                                       : m_labProcesses->jobsOn(gpu->index);
        qCInfo(lcSlurm, "holding GPU %d for the owner: %s", gpu->index, qPrintable(reason));
        gpu->wantLent = false;
        gpu->failures = 0;
        gpu->retryAtMs = 0;
        if (m_reclaim != Reclaim::HoldOnly)
            requeue(*gpu, jobs);
    }
    converge(*gpu);
    converge();
}

void SlurmLender::setGpuHolders(const QList<Holder> &holders)
{
    m_labProcesses->track(holders);
}

// The jobs whose processes were signalled, as their slurmstepd names them, are requeued, so that they run again
// elsewhere rather than end failed: Slurm requeues a batch job that has just ended too. Not the jobs of the last
// listing (up to kRefreshMs old): one of them may have ended well since, and a requeue would run it again. A job not
// signalled is the hold's to preempt.
void SlurmLender::requeue(const Gpu &gpu, const QList<qint64> &jobs)
{
    if (jobs.isEmpty())
        return;
    const QStringList arguments = Slurm::requeueArguments(jobs);
    qCDebug(lcSlurm).noquote() << m_commands.scontrol << arguments.join(QLatin1Char(' '));
    launch(m_commands.scontrol, arguments, m_commands.commandTimeoutMs, Channels::Merged, kMaxMessageBytes,
           [gpu = gpu.index, jobs = arguments.constLast()](const Outcome &outcome) {
               if (outcome.failure.isEmpty())
                   qCInfo(lcSlurm, "GPU %d: job %s requeued", gpu, qPrintable(jobs));
               else // a job that the hold preempted first is pending already
                   qCInfo(lcSlurm, "GPU %d: job %s not requeued: %s", gpu, qPrintable(jobs),
                          qPrintable(outcome.failure));
           });
}

void SlurmLender::stopAll(const QString &reason)
{
    if (!m_gpus.empty()) // not in Slurm mode: nothing to say
        qCInfo(lcSlurm, "holding every GPU for the owner: %s", qPrintable(reason));
    m_stoppingAll = true;
    m_refreshTimer->stop();
    for (const auto &[index, gpu] : m_gpus) {
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
    m_gpus.erase(gpu->index);
}

QHash<QString, WorkloadRuntime> SlurmLender::runtimes() const
{
    QHash<QString, WorkloadRuntime> result;
    for (const auto &[index, gpu] : m_gpus)
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
    if (!m_listed && !m_gpus.empty() && !listing() && (m_stoppingAll || m_listRetryAtMs <= m_clock->nowMs()))
        list();
    QList<Gpu *> gpus; // converging one may change m_gpus
    for (const auto &[index, gpu] : m_gpus)
        gpus.append(gpu.get());
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
    if (!gpu.wantLent && !gpu.holdPlaced && !m_nodeDrained)
        runCommand(gpu, Op::Hold);
    else if (!gpu.wantLent && gpu.holds.size() > 1)
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
        arguments = Slurm::cancelArguments(m_slurm, gpu.index, gpu.holds);
        break;
    case Op::CancelDuplicates: {
        program = m_commands.scancel;
        QList<Slurm::Job> others = gpu.holds;
        const Slurm::Job kept = others.takeAt(Slurm::holdToKeep(gpu.holds, gpu.placedId));
        arguments = Slurm::cancelArguments(m_slurm, gpu.index, others);
        qCInfo(lcSlurm, "GPU %d has %lld hold jobs: keeping job %lld%s, cancelling the others", gpu.index,
               qlonglong(gpu.holds.size()), qlonglong(kept.id), kept.id == gpu.placedId ? " (placed now)" : "");
        break;
    }
    }
    qCDebug(lcSlurm).noquote() << program << arguments.join(QLatin1Char(' '));
    gpu.op = op;
    gpu.commandStartedMs = m_clock->nowMs();
    const int index = gpu.index;
    gpu.command = launch(program, arguments, timeoutMs, Channels::Merged, kMaxMessageBytes,
                         [this, index, op](const Outcome &outcome) { onCommandFinished(index, op, outcome); });
}

QProcess *SlurmLender::launch(const QString &program, const QStringList &arguments, int timeoutMs, Channels channels,
                              qsizetype maxOutputBytes, std::function<void(const Outcome &)> done)
{
    auto *process = new QProcess(this);
    process->setProcessChannelMode(channels == Channels::Merged ? QProcess::MergedChannels
                                                                : QProcess::SeparateChannels);
    process->setStandardInputFile(QProcess::nullDevice());
    auto timedOut = std::make_shared<bool>(false);
    auto tooLong = std::make_shared<bool>(false);
    auto reported = std::make_shared<bool>(false);
    auto *timer = new QTimer(process);
    timer->setSingleShot(true);
    connect(timer, &QTimer::timeout, process, [process, timedOut] {
        *timedOut = true;
        process->terminate();
        QTimer::singleShot(kKillGraceMs, process, [process] { process->kill(); });
    });
    // QProcess keeps what it reads: a listing grown past its bound is cut short rather than held.
    const auto bound = [process, tooLong, maxOutputBytes] {
        if (!*tooLong && process->bytesAvailable() > maxOutputBytes) {
            *tooLong = true;
            process->kill();
        }
    };
    connect(process, &QProcess::readyReadStandardOutput, this, bound);
    // Apart (Channels::Separate), the messages: the first ones say why; more say nothing more.
    auto messages = std::make_shared<QByteArray>();
    if (channels == Channels::Separate) {
        connect(process, &QProcess::readyReadStandardError, this, [process, messages] {
            const QByteArray more = process->readAllStandardError();
            messages->append(more.left(qMax<qsizetype>(0, kMaxMessageBytes - messages->size())));
        });
    }
    const auto finish = [process, program, timeoutMs, channels, maxOutputBytes, timedOut, tooLong, messages, reported,
                         done] {
        if (std::exchange(*reported, true))
            return;
        Outcome outcome;
        outcome.timedOut = *timedOut;
        const QByteArray errors =
            channels == Channels::Merged ? QByteArray() : *messages + process->readAllStandardError().left(kMaxMessageBytes);
        if (*tooLong) {
            outcome.failure = QStringLiteral("%1's answer is over %2 MiB").arg(programName(program)).arg(maxOutputBytes >> 20);
        } else {
            outcome.output = process->readAllStandardOutput();
            if (!succeeded(process, *timedOut))
                outcome.failure = failureOf(program, process, *timedOut, timeoutMs,
                                            errors.isEmpty() ? outcome.output : errors);
        }
        done(outcome);
        process->deleteLater();
    };
    connect(process, &QProcess::finished, this, finish);
    connect(process, &QProcess::errorOccurred, this, [process, finish](QProcess::ProcessError error) {
        if (error == QProcess::FailedToStart)
            finish();
    });
    // A command never outlives idlegpu: killed (SIGKILL, a crash) while a hold's salloc waits for slurmctld, idlegpu
    // would leave it waiting for good against one that is gone. SIGTERM has salloc revoke its request; the alarm,
    // which survives exec and which salloc does not catch, ends one that hangs while it revokes.
    const pid_t parent = ::getpid();
    const unsigned alarmSeconds = unsigned((timeoutMs + kKillGraceMs) / 1000 + 2);
    process->setChildProcessModifier([parent, alarmSeconds] {
        ::prctl(PR_SET_PDEATHSIG, SIGTERM);
        if (::getppid() != parent) // idlegpu ended before the line above
            ::_exit(127);
        ::alarm(alarmSeconds);
    });
    process->start(program, arguments);
    timer->start(timeoutMs);
    return process;
}

void SlurmLender::onCommandFinished(int gpuIndex, Op op, const Outcome &outcome)
{
    const auto found = m_gpus.find(gpuIndex);
    if (found == m_gpus.end())
        return;
    Gpu *gpu = found->second.get();
    gpu->lastCommandEnd = ++m_commandsFinished;
    if (outcome.failure.isEmpty()) {
        gpu->failures = 0;
        gpu->retryAtMs = 0;
        gpu->unreachable.clear();
        switch (op) {
        case Op::Hold: {
            gpu->holdPlaced = true;
            gpu->holds.clear();
            const std::optional<qint64> id = Slurm::jobIdOfSalloc(outcome.output);
            gpu->placedId = id.value_or(0);
            if (id) // granted: salloc --no-shell returns once it is
                gpu->holds.append(placedHold(m_slurm, gpuIndex, *id));
            qCInfo(lcSlurm, "GPU %d held for the owner (job %s, granted in %lld ms)", gpuIndex,
                   id ? qPrintable(QString::number(*id)) : "?", qlonglong(m_clock->nowMs() - gpu->commandStartedMs));
            break;
        }
        case Op::Release:
            gpu->holdPlaced = false;
            gpu->holds.clear();
            gpu->placedId = 0;
            qCInfo(lcSlurm, "GPU %d lent to the lab", gpuIndex);
            // Name the lab's job that lands there soon, not at the next refresh.
            QTimer::singleShot(kSoonAfterReleaseMs, this, &SlurmLender::list);
            break;
        case Op::CancelDuplicates:
            gpu->holds = {gpu->holds.at(Slurm::holdToKeep(gpu->holds, gpu->placedId))};
            break;
        }
    } else {
        fail(*gpu, outcome.failure);
        // A command that timed out may have acted all the same (a hold granted late): read the jobs before the next.
        if (outcome.timedOut)
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
    if (listing() || m_gpus.empty())
        return;
    m_listingStartedAt = m_commandsFinished;
    m_listing = launch(m_commands.squeue, Slurm::listArguments(), m_commands.commandTimeoutMs, Channels::Separate,
                       Slurm::kMaxListingBytes, [this](const Outcome &outcome) { onListFinished(outcome); });
}

void SlurmLender::onListFinished(const Outcome &outcome)
{
    m_listing = nullptr;
    if (!outcome.failure.isEmpty()) {
        listingFailed(outcome.failure);
        return;
    }
    QList<int> gresOrder = m_gresOrder;
    if (gresOrder.isEmpty()) {
        for (const auto &[index, gpu] : m_gpus) // by index
            gresOrder.append(index);
    }
    // Parsed on a pool thread: a lab's thousands of jobs take a third of a second (bench_slurmlisting), which the
    // monitor's thread, that stops workloads when an owner comes, does not wait for.
    auto promise = std::make_shared<QPromise<ParsedListing>>();
    auto *watcher = new QFutureWatcher<ParsedListing>(this);
    m_parsing = watcher;
    const SlurmConfig slurm = m_slurm;
    const QString squeue = programName(m_commands.squeue);
    connect(watcher, &QFutureWatcherBase::finished, this, [this, watcher, slurm] {
        watcher->deleteLater();
        m_parsing = nullptr;
        if (!(slurm == m_slurm)) { // the settings changed meanwhile: read again
            converge();
            return;
        }
        const ParsedListing parsed = watcher->future().resultCount() > 0 ? watcher->result() : ParsedListing();
        if (!parsed.view) {
            listingFailed(parsed.error.isEmpty() ? QStringLiteral("the listing could not be read") : parsed.error);
            return;
        }
        onListParsed(*parsed.view);
    });
    watcher->setFuture(promise->future());
    QThreadPool::globalInstance()->start([promise, output = outcome.output, slurm, gresOrder, squeue] {
        promise->start();
        ParsedListing parsed;
        QString error;
        if (const std::optional<QList<Slurm::Job>> jobs = Slurm::parseJobsJson(output, &error))
            parsed.view = Slurm::viewOfNode(*jobs, slurm, gresOrder);
        else
            parsed.error = QStringLiteral("%1's answer: %2").arg(squeue, error);
        promise->addResult(parsed);
        promise->finish();
    });
}

void SlurmLender::listingFailed(const QString &problem)
{
    ++m_listFailures;
    m_listRetryAtMs = m_clock->nowMs() + backoffMs(m_listFailures);
    m_listProblem = problem;
    qCWarning(lcSlurm, "Slurm unreachable: %s; trying again in %lld s", qPrintable(m_listProblem),
              qlonglong((m_listRetryAtMs - m_clock->nowMs() + 999) / 1000));
    if (m_stoppingAll && !m_listed)
        for (const auto &[index, gpu] : m_gpus)
            gpu->gaveUp = true;
    converge();
    maybeFinishStopAll();
}

void SlurmLender::onListParsed(const Slurm::NodeView &view)
{
    if (!m_listProblem.isEmpty())
        qCInfo(lcSlurm, "Slurm answers again");
    m_listFailures = 0;
    m_listProblem.clear();
    // The node's state belongs to the listing: before the first hold, since a drained node gets none.
    m_listing = launch(m_commands.sinfo, Slurm::nodeArguments(m_slurm.node), m_commands.commandTimeoutMs,
                       Channels::Separate, Slurm::kMaxListingBytes,
                       [this, view](const Outcome &node) { onNodeShown(view, node); });
}

void SlurmLender::onNodeShown(const Slurm::NodeView &view, const Outcome &outcome)
{
    m_listing = nullptr;
    QString error = outcome.failure;
    std::optional<Slurm::NodeState> node;
    if (error.isEmpty())
        node = Slurm::parseNodeJson(outcome.output, m_slurm.node, &error);
    if (!node) {
        // The holds do not wait for it: only a drain of idlegpu's own goes unresumed until the next listing.
        qCDebug(lcSlurm, "cannot read the state of node %s: %s", qPrintable(m_slurm.node), qPrintable(error));
    } else if (node->drained() && node->reason.startsWith(QLatin1String(SlurmGuard::kReasonPrefix))
               && !m_stoppingAll) {
        // Drained by idlegpu's prolog or health check while idlegpu was not running (or a GPU was in use): it runs now.
        qCInfo(lcSlurm, "node %s is drained by idlegpu (\"%s\"): resuming it", qPrintable(m_slurm.node),
               qPrintable(printableName(node->reason)));
        m_listing = launch(m_commands.scontrol, Slurm::resumeArguments(m_slurm.node), m_commands.commandTimeoutMs,
                           Channels::Merged, kMaxMessageBytes, [this, view](const Outcome &resume) {
                               m_listing = nullptr;
                               if (!resume.failure.isEmpty())
                                   qCWarning(lcSlurm, "cannot resume node %s: %s", qPrintable(m_slurm.node),
                                             qPrintable(resume.failure));
                               else
                                   qCInfo(lcSlurm, "node %s resumed", qPrintable(m_slurm.node));
                               finishListing(view);
                           });
        return;
    } else if (node->drained() && node->reason != m_foreignDrainSeen) {
        qCInfo(lcSlurm,
               "node %s is drained (\"%s\"), not by idlegpu: left as it is; no lab job lands here, so its "
               "GPUs need no hold",
               qPrintable(m_slurm.node), qPrintable(printableName(node->reason)));
    }
    // Slurm starts nothing on a drained node, a hold neither: the drain keeps the lab off the owner's GPUs, and the
    // lab job that an owner's open finds there is signalled and requeued all the same (stop()).
    const bool drained = node && node->drained();
    m_foreignDrainSeen = drained ? node->reason : QString();
    if (m_nodeDrained && !drained)
        qCInfo(lcSlurm, "node %s is no longer drained: the GPUs in use are held again", qPrintable(m_slurm.node));
    m_nodeDrained = drained;
    if (drained) // a hold asked before the drain was seen waited in vain: no failure of Slurm's
        for (const auto &[index, gpu] : m_gpus)
            if (!gpu->wantLent && !gpu->holdPlaced && !gpu->command) {
                gpu->failures = 0;
                gpu->retryAtMs = 0;
                gpu->unreachable.clear();
            }
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
    for (const auto &[index, gpu] : m_gpus) {
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
        gpu->holds = holds;
        if (std::none_of(holds.begin(), holds.end(),
                         [placedId = gpu->placedId](const Slurm::Job &job) { return job.id == placedId; }))
            gpu->placedId = 0;
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
    for (const auto &[index, gpu] : m_gpus)
        if (!gpu->command && !gpu->gaveUp)
            consider(gpu->retryAtMs);
    if (!m_listed && !listing())
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
    for (const auto &[index, gpu] : m_gpus)
        if (gpu->command || (!gpu->holdPlaced && !gpu->gaveUp && !m_nodeDrained))
            return;
    finishStopAll();
}

void SlurmLender::finishStopAll()
{
    if (!m_stoppingAll)
        return;
    m_stoppingAll = false;
    m_stopAllTimer->stop();
    for (const auto &[index, gpu] : m_gpus)
        if (!gpu->holdPlaced && !m_nodeDrained)
            qCWarning(lcSlurm, "GPU %d could not be held: lab jobs may land on it while idlegpu is not running",
                      gpu->index);
    Q_EMIT allStopped();
}

void SlurmLender::setGpuDevices(const QList<GpuDevice> &devices)
{
    m_gresOrder = gresOrderOf(devices);
}

// A command fails when it cannot be run, times out, writes more than `maxOutputBytes` (it is then killed) or exits with
// an error.
std::optional<QByteArray> SlurmLender::runOnce(const QString &program, const QStringList &arguments, int timeoutMs,
                                               QString *error, const std::optional<QProcessEnvironment> &environment,
                                               qsizetype maxOutputBytes)
{
    QProcess process;
    process.setStandardInputFile(QProcess::nullDevice());
    if (environment)
        process.setProcessEnvironment(*environment);
    QElapsedTimer elapsed;
    elapsed.start();
    process.start(program, arguments);
    const bool started = process.waitForStarted(timeoutMs);
    QByteArray output;
    bool tooLong = false;
    // Read as it comes, so that an answer past its bound is cut short rather than held.
    while (started && process.state() != QProcess::NotRunning && !tooLong) {
        const qint64 left = timeoutMs - elapsed.elapsed();
        if (left <= 0)
            break;
        if (!process.waitForReadyRead(int(left)) && process.state() != QProcess::NotRunning)
            process.waitForFinished(int(qMax<qint64>(1, timeoutMs - elapsed.elapsed())));
        output += process.readAllStandardOutput();
        tooLong = output.size() > maxOutputBytes;
    }
    const bool finished = started && process.state() == QProcess::NotRunning && !tooLong;
    if (started && !finished) {
        process.kill();
        process.waitForFinished(kKillGraceMs);
    }
    if (finished)
        output += process.readAllStandardOutput();
    tooLong = tooLong || output.size() > maxOutputBytes;
    if (tooLong || !finished || process.exitStatus() != QProcess::NormalExit || process.exitCode() != 0) {
        if (error) {
            const QString name = programName(program);
            const QString message = Slurm::errorOf(process.readAllStandardError().left(kMaxMessageBytes));
            if (!started)
                *error = QStringLiteral("%1 cannot be run (%2)").arg(name, process.errorString());
            else if (tooLong)
                *error = QStringLiteral("%1's answer is over %2 MiB").arg(name).arg(maxOutputBytes >> 20);
            else if (!finished)
                *error = QStringLiteral("%1 got no answer within %2 s").arg(name).arg(timeoutMs / 1000.0);
            else
                *error = message.isEmpty() ? QStringLiteral("%1 failed (exit code %2)").arg(name).arg(process.exitCode())
                                           : QStringLiteral("%1: %2").arg(name, message);
        }
        return std::nullopt;
    }
    return output;
}

std::optional<Slurm::NodeView> SlurmLender::listOnce(const SlurmConfig &slurm, const QList<int> &gresOrder,
                                                     QString *error, const SlurmCommands &commands)
{
    const std::optional<QByteArray> output =
        runOnce(commands.squeue, Slurm::listArguments(), commands.commandTimeoutMs, error);
    if (!output)
        return std::nullopt;
    QString parseError;
    const std::optional<QList<Slurm::Job>> jobs = Slurm::parseJobsJson(*output, &parseError);
    if (!jobs) {
        if (error)
            *error = QStringLiteral("%1's answer: %2").arg(programName(commands.squeue), parseError);
        return std::nullopt;
    }
    return Slurm::viewOfNode(*jobs, slurm, gresOrder);
}

// A workload is held (stopped), else lent (running) with the lab's jobs on the GPU, or unreachable, with the reason,
// when Slurm cannot be asked. `devices` are in gres.conf's order.
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
