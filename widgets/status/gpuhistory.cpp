// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "status/gpuhistory.h"

#include "status/activitybrush.h"

#include <QPainter>

void GpuHistory::record(GpuState state, qint64 nowMs)
{
    if (m_changes.isEmpty() || m_changes.last().state != state)
        m_changes.append({nowMs, state});
    // Keep the last change before the span: it says what the span starts with.
    while (m_changes.size() > 1 && m_changes.at(1).atMs <= nowMs - kSpanMs)
        m_changes.removeFirst();
}

QList<GpuHistory::Segment> GpuHistory::segments(qint64 nowMs) const
{
    QList<Segment> result;
    const qint64 spanStart = nowMs - kSpanMs;
    for (int i = 0; i < m_changes.size(); ++i) {
        const qint64 from = qMax(spanStart, m_changes.at(i).atMs);
        const qint64 to = i + 1 < m_changes.size() ? m_changes.at(i + 1).atMs : nowMs;
        if (to > from)
            result.append({from, to, m_changes.at(i).state});
    }
    return result;
}

GpuHistoryGraph::GpuHistoryGraph(QWidget *parent) : QWidget(parent)
{
    setMinimumHeight(14);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    setAccessibleName(tr("Busy and idle, the last hour"));
    setToolTip(tr("The last hour: green = workload running, blue = busy with your jobs, dotted = waiting, "
                  "empty = free"));
}

void GpuHistoryGraph::setHistory(const GpuHistory &history, qint64 nowMs)
{
    m_history = history;
    m_nowMs = nowMs;
    update();
}

QSize GpuHistoryGraph::sizeHint() const
{
    return QSize(360, qMax(14, fontMetrics().height()));
}

void GpuHistoryGraph::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    const QRectF area = QRectF(rect()).adjusted(0.5, 0.5, -0.5, -0.5);
    painter.fillRect(area, palette().base());
    const qint64 spanStart = m_nowMs - GpuHistory::kSpanMs;
    const auto xOf = [&](qint64 ms) {
        return area.left() + area.width() * double(ms - spanStart) / double(GpuHistory::kSpanMs);
    };
    // As the 24-hour timeline paints them (ActivityBrush); waiting dotted, idle empty.
    const QList<GpuHistory::Segment> segments = m_history.segments(m_nowMs);
    for (const GpuHistory::Segment &segment : segments) {
        const QRectF bar(QPointF(xOf(segment.fromMs), area.top()), QPointF(xOf(segment.toMs), area.bottom()));
        switch (segment.state) {
        case GpuState::RunningWorkload: painter.fillRect(bar, ActivityBrush::of(GpuActivity::Workload, palette())); break;
        case GpuState::Busy: painter.fillRect(bar, ActivityBrush::of(GpuActivity::ForeignUse, palette())); break;
        case GpuState::Waiting: painter.fillRect(bar, QBrush(palette().mid().color(), Qt::Dense6Pattern)); break;
        case GpuState::Idle: break;
        }
    }
    painter.setPen(palette().mid().color());
    painter.drawRect(area);
}
