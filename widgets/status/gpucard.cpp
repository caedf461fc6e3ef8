// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "status/gpucard.h"

#include "status/activitybrush.h"
#include "status/dashboardtext.h"
#include "status/metricgraph.h"
#include "status/statustext.h"
#include "status/timelinestrip.h"

#include <QEvent>
#include <QGridLayout>
#include <QLabel>
#include <QPainter>
#include <QVBoxLayout>

namespace {
QColor accentOf(GpuState state, const QPalette &palette)
{
    switch (state) {
    case GpuState::RunningWorkload: return ActivityBrush::workloadColor();
    case GpuState::Busy: return ActivityBrush::foreignUseColor();
    case GpuState::Waiting:
    case GpuState::Idle: break;
    }
    return palette.color(QPalette::Mid);
}

// "miner (as alice)" for a workload with user=, "(as root)" for one a root idlegpu runs as root because it names
// no user (the loader's warning says so): who it runs as matters on a shared machine.
QString workloadWithUser(const MonitorState &state, const QString &id)
{
    const QString name = StatusText::workloadName(state.config, id);
    const WorkloadConfig *workload = state.config.workload(id);
    if (workload && !workload->user.isEmpty())
        return GpuCard::tr("%1 (as %2)").arg(name, workload->user);
    for (const ConfigDiagnostic &problem : state.configProblems)
        if (problem.rootWorkload == id)
            return GpuCard::tr("%1 (as %2)").arg(name, QStringLiteral("root"));
    return name;
}

// What the card's title tooltip says of the GPU: UUID, bus, node.
QString gpuDetails(const GpuInfo &info, const GpuDevice &device, int gpu)
{
    QStringList details;
    if (!info.uuid.isEmpty())
        details.append(info.uuid);
    if (!info.busId.isEmpty())
        details.append(GpuCard::tr("PCI bus %1").arg(info.busId));
    if (!device.uniqueId.isEmpty())
        details.append(QStringLiteral("GPU-") + device.uniqueId);
    if (!device.path.isEmpty())
        details.append(device.path);
    if (info.backendIndex >= 0 && info.backendIndex != gpu)
        details.append(GpuCard::tr("nvidia-smi index %1").arg(info.backendIndex));
    return details.join(QLatin1Char('\n'));
}

// A caption for a group of the card's widgets: "Last hour".
QLabel *caption(const QString &text, QWidget *parent)
{
    auto *label = new QLabel(text, parent);
    label->setForegroundRole(QPalette::PlaceholderText); // muted, and follows a change of theme
    return label;
}
} // namespace

GpuCard::GpuCard(int gpu, QWidget *parent) : QFrame(parent), m_gpu(gpu)
{
    setObjectName(QStringLiteral("gpuCard%1").arg(gpu));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);
    setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred); // the cards of a row as high as the highest

    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(14, 10, 12, 10); // room for the state's stripe on the left
    layout->setSpacing(6);

    auto *header = new QHBoxLayout;
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("title"));
    m_title->setWordWrap(true);
    QFont titleFont = m_title->font();
    titleFont.setBold(true);
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.2);
    m_title->setFont(titleFont);
    header->addWidget(m_title, 1);
    m_badge = new QLabel(this);
    m_badge->setObjectName(QStringLiteral("state"));
    m_badge->setAlignment(Qt::AlignCenter);
    m_badge->setAccessibleName(tr("State"));
    header->addWidget(m_badge, 0, Qt::AlignTop);
    layout->addLayout(header);

    m_activity = new QLabel(this);
    m_activity->setObjectName(QStringLiteral("activity"));
    m_activity->setWordWrap(true);
    m_activity->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_activity);

    m_note = new QLabel(this);
    m_note->setObjectName(QStringLiteral("preemption"));
    m_note->setWordWrap(true);
    m_note->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_note->setAccessibleName(tr("Last preemption"));
    m_note->hide();
    layout->addWidget(m_note);

    // The facts and the strips in one grid, captions on the left: values and strips begin at the same x.
    auto *facts = new QGridLayout;
    facts->setHorizontalSpacing(10);
    facts->setVerticalSpacing(4);
    facts->setColumnStretch(1, 1);
    m_holders = addRow(facts, 0, tr("Holders"), "holders");
    m_workload = addRow(facts, 1, tr("Workload"), "workload");
    m_figures = addRow(facts, 2, tr("Workload time"), "figures");
    m_busyIdle = new GpuHistoryGraph(this);
    m_busyIdle->setObjectName(QStringLiteral("history%1").arg(gpu));
    facts->addWidget(caption(tr("Last hour"), this), 3, 0, Qt::AlignVCenter);
    facts->addWidget(m_busyIdle, 3, 1);
    m_graphGrid = new QGridLayout;
    m_graphGrid->setHorizontalSpacing(14);
    m_graphGrid->setVerticalSpacing(6);
    facts->addLayout(m_graphGrid, 4, 0, 1, 2);
    m_timeline = new TimelineStrip(this);
    m_timeline->setObjectName(QStringLiteral("timeline%1").arg(gpu));
    facts->addWidget(caption(tr("Last 24 hours"), this), 5, 0, Qt::AlignTop);
    facts->addWidget(m_timeline, 5, 1);
    layout->addLayout(facts);
    layout->addStretch(1);
    applyColors();
}

void GpuCard::applyColors()
{
    // Style sheets take fixed colours: they are made again from the palette when it changes (a change of theme).
    if (!m_note)
        return; // still under construction
    const QColor accent = accentOf(m_state, palette());
    m_badge->setStyleSheet(QStringLiteral("QLabel { background: %1; color: %2; border-radius: 9px; "
                                          "padding: 1px 10px; font-weight: bold; }")
                               .arg(accent.name(), accent.lightnessF() > 0.6 ? QStringLiteral("black")
                                                                             : QStringLiteral("white")));
    // The preemption: a red mark and a faint red tint, over light and dark themes alike.
    m_note->setStyleSheet(QStringLiteral("QLabel { border-left: 3px solid #e53935; padding: 4px 8px; "
                                         "background: rgba(229, 57, 53, 30); color: %1; }")
                              .arg(palette().color(QPalette::WindowText).name()));
    update(); // the stripe
}

void GpuCard::changeEvent(QEvent *event)
{
    QFrame::changeEvent(event);
    if (event->type() == QEvent::PaletteChange)
        applyColors();
}

QLabel *GpuCard::addRow(QGridLayout *grid, int row, const QString &text, const char *objectName)
{
    QLabel *name = caption(text, this);
    name->setAlignment(Qt::AlignLeft | Qt::AlignTop);
    grid->addWidget(name, row, 0);
    auto *value = new QLabel(this);
    value->setObjectName(QLatin1String(objectName));
    value->setWordWrap(true);
    value->setTextInteractionFlags(Qt::TextSelectableByMouse);
    value->setAccessibleName(text);
    grid->addWidget(value, row, 1);
    return value;
}

QString GpuCard::stateName(GpuState state)
{
    switch (state) {
    case GpuState::RunningWorkload: return tr("Running");
    case GpuState::Busy: return tr("Busy");
    case GpuState::Waiting: return tr("Waiting");
    case GpuState::Idle: return tr("Idle");
    }
    return QString();
}

void GpuCard::apply(const GpuStatus &gpu, const MonitorState &state, const GpuHistory &history,
                    const MetricHistory &metrics, qint64 nowMs, const QDateTime &wallNow)
{
    const GpuInfo info = state.gpuMetrics.gpus.value(gpu.index);
    GpuDevice device;
    for (const GpuDevice &present : state.snapshot.devices.gpus)
        if (present.index == gpu.index)
            device = present;
    const QString name = info.name.isEmpty() ? device.describe() : info.name; // AMD, Intel: vendor, driver, slot
    m_title->setText(name.isEmpty() ? tr("GPU %1").arg(gpu.index) : tr("GPU %1 · %2").arg(gpu.index).arg(name));
    m_title->setToolTip(gpuDetails(info, device, gpu.index));
    setAccessibleName(m_title->text());

    if (m_state != gpu.state || m_badge->text().isEmpty()) {
        m_state = gpu.state;
        m_badge->setText(stateName(gpu.state));
        applyColors();
    }
    m_activity->setText(StatusText::gpuActivity(gpu, state, nowMs, wallNow, true));

    const QString holders = StatusText::gpuHolders(gpu, state.config);
    m_holders->setText(holders.isEmpty() ? tr("none") : holders);
    m_holders->setToolTip(StatusText::gpuHoldersWhy(gpu, state.config));

    if (gpu.workloadId.isEmpty()) {
        m_workload->setText(tr("none"));
    } else {
        const auto runtime = state.runtimes.constFind(gpu.workloadId);
        m_workload->setText(tr("%1 — %2").arg(workloadWithUser(state, gpu.workloadId),
                                              StatusText::workloadState(runtime == state.runtimes.cend()
                                                                            ? WorkloadRuntime::Stopped
                                                                            : runtime->state)));
    }
    const WorkPeriods periods = state.ledger.byGpu.value(gpu.index);
    m_figures->setText(tr("%1 today, %2 this week, %3 in total")
                           .arg(DashboardText::gpuHours(periods.today.workloadMs),
                                DashboardText::gpuHours(periods.week.workloadMs),
                                DashboardText::gpuHours(periods.total.workloadMs)));

    const std::optional<PreemptionRecord> pending =
        DashboardText::pendingPreemption(state.ledger, gpu, wallNow.toMSecsSinceEpoch());
    m_note->setText(pending ? DashboardText::preemptionNote(*pending, gpu, state, nowMs, wallNow) : QString());
    m_note->setVisible(pending.has_value());

    m_busyIdle->setHistory(history, nowMs);

    // A graph for each metric the backend gives (within the hour), two to a row; laid out again only when the
    // set changes.
    QList<GpuMetric> given;
    for (GpuMetric metric : MetricHistory::allMetrics())
        if (metrics.has(metric, nowMs))
            given.append(metric);
    if (given != m_shownMetrics) {
        m_shownMetrics = given;
        placeGraphs();
    }
    for (GpuMetric metric : std::as_const(given))
        m_graphs.value(metric)->setHistory(metrics, nowMs);

    m_timeline->setTimeline(state.ledger.lastDay.value(gpu.index), wallNow);
}

int GpuCard::graphColumns() const
{
    // Four to a row on a card as wide as the window (one GPU), two on half of it.
    return width() >= 4 * kWideGraphWidth ? 4 : 2;
}

void GpuCard::placeGraphs()
{
    for (MetricGraph *graph : std::as_const(m_graphs)) {
        m_graphGrid->removeWidget(graph);
        graph->hide();
    }
    m_placedColumns = graphColumns();
    for (int i = 0; i < m_shownMetrics.size(); ++i) {
        MetricGraph *&graph = m_graphs[m_shownMetrics.at(i)];
        if (!graph) {
            graph = new MetricGraph(m_shownMetrics.at(i), this);
            graph->setObjectName(QStringLiteral("graph%1").arg(int(m_shownMetrics.at(i))));
        }
        m_graphGrid->addWidget(graph, i / m_placedColumns, i % m_placedColumns);
        graph->show();
    }
    for (int column = 0; column < 4; ++column)
        m_graphGrid->setColumnStretch(column, column < m_placedColumns ? 1 : 0);
}

void GpuCard::resizeEvent(QResizeEvent *event)
{
    QFrame::resizeEvent(event);
    if (graphColumns() != m_placedColumns && !m_shownMetrics.isEmpty())
        placeGraphs();
}

QList<MetricGraph *> GpuCard::graphs() const
{
    QList<MetricGraph *> shown;
    for (GpuMetric metric : m_shownMetrics)
        shown.append(m_graphs.value(metric));
    return shown;
}

QString GpuCard::preemptionNote() const
{
    return m_note->isHidden() ? QString() : m_note->text();
}

void GpuCard::paintEvent(QPaintEvent *event)
{
    QFrame::paintEvent(event);
    // The state's colour as a stripe down the left edge: the cards can be told apart at a glance.
    QPainter painter(this);
    painter.fillRect(QRect(1, 1, 5, height() - 2), accentOf(m_state, palette()));
}
