// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// What idlegpu does, for a fleet's Prometheus: a MonitorState in the Prometheus text exposition format 0.0.4, as
// node_exporter's textfile collector reads it. Pure: no I/O, no clock of its own (MetricsTextFile writes it).
//
// Every family has its # HELP and # TYPE lines, values are in base units (seconds, joules), counters end in _total.
// The GPU's labels are dcgm-exporter's, so that a dashboard can put both side by side: gpu (idlegpu's index, the N
// of /dev/nvidiaN), UUID and modelName where a backend named them, device ("nvidia0"). Workloads are labelled by
// their id (the section name, "process-0"), which a rename in the file does not change; idlegpu_workload_info maps
// it to the name users see. docs/metrics.md is the reference.
#include "model/monitorstate.h"

#include <QByteArray>
#include <QString>

namespace MetricsText {

struct Moment
{
    qint64 nowMs = 0;     // monotonic, as the monitor's clock: whether a pause with an end still holds
    qint64 nowWallMs = 0; // ms since the epoch: idlegpu_last_update_timestamp_seconds
    // false: the last file of an idlegpu that exits (idlegpu_up 0), whose values stay where they were.
    bool up = true;
    QString version; // idlegpu_info{version}
};

QByteArray render(const MonitorState &state, const Moment &moment);

// A label value as the format wants it: backslash, double quote and line feed escaped.
QString escapeLabelValue(const QString &value);
// A sample value: integers without a fraction, the shortest decimal that reads back as the same double otherwise,
// NaN, +Inf, -Inf.
QByteArray formatValue(double value);

} // namespace MetricsText
