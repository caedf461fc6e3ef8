// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// Holder scan versus `fuser -v` (gpu_mon's method) on the same nodes and the same processes, in one run.
//
//   bench_scan [--bystanders N] [--fds-per-bystander N] [--rounds N] [--own-mount-namespace]
//
// Prints the median (and min, max) time of each, the rounds interleaved, and the ratio of the medians; never a
// pass/fail. The scan reads fd folders on two threads past 256 processes: on a machine whose cores are busy
// with other work the ratio falls toward the one-thread figure. --own-mount-namespace (root) scans from a mount
// namespace of its own, as idlegpu under its system unit does (ProtectSystem=): every process is then of another
// namespace, whose mount table the scan reads. The scan's CPU time (both threads) is printed too: on a busy machine
// it varies less than the wall time.
#include "holders/holderscanner.h"

#include "bystanders.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <fcntl.h>
#include <sched.h>
#include <signal.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>
#include <memory>
#include <vector>

static double median(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return values.empty() ? 0 : values[values.size() / 2];
}

int main(int argc, char **argv)
{
    int bystanders = 1000, fdsPerBystander = 20, rounds = 21;
    bool ownMountNamespace = false;
    for (int i = 1; i < argc; ++i) {
        if (QByteArray(argv[i]) == "--own-mount-namespace") {
            ownMountNamespace = true;
            continue;
        }
        if (i + 1 >= argc)
            break;
        const QByteArray arg = argv[i];
        const int value = atoi(argv[++i]);
        if (arg == "--bystanders")
            bystanders = value;
        else if (arg == "--fds-per-bystander")
            fdsPerBystander = value;
        else if (arg == "--rounds")
            rounds = std::max(1, value);
    }
    QCoreApplication app(argc, argv);
    const QString fuser = QStandardPaths::findExecutable(QStringLiteral("fuser"));
    if (fuser.isEmpty()) {
        fprintf(stderr, "fuser is missing (Debian package psmisc)\n");
        return 1;
    }
    QTemporaryDir dir;
    QList<HolderScanner::Node> nodes;
    QStringList paths;
    for (int gpu = 0; gpu < 2; ++gpu) {
        const QString path = dir.filePath(QStringLiteral("nvidia%1").arg(gpu));
        QFile(path).open(QIODevice::WriteOnly);
        nodes.append({path, gpu});
        paths.append(path);
    }
    // One process holds GPU 0, as a user's job would.
    const pid_t job = fork();
    if (job == 0) {
        open(QFile::encodeName(paths.at(0)).constData(), O_RDONLY);
        pause();
        _exit(0);
    }
    auto others = std::make_unique<Bystanders>(bystanders, fdsPerBystander);
    usleep(300 * 1000); // let them open their files
    if (ownMountNamespace && ::unshare(CLONE_NEWNS) != 0) {
        perror("unshare(CLONE_NEWNS)");
        return 1;
    }

    const HolderScanner scanner;
    std::vector<double> scanMs, scanCpuMs, fuserMs;
    int found = 0;
    const auto cpuMs = [] {
        timespec now{};
        clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
        return double(now.tv_sec) * 1e3 + double(now.tv_nsec) / 1e6;
    };
    for (int round = 0; round < rounds; ++round) {
        QElapsedTimer timer;
        timer.start();
        const double cpuBefore = cpuMs();
        const HolderScanner::Result result = scanner.scan(nodes);
        scanCpuMs.push_back(cpuMs() - cpuBefore);
        scanMs.push_back(double(timer.nsecsElapsed()) / 1e6);
        found = int(result.holders.size());

        timer.restart();
        QProcess process;
        process.start(fuser, QStringList{QStringLiteral("-v")} + paths);
        process.waitForFinished(30000);
        fuserMs.push_back(double(timer.nsecsElapsed()) / 1e6);
    }
    const int processes = int(QDir(QStringLiteral("/proc")).entryList(QDir::Dirs).size()) - 2;
    ::kill(job, SIGKILL);
    waitpid(job, nullptr, 0);
    others.reset();

    printf("Holder scan vs fuser -v: 2 nodes, %d bystanders x %d fds (about %d processes), %d rounds%s\n",
           bystanders, fdsPerBystander, processes, rounds,
           ownMountNamespace ? ", from a mount namespace of its own" : "");
    printf("%-24s %12s %10s %10s\n", "method", "median ms", "min ms", "max ms");
    printf("%-24s %12.2f %10.2f %10.2f\n", "idlegpu HolderScanner", median(scanMs),
           *std::min_element(scanMs.begin(), scanMs.end()), *std::max_element(scanMs.begin(), scanMs.end()));
    printf("%-24s %12.2f %10.2f %10.2f\n", "  its CPU time, threads", median(scanCpuMs),
           *std::min_element(scanCpuMs.begin(), scanCpuMs.end()), *std::max_element(scanCpuMs.begin(), scanCpuMs.end()));
    printf("%-24s %12.2f %10.2f %10.2f\n", "fuser -v (one run)", median(fuserMs),
           *std::min_element(fuserMs.begin(), fuserMs.end()), *std::max_element(fuserMs.begin(), fuserMs.end()));
    printf("ratio fuser / scan: %.1f   (holders found by the scan: %d)\n", median(fuserMs) / median(scanMs), found);
    return found == 1 ? 0 : 1;
}
