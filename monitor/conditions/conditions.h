// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The set of conditions that the policy weighs, one object each, in HoldReason's order: the time of the week, on
// battery, a person at the computer, a user active on a terminal, a GPU's heat.
#include "base/clock.h"
#include "conditions/condition.h"

#include <memory>
#include <vector>

class HeatCondition;
class PresenceCondition;

// The places where the conditions read their facts; tests give fixtures.
struct ConditionSources
{
    const Clock *clock = SystemClock::instance();
    QString sysfsRoot = QStringLiteral("/sys");   // for the power supplies (on_battery)
    QString ptsRoot = QStringLiteral("/dev/pts"); // for the terminals ([tty])
};

// The owner of every condition, which passes each call on to all of them alike.
class Conditions
{
public:
    explicit Conditions(const ConditionSources &sources = ConditionSources());
    ~Conditions();
    Conditions(const Conditions &) = delete;
    Conditions &operator=(const Conditions &) = delete;

    const std::vector<std::unique_ptr<Condition>> &all() const { return m_all; }
    // Returns the [activity] condition, whose logind view the tray's desktop refines (Monitor::setDesktopIdle).
    PresenceCondition &presence() const { return *m_presence; }
    // Returns the max_temperature_c condition, which takes the GPU backends' samples (SnapshotCollector::sampleGpus).
    HeatCondition &heat() const { return *m_heat; }

    // Sets the QObject that the conditions live under, the Monitor. They stay owned here, but move to its thread
    // with it, and its findChild() finds them and their watchers.
    void setParent(QObject *parent);

    // These pass Condition's calls on to each condition.
    void configure(const Config &config);
    void poll();
    void readOnce(const Config &config);
    void fill(const Config &config, Snapshot &snapshot) const;

private:
    std::vector<std::unique_ptr<Condition>> m_all;
    PresenceCondition *m_presence; // one of m_all
    HeatCondition *m_heat;         // one of m_all
};
