// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The panel of what the idle GPUs did together today, this week and in total: GPU-hours of workload, preemptions and
// the workloads' energy where a backend measures it. The figures are the ledger's, which survive a restart.
#include "model/ledgersummary.h"

#include <QDateTime>
#include <QGroupBox>

class QLabel;

class TotalsPanel : public QGroupBox
{
    Q_OBJECT
public:
    enum Row { HoursRow, PreemptionsRow, EnergyRow, RowCount };
    enum Period { Today, Week, Total, PeriodCount };

    explicit TotalsPanel(QWidget *parent = nullptr);
    void setLedger(const LedgerSummary &ledger, const QDateTime &wallNow);
    // Returns the figure that the panel shows for a row and period ("12.4 GPU-h").
    QString figure(Row row, Period period) const;
    bool energyShown() const;

private:
    QLabel *m_figures[RowCount][PeriodCount];
    QLabel *m_rowNames[RowCount];
    QLabel *m_since;
};
