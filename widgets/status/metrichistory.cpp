// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "status/metrichistory.h"

#include <cmath>

namespace {
constexpr double kGiB = 1024.0 * 1024.0 * 1024.0;
int slot(GpuMetric metric)
{
    return int(metric);
}
} // namespace

std::optional<double> MetricHistory::valueOf(const GpuInfo &info, GpuMetric metric)
{
    switch (metric) {
    case GpuMetric::Utilization:
        return info.utilizationPercent ? std::optional<double>(*info.utilizationPercent) : std::nullopt;
    case GpuMetric::Memory:
        return info.memoryUsedBytes ? std::optional<double>(double(*info.memoryUsedBytes) / kGiB) : std::nullopt;
    case GpuMetric::Temperature:
        return info.temperatureCelsius ? std::optional<double>(*info.temperatureCelsius) : std::nullopt;
    case GpuMetric::Power:
        return info.powerMilliwatts ? std::optional<double>(*info.powerMilliwatts / 1000.0) : std::nullopt;
    }
    return std::nullopt;
}

void MetricHistory::record(const GpuInfo &info, qint64 atMs)
{
    if (!m_samples.isEmpty() && atMs <= m_samples.last().atMs)
        return;
    Sample sample;
    sample.atMs = atMs;
    bool any = false;
    for (GpuMetric metric : allMetrics()) {
        sample.values[slot(metric)] = valueOf(info, metric);
        any = any || sample.values[slot(metric)].has_value();
    }
    if (info.memoryTotalBytes && *info.memoryTotalBytes > 0)
        sample.memoryTotalGiB = double(*info.memoryTotalBytes) / kGiB;
    if (!any && m_samples.isEmpty())
        return; // a backend that measures nothing on this GPU: no history at all
    m_samples.append(sample);
    while (!m_samples.isEmpty() && (m_samples.first().atMs < atMs - kSpanMs || m_samples.size() > kCapacity))
        m_samples.removeFirst();
}

qsizetype MetricHistory::firstInSpan(qint64 nowMs) const
{
    qsizetype i = 0;
    while (i < m_samples.size() && m_samples.at(i).atMs < nowMs - kSpanMs)
        ++i;
    return i;
}

bool MetricHistory::has(GpuMetric metric, qint64 nowMs) const
{
    for (qsizetype i = firstInSpan(nowMs); i < m_samples.size(); ++i)
        if (m_samples.at(i).values[slot(metric)])
            return true;
    return false;
}

QList<MetricHistory::Line> MetricHistory::lines(GpuMetric metric, qint64 nowMs) const
{
    QList<Line> result;
    Line current;
    qint64 previousMs = 0;
    for (qsizetype i = firstInSpan(nowMs); i < m_samples.size(); ++i) {
        const Sample &sample = m_samples.at(i);
        if (sample.atMs > nowMs)
            break;
        const std::optional<double> value = sample.values[slot(metric)];
        const bool gap = !current.isEmpty() && sample.atMs - previousMs > kMaxGapMs;
        if ((!value || gap) && !current.isEmpty()) {
            result.append(current);
            current.clear();
        }
        if (value)
            current.append({sample.atMs, *value});
        previousMs = sample.atMs;
    }
    if (!current.isEmpty())
        result.append(current);
    return result;
}

std::optional<double> MetricHistory::latest(GpuMetric metric, qint64 nowMs) const
{
    if (m_samples.isEmpty() || m_samples.last().atMs < nowMs - kSpanMs)
        return std::nullopt;
    return m_samples.last().values[slot(metric)];
}

double MetricHistory::axisMax(GpuMetric metric, qint64 nowMs) const
{
    double peak = 0;
    std::optional<double> total;
    for (qsizetype i = firstInSpan(nowMs); i < m_samples.size(); ++i) {
        const Sample &sample = m_samples.at(i);
        if (const std::optional<double> value = sample.values[slot(metric)])
            peak = qMax(peak, *value);
        if (sample.memoryTotalGiB)
            total = sample.memoryTotalGiB;
    }
    switch (metric) {
    case GpuMetric::Utilization: return 100;
    case GpuMetric::Memory: return total ? qMax(*total, peak) : qMax(1.0, std::ceil(peak));
    case GpuMetric::Temperature: return peak < 100 ? 100 : std::ceil(peak / 10) * 10 + 10;
    case GpuMetric::Power: {
        // 50, 100, 150 ... up to 500 W; then in steps of 100 W.
        const double step = peak > 500 ? 100 : 50;
        return qMax(50.0, std::ceil(peak / step) * step + (std::fmod(peak, step) == 0 && peak > 0 ? step : 0));
    }
    }
    return 1;
}
