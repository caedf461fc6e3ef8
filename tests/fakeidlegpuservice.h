// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A stand-in for a running idlegpu's D-Bus service (docs/dbus.md) on a private bus (tests/privatebus.h), for the tests
// of its clients: it answers GetState with a scripted JSON, Pause and Resume with nothing or a scripted error, and
// records each call with its arguments and whether it allowed interactive authorization.
#include "bus/busnames.h"

#include <QDBusConnection>
#include <QDBusError>
#include <QDBusMessage>
#include <QDBusVirtualObject>
#include <QJsonDocument>
#include <QJsonObject>
#include <QList>
#include <QMutex>

class FakeIdlegpuService : public QDBusVirtualObject
{
public:
    // Every message to the object, of any interface.
    struct Call
    {
        QString member;
        QVariantList arguments;
        bool interactive = false;
    };

    // Connects to the bus at `address` (as `connectionName`) and takes the service's name.
    bool start(const QString &address, const QString &connectionName, QString *why)
    {
        m_connectionName = connectionName;
        m_bus = QDBusConnection::connectToBus(address, m_connectionName);
        if (!m_bus.isConnected()) {
            *why = QStringLiteral("cannot connect to the private bus: %1").arg(m_bus.lastError().message());
            return false;
        }
        if (!m_bus.registerVirtualObject(BusNames::objectPath, this, QDBusConnection::SingleNode)) {
            *why = QStringLiteral("cannot register the fake service's object");
            return false;
        }
        if (!m_bus.registerService(BusNames::service)) {
            *why = QStringLiteral("cannot own %1: %2").arg(BusNames::service, m_bus.lastError().message());
            return false;
        }
        return true;
    }
    void stop()
    {
        m_bus.unregisterService(BusNames::service);
        m_bus.unregisterObject(BusNames::objectPath);
        QDBusConnection::disconnectFromBus(m_connectionName);
    }
    ~FakeIdlegpuService() override
    {
        if (!m_connectionName.isEmpty())
            stop();
    }

    void setState(const QJsonObject &state)
    {
        const QMutexLocker lock(&m_mutex);
        m_state = state;
    }
    // Pause and Resume answer with this error from now on; an empty name: they succeed.
    void setActError(const QString &name, const QString &message)
    {
        const QMutexLocker lock(&m_mutex);
        m_errorName = name;
        m_errorMessage = message;
    }
    QList<Call> calls() const
    {
        const QMutexLocker lock(&m_mutex);
        return m_calls;
    }
    // The calls of `member` only.
    QList<Call> calls(const QString &member) const
    {
        QList<Call> of;
        for (const Call &call : calls())
            if (call.member == member)
                of.append(call);
        return of;
    }
    void clearCalls()
    {
        const QMutexLocker lock(&m_mutex);
        m_calls.clear();
    }

    QString introspect(const QString &) const override
    {
        return QStringLiteral("<interface name=\"%1\"><method name=\"GetState\"><arg type=\"t\" direction=\"out\"/>"
                              "<arg type=\"s\" direction=\"out\"/></method><method name=\"Pause\"><arg type=\"s\" "
                              "direction=\"in\"/><arg type=\"t\" direction=\"in\"/></method><method name=\"Resume\">"
                              "<arg type=\"s\" direction=\"in\"/></method></interface>")
            .arg(BusNames::interface);
    }

    bool handleMessage(const QDBusMessage &message, const QDBusConnection &connection) override
    {
        const QMutexLocker lock(&m_mutex);
        m_calls.append({message.member(), message.arguments(), message.isInteractiveAuthorizationAllowed()});
        if (message.interface() != BusNames::interface)
            return false; // Introspectable and Properties: QtDBus's own

        const QString member = message.member();
        const QString signature = message.signature();
        QDBusMessage reply;
        if (member == QLatin1String("GetState") && signature.isEmpty()) {
            reply = message.createReply({QVariant::fromValue(quint64(++m_generation)),
                                         QString::fromUtf8(QJsonDocument(m_state).toJson(QJsonDocument::Compact))});
        } else if ((member == QLatin1String("Pause") && signature == QLatin1String("st"))
                   || (member == QLatin1String("Resume") && signature == QLatin1String("s"))) {
            reply = m_errorName.isEmpty() ? message.createReply()
                                          : message.createErrorReply(m_errorName, m_errorMessage);
        } else {
            reply = message.createErrorReply(QDBusError::UnknownMethod,
                                             QStringLiteral("no %1(%2)").arg(member, signature));
        }
        connection.send(reply);
        return true;
    }

private:
    mutable QMutex m_mutex;
    QDBusConnection m_bus{QStringLiteral("fake-idlegpu-unset")};
    QString m_connectionName;
    QJsonObject m_state;
    QString m_errorName;
    QString m_errorMessage;
    QList<Call> m_calls;
    quint64 m_generation = 0;
};
