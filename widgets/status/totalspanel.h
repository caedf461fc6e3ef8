// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// What the idle GPUs did, all together: GPU-hours of workload, preemptions and (where a backend measures it) the
// energy the workloads used, today, this week and in total — the ledger's figures, which survive a restart.
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
    // The figure of a row and period ("12.4 GPU-h"); what the panel shows.
    QString figure(Row row, Period period) const;
    bool energyShown() const;

private:
    QLabel *m_figures[RowCount][PeriodCount];
    QLabel *m_rowNames[RowCount];
    QLabel *m_since;
};
