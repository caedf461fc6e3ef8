// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "status/preemptionlist.h"

#include "status/dashboardtext.h"

#include <QHeaderView>
#include <QLabel>
#include <QTimeZone>
#include <QTreeWidget>
#include <QVBoxLayout>

PreemptionList::PreemptionList(QWidget *parent) : QGroupBox(tr("Last preemptions"), parent)
{
    auto *layout = new QVBoxLayout(this);
    m_tree = new QTreeWidget(this);
    m_tree->setObjectName(QStringLiteral("preemptions"));
    m_tree->setAccessibleName(tr("Last preemptions"));
    m_tree->setColumnCount(ColumnCount);
    m_tree->setHeaderLabels({tr("When"), tr("GPU"), tr("Stopped"), tr("For"), tr("Open to stop")});
    m_tree->headerItem()->setToolTip(OpenToStopColumn,
                                     tr("From the foreign program's open of the GPU to the workload's stop"));
    m_tree->setRootIsDecorated(false);
    m_tree->setAlternatingRowColors(true);
    m_tree->setUniformRowHeights(true);
    m_tree->setSelectionMode(QAbstractItemView::NoSelection);
    m_tree->setFocusPolicy(Qt::NoFocus);
    m_tree->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the "For" column elides instead
    m_tree->header()->setStretchLastSection(false);
    m_tree->header()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_tree->header()->setSectionResizeMode(CulpritColumn, QHeaderView::Stretch);
    // Five rows at least, more where the window has room: not the 192 px every scroll area asks for by default.
    m_tree->setMinimumHeight(m_tree->fontMetrics().height() * 7);
    m_tree->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Ignored);
    layout->addWidget(m_tree);
    m_empty = new QLabel(tr("No workload was stopped for a job of yours yet."), this);
    m_empty->setObjectName(QStringLiteral("noPreemptions"));
    m_empty->setWordWrap(true);
    layout->addWidget(m_empty);
    m_tree->hide();
}

void PreemptionList::setRecords(const QList<PreemptionRecord> &records, const QDateTime &wallNow)
{
    const qint64 newest = records.isEmpty() ? 0 : records.first().wallMs;
    if (newest == m_newestWallMs && records.size() == m_shown && wallNow.date() == m_shownOn)
        return;
    m_newestWallMs = newest;
    m_shown = records.size();
    m_shownOn = wallNow.date();
    m_tree->clear();
    QList<QTreeWidgetItem *> items;
    for (const PreemptionRecord &record : records) {
        const QString openToStop = DashboardText::openToStop(record.openToStopMs);
        auto *item = new QTreeWidgetItem(QStringList{
            DashboardText::wallTime(record.wallMs, wallNow),
            QString::number(record.gpu),
            record.workloadName,
            DashboardText::culprit(record),
            openToStop.isEmpty() ? tr("by a scan") : openToStop,
        });
        item->setTextAlignment(GpuColumn, Qt::AlignCenter);
        item->setTextAlignment(OpenToStopColumn, Qt::AlignRight | Qt::AlignVCenter);
        item->setToolTip(WhenColumn, QDateTime::fromMSecsSinceEpoch(record.wallMs, wallNow.timeZone())
                                         .toString(QStringLiteral("yyyy-MM-dd HH:mm:ss")));
        item->setToolTip(CulpritColumn, item->text(CulpritColumn));
        if (openToStop.isEmpty())
            item->setToolTip(OpenToStopColumn, tr("A scan found the job, not its open: no open-to-stop time"));
        items.append(item);
    }
    m_tree->addTopLevelItems(items);
    m_tree->setVisible(!records.isEmpty());
    m_empty->setVisible(records.isEmpty());
}
