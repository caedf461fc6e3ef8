// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A stand-in for the StatusNotifierWatcher of KDE Plasma, GNOME's AppIndicator extension and the Wayland panels
// (org.kde.StatusNotifierWatcher at /StatusNotifierWatcher) on a private bus (tests/privatebus.h): items and hosts
// register with it, and it says whether a host (a tray that shows the items) is there: from the start, or from
// registerHost() on, as Plasma's watcher (kded5) is there seconds before its host (plasmashell).
//
// Its introspection data declares its properties: Qt asks IsStatusNotifierHostRegistered through a QDBusInterface,
// which knows only the properties introspection declares, and without a "true" there Qt uses the XEmbed tray.
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusVariant>
#include <QDBusVirtualObject>
#include <QMutex>
#include <QStringList>

#include <chrono>

class FakeStatusNotifierWatcher : public QDBusVirtualObject
{
public:
    static constexpr const char *kService = "org.kde.StatusNotifierWatcher";
    static constexpr const char *kPath = "/StatusNotifierWatcher";
    static constexpr const char *kInterface = "org.kde.StatusNotifierWatcher";

    // One RegisterStatusNotifierItem call: the item as the watcher lists it ("<service><path>", as Plasma's
    // watcher writes it), the unique name of the connection that called, and when it came (nowMs()).
    struct Registration
    {
        QString item;
        QString sender;
        qint64 atMs = 0;
    };

    // The clock of Registration::atMs and registerHost(): monotonic ms.
    static qint64 nowMs()
    {
        using namespace std::chrono;
        return duration_cast<milliseconds>(steady_clock::now().time_since_epoch()).count();
    }

    // Connects to the bus at `address`, takes org.kde.StatusNotifierWatcher and, with `withHost`, registers a host
    // of its own, as the panel of a desktop does.
    bool start(const QString &address, QString *why, bool withHost = true)
    {
        m_bus = QDBusConnection::connectToBus(address, QStringLiteral("fake-sni-watcher"));
        if (!m_bus.isConnected()) {
            *why = QStringLiteral("cannot connect to the private bus: %1").arg(m_bus.lastError().message());
            return false;
        }
        if (withHost) {
            const QMutexLocker lock(&m_mutex);
            m_hosts.append(QStringLiteral("org.kde.StatusNotifierHost-fake"));
        }
        if (!m_bus.registerVirtualObject(QLatin1String(kPath), this)) {
            *why = QStringLiteral("cannot register the fake watcher's object");
            return false;
        }
        if (!m_bus.registerService(QLatin1String(kService))) {
            *why = QStringLiteral("cannot own %1: %2").arg(QLatin1String(kService), m_bus.lastError().message());
            return false;
        }
        return true;
    }
    // A host registers now, as plasmashell's tray does seconds after kded5 took the watcher:
    // IsStatusNotifierHostRegistered turns true and StatusNotifierHostRegistered is sent. Returns the moment (nowMs()).
    // A host, without the signal: Plasma 5.27's watcher says it has one from its start and never signals it.
    void registerHostSilently(const QString &host = QStringLiteral("org.kde.StatusNotifierHost-fake"))
    {
        const QMutexLocker lock(&m_mutex);
        m_hosts.append(host);
    }
    qint64 registerHost(const QString &host = QStringLiteral("org.kde.StatusNotifierHost-fake"))
    {
        {
            const QMutexLocker lock(&m_mutex);
            m_hosts.append(host);
        }
        const qint64 atMs = nowMs();
        m_bus.send(QDBusMessage::createSignal(QLatin1String(kPath), QLatin1String(kInterface),
                                              QStringLiteral("StatusNotifierHostRegistered")));
        return atMs;
    }
    // Gone from the bus; a later start() begins afresh, without hosts or items.
    void stop()
    {
        if (m_bus.isConnected()) {
            m_bus.unregisterService(QLatin1String(kService));
            m_bus.unregisterObject(QLatin1String(kPath));
            QDBusConnection::disconnectFromBus(QStringLiteral("fake-sni-watcher"));
        }
        const QMutexLocker lock(&m_mutex);
        m_hosts.clear();
        m_registrations.clear();
        m_hostReads = 0;
        m_hostReadErrors.clear();
    }

    QList<Registration> registrations() const
    {
        const QMutexLocker lock(&m_mutex);
        return m_registrations;
    }
    QDBusConnection connection() const { return m_bus; }
    // The next reads of IsStatusNotifierHostRegistered (Get) answer these errors, one each: kded5 answers nothing
    // while it starts, the caller sees org.freedesktop.DBus.Error.NoReply.
    void failHostReads(const QStringList &errors)
    {
        const QMutexLocker lock(&m_mutex);
        m_hostReadErrors = errors;
    }
    // How often IsStatusNotifierHostRegistered was read (Get, GetAll).
    int hostReads() const
    {
        const QMutexLocker lock(&m_mutex);
        return m_hostReads;
    }

    // The interface as the StatusNotifierItem specification (and Plasma's org.kde.StatusNotifierWatcher.xml)
    // declares it, properties included.
    QString introspect(const QString &) const override
    {
        return QStringLiteral(
            "<interface name=\"org.kde.StatusNotifierWatcher\">"
            "<method name=\"RegisterStatusNotifierItem\"><arg name=\"service\" type=\"s\" direction=\"in\"/></method>"
            "<method name=\"RegisterStatusNotifierHost\"><arg name=\"service\" type=\"s\" direction=\"in\"/></method>"
            "<property name=\"RegisteredStatusNotifierItems\" type=\"as\" access=\"read\"/>"
            "<property name=\"IsStatusNotifierHostRegistered\" type=\"b\" access=\"read\"/>"
            "<property name=\"ProtocolVersion\" type=\"i\" access=\"read\"/>"
            "<signal name=\"StatusNotifierItemRegistered\"><arg type=\"s\"/></signal>"
            "<signal name=\"StatusNotifierItemUnregistered\"><arg type=\"s\"/></signal>"
            "<signal name=\"StatusNotifierHostRegistered\"/>"
            "<signal name=\"StatusNotifierHostUnregistered\"/>"
            "</interface>");
    }

    // Called on QtDBus's own thread: everything it touches is under the mutex.
    bool handleMessage(const QDBusMessage &message, const QDBusConnection &connection) override
    {
        const QMutexLocker lock(&m_mutex);
        const QString member = message.member();
        if (message.interface() == QLatin1String("org.freedesktop.DBus.Properties")) {
            const QString interface = message.arguments().value(0).toString();
            if (interface != QLatin1String(kInterface))
                return connection.send(message.createErrorReply(
                    QStringLiteral("org.freedesktop.DBus.Error.UnknownInterface"), interface));
            if (member == QLatin1String("GetAll")) {
                ++m_hostReads;
                return connection.send(message.createReply(QVariant(properties())));
            }
            if (member == QLatin1String("Get")) {
                const QString name = message.arguments().value(1).toString();
                if (name == QLatin1String("IsStatusNotifierHostRegistered")) {
                    ++m_hostReads;
                    if (!m_hostReadErrors.isEmpty())
                        return connection.send(message.createErrorReply(m_hostReadErrors.takeFirst(),
                                                                         QStringLiteral("not now")));
                }
                const QVariantMap all = properties();
                if (!all.contains(name))
                    return connection.send(message.createErrorReply(
                        QStringLiteral("org.freedesktop.DBus.Error.UnknownProperty"), name));
                return connection.send(message.createReply(QVariant::fromValue(QDBusVariant(all.value(name)))));
            }
            return connection.send(message.createErrorReply(QStringLiteral("org.freedesktop.DBus.Error.PropertyReadOnly"),
                                                            QStringLiteral("the watcher's properties are read-only")));
        }
        if (message.interface() != QLatin1String(kInterface) || message.signature() != QLatin1String("s"))
            return false;
        const QString service = message.arguments().constFirst().toString();
        if (member == QLatin1String("RegisterStatusNotifierItem")) {
            // A bus name (Qt sends its connection's unique name) stands for <name>/StatusNotifierItem; a path for
            // that path on the caller's connection (libappindicator).
            const QString item = service.startsWith(QLatin1Char('/')) ? message.service() + service
                                                                      : service + QStringLiteral("/StatusNotifierItem");
            m_registrations.append({item, message.service(), nowMs()});
            connection.send(message.createReply());
            QDBusMessage signal = QDBusMessage::createSignal(QLatin1String(kPath), QLatin1String(kInterface),
                                                             QStringLiteral("StatusNotifierItemRegistered"));
            signal << item;
            return connection.send(signal);
        }
        if (member == QLatin1String("RegisterStatusNotifierHost")) {
            m_hosts.append(service);
            connection.send(message.createReply());
            return connection.send(QDBusMessage::createSignal(QLatin1String(kPath), QLatin1String(kInterface),
                                                              QStringLiteral("StatusNotifierHostRegistered")));
        }
        return false;
    }

private:
    QVariantMap properties() const
    {
        QStringList items;
        for (const Registration &registration : m_registrations)
            items.append(registration.item);
        return {{QStringLiteral("RegisteredStatusNotifierItems"), items},
                {QStringLiteral("IsStatusNotifierHostRegistered"), !m_hosts.isEmpty()},
                {QStringLiteral("ProtocolVersion"), 0}};
    }

    mutable QMutex m_mutex;
    QList<Registration> m_registrations;
    QStringList m_hosts;
    int m_hostReads = 0;
    QStringList m_hostReadErrors;
    QDBusConnection m_bus{QString()};
};
