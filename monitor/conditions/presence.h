// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The rule that combines what the sources say about whether a person sits at the computer ([activity]
// pause_while_active) into one UserPresence. It is pure: the sources are read elsewhere (LogindPresence on the
// system bus, the tray's DesktopIdlePoller on the session bus) and handed in as values.
#include "model/snapshot.h"

#include <QList>
#include <QString>

#include <optional>

// One login session as systemd-logind describes it (org.freedesktop.login1.Session).
struct LogindSession
{
    QString id;            // "2", as XDG_SESSION_ID names it
    uint uid = uint(-1);
    QString type;          // "x11", "wayland", "mir" are graphical; "tty", "unspecified" are not
    QString sessionClass;  // "user" counts; "greeter", "lock-screen", "background", "manager" do not
    bool remote = false;   // ssh or xrdp: not at the machine
    bool active = true;    // in the foreground of its seat (a session switched away from is not)
    bool idle = false;     // IdleHint
    qint64 idleSinceMs = 0; // IdleSinceHint, on the monitor's Clock; valid when idle
    bool locked = false;   // LockedHint

    bool isGraphical() const;
    // Returns whether it is Remote=false and of Class "user", the only kind that says whether a person is there.
    bool isLocalUser() const;
    bool operator==(const LogindSession &) const = default;
};

// What the desktop of the tray's own session says (GNOME Mutter's IdleMonitor, KDE's ScreenSaver, X11's
// XScreenSaver): the time of the last input, and the lock where the desktop tells it.
struct DesktopIdleReport
{
    bool answered = false;  // false when no desktop source answered (or the tray does not ask)
    QString source;         // "GNOME", "KDE", "X11"
    qint64 idleSinceMs = 0; // the last input, on the monitor's Clock (both sides use the monotonic clock)
    bool locked = false;
    QString sessionId;      // the tray's XDG_SESSION_ID; empty when unknown
    uint uid = uint(-1);    // the tray's user
    bool operator==(const DesktopIdleReport &) const = default;
};

// The functions that combine and describe the presence.
namespace Presence {

// Returns whether a person sits at the computer, as the local user sessions and the desktop say together. An absent
// `logind` means that logind did not answer; the result is Unknown only when neither source answers.
UserPresence combine(const std::optional<QList<LogindSession>> &logind, const DesktopIdleReport &desktop);

// Returns the state's name for logs and --status: "active", "idle", "locked", "no local session", "unknown".
QString stateName(UserPresence::State state);
// Returns the presence in words at `nowMs`, on the same clock as its idleSinceMs: "idle for 412 s (logind)".
QString describe(const UserPresence &presence, qint64 nowMs);

} // namespace Presence
