// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A stand-in for the idlegpu service (docs/dbus.md) on a private bus (tests/privatebus.h), for the tests of its
// clients: it owns io.github.idlegpu.Idlegpu1, answers GetState with the JSON it is given, records Pause and Resume
// (refusing them when told to, with the service's error names), and emits StateChanged and Preempted. stop() and
// start() again play a service that is killed and restarted: the name gets a new owner.
#include "bus/busnames.h"

#include <QCryptographicHash>
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusVirtualObject>
#include <QJsonDocument>
#include <QJsonObject>
#include <QStringList>
#include <QTimer>

class ScriptedIdlegpuService : public QDBusVirtualObject
{
public:
    struct Call
    {
        QString member;
        QVariantList arguments;
        bool interactive = false;
    };

    ~ScriptedIdlegpuService() override { stop(); }

    bool start(const QString &address, QString *why)
    {
        static int starts = 0; // a connection name of its own for each start of each fake
        m_connectionName = QStringLiteral("fake-idlegpu-%1").arg(++starts);
        m_bus = QDBusConnection::connectToBus(address, m_connectionName);
        if (!m_bus.isConnected()) {
            *why = m_bus.lastError().message();
            return false;
        }
        if (!m_bus.registerVirtualObject(BusNames::objectPath, this)) {
            *why = QStringLiteral("cannot register the object");
            return false;
        }
        if (!m_bus.registerService(BusNames::service)) {
            *why = m_bus.lastError().message();
            return false;
        }
        return true;
    }

    // The service is gone: its connection closes, and the name with it.
    void stop()
    {
        if (m_connectionName.isEmpty())
            return;
        m_bus.unregisterObject(BusNames::objectPath);
        QDBusConnection::disconnectFromBus(m_connectionName);
        m_connectionName.clear();
        m_bus = QDBusConnection(QString());
    }

    QString uniqueName() const { return m_bus.baseService(); }

    // Sets the state that GetState answers and tells the clients (StateChanged).
    void setState(const QJsonObject &json)
    {
        m_json = json;
        ++m_generation;
        QDBusMessage signal = QDBusMessage::createSignal(BusNames::objectPath, BusNames::interface,
                                                         QStringLiteral("StateChanged"));
        signal << qulonglong(m_generation);
        m_bus.send(signal);
    }
    quint64 generation() const { return m_generation; }

    // From now on Pause and Resume fail with `errorName` and `message`; an empty name grants them again.
    void refuseActs(const QString &errorName, const QString &message = QString())
    {
        m_refusal = errorName;
        m_refusalMessage = message;
    }

    // Emits Preempted: to every client, or with `destination` to that connection alone (the copy for the holder's
    // user).
    void preempt(uint gpu, const QString &workload, const QVariantMap &holder, double ms,
                 const QString &destination = QString())
    {
        QDBusMessage signal =
            destination.isEmpty()
                ? QDBusMessage::createSignal(BusNames::objectPath, BusNames::interface, QStringLiteral("Preempted"))
                : QDBusMessage::createTargetedSignal(destination, BusNames::objectPath, BusNames::interface,
                                                     QStringLiteral("Preempted"));
        signal << gpu << workload << holder << ms;
        m_bus.send(signal);
    }

    // The configuration file that GetConfig sends and SetConfig replaces; `invalid`, when set, is the InvalidConfig
    // message with which SetConfig refuses every file.
    QString configPath = QStringLiteral("/etc/idlegpu/idlegpu.conf");
    QByteArray config;
    QString invalid;
    static QString etagOf(const QByteArray &bytes)
    {
        return QString::fromLatin1(QCryptographicHash::hash(bytes, QCryptographicHash::Sha256).toHex());
    }

    QList<Call> calls;
    // GetState is answered this long after it is asked (a loaded service); 0: at once.
    int stateDelayMs = 0;

    QString introspect(const QString &) const override
    {
        return QStringLiteral(
            "<interface name=\"io.github.idlegpu.Idlegpu1\">"
            "<method name=\"GetState\"><arg type=\"t\" direction=\"out\"/><arg type=\"s\" direction=\"out\"/></method>"
            "<method name=\"Pause\"><arg type=\"s\" direction=\"in\"/><arg type=\"t\" direction=\"in\"/></method>"
            "<method name=\"Resume\"><arg type=\"s\" direction=\"in\"/></method>"
            "<method name=\"GetConfig\"><arg type=\"s\" direction=\"out\"/><arg type=\"ay\" direction=\"out\"/>"
            "<arg type=\"s\" direction=\"out\"/></method>"
            "<method name=\"SetConfig\"><arg type=\"ay\" direction=\"in\"/><arg type=\"s\" direction=\"in\"/></method>"
            "<signal name=\"StateChanged\"><arg type=\"t\"/></signal>"
            "<signal name=\"Preempted\"><arg type=\"u\"/><arg type=\"s\"/><arg type=\"a{sv}\"/><arg type=\"d\"/></signal>"
            "</interface>");
    }

    bool handleMessage(const QDBusMessage &message, const QDBusConnection &connection) override
    {
        if (message.interface() != BusNames::interface)
            return false;
        const QString member = message.member();
        calls.append({member, message.arguments(), message.isInteractiveAuthorizationAllowed()});
        if (member == QLatin1String("GetState") && message.signature().isEmpty()) {
            QDBusMessage reply = message.createReply();
            reply << qulonglong(m_generation)
                  << QString::fromUtf8(QJsonDocument(m_json).toJson(QJsonDocument::Compact));
            if (stateDelayMs > 0) // a service that answers late: the reply goes after the delay
                QTimer::singleShot(stateDelayMs, [connection, reply] { QDBusConnection(connection).send(reply); });
            else
                connection.send(reply);
            return true;
        }
        if (member == QLatin1String("GetConfig") && message.signature().isEmpty()) {
            if (!m_refusal.isEmpty()) {
                connection.send(message.createErrorReply(m_refusal, m_refusalMessage));
                return true;
            }
            QDBusMessage reply = message.createReply();
            reply << configPath << config << etagOf(config);
            connection.send(reply);
            return true;
        }
        if (member == QLatin1String("SetConfig") && message.signature() == QLatin1String("ays")) {
            const QByteArray contents = message.arguments().value(0).toByteArray();
            if (message.arguments().value(1).toString() != etagOf(config))
                connection.send(message.createErrorReply(BusNames::Error::conflict, QStringLiteral("changed meanwhile")));
            else if (!invalid.isEmpty())
                connection.send(message.createErrorReply(BusNames::Error::invalidConfig, invalid));
            else {
                config = contents;
                connection.send(message.createReply());
            }
            return true;
        }
        if ((member == QLatin1String("Pause") && message.signature() == QLatin1String("st"))
            || (member == QLatin1String("Resume") && message.signature() == QLatin1String("s"))) {
            if (!m_refusal.isEmpty()) {
                connection.send(message.createErrorReply(m_refusal, m_refusalMessage));
                return true;
            }
            connection.send(message.createReply());
            QJsonObject pause = m_json.value(QStringLiteral("pause")).toObject();
            if (message.arguments().value(0).toString().isEmpty())
                pause.insert(QStringLiteral("all"), member == QLatin1String("Pause"));
            QJsonObject json = m_json;
            json.insert(QStringLiteral("pause"), pause);
            setState(json);
            return true;
        }
        connection.send(message.createErrorReply(QDBusError::UnknownMethod, QStringLiteral("no such method")));
        return true;
    }

private:
    QDBusConnection m_bus{QString()};
    QString m_connectionName;
    QJsonObject m_json;
    quint64 m_generation = 0;
    QString m_refusal;
    QString m_refusalMessage;
};
