// Preemption latency of the real idlegpu binary on fake device nodes: the time from a foreign open() of the
// GPU node to the SIGTERM arriving in the workload. Prints a table; never a pass/fail.
//
//   bench_preemption [--trials N] [--bystanders N] [--fds-per-bystander N]
//
// Bystanders are idle processes holding files open, so that the /proc scan has real work to do.
#include "bystanders.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>

#include <algorithm>
#include <cstdio>
#include <fcntl.h>
#include <signal.h>
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

// Waits until the newest line "<what> <pid> <t>" of the event file has a pid other than skipPid (for "ready": a
// new start) or equal to wantPid (for "term"). Returns its pid and t.
static bool waitForEvent(const QString &path, const char *what, qint64 skipPid, qint64 wantPid, qint64 *pid,
                         long long *t, int timeoutMs)
{
    const long long deadline = nowUs() + timeoutMs * 1000LL;
    while (nowUs() < deadline) {
        QFile file(path);
        if (file.open(QIODevice::ReadOnly)) {
            const QList<QByteArray> lines = file.readAll().split('\n');
            for (auto it = lines.crbegin(); it != lines.crend(); ++it) {
                const QList<QByteArray> parts = it->split(' ');
                if (parts.size() != 3 || parts[0] != what)
                    continue;
                const qint64 linePid = parts[1].toLongLong();
                if ((skipPid && linePid == skipPid) || (wantPid && linePid != wantPid))
                    break; // the newest such line is not the one awaited: keep waiting
                *pid = linePid;
                *t = parts[2].toLongLong();
                return true;
            }
        }
        QThread::usleep(500);
    }
    return false;
}

static double percentile(std::vector<double> sorted, double p)
{
    if (sorted.empty())
        return 0;
    const size_t index = std::min(sorted.size() - 1, size_t(p / 100.0 * double(sorted.size() - 1) + 0.5));
    return sorted[index];
}

int main(int argc, char **argv)
{
    int trials = 200, bystanders = 0, fdsPerBystander = 20;
    for (int i = 1; i + 1 < argc; i += 2) {
        const QByteArray arg = argv[i];
        const int value = atoi(argv[i + 1]);
        if (arg == "--trials")
            trials = value;
        else if (arg == "--bystanders")
            bystanders = value;
        else if (arg == "--fds-per-bystander")
            fdsPerBystander = value;
    }
    auto bystanderProcesses = std::make_unique<Bystanders>(bystanders, fdsPerBystander);
    QCoreApplication app(argc, argv);

    QTemporaryDir dir;
    dir.setAutoRemove(qEnvironmentVariableIsEmpty("BENCH_KEEP"));
    fprintf(stderr, "work folder: %s\n", qPrintable(dir.path()));
    const QString dev = dir.filePath(QStringLiteral("dev"));
    QDir().mkpath(dev);
    for (const char *name : {"nvidia0", "nvidiactl", "nvidia-uvm"}) {
        QFile node(dev + QLatin1Char('/') + QLatin1String(name));
        node.open(QIODevice::WriteOnly);
    }
    const QString events = dir.filePath(QStringLiteral("events"));
    const QString binDir = QCoreApplication::applicationDirPath();
    const QString config = dir.filePath(QStringLiteral("idlegpu.conf"));
    QFile configFile(config);
    configFile.open(QIODevice::WriteOnly);
    configFile.write(QStringLiteral("[defaults]\ninterval_seconds=60\nstart_delay_seconds=0\ndevice_root=%1\n\n"
                                    "[process-bench]\ncmd=%2/sigterm_receiver %3\ngpus=0\nstop_timeout_seconds=2\n")
                         .arg(dev, binDir, events)
                         .toUtf8());
    configFile.close();

    QProcess idlegpu;
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), dir.path());
    idlegpu.setProcessEnvironment(env);
    idlegpu.setStandardOutputFile(dir.filePath(QStringLiteral("idlegpu.log")));
    idlegpu.setStandardErrorFile(dir.filePath(QStringLiteral("idlegpu.log")));
    idlegpu.start(binDir + QStringLiteral("/idlegpu"), {QStringLiteral("--headless"), QStringLiteral("--config"), config});
    if (!idlegpu.waitForStarted()) {
        fprintf(stderr, "cannot start %s/idlegpu\n", qPrintable(binDir));
        return 1;
    }

    const QByteArray node = QFile::encodeName(dev + QStringLiteral("/nvidia0"));
    std::vector<double> latenciesMs;
    qint64 lastPid = 0;
    int failures = 0;
    for (int trial = 0; trial < trials; ++trial) {
        qint64 pid = 0;
        long long readyAt = 0, termAt = 0;
        if (!waitForEvent(events, "ready", lastPid, 0, &pid, &readyAt, 15000)) {
            fprintf(stderr, "trial %d: the workload did not start\n", trial);
            ++failures;
            break;
        }
        QThread::msleep(20); // let idlegpu finish its own bookkeeping of the start
        // The user's job is a new process, as a CUDA job is: it takes the time, opens the node and holds it.
        int timePipe[2];
        if (pipe(timePipe) != 0)
            return 1;
        const pid_t job = fork();
        if (job == 0) {
            const long long openedAt = nowUs();
            const int fd = open(node.constData(), O_RDONLY);
            (void)!write(timePipe[1], &openedAt, sizeof openedAt);
            pause();
            (void)fd;
            _exit(0);
        }
        long long openedAt = 0;
        (void)!read(timePipe[0], &openedAt, sizeof openedAt);
        close(timePipe[0]);
        close(timePipe[1]);
        qint64 termPid = 0;
        if (!waitForEvent(events, "term", 0, pid, &termPid, &termAt, 10000)) {
            fprintf(stderr, "trial %d: no SIGTERM\n", trial);
            ++failures;
        } else {
            latenciesMs.push_back(double(termAt - openedAt) / 1000.0);
        }
        ::kill(job, SIGKILL);
        waitpid(job, nullptr, 0);
        lastPid = pid;
    }

    ::kill(pid_t(idlegpu.processId()), SIGTERM);
    idlegpu.waitForFinished(20000);
    bystanderProcesses.reset();

    std::vector<double> sorted = latenciesMs;
    std::sort(sorted.begin(), sorted.end());
    double sum = 0;
    for (double v : sorted)
        sum += v;
    printf("Preemption latency, foreign open() -> SIGTERM in the workload (idlegpu --headless, fake nodes)\n");
    printf("bystanders: %d processes x %d fds; trials: %zu ok, %d failed\n", bystanders, fdsPerBystander,
           sorted.size(), failures);
    printf("%-10s %10s\n", "statistic", "ms");
    printf("%-10s %10.2f\n", "min", sorted.empty() ? 0 : sorted.front());
    printf("%-10s %10.2f\n", "p50", percentile(sorted, 50));
    printf("%-10s %10.2f\n", "p90", percentile(sorted, 90));
    printf("%-10s %10.2f\n", "p99", percentile(sorted, 99));
    printf("%-10s %10.2f\n", "max", sorted.empty() ? 0 : sorted.back());
    printf("%-10s %10.2f\n", "mean", sorted.empty() ? 0 : sum / double(sorted.size()));
    return failures == 0 ? 0 : 1;
}
