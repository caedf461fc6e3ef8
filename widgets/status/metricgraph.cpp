// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "status/metricgraph.h"

#include "status/dashboardtext.h"

#include <QPainter>
#include <QPainterPath>

namespace {
QFont smaller(QFont font)
{
    font.setPointSizeF(font.pointSizeF() * 0.85);
    return font;
}
} // namespace

MetricGraph::MetricGraph(GpuMetric metric, QWidget *parent) : QWidget(parent), m_metric(metric)
{
    setAccessibleName(DashboardText::metricTitle(metric));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
}

void MetricGraph::setHistory(const MetricHistory &history, qint64 nowMs)
{
    m_lines = history.lines(m_metric, nowMs);
    m_latest = history.latest(m_metric, nowMs);
    m_axisMax = history.axisMax(m_metric, nowMs);
    m_nowMs = nowMs;
    double peak = 0;
    for (const MetricHistory::Line &line : std::as_const(m_lines))
        for (const MetricHistory::Point &point : line)
            peak = qMax(peak, point.value);
    const QString title = DashboardText::metricTitle(m_metric);
    setToolTip(m_latest ? tr("%1, the last hour: now %2, at most %3")
                              .arg(title, DashboardText::metricValue(m_metric, *m_latest),
                                   DashboardText::metricValue(m_metric, peak))
                        : tr("%1, the last hour").arg(title));
    setAccessibleDescription(toolTip());
    update();
}

QSize MetricGraph::sizeHint() const
{
    return QSize(280, fontMetrics().height() * 5 + 8);
}

QSize MetricGraph::minimumSizeHint() const
{
    return QSize(160, fontMetrics().height() * 5);
}

void MetricGraph::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    painter.setRenderHint(QPainter::Antialiasing);
    const QPalette &pal = palette();
    const QColor text = pal.color(QPalette::WindowText);
    QColor muted = text;
    muted.setAlphaF(0.6);

    // On top: the metric's name, and its value now on the right.
    const QFontMetrics titleMetrics(font());
    const int titleHeight = titleMetrics.height();
    QFont bold = font();
    bold.setBold(true);
    painter.setFont(bold);
    painter.setPen(text);
    const QRect titleRect(0, 0, width(), titleHeight);
    painter.drawText(titleRect, Qt::AlignLeft | Qt::AlignVCenter, DashboardText::metricTitle(m_metric));
    if (m_latest)
        painter.drawText(titleRect, Qt::AlignRight | Qt::AlignVCenter, DashboardText::metricValue(m_metric, *m_latest));

    // The axes' labels in a smaller font: the top of the value axis, 0, and the hour's time marks.
    const QFont small = smaller(font());
    const QFontMetrics smallMetrics(small);
    painter.setFont(small);
    const QString topLabel = DashboardText::metricAxisValue(m_metric, m_axisMax);
    const QString zeroLabel = QStringLiteral("0");
    const int axisWidth = qMax(smallMetrics.horizontalAdvance(topLabel), smallMetrics.horizontalAdvance(zeroLabel)) + 4;
    // Room above the plot for half the top label, which is centred on the plot's top edge.
    const double top = titleHeight + smallMetrics.height() / 2.0 + 1.5;
    const QRectF plot(axisWidth + 0.5, top, width() - axisWidth - 1.0, height() - top - smallMetrics.height() - 3.0);
    if (plot.width() < 10 || plot.height() < 10)
        return;

    painter.setPen(muted);
    painter.drawText(QRectF(0, plot.top() - smallMetrics.height() / 2.0, axisWidth - 4, smallMetrics.height()),
                     Qt::AlignRight | Qt::AlignVCenter, topLabel);
    painter.drawText(QRectF(0, plot.bottom() - smallMetrics.height() / 2.0, axisWidth - 4, smallMetrics.height()),
                     Qt::AlignRight | Qt::AlignVCenter, zeroLabel);
    const QRectF timeAxis(plot.left(), plot.bottom() + 2, plot.width(), smallMetrics.height());
    painter.drawText(timeAxis, Qt::AlignLeft | Qt::AlignTop, tr("−60 min"));
    painter.drawText(timeAxis, Qt::AlignHCenter | Qt::AlignTop, tr("−30 min"));
    painter.drawText(timeAxis, Qt::AlignRight | Qt::AlignTop, tr("now"));

    painter.fillRect(plot, pal.base());
    QColor grid = pal.color(QPalette::Mid);
    grid.setAlphaF(0.5);
    painter.setPen(QPen(grid, 0, Qt::DotLine));
    for (double fraction : {0.25, 0.5, 0.75}) {
        const double y = plot.bottom() - plot.height() * fraction;
        painter.drawLine(QPointF(plot.left(), y), QPointF(plot.right(), y));
        const double x = plot.left() + plot.width() * fraction;
        painter.drawLine(QPointF(x, plot.top()), QPointF(x, plot.bottom()));
    }

    const qint64 spanStart = m_nowMs - MetricHistory::kSpanMs;
    const auto pointOf = [&](const MetricHistory::Point &point) {
        const double x = plot.left() + plot.width() * double(point.atMs - spanStart) / double(MetricHistory::kSpanMs);
        const double y = plot.bottom() - plot.height() * qBound(0.0, point.value / m_axisMax, 1.0);
        return QPointF(x, y);
    };
    const QColor line = pal.color(QPalette::Highlight);
    QColor area = line;
    area.setAlphaF(0.25);
    for (const MetricHistory::Line &samples : std::as_const(m_lines)) {
        QPainterPath path;
        path.moveTo(pointOf(samples.first()));
        for (qsizetype i = 1; i < samples.size(); ++i)
            path.lineTo(pointOf(samples.at(i)));
        if (samples.size() == 1) // a lone sample: a short tick, so that it shows
            path.lineTo(pointOf(samples.first()) + QPointF(2, 0));
        QPainterPath filled = path;
        filled.lineTo(filled.currentPosition().x(), plot.bottom());
        filled.lineTo(pointOf(samples.first()).x(), plot.bottom());
        filled.closeSubpath();
        painter.fillPath(filled, area);
        painter.setPen(QPen(line, 1.5));
        painter.drawPath(path);
    }

    painter.setRenderHint(QPainter::Antialiasing, false);
    painter.setPen(pal.color(QPalette::Mid));
    painter.setBrush(Qt::NoBrush);
    painter.drawRect(plot);
}
