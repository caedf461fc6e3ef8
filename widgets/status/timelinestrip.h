// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The strip that paints a GPU's last 24 hours from the ledger's timeline, with the clock times every 6 hours below it.
#include "model/ledgersummary.h"

#include <QDateTime>
#include <QWidget>

class TimelineStrip : public QWidget
{
    Q_OBJECT
public:
    static constexpr qint64 kSpanMs = LedgerSummary::kTimelineSpanMs;
    static constexpr int kTickHours = 6;

    struct Bar
    {
        double fromX = 0;
        double toX = 0;
        GpuActivity activity = GpuActivity::Unwatched;
    };
    // Returns where each segment lies on a strip `width` wide that spans [spanStartMs, spanEndMs] of the wall clock:
    // clipped to the span, segments outside it left out. What no segment covers stays unpainted (not watched).
    static QList<Bar> bars(const QList<ActivitySegment> &segments, qint64 spanStartMs, qint64 spanEndMs, double width);
    // Returns the full hours divisible by `stepHours` in the time zone of `wallNow` within [spanStartMs, spanEndMs].
    static QList<qint64> ticks(qint64 spanStartMs, qint64 spanEndMs, int stepHours, const QDateTime &wallNow);

    explicit TimelineStrip(QWidget *parent = nullptr);
    void setTimeline(const QList<ActivitySegment> &segments, const QDateTime &wallNow);
    const QList<ActivitySegment> &segments() const { return m_segments; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    QList<ActivitySegment> m_segments;
    QDateTime m_wallNow;
};
