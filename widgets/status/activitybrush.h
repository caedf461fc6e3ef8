// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// How the dashboard paints what a GPU did, the same in the last hour's strip, the 24-hour timeline and the legend:
// a workload green, your jobs blue (hues that read on light and dark themes alike), idle as the window's base,
// not watched hatched in the palette's mid tone. Told apart by pattern as well as colour where it matters.
#include "model/ledgersummary.h"

#include <QBrush>
#include <QPalette>

namespace ActivityBrush {
QColor workloadColor();
QColor foreignUseColor();
QBrush of(GpuActivity activity, const QPalette &palette);
// A small square of the activity's colour and its name, for a QLabel's rich text legend.
QString legendHtml(const QPalette &palette);
} // namespace ActivityBrush
