// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The source that tells whether a person sits at the computer from systemd-logind on the system bus: its sessions'
// IdleHint, IdleSinceHint and LockedHint. GNOME sets them; a text console gets IdleHint from its tty's access time;
// KDE sets only LockedHint, which the tray's desktop source refines (see conditions/presence.h).
#include "base/clock.h"
#include "conditions/presence.h"

#include <QDBusObjectPath>
#include <QHash>
#include <QObject>

#include <optional>

class QDBusMessage;
class QDBusPendingCallWatcher;
class QDBusServiceWatcher;
class QTimer;

// The parsers of logind's D-Bus answers, kept pure for tests.
namespace LogindParse {

struct SessionRef
{
    QString id;
    uint uid = uint(-1);
    QString path; // its object, /org/freedesktop/login1/session/...
};
// Parses the answer to Manager.ListSessions, a(susso); nullopt when it is not one.
std::optional<QList<SessionRef>> sessionList(const QDBusMessage &reply, QString *error);

// The moments the session's times are measured against: the monitor's Clock, CLOCK_MONOTONIC and the wall clock,
// all read at once.
struct Now
{
    qint64 clockMs = 0;
    qint64 monotonicUs = 0;
    qint64 realtimeUs = 0;
    static Now read(const Clock *clock);
};
struct ParsedSession
{
    LogindSession session;
    bool idleSinceKnown = false; // IdleSinceHint(Monotonic) was given; otherwise session.idleSinceMs is `now`
};
// Parses the answer to Properties.GetAll("org.freedesktop.login1.Session"), a{sv}; nullopt when it is not one or when
// a property that the rule needs (Class, Remote, IdleHint) is missing or of the wrong type.
std::optional<ParsedSession> sessionProperties(const QDBusMessage &reply, const SessionRef &ref, const Now &now,
                                               QString *error);

} // namespace LogindParse

// The watcher of logind's sessions (logindpresence.cpp shows how it reads them).
class LogindPresence : public QObject
{
    Q_OBJECT
public:
    explicit LogindPresence(const Clock *clock = SystemClock::instance(), QObject *parent = nullptr);
    ~LogindPresence() override;

    // Connects to the bus and reads the sessions; changed() answers once they differ from "no answer".
    void start();

    // Returns every session that logind lists, as last read; nullopt while logind does not answer.
    const std::optional<QList<LogindSession>> &sessions() const { return m_sessions; }
    // Returns logind's own verdict without a desktop source: Presence::combine(sessions(), {}).
    UserPresence presence() const;

    static constexpr int kCallTimeoutMs = 2000;
    static constexpr int kRefreshMs = 10'000;
    static constexpr int kRetryMs = 30'000;
    // Tests shorten the calls' timeout.
    void setCallTimeoutMs(int ms) { m_callTimeoutMs = ms; }

    // Reads the sessions once, synchronously, with `timeoutMs` for all of it (`idlegpu --status`). Returns nullopt
    // when logind does not answer, with the reason in `error`.
    static std::optional<QList<LogindSession>> readOnce(const Clock *clock, int timeoutMs, QString *error);

public Q_SLOTS:
    // Reads the sessions again soon (events come in bursts).
    void scheduleRefresh();

Q_SIGNALS:
    // What logind says has changed: a session came, went or changed, or logind stopped or started answering.
    // `presence` is logind's own verdict.
    void changed(const UserPresence &presence);

private:
    void refresh();
    bool ensureConnected(QString *error);
    void dropConnection();
    void receiveSessionList(const QDBusMessage &reply);
    void receiveSession(const QDBusMessage &reply, const LogindParse::SessionRef &ref);
    void finishRound();
    void fail(const QString &error);
    void setSessions(const std::optional<QList<LogindSession>> &sessions);

    const Clock *m_clock;
    int m_callTimeoutMs = kCallTimeoutMs;
    QString m_busName; // our connection's name, empty while not connected
    QDBusServiceWatcher *m_serviceWatcher = nullptr;
    QTimer *m_debounceTimer;
    QTimer *m_pollTimer;
    std::optional<QList<LogindSession>> m_sessions;
    QHash<QString, qint64> m_idleSeenSinceMs; // idle sessions logind gives no IdleSinceHint for: when first seen idle

    // The read in progress: the list answered, its sessions' properties outstanding.
    bool m_reading = false;
    bool m_readAgain = false;
    int m_outstanding = 0;
    QList<LogindSession> m_readSessions;
    QHash<QString, qint64> m_readIdleSeenSinceMs;
    QString m_readError;
    quint64 m_generation = 0; // answers of an abandoned read are dropped

    bool m_failureLogged = false;
};
