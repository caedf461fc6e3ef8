// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The User activity page: when workloads may run at all. [activity] (pause while someone is at the computer),
// [schedule] run, [tty] (a user active on a terminal), and [defaults] on_battery and max_temperature_c.
#include "settings/settingspage.h"

#include <functional>

class QCheckBox;
class QComboBox;
class QLineEdit;
class QSpinBox;

class ActivitySettingsPage : public SettingsPage
{
    Q_OBJECT
public:
    explicit ActivitySettingsPage(QWidget *parent = nullptr);

    void load(const SettingsDraft &draft) override;
    void store(SettingsDraft &draft) const override;
    void showProblems(const QList<SettingsProblem> &problems) override;

    // The rules that fill the schedule field from its Presets menu: label -> [schedule] run text.
    static QList<QPair<QString, QString>> schedulePresets();

private:
    QWidget *presenceGroup(const std::function<void()> &onEdit);
    QWidget *scheduleGroup(const std::function<void()> &onEdit);
    QWidget *terminalGroup(const std::function<void()> &onEdit);
    QWidget *powerGroup(const std::function<void()> &onEdit);
    void showScheduleNow(); // where the present moment is in the schedule typed: its meaning, at a glance

    bool m_filling = false; // widgets are being set: their signals are not edits
    QCheckBox *m_pauseWhileActive;
    QLineEdit *m_activityIdle;
    QLineEdit *m_schedule;
    QLabel *m_scheduleNow;
    QCheckBox *m_ttyEnabled;
    QLineEdit *m_whitelist;
    QLineEdit *m_ttyIdle;
    QComboBox *m_onBattery;
    QSpinBox *m_maxTemperature;
    QHash<QString, QLabel *> m_messages; // field name -> its message
};
