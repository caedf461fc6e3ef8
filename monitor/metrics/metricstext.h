// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The renderer of what idlegpu does for a fleet's Prometheus: a MonitorState in the Prometheus text exposition
// format 0.0.4, as node_exporter's textfile collector reads it. It is pure, without I/O or a clock of its own
// (MetricsTextFile writes the text).
// docs/metrics.md is the reference of its families and labels.
#include "model/monitorstate.h"

#include <QByteArray>
#include <QString>

namespace MetricsText {

// The moment that a rendering describes.
struct Moment
{
    qint64 nowMs = 0;     // monotonic, as the monitor's clock, to tell whether a pause with an end still holds
    qint64 nowWallMs = 0; // ms since the epoch, for idlegpu_last_update_timestamp_seconds
    // False for the last file of an idlegpu that exits (idlegpu_up 0), whose values stay where they were.
    bool up = true;
    QString version; // idlegpu_info{version}
};

// Returns the text of the whole file.
QByteArray render(const MonitorState &state, const Moment &moment);

// Returns a label value as the format wants it, with backslash, double quote and line feed escaped.
QString escapeLabelValue(const QString &value);
// Returns a sample value: an integer without a fraction, otherwise the shortest decimal that reads back as the same
// double, or NaN, +Inf, -Inf.
QByteArray formatValue(double value);

} // namespace MetricsText
