// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The condition of whether a person sits at the computer ([activity] pause_while_active). It brings a
// LogindPresence while the key asks for it, refined by what the tray's desktop reports (Presence::combine),
// Snapshot::presence and HoldReason::OwnerPresent.
#include "base/clock.h"
#include "conditions/condition.h"
#include "conditions/logindpresence.h"

#include <memory>

class PresenceCondition : public Condition
{
    Q_OBJECT
public:
    explicit PresenceCondition(const Clock *clock);
    ~PresenceCondition() override;

    HoldReason reason() const override { return HoldReason::OwnerPresent; }
    void configure(const Config &config) override;
    // Asks logind once (kReadOnceTimeoutMs at most); the desktop's own idle time is the tray's alone to ask.
    void readOnce(const Config &config) override;
    void fill(const Config &config, Snapshot &snapshot) const override;

    // Takes what the tray's desktop says of its session, which refines logind's word. It is ignored while
    // pause_while_active is off.
    void setDesktopIdle(const DesktopIdleReport &report);

    static constexpr int kReadOnceTimeoutMs = 1000;

private:
    // Combines logind's and the desktop's word after either changed, and says how soon that matters.
    void update();

    const Clock *m_clock;
    std::unique_ptr<LogindPresence> m_logind; // while pause_while_active is on
    DesktopIdleReport m_desktopIdle;
    UserPresence m_presence; // combined
};
