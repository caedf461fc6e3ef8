// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The monitor's slow questions to the GPU backends, asked on clocks of their own and never on the preemption path: a
// sample of every GPU every kSampleMs while someone looks at the metrics, and the process lists of the open-only
// holders beside a workload every kOpenOnlyWatchMs.
#include "base/clock.h"
#include "config/config.h"
#include "model/decision.h"
#include "model/gpumetrics.h"

#include <QObject>

class QTimer;
class SnapshotCollector;

// The sampler that asks the GPU backends the monitor's slow questions on its own timers.
class GpuSampler : public QObject
{
    Q_OBJECT
public:
    // The period of the samples while someone looks at the metrics.
    static constexpr int kSampleMs = 2000;
    // The period of the open-only watch. It is the price of busy_when = computes or memory: preemption waits up to
    // this long after the job's CUDA context appears, instead of answering the open itself.
    static constexpr int kOpenOnlyWatchMs = 200;

    // `collector`, `config` and `decision` are the monitor's: its backends, its config in force and its last
    // decision, which the open-only watch reads when it comes due.
    GpuSampler(SnapshotCollector &collector, const Clock *clock, const Config &config, const Decision &decision,
               QObject *parent = nullptr);

    // Returns the last sample; before the first, what the backends are (describeBackends()).
    const GpuMetrics &metrics() const { return m_metrics; }
    // Describes the backends after they changed, until the next sample.
    void describeBackends();
    // Asks every backend now, and keeps the answer as metrics().
    const GpuMetrics &sample();

    // Says whether someone looks at the metrics. While someone does, sampleDue() comes now and every kSampleMs; it
    // never comes without a backend that covers a GPU.
    void setWanted(bool wanted);
    // Updates the open-only watch after each decision: the open-only holders are watched while one shares a GPU with
    // a workload, where a backend can measure it.
    void updateOpenOnlyWatch();
    // Stops sampleDue() and the watch until they are asked for again.
    void stop();

Q_SIGNALS:
    // It is time for the monitor's sample (Monitor::sampleGpus(), which calls sample()).
    void sampleDue();
    // An open-only holder now uses its GPU in a way that the GPU's busy_when counts, so it is time for a scan.
    void openOnlyHolderBusy();

private:
    void watchOpenOnlyHolders();

    SnapshotCollector &m_collector;
    const Clock *m_clock;
    const Config &m_config;
    const Decision &m_decision;
    GpuMetrics m_metrics;
    QTimer *m_sampleTimer;
    QTimer *m_openOnlyWatchTimer;
};
