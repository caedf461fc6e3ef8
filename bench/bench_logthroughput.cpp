// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// A workload's output through its log= file: a workload that floods its output (`yes LINE | head -c BYTES`, then it
// exits) under a ProcessRunner in this process, as idlegpu's monitor runs it, with log= a file in a temporary folder
// and, for comparison, without log= (the output only read by the runner). Per run: the wall time from the start until
// the runner has seen the workload end (every byte in the file by then), the throughput, and this process's CPU time
// (what idlegpu's monitor thread spends on it), per MiB. Prints a table; never a pass/fail.
//
//   bench_logthroughput [--runs N] [--mib N] [--folder PATH]
#include "run/processrunner.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QElapsedTimer>
#include <QFileInfo>
#include <QLoggingCategory>
#include <QTemporaryDir>

#include <algorithm>
#include <cstdio>
#include <vector>

#include <sys/resource.h>

namespace {

double cpuSeconds()
{
    rusage usage{};
    getrusage(RUSAGE_SELF, &usage);
    return double(usage.ru_utime.tv_sec + usage.ru_stime.tv_sec)
           + double(usage.ru_utime.tv_usec + usage.ru_stime.tv_usec) / 1e6;
}

struct Run
{
    double seconds = 0;
    double cpu = 0;
    qint64 fileBytes = 0;
    bool ok = false;
};

Run runOnce(const QString &folder, qint64 bytes, bool withLog, int index)
{
    const QString reaper = QCoreApplication::applicationDirPath() + QStringLiteral("/idlegpu-reaper");
    ProcessRunner runner(SystemClock::instance(), reaper);
    WorkloadConfig config;
    config.id = QStringLiteral("flood");
    config.name = config.id;
    const QString script = QStringLiteral("yes 'flooding the output of the workload, line after line' | head -c %1")
                               .arg(bytes);
    config.cmd = QStringLiteral("sh -c '%1'").arg(script);
    config.argv = {QStringLiteral("sh"), QStringLiteral("-c"), script};
    config.dir = folder;
    config.stopTimeoutSeconds = 2;
    const QString log = folder + QStringLiteral("/flood-%1.log").arg(index);
    if (withLog)
        config.log = log;

    Run run;
    const double cpuBefore = cpuSeconds();
    QElapsedTimer timer;
    timer.start();
    if (!runner.start(config, {0}, false))
        return run;
    while (runner.runtimes().value(config.id).state == WorkloadRuntime::Running && timer.elapsed() < 600'000)
        QCoreApplication::processEvents(QEventLoop::WaitForMoreEvents, 50);
    run.seconds = double(timer.nsecsElapsed()) / 1e9;
    run.cpu = cpuSeconds() - cpuBefore;
    run.fileBytes = withLog ? QFileInfo(log).size() : 0;
    run.ok = runner.runtimes().value(config.id).lastExit == QStringLiteral("exit code 0")
             && (!withLog || run.fileBytes >= bytes);
    if (withLog)
        QFile::remove(log);
    return run;
}

double median(std::vector<double> values)
{
    if (values.empty())
        return 0;
    std::sort(values.begin(), values.end());
    return values[values.size() / 2];
}

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    QLoggingCategory::setFilterRules(QStringLiteral("idlegpu.*=false"));
    int runs = 5;
    qint64 mib = 256;
    QString folder;
    for (int i = 1; i + 1 < argc; i += 2) {
        const QByteArray arg = argv[i];
        if (arg == "--runs")
            runs = atoi(argv[i + 1]);
        else if (arg == "--mib")
            mib = atoll(argv[i + 1]);
        else if (arg == "--folder")
            folder = QString::fromLocal8Bit(argv[i + 1]);
        else {
            fprintf(stderr, "usage: bench_logthroughput [--runs N] [--mib N] [--folder PATH]\n");
            return 2;
        }
    }
    QTemporaryDir dir(folder.isEmpty() ? QDir::tempPath() + QStringLiteral("/bench_logthroughput-XXXXXX")
                                       : folder + QStringLiteral("/bench_logthroughput-XXXXXX"));
    if (!dir.isValid() || runs < 1 || mib < 1) {
        fprintf(stderr, "cannot make a folder in %s, or bad --runs/--mib\n", qPrintable(folder));
        return 2;
    }
    const qint64 bytes = mib << 20;
    printf("Workload output through log=: %lld MiB of lines per run, %d runs each, log in %s\n", mib, runs,
           qPrintable(dir.path()));
    printf("%-10s %10s %10s %14s %6s\n", "log=", "s (p50)", "MiB/s", "CPU ms/MiB", "ok");
    int failures = 0;
    for (const bool withLog : {true, false}) {
        std::vector<double> seconds, cpu;
        int ok = 0;
        for (int i = 0; i < runs; ++i) {
            const Run run = runOnce(dir.path(), bytes, withLog, i);
            if (!run.ok) {
                ++failures;
                continue;
            }
            ++ok;
            seconds.push_back(run.seconds);
            cpu.push_back(run.cpu);
        }
        const double s = median(seconds);
        printf("%-10s %10.2f %10.1f %14.2f %3d/%d\n", withLog ? "a file" : "(none)", s,
               s > 0 ? double(mib) / s : 0.0, median(cpu) * 1000.0 / double(mib), ok, runs);
    }
    printf("CPU: this process's (the runner's, as idlegpu's monitor thread); the log writer's is not in it\n");
    return failures == 0 ? 0 : 1;
}
