// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// Who calls the service: each caller's credentials as the bus daemon vouches for them
// (org.freedesktop.DBus.GetConnectionCredentials, asked asynchronously once per unique name) and what its /proc lets
// it see (procview.h). They decide what a caller sees and which rate bucket it draws from; never whether it may act,
// which polkit decides from the bus name itself. A name is forgotten when its connection goes (NameOwnerChanged).
#include "bus/statejson.h"

#include <QDBusConnection>
#include <QHash>
#include <QList>
#include <QObject>

#include <functional>

struct BusCaller
{
    QString name; // the unique bus name, ":1.42"
    uint uid = 0;
    QList<uint> groups;
    qint64 pid = 0;
    StateJson::View view;
};

class CallerRegistry : public QObject
{
    Q_OBJECT
public:
    // `serviceUid` is the service's own uid (the privileged user of StateJson::View); `procRoot` is where callers'
    // mountinfo is read.
    CallerRegistry(const QDBusConnection &connection, uint serviceUid,
                   const QString &procRoot = QStringLiteral("/proc"), QObject *parent = nullptr);

    // Calls `then` with the caller's credentials: at once when known, else when the bus answers. A caller the bus
    // does not know (it went) gets nullptr. `then` runs on this object's thread.
    void lookup(const QString &name, std::function<void(const BusCaller *)> then);
    const BusCaller *find(const QString &name) const;
    // The known connections of a user, for the Preempted copy addressed to them.
    QStringList namesOfUid(uint uid) const;
    int size() const { return int(m_callers.size()); }
    static constexpr int kMaxCallers = 1024;
    // How many lookups may wait for the bus for one name: the rest are refused (callers get RateLimited).
    static constexpr int kMaxWaitingPerName = 32;

Q_SIGNALS:
    // A caller's connection is gone: its pending checks are cancelled.
    void vanished(const QString &name);

private Q_SLOTS:
    void onNameOwnerChanged(const QString &name, const QString &oldOwner, const QString &newOwner);

private:
    void store(BusCaller caller);

    QDBusConnection m_connection;
    uint m_serviceUid;
    QString m_procRoot;
    QHash<QString, BusCaller> m_callers;
    QList<QString> m_order; // oldest first, for the cap
    QHash<QString, QList<std::function<void(const BusCaller *)>>> m_waiting;
};
