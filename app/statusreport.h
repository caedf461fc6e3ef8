// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The printers of `idlegpu --status` and `idlegpu --check-config`, one-shot reports on stdout. --status formats what
// Monitor::lookOnce() returns.
#include "model/monitorstate.h"

#include <QJsonObject>
#include <QTextStream>

// The functions that format the reports.
namespace StatusReport {

// Returns the --status report as text.
QString formatText(const MonitorState &state);
// Returns a GPU's [slurm] state from its lending workload's runtime: "lent to the lab: job 1234 (bob)", "lent to the
// lab (no job yet)", "held for you" or "Slurm unreachable: ..."; empty when the GPU has none (not in Slurm mode).
QString describeSlurmGpu(const MonitorState &state, int gpu);
// Returns the --status --json report.
QJsonObject toJson(const MonitorState &state);

// Returns the configuration as understood: every key of the table (config/configkeys.h), and every workload with
// its command exactly as read and the words it is split into.
QString formatConfig(const Config &config);

// Returns how to create the configuration file `configPath` that does not exist yet: with the settings dialog, or
// as a copy of the example file. The lines are for a terminal, each ending in a newline.
QString howToSetUp(const QString &configPath);
// Returns the path of the example configuration installed with idlegpu (or the source tree's, for a build run from
// its tree); the package's path when neither is found.
QString exampleConfigPath();

} // namespace StatusReport
