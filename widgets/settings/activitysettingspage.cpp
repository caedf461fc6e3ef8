// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "settings/activitysettingspage.h"

#include "config/configranges.h"
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

// What each on_battery value means, in the combo box.
static QString onBatteryLabel(OnBattery choice)
{
    switch (choice) {
    case OnBattery::Pause: return ActivitySettingsPage::tr("Pause every workload");
    case OnBattery::Run: return ActivitySettingsPage::tr("Keep running");
    }
    return QString();
}

namespace {

QLabel *explanation(const QString &text)
{
    auto *label = new QLabel(text);
    label->setWordWrap(true);
    return label;
}

} // namespace

ActivitySettingsPage::ActivitySettingsPage(QWidget *parent) : SettingsPage(parent)
{
    const std::function<void()> onEdit = [this] {
        if (!m_filling)
            Q_EMIT this->edited();
    };
    auto *content = new QWidget;
    auto *column = new QVBoxLayout(content);
    column->addWidget(presenceGroup(onEdit));
    column->addWidget(scheduleGroup(onEdit));
    column->addWidget(terminalGroup(onEdit));
    column->addWidget(powerGroup(onEdit));
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

QWidget *ActivitySettingsPage::presenceGroup(const std::function<void()> &onEdit)
{
    auto *group = new QGroupBox(tr("At the computer"));
    auto *form = new QFormLayout(group);
    m_pauseWhileActive = new QCheckBox(tr("Pause every workload while I am at the computer"));
    m_pauseWhileActive->setObjectName(QStringLiteral("pauseWhileActiveCheck"));
    form->addRow(m_pauseWhileActive);
    form->addRow(explanation(tr("Off, the GPUs alone decide. On, workloads run only once nobody has used the "
                                "keyboard or mouse for a while; a locked screen counts as away at once. When "
                                "the desktop cannot tell, you count as present.")));
    m_activityIdle = new QLineEdit;
    m_activityIdle->setObjectName(QStringLiteral("activityIdleEdit"));
    form->addRow(tr("Away after no input for (seconds):"), m_activityIdle);
    m_messages.insert(QStringLiteral("activityIdle"), addMessage(form, QStringLiteral("activityIdleError")));
    connect(m_pauseWhileActive, &QCheckBox::toggled, m_activityIdle, &QWidget::setEnabled);
    connect(m_pauseWhileActive, &QCheckBox::toggled, this, onEdit);
    connect(m_activityIdle, &QLineEdit::textChanged, this, onEdit);
    return group;
}

QList<QPair<QString, QString>> ActivitySettingsPage::schedulePresets()
{
    return {{tr("Always"), QString()},
            {tr("Nights and weekends"), QStringLiteral("18:00-08:00, Sat, Sun")},
            {tr("Nights"), QStringLiteral("22:00-07:00")},
            {tr("Weekends"), QStringLiteral("Sat, Sun")}};
}

QWidget *ActivitySettingsPage::scheduleGroup(const std::function<void()> &onEdit)
{
    auto *group = new QGroupBox(tr("Schedule"));
    auto *form = new QFormLayout(group);
    form->addRow(explanation(tr("Workloads run only at these times; outside them every workload stops. Rules, "
                                "separated by commas: days (Mon-Fri, Sat), times (22:00-07:00 crosses midnight) "
                                "or both (Mon-Fri 18:00-08:00). Empty: always.")));
    m_schedule = new QLineEdit;
    m_schedule->setObjectName(QStringLiteral("scheduleEdit"));
    m_schedule->setPlaceholderText(tr("Always"));
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
    m_messages.insert(QStringLiteral("schedule"), addMessage(form, QStringLiteral("scheduleError")));
    m_scheduleNow = new QLabel;
    m_scheduleNow->setObjectName(QStringLiteral("scheduleNow"));
    m_scheduleNow->setWordWrap(true);
    form->addRow(QString(), m_scheduleNow);
    connect(m_schedule, &QLineEdit::textChanged, this, &ActivitySettingsPage::showScheduleNow);
    connect(m_schedule, &QLineEdit::textChanged, this, onEdit);
    return group;
}

QWidget *ActivitySettingsPage::terminalGroup(const std::function<void()> &onEdit)
{
    auto *group = new QGroupBox(tr("Terminals"));
    auto *form = new QFormLayout(group);
    form->addRow(explanation(tr("While someone works in a terminal (a pseudo-terminal, such as an ssh login), "
                                "idlegpu stops all workloads.")));
    m_ttyEnabled = new QCheckBox(tr("Stop workloads while a user is active in a terminal"));
    m_ttyEnabled->setObjectName(QStringLiteral("ttyEnabledCheck"));
    form->addRow(m_ttyEnabled);
    m_whitelist = new QLineEdit;
    m_whitelist->setObjectName(QStringLiteral("whitelistEdit"));
    m_whitelist->setPlaceholderText(tr("user names, separated by commas"));
    form->addRow(tr("Users whose activity does not count:"), m_whitelist);
    m_ttyIdle = new QLineEdit;
    m_ttyIdle->setObjectName(QStringLiteral("ttyIdleEdit"));
    form->addRow(tr("A terminal idle this long does not count (seconds):"), m_ttyIdle);
    m_messages.insert(QStringLiteral("ttyIdle"), addMessage(form, QStringLiteral("ttyIdleError")));
    connect(m_ttyEnabled, &QCheckBox::toggled, this, onEdit);
    connect(m_whitelist, &QLineEdit::textChanged, this, onEdit);
    connect(m_ttyIdle, &QLineEdit::textChanged, this, onEdit);
    return group;
}

QWidget *ActivitySettingsPage::powerGroup(const std::function<void()> &onEdit)
{
    auto *group = new QGroupBox(tr("Battery and heat"));
    auto *form = new QFormLayout(group);
    m_onBattery = new QComboBox;
    m_onBattery->setObjectName(QStringLiteral("onBatteryCombo"));
    for (const ConfigWord<OnBattery> &choice : ConfigWords<OnBattery>::words)
        m_onBattery->addItem(onBatteryLabel(choice.value), QVariant::fromValue(int(choice.value)));
    form->addRow(tr("On battery:"), m_onBattery);
    m_maxTemperature = new QSpinBox;
    m_maxTemperature->setObjectName(QStringLiteral("maxTemperatureSpin"));
    m_maxTemperature->setRange(int(ConfigRanges::maxTemperatureC.min), int(ConfigRanges::maxTemperatureC.max));
    m_maxTemperature->setSuffix(tr(" °C"));
    m_maxTemperature->setSpecialValueText(tr("Off"));
    m_maxTemperature->setToolTip(tr("A workload whose GPU reaches this temperature stops, and may start again once "
                                    "the GPU is %1 °C cooler. Needs a temperature reading (NVML or the driver).")
                                     .arg(Config::kCoolDownCelsius));
    form->addRow(tr("Stop a workload when its GPU reaches:"), m_maxTemperature);
    connect(m_onBattery, &QComboBox::currentIndexChanged, this, onEdit);
    connect(m_maxTemperature, &QSpinBox::valueChanged, this, onEdit);
    return group;
}

void ActivitySettingsPage::load(const SettingsDraft &draft)
{
    m_filling = true;
    m_pauseWhileActive->setChecked(draft.pauseWhileActive);
    m_activityIdle->setText(draft.activityIdle);
    m_activityIdle->setEnabled(draft.pauseWhileActive);
    m_schedule->setText(draft.schedule);
    m_ttyEnabled->setChecked(draft.ttyEnabled);
    m_whitelist->setText(draft.whitelist);
    m_ttyIdle->setText(draft.ttyIdle);
    m_onBattery->setCurrentIndex(qMax(0, m_onBattery->findData(int(draft.onBattery))));
    m_maxTemperature->setValue(draft.maxTemperatureC);
    m_filling = false;
    showScheduleNow();
}

void ActivitySettingsPage::store(SettingsDraft &draft) const
{
    draft.pauseWhileActive = m_pauseWhileActive->isChecked();
    draft.activityIdle = m_activityIdle->text();
    draft.schedule = m_schedule->text();
    draft.ttyEnabled = m_ttyEnabled->isChecked();
    draft.whitelist = m_whitelist->text();
    draft.ttyIdle = m_ttyIdle->text();
    draft.onBattery = OnBattery(m_onBattery->currentData().toInt());
    draft.maxTemperatureC = m_maxTemperature->value();
}

void ActivitySettingsPage::showProblems(const QList<SettingsProblem> &problems)
{
    showMessages(m_messages, problems, SettingsProblem::Activity, -1);
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
