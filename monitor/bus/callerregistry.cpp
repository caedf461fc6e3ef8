// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "bus/callerregistry.h"

#include "bus/procview.h"
#include "config/useraccount.h"

#include <QDBusArgument>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QVariantMap>

namespace {
const QString kBusService = QStringLiteral("org.freedesktop.DBus");
const QString kBusPath = QStringLiteral("/org/freedesktop/DBus");
const QString kBusInterface = QStringLiteral("org.freedesktop.DBus");

// UnixGroupIDs (au) comes as a QDBusArgument or, already demarshalled, as a list.
QList<uint> groupsOf(const QVariant &value)
{
    QList<uint> groups;
    if (value.canConvert<QDBusArgument>()) {
        const QDBusArgument argument = value.value<QDBusArgument>();
        argument >> groups;
    } else {
        groups = value.value<QList<uint>>();
    }
    return groups;
}
} // namespace

CallerRegistry::CallerRegistry(const QDBusConnection &connection, uint serviceUid, const QString &procRoot,
                               QObject *parent)
    : QObject(parent), m_connection(connection), m_serviceUid(serviceUid), m_procRoot(procRoot)
{
    // One match for every name, not one per caller: the bus allows few match rules per connection.
    m_connection.connect(kBusService, kBusPath, kBusInterface, QStringLiteral("NameOwnerChanged"), this,
                         SLOT(onNameOwnerChanged(QString, QString, QString)));
}

const BusCaller *CallerRegistry::find(const QString &name) const
{
    const auto it = m_callers.constFind(name);
    return it == m_callers.cend() ? nullptr : &*it;
}

QStringList CallerRegistry::namesOfUid(uint uid) const
{
    QStringList names;
    for (const BusCaller &caller : m_callers)
        if (caller.uid == uid)
            names.append(caller.name);
    return names;
}

void CallerRegistry::lookup(const QString &name, std::function<void(const BusCaller *)> then)
{
    if (const BusCaller *known = find(name)) {
        then(known);
        return;
    }
    auto waiting = m_waiting.find(name);
    if (waiting != m_waiting.end()) {
        if (waiting->size() >= kMaxWaitingPerName) {
            then(nullptr);
            return;
        }
        waiting->append(std::move(then));
        return;
    }
    m_waiting.insert(name, {std::move(then)});
    QDBusMessage call = QDBusMessage::createMethodCall(kBusService, kBusPath, kBusInterface,
                                                       QStringLiteral("GetConnectionCredentials"));
    call << name;
    auto *watcher = new QDBusPendingCallWatcher(m_connection.asyncCall(call), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this, name](QDBusPendingCallWatcher *finished) {
        finished->deleteLater();
        const QDBusPendingReply<QVariantMap> reply = *finished;
        const QList<std::function<void(const BusCaller *)>> callbacks = m_waiting.take(name);
        if (reply.isError()) {
            for (const auto &callback : callbacks)
                callback(nullptr);
            return;
        }
        const QVariantMap credentials = reply.value();
        BusCaller caller;
        caller.name = name;
        bool ok = false;
        caller.uid = credentials.value(QStringLiteral("UnixUserID")).toUInt(&ok);
        if (!ok) { // no uid: not a local caller the service can place
            for (const auto &callback : callbacks)
                callback(nullptr);
            return;
        }
        caller.groups = groupsOf(credentials.value(QStringLiteral("UnixGroupIDs")));
        caller.pid = credentials.value(QStringLiteral("ProcessID")).toLongLong();
        caller.view.uid = caller.uid;
        caller.view.serviceUid = m_serviceUid;
        if (const auto account = UserLookup::findAccount(QString::number(caller.uid)))
            caller.view.user = account->name;
        // The caller's own /proc decides; unreadable (gone, another namespace) is the most restrictive.
        caller.view.seesOthers = ProcView::seesOthers(ProcView::readMountInfo(caller.pid, m_procRoot), caller.uid,
                                                      caller.groups);
        store(caller);
        const BusCaller *stored = find(name);
        for (const auto &callback : callbacks)
            callback(stored);
    });
}

void CallerRegistry::store(BusCaller caller)
{
    while (m_callers.size() >= kMaxCallers && !m_order.isEmpty())
        m_callers.remove(m_order.takeFirst());
    m_order.append(caller.name);
    m_callers.insert(caller.name, std::move(caller));
}

void CallerRegistry::onNameOwnerChanged(const QString &name, const QString &oldOwner, const QString &newOwner)
{
    if (!name.startsWith(QLatin1Char(':')) || oldOwner.isEmpty() || !newOwner.isEmpty())
        return;
    if (m_callers.remove(name))
        m_order.removeOne(name);
    Q_EMIT vanished(name);
}
