// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "gpusampler.h"

// An open-only holder is a foreign holder that does not count yet: under busy_when = auto a graphics client below the
// thresholds it counts above, under computes or memory a job that only has the GPU open. Only a backend can tell when
// it starts to count.

#include "base/logging.h"
#include "policy/policy.h"
#include "snapshotcollector.h"

#include <QTimer>

#include <algorithm>

GpuSampler::GpuSampler(SnapshotCollector &collector, const Clock *clock, const Config &config,
                       const Decision &decision, QObject *parent)
    : QObject(parent),
      m_collector(collector),
      m_clock(clock),
      m_config(config),
      m_decision(decision),
      m_sampleTimer(new QTimer(this)),
      m_openOnlyWatchTimer(new QTimer(this))
{
    m_sampleTimer->setInterval(kSampleMs);
    connect(m_sampleTimer, &QTimer::timeout, this, &GpuSampler::sampleDue);
    m_openOnlyWatchTimer->setInterval(kOpenOnlyWatchMs);
    connect(m_openOnlyWatchTimer, &QTimer::timeout, this, &GpuSampler::watchOpenOnlyHolders);
}

void GpuSampler::describeBackends()
{
    m_metrics = m_collector.backends().describe();
}

const GpuMetrics &GpuSampler::sample()
{
    m_metrics = m_collector.sampleGpus();
    m_metrics.sampledAtMs = m_clock->nowMs();
    return m_metrics;
}

void GpuSampler::setWanted(bool wanted)
{
    if (!m_collector.backends().coversAny() || wanted == m_sampleTimer->isActive())
        return;
    if (!wanted) {
        m_sampleTimer->stop();
        return;
    }
    m_sampleTimer->start();
    Q_EMIT sampleDue();
}

void GpuSampler::updateOpenOnlyWatch()
{
    // Only where a backend can measure them: without one, a graphics client under busy_when = auto never counts.
    const bool openOnlyBesideWorkload
        = std::any_of(m_decision.gpus.cbegin(), m_decision.gpus.cend(), [this](const GpuStatus &gpu) {
              return !gpu.openOnlyHolders.isEmpty() && !gpu.workloadId.isEmpty()
                     && m_collector.backends().canJudgeUse(gpu.index);
          });
    if (openOnlyBesideWorkload && !m_openOnlyWatchTimer->isActive())
        m_openOnlyWatchTimer->start();
    else if (!openOnlyBesideWorkload)
        m_openOnlyWatchTimer->stop();
}

void GpuSampler::stop()
{
    m_sampleTimer->stop();
    m_openOnlyWatchTimer->stop();
}

void GpuSampler::watchOpenOnlyHolders()
{
    // A graphics client beside a workload (busy_when = auto: a game starts rendering) or a job that opened a
    // workload's GPU without computing yet (computes / memory): ask NVML's process lists alone (a fraction of a
    // millisecond per GPU) and the fdinfo of these holders (AMD, Intel), and rescan only once one of them would make
    // its GPU busy, since a full scan costs more with many processes.
    QList<Holder> watched;
    for (const GpuStatus &gpu : std::as_const(m_decision.gpus))
        for (Holder holder : gpu.openOnlyHolders) {
            holder.gpuUse.clear();
            holder.gpuMemoryBytes.reset();
            watched.append(holder);
        }
    const qsizetype watchedCount = watched.size();
    m_collector.backends().refreshProcesses();
    m_collector.backends().judgeHolders(watched, m_collector.paths().procRoot);
    for (qsizetype i = 0; i < watchedCount; ++i)
        for (int gpu : std::as_const(watched[i].gpus))
            if (Policy::makesBusy(watched[i], gpu, m_config.busyRuleFor(gpu))) {
                qCInfo(lcScan, "%s now uses GPU %d beyond an open node", qPrintable(watched[i].describe()), gpu);
                Q_EMIT openOnlyHolderBusy();
                return;
            }
}
