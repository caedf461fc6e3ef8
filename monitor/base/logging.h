// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The logging categories of idlegpu. Enable their debug output with QT_LOGGING_RULES="idlegpu.*.debug=true".
#include <QLoggingCategory>

Q_DECLARE_LOGGING_CATEGORY(lcConfig)   // idlegpu.config
Q_DECLARE_LOGGING_CATEGORY(lcScan)     // idlegpu.scan
Q_DECLARE_LOGGING_CATEGORY(lcPolicy)   // idlegpu.policy
Q_DECLARE_LOGGING_CATEGORY(lcRunner)   // idlegpu.runner
Q_DECLARE_LOGGING_CATEGORY(lcMonitor)  // idlegpu.monitor
Q_DECLARE_LOGGING_CATEGORY(lcPresence) // idlegpu.presence: whether a person sits at the computer ([activity])
Q_DECLARE_LOGGING_CATEGORY(lcWorkload) // idlegpu.workload: the output of workloads without log=
Q_DECLARE_LOGGING_CATEGORY(lcPower)    // idlegpu.power: whether the computer runs on AC or on battery
Q_DECLARE_LOGGING_CATEGORY(lcLedger)   // idlegpu.ledger: what the idle GPUs did, kept in the user's state
Q_DECLARE_LOGGING_CATEGORY(lcSlurm)    // idlegpu.slurm: the holds and lending of [slurm], and Slurm's answers
Q_DECLARE_LOGGING_CATEGORY(lcMetrics)  // idlegpu.metrics: the [metrics] textfile for node_exporter
