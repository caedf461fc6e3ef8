// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "tray/desktopnotificationsink.h"

// Messages go to org.freedesktop.Notifications on the session bus (KDE Plasma, GNOME Shell, dunst, mako...) while that
// name has an owner, and to the tray icon's balloon otherwise and for any message the server does not take. A summary
// ("3 more preemptions") takes the place of the message it follows, which it replaces as one of its kind. Nothing
// waits: a service watcher follows the server, Notify is asynchronous with a time-out. The server's actions come back
// as signals, which every client hears: only the ids of idlegpu's own notifications count.

#include "tray/trayiconrenderer.h"
#include "tray/traylogging.h"

#include <QDBusArgument>
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

// The spec's image-data, (iiibiiay): width, height, rowstride, has alpha, bits per sample, channels, RGBA bytes.
QVariant imageData(const QImage &picture)
{
    const QImage image = picture.convertToFormat(QImage::Format_RGBA8888);
    QDBusArgument argument;
    argument.beginStructure();
    argument << image.width() << image.height() << int(image.bytesPerLine()) << true << 8 << 4
             << QByteArray(reinterpret_cast<const char *>(image.constBits()), image.sizeInBytes());
    argument.endStructure();
    return QVariant::fromValue(argument);
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
    m_askingOwner = true;
    auto *answer = new QDBusPendingCallWatcher(m_bus.asyncCall(ask, m_callTimeoutMs), this);
    connect(answer, &QDBusPendingCallWatcher::finished, this, [this, answer] {
        answer->deleteLater();
        m_askingOwner = false;
        const QDBusMessage reply = answer->reply();
        // An owner change heard meanwhile is newer than this answer.
        if (m_server == Server::Unknown && reply.type() == QDBusMessage::ReplyMessage
            && reply.signature() == QLatin1String("b"))
            setServer(reply.arguments().constFirst().toBool() ? Server::Present : Server::Absent);
        sendWaitingMessages();
    });
    m_bus.connect(QLatin1String(kService), QLatin1String(kPath), QLatin1String(kService),
                  QStringLiteral("ActionInvoked"), this, SLOT(onActionInvoked(uint, QString)));
    m_bus.connect(QLatin1String(kService), QLatin1String(kPath), QLatin1String(kService),
                  QStringLiteral("NotificationClosed"), this, SLOT(onNotificationClosed(uint, uint)));
}

QVariantMap DesktopNotificationSink::hints(QSystemTrayIcon::MessageIcon icon)
{
    // Painted once; a QDBusArgument is made per message, as a written one is not meant to be sent twice.
    static const QImage picture = TrayIconRenderer::render(OverallState::Idle, kImageSize);
    return {{QStringLiteral("urgency"), QVariant::fromValue(urgency(icon))},
            {QStringLiteral("desktop-entry"), QLatin1String(kDesktopEntry)},
            {QStringLiteral("image-data"), imageData(picture)}};
}

QStringList DesktopNotificationSink::actionsFor(NotificationKind kind)
{
    QStringList actions{QLatin1String(kActionDefault), tr("Show"), QLatin1String(kActionShow), tr("Show")};
    // A pause for an hour where the user may want the GPU left alone: after a preemption or a failing workload.
    if (kind == NotificationKind::Preemption || kind == NotificationKind::Failure)
        actions << QLatin1String(kActionPauseForAnHour) << tr("Pause for 1 hour");
    return actions;
}

void DesktopNotificationSink::onActionInvoked(uint id, const QString &key)
{
    if (id == 0 || !m_shownIds.contains(id))
        return; // another application's
    qCDebug(lcTray, "notification %u: action %s", id, qPrintable(key));
    if (key == QLatin1String(kActionDefault) || key == QLatin1String(kActionShow))
        Q_EMIT showStatusRequested();
    else if (key == QLatin1String(kActionPauseForAnHour))
        Q_EMIT pauseAllForRequested(kPauseForMs);
}

void DesktopNotificationSink::onNotificationClosed(uint id, uint)
{
    if (!m_shownIds.remove(id))
        return;
    // The next one of its kind is a new notification: a server may not reuse a closed id.
    for (auto last = m_lastIds.begin(); last != m_lastIds.end(); ++last)
        if (last.value() == id)
            last.value() = 0;
}

void DesktopNotificationSink::setServer(Server server)
{
    if (server == m_server)
        return;
    m_server = server;
    qCDebug(lcTray, "notification server: %s", server == Server::Present ? "present" : "absent");
    m_bodyMarkup.reset(); // another server, perhaps
    m_actions.reset();
    m_shownIds.clear();
    if (server == Server::Present)
        askCapabilities();
}

void DesktopNotificationSink::askCapabilities()
{
    const QDBusMessage ask = QDBusMessage::createMethodCall(QLatin1String(kService), QLatin1String(kPath),
                                                            QLatin1String(kService), QStringLiteral("GetCapabilities"));
    m_askingCapabilities = true;
    auto *answer = new QDBusPendingCallWatcher(m_bus.asyncCall(ask, m_callTimeoutMs), this);
    connect(answer, &QDBusPendingCallWatcher::finished, this, [this, answer] {
        answer->deleteLater();
        m_askingCapabilities = false;
        const QDBusMessage reply = answer->reply();
        const QStringList capabilities = reply.type() == QDBusMessage::ReplyMessage
                                                 && reply.signature() == QLatin1String("as")
                                             ? reply.arguments().constFirst().toStringList()
                                             : QStringList();
        m_bodyMarkup = capabilities.contains(QStringLiteral("body-markup"));
        m_actions = capabilities.contains(QStringLiteral("actions"));
        qCDebug(lcTray, "notification server: %s", qPrintable(capabilities.join(QLatin1Char(' '))));
        sendWaitingMessages();
    });
}

void DesktopNotificationSink::sendWaitingMessages()
{
    if (learningServer())
        return;
    const QList<WaitingMessage> waiting = std::exchange(m_waiting, {});
    for (const WaitingMessage &message : waiting)
        showMessage(message.kind, message.title, message.body, message.icon);
}

void DesktopNotificationSink::showMessage(NotificationKind kind, const QString &title, const QString &body,
                                          QSystemTrayIcon::MessageIcon icon)
{
    if (m_server == Server::Absent) {
        m_fallback->showMessage(kind, title, body, icon);
        return;
    }
    // At the start (or as a new server comes) it waits for the answer, at most the call's timeout: the first
    // preemption of a session comes with its actions too.
    if (learningServer()) {
        if (m_waiting.size() == kMaxWaitingMessages)
            m_waiting.removeFirst();
        m_waiting.append({kind, title, body, icon});
        return;
    }
    QDBusMessage notify = QDBusMessage::createMethodCall(QLatin1String(kService), QLatin1String(kPath),
                                                         QLatin1String(kService), QStringLiteral("Notify"));
    // Where the server did not say whether it shows actions (no answer in time), none: a server without them might
    // show the keys as text.
    const int expireMs = kind == NotificationKind::Pause     ? Notifier::kPauseShownMs
                         : icon == QSystemTrayIcon::Critical ? 0
                                                             : kExpireMs;
    notify << QLatin1String(kAppName) << lastNotificationId(kind) << m_appIconName << title
           << (m_bodyMarkup.value_or(false) ? body.toHtmlEscaped() : body)
           << (m_actions.value_or(false) ? actionsFor(kind) : QStringList()) << hints(icon) << expireMs;
    auto *pending = new QDBusPendingCallWatcher(m_bus.asyncCall(notify, m_callTimeoutMs), this);
    connect(pending, &QDBusPendingCallWatcher::finished, this, [=, this] {
        pending->deleteLater();
        const QDBusMessage reply = pending->reply();
        if (reply.type() == QDBusMessage::ReplyMessage) {
            // A server that answers something else than its id has shown it all the same; it is not replaced then.
            const uint id = reply.signature() == QLatin1String("u") ? reply.arguments().constFirst().toUInt() : 0u;
            m_lastIds.insert(int(kind), id);
            if (id != 0)
                m_shownIds.insert(id);
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
