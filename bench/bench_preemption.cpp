// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// Preemption latency: the time from a foreign open() of a GPU node to the SIGTERM arriving in the workload, for
// the real idlegpu binary and, in the same run on the same bystanders, for gpu_mon's method (gpumon_poller:
// `fuser` on all nodes every 10 s). Prints a table and the ratio; never a pass/fail.
//
//   bench_preemption [--trials N] [--bystanders N] [--fds-per-bystander N] [--no-gpumon]
//                    [--gpumon-gpus N] [--gpumon-interval-ms N] [--stuck-log] [--flood N [--flood-user USER]]
//
// --flood N: idlegpu publishes its D-Bus service (docs/dbus.md) on a private bus, and a caller of another user
// (busflooder, as USER, default nobody, when run as root; as the same user otherwise) sends it N calls a second, half
// GetState, half Pause without interactive authorization, while the trials alternate: flood off, flood on, off, on...
// in one run, so that both halves see the same machine. As root the bus is system-like (tests/privatesystembus.h:
// the system bus's default-deny policy and the package's policy file; no polkitd answers there, so every Pause is
// refused, as RateLimited or AuthorityUnavailable); otherwise a session-like one. Prints p50/p99 of both halves and
// the calls the service answered per second while flooded.
//
// --stuck-log (as root, with the tests built): idlegpu's workload runs as nobody with log= a file of nobody's own
// FUSE mount (test_fusefile --hang-writes) whose daemon answers no write, so that the workload's log writer is stuck
// in the kernel from its first line on; the figures are then the preemption latency with a stuck log.
//
// Bystanders are idle processes holding files open, so that the /proc scan (and fuser) has real work to do.
// Each trial is a new process that opens nvidiactl, nvidia-uvm and the GPU's node, in that order, and holds them,
// as a CUDA job does (a compute client: busy_when = auto stops the workload for it at once); the latency counts
// from its first open. A trial whose workload was
// stopped before the open, or ended without a SIGTERM, measures nothing: it is discarded and counted, by reason.
//
// gpu_mon answers at its next poll, so one trial there takes a poll period to be seen and another for the
// workload to come back. To keep 200 trials to a few minutes, the gpu_mon side has several fake GPUs (default:
// one per 8 trials), one workload each, all under the one poller, as gpu_mon polls all GPUs at once; their
// trials run interleaved. Each trial's open comes a uniformly random time (0 to one poll period: the interval
// plus the poll's own time, as last measured) after its workload started, and the workload starts at a poll,
// so the open is random with respect to the poll phase.
#include "bystanders.h"
#include "devices/fakegpufolder.h"
#include "privatebus.h"
#include "privatesystembus.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QMap>
#include <QProcess>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QThread>

#include <random>

#include <algorithm>
#include <cstdio>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <memory>
#include <vector>

static long long nowUs()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

// The lines "<what> <pid> <t>" that sigterm_receiver appends to an events file, read in order and each once. A
// trial pairs its open with the first "term" of its own workload after that workload's "ready": never with the
// newest line of the file, which may be another workload's (a pid used again), nor with a line still being
// written (a write across a page boundary can be read half done, its time cut short): a line counts once its
// newline is there.
class EventLog
{
public:
    struct Event
    {
        QByteArray what;
        qint64 pid = 0;
        long long t = 0;
    };

    explicit EventLog(const QString &path) : m_path(path) {}

    QList<Event> readNew()
    {
        QFile file(m_path);
        if (!file.open(QIODevice::ReadOnly) || !file.seek(m_offset))
            return {};
        const QByteArray bytes = file.readAll();
        const qsizetype end = bytes.lastIndexOf('\n');
        if (end < 0)
            return {};
        m_offset += end + 1;
        QList<Event> events;
        for (const QByteArray &line : bytes.left(end).split('\n')) {
            const QList<QByteArray> parts = line.split(' ');
            bool pidOk = false, tOk = false;
            Event event{parts.value(0), parts.value(1).toLongLong(&pidOk), parts.value(2).toLongLong(&tOk)};
            if (parts.size() == 3 && pidOk && tOk)
                events.append(event);
        }
        return events;
    }

private:
    QString m_path;
    qint64 m_offset = 0;
};

// A workload from its "ready" until its "term" (or another's "ready": it ended without a SIGTERM).
struct WorkloadRun
{
    qint64 pid = 0;
    long long readyAt = 0;
    bool running() const { return pid != 0; }
};

// Why trials were set aside, with how many each.
using Discards = QMap<QByteArray, int>;

// The nodes a CUDA job opens, in its order: nvidiactl, nvidia-uvm, then the GPU's node (all in `dev`).
static std::vector<QByteArray> cudaJobNodes(const QString &dev, int gpu)
{
    return {QFile::encodeName(FakeGpuFolder::ctlNode(dev)), QFile::encodeName(FakeGpuFolder::uvmNode(dev)),
            QFile::encodeName(FakeGpuFolder::gpuNode(dev, gpu))};
}

// The user's job: a new process, as a CUDA job is, that takes the time, opens the nodes and holds them until
// killed. Returns its pid and the time just before its first open().
static pid_t startJob(const std::vector<QByteArray> &nodes, long long *openedAt)
{
    int timePipe[2];
    if (pipe(timePipe) != 0)
        return -1;
    const pid_t job = fork();
    if (job == 0) {
        const long long before = nowUs();
        for (const QByteArray &node : nodes)
            (void)open(node.constData(), O_RDONLY);
        (void)!write(timePipe[1], &before, sizeof before);
        pause();
        _exit(0);
    }
    *openedAt = 0;
    if (job > 0)
        (void)!read(timePipe[0], openedAt, sizeof *openedAt);
    close(timePipe[0]);
    close(timePipe[1]);
    return job;
}

static void endJob(pid_t job)
{
    if (job <= 0)
        return; // fork failed: kill(-1) would hit every process of the user
    ::kill(job, SIGKILL);
    waitpid(job, nullptr, 0);
}

struct Latencies
{
    std::vector<double> ms;
    std::vector<double> floodedMs; // with --flood: the trials under the flood (ms holds the others)
    // idlegpu's own figure from its log ("stopped 2.8 ms after the open"): from reading the open's event to sending
    // SIGTERM, without the kernel's delivery on either side.
    std::vector<double> openToStopMs;
    std::vector<bool> trialFlooded; // with --flood: each trial's half, in order, to split openToStopMs where it can
    int failures = 0;
    Discards discarded;
};

// The log= of --stuck-log: a file of nobody's FUSE mount whose daemon leaves every write unanswered, while it runs.
class StuckLog
{
public:
    static constexpr int kNobody = 65534;

    explicit StuckLog(const QString &mountPoint) : m_mountPoint(mountPoint)
    {
        if (geteuid() != 0) {
            m_error = QStringLiteral("--stuck-log needs root (a FUSE mount made by hand, a workload run as nobody)");
            return;
        }
        QDir().mkpath(mountPoint);
        ::chmod(QFile::encodeName(mountPoint).constData(), 0755);
        m_daemon.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_daemon.start(QCoreApplication::applicationDirPath() + QStringLiteral("/test_fusefile"),
                       {mountPoint, QString::number(kNobody), QString::number(kNobody),
                        QStringLiteral("--hang-writes")});
        QByteArray line;
        while (m_daemon.waitForReadyRead(10000) && !line.contains('\n'))
            line += m_daemon.readAllStandardOutput();
        if (!line.startsWith("ready"))
            m_error = QStringLiteral("test_fusefile (built with the tests) did not mount: %1 %2")
                          .arg(QString::fromLocal8Bit(line.trimmed()), m_daemon.errorString());
    }
    ~StuckLog()
    {
        m_daemon.terminate();
        m_daemon.waitForFinished(5000);
    }
    QString error() const { return m_error; }
    QString file() const { return m_mountPoint + QStringLiteral("/data"); }

private:
    QString m_mountPoint;
    QProcess m_daemon;
    QString m_error;
};

// --flood: the private bus idlegpu publishes its service on, and busflooder, the caller of another user on it.
class Flood
{
public:
    struct Figures
    {
        long long answered = 0, errors = 0, limited = 0, sent = 0, skipped = 0, onMs = 0;
    };

    Flood(int rate, const QString &user) : m_rate(rate)
    {
        QString why;
        if (geteuid() == 0) {
            const passwd *account = getpwnam(qPrintable(user));
            if (!account) {
                m_error = QStringLiteral("--flood-user %1: no such user").arg(user);
                return;
            }
            m_uid = account->pw_uid;
            m_gid = account->pw_gid;
            m_user = user;
            const QString policy = QStringLiteral(IDLEGPU_BUS_POLICY);
            m_systemBus = std::make_unique<PrivateSystemBus>();
            if (!m_systemBus->start({policy}, &why))
                m_error = why;
            m_address = m_systemBus->address();
        } else {
            m_user = QString::fromLocal8Bit(qgetenv("USER"));
            m_sessionBus = std::make_unique<PrivateBus>();
            if (!m_sessionBus->start(&why))
                m_error = why;
            m_address = m_sessionBus->address();
        }
    }
    ~Flood() { stop(); }

    QString error() const { return m_error; }
    QString address() const { return m_address; }
    QString user() const { return m_user; }
    bool systemLike() const { return m_systemBus != nullptr; }

    // Starts busflooder (switched off) once the service's name has an owner; false, with the reason, where not.
    bool start()
    {
        const uid_t uid = m_uid;
        const gid_t gid = m_gid;
        const bool drop = geteuid() == 0;
        m_flooder.setChildProcessModifier([uid, gid, drop] {
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (drop
                && (::setgroups(0, nullptr) != 0 || ::setresgid(gid, gid, gid) != 0 || ::setresuid(uid, uid, uid) != 0))
                ::_exit(126);
        });
        m_flooder.setProcessChannelMode(QProcess::ForwardedErrorChannel);
        m_flooder.start(QCoreApplication::applicationDirPath() + QStringLiteral("/busflooder"),
                        {m_address, QString::number(m_rate)});
        if (!m_flooder.waitForStarted()) {
            m_error = QStringLiteral("cannot start busflooder: %1").arg(m_flooder.errorString());
            return false;
        }
        while (!m_flooder.canReadLine() && m_flooder.waitForReadyRead(40000)) {}
        if (m_flooder.readLine().trimmed() != "ready") {
            m_error = QStringLiteral("busflooder found no idlegpu service on the bus (is the service built in?)");
            return false;
        }
        return true;
    }
    void set(bool on)
    {
        if (m_flooder.state() == QProcess::Running)
            ::kill(pid_t(m_flooder.processId()), on ? SIGUSR1 : SIGUSR2);
    }
    // Ends busflooder; its counts, summed over its lines.
    Figures stop()
    {
        if (m_flooder.state() == QProcess::NotRunning)
            return m_figures;
        set(false);
        QThread::msleep(1100); // its last line, with the answers still due
        m_flooder.terminate();
        m_flooder.waitForFinished(5000);
        const QRegularExpression line(QStringLiteral("^second \\d+ on_ms (\\d+) sent (\\d+) answered (\\d+) errors "
                                                     "(\\d+) pending \\d+ skipped (\\d+) limited (\\d+)$"));
        for (const QByteArray &text : m_flooder.readAllStandardOutput().split('\n')) {
            const QRegularExpressionMatch match = line.match(QString::fromUtf8(text));
            if (!match.hasMatch())
                continue;
            m_figures.onMs += match.captured(1).toLongLong();
            m_figures.sent += match.captured(2).toLongLong();
            m_figures.answered += match.captured(3).toLongLong();
            m_figures.errors += match.captured(4).toLongLong();
            m_figures.skipped += match.captured(5).toLongLong();
            m_figures.limited += match.captured(6).toLongLong();
        }
        return m_figures;
    }

private:
    int m_rate;
    uid_t m_uid = 0;
    gid_t m_gid = 0;
    QString m_user;
    QString m_error;
    QString m_address;
    std::unique_ptr<PrivateSystemBus> m_systemBus;
    std::unique_ptr<PrivateBus> m_sessionBus;
    QProcess m_flooder;
    Figures m_figures;
};

// idlegpu --headless on one fake GPU; trials one after another. With `stuckLog`, the workload runs as nobody with
// that log=. With `flood`, idlegpu's service is on the flood's bus, and every second trial is flooded.
static Latencies measureIdlegpu(const QTemporaryDir &dir, int trials, const StuckLog *stuckLog, Flood *flood)
{
    Latencies result;
    const QString dev = dir.filePath(QStringLiteral("dev"));
    FakeGpuFolder::make(dev, 1);
    const QString events = dir.filePath(QStringLiteral("events"));
    const QString binDir = QCoreApplication::applicationDirPath();
    const QString config = dir.filePath(QStringLiteral("idlegpu.conf"));
    QString asNobody;
    if (stuckLog) {
        // nobody's workload appends its events: the folder open for passing, the file for writing.
        ::chmod(QFile::encodeName(dir.path()).constData(), 0711);
        QFile eventsFile(events);
        eventsFile.open(QIODevice::WriteOnly);
        eventsFile.setPermissions(QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther | QFile::WriteOther);
        asNobody = QStringLiteral("user=nobody\ndir=/\nlog=%1\n").arg(stuckLog->file());
    }
    QFile configFile(config);
    configFile.open(QIODevice::WriteOnly);
    configFile.write(QStringLiteral("[defaults]\ninterval_seconds=60\nstart_delay_seconds=0\ndevice_root=%1\n\n"
                                    "[process-bench]\ncmd=%2/sigterm_receiver %3\ngpus=0\nstop_timeout_seconds=2\n%4")
                         .arg(dev, binDir, events, asNobody)
                         .toUtf8());
    configFile.close();

    QProcess idlegpu;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), dir.path());
    env.insert(QStringLiteral("XDG_STATE_HOME"), dir.path()); // its ledger: not the user's
    if (flood) {
        env.insert(QStringLiteral("DBUS_SYSTEM_BUS_ADDRESS"), flood->address());
        env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), flood->address());
    }
    idlegpu.setProcessEnvironment(env);
    idlegpu.setStandardOutputFile(dir.filePath(QStringLiteral("idlegpu.log")));
    idlegpu.setStandardErrorFile(dir.filePath(QStringLiteral("idlegpu.log")));
    idlegpu.start(binDir + QStringLiteral("/idlegpu"), {QStringLiteral("--headless"), QStringLiteral("--config"), config});
    if (!idlegpu.waitForStarted()) {
        fprintf(stderr, "cannot start %s/idlegpu\n", qPrintable(binDir));
        result.failures = trials;
        return result;
    }

    if (flood && !flood->start()) {
        fprintf(stderr, "%s\n", qPrintable(flood->error()));
        ::kill(pid_t(idlegpu.processId()), SIGTERM);
        idlegpu.waitForFinished(20000);
        result.failures = trials;
        return result;
    }
    const std::vector<QByteArray> jobNodes = cudaJobNodes(dev, 0);
    EventLog log(events);
    WorkloadRun workload; // the one running now, as far as the events read so far say
    // Reads the new events; true when `workload` ended meanwhile (its "term" or another's "ready").
    const auto follow = [&log, &workload](long long *termAt) {
        bool ended = false;
        for (const EventLog::Event &event : log.readNew()) {
            if (event.what == "ready") {
                ended = ended || workload.running();
                workload = {event.pid, event.t};
            } else if (event.what == "term" && event.pid == workload.pid) {
                *termAt = event.t;
                workload = {};
                ended = true;
            }
        }
        return ended;
    };
    for (int trial = 0; trial < trials; ++trial) {
        // Flood off, on, off, on...: switched while the workload comes back, so that the flood is in full swing (or
        // over) when the job opens.
        const bool flooded = flood && trial % 2 == 1;
        if (flood) {
            flood->set(flooded);
            result.trialFlooded.push_back(flooded);
        }
        long long termAt = 0;
        const long long startDeadline = nowUs() + 15'000'000LL;
        for (;;) {
            follow(&termAt);
            if (workload.running()) {
                QThread::msleep(20); // let idlegpu finish its own bookkeeping of the start
                if (!follow(&termAt) && workload.running())
                    break; // still the same workload, still running: the trial may open
            } else if (nowUs() > startDeadline) {
                break;
            } else {
                QThread::usleep(500);
            }
        }
        if (!workload.running()) {
            fprintf(stderr, "idlegpu trial %d: the workload did not start\n", trial);
            result.failures += trials - trial;
            break;
        }
        const qint64 pid = workload.pid;
        long long openedAt = 0;
        const pid_t job = startJob(jobNodes, &openedAt);
        termAt = 0;
        bool ended = false;
        for (const long long deadline = nowUs() + 10'000'000LL; !ended && nowUs() < deadline;) {
            QThread::usleep(500);
            ended = follow(&termAt);
        }
        if (job <= 0) {
            ++result.discarded["fork() of the job failed"];
        } else if (!ended) {
            fprintf(stderr, "idlegpu trial %d: no SIGTERM within 10 s\n", trial);
            ++result.failures; // the next trial goes on with the same workload
        } else if (termAt == 0) {
            ++result.discarded["the workload ended without a SIGTERM"];
        } else if (termAt < openedAt) {
            fprintf(stderr, "idlegpu trial %d: workload %lld got its SIGTERM %.2f ms before the job's open\n",
                    trial, pid, double(openedAt - termAt) / 1000.0);
            ++result.discarded["SIGTERM before the job's open (stopped for another reason)"];
        } else {
            (flooded ? result.floodedMs : result.ms).push_back(double(termAt - openedAt) / 1000.0);
        }
        endJob(job);
    }
    ::kill(pid_t(idlegpu.processId()), SIGTERM);
    idlegpu.waitForFinished(20000);
    QFile logFile(dir.filePath(QStringLiteral("idlegpu.log")));
    if (logFile.open(QIODevice::ReadOnly)) {
        const QRegularExpression stopped(QStringLiteral(", stopped (\\d+\\.\\d+) ms after the open$"));
        for (const QByteArray &line : logFile.readAll().split('\n')) {
            const QRegularExpressionMatch match = stopped.match(QString::fromUtf8(line));
            if (match.hasMatch())
                result.openToStopMs.push_back(match.captured(1).toDouble());
        }
    }
    return result;
}

// The poller's period: the interval plus the time one poll takes (fuser, stops and starts), from its last two
// "poll <t>" lines; the interval until there are two.
static long long pollPeriodUs(const QString &polls, int intervalMs)
{
    QFile file(polls);
    if (file.open(QIODevice::ReadOnly)) {
        const QList<QByteArray> lines = file.readAll().trimmed().split('\n');
        if (lines.size() >= 2) {
            const long long last = lines.at(lines.size() - 1).mid(5).toLongLong();
            const long long previous = lines.at(lines.size() - 2).mid(5).toLongLong();
            if (last > previous)
                return last - previous;
        }
    }
    return intervalMs * 1000LL;
}

// gpu_mon's method (gpumon_poller) on `gpus` fake GPUs, their trials interleaved.
static Latencies measureGpumon(const QTemporaryDir &dir, int trials, int gpus, int intervalMs)
{
    Latencies result;
    const QString dev = dir.filePath(QStringLiteral("gpumon-dev"));
    FakeGpuFolder::make(dev, gpus);
    const QString eventsPrefix = dir.filePath(QStringLiteral("gpumon-events"));
    const QString binDir = QCoreApplication::applicationDirPath();
    QStringList arguments{QString::number(intervalMs), binDir + QStringLiteral("/sigterm_receiver"), eventsPrefix};
    // The same jobs as idlegpu's side, though fuser is only asked about the GPUs' nodes, as gpu_mon asks.
    std::vector<std::vector<QByteArray>> jobNodes;
    for (int gpu = 0; gpu < gpus; ++gpu) {
        arguments.append(FakeGpuFolder::gpuNode(dev, gpu));
        jobNodes.push_back(cudaJobNodes(dev, gpu));
    }
    QProcess poller;
    poller.setStandardOutputFile(dir.filePath(QStringLiteral("gpumon.log")));
    poller.setStandardErrorFile(dir.filePath(QStringLiteral("gpumon.log")));
    poller.start(binDir + QStringLiteral("/gpumon_poller"), arguments);
    if (!poller.waitForStarted()) {
        fprintf(stderr, "cannot start %s/gpumon_poller\n", qPrintable(binDir));
        result.failures = trials;
        return result;
    }

    // Per GPU: waiting for a running workload, then for the moment to open, then for its SIGTERM.
    enum class Phase { AwaitStart, AwaitOpen, AwaitTerm, Done };
    struct Gpu
    {
        Phase phase = Phase::AwaitStart;
        WorkloadRun workload;  // running now, as far as its events say
        qint64 trialPid = 0;   // the workload of the trial under way
        long long termAt = 0;  // of trialPid, once its "term" is read
        long long openAt = 0, openedAt = 0, deadline = 0;
        pid_t job = 0;
    };
    std::vector<Gpu> perGpu(static_cast<size_t>(gpus));
    std::vector<EventLog> logs;
    for (int gpu = 0; gpu < gpus; ++gpu)
        logs.emplace_back(eventsPrefix + QString::number(gpu));
    std::mt19937_64 random(std::random_device{}());
    std::uniform_real_distribution<double> phase(0.0, 1.0);
    const QString polls = eventsPrefix + QStringLiteral("polls");
    const long long trialTimeoutUs = 3LL * intervalMs * 1000 + 30 * 1000000LL;
    int started = 0, finished = 0;
    for (Gpu &gpu : perGpu)
        gpu.deadline = nowUs() + trialTimeoutUs;
    while (finished < trials) {
        bool anyActive = false;
        for (size_t i = 0; i < perGpu.size(); ++i) {
            Gpu &gpu = perGpu[i];
            for (const EventLog::Event &event : logs[i].readNew()) {
                if (event.what == "ready") {
                    gpu.workload = {event.pid, event.t};
                } else if (event.what == "term" && event.pid == gpu.workload.pid) {
                    if (event.pid == gpu.trialPid)
                        gpu.termAt = event.t;
                    gpu.workload = {};
                }
            }
            if (gpu.phase == Phase::AwaitStart) {
                if (started >= trials) {
                    gpu.phase = Phase::Done;
                } else if (gpu.workload.running()) {
                    gpu.trialPid = gpu.workload.pid;
                    gpu.termAt = 0;
                    gpu.openAt = gpu.workload.readyAt
                                 + (long long)(phase(random) * double(pollPeriodUs(polls, intervalMs)));
                    gpu.phase = Phase::AwaitOpen;
                    ++started;
                } else if (nowUs() > gpu.deadline) {
                    fprintf(stderr, "gpu_mon GPU %zu: the workload did not start\n", i);
                    gpu.phase = Phase::Done;
                }
            } else if (gpu.phase == Phase::AwaitOpen && gpu.workload.pid != gpu.trialPid) {
                --started; // it ended before the job opened: no trial, wait for the next start
                gpu.phase = Phase::AwaitStart;
            } else if (gpu.phase == Phase::AwaitOpen && nowUs() >= gpu.openAt) {
                gpu.job = startJob(jobNodes[i], &gpu.openedAt);
                gpu.deadline = gpu.openedAt + trialTimeoutUs;
                gpu.phase = Phase::AwaitTerm;
            } else if (gpu.phase == Phase::AwaitTerm) {
                const bool ended = gpu.workload.pid != gpu.trialPid;
                if (ended || nowUs() > gpu.deadline) {
                    if (gpu.job <= 0) {
                        ++result.discarded["fork() of the job failed"];
                    } else if (!ended) {
                        fprintf(stderr, "gpu_mon GPU %zu: no SIGTERM\n", i);
                        ++result.failures;
                    } else if (gpu.termAt == 0) {
                        ++result.discarded["the workload ended without a SIGTERM"];
                    } else if (gpu.termAt < gpu.openedAt) {
                        ++result.discarded["SIGTERM before the job's open (stopped for another reason)"];
                    } else {
                        result.ms.push_back(double(gpu.termAt - gpu.openedAt) / 1000.0);
                    }
                    ++finished;
                    endJob(gpu.job); // the GPU is free again: the next poll restarts the workload
                    gpu.deadline = nowUs() + trialTimeoutUs;
                    gpu.phase = Phase::AwaitStart;
                }
            }
            anyActive = anyActive || gpu.phase != Phase::Done;
        }
        if (!anyActive) {
            result.failures += trials - finished;
            break;
        }
        QThread::msleep(2);
    }
    ::kill(pid_t(poller.processId()), SIGTERM);
    poller.waitForFinished(20000);
    return result;
}

static int discardedCount(const Discards &discards)
{
    int count = 0;
    for (int n : discards)
        count += n;
    return count;
}

static void printDiscards(const Discards &discards)
{
    for (auto it = discards.cbegin(); it != discards.cend(); ++it)
        printf("  discarded: %d trial(s): %s\n", it.value(), it.key().constData());
}

static double percentile(const std::vector<double> &sorted, double p)
{
    if (sorted.empty())
        return 0;
    const size_t index = std::min(sorted.size() - 1, size_t(p / 100.0 * double(sorted.size() - 1) + 0.5));
    return sorted[index];
}

int main(int argc, char **argv)
{
    int trials = 200, bystanders = 0, fdsPerBystander = 20, gpumonGpus = 0, gpumonIntervalMs = 10000;
    bool gpumon = true;
    bool stuckLog = false;
    int floodRate = 0;
    QString floodUser = QStringLiteral("nobody");
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg = argv[i];
        if (arg == "--flood-user" && i + 1 < argc) {
            floodUser = QString::fromLocal8Bit(argv[++i]);
            continue;
        }
        if (arg == "--no-gpumon") {
            gpumon = false;
            continue;
        }
        if (arg == "--stuck-log") {
            stuckLog = true;
            continue;
        }
        const int value = i + 1 < argc ? atoi(argv[++i]) : 0;
        if (arg == "--trials")
            trials = value;
        else if (arg == "--bystanders")
            bystanders = value;
        else if (arg == "--fds-per-bystander")
            fdsPerBystander = value;
        else if (arg == "--gpumon-gpus")
            gpumonGpus = value;
        else if (arg == "--gpumon-interval-ms")
            gpumonIntervalMs = value;
        else if (arg == "--flood")
            floodRate = value;
        else {
            fprintf(stderr, "unknown option %s\n", argv[i - 1]);
            return 2;
        }
    }
    if (trials < 1 || gpumonIntervalMs < 1) {
        fprintf(stderr, "--trials and --gpumon-interval-ms must be positive\n");
        return 2;
    }
    if (floodRate > 0)
        gpumon = false; // the flood's figures are idlegpu's alone, with and without
    if (gpumonGpus < 1)
        gpumonGpus = (trials + 7) / 8; // each GPU does about 8 trials of 2 poll periods: under 3 minutes
    auto bystanderProcesses = std::make_unique<Bystanders>(bystanders, fdsPerBystander);
    QCoreApplication app(argc, argv);

    QTemporaryDir dir;
    dir.setAutoRemove(qEnvironmentVariableIsEmpty("BENCH_KEEP"));
    fprintf(stderr, "work folder: %s\n", qPrintable(dir.path()));
    std::unique_ptr<StuckLog> fuse;
    if (stuckLog) {
        fuse = std::make_unique<StuckLog>(dir.filePath(QStringLiteral("fuse")));
        if (!fuse->error().isEmpty()) {
            fprintf(stderr, "%s\n", qPrintable(fuse->error()));
            return 77;
        }
    }
    std::unique_ptr<Flood> flood;
    if (floodRate > 0) {
        flood = std::make_unique<Flood>(floodRate, floodUser);
        if (!flood->error().isEmpty()) {
            fprintf(stderr, "--flood: %s\n", qPrintable(flood->error()));
            return 77;
        }
    }
    const Latencies idlegpu = measureIdlegpu(dir, trials, fuse.get(), flood.get());
    const Flood::Figures flooded = flood ? flood->stop() : Flood::Figures();
    Latencies gpumonLatencies;
    if (gpumon) {
        fprintf(stderr, "gpu_mon's method: %d trials on %d fake GPUs, fuser every %d ms (about %d s)\n", trials,
                gpumonGpus, gpumonIntervalMs, (trials + gpumonGpus - 1) / gpumonGpus * 2 * gpumonIntervalMs / 1000);
        gpumonLatencies = measureGpumon(dir, trials, gpumonGpus, gpumonIntervalMs);
    }
    bystanderProcesses.reset();

    std::vector<double> ours = idlegpu.ms, theirs = gpumonLatencies.ms, ownFigure = idlegpu.openToStopMs;
    std::sort(ours.begin(), ours.end());
    std::sort(theirs.begin(), theirs.end());
    std::sort(ownFigure.begin(), ownFigure.end());
    const auto mean = [](const std::vector<double> &values) {
        double sum = 0;
        for (double v : values)
            sum += v;
        return values.empty() ? 0 : sum / double(values.size());
    };
    printf("Preemption latency, foreign open() -> SIGTERM in the workload (fake nodes)\n");
    printf("bystanders: %d processes x %d fds\n", bystanders, fdsPerBystander);
    if (stuckLog)
        printf("the workload runs as nobody, its log= on a FUSE file whose daemon answers no write (its writer "
               "stuck)\n");
    printf("idlegpu --headless: %zu trials ok, %d failed, %d discarded\n", ours.size() + idlegpu.floodedMs.size(),
           idlegpu.failures, discardedCount(idlegpu.discarded));
    printDiscards(idlegpu.discarded);
    printf("idlegpu's own open-to-stop figure (its log, event read -> SIGTERM sent): %zu preemptions, p50 %.2f ms, "
           "p90 %.2f ms, max %.2f ms\n",
           ownFigure.size(), percentile(ownFigure, 50), percentile(ownFigure, 90),
           ownFigure.empty() ? 0 : ownFigure.back());
    if (flood) {
        std::vector<double> under = idlegpu.floodedMs;
        std::sort(under.begin(), under.end());
        printf("flood: %d calls/s from user %s (half GetState, half Pause, not interactive) on a %s private bus, "
               "every second trial\n",
               floodRate, qPrintable(flood->user()), flood->systemLike() ? "system-like" : "session-like");
        printf("%-10s %14s %14s\n", "statistic", "flood off ms", "flood on ms");
        printf("%-10s %14zu %14zu\n", "trials", ours.size(), under.size());
        const std::pair<const char *, std::pair<double, double>> rows[] = {
            {"min", {ours.empty() ? 0 : ours.front(), under.empty() ? 0 : under.front()}},
            {"p50", {percentile(ours, 50), percentile(under, 50)}},
            {"p90", {percentile(ours, 90), percentile(under, 90)}},
            {"p99", {percentile(ours, 99), percentile(under, 99)}},
            {"max", {ours.empty() ? 0 : ours.back(), under.empty() ? 0 : under.back()}},
            {"mean", {mean(ours), mean(under)}}};
        for (const auto &row : rows)
            printf("%-10s %14.2f %14.2f\n", row.first, row.second.first, row.second.second);
        // idlegpu's own figure, a line of its log per preemption: split by half where every trial made one.
        if (idlegpu.openToStopMs.size() == idlegpu.trialFlooded.size()) {
            std::vector<double> own[2];
            for (size_t i = 0; i < idlegpu.openToStopMs.size(); ++i)
                own[idlegpu.trialFlooded[i] ? 1 : 0].push_back(idlegpu.openToStopMs[i]);
            for (std::vector<double> &half : own)
                std::sort(half.begin(), half.end());
            printf("idlegpu's own figure, flood off: p50 %.2f ms, p99 %.2f ms; flood on: p50 %.2f ms, p99 %.2f ms\n",
                   percentile(own[0], 50), percentile(own[0], 99), percentile(own[1], 50), percentile(own[1], 99));
        }
        const double onSeconds = double(flooded.onMs) / 1000.0;
        printf("calls answered per second while flooded: %.0f (%lld answered, %lld of them errors, %lld of those "
               "RateLimited or Busy; %lld sent, %lld left out with 100 unanswered, in %.1f s of flood)\n",
               onSeconds > 0 ? double(flooded.answered) / onSeconds : 0.0, flooded.answered, flooded.errors,
               flooded.limited, flooded.sent, flooded.skipped, onSeconds);
        return idlegpu.failures == 0 ? 0 : 1;
    }
    if (!gpumon) {
        printf("%-10s %12s\n", "statistic", "idlegpu ms");
        const std::pair<const char *, double> rows[] = {
            {"min", ours.empty() ? 0 : ours.front()}, {"p50", percentile(ours, 50)}, {"p90", percentile(ours, 90)},
            {"p99", percentile(ours, 99)}, {"max", ours.empty() ? 0 : ours.back()}, {"mean", mean(ours)}};
        for (const auto &row : rows)
            printf("%-10s %12.2f\n", row.first, row.second);
        return idlegpu.failures == 0 ? 0 : 1;
    }
    printf("gpu_mon's method (fuser -av every %d ms, %d fake GPUs): %zu trials ok, %d failed, %d discarded\n",
           gpumonIntervalMs, gpumonGpus, theirs.size(), gpumonLatencies.failures,
           discardedCount(gpumonLatencies.discarded));
    printDiscards(gpumonLatencies.discarded);
    printf("%-10s %12s %12s %10s\n", "statistic", "idlegpu ms", "gpu_mon ms", "ratio");
    const auto row = [](const char *name, double ourValue, double theirValue) {
        printf("%-10s %12.2f %12.2f %10.0f\n", name, ourValue, theirValue, ourValue > 0 ? theirValue / ourValue : 0.0);
    };
    row("min", ours.empty() ? 0 : ours.front(), theirs.empty() ? 0 : theirs.front());
    row("p50", percentile(ours, 50), percentile(theirs, 50));
    row("p90", percentile(ours, 90), percentile(theirs, 90));
    row("p99", percentile(ours, 99), percentile(theirs, 99));
    row("max", ours.empty() ? 0 : ours.back(), theirs.empty() ? 0 : theirs.back());
    row("mean", mean(ours), mean(theirs));
    printf("ratio: gpu_mon / idlegpu\n");
    return idlegpu.failures == 0 && gpumonLatencies.failures == 0 ? 0 : 1;
}
