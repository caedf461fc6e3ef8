// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "conditions/presencecondition.h"

#include "base/logging.h"

#include <utility>

namespace {
// An idle time read again comes back a few milliseconds off (the desktop's round trip, logind's µs on another
// clock): less than this is the same last input.
constexpr qint64 kIdleSinceJitterMs = 1000;
} // namespace

PresenceCondition::PresenceCondition(const Clock *clock) : m_clock(clock) {}

PresenceCondition::~PresenceCondition() = default;

void PresenceCondition::configure(const Config &config)
{
    if (config.activity.pauseWhileActive && !m_logind) {
        m_logind = std::make_unique<LogindPresence>(m_clock, this);
        connect(m_logind.get(), &LogindPresence::changed, this, &PresenceCondition::update);
        m_logind->start();
    } else if (!config.activity.pauseWhileActive && m_logind) {
        m_logind.reset();
        m_desktopIdle = DesktopIdleReport();
        m_presence = UserPresence();
    }
}

void PresenceCondition::readOnce(const Config &config)
{
    if (!config.activity.pauseWhileActive)
        return;
    QString error;
    const auto sessions = LogindPresence::readOnce(m_clock, kReadOnceTimeoutMs, &error);
    if (!sessions)
        qCWarning(lcPresence, "logind does not answer: %s", qPrintable(error));
    m_presence = Presence::combine(sessions, DesktopIdleReport());
}

void PresenceCondition::fill(const Config &, Snapshot &snapshot) const
{
    snapshot.presence = m_presence;
}

void PresenceCondition::setDesktopIdle(const DesktopIdleReport &report)
{
    if (!m_logind)
        return;
    m_desktopIdle = report;
    update();
}

void PresenceCondition::update()
{
    const UserPresence presence = Presence::combine(m_logind->sessions(), m_desktopIdle);
    if (presence == m_presence)
        return;
    const UserPresence previous = std::exchange(m_presence, presence);
    if (presence.state != previous.state || presence.source != previous.source)
        qCInfo(lcPresence, "presence: %s", qPrintable(Presence::describe(presence, m_clock->nowMs())));
    if (presence.state == UserPresence::State::Idle && previous.state == UserPresence::State::Idle) {
        // The same last input, measured again (a round trip later, on another clock): nothing to decide.
        if (qAbs(presence.idleSinceMs - previous.idleSinceMs) < kIdleSinceJitterMs)
            return;
        // A later input while every workload waits changes nothing now: the policy wakes at the away time it last
        // computed and reads the new one then. Saves a scan at each poll of the desktop while the user works.
        if (presence.idleSinceMs > previous.idleSinceMs) {
            Q_EMIT changed(Rescan::IfWorkloadRuns);
            return;
        }
    }
    Q_EMIT changed(Rescan::Now);
}
