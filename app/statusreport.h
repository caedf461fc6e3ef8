// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// `idlegpu --status` and `idlegpu --check-config`: one-shot reports on stdout. --status formats what
// Monitor::lookOnce() returns.
#include "model/monitorstate.h"

#include <QJsonObject>
#include <QTextStream>

namespace StatusReport {

QString formatText(const MonitorState &state);
// [slurm]: "lent to the lab: job 1234 (bob)", "lent to the lab (no job yet)", "held for you" or "Slurm unreachable:
// ..." for a GPU, from its lending workload's runtime; empty when the GPU has none (not in Slurm mode).
QString describeSlurmGpu(const MonitorState &state, int gpu);
QJsonObject toJson(const MonitorState &state);

// The configuration as understood: every key of the table (config/configkeys.h), every workload with its command
// exactly as read and the words it is split into.
QString formatConfig(const Config &config);

// How to create the configuration file `configPath` that does not exist yet: the settings dialog, or a copy of
// the example file. Lines for a terminal, each ending in a newline.
QString howToSetUp(const QString &configPath);
// The example configuration installed with idlegpu (or the source tree's, for a build run from its tree); the
// package's path when neither is found.
QString exampleConfigPath();

} // namespace StatusReport
