// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// Finds the idlegpu that decides on this machine (docs/dbus.md), asynchronously: the system service first (its name's
// owner must run as root, since anyone could own the name on a bus without the package's policy), then a service of
// this user's own on the session bus (its owner must run as this user). A bus that is not there or does not answer
// within kStepTimeoutMs counts as no service.
#include <QDBusConnection>
#include <QObject>

class ServiceFinder : public QObject
{
    Q_OBJECT
public:
    enum class Where { None, System, Session };
    Q_ENUM(Where)

    static constexpr int kStepTimeoutMs = 2000;

    // `systemUid` is the uid the system service must run as (root; a test's private bus may say otherwise), `ownUid`
    // the one of a session service (getuid()).
    ServiceFinder(const QDBusConnection &systemBus, const QDBusConnection &sessionBus, uint systemUid = 0,
                  uint ownUid = uint(-1), QObject *parent = nullptr);

    // Asks the buses; answered once by finished(). `systemOnly` asks the system bus alone.
    void start(bool systemOnly = false);
    Where where() const { return m_where; }

    static QString whereName(Where where); // "system", "session", "none"

Q_SIGNALS:
    void finished(ServiceFinder::Where where);

private:
    void check(Where where);
    void next(Where after);
    void done(Where where);

    QDBusConnection m_system;
    QDBusConnection m_session;
    uint m_systemUid;
    uint m_ownUid;
    bool m_systemOnly = false;
    bool m_running = false;
    Where m_where = Where::None;
};
