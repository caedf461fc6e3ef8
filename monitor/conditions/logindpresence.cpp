// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "conditions/logindpresence.h"

// How the watcher reads logind:
//
//   ListSessions ─► GetAll(org.freedesktop.login1.Session) per session ─► sessions() ─► changed()
//   read again on SessionNew, SessionRemoved, a session's PropertiesChanged, logind (re)appearing, and every
//   kRefreshMs (a tty's IdleHint changes without a signal); every kRetryMs while logind does not answer
//
// Every call is asynchronous with a timeout. The bus address comes from DBUS_SYSTEM_BUS_ADDRESS when set (tests
// give it a private bus), else the system bus.

#include "base/logging.h"

#include <QDBusArgument>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QDBusMetaType>
#include <QDBusPendingCallWatcher>
#include <QDBusServiceWatcher>
#include <QDateTime>
#include <QDeadlineTimer>
#include <QTimer>

#include <atomic>
#include <type_traits>

#include <time.h>

namespace {

const QString kService = QStringLiteral("org.freedesktop.login1");
const QString kManagerPath = QStringLiteral("/org/freedesktop/login1");
const QString kManagerInterface = QStringLiteral("org.freedesktop.login1.Manager");
const QString kSessionInterface = QStringLiteral("org.freedesktop.login1.Session");
const QString kPropertiesInterface = QStringLiteral("org.freedesktop.DBus.Properties");
// Burst of signals (a lock sets LockedHint, IdleHint and IdleSinceHint one after another): one read after them.
constexpr int kDebounceMs = 50;
// More sessions than any machine has: an answer this long is garbage.
constexpr qsizetype kMaxSessions = 4096;

QDBusMessage listSessionsCall()
{
    return QDBusMessage::createMethodCall(kService, kManagerPath, kManagerInterface, QStringLiteral("ListSessions"));
}

QDBusMessage getAllCall(const QString &path)
{
    QDBusMessage call = QDBusMessage::createMethodCall(kService, path, kPropertiesInterface, QStringLiteral("GetAll"));
    call << kSessionInterface;
    return call;
}

QString describeError(const QDBusMessage &reply)
{
    return reply.errorMessage().isEmpty() ? reply.errorName()
                                          : QStringLiteral("%1: %2").arg(reply.errorName(), reply.errorMessage());
}

// A session that vanished between the list and its properties: a SessionRemoved follows; not a failure of logind.
bool sessionVanished(const QDBusMessage &reply)
{
    return reply.errorName() == QLatin1String("org.freedesktop.DBus.Error.UnknownObject")
           || reply.errorName() == QLatin1String("org.freedesktop.login1.NoSuchSession");
}

// microseconds on some clock, at `nowUs` on that clock -> the monitor's Clock
qint64 toClockMs(quint64 sinceUs, qint64 nowUs, qint64 clockNowMs)
{
    if (sinceUs >= quint64(nowUs))
        return clockNowMs; // in the future: a clock stepped, or garbage
    return clockNowMs - qint64((quint64(nowUs) - sinceUs) / 1000);
}

} // namespace

namespace LogindParse {

std::optional<QList<SessionRef>> sessionList(const QDBusMessage &reply, QString *error)
{
    if (reply.type() != QDBusMessage::ReplyMessage) {
        *error = describeError(reply);
        return std::nullopt;
    }
    if (reply.signature() != QLatin1String("a(susso)")) {
        *error = QStringLiteral("ListSessions answered '%1', not a(susso)").arg(reply.signature());
        return std::nullopt;
    }
    QList<SessionRef> sessions;
    const QDBusArgument argument = reply.arguments().at(0).value<QDBusArgument>();
    argument.beginArray();
    while (!argument.atEnd()) {
        if (sessions.size() == kMaxSessions) {
            *error = QStringLiteral("ListSessions answered more than %1 sessions").arg(kMaxSessions);
            return std::nullopt;
        }
        SessionRef ref;
        QString user;
        QString seat;
        QDBusObjectPath path;
        argument.beginStructure();
        argument >> ref.id >> ref.uid >> user >> seat >> path;
        argument.endStructure();
        ref.path = path.path();
        if (ref.id.isEmpty() || ref.path.isEmpty()) {
            *error = QStringLiteral("ListSessions answered a session without an id or object");
            return std::nullopt;
        }
        sessions.append(ref);
    }
    argument.endArray();
    return sessions;
}

Now Now::read(const Clock *clock)
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    Now now;
    now.clockMs = clock->nowMs();
    now.monotonicUs = qint64(ts.tv_sec) * 1'000'000 + ts.tv_nsec / 1000;
    now.realtimeUs = QDateTime::currentMSecsSinceEpoch() * 1000;
    return now;
}

std::optional<ParsedSession> sessionProperties(const QDBusMessage &reply, const SessionRef &ref, const Now &now,
                                               QString *error)
{
    if (reply.type() != QDBusMessage::ReplyMessage) {
        *error = describeError(reply);
        return std::nullopt;
    }
    if (reply.signature() != QLatin1String("a{sv}")) {
        *error = QStringLiteral("the properties of session %1 came as '%2', not a{sv}").arg(ref.id, reply.signature());
        return std::nullopt;
    }
    const QVariantMap properties = qdbus_cast<QVariantMap>(reply.arguments().at(0));
    // A property present with another type is garbage; `required` ones must be present too.
    bool garbage = false;
    const auto read = [&](const char *name, auto *out, bool required) {
        using T = std::remove_pointer_t<decltype(out)>;
        const auto it = properties.constFind(QLatin1String(name));
        if (it == properties.cend()) {
            if (required) {
                *error = QStringLiteral("session %1 has no %2").arg(ref.id, QLatin1String(name));
                garbage = true;
            }
            return false;
        }
        if (it->metaType() != QMetaType::fromType<T>()) {
            *error = QStringLiteral("session %1: %2 is a %3").arg(ref.id, QLatin1String(name),
                                                                 QLatin1String(it->metaType().name()));
            garbage = true;
            return false;
        }
        *out = it->template value<T>();
        return true;
    };
    ParsedSession parsed;
    LogindSession &session = parsed.session;
    session.id = ref.id;
    session.uid = ref.uid;
    qulonglong sinceMonotonicUs = 0;
    qulonglong sinceRealtimeUs = 0;
    read("Class", &session.sessionClass, true);
    read("Remote", &session.remote, true);
    read("IdleHint", &session.idle, true);
    read("Type", &session.type, false);
    read("LockedHint", &session.locked, false); // logind before 230 has none
    read("Active", &session.active, false);
    read("IdleSinceHintMonotonic", &sinceMonotonicUs, false);
    read("IdleSinceHint", &sinceRealtimeUs, false);
    if (garbage)
        return std::nullopt;
    session.idleSinceMs = now.clockMs;
    if (session.idle && sinceMonotonicUs > 0) {
        session.idleSinceMs = toClockMs(sinceMonotonicUs, now.monotonicUs, now.clockMs);
        parsed.idleSinceKnown = true;
    } else if (session.idle && sinceRealtimeUs > 0) {
        session.idleSinceMs = toClockMs(sinceRealtimeUs, now.realtimeUs, now.clockMs);
        parsed.idleSinceKnown = true;
    }
    if (!session.idle)
        session.idleSinceMs = 0;
    return parsed;
}

} // namespace LogindParse

LogindPresence::LogindPresence(const Clock *clock, QObject *parent)
    : QObject(parent), m_clock(clock), m_debounceTimer(new QTimer(this)), m_pollTimer(new QTimer(this))
{
    m_debounceTimer->setSingleShot(true);
    m_debounceTimer->setInterval(kDebounceMs);
    connect(m_debounceTimer, &QTimer::timeout, this, &LogindPresence::refresh);
    connect(m_pollTimer, &QTimer::timeout, this, &LogindPresence::refresh);
}

LogindPresence::~LogindPresence()
{
    dropConnection();
}

void LogindPresence::start()
{
    refresh();
}

UserPresence LogindPresence::presence() const
{
    return Presence::combine(m_sessions, DesktopIdleReport());
}

void LogindPresence::scheduleRefresh()
{
    if (!m_debounceTimer->isActive())
        m_debounceTimer->start();
}

bool LogindPresence::ensureConnected(QString *error)
{
    if (!m_busName.isEmpty()) {
        if (QDBusConnection(m_busName).isConnected())
            return true;
        dropConnection(); // the bus went away: connect anew
    }
    // A connection of our own: it can be dropped and made again when the bus restarts, which the shared
    // QDBusConnection::systemBus() cannot.
    static std::atomic<int> serial{0};
    const QString name = QStringLiteral("idlegpu-logind-%1").arg(++serial);
    QDBusConnection bus = QDBusConnection::connectToBus(QDBusConnection::SystemBus, name);
    if (!bus.isConnected()) {
        *error = QStringLiteral("no system bus (%1)").arg(bus.lastError().message());
        QDBusConnection::disconnectFromBus(name);
        return false;
    }
    m_busName = name;
    // Any of these: read again. PropertiesChanged of every object logind has (only sessions send it), so that a
    // session listed later needs no match of its own.
    bus.connect(kService, kManagerPath, kManagerInterface, QStringLiteral("SessionNew"), this,
                SLOT(scheduleRefresh()));
    bus.connect(kService, kManagerPath, kManagerInterface, QStringLiteral("SessionRemoved"), this,
                SLOT(scheduleRefresh()));
    bus.connect(kService, QString(), kPropertiesInterface, QStringLiteral("PropertiesChanged"), {kSessionInterface},
                QString(), this, SLOT(scheduleRefresh()));
    m_serviceWatcher = new QDBusServiceWatcher(kService, bus, QDBusServiceWatcher::WatchForOwnerChange, this);
    connect(m_serviceWatcher, &QDBusServiceWatcher::serviceOwnerChanged, this, &LogindPresence::scheduleRefresh);
    return true;
}

void LogindPresence::dropConnection()
{
    if (m_busName.isEmpty())
        return;
    ++m_generation; // a read in progress is abandoned
    m_reading = false;
    delete m_serviceWatcher;
    m_serviceWatcher = nullptr;
    QDBusConnection bus(m_busName);
    bus.disconnect(kService, kManagerPath, kManagerInterface, QStringLiteral("SessionNew"), this,
                   SLOT(scheduleRefresh()));
    bus.disconnect(kService, kManagerPath, kManagerInterface, QStringLiteral("SessionRemoved"), this,
                   SLOT(scheduleRefresh()));
    bus.disconnect(kService, QString(), kPropertiesInterface, QStringLiteral("PropertiesChanged"), {kSessionInterface},
                   QString(), this, SLOT(scheduleRefresh()));
    QDBusConnection::disconnectFromBus(m_busName);
    m_busName.clear();
}

void LogindPresence::refresh()
{
    if (m_reading) {
        m_readAgain = true;
        return;
    }
    QString error;
    if (!ensureConnected(&error)) {
        fail(error);
        return;
    }
    m_reading = true;
    m_readAgain = false;
    m_readSessions.clear();
    m_readIdleSeenSinceMs.clear();
    m_readError.clear();
    m_outstanding = 0;
    const quint64 generation = ++m_generation;
    auto *watcher = new QDBusPendingCallWatcher(QDBusConnection(m_busName).asyncCall(listSessionsCall(),
                                                                                     m_callTimeoutMs), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this, watcher, generation] {
        watcher->deleteLater();
        if (generation == m_generation)
            receiveSessionList(watcher->reply());
    });
}

void LogindPresence::receiveSessionList(const QDBusMessage &reply)
{
    const std::optional<QList<LogindParse::SessionRef>> list = LogindParse::sessionList(reply, &m_readError);
    if (!list) {
        finishRound();
        return;
    }
    const quint64 generation = m_generation;
    m_outstanding = int(list->size());
    for (const LogindParse::SessionRef &ref : *list) {
        auto *watcher = new QDBusPendingCallWatcher(
            QDBusConnection(m_busName).asyncCall(getAllCall(ref.path), m_callTimeoutMs), this);
        connect(watcher, &QDBusPendingCallWatcher::finished, this, [this, watcher, generation, ref] {
            watcher->deleteLater();
            if (generation == m_generation)
                receiveSession(watcher->reply(), ref);
        });
    }
    if (list->isEmpty())
        finishRound();
}

void LogindPresence::receiveSession(const QDBusMessage &reply, const LogindParse::SessionRef &ref)
{
    --m_outstanding;
    if (m_readError.isEmpty() && !sessionVanished(reply)) {
        QString error;
        if (const auto parsed = LogindParse::sessionProperties(reply, ref, LogindParse::Now::read(m_clock), &error)) {
            LogindSession session = parsed->session;
            if (session.idle && !parsed->idleSinceKnown) {
                session.idleSinceMs = m_idleSeenSinceMs.value(session.id, session.idleSinceMs);
                m_readIdleSeenSinceMs.insert(session.id, session.idleSinceMs);
            }
            m_readSessions.append(session);
        } else {
            m_readError = error;
        }
    }
    if (m_outstanding == 0)
        finishRound();
}

void LogindPresence::finishRound()
{
    m_reading = false;
    if (!m_readError.isEmpty()) {
        fail(m_readError);
    } else {
        m_idleSeenSinceMs = m_readIdleSeenSinceMs; // sessions no longer idle forget when they were seen idle
        if (m_failureLogged)
            qCInfo(lcPresence, "logind answers again");
        m_failureLogged = false;
        setSessions(m_readSessions);
        m_pollTimer->start(kRefreshMs);
    }
    if (m_readAgain)
        scheduleRefresh();
}

void LogindPresence::fail(const QString &error)
{
    if (!m_failureLogged)
        qCWarning(lcPresence, "logind does not tell whether someone is at the computer (%s): counted as present; "
                              "asking again every %d s", qPrintable(error), kRetryMs / 1000);
    m_failureLogged = true;
    m_idleSeenSinceMs.clear();
    setSessions(std::nullopt);
    m_pollTimer->start(kRetryMs);
}

void LogindPresence::setSessions(const std::optional<QList<LogindSession>> &sessions)
{
    if (sessions == m_sessions)
        return;
    m_sessions = sessions;
    Q_EMIT changed(presence());
}

std::optional<QList<LogindSession>> LogindPresence::readOnce(const Clock *clock, int timeoutMs, QString *error)
{
    static std::atomic<int> serial{0};
    const QString name = QStringLiteral("idlegpu-logind-once-%1").arg(++serial);
    const QDeadlineTimer deadline(timeoutMs);
    std::optional<QList<LogindSession>> result;
    {
        QDBusConnection bus = QDBusConnection::connectToBus(QDBusConnection::SystemBus, name);
        const auto remainingMs = [&deadline] { return int(qMax<qint64>(1, deadline.remainingTime())); };
        if (!bus.isConnected()) {
            *error = QStringLiteral("no system bus (%1)").arg(bus.lastError().message());
        } else if (const auto list = LogindParse::sessionList(bus.call(listSessionsCall(), QDBus::Block, remainingMs()),
                                                              error)) {
            QList<LogindSession> sessions;
            bool ok = true;
            for (const LogindParse::SessionRef &ref : *list) {
                const QDBusMessage reply = bus.call(getAllCall(ref.path), QDBus::Block, remainingMs());
                if (sessionVanished(reply))
                    continue;
                const auto parsed = LogindParse::sessionProperties(reply, ref, LogindParse::Now::read(clock), error);
                if (!parsed) {
                    ok = false;
                    break;
                }
                sessions.append(parsed->session);
            }
            if (ok)
                result = sessions;
        }
    }
    QDBusConnection::disconnectFromBus(name);
    return result;
}
