// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A stand-in for the desktop's notification server (org.freedesktop.Notifications, the Desktop Notifications
// spec) on a private bus (tests/privatebus.h): it records every Notify call and answers with an id, an error, or
// not at all; it sends ActionInvoked and NotificationClosed as a user's click would.
#include <QDBusArgument>
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusVirtualObject>
#include <QList>
#include <QMutex>
#include <QVariantMap>

class FakeNotificationServer : public QDBusVirtualObject
{
public:
    enum class Answer { Normally, Error, Silence };

    static constexpr const char *kService = "org.freedesktop.Notifications";
    static constexpr const char *kPath = "/org/freedesktop/Notifications";

    // One Notify call, its arguments as the spec names them, and the id it was given (0 when it got none).
    struct Call
    {
        QString appName;
        uint replacesId = 0;
        QString appIcon;
        QString summary;
        QString body;
        QStringList actions;
        QVariantMap hints;
        int expireTimeout = 0;
        uint id = 0;
        // The image-data hint, read apart (its QDBusArgument belongs to the bus's thread); 0x0 when none came.
        int imageWidth = 0;
        int imageHeight = 0;
        int imageChannels = 0;
        qsizetype imageBytes = 0;
        QString imageSignature;
    };

    // Connects to the bus at `address` (as `connectionName`) and takes org.freedesktop.Notifications.
    bool start(const QString &address, QString *why, const QString &connectionName = QStringLiteral("fake-notifications"))
    {
        m_connectionName = connectionName;
        m_bus = QDBusConnection::connectToBus(address, m_connectionName);
        if (!m_bus.isConnected()) {
            *why = QStringLiteral("cannot connect to the private bus: %1").arg(m_bus.lastError().message());
            return false;
        }
        if (!m_bus.registerVirtualObject(QLatin1String(kPath), this)) {
            *why = QStringLiteral("cannot register the fake notification server's object");
            return false;
        }
        return appear(why);
    }
    bool appear(QString *why = nullptr)
    {
        if (m_bus.registerService(QLatin1String(kService)))
            return true;
        if (why)
            *why = QStringLiteral("cannot own %1: %2").arg(QLatin1String(kService), m_bus.lastError().message());
        return false;
    }
    void disappear() { m_bus.unregisterService(QLatin1String(kService)); }
    void stop()
    {
        disappear();
        m_bus.unregisterObject(QLatin1String(kPath));
        QDBusConnection::disconnectFromBus(m_connectionName);
    }

    void setAnswer(Answer answer)
    {
        const QMutexLocker lock(&m_mutex);
        m_answer = answer;
    }
    // What GetCapabilities answers; "body-markup" says the body is read as markup.
    void setCapabilities(const QStringList &capabilities)
    {
        const QMutexLocker lock(&m_mutex);
        m_capabilities = capabilities;
    }
    // What the server sends when the user clicks an action of notification `id`, or closes it (reason 2).
    bool invokeAction(uint id, const QString &key)
    {
        QDBusMessage signal = QDBusMessage::createSignal(QLatin1String(kPath), QLatin1String(kService),
                                                         QStringLiteral("ActionInvoked"));
        signal << id << key;
        return m_bus.send(signal);
    }
    bool close(uint id, uint reason = 2)
    {
        QDBusMessage signal = QDBusMessage::createSignal(QLatin1String(kPath), QLatin1String(kService),
                                                         QStringLiteral("NotificationClosed"));
        signal << id << reason;
        return m_bus.send(signal);
    }
    QList<Call> calls() const
    {
        const QMutexLocker lock(&m_mutex);
        return m_calls;
    }
    // The unique name of the connection a Notify came from: which process sent it.
    QString lastSender() const
    {
        const QMutexLocker lock(&m_mutex);
        return m_lastSender;
    }

    QString introspect(const QString &) const override
    {
        return QStringLiteral(
            "<interface name=\"org.freedesktop.Notifications\">"
            "<method name=\"Notify\"><arg name=\"app_name\" type=\"s\" direction=\"in\"/>"
            "<arg name=\"replaces_id\" type=\"u\" direction=\"in\"/><arg name=\"app_icon\" type=\"s\" direction=\"in\"/>"
            "<arg name=\"summary\" type=\"s\" direction=\"in\"/><arg name=\"body\" type=\"s\" direction=\"in\"/>"
            "<arg name=\"actions\" type=\"as\" direction=\"in\"/><arg name=\"hints\" type=\"a{sv}\" direction=\"in\"/>"
            "<arg name=\"expire_timeout\" type=\"i\" direction=\"in\"/><arg name=\"id\" type=\"u\" direction=\"out\"/>"
            "</method>"
            "<method name=\"CloseNotification\"><arg name=\"id\" type=\"u\" direction=\"in\"/></method>"
            "<method name=\"GetCapabilities\"><arg type=\"as\" direction=\"out\"/></method>"
            "<method name=\"GetServerInformation\"><arg type=\"s\" direction=\"out\"/><arg type=\"s\" direction=\"out\"/>"
            "<arg type=\"s\" direction=\"out\"/><arg type=\"s\" direction=\"out\"/></method>"
            "<signal name=\"NotificationClosed\"><arg type=\"u\"/><arg type=\"u\"/></signal>"
            "<signal name=\"ActionInvoked\"><arg type=\"u\"/><arg type=\"s\"/></signal>"
            "</interface>");
    }

    // Called on QtDBus's own thread: everything it touches is under the mutex.
    bool handleMessage(const QDBusMessage &message, const QDBusConnection &connection) override
    {
        const QMutexLocker lock(&m_mutex);
        if (message.interface() != QLatin1String(kService))
            return false;
        const QString member = message.member();
        if (member == QLatin1String("GetCapabilities"))
            return connection.send(message.createReply(m_capabilities));
        if (member == QLatin1String("GetServerInformation"))
            return connection.send(message.createReply(QVariantList{QStringLiteral("fake"), QStringLiteral("idlegpu tests"),
                                                                    QStringLiteral("1"), QStringLiteral("1.2")}));
        if (member == QLatin1String("CloseNotification"))
            return connection.send(message.createReply());
        if (member != QLatin1String("Notify"))
            return false;
        if (message.signature() != QLatin1String("susssasa{sv}i"))
            return connection.send(message.createErrorReply(QStringLiteral("org.freedesktop.DBus.Error.InvalidArgs"),
                                                            QStringLiteral("Notify takes susssasa{sv}i")));
        const QVariantList args = message.arguments();
        Call call;
        call.appName = args.at(0).toString();
        call.replacesId = args.at(1).toUInt();
        call.appIcon = args.at(2).toString();
        call.summary = args.at(3).toString();
        call.body = args.at(4).toString();
        call.actions = args.at(5).toStringList();
        call.hints = qdbus_cast<QVariantMap>(args.at(6));
        call.expireTimeout = args.at(7).toInt();
        if (call.hints.contains(QStringLiteral("image-data"))) {
            const QDBusArgument image = call.hints.value(QStringLiteral("image-data")).value<QDBusArgument>();
            int rowstride = 0, bitsPerSample = 0;
            bool alpha = false;
            QByteArray bytes;
            call.imageSignature = image.currentSignature();
            image.beginStructure();
            image >> call.imageWidth >> call.imageHeight >> rowstride >> alpha >> bitsPerSample >> call.imageChannels
                >> bytes;
            image.endStructure();
            call.imageBytes = bytes.size();
            call.hints.insert(QStringLiteral("image-data"), QStringLiteral("(read apart)"));
        }
        m_lastSender = message.service();
        switch (m_answer) {
        case Answer::Silence:
            m_calls.append(call);
            return true; // the caller's time-out answers
        case Answer::Error:
            m_calls.append(call);
            return connection.send(message.createErrorReply(QStringLiteral("org.freedesktop.DBus.Error.Failed"),
                                                            QStringLiteral("the fake server refuses")));
        case Answer::Normally: break;
        }
        call.id = call.replacesId != 0 ? call.replacesId : ++m_lastId;
        m_calls.append(call);
        return connection.send(message.createReply(call.id));
    }

private:
    mutable QMutex m_mutex;
    QList<Call> m_calls;
    QString m_lastSender;
    Answer m_answer = Answer::Normally;
    QStringList m_capabilities{QStringLiteral("body")};
    uint m_lastId = 0;
    QString m_connectionName;
    QDBusConnection m_bus{QString()};
};
