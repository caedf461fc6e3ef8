// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "status/statuswindow.h"

#include "status/activitybrush.h"
#include "status/configbanner.h"
#include "status/gpucard.h"
#include "status/pausemenu.h"
#include "status/preemptionlist.h"
#include "status/statustext.h"
#include "status/totalspanel.h"
#include "status/workloadcard.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QPushButton>
#include <QScreen>
#include <QScrollArea>
#include <QShortcut>
#include <QVBoxLayout>

StatusWindow::StatusWindow(QWidget *parent) : QWidget(parent)
{
    setWindowTitle(tr("idlegpu status"));
    auto *outer = new QVBoxLayout(this);
    outer->setContentsMargins(0, 0, 0, 0);
    outer->setSpacing(0);

    // The actions, above the dashboard so that they never scroll away.
    auto *actions = new QHBoxLayout;
    actions->setContentsMargins(12, 10, 12, 4);
    actions->setSpacing(8);
    m_pauseAll = new QPushButton(tr("Pause all"), this);
    m_pauseAll->setObjectName(QStringLiteral("pauseAll"));
    connect(m_pauseAll, &QPushButton::clicked, this,
            [this] { Q_EMIT pauseAllRequested(!m_state.pause.allPausedAt(m_nowMs)); });
    actions->addWidget(m_pauseAll);
    m_pauseFor = new QPushButton(tr("Pause all for…"), this);
    m_pauseFor->setObjectName(QStringLiteral("pauseAllFor"));
    m_pauseMenu = new PauseMenu(m_pauseFor);
    m_pauseFor->setMenu(m_pauseMenu);
    connect(m_pauseMenu, &PauseMenu::chosen, this, &StatusWindow::pauseForRequested);
    actions->addWidget(m_pauseFor);
    actions->addStretch(1);
    m_settings = new QPushButton(tr("Settings…"), this);
    m_settings->setObjectName(QStringLiteral("settings"));
    connect(m_settings, &QPushButton::clicked, this, [this] {
        if (m_state.notSetUp)
            Q_EMIT setUpRequested();
        else
            Q_EMIT openSettingsRequested();
    });
    actions->addWidget(m_settings);
    m_openLog = new QPushButton(tr("Open log"), this);
    m_openLog->setObjectName(QStringLiteral("openLog"));
    connect(m_openLog, &QPushButton::clicked, this, &StatusWindow::openLogRequested);
    actions->addWidget(m_openLog);
    outer->addLayout(actions);

    m_scroll = new QScrollArea(this);
    m_scroll->setObjectName(QStringLiteral("dashboard"));
    m_scroll->setWidgetResizable(true);
    m_scroll->setFrameShape(QFrame::NoFrame);
    m_scroll->setFocusPolicy(Qt::NoFocus); // Tab goes to the controls in it, not to the area
    // Sideways scrolling is a layout fault, not a feature: the cards wrap their text instead. Left as needed so
    // that a fault shows (and the test sees it).
    m_scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAsNeeded);
    outer->addWidget(m_scroll);

    auto *content = new QWidget;
    m_content = new QVBoxLayout(content);
    m_content->setContentsMargins(12, 6, 12, 12);
    m_content->setSpacing(10);

    auto *header = new QHBoxLayout;
    m_summary = new QLabel(content);
    m_summary->setObjectName(QStringLiteral("summary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    QFont summaryFont = m_summary->font();
    summaryFont.setPointSizeF(summaryFont.pointSizeF() * 1.3);
    summaryFont.setBold(true);
    m_summary->setFont(summaryFont);
    header->addWidget(m_summary, 1);
    m_legend = new QLabel(content);
    m_legend->setObjectName(QStringLiteral("legend"));
    m_legend->setToolTip(tr("The colours of the busy/idle strips and the 24-hour timelines"));
    m_legend->setText(ActivityBrush::legendHtml(palette()));
    m_legend->hide(); // with the GPUs' cards only
    header->addWidget(m_legend, 0, Qt::AlignBottom);
    m_content->addLayout(header);

    m_banner = new ConfigBanner(content);
    connect(m_banner, &ConfigBanner::fixRequested, this, &StatusWindow::openSettingsRequested);
    m_content->addWidget(m_banner);

    m_workloadList = new QVBoxLayout;
    m_workloadList->setSpacing(6);
    m_content->addLayout(m_workloadList);

    m_noGpu = new QLabel(content);
    m_noGpu->setObjectName(QStringLiteral("noGpu"));
    m_noGpu->setWordWrap(true);
    m_noGpu->hide();
    m_content->addWidget(m_noGpu);

    m_cardGrid = new QGridLayout;
    m_cardGrid->setSpacing(10);
    m_content->addLayout(m_cardGrid);

    m_bottom = new QHBoxLayout;
    m_bottom->setSpacing(10);
    m_preemptions = new PreemptionList(content);
    m_bottom->addWidget(m_preemptions, 3);
    m_totals = new TotalsPanel(content);
    m_bottom->addWidget(m_totals, 2);
    m_content->addLayout(m_bottom);
    m_content->addStretch(0); // the room left over: to the list of preemptions when it has any, else below it

    m_scroll->setWidget(content);

    auto *escape = new QShortcut(QKeySequence(Qt::Key_Escape), this);
    connect(escape, &QShortcut::activated, this, &QWidget::close);
    auto *closeKey = new QShortcut(QKeySequence(Qt::CTRL | Qt::Key_W), this);
    connect(closeKey, &QShortcut::activated, this, &QWidget::close);

    m_pauseAll->setFocus(); // the first thing one comes to do here
    resize(sizeHint());
}

QSize StatusWindow::sizeHint() const
{
    // Two GPUs fit without scrolling on a large screen. On a smaller one, within 90 % of the room's width and 85 % of
    // its height: Mutter and KWin open a window maximised when it covers more than about 80 % of the work area.
    QSize size(1180, 760);
    if (const QScreen *where = screen()) {
        const QSize room = where->availableGeometry().size();
        size = size.boundedTo(QSize(room.width() * 9 / 10, room.height() * 85 / 100));
    }
    return size;
}

WorkloadCard *StatusWindow::workloadCard(const QString &id) const
{
    for (WorkloadCard *card : m_workloadCards)
        if (card->id() == id)
            return card;
    return nullptr;
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
    applyActions(); // the buttons say at once that nothing can be asked
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

void StatusWindow::placeWorkloadCards()
{
    QStringList ids;
    for (const WorkloadConfig &workload : std::as_const(m_state.config.workloads))
        ids.append(workload.id);
    QStringList shown;
    for (const WorkloadCard *card : std::as_const(m_workloadCards))
        shown.append(card->id());
    if (ids == shown)
        return;
    QList<WorkloadCard *> cards;
    for (const QString &id : ids) {
        WorkloadCard *card = workloadCard(id);
        if (!card) {
            card = new WorkloadCard(id, m_scroll->widget());
            connect(card, &WorkloadCard::pauseRequested, this, &StatusWindow::workloadPauseRequested);
            connect(card, &WorkloadCard::pauseForRequested, this, &StatusWindow::workloadPauseForRequested);
        }
        m_workloadList->removeWidget(card);
        m_workloadList->addWidget(card);
        card->show();
        cards.append(card);
    }
    for (WorkloadCard *card : std::as_const(m_workloadCards))
        if (!cards.contains(card))
            delete card;
    m_workloadCards = cards;
    // Tab follows the cards down the window, after the banner's button.
    QWidget *previous = m_banner->fixButton();
    for (WorkloadCard *card : std::as_const(m_workloadCards))
        previous = card->chainFocus(previous);
    applyActions();
}

void StatusWindow::applyActions()
{
    const bool available = m_unavailable.isEmpty();
    const bool pausedAll = m_state.pause.allPausedAt(m_nowMs);
    m_pauseAll->setText(pausedAll ? tr("Resume all") : tr("Pause all"));
    m_pauseAll->setToolTip(pausedAll ? tr("Let every workload run again when its GPUs are free")
                                     : tr("Stop every workload now and start none until you resume"));
    // Nothing to pause before the first workload is set up; Settings is then the way on.
    const bool pausable = !m_state.notSetUp;
    m_pauseAll->setVisible(pausable);
    m_pauseFor->setVisible(pausable);
    m_pauseAll->setEnabled(available);
    m_pauseFor->setEnabled(available);
    m_settings->setText(pausable ? tr("Settings…") : tr("Set up…"));
    m_settings->setEnabled(available);
    m_settings->setToolTip(available ? QString() : m_unavailable);
    for (WorkloadCard *card : std::as_const(m_workloadCards))
        card->setActionsEnabled(available);
    m_pauseMenu->setNow(m_wallNow.isValid() ? m_wallNow : QDateTime::currentDateTime());
    if (!pausable && m_pauseAll->hasFocus())
        m_settings->setFocus();
}

void StatusWindow::refresh()
{
    ++m_refreshes;
    m_summary->setText(m_unavailable.isEmpty()
                           ? StatusText::headlines(m_state, m_nowMs, m_wallNow).join(QLatin1Char('\n'))
                           : tr("%1. Below is the last state it sent.").arg(m_unavailable));
    m_banner->setProblems(m_state.configProblems);
    const bool noGpu = m_state.snapshot.devices.gpus.isEmpty();
    m_noGpu->setText(noGpu ? tr("No GPU device node found in %1: the workloads wait until a GPU appears.")
                                 .arg(m_state.config.deviceRoot)
                           : QString());
    m_noGpu->setVisible(noGpu);
    placeWorkloadCards();
    applyActions();
    for (const WorkloadConfig &workload : std::as_const(m_state.config.workloads))
        workloadCard(workload.id)->apply(workload, m_state, m_nowMs, m_wallNow);
    placeCards(m_state.decision.gpus);
    m_legend->setVisible(!m_cards.isEmpty());
    for (const GpuStatus &gpu : std::as_const(m_state.decision.gpus))
        m_cards.value(gpu.index)->apply(gpu, m_state, m_histories.value(gpu.index), m_metrics.value(gpu.index),
                                        m_nowMs, m_wallNow);
    m_preemptions->setRecords(m_state.ledger.recentPreemptions, m_wallNow);
    m_totals->setLedger(m_state.ledger, m_wallNow);
    // The room left over goes to the list of preemptions when it has any; an empty one stays one line high.
    const bool records = !m_state.ledger.recentPreemptions.isEmpty();
    m_content->setStretchFactor(m_bottom, records ? 1 : 0);
    m_bottom->setAlignment(m_preemptions, records ? Qt::Alignment() : Qt::AlignTop);
    m_content->setStretch(m_content->count() - 1, records ? 0 : 1);
}
