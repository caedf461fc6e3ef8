// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// How long each workload has run today and since idlegpu started, summed from state updates. Cheap enough to
// be fed every update, also while the status window is hidden. Kept in memory only.
#include "monitor.h"

#include <QDate>
#include <QDateTime>
#include <QHash>
#include <QSet>

class RunTimeLedger
{
public:
    // The time since the previous update counts for the workloads that were running at the previous update.
    void update(const MonitorState &state, qint64 nowMs, const QDateTime &wallNow);

    qint64 todayMs(const QString &workloadId) const { return m_todayMs.value(workloadId); }
    qint64 totalMs(const QString &workloadId) const { return m_totalMs.value(workloadId); }

private:
    qint64 m_lastMs = -1;
    QDate m_day; // local date of the last update
    QSet<QString> m_running;
    QHash<QString, qint64> m_todayMs;
    QHash<QString, qint64> m_totalMs;
};
