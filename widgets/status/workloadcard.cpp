// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "status/workloadcard.h"

#include "status/dashboardtext.h"
#include "status/pausemenu.h"
#include "status/statustext.h"

#include <QFontDatabase>
#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

WorkloadCard::WorkloadCard(const QString &id, QWidget *parent) : QFrame(parent), m_id(id)
{
    setObjectName(QStringLiteral("workloadCard_%1").arg(id));
    setFrameShape(QFrame::StyledPanel);
    setAutoFillBackground(true);
    setBackgroundRole(QPalette::Base);

    auto *layout = new QHBoxLayout(this);
    layout->setContentsMargins(12, 8, 10, 8);
    layout->setSpacing(12);
    auto *texts = new QVBoxLayout;
    texts->setSpacing(3);
    auto *titleRow = new QHBoxLayout;
    m_title = new QLabel(this);
    m_title->setObjectName(QStringLiteral("workloadTitle"));
    m_title->setTextFormat(Qt::PlainText);
    QFont bold = m_title->font();
    bold.setBold(true);
    m_title->setFont(bold);
    titleRow->addWidget(m_title);
    m_gpus = new QLabel(this);
    m_gpus->setObjectName(QStringLiteral("workloadGpus"));
    m_gpus->setForegroundRole(QPalette::PlaceholderText);
    titleRow->addWidget(m_gpus);
    titleRow->addStretch(1);
    texts->addLayout(titleRow);
    m_activity = new QLabel(this);
    m_activity->setObjectName(QStringLiteral("workloadActivity"));
    m_activity->setTextFormat(Qt::PlainText);
    m_activity->setWordWrap(true);
    m_activity->setTextInteractionFlags(Qt::TextSelectableByMouse);
    texts->addWidget(m_activity);
    m_outputCaption = new QLabel(tr("Its last output:"), this);
    m_outputCaption->setForegroundRole(QPalette::PlaceholderText);
    m_outputCaption->hide();
    texts->addWidget(m_outputCaption);
    m_output = new QLabel(this);
    m_output->setObjectName(QStringLiteral("workloadOutput"));
    m_output->setTextFormat(Qt::PlainText); // a program's output is never markup
    m_output->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_output->setWordWrap(true);
    m_output->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_output->setAccessibleName(tr("Last output"));
    m_output->hide();
    texts->addWidget(m_output);
    layout->addLayout(texts, 1);

    m_pause = new QPushButton(tr("Pause"), this);
    m_pause->setObjectName(QStringLiteral("pauseWorkload"));
    connect(m_pause, &QPushButton::clicked, this, [this] { Q_EMIT pauseRequested(m_id, !m_paused); });
    layout->addWidget(m_pause, 0, Qt::AlignTop);
    m_pauseFor = new QPushButton(tr("Pause for…"), this);
    m_pauseFor->setObjectName(QStringLiteral("pauseWorkloadFor"));
    m_pauseMenu = new PauseMenu(m_pauseFor);
    m_pauseFor->setMenu(m_pauseMenu);
    connect(m_pauseMenu, &PauseMenu::chosen, this, [this](qint64 ms) { Q_EMIT pauseForRequested(m_id, ms); });
    layout->addWidget(m_pauseFor, 0, Qt::AlignTop);
}

void WorkloadCard::apply(const WorkloadConfig &workload, const MonitorState &state, qint64 nowMs,
                         const QDateTime &wallNow)
{
    const QString name = StatusText::workloadName(state.config, workload.id);
    // Who it runs as matters on a shared machine: user=, or root for a root idlegpu's workload that names no user.
    QString user = workload.user;
    for (const ConfigDiagnostic &problem : state.configProblems)
        if (user.isEmpty() && problem.rootWorkload == workload.id)
            user = QStringLiteral("root");
    m_title->setText(user.isEmpty() ? name : tr("%1 (as %2)").arg(name, user));
    m_gpus->setText(DashboardText::workloadGpus(workload.gpus));
    m_activity->setText(DashboardText::workloadActivity(workload, state, nowMs, wallNow));
    setAccessibleName(name);

    const WorkloadRuntime runtime = state.runtimes.value(workload.id);
    QStringList output = runtime.failing() ? runtime.lastOutput : QStringList();
    if (output.size() > kOutputLines)
        output = output.mid(output.size() - kOutputLines);
    m_output->setText(output.join(QLatin1Char('\n')));
    m_output->setVisible(!output.isEmpty());
    m_outputCaption->setVisible(!output.isEmpty());

    m_paused = state.pause.workloadPausedAt(workload.id, nowMs);
    m_pause->setText(m_paused ? tr("Resume") : tr("Pause"));
    m_pause->setAccessibleName(m_paused ? tr("Resume %1").arg(name) : tr("Pause %1").arg(name));
    m_pauseFor->setAccessibleName(tr("Pause %1 for a while").arg(name));
    m_pauseMenu->setNow(wallNow);
}

void WorkloadCard::setActionsEnabled(bool enabled)
{
    m_pause->setEnabled(enabled);
    m_pauseFor->setEnabled(enabled);
}

QWidget *WorkloadCard::chainFocus(QWidget *previous)
{
    QWidget::setTabOrder(previous, m_pause);
    QWidget::setTabOrder(m_pause, m_pauseFor);
    return m_pauseFor;
}

QString WorkloadCard::activityText() const
{
    return m_activity->text();
}

QString WorkloadCard::lastOutputText() const
{
    return m_output->isHidden() ? QString() : m_output->text();
}
