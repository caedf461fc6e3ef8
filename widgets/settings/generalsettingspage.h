// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The General page: [defaults] interval_seconds, start_delay_seconds and notify, and "Start at login" (which
// is no key of the file: the autostart entry).
#include "settings/settingspage.h"

class QCheckBox;
class QSpinBox;

class GeneralSettingsPage : public SettingsPage
{
    Q_OBJECT
public:
    explicit GeneralSettingsPage(QWidget *parent = nullptr);

    void load(const SettingsDraft &draft) override;
    void store(SettingsDraft &draft) const override;
    void showProblems(const QList<SettingsProblem> &problems) override;

    bool autostart() const;
    void setAutostart(bool enabled); // emits nothing

private:
    bool m_filling = false; // widgets are being set: their signals are not edits
    QSpinBox *m_interval;
    QSpinBox *m_startDelay;
    QCheckBox *m_notifyPreemption;
    QCheckBox *m_notifyFailure;
    QCheckBox *m_notifyConfig;
    QCheckBox *m_autostart;
};
