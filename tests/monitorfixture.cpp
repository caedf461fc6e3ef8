// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "monitorfixture.h"

#include "run/processrunner.h"

namespace TestSupport {

void MonitorFixture::setUpMonitorFixture(int gpus, std::unique_ptr<WorkloadRunner> runner)
{
    // What a cleanup that failed early left behind goes first: the monitor before the runner it uses.
    m_preempted.reset();
    m_monitor.reset();
    m_runner = runner ? std::move(runner) : std::make_unique<ProcessRunner>();
    m_dir = std::make_unique<QTemporaryDir>();
    m_dev = std::make_unique<FakeDevRoot>(gpus);
}

bool MonitorFixture::tearDownMonitorFixture()
{
    const bool stopped = stopMonitor();
    m_runner.reset();
    m_dev.reset();
    m_dir.reset();
    return stopped;
}

Monitor &MonitorFixture::makeMonitor(const QString &configPath, const MonitorPaths &paths, const Clock *clock)
{
    m_preempted.reset();
    m_monitor = std::make_unique<Monitor>(configPath, m_runner.get(), clock, paths);
    m_preempted = std::make_unique<QSignalSpy>(m_monitor.get(), &Monitor::preempted);
    return *m_monitor;
}

bool MonitorFixture::stopMonitor()
{
    m_preempted.reset();
    const bool stopped = !m_monitor || shutDownMonitor(*m_monitor);
    m_monitor.reset();
    return stopped;
}

QString MonitorFixture::configPath() const
{
    return m_dir->filePath(QStringLiteral("idlegpu.conf"));
}

QString MonitorFixture::writeConfig(const QString &text) const
{
    return writeFile(configPath(), text.toUtf8());
}

QString MonitorFixture::defaults(int startDelaySeconds) const
{
    return defaultsSection(m_dev->path(), {.startDelaySeconds = startDelaySeconds});
}

} // namespace TestSupport
