// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "status/statuswindow.h"

#include "status/activitybrush.h"
#include "status/gpucard.h"
#include "status/preemptionlist.h"
#include "status/statustext.h"
#include "status/totalspanel.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QScrollArea>
#include <QVBoxLayout>

StatusWindow::StatusWindow(QWidget *parent) : QWidget(parent)
{
    setWindowTitle(tr("idlegpu status"));
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);

    m_scroll = new QScrollArea(this);
    m_scroll->setObjectName(QStringLiteral("dashboard"));
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    // Sideways scrolling is a layout fault, not a feature: the cards wrap their text instead. Left as needed so
    // that a fault shows (and the test sees it).
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    outer->addWidget(m_scroll);

    auto *content = new QWidget;
    auto *layout = new QVBoxLayout(content);
    layout->setContentsMargins(12, 10, 12, 12);
    layout->setSpacing(10);

    auto *header = new QHBoxLayout;
    m_summary = new QLabel(content);
    m_summary->setObjectName(QStringLiteral("summary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont summaryFont = m_summary->font();
    summaryFont.setPointSizeF(summaryFont.pointSizeF() * 1.3);
    summaryFont.setBold(true);
    m_summary->setFont(summaryFont);
    // The headline in large type; the config's problems and warnings below it in the normal font, selectable.
    auto *headline = new QVBoxLayout;
    headline->setSpacing(2);
    headline->addWidget(m_summary);
    m_problems = new QLabel(content);
    m_problems->setObjectName(QStringLiteral("problems"));
    m_problems->setWordWrap(true);
    m_problems->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_problems->hide();
    headline->addWidget(m_problems);
    header->addLayout(headline, 1);
    m_legend = new QLabel(content);
    m_legend->setObjectName(QStringLiteral("legend"));
    m_legend->setToolTip(tr("The colours of the busy/idle strips and the 24-hour timelines"));
    m_legend->setText(ActivityBrush::legendHtml(palette()));
    header->addWidget(m_legend, 0, Qt::AlignBottom);
    layout->addLayout(header);

    m_cardGrid = new QGridLayout;
    m_cardGrid->setSpacing(10);
    layout->addLayout(m_cardGrid);

    auto *bottom = new QHBoxLayout;
    bottom->setSpacing(10);
    m_preemptions = new PreemptionList(content);
    bottom->addWidget(m_preemptions, 3);
    m_totals = new TotalsPanel(content);
    bottom->addWidget(m_totals, 2);
    layout->addLayout(bottom, 1); // room left over goes to the list of preemptions

    m_scroll->setWidget(content);
    resize(1240, 780); // two GPUs fit without scrolling, on a 1280×800 screen
}

void StatusWindow::applyState(const MonitorState &state, qint64 nowMs, const QDateTime &wallNow)
{
    // Always: the last hour, which must not miss time while the window is hidden. A metric sample is recorded once
    // (MetricHistory ignores one it has).
    for (const GpuStatus &gpu : state.decision.gpus)
        m_histories[gpu.index].record(gpu.state, nowMs);
    if (state.gpuMetrics.sampledAtMs > 0)
        for (auto it = state.gpuMetrics.gpus.cbegin(); it != state.gpuMetrics.gpus.cend(); ++it)
            m_metrics[it.key()].record(*it, state.gpuMetrics.sampledAtMs);
    m_state = state;
    m_nowMs = nowMs;
    m_wallNow = wallNow;
    if (isVisible())
        refresh();
}

void StatusWindow::setUnavailable(const QString &why)
{
    if (why == m_unavailable)
        return;
    m_unavailable = why;
    if (isVisible())
        refresh();
}

void StatusWindow::showEvent(QShowEvent *event)
{
    QWidget::showEvent(event);
    refresh();
    Q_EMIT visibilityChanged(true);
}

void StatusWindow::hideEvent(QHideEvent *event)
{
    QWidget::hideEvent(event);
    Q_EMIT visibilityChanged(false);
}

void StatusWindow::changeEvent(QEvent *event)
{
    QWidget::changeEvent(event);
    if (event->type() == QEvent::PaletteChange && m_legend)
        m_legend->setText(ActivityBrush::legendHtml(palette()));
}

void StatusWindow::placeCards(const QList<GpuStatus> &gpus)
{
    QList<int> present;
    for (const GpuStatus &gpu : gpus)
        present.append(gpu.index);
    std::sort(present.begin(), present.end());
    if (present == m_cards.keys())
        return;
    for (auto it = m_cards.begin(); it != m_cards.end();) {
        m_cardGrid->removeWidget(*it);
        if (present.contains(it.key())) {
            ++it;
        } else {
            delete *it;
            it = m_cards.erase(it);
        }
    }
    const int columns = present.size() == 1 ? 1 : 2;
    for (int i = 0; i < present.size(); ++i) {
        GpuCard *&card = m_cards[present.at(i)];
        if (!card)
            card = new GpuCard(present.at(i), m_scroll->widget());
        m_cardGrid->addWidget(card, i / columns, i % columns);
        card->show();
    }
    for (int column = 0; column < 2; ++column)
        m_cardGrid->setColumnStretch(column, column < columns ? 1 : 0);
}

void StatusWindow::refresh()
{
    ++m_refreshes;
    m_summary->setText(m_unavailable.isEmpty()
                           ? StatusText::headlines(m_state).join(QLatin1Char('\n'))
                           : tr("%1. Below is the last state it sent.").arg(m_unavailable));
    QStringList problems;
    for (const ConfigDiagnostic &problem : std::as_const(m_state.configProblems))
        problems.append(problem.toString());
    if (m_state.snapshot.devices.gpus.isEmpty())
        problems.append(tr("No GPU device node found in %1").arg(m_state.config.deviceRoot));
    m_problems->setText(problems.join(QLatin1Char('\n')));
    m_problems->setVisible(!problems.isEmpty());
    placeCards(m_state.decision.gpus);
    for (const GpuStatus &gpu : std::as_const(m_state.decision.gpus))
        m_cards.value(gpu.index)->apply(gpu, m_state, m_histories.value(gpu.index), m_metrics.value(gpu.index),
                                        m_nowMs, m_wallNow);
    m_preemptions->setRecords(m_state.ledger.recentPreemptions, m_wallNow);
    m_totals->setLedger(m_state.ledger, m_wallNow);
}
