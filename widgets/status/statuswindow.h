// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The status window: a row per GPU (who holds it, which workload, how long it ran) and each GPU's last hour.
// While hidden it only keeps its counters and histories (cheap); it redraws when shown.
#include "status/gpuhistory.h"
#include "monitor.h"
#include "status/runtimeledger.h"

#include <QDateTime>
#include <QHash>
#include <QWidget>

class QLabel;
class QTableWidget;
class QVBoxLayout;

class StatusWindow : public QWidget
{
    Q_OBJECT
public:
    enum Column { GpuColumn, NameColumn, ActivityColumn, HoldersColumn, WorkloadColumn, WorkloadStateColumn,
                  TodayColumn, TotalColumn, ColumnCount };

    explicit StatusWindow(QWidget *parent = nullptr);

    void applyState(const MonitorState &state, qint64 nowMs, const QDateTime &wallNow);

    QTableWidget *table() const { return m_table; }
    const RunTimeLedger &ledger() const { return m_ledger; }
    GpuHistory history(int gpu) const { return m_histories.value(gpu); }
    int refreshCount() const { return m_refreshes; } // how often the widgets were filled: not while hidden

Q_SIGNALS:
    // Shown or hidden: the GPU metrics are worth sampling only while someone looks.
    void visibilityChanged(bool visible);

protected:
    void showEvent(QShowEvent *event) override;
    void hideEvent(QHideEvent *event) override;

private:
    void refresh();

    QLabel *m_summary;
    QTableWidget *m_table;
    QVBoxLayout *m_graphsLayout;
    QHash<int, GpuHistoryGraph *> m_graphs;
    QHash<int, QLabel *> m_graphLabels;

    MonitorState m_state;
    qint64 m_nowMs = 0;
    QDateTime m_wallNow;
    RunTimeLedger m_ledger;
    QHash<int, GpuHistory> m_histories;
    int m_refreshes = 0;
};
