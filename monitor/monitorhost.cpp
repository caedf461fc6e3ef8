// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "monitorhost.h"

// Why a thread: a /proc scan takes tens of milliseconds with a thousand processes (86 ms median measured with 1000), an
// NVML sample a few more, and an open/close storm asks for one scan after another.
//
//   GUI thread                                     worker thread
//   MonitorHost ── requests (queued calls) ──────► MonitorWorker ─► Monitor + its runner (made there)
//               ◄─ stateChanged(MonitorState) ────  (copies Monitor::state() at each change)
//                  preempted, workloadFailed, configRejected, started, shutdownFinished (all by value)
//
// The GUI holds only the host: it reads the last state received and sends requests; nothing on its side calls
// into the Monitor. The Monitor and the runner are made by a factory run on the worker thread, so that their
// timers, watchers and processes belong to that thread from the start.

// The worker thread's side: owns the monitor and the runner, relays their signals with the values they need,
// so that the GUI side never asks the monitor anything.
class MonitorWorker : public QObject
{
    Q_OBJECT
public:
    ~MonitorWorker() override
    {
        m_parts.monitor.reset(); // before the runner it drives
        m_parts.runner.reset();
    }

    void create(const MonitorFactory &factory)
    {
        m_parts = factory();
        Monitor *monitor = m_parts.monitor.get();
        connect(monitor, &Monitor::stateChanged, this, [this] { Q_EMIT stateChanged(m_parts.monitor->state()); });
        connect(monitor, &Monitor::preempted, this, &MonitorWorker::preempted);
        connect(monitor, &Monitor::workloadFailed, this, &MonitorWorker::workloadFailed);
        connect(monitor, &Monitor::configRejected, this, &MonitorWorker::configRejected);
        connect(monitor, &Monitor::shutdownFinished, this, &MonitorWorker::shutdownFinished);
    }

    void start()
    {
        if (m_started || m_shuttingDown)
            return;
        m_started = m_parts.monitor->start();
        if (!m_started)
            Q_EMIT stateChanged(m_parts.monitor->state()); // the problems; a good start emits its first scan
        Q_EMIT started(m_started);
    }

    void shutdown()
    {
        m_shuttingDown = true;
        m_parts.monitor->shutdown();
    }

    Monitor *monitor() const { return m_parts.monitor.get(); }

Q_SIGNALS:
    void stateChanged(const MonitorState &state);
    void started(bool ok);
    void preempted(const PreemptionEvent &event);
    void workloadFailed(const QString &id, const WorkloadRuntime &runtime);
    void configRejected(const QList<ConfigDiagnostic> &problems);
    void shutdownFinished();

private:
    MonitorParts m_parts;
    bool m_started = false;
    bool m_shuttingDown = false; // a start asked for after the shutdown (a late file change) is ignored
};

MonitorHost::MonitorHost(const QString &configPath, MonitorFactory factory, QObject *parent)
    : MonitorLink(parent), m_configPath(configPath), m_worker(new MonitorWorker)
{
    m_thread.setObjectName(QStringLiteral("idlegpu-monitor"));
    m_worker->moveToThread(&m_thread);
    connect(&m_thread, &QThread::finished, m_worker, &QObject::deleteLater);

    connect(m_worker, &MonitorWorker::stateChanged, this, &MonitorHost::receiveState);
    connect(m_worker, &MonitorWorker::started, this, &MonitorHost::started);
    connect(m_worker, &MonitorWorker::preempted, this, &MonitorHost::preempted);
    connect(m_worker, &MonitorWorker::workloadFailed, this, &MonitorHost::workloadFailed);
    connect(m_worker, &MonitorWorker::configRejected, this, &MonitorHost::configRejected);
    connect(m_worker, &MonitorWorker::shutdownFinished, this, &MonitorHost::shutdownFinished);

    m_thread.start();
    // The first event of the thread: every request queued after it finds the monitor made.
    QMetaObject::invokeMethod(
        m_worker, [worker = m_worker, factory = std::move(factory)] { worker->create(factory); },
        Qt::QueuedConnection);
}

MonitorHost::~MonitorHost()
{
    m_thread.quit();
    m_thread.wait();
}

QObject *MonitorHost::monitorThreadContext() const
{
    return m_worker;
}

void MonitorHost::post(std::function<void(Monitor &)> request)
{
    QMetaObject::invokeMethod(
        m_worker,
        [worker = m_worker, request = std::move(request)] {
            if (Monitor *monitor = worker->monitor())
                request(*monitor);
        },
        Qt::QueuedConnection);
}

void MonitorHost::start()
{
    QMetaObject::invokeMethod(m_worker, [worker = m_worker] { worker->start(); }, Qt::QueuedConnection);
}

void MonitorHost::setPausedAll(bool paused)
{
    post([paused](Monitor &monitor) { monitor.setPausedAll(paused); });
}

void MonitorHost::setPausedAll(bool paused, qint64 untilMs)
{
    post([paused, untilMs](Monitor &monitor) { monitor.setPausedAll(paused, untilMs); });
}

void MonitorHost::pauseAllFor(qint64 durationMs)
{
    post([durationMs](Monitor &monitor) { monitor.setPausedAll(true, monitor.clock()->nowMs() + durationMs); });
}

void MonitorHost::setWorkloadPaused(const QString &id, bool paused)
{
    setWorkloadPaused(id, paused, 0);
}

void MonitorHost::pauseWorkloadFor(const QString &id, qint64 durationMs)
{
    post([id, durationMs](Monitor &monitor) {
        monitor.setWorkloadPaused(id, true, monitor.clock()->nowMs() + durationMs);
    });
}

void MonitorHost::setWorkloadPaused(const QString &id, bool paused, qint64 untilMs)
{
    post([id, paused, untilMs](Monitor &monitor) { monitor.setWorkloadPaused(id, paused, untilMs); });
}

void MonitorHost::resumeAll()
{
    post([](Monitor &monitor) { monitor.resumeAll(); });
}

void MonitorHost::setPause(const PauseState &pause)
{
    post([pause](Monitor &monitor) { monitor.setPause(pause); });
}

void MonitorHost::setGpuSamplingWanted(bool wanted)
{
    post([wanted](Monitor &monitor) { monitor.setGpuSamplingWanted(wanted); });
}

void MonitorHost::setDesktopIdle(const DesktopIdleReport &report)
{
    post([report](Monitor &monitor) { monitor.setDesktopIdle(report); });
}

void MonitorHost::reloadConfig()
{
    post([](Monitor &monitor) { monitor.reloadConfig(); });
}

void MonitorHost::shutdown()
{
    QMetaObject::invokeMethod(m_worker, [worker = m_worker] { worker->shutdown(); }, Qt::QueuedConnection);
}

#include "monitorhost.moc"
