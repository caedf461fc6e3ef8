// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "conditions/presence.h"

#include <algorithm>

bool LogindSession::isGraphical() const
{
    return type == QLatin1String("x11") || type == QLatin1String("wayland") || type == QLatin1String("mir");
}

bool LogindSession::isLocalUser() const
{
    return !remote && sessionClass == QLatin1String("user");
}

namespace {

// A local user session as the rule weighs it, with the source that had the last word on it.
struct WeighedSession
{
    bool graphical = false;
    bool idle = false;
    qint64 idleSinceMs = 0;
    bool locked = false;
    QString source;
};

const QString kLogind = QStringLiteral("logind");

WeighedSession weigh(const LogindSession &session)
{
    // Switched away from (another user's session in front, a text console): whoever is there is in another session.
    return {session.isGraphical(), session.idle, session.idleSinceMs, session.locked || !session.active, kLogind};
}

// The desktop's answer for the tray's session: its idle time replaces IdleHint (KDE never sets it, and GNOME sets it
// only after its own idle delay); a lock either reports counts.
void refine(WeighedSession &session, const DesktopIdleReport &desktop)
{
    session.idle = true;
    session.idleSinceMs = desktop.idleSinceMs;
    session.locked = session.locked || desktop.locked;
    session.source = desktop.source;
}

QList<WeighedSession> weighSessions(const std::optional<QList<LogindSession>> &logind, const DesktopIdleReport &desktop)
{
    QList<WeighedSession> weighed;
    const WeighedSession desktopAlone{true, true, desktop.idleSinceMs, desktop.locked, desktop.source};
    if (!logind) {
        if (desktop.answered)
            weighed.append(desktopAlone);
        return weighed;
    }

    QList<qsizetype> refined; // indices in *logind of the tray's session(s)
    if (desktop.answered) {
        const auto byId = std::find_if(logind->cbegin(), logind->cend(), [&desktop](const LogindSession &s) {
            return !desktop.sessionId.isEmpty() && s.id == desktop.sessionId;
        });
        if (byId != logind->cend()) {
            refined.append(byId - logind->cbegin()); // a remote or greeter session: the desktop does not count
        } else {
            for (qsizetype i = 0; i < logind->size(); ++i)
                if (logind->at(i).isLocalUser() && logind->at(i).isGraphical() && logind->at(i).uid == desktop.uid)
                    refined.append(i);
        }
    }
    for (qsizetype i = 0; i < logind->size(); ++i) {
        const LogindSession &session = logind->at(i);
        if (!session.isLocalUser())
            continue;
        WeighedSession w = weigh(session);
        if (refined.contains(i))
            refine(w, desktop);
        weighed.append(w);
    }
    // A desktop whose session logind does not list (a session id it does not know, another uid): judged alone.
    if (desktop.answered && refined.isEmpty())
        weighed.append(desktopAlone);
    return weighed;
}

} // namespace

namespace Presence {

// The rule, over the local user sessions (Remote=false, Class "user"):
//   none                                               -> NoLocalSession
//   any one neither idle nor locked                    -> Active
//   every graphical one locked (or every one locked)   -> Locked
//   otherwise                                          -> Idle since the latest IdleSince of the unlocked ones
// A session not in the foreground of its seat (Active=false) counts as locked: its user is not at the screen.
// A desktop that answers refines the tray's session (matched by session id, else by uid among the graphical
// sessions): its idle time replaces logind's IdleHint, which KDE never sets, and its lock adds to LockedHint. Where
// logind does not answer, or does not know the tray's session, the desktop's session is judged alone.
UserPresence combine(const std::optional<QList<LogindSession>> &logind, const DesktopIdleReport &desktop)
{
    UserPresence presence;
    if (!logind && !desktop.answered)
        return presence; // Unknown
    const QList<WeighedSession> sessions = weighSessions(logind, desktop);
    if (sessions.isEmpty()) {
        presence.state = UserPresence::State::NoLocalSession;
        presence.source = kLogind;
        return presence;
    }
    for (const WeighedSession &session : sessions)
        if (!session.idle && !session.locked) {
            presence.state = UserPresence::State::Active;
            presence.source = session.source;
            return presence;
        }

    const auto graphical = std::count_if(sessions.cbegin(), sessions.cend(),
                                         [](const WeighedSession &s) { return s.graphical; });
    const auto lockedGraphical = std::find_if(sessions.cbegin(), sessions.cend(),
                                              [](const WeighedSession &s) { return s.graphical && s.locked; });
    const bool allGraphicalLocked =
        graphical > 0 && std::all_of(sessions.cbegin(), sessions.cend(), [](const WeighedSession &s) {
            return !s.graphical || s.locked;
        });
    const bool allLocked = std::all_of(sessions.cbegin(), sessions.cend(), [](const WeighedSession &s) {
        return s.locked;
    });
    if (allGraphicalLocked || allLocked) {
        presence.state = UserPresence::State::Locked;
        presence.source = lockedGraphical != sessions.cend() ? lockedGraphical->source : sessions.first().source;
        return presence;
    }

    // Idle: since the latest input of any session still open to input.
    presence.state = UserPresence::State::Idle;
    bool first = true;
    for (const WeighedSession &session : sessions) {
        if (session.locked)
            continue;
        if (first || session.idleSinceMs > presence.idleSinceMs) {
            presence.idleSinceMs = session.idleSinceMs;
            presence.source = session.source;
        }
        first = false;
    }
    return presence;
}

QString stateName(UserPresence::State state)
{
    switch (state) {
    case UserPresence::State::Unknown: return QStringLiteral("unknown");
    case UserPresence::State::Active: return QStringLiteral("active");
    case UserPresence::State::Idle: return QStringLiteral("idle");
    case UserPresence::State::Locked: return QStringLiteral("locked");
    case UserPresence::State::NoLocalSession: return QStringLiteral("no local session");
    }
    return QString();
}

QString describe(const UserPresence &presence, qint64 nowMs)
{
    QString text;
    switch (presence.state) {
    case UserPresence::State::Unknown:
        return QStringLiteral("unknown: no source answers (counts as present)");
    case UserPresence::State::Active: text = QStringLiteral("active"); break;
    case UserPresence::State::Idle:
        text = QStringLiteral("idle for %1 s").arg(qMax<qint64>(0, nowMs - presence.idleSinceMs) / 1000);
        break;
    case UserPresence::State::Locked: text = QStringLiteral("screen locked"); break;
    case UserPresence::State::NoLocalSession: text = QStringLiteral("nobody is logged in at the computer"); break;
    }
    return QStringLiteral("%1 (%2)").arg(text, presence.source);
}

} // namespace Presence
