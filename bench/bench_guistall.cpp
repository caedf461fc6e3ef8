// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// GUI stalls: how long the GUI thread's event loop goes without turning while the monitor handles an open/close
// storm, with the monitor on the GUI thread ("before", as the tray had it) and on its own thread behind a
// MonitorHost ("after", as the tray has it now), and with no monitor at all ("baseline": what the machine's
// scheduler alone costs the same timer, the floor on a loaded machine). Prints the longest gap, the p99 and the
// gaps over 16 ms (a frame at 60 Hz) of each; never a pass/fail.
//
//   bench_guistall [--bystanders N] [--fds-per-bystander N] [--seconds N] [--opens-per-second N]
//                  [--mode before|after|baseline|all]
//
// A real Monitor with a real ProcessRunner, a running workload (sleep) on GPU 0 of fake device nodes, and
// bystanders: idle processes holding files open, so that each /proc scan costs what it costs on a busy machine.
// The storm is test_stress opening and closing GPU 1's node: since a workload runs, every open asks for a scan at
// once. The GUI thread runs a 1 ms timer and notes each tick; a gap between two ticks is a stall. It also takes
// every state the monitor reports, as the tray does. The kernel's account of the GUI thread (schedstat) tells the
// two causes of a stall apart: time it ran (the monitor's work, where it runs there) and time it was ready but
// waited for a CPU (the machine's load, the monitor's own threads among it).
#include "bystanders.h"
#include "fakegpus.h"
#include "monitorhost.h"
#include "run/processrunner.h"

#include <QCoreApplication>
#include <QDir>
#include <QElapsedTimer>
#include <QEventLoop>
#include <QFile>
#include <QProcess>
#include <QTemporaryDir>
#include <QTimer>

#include <algorithm>
#include <cstdio>
#include <functional>
#include <memory>
#include <vector>

namespace {

struct Options
{
    int bystanders = 2000;
    int fdsPerBystander = 5;
    int seconds = 10;
    int opensPerSecond = 100;
};

struct Stalls
{
    bool ok = false;
    std::vector<double> gapsMs;
    int states = 0; // states the GUI thread received during the storm
    int opens = 0;  // opens the storm made
    double ranMs = 0;    // the GUI thread's CPU time during the storm
    double waitedMs = 0; // its time ready to run but waiting for a CPU
};

// The calling thread's time on a CPU and time waiting in the run queue, in ns (/proc/thread-self/schedstat).
struct SchedTimes
{
    double ranNs = 0, waitedNs = 0;
    static SchedTimes now()
    {
        QFile file(QStringLiteral("/proc/thread-self/schedstat"));
        if (!file.open(QIODevice::ReadOnly))
            return {};
        const QList<QByteArray> fields = file.readAll().split(' ');
        return {fields.value(0).toDouble(), fields.value(1).toDouble()};
    }
};

// Runs the event loop until `done` (checked every 10 ms) or the time-out; false on time-out. The thread sleeps
// in between: a busy loop here would make the GUI thread itself the CPU hog whose stalls are measured.
bool waitUntil(const std::function<bool()> &done, int timeoutMs)
{
    QElapsedTimer elapsed;
    elapsed.start();
    QEventLoop loop;
    QTimer check;
    QObject::connect(&check, &QTimer::timeout, &loop, [&] {
        if (done() || elapsed.elapsed() > timeoutMs)
            loop.quit();
    });
    check.start(10);
    if (!done())
        loop.exec();
    return done();
}

QString writeConfig(const QTemporaryDir &dir)
{
    return writeFakeGpuConfig(dir, QStringLiteral("interval_seconds=60\nstart_delay_seconds=0\n\n[process-bench]\n"
                                                  "cmd=sleep 1000\ngpus=0\nstop_timeout_seconds=2\n"));
}

// The monitor in one of the two placements, seen from the GUI thread.
class MonitorUnderTest
{
public:
    virtual ~MonitorUnderTest() = default;
    virtual void start() = 0;
    virtual bool workloadRunning() const = 0;
    virtual void shutdown() = 0;
    virtual bool shutDown() const = 0;
    int statesReceived = 0;
};

// "before": the Monitor on the GUI thread; each state read from it there.
class MonitorOnGuiThread : public MonitorUnderTest
{
public:
    explicit MonitorOnGuiThread(const QString &configPath) : m_monitor(configPath, &m_runner)
    {
        QObject::connect(&m_monitor, &Monitor::stateChanged, &m_monitor, [this] {
            m_state = m_monitor.state();
            ++statesReceived;
        });
        QObject::connect(&m_monitor, &Monitor::shutdownFinished, &m_monitor, [this] { m_finished = true; });
    }
    void start() override { m_monitor.start(); }
    bool workloadRunning() const override
    {
        return m_state.runtimes.value(QStringLiteral("process-bench")).state == WorkloadRuntime::Running;
    }
    void shutdown() override { m_monitor.shutdown(); }
    bool shutDown() const override { return m_finished; }

private:
    ProcessRunner m_runner;
    Monitor m_monitor;
    MonitorState m_state;
    bool m_finished = false;
};

// "after": the Monitor behind a MonitorHost, on its thread; each state arrives by value.
class MonitorOnWorkerThread : public MonitorUnderTest
{
public:
    explicit MonitorOnWorkerThread(const QString &configPath)
        : m_host(configPath, [configPath] {
              MonitorParts parts;
              parts.runner = std::make_unique<ProcessRunner>();
              parts.monitor = std::make_unique<Monitor>(configPath, parts.runner.get());
              return parts;
          })
    {
        QObject::connect(&m_host, &MonitorHost::stateChanged, &m_host, [this] { ++statesReceived; });
        QObject::connect(&m_host, &MonitorHost::shutdownFinished, &m_host, [this] { m_finished = true; });
    }
    void start() override { m_host.start(); }
    bool workloadRunning() const override
    {
        return m_host.state().runtimes.value(QStringLiteral("process-bench")).state == WorkloadRuntime::Running;
    }
    void shutdown() override { m_host.shutdown(); }
    bool shutDown() const override { return m_finished; }

private:
    MonitorHost m_host;
    bool m_finished = false;
};

enum class Placement { None, GuiThread, WorkerThread };

Stalls measure(Placement placement, const Options &options)
{
    Stalls result;
    QTemporaryDir dir;
    const QString configPath = writeConfig(dir);
    std::unique_ptr<MonitorUnderTest> monitor;
    if (placement == Placement::WorkerThread)
        monitor = std::make_unique<MonitorOnWorkerThread>(configPath);
    else if (placement == Placement::GuiThread)
        monitor = std::make_unique<MonitorOnGuiThread>(configPath);
    if (monitor) {
        monitor->start();
        if (!waitUntil([&] { return monitor->workloadRunning(); }, 15000)) {
            fprintf(stderr, "the workload did not start\n");
            return result;
        }
    }
    waitUntil([] { return false; }, 500); // the start's own events handled

    std::vector<qint64> ticksNs;
    ticksNs.reserve(size_t(options.seconds) * 1100 + 100);
    QElapsedTimer clock;
    clock.start();
    QTimer ticker;
    ticker.setTimerType(Qt::PreciseTimer);
    ticker.setInterval(1);
    QObject::connect(&ticker, &QTimer::timeout, &ticker, [&] { ticksNs.push_back(clock.nsecsElapsed()); });

    QProcess storm;
    storm.setProcessChannelMode(QProcess::SeparateChannels);
    storm.start(QCoreApplication::applicationDirPath() + QStringLiteral("/test_stress"),
                {QStringLiteral("storm"), dir.filePath(QStringLiteral("dev/nvidia1")),
                 QString::number(options.opensPerSecond), QString::number(options.seconds),
                 dir.filePath(QStringLiteral("dev/nvidia-uvm"))}); // held throughout: a CUDA job's storm
    const int statesBefore = monitor ? monitor->statesReceived : 0;
    const SchedTimes schedBefore = SchedTimes::now();
    ticker.start();
    // Only the ticks, the monitor's states and the storm's end wake the GUI thread meanwhile.
    QEventLoop stormLoop;
    QObject::connect(&storm, &QProcess::finished, &stormLoop, &QEventLoop::quit);
    QObject::connect(&storm, &QProcess::errorOccurred, &stormLoop, &QEventLoop::quit);
    QTimer::singleShot(options.seconds * 1000 + 30000, &stormLoop, &QEventLoop::quit);
    if (storm.state() != QProcess::NotRunning)
        stormLoop.exec();
    const bool stormEnded = storm.state() == QProcess::NotRunning;
    ticker.stop();
    const SchedTimes schedAfter = SchedTimes::now();
    result.ranMs = (schedAfter.ranNs - schedBefore.ranNs) / 1e6;
    result.waitedMs = (schedAfter.waitedNs - schedBefore.waitedNs) / 1e6;
    result.states = monitor ? monitor->statesReceived - statesBefore : 0;
    const QByteArray summary = storm.readAllStandardOutput();
    if (!stormEnded || storm.exitCode() != 0) {
        fprintf(stderr, "the storm (test_stress) failed: %s\n", storm.readAllStandardError().constData());
        storm.kill();
        storm.waitForFinished(1000);
    } else {
        result.ok = true;
        result.opens = summary.split(' ').value(1).toInt();
    }
    for (size_t i = 1; i < ticksNs.size(); ++i)
        result.gapsMs.push_back(double(ticksNs[i] - ticksNs[i - 1]) / 1e6);

    if (monitor) {
        monitor->shutdown();
        if (!waitUntil([&] { return monitor->shutDown(); }, 15000))
            fprintf(stderr, "the monitor did not finish its shutdown\n");
    }
    return result;
}

double percentile(const std::vector<double> &sorted, double p)
{
    if (sorted.empty())
        return 0;
    return sorted[std::min(sorted.size() - 1, size_t(p / 100.0 * double(sorted.size() - 1) + 0.5))];
}

} // namespace

int main(int argc, char **argv)
{
    Options options;
    QByteArray mode = "all";
    for (int i = 1; i < argc; ++i) {
        const QByteArray arg = argv[i];
        const QByteArray value = i + 1 < argc ? QByteArray(argv[++i]) : QByteArray();
        if (arg == "--bystanders")
            options.bystanders = value.toInt();
        else if (arg == "--fds-per-bystander")
            options.fdsPerBystander = value.toInt();
        else if (arg == "--seconds")
            options.seconds = value.toInt();
        else if (arg == "--opens-per-second")
            options.opensPerSecond = value.toInt();
        else if (arg == "--mode" && (value == "before" || value == "after" || value == "baseline" || value == "all"))
            mode = value;
        else {
            fprintf(stderr, "unknown option or value: %s %s\n", arg.constData(), value.constData());
            return 2;
        }
    }
    if (options.seconds < 1 || options.opensPerSecond < 1) {
        fprintf(stderr, "--seconds and --opens-per-second must be positive\n");
        return 2;
    }
    // Forked before Qt starts threads, as bench_preemption does.
    auto bystanders = std::make_unique<Bystanders>(options.bystanders, options.fdsPerBystander);
    QCoreApplication app(argc, argv);

    struct Row
    {
        const char *name;
        Stalls stalls;
    };
    std::vector<Row> rows;
    if (mode == "all" || mode == "baseline")
        rows.push_back({"baseline (no monitor)", measure(Placement::None, options)});
    if (mode == "all" || mode == "before")
        rows.push_back({"before (monitor on the GUI thread)", measure(Placement::GuiThread, options)});
    if (mode == "all" || mode == "after")
        rows.push_back({"after (monitor on its own thread)", measure(Placement::WorkerThread, options)});
    bystanders.reset();

    printf("GUI thread stalls during an open/close storm: gaps between ticks of a 1 ms timer\n");
    printf("bystanders: %d processes x %d fds; storm: %d opens/s on GPU 1 for %d s; workload running on GPU 0\n",
           options.bystanders, options.fdsPerBystander, options.opensPerSecond, options.seconds);
    printf("%-36s %7s %7s %7s %7s %6s %6s %6s %8s %8s\n", "mode", "max ms", "p99 ms", "p50 ms", ">16 ms", "ticks",
           "opens", "states", "ran ms", "wait ms");
    bool allOk = true;
    for (Row &row : rows) {
        std::vector<double> &gaps = row.stalls.gapsMs;
        std::sort(gaps.begin(), gaps.end());
        const long over16 = std::count_if(gaps.cbegin(), gaps.cend(), [](double gap) { return gap > 16.0; });
        printf("%-36s %7.1f %7.1f %7.2f %7ld %6zu %6d %6d %8.0f %8.0f%s\n", row.name,
               gaps.empty() ? 0.0 : gaps.back(), percentile(gaps, 99), percentile(gaps, 50), over16,
               gaps.size() + (gaps.empty() ? 0 : 1), row.stalls.opens, row.stalls.states, row.stalls.ranMs,
               row.stalls.waitedMs, row.stalls.ok ? "" : "  (failed: see above)");
        allOk = allOk && row.stalls.ok;
    }
    printf("states: the monitor's states the GUI thread received during the storm (a scan each, or more); ran, "
           "wait: the GUI thread's time on a CPU and ready but waiting for one, during the storm\n");
    return allOk ? 0 : 1;
}
