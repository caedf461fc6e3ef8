// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "status/gpuhistory.h"

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
    setMinimumHeight(18);
    setToolTip(tr("The last hour: solid = workload running, hatched = busy with your jobs, empty = free"));
}

void GpuHistoryGraph::setHistory(const GpuHistory &history, qint64 nowMs)
{
    m_history = history;
    m_nowMs = nowMs;
    update();
}

QSize GpuHistoryGraph::sizeHint() const
{
    return QSize(360, 22);
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
    // Told apart by pattern, not only colour: running solid, busy hatched, waiting dotted, idle empty.
    const QList<GpuHistory::Segment> segments = m_history.segments(m_nowMs);
    for (const GpuHistory::Segment &segment : segments) {
        const QRectF bar(QPointF(xOf(segment.fromMs), area.top()), QPointF(xOf(segment.toMs), area.bottom()));
        switch (segment.state) {
        case GpuState::RunningWorkload: painter.fillRect(bar, QColor(0x43, 0xa0, 0x47)); break;
        case GpuState::Busy: painter.fillRect(bar, QBrush(QColor(0x1e, 0x88, 0xe5), Qt::BDiagPattern)); break;
        case GpuState::Waiting: painter.fillRect(bar, QBrush(palette().mid().color(), Qt::Dense6Pattern)); break;
        case GpuState::Idle: break;
        }
    }
    painter.setPen(palette().mid().color());
    painter.drawRect(area);
}
