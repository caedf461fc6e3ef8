// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// What Slurm's prolog and health check cost slurmd at every job and every health check: the whole process, from its
// start to its exit, of the build's links idlegpu-slurm-prolog and idlegpu-slurm-health (the small program
// idlegpu-slurm-guard) and of the same links made the old way, to the GUI binary idlegpu. The runs alternate, so that
// the machine's load weighs on both alike. No Slurm is needed: the environment is slurmd's for lab job 12 on GPU 0 of
// node ws0, and a heartbeat of this process (running and current, GPU 0 lent, rewritten before every run) in a
// runtime folder of the bench's own lets the job run, so each run reads the heartbeat, scans /proc for the GPU's
// holders, decides and exits 0, as on a node where idlegpu lends the GPU.
//
//   bench_slurmguard [--runs N]
//
// Needs root (the hooks trust a heartbeat of root's only). Prints the median, p90 and max of each, and the number of
// libraries each maps (ldd), with /bin/true's as the floor of a process's start and exit; never a pass/fail.
#include "devices/fakegpufolder.h"
#include "base/clock.h"
#include "slurm/guardfile.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fcntl.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace {

struct Hook
{
    const char *what;
    QString path;
    std::vector<double> ms;
    int failures = 0;
};

// One whole run: spawned, waited for. Its milliseconds, or -1 when it did not exit 0 (its stderr then printed).
double timedRun(const QString &path, const std::vector<QByteArray> &environment, const QString &errorFile)
{
    const QByteArray program = QFile::encodeName(path);
    char *argv[] = {const_cast<char *>(program.constData()), nullptr};
    std::vector<char *> envp;
    for (const QByteArray &entry : environment)
        envp.push_back(const_cast<char *>(entry.constData()));
    envp.push_back(nullptr);
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
    posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, "/dev/null", O_WRONLY, 0);
    const QByteArray errors = QFile::encodeName(errorFile);
    posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, errors.constData(), O_WRONLY | O_CREAT | O_TRUNC, 0600);
    QElapsedTimer timer;
    timer.start();
    pid_t pid = 0;
    const int spawned = posix_spawn(&pid, program.constData(), &actions, nullptr, argv, envp.data());
    int status = 0;
    const bool waited = spawned == 0 && ::waitpid(pid, &status, 0) == pid;
    const double ms = timer.nsecsElapsed() / 1e6;
    posix_spawn_file_actions_destroy(&actions);
    if (waited && WIFEXITED(status) && WEXITSTATUS(status) == 0)
        return ms;
    QFile file(errorFile);
    file.open(QIODevice::ReadOnly);
    std::fprintf(stderr, "%s: %s\n%s", qPrintable(path), spawned != 0 ? "not started" : "did not exit 0",
                 file.readAll().constData());
    return -1;
}

double percentile(std::vector<double> values, double fraction)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    const size_t rank = size_t(std::ceil(fraction * double(values.size())));
    return values[std::clamp<size_t>(rank, 1, values.size()) - 1];
}

int librariesOf(const QString &path)
{
    QProcess ldd;
    ldd.start(QStringLiteral("ldd"), {path});
    ldd.waitForFinished();
    return int(ldd.readAllStandardOutput().count('\n'));
}

} // namespace

int main(int argc, char **argv)
{
    const QCoreApplication app(argc, argv);
    int runs = 30;
    for (int i = 1; i + 1 < argc; i += 2)
        if (qstrcmp(argv[i], "--runs") == 0)
            runs = qMax(1, atoi(argv[i + 1]));
    if (::geteuid() != 0) {
        std::printf("Slurm's prolog and health check: skipped, needs root (they trust a heartbeat of root's only)\n");
        return 0;
    }
    const QString bin = QCoreApplication::applicationDirPath();
    QTemporaryDir dir;
    const QString dev = dir.filePath(QStringLiteral("dev"));
    FakeGpuFolder::make(dev, 2);
    const QString runtime = dir.filePath(QStringLiteral("run"));
    const QString old = dir.filePath(QStringLiteral("old"));
    QDir().mkpath(runtime);
    QDir().mkpath(old);
    QFile::link(bin + QStringLiteral("/idlegpu"), old + QStringLiteral("/idlegpu-slurm-prolog"));
    QFile::link(bin + QStringLiteral("/idlegpu"), old + QStringLiteral("/idlegpu-slurm-health"));
    std::vector<Hook> hooks = {
        {"prolog, old: a link to idlegpu", old + QStringLiteral("/idlegpu-slurm-prolog"), {}},
        {"prolog, new: idlegpu-slurm-prolog", bin + QStringLiteral("/idlegpu-slurm-prolog"), {}},
        {"health, old: a link to idlegpu", old + QStringLiteral("/idlegpu-slurm-health"), {}},
        {"health, new: idlegpu-slurm-health", bin + QStringLiteral("/idlegpu-slurm-health"), {}},
        {"floor: /bin/true", QStringLiteral("/bin/true"), {}}, // what any program's start and exit costs here
    };
    // An empty slurm.conf: were the job refused, Slurm's clients would fail at once, not wait for a controller.
    const QString slurmConf = dir.filePath(QStringLiteral("slurm.conf"));
    QFile(slurmConf).open(QIODevice::WriteOnly);
    // slurmd's environment for the prolog of lab job 12 on GPU 0 (it gives no PATH), and the heartbeat's folder.
    const std::vector<QByteArray> environment = {"RUNTIME_DIRECTORY=" + QFile::encodeName(runtime),
                                                 "SLURMD_NODENAME=ws0",
                                                 "SLURM_JOB_ID=12",
                                                 "SLURM_JOB_PARTITION=scavenger",
                                                 "SLURM_JOB_GPUS=0",
                                                 "SLURM_CONF=" + QFile::encodeName(slurmConf)};

    SlurmGuard::Heartbeat heartbeat = SlurmGuard::selfHeartbeat();
    heartbeat.node = QStringLiteral("ws0");
    heartbeat.partition = QStringLiteral("owner");
    heartbeat.gpus = {{0, FakeGpuFolder::gpuNode(dev, 0), true, {}}, {1, FakeGpuFolder::gpuNode(dev, 1), true, {}}};
    SlurmGuard::GuardFile guard(runtime);
    const QString errorFile = dir.filePath(QStringLiteral("stderr"));
    const auto runOnce = [&](Hook &hook, bool counted) {
        heartbeat.monotonicMs = SystemClock::instance()->nowMs();
        guard.write(heartbeat);
        const double ms = timedRun(hook.path, environment, errorFile);
        if (!counted)
            return;
        if (ms < 0)
            ++hook.failures;
        else
            hook.ms.push_back(ms);
    };
    for (Hook &hook : hooks) // the binaries and their libraries in the page cache
        for (int i = 0; i < 3; ++i)
            runOnce(hook, false);
    for (int i = 0; i < runs; ++i)
        for (Hook &hook : hooks)
            runOnce(hook, true);

    std::printf("Slurm's prolog and health check, the whole process (start to exit) as slurmd runs them, %d runs each "
                "(the job runs: heartbeat read, /proc scanned)\n",
                runs);
    std::printf("%-36s %9s %9s %9s %10s\n", "", "median", "p90", "max", "libraries");
    for (const Hook &hook : hooks) {
        std::printf("%-36s %6.1f ms %6.1f ms %6.1f ms %10d%s\n", hook.what, percentile(hook.ms, 0.5),
                    percentile(hook.ms, 0.9), percentile(hook.ms, 1.0), librariesOf(hook.path),
                    hook.failures ? qPrintable(QStringLiteral("  (%1 runs failed)").arg(hook.failures)) : "");
    }
    std::printf("%s -> %s\n", "idlegpu-slurm-prolog",
                qPrintable(QFileInfo(bin + QStringLiteral("/idlegpu-slurm-prolog")).symLinkTarget()));
    return 0;
}
