// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The list of the last preemptions, newest first, with when, on which GPU, which workload, for whom, and how long the
// stop took from the foreign open.
#include "model/ledgersummary.h"

#include <QDateTime>
#include <QGroupBox>

class QLabel;
class QTreeWidget;

class PreemptionList : public QGroupBox
{
    Q_OBJECT
public:
    enum Column { WhenColumn, GpuColumn, WorkloadColumn, CulpritColumn, OpenToStopColumn, ColumnCount };

    explicit PreemptionList(QWidget *parent = nullptr);
    // Rebuilds the rows only when the records changed; a row's time changes with wallNow only from today to a date.
    void setRecords(const QList<PreemptionRecord> &records, const QDateTime &wallNow);
    QTreeWidget *tree() const { return m_tree; }

private:
    QTreeWidget *m_tree;
    QLabel *m_empty;
    qint64 m_newestWallMs = -1;
    qsizetype m_shown = -1;
    QDate m_shownOn;
};
