// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A MonitorLink for the tray's tests: records the requests it is sent and lets the test play the monitor (a state, a
// refusal, the service gone and back, a preemption).
#include "model/monitorlink.h"

#include <QStringList>

class FakeMonitorLink : public MonitorLink
{
public:
    explicit FakeMonitorLink(bool local = false) : m_local(local) {}

    bool isLocal() const override { return m_local; }
    QString configPath() const override { return QStringLiteral("/etc/idlegpu/idlegpu.conf"); }
    void setPausedAll(bool paused) override { requests.append(paused ? QStringLiteral("pauseAll") : QStringLiteral("resumeAll")); }
    void pauseAllFor(qint64 durationMs) override { requests.append(QStringLiteral("pauseFor %1").arg(durationMs)); }
    void setWorkloadPaused(const QString &id, bool paused) override
    {
        requests.append(QStringLiteral("%1 %2").arg(paused ? QStringLiteral("pause") : QStringLiteral("resume"), id));
    }
    void pauseWorkloadFor(const QString &id, qint64 durationMs) override
    {
        requests.append(QStringLiteral("pause %1 for %2").arg(id).arg(durationMs));
    }
    void reloadConfig() override { requests.append(QStringLiteral("reload")); }
    void loadConfig() override { requests.append(QStringLiteral("loadConfig")); }
    void setPause(const PauseState &) override { requests.append(QStringLiteral("setPause")); }

    // The monitor's side.
    void sendState(const MonitorState &state) { receiveState(state); }
    void goAway(const QString &why) { setAvailable(false, why); }
    void comeBack() { setAvailable(true); }
    void refuse(Request request, const QString &reason) { Q_EMIT requestRefused(request, reason); }

    QStringList requests;

private:
    bool m_local;
};
