// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "status/runtimeledger.h"

void RunTimeLedger::update(const MonitorState &state, qint64 nowMs, const QDateTime &wallNow)
{
    const QDateTime local = wallNow.toLocalTime();
    if (m_lastMs >= 0 && nowMs > m_lastMs) {
        const qint64 elapsed = nowMs - m_lastMs;
        qint64 elapsedToday = elapsed;
        if (local.date() != m_day) { // midnight passed: only the part after it counts for today
            m_todayMs.clear();
            elapsedToday = qMin(elapsed, QDateTime(local.date(), QTime(0, 0)).msecsTo(local));
        }
        for (const QString &id : std::as_const(m_running)) {
            m_totalMs[id] += elapsed;
            m_todayMs[id] += elapsedToday;
        }
    } else if (local.date() != m_day) {
        m_todayMs.clear();
    }
    m_lastMs = nowMs;
    m_day = local.date();
    m_running.clear();
    for (const WorkloadRuntime &runtime : state.runtimes)
        if (runtime.state == WorkloadRuntime::Running)
            m_running.insert(runtime.id);
}
