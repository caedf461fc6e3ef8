// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The value types of what the monitor knows at a moment, as every front end shows it, and of what it tells them
// about a preemption.
#include "config/config.h"
#include "model/decision.h"
#include "model/gpumetrics.h"
#include "model/ledgersummary.h"
#include "model/snapshot.h"
#include "model/workloadruntime.h"

#include <QHash>
#include <QList>
#include <QMetaType>

#include <optional>

// A workload stopped because someone else opened its GPU.
struct PreemptionEvent
{
    QString workloadId;
    QString workloadName;
    int gpu = -1;
    Holder culprit;
    qint64 atMs = 0;
    // The time from the open to the SIGTERM, as far as idlegpu can know when the open was (Monitor::openToStopMs());
    // absent when a poll or a backend found the job.
    std::optional<double> openToStopMs;
};

// Everything that a front end shows: the headless logger, the tray, the status window and --status consume it.
struct MonitorState
{
    Config config;                          // the configuration in force (the last good one)
    QList<ConfigDiagnostic> configProblems; // from the last load; errors mean that the file was not applied
    Snapshot snapshot;
    Decision decision;
    QHash<QString, WorkloadRuntime> runtimes;
    PauseState pause;
    GpuMetrics gpuMetrics; // the GPU backends' last sample (names, UUIDs, utilization...)
    LedgerSummary ledger;  // what the idle GPUs did: GPU-hours, energy, preemptions, the last 24 h
    // Whether there is no config file yet (Monitor::acceptMissingConfig()): the GPUs are watched with no workloads
    // until one appears.
    bool notSetUp = false;
    bool shuttingDown = false;
};

Q_DECLARE_METATYPE(PreemptionEvent)
