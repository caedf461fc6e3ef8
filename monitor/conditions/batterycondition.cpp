// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "conditions/batterycondition.h"

BatteryCondition::BatteryCondition(const QString &sysfsRoot) : m_sysfsRoot(sysfsRoot) {}

BatteryCondition::~BatteryCondition() = default;

void BatteryCondition::configure(const Config &config)
{
    const bool wanted = config.onBattery == OnBattery::Pause;
    if (wanted && !m_watcher) {
        m_watcher = std::make_unique<PowerSupplyWatcher>(m_sysfsRoot, this);
        connect(m_watcher.get(), &PowerSupplyWatcher::changed, this, [this](const PowerState &power) {
            m_power = power;
            // Not urgent as a foreign open is: coalesced with other events, or taken by the poll's own scan.
            Q_EMIT changed(Rescan::Soon);
        });
        m_power = m_watcher->state();
    } else if (!wanted && m_watcher) {
        m_watcher.reset();
        m_power = PowerState();
    }
}

void BatteryCondition::poll()
{
    if (m_watcher)
        m_watcher->poll();
}

void BatteryCondition::readOnce(const Config &)
{
    m_power = PowerSupply::readState(m_sysfsRoot);
}

void BatteryCondition::fill(const Config &, Snapshot &snapshot) const
{
    snapshot.power = m_power;
}
