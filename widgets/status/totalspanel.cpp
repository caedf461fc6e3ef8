// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "status/totalspanel.h"

#include "status/dashboardtext.h"

#include <QGridLayout>
#include <QLabel>
#include <QLocale>
#include <QTimeZone>

TotalsPanel::TotalsPanel(QWidget *parent) : QGroupBox(tr("What the idle GPUs did"), parent)
{
    auto *grid = new QGridLayout(this);
    grid->setHorizontalSpacing(18);
    const QString periods[PeriodCount] = {tr("Today"), tr("This week"), tr("In total")};
    for (int period = 0; period < PeriodCount; ++period) {
        auto *header = new QLabel(periods[period], this);
        header->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
        QFont font = header->font();
        font.setBold(true);
        header->setFont(font);
        grid->addWidget(header, 0, period + 1);
    }
    const QString rows[RowCount] = {tr("Workload"), tr("Preemptions"), tr("Energy")};
    const QString rowTips[RowCount] = {
        tr("GPU time with an idle workload running (two GPUs for an hour: 2 GPU-h)"),
        tr("How often a workload was stopped because a program of yours opened its GPU"),
        tr("What the GPUs used while a workload ran, as the driver measures it"),
    };
    const char *ids[RowCount] = {"hours", "preemptions", "energy"};
    const char *periodIds[PeriodCount] = {"Today", "Week", "Total"};
    for (int row = 0; row < RowCount; ++row) {
        m_rowNames[row] = new QLabel(rows[row], this);
        m_rowNames[row]->setToolTip(rowTips[row]);
        grid->addWidget(m_rowNames[row], row + 1, 0);
        for (int period = 0; period < PeriodCount; ++period) {
            auto *figure = new QLabel(this);
            figure->setObjectName(QLatin1String(ids[row]) + QLatin1String(periodIds[period]));
            figure->setAlignment(Qt::AlignRight | Qt::AlignVCenter);
            figure->setTextInteractionFlags(Qt::TextSelectableByMouse);
            figure->setToolTip(rowTips[row]);
            QFont font = figure->font();
            font.setPointSizeF(font.pointSizeF() * 1.15);
            figure->setFont(font);
            m_figures[row][period] = figure;
            grid->addWidget(figure, row + 1, period + 1);
        }
    }
    m_since = new QLabel(this);
    m_since->setObjectName(QStringLiteral("since"));
    m_since->setWordWrap(true);
    m_since->setForegroundRole(QPalette::PlaceholderText);
    grid->addWidget(m_since, RowCount + 1, 0, 1, PeriodCount + 1);
    grid->setColumnStretch(0, 1);
    grid->setRowStretch(RowCount + 2, 1);
}

void TotalsPanel::setLedger(const LedgerSummary &ledger, const QDateTime &wallNow)
{
    const WorkTotals *totals[PeriodCount] = {&ledger.all.today, &ledger.all.week, &ledger.all.total};
    const bool energy = ledger.all.total.energyJoules.has_value();
    for (int period = 0; period < PeriodCount; ++period) {
        m_figures[HoursRow][period]->setText(DashboardText::gpuHours(totals[period]->workloadMs));
        m_figures[PreemptionsRow][period]->setText(QLocale().toString(totals[period]->preemptions));
        const QString joules = DashboardText::energy(totals[period]->energyJoules);
        m_figures[EnergyRow][period]->setText(joules.isEmpty() ? tr("—") : joules);
        m_figures[EnergyRow][period]->setVisible(energy);
    }
    m_rowNames[EnergyRow]->setVisible(energy);
    if (ledger.sinceWallMs == 0)
        m_since->setText(tr("Nothing recorded yet."));
    else
        m_since->setText(tr("Since %1; kept across restarts.")
                             .arg(QDateTime::fromMSecsSinceEpoch(ledger.sinceWallMs, wallNow.timeZone())
                                      .toString(QStringLiteral("yyyy-MM-dd"))));
}

QString TotalsPanel::figure(Row row, Period period) const
{
    return m_figures[row][period]->text();
}

bool TotalsPanel::energyShown() const
{
    return !m_rowNames[EnergyRow]->isHidden();
}
