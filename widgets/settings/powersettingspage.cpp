// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "settings/powersettingspage.h"

#include <QComboBox>
#include <QFormLayout>
#include <QLabel>
#include <QSpinBox>

// What each on_battery value means, in the combo box.
static QString onBatteryLabel(OnBattery choice)
{
    switch (choice) {
    case OnBattery::Pause: return PowerSettingsPage::tr("Pause every workload");
    case OnBattery::Run: return PowerSettingsPage::tr("Keep running");
    }
    return QString();
}

PowerSettingsPage::PowerSettingsPage(QWidget *parent) : SettingsPage(parent)
{
    auto *form = new QFormLayout(this);
    const KeyRow &onBattery = ConfigKeys::row(QStringLiteral("defaults"), QStringLiteral("on_battery"));
    QComboBox *battery = keyWordBox(onBattery, onBatteryLabel, QStringLiteral("onBatteryCombo"));
    setFieldHelp(battery, tr("What the workloads do while the computer runs on its battery."));
    form->addRow(tr("On battery:"), battery);
    addKeyMessage(form, onBattery, QStringLiteral("onBatteryError"));

    const KeyRow &maxTemperatureRow = ConfigKeys::row(QStringLiteral("defaults"), QStringLiteral("max_temperature_c"));
    QSpinBox *maxTemperature = keySpinBox(maxTemperatureRow, QStringLiteral("maxTemperatureSpin"));
    maxTemperature->setSuffix(tr(" °C"));
    maxTemperature->setSpecialValueText(tr("Off"));
    setFieldHelp(maxTemperature, tr("A workload whose GPU reaches this temperature stops, and may start again once "
                                    "the GPU is %1 °C cooler. This needs a temperature reading (NVML or the "
                                    "driver). Off (0) never stops a workload for heat.")
                                     .arg(Config::kCoolDownCelsius));
    form->addRow(tr("Stop a workload when its GPU reaches:"), maxTemperature);
    addKeyMessage(form, maxTemperatureRow, QStringLiteral("maxTemperatureError"));
}

void PowerSettingsPage::load(const SettingsDraft &draft)
{
    loadKeys(draft);
}

void PowerSettingsPage::store(SettingsDraft &draft) const
{
    storeKeys(draft);
}

void PowerSettingsPage::showProblems(const QList<SettingsProblem> &problems)
{
    showKeyProblems(problems);
}
