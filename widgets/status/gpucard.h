// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The card of one GPU on the dashboard. It shows the GPU's name and state, its holders and whether each counts, its
// workload, the last preemption, its last hour (busy or idle, and the metrics its backend gives) and its last day.
#include "model/monitorstate.h"
#include "status/gpuhistory.h"
#include "status/metrichistory.h"

#include <QDateTime>
#include <QFrame>
#include <QHash>

class MetricGraph;
class QGridLayout;
class QLabel;
class TimelineStrip;

class GpuCard : public QFrame
{
    Q_OBJECT
public:
    explicit GpuCard(int gpu, QWidget *parent = nullptr);

    int gpu() const { return m_gpu; }
    void apply(const GpuStatus &gpu, const MonitorState &state, const GpuHistory &history,
               const MetricHistory &metrics, qint64 nowMs, const QDateTime &wallNow);

    // The metric graphs shown, in the order painted.
    QList<MetricGraph *> graphs() const;
    TimelineStrip *timeline() const { return m_timeline; }
    // Returns the preemption line ("Stopped miner at 14:02 for ..."); empty when none is pending on this GPU.
    QString preemptionNote() const;

    // Returns the name of a GPU's state as its badge says it: "Running", "Busy", "Waiting", "Idle".
    static QString stateName(GpuState state);

protected:
    void paintEvent(QPaintEvent *event) override;
    void resizeEvent(QResizeEvent *event) override;
    void changeEvent(QEvent *event) override;

private:
    // Below this width per graph, two graphs share a row rather than four.
    static constexpr int kWideGraphWidth = 240;
    int graphColumns() const;
    void applyColors();
    void placeGraphs();
    QLabel *addRow(QGridLayout *grid, int row, const QString &caption, const char *objectName);

    int m_gpu;
    GpuState m_state = GpuState::Idle;
    QLabel *m_title = nullptr;
    QLabel *m_badge = nullptr;
    QLabel *m_activity = nullptr;
    QLabel *m_holders = nullptr;
    QLabel *m_workload = nullptr;
    QLabel *m_note = nullptr;
    QLabel *m_figures = nullptr;
    GpuHistoryGraph *m_busyIdle = nullptr;
    QGridLayout *m_graphGrid = nullptr;
    QHash<GpuMetric, MetricGraph *> m_graphs; // made when first given
    QList<GpuMetric> m_shownMetrics;
    int m_placedColumns = 0;
    TimelineStrip *m_timeline = nullptr;
};
