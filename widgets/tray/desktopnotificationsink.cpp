// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "tray/desktopnotificationsink.h"

// Messages go to org.freedesktop.Notifications on the session bus (KDE Plasma, GNOME Shell, dunst, mako...) while that
// name has an owner, and to the tray icon's balloon otherwise and for any message the server does not take. A summary
// ("3 more preemptions") takes the place of the message it follows, which it replaces as one of its kind. Nothing
// waits: a service watcher follows the server, Notify is asynchronous with a time-out.

#include "tray/traylogging.h"

#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusServiceWatcher>

namespace {

// The urgency hint of the Desktop Notifications spec: 0 low, 1 normal, 2 critical. A low one would not pop up on
// GNOME, and the user asked to hear about preemptions.
uchar urgency(QSystemTrayIcon::MessageIcon icon)
{
    return icon == QSystemTrayIcon::Critical ? 2 : 1;
}

} // namespace

DesktopNotificationSink::DesktopNotificationSink(NotificationSink *fallback, const QDBusConnection &bus,
                                                 QObject *parent)
    : QObject(parent), m_fallback(fallback), m_bus(bus)
{
    if (!m_bus.isConnected()) {
        m_server = Server::Absent;
        return;
    }
    // The watcher first: an owner change after the question below then comes after its answer.
    m_watcher = new QDBusServiceWatcher(QLatin1String(kService), m_bus, QDBusServiceWatcher::WatchForOwnerChange, this);
    connect(m_watcher, &QDBusServiceWatcher::serviceOwnerChanged, this,
            [this](const QString &, const QString &, const QString &newOwner) {
                setServer(newOwner.isEmpty() ? Server::Absent : Server::Present);
            });
    QDBusMessage ask = QDBusMessage::createMethodCall(
        QStringLiteral("org.freedesktop.DBus"), QStringLiteral("/org/freedesktop/DBus"),
        QStringLiteral("org.freedesktop.DBus"), QStringLiteral("NameHasOwner"));
    ask << QLatin1String(kService);
    auto *answer = new QDBusPendingCallWatcher(m_bus.asyncCall(ask, m_callTimeoutMs), this);
    connect(answer, &QDBusPendingCallWatcher::finished, this, [this, answer] {
        answer->deleteLater();
        const QDBusMessage reply = answer->reply();
        // An owner change heard meanwhile is newer than this answer.
        if (m_server == Server::Unknown && reply.type() == QDBusMessage::ReplyMessage
            && reply.signature() == QLatin1String("b"))
            setServer(reply.arguments().constFirst().toBool() ? Server::Present : Server::Absent);
    });
}

void DesktopNotificationSink::setServer(Server server)
{
    if (server == m_server)
        return;
    m_server = server;
    qCDebug(lcTray, "notification server: %s", server == Server::Present ? "present" : "absent");
    m_bodyMarkup.reset(); // another server, perhaps
    if (server == Server::Present)
        askCapabilities();
}

void DesktopNotificationSink::askCapabilities()
{
    const QDBusMessage ask = QDBusMessage::createMethodCall(QLatin1String(kService), QLatin1String(kPath),
                                                            QLatin1String(kService), QStringLiteral("GetCapabilities"));
    auto *answer = new QDBusPendingCallWatcher(m_bus.asyncCall(ask, m_callTimeoutMs), this);
    connect(answer, &QDBusPendingCallWatcher::finished, this, [this, answer] {
        answer->deleteLater();
        const QDBusMessage reply = answer->reply();
        m_bodyMarkup = reply.type() == QDBusMessage::ReplyMessage && reply.signature() == QLatin1String("as")
                       && reply.arguments().constFirst().toStringList().contains(QStringLiteral("body-markup"));
        qCDebug(lcTray, "notification server reads markup: %s", *m_bodyMarkup ? "yes" : "no");
    });
}

void DesktopNotificationSink::showMessage(NotificationKind kind, const QString &title, const QString &body,
                                          QSystemTrayIcon::MessageIcon icon)
{
    if (m_server == Server::Absent) {
        m_fallback->showMessage(kind, title, body, icon);
        return;
    }
    const QVariantMap hints{{QStringLiteral("urgency"), QVariant::fromValue(urgency(icon))},
                            {QStringLiteral("desktop-entry"), QLatin1String(kDesktopEntry)}};
    QDBusMessage notify = QDBusMessage::createMethodCall(QLatin1String(kService), QLatin1String(kPath),
                                                         QLatin1String(kService), QStringLiteral("Notify"));
    notify << QLatin1String(kAppName) << lastNotificationId(kind) << QLatin1String(kAppIcon) << title
           << (m_bodyMarkup.value_or(false) ? body.toHtmlEscaped() : body)
           << QStringList() << hints << (icon == QSystemTrayIcon::Critical ? 0 : kExpireMs);
    auto *pending = new QDBusPendingCallWatcher(m_bus.asyncCall(notify, m_callTimeoutMs), this);
    connect(pending, &QDBusPendingCallWatcher::finished, this, [=, this] {
        pending->deleteLater();
        const QDBusMessage reply = pending->reply();
        if (reply.type() == QDBusMessage::ReplyMessage) {
            // A server that answers something else than its id has shown it all the same; it is not replaced then.
            m_lastIds.insert(int(kind), reply.signature() == QLatin1String("u") ? reply.arguments().constFirst().toUInt()
                                                                                : 0u);
            m_failing = false;
            return;
        }
        if (!m_failing)
            qCInfo(lcTray, "the notification server did not take a message (%s); the tray icon shows it instead",
                   qPrintable(reply.errorMessage().isEmpty() ? reply.errorName() : reply.errorMessage()));
        m_failing = true;
        if (reply.errorName() == QLatin1String("org.freedesktop.DBus.Error.ServiceUnknown"))
            setServer(Server::Absent); // gone since: the watcher says when it is back
        m_fallback->showMessage(kind, title, body, icon);
    });
}
