// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A stand-in for systemd's manager on a private system bus (tests/privatesystembus.h), for the tray's wait for an
// enabled idlegpu.service (monitor/bus/servicefinder.h): it owns org.freedesktop.systemd1 and answers what the finder
// asks, from the fields below: Manager.GetUnitFileState(unit) (an unknown unit is systemd's NoSuchUnit error),
// Manager.LoadUnit(unit), the unit's ActiveState and the manager's SystemState (org.freedesktop.DBus.Properties.Get).
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusObjectPath>
#include <QDBusVariant>
#include <QDBusVirtualObject>

class FakeSystemd : public QDBusVirtualObject
{
public:
    ~FakeSystemd() override { stop(); }

    bool start(const QString &address, QString *why)
    {
        static int starts = 0;
        m_connectionName = QStringLiteral("fake-systemd-%1").arg(++starts);
        m_bus = QDBusConnection::connectToBus(address, m_connectionName);
        if (!m_bus.isConnected()) {
            *why = m_bus.lastError().message();
            return false;
        }
        if (!m_bus.registerVirtualObject(QStringLiteral("/org/freedesktop/systemd1"), this, QDBusConnection::SubPath)) {
            *why = QStringLiteral("cannot register the object");
            return false;
        }
        if (!m_bus.registerService(QStringLiteral("org.freedesktop.systemd1"))) {
            *why = m_bus.lastError().message();
            return false;
        }
        return true;
    }

    void stop()
    {
        if (m_connectionName.isEmpty())
            return;
        m_bus.unregisterObject(QStringLiteral("/org/freedesktop/systemd1"), QDBusConnection::UnregisterTree);
        QDBusConnection::disconnectFromBus(m_connectionName);
        m_connectionName.clear();
        m_bus = QDBusConnection(QString());
    }

    // The unit systemd knows (with the state of its unit file and its activity); empty: none, so NoSuchUnit.
    QString unit = QStringLiteral("idlegpu.service");
    QString unitFileState = QStringLiteral("enabled");
    QString activeState = QStringLiteral("activating");
    QString systemState = QStringLiteral("running");
    QStringList calls; // "GetUnitFileState idlegpu.service", "LoadUnit ...", "Get ActiveState", "Get SystemState"

    static QString unitPath() { return QStringLiteral("/org/freedesktop/systemd1/unit/idlegpu_2eservice"); }

    QString introspect(const QString &) const override { return QString(); }

    bool handleMessage(const QDBusMessage &message, const QDBusConnection &connection) override
    {
        const QString member = message.member();
        const QVariantList args = message.arguments();
        if (message.interface() == QLatin1String("org.freedesktop.systemd1.Manager")
            && (member == QLatin1String("GetUnitFileState") || member == QLatin1String("LoadUnit"))) {
            const QString name = args.value(0).toString();
            calls.append(member + QLatin1Char(' ') + name);
            if (unit.isEmpty() || name != unit) {
                connection.send(message.createErrorReply(QStringLiteral("org.freedesktop.systemd1.NoSuchUnit"),
                                                         QStringLiteral("Unit %1 not found.").arg(name)));
                return true;
            }
            QDBusMessage reply = message.createReply();
            if (member == QLatin1String("GetUnitFileState"))
                reply << unitFileState;
            else
                reply << QVariant::fromValue(QDBusObjectPath(unitPath()));
            connection.send(reply);
            return true;
        }
        if (message.interface() == QLatin1String("org.freedesktop.DBus.Properties") && member == QLatin1String("Get")) {
            const QString property = args.value(1).toString();
            calls.append(QStringLiteral("Get ") + property);
            QString value;
            if (message.path() == unitPath() && property == QLatin1String("ActiveState"))
                value = activeState;
            else if (message.path() == QLatin1String("/org/freedesktop/systemd1")
                     && property == QLatin1String("SystemState"))
                value = systemState;
            else {
                connection.send(message.createErrorReply(QDBusError::UnknownProperty, property));
                return true;
            }
            QDBusMessage reply = message.createReply();
            reply << QVariant::fromValue(QDBusVariant(value));
            connection.send(reply);
            return true;
        }
        connection.send(message.createErrorReply(QDBusError::UnknownMethod, member));
        return true;
    }

private:
    QDBusConnection m_bus{QString()};
    QString m_connectionName;
};
