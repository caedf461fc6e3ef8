// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The User activity page: when workloads may run at all. [activity] (pause while someone is at the computer),
// [schedule] run and [tty] (a user active on a terminal). Battery and heat have a page of their own
// (PowerSettingsPage).
#include "settings/settingspage.h"

class QCheckBox;
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
    QWidget *presenceGroup();
    QWidget *scheduleGroup();
    QWidget *terminalGroup();
    void showScheduleNow(); // where the present moment is in the schedule typed: its meaning, at a glance

    QCheckBox *m_pauseWhileActive; // enables m_activityIdle
    QSpinBox *m_activityIdle;
    QLineEdit *m_schedule; // shown in m_scheduleNow
    QLabel *m_scheduleNow;
};
