// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// What the integration tests over a real Monitor share, made afresh for each test function: a temporary folder, a
// fake device root, the runner, and the Monitor with a spy on its preemptions. A test class derives from it next to
// QObject, calls setUpMonitorFixture() in init() and QVERIFY(tearDownMonitorFixture()) in cleanup().
#include "monitor.h"
#include "testsupport.h"

#include <QSignalSpy>
#include <QTemporaryDir>

#include <memory>

namespace TestSupport {

class MonitorFixture
{
protected:
    // A new folder, `gpus` fake GPUs (FakeDevRoot) and `runner`: a ProcessRunner when none is given.
    void setUpMonitorFixture(int gpus = 2, std::unique_ptr<WorkloadRunner> runner = nullptr);
    // stopMonitor(), then the runner, the fake GPUs and the folder go. False when the monitor did not stop in time.
    bool tearDownMonitorFixture();

    // The monitor on `configPath` with m_runner, and m_preempted on it; not started yet.
    Monitor &makeMonitor(const QString &configPath, const MonitorPaths &paths = MonitorPaths(),
                         const Clock *clock = SystemClock::instance());
    // Stops the monitor as idlegpu's exit does (every workload ended), waits for it, and drops it with its spy. True
    // when there was none or it stopped in time.
    bool stopMonitor();

    QString configPath() const; // <folder>/idlegpu.conf
    // Writes `text` to configPath(); returns that path.
    QString writeConfig(const QString &text) const;
    // defaultsSection() over the fake GPUs.
    QString defaults(int startDelaySeconds) const;

    WorkloadRuntime runtimeOf(const QString &id) const { return m_runner->runtimes().value(id); }
    WorkloadRuntime::State stateOf(const QString &id) const { return runtimeOf(id).state; }
    qint64 pidOf(const QString &id) const { return runtimeOf(id).pid; }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<FakeDevRoot> m_dev;
    std::unique_ptr<WorkloadRunner> m_runner;
    std::unique_ptr<Monitor> m_monitor;
    std::unique_ptr<QSignalSpy> m_preempted; // Monitor::preempted
};

} // namespace TestSupport
