// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The monitor on a thread of its own, for the tray: a /proc scan or an NVML sample on the GUI thread would freeze the
// icon, the menu and the windows. The GUI holds only the host, which sends requests and keeps the last state received;
// monitorhost.cpp draws the two threads.
#include "model/monitorlink.h"
#include "monitor.h"

#include <QObject>
#include <QThread>

#include <functional>
#include <memory>

// The monitor and the runner it drives, made together (the monitor keeps a plain pointer to the runner).
struct MonitorParts
{
    std::unique_ptr<WorkloadRunner> runner;
    std::unique_ptr<Monitor> monitor;
};
// Called once, on the worker thread.
using MonitorFactory = std::function<MonitorParts()>;

class MonitorWorker;

// The owner of the monitor's thread, which the tray talks to instead of the monitor itself: the MonitorLink of a
// monitor in this process.
class MonitorHost : public MonitorLink
{
    Q_OBJECT
public:
    // Starts the worker thread and has `factory` make the monitor on it; start() then starts the monitor.
    // `configPath` is the file that the monitor reads, for configPath().
    MonitorHost(const QString &configPath, MonitorFactory factory, QObject *parent = nullptr);
    // Deletes the monitor and its runner on their thread, then ends the thread and joins it, which waits for the
    // thread's current event at most. After shutdownFinished() nothing runs any more; before it, the runner's
    // destructor kills what still runs.
    ~MonitorHost() override;

    bool isLocal() const override { return true; }
    QString configPath() const override { return m_configPath; }
    QThread *workerThread() { return &m_thread; }
    // Returns an object that lives on the monitor's thread, for a timer that must fire there (the service watchdog,
    // which must stop when the monitor's event loop hangs). Its children end with the thread.
    QObject *monitorThreadContext() const;

    // The requests below are each queued to the worker thread and answered, where they change something, by
    // stateChanged(). The monitor refuses none.
    void start(); // answered by started(); a monitor already started ignores it
    void setPausedAll(bool paused) override;
    // With `untilMs` on the monitor's clock, the time the pause ends by itself (0: until resumed).
    void setPausedAll(bool paused, qint64 untilMs);
    void pauseAllFor(qint64 durationMs) override;
    void setWorkloadPaused(const QString &id, bool paused) override;
    void pauseWorkloadFor(const QString &id, qint64 durationMs) override;
    // With `untilMs`, the time this workload's pause ends by itself (0: until resumed).
    void setWorkloadPaused(const QString &id, bool paused, qint64 untilMs);
    void setPause(const PauseState &pause) override;
    void resumeAll(); // ends the pause of all and of each workload
    void setGpuSamplingWanted(bool wanted) override;
    void setDesktopIdle(const DesktopIdleReport &report) override;
    void reloadConfig() override;
    void shutdown(); // answered by shutdownFinished() once every workload has stopped

Q_SIGNALS:
    // Answers start(): `ok` is false when the configuration cannot be used at all (its problems are in the state).
    void started(bool ok);
    void shutdownFinished();

private:
    // Runs `request` on the worker thread with the monitor, once it exists.
    void post(std::function<void(Monitor &)> request);

    QString m_configPath;
    QThread m_thread;
    MonitorWorker *m_worker; // lives on m_thread; deleted there when the thread finishes
};
