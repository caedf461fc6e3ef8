// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "settings/generalsettingspage.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QLineEdit>
#include <QVBoxLayout>

GeneralSettingsPage::GeneralSettingsPage(QWidget *parent) : SettingsPage(parent)
{
    auto *form = new QFormLayout(this);
    const auto onEdit = [this] {
        if (!m_filling)
            Q_EMIT this->edited();
    };

    m_interval = new QLineEdit;
    m_interval->setObjectName(QStringLiteral("intervalEdit"));
    m_interval->setToolTip(tr("How often idlegpu looks at the GPUs when nothing happens; opening a GPU is "
                              "noticed at once anyway."));
    form->addRow(tr("Fallback poll interval (seconds):"), m_interval);
    m_messages.insert(QStringLiteral("interval"), addMessage(form, QStringLiteral("intervalError")));

    m_startDelay = new QLineEdit;
    m_startDelay->setObjectName(QStringLiteral("startDelayEdit"));
    m_startDelay->setToolTip(tr("How long a GPU must stay free before a workload starts on it."));
    form->addRow(tr("Start delay (seconds):"), m_startDelay);
    m_messages.insert(QStringLiteral("startDelay"), addMessage(form, QStringLiteral("startDelayError")));

    auto *notify = new QWidget;
    auto *notifyLayout = new QVBoxLayout(notify);
    notifyLayout->setContentsMargins(0, 0, 0, 0);
    m_notifyPreemption = new QCheckBox(tr("A workload was stopped because a program opened its GPU"));
    m_notifyPreemption->setObjectName(QStringLiteral("notifyPreemption"));
    m_notifyFailure = new QCheckBox(tr("A workload keeps failing"));
    m_notifyFailure->setObjectName(QStringLiteral("notifyFailure"));
    m_notifyConfig = new QCheckBox(tr("The configuration file has an error"));
    m_notifyConfig->setObjectName(QStringLiteral("notifyConfig"));
    for (QCheckBox *box : {m_notifyPreemption, m_notifyFailure, m_notifyConfig}) {
        notifyLayout->addWidget(box);
        connect(box, &QCheckBox::toggled, this, onEdit);
    }
    form->addRow(tr("Notify me when:"), notify);

    m_autostart = new QCheckBox(tr("Start idlegpu when I log in"));
    m_autostart->setObjectName(QStringLiteral("autostartCheck"));
    connect(m_autostart, &QCheckBox::toggled, this, onEdit);
    form->addRow(tr("Start at login:"), m_autostart);

    connect(m_interval, &QLineEdit::textChanged, this, onEdit);
    connect(m_startDelay, &QLineEdit::textChanged, this, onEdit);
}

void GeneralSettingsPage::load(const SettingsDraft &draft)
{
    m_filling = true;
    m_interval->setText(draft.interval);
    m_startDelay->setText(draft.startDelay);
    m_notifyPreemption->setChecked(draft.notify.preemption);
    m_notifyFailure->setChecked(draft.notify.failure);
    m_notifyConfig->setChecked(draft.notify.configError);
    m_filling = false;
}

void GeneralSettingsPage::store(SettingsDraft &draft) const
{
    draft.interval = m_interval->text();
    draft.startDelay = m_startDelay->text();
    draft.notify = {m_notifyPreemption->isChecked(), m_notifyFailure->isChecked(), m_notifyConfig->isChecked()};
}

void GeneralSettingsPage::showProblems(const QList<SettingsProblem> &problems)
{
    showMessages(m_messages, problems, SettingsProblem::General, -1);
}

bool GeneralSettingsPage::autostart() const
{
    return m_autostart->isChecked();
}

void GeneralSettingsPage::setAutostart(bool enabled)
{
    m_filling = true;
    m_autostart->setChecked(enabled);
    m_filling = false;
}
