// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The brushes that paint what a GPU did, the same in the last hour's strip, the 24-hour timeline and the legend. A
// workload is green and your jobs are blue (hues that read on light and dark themes alike); idle is the window's base,
// and "not watched" is hatched, so that a pattern tells it apart as well as a colour.
#include "model/ledgersummary.h"

#include <QBrush>
#include <QPalette>

namespace ActivityBrush {
QColor workloadColor();
QColor foreignUseColor();
QBrush of(GpuActivity activity, const QPalette &palette);
// Returns a small square of the activity's colour and its name, for a QLabel's rich-text legend.
QString legendHtml(const QPalette &palette);
} // namespace ActivityBrush
