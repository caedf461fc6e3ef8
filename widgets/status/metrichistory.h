// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The record of a GPU's backend metrics over the last hour, from MonitorState::gpuMetrics, for the dashboard's graphs.
// It holds no widget: it says what is kept, where a line breaks and how high an axis goes.
#include "backends/gpubackend.h"

#include <QList>

#include <optional>

enum class GpuMetric { Utilization, Memory, Temperature, Power };

class MetricHistory
{
public:
    static constexpr qint64 kSpanMs = 3'600'000;
    // The gap beyond which two samples are not joined by a line. While the window is hidden the monitor samples at its
    // fallback poll only, up to a few minutes apart in slow configurations.
    static constexpr qint64 kMaxGapMs = 5 * 60'000;
    // At most this many samples, whatever the rate (every 2 s while shown: 1800 an hour).
    static constexpr int kCapacity = 2048;

    struct Point
    {
        qint64 atMs = 0;
        double value = 0; // in the metric's unit: %, GiB, °C, W
    };
    using Line = QList<Point>;

    static QList<GpuMetric> allMetrics() { return {GpuMetric::Utilization, GpuMetric::Memory, GpuMetric::Temperature,
                                                   GpuMetric::Power}; }

    // Notes the sample taken at `atMs` (monotonic); a sample at or before the last one is ignored, so the same
    // GpuMetrics may be handed on at every state update. What is older than the span is dropped.
    void record(const GpuInfo &info, qint64 atMs);

    // Returns whether a sample within the last hour before `nowMs` gave this metric: only those get a graph.
    bool has(GpuMetric metric, qint64 nowMs) const;
    // Returns the metric's lines within the span, oldest first, broken where samples are more than kMaxGapMs apart or
    // the backend left the metric out.
    QList<Line> lines(GpuMetric metric, qint64 nowMs) const;
    // Returns the newest value within the span; absent when the last sample lacks it.
    std::optional<double> latest(GpuMetric metric, qint64 nowMs) const;
    // Returns the top of the value axis: 100 % utilization, the GPU's memory, 100 °C or the peak rounded up, the peak
    // power rounded up to a round number of watts (at least 50 W).
    double axisMax(GpuMetric metric, qint64 nowMs) const;

    int sampleCount() const { return int(m_samples.size()); }

private:
    struct Sample
    {
        qint64 atMs = 0;
        std::optional<double> values[4];
        std::optional<double> memoryTotalGiB;
    };
    static std::optional<double> valueOf(const GpuInfo &info, GpuMetric metric);
    // Returns the first sample within the span before nowMs.
    qsizetype firstInSpan(qint64 nowMs) const;

    // The samples, oldest first. Qt 6's QList keeps free space at its front, so dropping the oldest moves nothing.
    QList<Sample> m_samples;
};
