// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A stand-in for systemd-logind on a private bus (tests/privatebus.h): org.freedesktop.login1 with the Manager's
// ListSessions, SessionNew and SessionRemoved, and session objects that answer Properties.GetAll and send
// PropertiesChanged. It can also answer garbage, or not at all.
#include <QDBusArgument>
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusMetaType>
#include <QDBusObjectPath>
#include <QDBusVirtualObject>
#include <QMap>
#include <QMutex>
#include <QVariantMap>

#include <time.h>

// One entry of ListSessions' a(susso).
struct FakeLogindEntry
{
    QString id;
    uint uid = 0;
    QString user;
    QString seat;
    QDBusObjectPath path;
};
Q_DECLARE_METATYPE(FakeLogindEntry)

inline QDBusArgument &operator<<(QDBusArgument &argument, const FakeLogindEntry &entry)
{
    argument.beginStructure();
    argument << entry.id << entry.uid << entry.user << entry.seat << entry.path;
    argument.endStructure();
    return argument;
}
inline const QDBusArgument &operator>>(const QDBusArgument &argument, FakeLogindEntry &entry)
{
    argument.beginStructure();
    argument >> entry.id >> entry.uid >> entry.user >> entry.seat >> entry.path;
    argument.endStructure();
    return argument;
}

class FakeLogind : public QDBusVirtualObject
{
public:
    enum class Answer { Normally, GarbageList, Silence };

    static constexpr const char *kService = "org.freedesktop.login1";
    static constexpr const char *kManagerPath = "/org/freedesktop/login1";
    static constexpr const char *kManagerInterface = "org.freedesktop.login1.Manager";
    static constexpr const char *kSessionInterface = "org.freedesktop.login1.Session";

    // CLOCK_MONOTONIC in µs, the clock of IdleSinceHintMonotonic.
    static qulonglong monotonicNowUs()
    {
        timespec ts{};
        clock_gettime(CLOCK_MONOTONIC, &ts);
        return qulonglong(ts.tv_sec) * 1'000'000 + qulonglong(ts.tv_nsec) / 1000;
    }
    // A local session of class "user" on seat0, in use (not idle, not locked).
    static QVariantMap localSession(const QString &type = QStringLiteral("x11"))
    {
        return {{QStringLiteral("Type"), type},
                {QStringLiteral("Class"), QStringLiteral("user")},
                {QStringLiteral("Remote"), false},
                {QStringLiteral("Active"), true},
                {QStringLiteral("IdleHint"), false},
                {QStringLiteral("IdleSinceHint"), qulonglong(0)},
                {QStringLiteral("IdleSinceHintMonotonic"), qulonglong(0)},
                {QStringLiteral("LockedHint"), false}};
    }
    // The properties that make a session idle since `agoMs` before now.
    // Idle for agoMs, or since boot where the machine has not been up that long: the monotonic clock starts at
    // boot, and a time before it would wrap around to one far in the future.
    static QVariantMap idleFor(qint64 agoMs)
    {
        const qulonglong nowUs = monotonicNowUs();
        const qulonglong agoUs = qulonglong(agoMs) * 1000;
        return {{QStringLiteral("IdleHint"), true},
                {QStringLiteral("IdleSinceHintMonotonic"), agoUs < nowUs ? nowUs - agoUs : qulonglong(1)}};
    }

    // Connects to the bus at `address` and takes org.freedesktop.login1.
    bool start(const QString &address, QString *why)
    {
        qDBusRegisterMetaType<FakeLogindEntry>();
        qDBusRegisterMetaType<QList<FakeLogindEntry>>();
        m_connectionName = QStringLiteral("fake-logind");
        m_bus = QDBusConnection::connectToBus(address, m_connectionName);
        if (!m_bus.isConnected()) {
            *why = QStringLiteral("cannot connect to the private bus: %1").arg(m_bus.lastError().message());
            return false;
        }
        if (!m_bus.registerVirtualObject(QLatin1String(kManagerPath), this, QDBusConnection::SubPath)) {
            *why = QStringLiteral("cannot register the fake logind's objects");
            return false;
        }
        return appear(why);
    }
    // logind (re)starts.
    bool appear(QString *why = nullptr)
    {
        if (m_bus.registerService(QLatin1String(kService)))
            return true;
        if (why)
            *why = QStringLiteral("cannot own %1: %2").arg(QLatin1String(kService), m_bus.lastError().message());
        return false;
    }
    // logind goes away (stopped, crashed).
    void disappear() { m_bus.unregisterService(QLatin1String(kService)); }
    void stop()
    {
        disappear();
        m_bus.unregisterObject(QLatin1String(kManagerPath), QDBusConnection::UnregisterTree);
        QDBusConnection::disconnectFromBus(m_connectionName);
    }

    static QString pathOf(const QString &id) { return QStringLiteral("/org/freedesktop/login1/session/_%1").arg(id); }

    // Adds a session (SessionNew) with these properties, of user `uid`.
    void addSession(const QString &id, uint uid, const QVariantMap &properties)
    {
        {
            const QMutexLocker lock(&m_mutex);
            m_sessions.insert(id, {uid, properties});
        }
        QDBusMessage signal = QDBusMessage::createSignal(QLatin1String(kManagerPath), QLatin1String(kManagerInterface),
                                                         QStringLiteral("SessionNew"));
        signal << id << QVariant::fromValue(QDBusObjectPath(pathOf(id)));
        m_bus.send(signal);
    }
    void removeSession(const QString &id)
    {
        {
            const QMutexLocker lock(&m_mutex);
            m_sessions.remove(id);
        }
        QDBusMessage signal = QDBusMessage::createSignal(QLatin1String(kManagerPath), QLatin1String(kManagerInterface),
                                                         QStringLiteral("SessionRemoved"));
        signal << id << QVariant::fromValue(QDBusObjectPath(pathOf(id)));
        m_bus.send(signal);
    }
    // Changes properties of a session and says so (PropertiesChanged), as logind does for IdleHint and LockedHint.
    void changeSession(const QString &id, const QVariantMap &changes)
    {
        {
            const QMutexLocker lock(&m_mutex);
            QVariantMap &properties = m_sessions[id].properties;
            for (auto it = changes.cbegin(); it != changes.cend(); ++it)
                properties.insert(it.key(), it.value());
        }
        QDBusMessage signal = QDBusMessage::createSignal(pathOf(id), QStringLiteral("org.freedesktop.DBus.Properties"),
                                                         QStringLiteral("PropertiesChanged"));
        signal << QString::fromLatin1(kSessionInterface) << changes << QStringList();
        m_bus.send(signal);
    }
    // Lists a session whose object is gone by the time its properties are asked.
    void addVanishedSession(const QString &id)
    {
        const QMutexLocker lock(&m_mutex);
        m_vanished.insert(id, kBobUid);
    }
    void setAnswer(Answer answer)
    {
        const QMutexLocker lock(&m_mutex);
        m_answer = answer;
    }
    int listCalls() const
    {
        const QMutexLocker lock(&m_mutex);
        return m_listCalls;
    }

    QString introspect(const QString &) const override { return QString(); }

    // Called on QtDBus's own thread: everything it reads is under the mutex.
    bool handleMessage(const QDBusMessage &message, const QDBusConnection &connection) override
    {
        const QMutexLocker lock(&m_mutex);
        if (message.path() == QLatin1String(kManagerPath) && message.member() == QLatin1String("ListSessions")) {
            ++m_listCalls;
            if (m_answer == Answer::Silence)
                return true; // the caller's timeout answers
            if (m_answer == Answer::GarbageList)
                return connection.send(message.createReply(QStringList{QStringLiteral("2")}));
            QList<FakeLogindEntry> entries;
            const auto add = [&entries](const QString &id, uint uid) {
                entries.append({id, uid, QStringLiteral("user%1").arg(uid), QStringLiteral("seat0"),
                                QDBusObjectPath(pathOf(id))});
            };
            for (auto it = m_sessions.cbegin(); it != m_sessions.cend(); ++it)
                add(it.key(), it->uid);
            for (auto it = m_vanished.cbegin(); it != m_vanished.cend(); ++it)
                add(it.key(), it.value());
            return connection.send(message.createReply(QVariant::fromValue(entries)));
        }
        if (message.interface() == QLatin1String("org.freedesktop.DBus.Properties")
            && message.member() == QLatin1String("GetAll")) {
            const QString id = message.path().section(QLatin1Char('_'), -1);
            const auto it = m_sessions.constFind(id);
            if (!message.path().startsWith(QStringLiteral("/org/freedesktop/login1/session/")) || it == m_sessions.cend())
                return connection.send(message.createErrorReply(QStringLiteral("org.freedesktop.DBus.Error.UnknownObject"),
                                                                QStringLiteral("no such session")));
            return connection.send(message.createReply(QVariant(it->properties)));
        }
        return false;
    }

private:
    static constexpr uint kBobUid = 1001;
    struct Session
    {
        uint uid = 0;
        QVariantMap properties;
    };
    mutable QMutex m_mutex;
    QMap<QString, Session> m_sessions;
    QMap<QString, uint> m_vanished;
    Answer m_answer = Answer::Normally;
    int m_listCalls = 0;
    QString m_connectionName;
    QDBusConnection m_bus{QString()};
};
