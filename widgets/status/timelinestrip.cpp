// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "status/timelinestrip.h"

#include "status/activitybrush.h"
#include "status/dashboardtext.h"

#include <QPainter>
#include <QTimeZone>

QList<TimelineStrip::Bar> TimelineStrip::bars(const QList<ActivitySegment> &segments, qint64 spanStartMs,
                                              qint64 spanEndMs, double width)
{
    QList<Bar> result;
    if (spanEndMs <= spanStartMs)
        return result;
    const auto xOf = [&](qint64 ms) { return width * double(ms - spanStartMs) / double(spanEndMs - spanStartMs); };
    for (const ActivitySegment &segment : segments) {
        const qint64 from = qMax(segment.fromWallMs, spanStartMs);
        const qint64 to = qMin(segment.toWallMs, spanEndMs);
        if (to > from)
            result.append({xOf(from), xOf(to), segment.activity});
    }
    return result;
}

QList<qint64> TimelineStrip::ticks(qint64 spanStartMs, qint64 spanEndMs, int stepHours, const QDateTime &wallNow)
{
    QList<qint64> result;
    const QTimeZone zone = wallNow.timeZone();
    QDateTime at = QDateTime::fromMSecsSinceEpoch(spanStartMs, zone);
    at = QDateTime(at.date(), QTime(at.time().hour(), 0), zone);
    // Hour by hour rather than adding stepHours: a change to or from summer time must not shift the marks.
    for (; at.toMSecsSinceEpoch() <= spanEndMs; at = at.addSecs(3600)) {
        if (at.toMSecsSinceEpoch() >= spanStartMs && at.time().hour() % stepHours == 0)
            result.append(at.toMSecsSinceEpoch());
    }
    return result;
}

TimelineStrip::TimelineStrip(QWidget *parent) : QWidget(parent)
{
    setAccessibleName(tr("The last 24 hours"));
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
}

void TimelineStrip::setTimeline(const QList<ActivitySegment> &segments, const QDateTime &wallNow)
{
    m_segments = segments;
    m_wallNow = wallNow;
    const QString shares = DashboardText::activityShares(segments);
    setToolTip(shares.isEmpty() ? tr("The last 24 hours: nothing recorded yet")
                                : tr("The last 24 hours: %1").arg(shares));
    setAccessibleDescription(toolTip());
    update();
}

QSize TimelineStrip::sizeHint() const
{
    return QSize(360, minimumSizeHint().height());
}

QSize TimelineStrip::minimumSizeHint() const
{
    return QSize(160, fontMetrics().height() * 2 + 4);
}

void TimelineStrip::paintEvent(QPaintEvent *)
{
    QPainter painter(this);
    const QPalette &pal = palette();
    QFont small = font();
    small.setPointSizeF(small.pointSizeF() * 0.85);
    const QFontMetrics smallMetrics(small);
    const QRectF strip(0.5, 0.5, width() - 1.0, height() - smallMetrics.height() - 3.0);

    // Not watched where no segment says otherwise.
    painter.fillRect(strip, pal.base());
    painter.fillRect(strip, ActivityBrush::of(GpuActivity::Unwatched, pal));
    const qint64 endMs = m_wallNow.toMSecsSinceEpoch();
    const qint64 startMs = endMs - kSpanMs;
    for (const Bar &bar : bars(m_segments, startMs, endMs, strip.width())) {
        const QRectF rect(QPointF(strip.left() + bar.fromX, strip.top()), QPointF(strip.left() + bar.toX, strip.bottom()));
        painter.fillRect(rect, pal.base());
        painter.fillRect(rect, ActivityBrush::of(bar.activity, pal));
    }
    painter.setPen(pal.color(QPalette::Mid));
    painter.drawRect(strip);

    QColor muted = pal.color(QPalette::WindowText);
    muted.setAlphaF(0.6);
    painter.setFont(small);
    const QList<qint64> marks = ticks(startMs, endMs, kTickHours, m_wallNow);
    for (qint64 mark : marks) {
        const double x = strip.left() + strip.width() * double(mark - startMs) / double(kSpanMs);
        painter.setPen(pal.color(QPalette::Mid));
        painter.drawLine(QPointF(x, strip.bottom()), QPointF(x, strip.bottom() + 3));
        const QString label = QDateTime::fromMSecsSinceEpoch(mark, m_wallNow.timeZone()).toString(QStringLiteral("HH:mm"));
        const double labelWidth = smallMetrics.horizontalAdvance(label);
        const double left = qBound(0.0, x - labelWidth / 2, width() - labelWidth);
        painter.setPen(muted);
        painter.drawText(QRectF(left, strip.bottom() + 2, labelWidth + 1, smallMetrics.height()), Qt::AlignCenter, label);
    }
}
