// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "bus/servicefinder.h"

#include "base/logging.h"
#include "bus/busnames.h"

#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>

#include <unistd.h>

namespace {

QDBusMessage busCall(const QString &method, const QString &argument)
{
    QDBusMessage message = QDBusMessage::createMethodCall(QStringLiteral("org.freedesktop.DBus"),
                                                          QStringLiteral("/org/freedesktop/DBus"),
                                                          QStringLiteral("org.freedesktop.DBus"), method);
    message << argument;
    return message;
}

} // namespace

ServiceFinder::ServiceFinder(const QDBusConnection &systemBus, const QDBusConnection &sessionBus, uint systemUid,
                             uint ownUid, QObject *parent)
    : QObject(parent), m_system(systemBus), m_session(sessionBus), m_systemUid(systemUid),
      m_ownUid(ownUid == uint(-1) ? ::getuid() : ownUid)
{
}

QString ServiceFinder::whereName(Where where)
{
    switch (where) {
    case Where::System: return QStringLiteral("system");
    case Where::Session: return QStringLiteral("session");
    case Where::None: return QStringLiteral("none");
    }
    return QString();
}

void ServiceFinder::start(bool systemOnly)
{
    if (m_running)
        return;
    m_running = true;
    m_systemOnly = systemOnly;
    check(Where::System);
}

void ServiceFinder::check(Where where)
{
    const QDBusConnection &bus = where == Where::System ? m_system : m_session;
    if (!bus.isConnected()) {
        next(where);
        return;
    }
    // Who owns the name, then as whom that connection runs: two calls, neither waited for.
    auto *owner = new QDBusPendingCallWatcher(
        bus.asyncCall(busCall(QStringLiteral("GetNameOwner"), BusNames::service), kStepTimeoutMs), this);
    connect(owner, &QDBusPendingCallWatcher::finished, this, [this, where, bus](QDBusPendingCallWatcher *w) {
        w->deleteLater();
        const QDBusPendingReply<QString> reply = *w;
        if (reply.isError()) {
            next(where); // no owner, or a bus that does not answer
            return;
        }
        const QString uniqueName = reply.value();
        auto *user = new QDBusPendingCallWatcher(
            bus.asyncCall(busCall(QStringLiteral("GetConnectionUnixUser"), uniqueName), kStepTimeoutMs), this);
        connect(user, &QDBusPendingCallWatcher::finished, this, [this, where, uniqueName](QDBusPendingCallWatcher *u) {
            u->deleteLater();
            const QDBusPendingReply<uint> uid = *u;
            const uint wanted = where == Where::System ? m_systemUid : m_ownUid;
            if (uid.isError()) {
                qCWarning(lcMonitor, "%s bus: cannot tell who owns %s (%s): ignored", qPrintable(whereName(where)),
                          qPrintable(QString(BusNames::service)), qPrintable(uid.error().message()));
                next(where);
            } else if (uid.value() != wanted) {
                qCWarning(lcMonitor, "%s bus: %s is owned by %s, which runs as uid %u, not %u: ignored",
                          qPrintable(whereName(where)), qPrintable(QString(BusNames::service)),
                          qPrintable(uniqueName), uid.value(), wanted);
                next(where);
            } else {
                done(where);
            }
        });
    });
}

void ServiceFinder::next(Where after)
{
    if (after == Where::System && !m_systemOnly)
        check(Where::Session);
    else
        done(Where::None);
}

void ServiceFinder::done(Where where)
{
    m_running = false;
    m_where = where;
    Q_EMIT finished(where);
}
