// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The Power and heat page: [defaults] on_battery and max_temperature_c, where a laptop or a hot card is looked for
// rather than among the signs of someone at the computer.
#include "settings/settingspage.h"

class PowerSettingsPage : public SettingsPage
{
    Q_OBJECT
public:
    explicit PowerSettingsPage(QWidget *parent = nullptr);

    void load(const SettingsDraft &draft) override;
    void store(SettingsDraft &draft) const override;
    void showProblems(const QList<SettingsProblem> &problems) override;
};
