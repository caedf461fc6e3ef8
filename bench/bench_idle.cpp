// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// What idlegpu costs while nothing happens: CPU time, wakeups (context switches) and memory of --headless over
// a quiet period, and the memory of the tray. Prints a table; never a pass/fail.
//
//   bench_idle [--seconds N]      (default 300: the 5 minutes)
#include "fakegpus.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QThread>

#include <cstdio>
#include <signal.h>
#include <unistd.h>

namespace {

struct ProcessCost
{
    double cpuSeconds = 0;
    long long contextSwitches = 0;
    long long rssKiB = 0;
};

ProcessCost costOf(qint64 pid)
{
    ProcessCost cost;
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (stat.open(QIODevice::ReadOnly)) {
        const QByteArray line = stat.readAll();
        const QList<QByteArray> fields = line.mid(line.lastIndexOf(')') + 2).split(' ');
        if (fields.size() > 13) // utime and stime are fields 14 and 15 of the line, 12 and 13 after ')'
            cost.cpuSeconds = double(fields.at(11).toLongLong() + fields.at(12).toLongLong()) / sysconf(_SC_CLK_TCK);
    }
    QFile status(QStringLiteral("/proc/%1/status").arg(pid));
    if (status.open(QIODevice::ReadOnly)) {
        for (const QByteArray &line : status.readAll().split('\n')) {
            const QList<QByteArray> parts = line.simplified().split(' ');
            if (parts.size() < 2)
                continue;
            if (parts.at(0) == "VmRSS:")
                cost.rssKiB = parts.at(1).toLongLong();
            else if (parts.at(0) == "voluntary_ctxt_switches:" || parts.at(0) == "nonvoluntary_ctxt_switches:")
                cost.contextSwitches += parts.at(1).toLongLong();
        }
    }
    return cost;
}

QString writeConfig(const QTemporaryDir &dir)
{
    return writeFakeGpuConfig(dir, QStringLiteral("interval_seconds=10\nstart_delay_seconds=0\n\n[process-a]\n"
                                                  "cmd=sleep 100000\ngpus=0\n\n[process-b]\ncmd=sleep 100000\ngpus=1\n"));
}

} // namespace

int main(int argc, char **argv)
{
    int seconds = 300;
    for (int i = 1; i + 1 < argc; i += 2)
        if (QByteArray(argv[i]) == "--seconds")
            seconds = atoi(argv[i + 1]);
    QCoreApplication app(argc, argv);
    QTemporaryDir dir;
    const QString config = writeConfig(dir);
    const QString binary = QCoreApplication::applicationDirPath() + QStringLiteral("/idlegpu");
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), dir.path());
    env.insert(QStringLiteral("XDG_STATE_HOME"), dir.filePath(QStringLiteral("state")));
    env.insert(QStringLiteral("XDG_CONFIG_HOME"), dir.filePath(QStringLiteral("config")));

    QProcess headless;
    headless.setProcessEnvironment(env);
    headless.setStandardOutputFile(QProcess::nullDevice());
    headless.setStandardErrorFile(QProcess::nullDevice());
    headless.start(binary, {QStringLiteral("--headless"), QStringLiteral("--config"), config});
    if (!headless.waitForStarted()) {
        fprintf(stderr, "cannot start %s\n", qPrintable(binary));
        return 1;
    }
    QThread::sleep(3); // started its workloads and settled
    const ProcessCost before = costOf(headless.processId());
    QThread::sleep(static_cast<unsigned long>(seconds));
    const ProcessCost after = costOf(headless.processId());
    ::kill(pid_t(headless.processId()), SIGTERM);
    headless.waitForFinished(30000);

    // The tray on an offscreen platform: the same objects and the status window, no display needed.
    QProcessEnvironment trayEnv = env;
    trayEnv.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
    QProcess tray;
    tray.setProcessEnvironment(trayEnv);
    tray.setStandardOutputFile(QProcess::nullDevice());
    tray.setStandardErrorFile(QProcess::nullDevice());
    tray.start(binary, {QStringLiteral("--config"), config});
    tray.waitForStarted();
    QThread::sleep(5);
    const ProcessCost trayCost = costOf(tray.processId());
    ::kill(pid_t(tray.processId()), SIGTERM);
    tray.waitForFinished(30000);

    const double cpuPercent = 100.0 * (after.cpuSeconds - before.cpuSeconds) / seconds;
    const double wakeupsPerSecond = double(after.contextSwitches - before.contextSwitches) / seconds;
    printf("idlegpu at rest: 2 fake GPUs, 2 running workloads, interval_seconds=10, %d s measured\n", seconds);
    printf("%-36s %12s\n", "figure", "value");
    printf("%-36s %11.3f%%\n", "--headless CPU (of one core)", cpuPercent);
    printf("%-36s %12.2f\n", "--headless context switches / s", wakeupsPerSecond);
    printf("%-36s %9lld KiB\n", "--headless RSS", after.rssKiB);
    printf("%-36s %9lld KiB\n", "tray RSS (offscreen platform)", trayCost.rssKiB);
    return 0;
}
