// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A stand-in for polkitd on a private bus (tests/privatebus.h): org.freedesktop.PolicyKit1 with the Authority's
// CheckAuthorization and CancelCheckAuthorization. It answers as scripted (yes, no, a challenge, a dismissed dialog,
// an error, or never) and records each check: the subject, the action, the details, the flags, the cancellation id.
// It lives on the thread that makes it: a test that calls the service from the same thread must not block on a reply.
#include <QDBusArgument>
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusMetaType>
#include <QDBusVirtualObject>
#include <QMap>
#include <QVariantMap>

class FakePolkit : public QDBusVirtualObject
{
public:
    enum class Answer { Yes, No, Challenge, Dismissed, Error, Never };
    struct Check
    {
        QString subjectKind;
        QString subjectName;
        QString action;
        QMap<QString, QString> details;
        uint flags = 0;
        QString cancellationId;
    };

    static constexpr const char *kService = "org.freedesktop.PolicyKit1";
    static constexpr const char *kPath = "/org/freedesktop/PolicyKit1/Authority";
    static constexpr const char *kInterface = "org.freedesktop.PolicyKit1.Authority";

    // Registers on a connection of its own to `address`; false when the bus refuses the name.
    bool start(const QString &address)
    {
        qDBusRegisterMetaType<QMap<QString, QString>>();
        m_connection = QDBusConnection::connectToBus(address, QStringLiteral("fake-polkit"));
        return m_connection.isConnected()
               && m_connection.registerVirtualObject(QLatin1String(kPath), this, QDBusConnection::SingleNode)
               && m_connection.registerService(QLatin1String(kService));
    }
    ~FakePolkit() override
    {
        m_connection.unregisterObject(QLatin1String(kPath));
        QDBusConnection::disconnectFromBus(QStringLiteral("fake-polkit"));
    }

    Answer answer = Answer::Yes;
    QList<Check> checks;
    QStringList cancelled;          // the cancellation ids of CancelCheckAuthorization
    QList<QDBusMessage> unanswered; // the checks it never answered

    QString introspect(const QString &) const override { return QString(); }
    bool handleMessage(const QDBusMessage &message, const QDBusConnection &connection) override
    {
        if (message.member() == QLatin1String("CancelCheckAuthorization")) {
            cancelled.append(message.arguments().value(0).toString());
            connection.send(message.createReply());
            return true;
        }
        if (message.member() != QLatin1String("CheckAuthorization")
            || message.signature() != QLatin1String("(sa{sv})sa{ss}us")) {
            connection.send(
                message.createErrorReply(QStringLiteral("org.freedesktop.DBus.Error.InvalidArgs"),
                                         QStringLiteral("not a CheckAuthorization: ") + message.signature()));
            return true;
        }
        Check check;
        const QDBusArgument subject = message.arguments().at(0).value<QDBusArgument>();
        QVariantMap subjectDetails;
        subject.beginStructure();
        subject >> check.subjectKind >> subjectDetails;
        subject.endStructure();
        check.subjectName = subjectDetails.value(QStringLiteral("name")).toString();
        check.action = message.arguments().at(1).toString();
        message.arguments().at(2).value<QDBusArgument>() >> check.details;
        check.flags = message.arguments().at(3).toUInt();
        check.cancellationId = message.arguments().at(4).toString();
        checks.append(check);

        bool authorized = false, challenge = false;
        QMap<QString, QString> details;
        switch (answer) {
        case Answer::Yes: authorized = true; break;
        case Answer::No: break;
        case Answer::Challenge: challenge = true; break;
        case Answer::Dismissed: details.insert(QStringLiteral("polkit.dismissed"), QStringLiteral("true")); break;
        case Answer::Error:
            connection.send(message.createErrorReply(QStringLiteral("org.freedesktop.PolicyKit1.Error.Failed"),
                                                     QStringLiteral("scripted failure")));
            return true;
        case Answer::Never: unanswered.append(message); return true;
        }
        QDBusArgument result;
        result.beginStructure();
        result << authorized << challenge << details;
        result.endStructure();
        connection.send(message.createReply(QVariant::fromValue(result)));
        return true;
    }

private:
    QDBusConnection m_connection{QString()};
};
