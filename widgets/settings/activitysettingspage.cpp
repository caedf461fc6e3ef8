// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "settings/activitysettingspage.h"

#include "config/schedule.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDateTime>
#include <QFormLayout>
#include <QFrame>
#include <QGroupBox>
#include <QLabel>
#include <QLineEdit>
#include <QLocale>
#include <QMenu>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QVBoxLayout>

namespace {

const KeyRow &keyRow(const char *section, const char *key)
{
    return ConfigKeys::row(QLatin1String(section), QLatin1String(key));
}

QLabel *explanation(const QString &text)
{
    auto *label = new QLabel(text);
    label->setWordWrap(true);
    return label;
}

} // namespace

ActivitySettingsPage::ActivitySettingsPage(QWidget *parent) : SettingsPage(parent)
{
    auto *content = new QWidget;
    auto *column = new QVBoxLayout(content);
    column->addWidget(presenceGroup());
    column->addWidget(scheduleGroup());
    column->addWidget(terminalGroup());
    column->addStretch(1);

    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setHorizontalScrollBarPolicy(Qt::ScrollBarAlwaysOff); // the texts wrap instead
    scroll->setWidget(content);
    auto *layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(scroll);
}

QWidget *ActivitySettingsPage::presenceGroup()
{
    auto *group = new QGroupBox(tr("At the computer"));
    auto *form = new QFormLayout(group);
    m_pauseWhileActive = keyCheckBox(keyRow("activity", "pause_while_active"),
                                     tr("Pause every workload while I am at the computer"),
                                     QStringLiteral("pauseWhileActiveCheck"));
    form->addRow(m_pauseWhileActive);
    form->addRow(explanation(tr("When this is off, only the GPUs decide. When it is on, workloads run only after "
                                "nobody has used the keyboard or mouse for a while; a locked screen counts as "
                                "away at once. When the desktop cannot tell, you count as present.")));
    m_activityIdle = keySpinBox(keyRow("activity", "idle_seconds"), QStringLiteral("activityIdleSpin"));
    setFieldHelp(m_activityIdle, tr("How long nobody may have touched the keyboard or mouse before you count as "
                                    "away."));
    form->addRow(tr("You are away after no input for:"), m_activityIdle);
    addKeyMessage(form, keyRow("activity", "idle_seconds"), QStringLiteral("activityIdleError"));
    connect(m_pauseWhileActive, &QCheckBox::toggled, m_activityIdle, &QWidget::setEnabled);
    return group;
}

QList<QPair<QString, QString>> ActivitySettingsPage::schedulePresets()
{
    return {{tr("Always"), QString()},
            {tr("Nights and weekends"), QStringLiteral("18:00-08:00, Sat, Sun")},
            {tr("Nights"), QStringLiteral("22:00-07:00")},
            {tr("Weekends"), QStringLiteral("Sat, Sun")}};
}

QWidget *ActivitySettingsPage::scheduleGroup()
{
    auto *group = new QGroupBox(tr("Schedule"));
    auto *form = new QFormLayout(group);
    form->addRow(explanation(tr("Workloads run only at these times; outside them every workload stops. Write rules "
                                "separated by commas: days (Mon-Fri, Sat), times (22:00-07:00 crosses midnight) "
                                "or both (Mon-Fri 18:00-08:00). Leave it empty to run at any time.")));
    m_schedule = keyLineEdit(keyRow("schedule", "run"), QStringLiteral("scheduleEdit"));
    m_schedule->setPlaceholderText(tr("Always"));
    setFieldHelp(m_schedule, QString());
    QPushButton *presets = button(tr("Presets"), QStringLiteral("schedulePresetsButton"));
    auto *menu = new QMenu(presets);
    menu->setObjectName(QStringLiteral("schedulePresetsMenu"));
    for (const auto &[label, rules] : schedulePresets()) {
        QAction *action = menu->addAction(rules.isEmpty() ? label : tr("%1 (%2)").arg(label, rules));
        action->setData(rules);
    }
    presets->setMenu(menu);
    connect(menu, &QMenu::triggered, this, [this](QAction *action) { m_schedule->setText(action->data().toString()); });
    form->addRow(tr("Run workloads:"), row(m_schedule, {presets}));
    addKeyMessage(form, keyRow("schedule", "run"), QStringLiteral("scheduleError"));
    m_scheduleNow = new QLabel;
    m_scheduleNow->setObjectName(QStringLiteral("scheduleNow"));
    m_scheduleNow->setWordWrap(true);
    form->addRow(QString(), m_scheduleNow);
    connect(m_schedule, &QLineEdit::textChanged, this, &ActivitySettingsPage::showScheduleNow);
    return group;
}

QWidget *ActivitySettingsPage::terminalGroup()
{
    auto *group = new QGroupBox(tr("Terminals"));
    auto *form = new QFormLayout(group);
    form->addRow(explanation(tr("While someone works in a terminal (a pseudo-terminal, such as an ssh login), "
                                "idlegpu stops all workloads.")));
    form->addRow(keyCheckBox(keyRow("tty", "enabled"), tr("Stop workloads while a user is active in a terminal"),
                             QStringLiteral("ttyEnabledCheck")));
    QLineEdit *whitelist = keyLineEdit(keyRow("tty", "whitelist"), QStringLiteral("whitelistEdit"));
    whitelist->setPlaceholderText(tr("Nobody: write user names, separated by commas"));
    setFieldHelp(whitelist, tr("The terminals of these users never stop a workload."));
    form->addRow(tr("Users whose terminals do not count:"), whitelist);
    QSpinBox *ttyIdle = keySpinBox(keyRow("tty", "idle_seconds"), QStringLiteral("ttyIdleSpin"));
    setFieldHelp(ttyIdle, tr("A terminal where nobody typed for this long no longer counts as active."));
    form->addRow(tr("A terminal counts as idle after:"), ttyIdle);
    addKeyMessage(form, keyRow("tty", "idle_seconds"), QStringLiteral("ttyIdleError"));
    return group;
}

void ActivitySettingsPage::load(const SettingsDraft &draft)
{
    loadKeys(draft);
    m_activityIdle->setEnabled(m_pauseWhileActive->isChecked());
    showScheduleNow();
}

void ActivitySettingsPage::store(SettingsDraft &draft) const
{
    storeKeys(draft);
}

void ActivitySettingsPage::showProblems(const QList<SettingsProblem> &problems)
{
    showKeyProblems(problems);
}

void ActivitySettingsPage::showScheduleNow()
{
    QString message;
    const std::optional<Schedule> schedule = Schedule::parse(m_schedule->text(), &message);
    if (!schedule || schedule->always()) {
        m_scheduleNow->clear();
        m_scheduleNow->hide();
        return;
    }
    const QDateTime now = QDateTime::currentDateTime();
    const WeekTime weekTime = WeekTime::of(now);
    const std::optional<qint64> msToChange = schedule->msUntilChange(weekTime);
    const QString until =
        msToChange ? QLocale().toString(now.addMSecs(*msToChange), QStringLiteral("ddd HH:mm")) : QString();
    if (schedule->allowsAt(weekTime))
        m_scheduleNow->setText(msToChange ? tr("Now inside the schedule: workloads may run until %1.").arg(until)
                                          : tr("Now inside the schedule, at every hour of the week."));
    else
        m_scheduleNow->setText(msToChange ? tr("Now outside the schedule: workloads wait until %1.").arg(until)
                                          : tr("Workloads never run on this schedule."));
    m_scheduleNow->show();
}
