// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A line-and-area graph of one GPU metric over the last hour, with its name and value on top and its axes on the left
// and below. It paints in palette colours only, so it follows dark themes.
#include "status/metrichistory.h"

#include <QWidget>

class MetricGraph : public QWidget
{
    Q_OBJECT
public:
    explicit MetricGraph(GpuMetric metric, QWidget *parent = nullptr);

    GpuMetric metric() const { return m_metric; }
    // Takes what it paints from the history (a copy of its lines: the history goes on recording).
    void setHistory(const MetricHistory &history, qint64 nowMs);
    const QList<MetricHistory::Line> &lines() const { return m_lines; }

    QSize sizeHint() const override;
    QSize minimumSizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    GpuMetric m_metric;
    QList<MetricHistory::Line> m_lines;
    std::optional<double> m_latest;
    double m_axisMax = 1;
    qint64 m_nowMs = 0;
};
