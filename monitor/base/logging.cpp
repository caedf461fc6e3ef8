// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "base/logging.h"

Q_LOGGING_CATEGORY(lcConfig, "idlegpu.config", QtInfoMsg)
Q_LOGGING_CATEGORY(lcScan, "idlegpu.scan", QtInfoMsg)
Q_LOGGING_CATEGORY(lcPolicy, "idlegpu.policy", QtInfoMsg)
Q_LOGGING_CATEGORY(lcRunner, "idlegpu.runner", QtInfoMsg)
Q_LOGGING_CATEGORY(lcMonitor, "idlegpu.monitor", QtInfoMsg)
Q_LOGGING_CATEGORY(lcPresence, "idlegpu.presence", QtInfoMsg)
Q_LOGGING_CATEGORY(lcWorkload, "idlegpu.workload", QtInfoMsg)
Q_LOGGING_CATEGORY(lcPower, "idlegpu.power", QtInfoMsg)
Q_LOGGING_CATEGORY(lcLedger, "idlegpu.ledger", QtInfoMsg)
Q_LOGGING_CATEGORY(lcSlurm, "idlegpu.slurm", QtInfoMsg)
Q_LOGGING_CATEGORY(lcMetrics, "idlegpu.metrics", QtInfoMsg)
