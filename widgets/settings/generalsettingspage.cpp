// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "settings/generalsettingspage.h"

#include <QCheckBox>
#include <QFormLayout>
#include <QSpinBox>
#include <QVBoxLayout>

// notify: three check boxes for one key.
static const KeyRow &notifyRow()
{
    return ConfigKeys::row(QStringLiteral("defaults"), QStringLiteral("notify"));
}

GeneralSettingsPage::GeneralSettingsPage(QWidget *parent) : SettingsPage(parent)
{
    auto *form = new QFormLayout(this);
    const auto onEdit = [this] {
        if (!m_filling)
            Q_EMIT this->edited();
    };

    const KeyRow &interval = ConfigKeys::row(QStringLiteral("defaults"), QStringLiteral("interval_seconds"));
    m_interval = keySpinBox(interval, QStringLiteral("intervalSpin"));
    setFieldHelp(m_interval, tr("How often idlegpu looks at the GPUs when nothing happens. A program that opens a "
                                "GPU is noticed at once anyway."));
    form->addRow(tr("Check the GPUs every:"), m_interval);
    addKeyMessage(form, interval, QStringLiteral("intervalError"));

    const KeyRow &startDelay = ConfigKeys::row(QStringLiteral("defaults"), QStringLiteral("start_delay_seconds"));
    m_startDelay = keySpinBox(startDelay, QStringLiteral("startDelaySpin"));
    setFieldHelp(m_startDelay, tr("How long a GPU must stay free before a workload starts on it."));
    form->addRow(tr("Start a workload after the GPU is free for:"), m_startDelay);
    addKeyMessage(form, startDelay, QStringLiteral("startDelayError"));

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
    setFieldHelp(m_notifyPreemption, QString(), notifyRow().name() + QStringLiteral(" (preemption)"));
    setFieldHelp(m_notifyFailure, QString(), notifyRow().name() + QStringLiteral(" (failure)"));
    setFieldHelp(m_notifyConfig, QString(), notifyRow().name() + QStringLiteral(" (config)"));
    form->addRow(tr("Notify me when:"), notify);

    m_autostart = new QCheckBox(tr("Start idlegpu when I log in"));
    m_autostart->setObjectName(QStringLiteral("autostartCheck"));
    connect(m_autostart, &QCheckBox::toggled, this, onEdit);
    m_autostart->setToolTip(tr("Not a key of the configuration file: idlegpu adds or removes its entry in "
                               "~/.config/autostart."));
    form->addRow(tr("Start at login:"), m_autostart);
}

void GeneralSettingsPage::load(const SettingsDraft &draft)
{
    loadKeys(draft);
    m_filling = true;
    const NotifyConfig notify = draft.read(notifyRow()).notify;
    m_notifyPreemption->setChecked(notify.preemption);
    m_notifyFailure->setChecked(notify.failure);
    m_notifyConfig->setChecked(notify.configError);
    m_filling = false;
}

void GeneralSettingsPage::store(SettingsDraft &draft) const
{
    storeKeys(draft);
    draft.edit(notifyRow(), [this](Config &config) {
        config.notify = {m_notifyPreemption->isChecked(), m_notifyFailure->isChecked(), m_notifyConfig->isChecked()};
    });
}

void GeneralSettingsPage::showProblems(const QList<SettingsProblem> &problems)
{
    showKeyProblems(problems);
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
