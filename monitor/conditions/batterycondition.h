// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The condition of where the machine's power comes from ([defaults] on_battery = pause). It brings a
// PowerSupplyWatcher while the key asks for it, Snapshot::power and HoldReason::OnBattery.
#include "conditions/condition.h"
#include "conditions/powersupply.h"

#include <memory>

class BatteryCondition : public Condition
{
    Q_OBJECT
public:
    explicit BatteryCondition(const QString &sysfsRoot);
    ~BatteryCondition() override;

    HoldReason reason() const override { return HoldReason::OnBattery; }
    void configure(const Config &config) override;
    // Reads the power supplies that the kernel does not announce (PowerSupplyWatcher::poll).
    void poll() override;
    // Reads the power whatever on_battery says, because --status tells it either way.
    void readOnce(const Config &config) override;
    void fill(const Config &config, Snapshot &snapshot) const override;

private:
    QString m_sysfsRoot;
    std::unique_ptr<PowerSupplyWatcher> m_watcher; // while on_battery = pause
    PowerState m_power;
};
