// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "conditions/conditions.h"

// The SnapshotCollector owns the conditions; the monitor configures them at each (re)load, polls them at its fallback
// poll and decides again when one changes; `--status` reads them once.

#include "conditions/batterycondition.h"
#include "conditions/heatcondition.h"
#include "conditions/presencecondition.h"
#include "conditions/schedulecondition.h"
#include "conditions/terminalcondition.h"

#include <algorithm>

Condition::~Condition() = default;

Conditions::Conditions(const ConditionSources &sources)
{
    auto presence = std::make_unique<PresenceCondition>(sources.clock);
    m_presence = presence.get();
    auto heat = std::make_unique<HeatCondition>();
    m_heat = heat.get();
    m_all.push_back(std::make_unique<ScheduleCondition>(sources.clock));
    m_all.push_back(std::make_unique<BatteryCondition>(sources.sysfsRoot));
    m_all.push_back(std::move(presence));
    m_all.push_back(std::make_unique<TerminalCondition>(sources.ptsRoot));
    m_all.push_back(std::move(heat));
    Q_ASSERT(std::is_sorted(m_all.cbegin(), m_all.cend(),
                            [](const auto &a, const auto &b) { return a->reason() < b->reason(); }));
}

Conditions::~Conditions() = default;

void Conditions::setParent(QObject *parent)
{
    for (const auto &condition : m_all)
        condition->setParent(parent);
}

void Conditions::configure(const Config &config)
{
    for (const auto &condition : m_all)
        condition->configure(config);
}

void Conditions::poll()
{
    for (const auto &condition : m_all)
        condition->poll();
}

void Conditions::readOnce(const Config &config)
{
    for (const auto &condition : m_all)
        condition->readOnce(config);
}

void Conditions::fill(const Config &config, Snapshot &snapshot) const
{
    for (const auto &condition : m_all)
        condition->fill(config, snapshot);
}
