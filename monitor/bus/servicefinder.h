// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// Finds the idlegpu that decides on this machine (docs/dbus.md), asynchronously: the system service first (its name's
// owner must run as root, since anyone could own the name on a bus without the package's policy), then a service of
// this user's own on the session bus (its owner must run as this user). A bus that is not there or does not answer
// within kStepTimeoutMs counts as no service.
// With waitForSystemUnit(), where neither bus has one, it asks systemd on the system bus about the system unit: enabled
// and on its way (activating, or inactive while the machine still starts), it waits up to kUnitWaitMs for the
// service's name before it answers None. A unit that is failed, masked, disabled or absent, or no systemd, costs no
// wait. Nothing here blocks: every question is an asynchronous call.
#include <QDBusConnection>
#include <QElapsedTimer>
#include <QObject>

#include <functional>

class QDBusMessage;
class QDBusServiceWatcher;
class QTimer;

class ServiceFinder : public QObject
{
    Q_OBJECT
public:
    enum class Where { None, System, Session };
    Q_ENUM(Where)

    static constexpr int kStepTimeoutMs = 2000;
    static constexpr int kUnitWaitMs = 10'000;

    // `systemUid` is the uid the system service must run as (root; a test's private bus may say otherwise), `ownUid`
    // the one of a session service (getuid()).
    ServiceFinder(const QDBusConnection &systemBus, const QDBusConnection &sessionBus, uint systemUid = 0,
                  uint ownUid = uint(-1), QObject *parent = nullptr);

    // Asks the buses; answered once by finished(). `systemOnly` asks the system bus alone.
    void start(bool systemOnly = false);
    // Asks the session bus alone, and where nothing owns the name there yet, waits up to `waitMs` for this user's own
    // service to take it (one that is starting: it holds the config's lock, and publishes in a moment).
    void startSessionOnly(int waitMs = 0);
    Where where() const { return m_where; }

    // From the next start() on, where neither bus has a service: asks systemd about the system unit `unit` and waits
    // up to `waitMs` for the service's name where the unit is on its way (see above). Tests wait less.
    void waitForSystemUnit(const QString &unit = QStringLiteral("idlegpu.service"), int waitMs = kUnitWaitMs);
    // Returns how long the last start waited for a name (the system unit's, or startSessionOnly()'s), in ms; -1 where
    // it did not wait.
    qint64 waitedMs() const { return m_waitedMs; }
    // Returns what systemd said of the unit at the last start(): why it waited or why not ("idlegpu.service is
    // disabled"); empty where it was not asked.
    QString unitVerdict() const { return m_unitVerdict; }

    static QString whereName(Where where); // "system", "session", "none"

Q_SIGNALS:
    void finished(ServiceFinder::Where where);
    // systemd says the system unit is on its way: the finder waits up to `waitMs` for its name.
    void waitingForUnit(const QString &unit, int waitMs);

private:
    enum class Scope { Both, SystemOnly, SessionOnly };
    void begin(Scope scope, int sessionWaitMs);
    void check(Where where);
    void next(Where after);
    void done(Where where);
    // The system unit's questions, one after the other: its unit file's state, then its activity, then (inactive)
    // whether the machine still starts.
    void askUnitFileState();
    void askActiveState();
    void askSystemState();
    void systemdCall(const QDBusMessage &message, std::function<void(const QDBusMessage &reply)> then);
    void noWait(const QString &why);
    void waitForUnit(const QString &why);
    // Watches for the name on `where`'s bus for `waitMs` at most, and looks once more at once.
    void waitForName(Where where, int waitMs);

    QDBusConnection m_system;
    QDBusConnection m_session;
    uint m_systemUid;
    uint m_ownUid;
    Scope m_scope = Scope::Both;
    int m_sessionWaitMs = 0;
    bool m_running = false;
    quint64 m_round = 0; // each start, and each answer, begins a new round: late replies of an earlier one are ignored
    Where m_where = Where::None;

    QString m_unit; // the system unit to wait for; empty: none
    int m_unitWaitMs = kUnitWaitMs;
    QString m_unitVerdict;
    QDBusServiceWatcher *m_waitWatcher = nullptr; // while waiting: the name's registration
    QTimer *m_waitTimer = nullptr;                // while waiting: the end of the wait
    QElapsedTimer m_wait;
    qint64 m_waitedMs = -1;
};
