// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "status/statuswindow.h"

#include "status/statustext.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableWidget>
#include <QVBoxLayout>

StatusWindow::StatusWindow(QWidget *parent) : QWidget(parent)
{
    setWindowTitle(tr("idlegpu status"));
    auto *layout = new QVBoxLayout(this);
    m_summary = new QLabel(this);
    m_summary->setObjectName(QStringLiteral("summary"));
    m_summary->setWordWrap(true);
    m_summary->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(m_summary);

    m_table = new QTableWidget(0, ColumnCount, this);
    m_table->setObjectName(QStringLiteral("gpuTable"));
    m_table->setHorizontalHeaderLabels({tr("GPU"), tr("Name"), tr("Activity"), tr("Held by"), tr("Workload"),
                                        tr("Workload state"), tr("Run today"), tr("Run in total")});
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionMode(QAbstractItemView::NoSelection);
    m_table->setFocusPolicy(Qt::NoFocus);
    m_table->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
    m_table->horizontalHeader()->setStretchLastSection(true);
    layout->addWidget(m_table, 1);

    m_graphsLayout = new QVBoxLayout;
    layout->addLayout(m_graphsLayout);
    resize(1000, 440); // every column of a two-GPU machine fits without scrolling
}

void StatusWindow::applyState(const MonitorState &state, qint64 nowMs, const QDateTime &wallNow)
{
    // Always: the counters and histories, which must not miss time while the window is hidden.
    m_ledger.update(state, nowMs, wallNow);
    for (const GpuStatus &gpu : state.decision.gpus)
        m_histories[gpu.index].record(gpu.state, nowMs);
    m_state = state;
    m_nowMs = nowMs;
    m_wallNow = wallNow;
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

// "miner (as alice)" for a workload with user=, "(as root)" for one a root idlegpu runs as root because it names
// no user: who it runs as matters on a shared machine.
static QString workloadWithUser(const MonitorState &state, const QString &id)
{
    const QString name = StatusText::workloadName(state.config, id);
    const WorkloadConfig *workload = state.config.workload(id);
    if (workload && !workload->user.isEmpty())
        return StatusWindow::tr("%1 (as %2)").arg(name, workload->user);
    for (const ConfigDiagnostic &problem : state.configProblems)
        if (problem.rootWorkload == id)
            return StatusWindow::tr("%1 (as %2)").arg(name, QStringLiteral("root"));
    return name;
}

void StatusWindow::refresh()
{
    ++m_refreshes;
    QStringList summary = StatusText::headlines(m_state);
    for (const ConfigDiagnostic &problem : std::as_const(m_state.configProblems))
        summary.append(problem.toString());
    if (m_state.snapshot.devices.gpus.isEmpty())
        summary.append(tr("No GPU device node found in %1").arg(m_state.config.deviceRoot));
    m_summary->setText(summary.join(QLatin1Char('\n')));

    const QList<GpuStatus> &gpus = m_state.decision.gpus;
    m_table->setRowCount(int(gpus.size()));
    for (int row = 0; row < gpus.size(); ++row) {
        const GpuStatus &gpu = gpus.at(row);
        const auto runtime = m_state.runtimes.constFind(gpu.workloadId);
        const bool hasWorkload = !gpu.workloadId.isEmpty();
        const GpuInfo info = m_state.gpuMetrics.gpus.value(gpu.index);
        GpuDevice device;
        for (const GpuDevice &present : m_state.snapshot.devices.gpus)
            if (present.index == gpu.index)
                device = present;
        const QString texts[ColumnCount] = {
            QString::number(gpu.index),
            info.name.isEmpty() ? device.describe() : info.name, // AMD and Intel: vendor, driver, PCI slot
            StatusText::gpuActivity(gpu, m_state, m_nowMs, m_wallNow, true),
            StatusText::gpuHolders(gpu, m_state.config),
            hasWorkload ? workloadWithUser(m_state, gpu.workloadId) : QString(),
            hasWorkload ? StatusText::workloadState(runtime == m_state.runtimes.cend() ? WorkloadRuntime::Stopped
                                                                                      : runtime->state)
                        : QString(),
            hasWorkload ? StatusText::duration(m_ledger.todayMs(gpu.workloadId)) : QString(),
            hasWorkload ? StatusText::duration(m_ledger.totalMs(gpu.workloadId)) : QString(),
        };
        for (int column = 0; column < ColumnCount; ++column) {
            QTableWidgetItem *item = m_table->item(row, column);
            if (!item) {
                item = new QTableWidgetItem;
                m_table->setItem(row, column, item);
            }
            item->setText(texts[column]);
        }
        QStringList details;
        if (!info.uuid.isEmpty())
            details.append(info.uuid);
        if (!info.busId.isEmpty())
            details.append(tr("PCI bus %1").arg(info.busId));
        if (!device.uniqueId.isEmpty())
            details.append(QStringLiteral("GPU-") + device.uniqueId);
        if (!device.describe().isEmpty()) // nvidiaN is named by its index; a render node is not
            details.append(device.path);
        if (info.backendIndex >= 0 && info.backendIndex != gpu.index)
            details.append(tr("nvidia-smi index %1").arg(info.backendIndex));
        m_table->item(row, NameColumn)->setToolTip(details.join(QLatin1Char('\n')));
        m_table->item(row, HoldersColumn)->setToolTip(StatusText::gpuHoldersWhy(gpu, m_state.config));
    }

    // One graph per GPU present, in index order.
    QList<int> present;
    for (const GpuStatus &gpu : gpus)
        present.append(gpu.index);
    for (auto it = m_graphs.begin(); it != m_graphs.end();) {
        if (present.contains(it.key())) {
            ++it;
            continue;
        }
        delete m_graphLabels.take(it.key());
        delete it.value();
        it = m_graphs.erase(it);
    }
    for (int i = 0; i < present.size(); ++i) {
        const int index = present.at(i);
        if (!m_graphs.contains(index)) {
            auto *label = new QLabel(tr("GPU %1, last hour").arg(index), this);
            auto *graph = new GpuHistoryGraph(this);
            graph->setObjectName(QStringLiteral("history%1").arg(index));
            m_graphLabels.insert(index, label);
            m_graphs.insert(index, graph);
            m_graphsLayout->insertWidget(2 * i, label);
            m_graphsLayout->insertWidget(2 * i + 1, graph);
        }
        const QString metrics = describeGpuMetrics(m_state.gpuMetrics.gpus.value(index));
        m_graphLabels.value(index)->setText(metrics.isEmpty() ? tr("GPU %1, last hour").arg(index)
                                                              : tr("GPU %1, last hour (now %2)").arg(index).arg(metrics));
        m_graphs.value(index)->setHistory(m_histories.value(index), m_nowMs);
    }
}
