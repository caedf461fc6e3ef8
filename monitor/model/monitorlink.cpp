// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "model/monitorlink.h"

MonitorLink::MonitorLink(QObject *parent) : QObject(parent)
{
    // The values that cross threads (MonitorHost) or come back from a reply (RemoteMonitor) in queued signals.
    qRegisterMetaType<MonitorState>();
    qRegisterMetaType<PreemptionEvent>();
    qRegisterMetaType<WorkloadRuntime>();
    qRegisterMetaType<QList<ConfigDiagnostic>>();
}

MonitorLink::~MonitorLink() = default;

void MonitorLink::loadConfig() {}

void MonitorLink::saveConfig(const QByteArray &) {}

void MonitorLink::setPause(const PauseState &) {}

void MonitorLink::setGpuSamplingWanted(bool) {}

void MonitorLink::setDesktopIdle(const DesktopIdleReport &) {}

void MonitorLink::receiveState(const MonitorState &state)
{
    m_state = state;
    Q_EMIT stateChanged(m_state);
}

void MonitorLink::setAvailable(bool available, const QString &why)
{
    const QString reason = available ? QString() : why;
    if (available == m_available && reason == m_unavailableReason)
        return;
    m_available = available;
    m_unavailableReason = reason;
    Q_EMIT availabilityChanged(available, reason);
}
