// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "status/activitybrush.h"

#include "status/dashboardtext.h"

#include <QStringList>

namespace ActivityBrush {

QColor workloadColor()
{
    return QColor(0x43, 0xa0, 0x47);
}

QColor foreignUseColor()
{
    return QColor(0x1e, 0x88, 0xe5);
}

QBrush of(GpuActivity activity, const QPalette &palette)
{
    switch (activity) {
    case GpuActivity::Workload: return workloadColor();
    case GpuActivity::ForeignUse: return foreignUseColor();
    case GpuActivity::Idle: return palette.base();
    case GpuActivity::Unwatched: return QBrush(palette.mid().color(), Qt::BDiagPattern);
    }
    return palette.base();
}

QString legendHtml(const QPalette &palette)
{
    QStringList items;
    for (GpuActivity activity : {GpuActivity::Workload, GpuActivity::ForeignUse, GpuActivity::Idle,
                                 GpuActivity::Unwatched}) {
        // Idle as an empty square, not watched as a hatched one: the base colour itself would not show.
        const bool filled = activity == GpuActivity::Workload || activity == GpuActivity::ForeignUse;
        const QColor color = filled ? of(activity, palette).color() : palette.mid().color();
        const char *square = filled ? "&#9632;" : activity == GpuActivity::Idle ? "&#9633;" : "&#9640;";
        items.append(QStringLiteral("<span style=\"color:%1\">%2</span>&nbsp;%3")
                         .arg(color.name(), QLatin1String(square),
                              DashboardText::activityName(activity).toHtmlEscaped()));
    }
    return items.join(QStringLiteral("&nbsp;&nbsp;&nbsp;"));
}

} // namespace ActivityBrush
