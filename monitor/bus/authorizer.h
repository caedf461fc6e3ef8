// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// Who may act: polkit on the system bus (PolkitAuthorizer, asked asynchronously with the caller's bus name as its
// subject, never anything the caller says), the service's own user and root on a session bus (SameUserAuthorizer).
#include "bus/callerregistry.h"

#include <QDBusConnection>
#include <QHash>
#include <QMap>
#include <QObject>

#include <functional>

class QDBusPendingCallWatcher;

class Authorizer : public QObject
{
    Q_OBJECT
public:
    enum class Verdict {
        Yes,
        No,          // not authorized (reason: polkit's, where it gives one)
        Challenge,   // not without a password, and the caller did not allow interaction
        Dismissed,   // the user dismissed the password dialog
        Unavailable, // polkit did not answer (reason: why)
    };
    struct Answer
    {
        Verdict verdict = Verdict::No;
        QString reason;
    };
    using Done = std::function<void(const Answer &)>;

    using QObject::QObject;
    // Checks whether `caller` may do `action`. `done` runs once on this object's thread, unless cancelFor() was called
    // for the caller before.
    virtual void check(const BusCaller &caller, const QString &action, const QMap<QString, QString> &details,
                       bool interactive, Done done) = 0;
    // Drops the checks of a caller that went: polkit is told to cancel them, their `done` never runs.
    virtual void cancelFor(const QString &callerName) = 0;
    // How many checks wait for an answer, in all and for one user.
    virtual int pending() const = 0;
    virtual int pendingOf(uint uid) const = 0;
};

// org.freedesktop.PolicyKit1.Authority.CheckAuthorization on the connection given, with the subject
// ("system-bus-name", {"name": caller}); AllowUserInteraction only when the caller allowed it (the message's header
// flag). A call that fails or times out is Unavailable.
class PolkitAuthorizer : public Authorizer
{
    Q_OBJECT
public:
    PolkitAuthorizer(const QDBusConnection &connection, QObject *parent = nullptr);
    void check(const BusCaller &caller, const QString &action, const QMap<QString, QString> &details, bool interactive,
               Done done) override;
    void cancelFor(const QString &callerName) override;
    int pending() const override { return int(m_pending.size()); }
    int pendingOf(uint uid) const override;

    // How long polkit may take: without interaction, and with a password dialog (the user types).
    static constexpr int kTimeoutMs = 25'000;
    static constexpr int kInteractiveTimeoutMs = 300'000;

private:
    struct Pending
    {
        QString callerName;
        uint uid = 0;
        QDBusPendingCallWatcher *watcher = nullptr;
        Done done;
    };
    QDBusConnection m_connection;
    QHash<QString, Pending> m_pending; // by cancellation id
    quint64 m_nextId = 1;
};

// A session bus: only the service's own user, and root, may act; nobody is asked.
class SameUserAuthorizer : public Authorizer
{
    Q_OBJECT
public:
    SameUserAuthorizer(uint serviceUid, QObject *parent = nullptr) : Authorizer(parent), m_serviceUid(serviceUid) {}
    void check(const BusCaller &caller, const QString &action, const QMap<QString, QString> &details, bool interactive,
               Done done) override;
    void cancelFor(const QString &) override {}
    int pending() const override { return 0; }
    int pendingOf(uint) const override { return 0; }

private:
    uint m_serviceUid;
};
