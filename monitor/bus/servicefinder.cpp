// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "bus/servicefinder.h"

#include "base/logging.h"
#include "bus/busnames.h"

#include <QDBusMessage>
#include <QDBusMetaType>
#include <QDBusObjectPath>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QDBusServiceWatcher>
#include <QDBusVariant>
#include <QTimer>

#include <unistd.h>

namespace {

QDBusMessage busCall(const QString &method, const QString &argument)
{
    QDBusMessage message = QDBusMessage::createMethodCall(QStringLiteral("org.freedesktop.DBus"),
                                                          QStringLiteral("/org/freedesktop/DBus"),
                                                          QStringLiteral("org.freedesktop.DBus"), method);
    message << argument;
    return message;
}

} // namespace

ServiceFinder::ServiceFinder(const QDBusConnection &systemBus, const QDBusConnection &sessionBus, uint systemUid,
                             uint ownUid, QObject *parent)
    : QObject(parent), m_system(systemBus), m_session(sessionBus), m_systemUid(systemUid),
      m_ownUid(ownUid == uint(-1) ? ::getuid() : ownUid)
{
}

QString ServiceFinder::whereName(Where where)
{
    switch (where) {
    case Where::System: return QStringLiteral("system");
    case Where::Session: return QStringLiteral("session");
    case Where::None: return QStringLiteral("none");
    }
    return QString();
}

void ServiceFinder::start(bool systemOnly)
{
    if (m_running)
        return;
    begin(systemOnly ? Scope::SystemOnly : Scope::Both, 0);
    check(Where::System);
}

void ServiceFinder::startSessionOnly(int waitMs)
{
    if (m_running)
        return;
    begin(Scope::SessionOnly, waitMs);
    check(Where::Session);
}

void ServiceFinder::begin(Scope scope, int sessionWaitMs)
{
    m_running = true;
    ++m_round;
    m_scope = scope;
    m_sessionWaitMs = sessionWaitMs;
    m_waitedMs = -1;
    m_unitVerdict.clear();
}

void ServiceFinder::waitForSystemUnit(const QString &unit, int waitMs)
{
    m_unit = unit;
    m_unitWaitMs = waitMs;
}

void ServiceFinder::check(Where where)
{
    const QDBusConnection &bus = where == Where::System ? m_system : m_session;
    if (!bus.isConnected()) {
        next(where);
        return;
    }
    // Who owns the name, then as whom that connection runs: two calls, neither waited for. A reply from an earlier
    // round (a wait that ended meanwhile) is ignored.
    const quint64 round = m_round;
    auto *owner = new QDBusPendingCallWatcher(
        bus.asyncCall(busCall(QStringLiteral("GetNameOwner"), BusNames::service), kStepTimeoutMs), this);
    connect(owner, &QDBusPendingCallWatcher::finished, this, [this, where, bus, round](QDBusPendingCallWatcher *w) {
        w->deleteLater();
        if (round != m_round || !m_running)
            return;
        const QDBusPendingReply<QString> reply = *w;
        if (reply.isError()) {
            next(where); // no owner, or a bus that does not answer
            return;
        }
        const QString uniqueName = reply.value();
        auto *user = new QDBusPendingCallWatcher(
            bus.asyncCall(busCall(QStringLiteral("GetConnectionUnixUser"), uniqueName), kStepTimeoutMs), this);
        connect(user, &QDBusPendingCallWatcher::finished, this,
                [this, where, uniqueName, round](QDBusPendingCallWatcher *u) {
                    u->deleteLater();
                    if (round != m_round || !m_running)
                        return;
                    const QDBusPendingReply<uint> uid = *u;
                    const uint wanted = where == Where::System ? m_systemUid : m_ownUid;
                    if (uid.isError()) {
                        qCWarning(lcMonitor, "%s bus: cannot tell who owns %s (%s): ignored",
                                  qPrintable(whereName(where)), qPrintable(QString(BusNames::service)),
                                  qPrintable(uid.error().message()));
                        next(where);
                    } else if (uid.value() != wanted) {
                        qCWarning(lcMonitor, "%s bus: %s is owned by %s, which runs as uid %u, not %u: ignored",
                                  qPrintable(whereName(where)), qPrintable(QString(BusNames::service)),
                                  qPrintable(uniqueName), uid.value(), wanted);
                        next(where);
                    } else {
                        done(where);
                    }
                });
    });
}

void ServiceFinder::next(Where after)
{
    if (m_waitTimer)
        return; // waiting for the name: its registration, or the end of the wait, goes on
    if (after == Where::System && m_scope == Scope::Both)
        check(Where::Session);
    else if (after == Where::Session && m_scope == Scope::SessionOnly && m_sessionWaitMs > 0)
        waitForName(Where::Session, m_sessionWaitMs);
    else if (m_scope == Scope::Both && !m_unit.isEmpty())
        askUnitFileState();
    else
        done(Where::None);
}

void ServiceFinder::done(Where where)
{
    if (!m_running)
        return;
    if (m_waitTimer) {
        m_waitedMs = m_wait.elapsed();
        delete m_waitTimer;
        m_waitTimer = nullptr;
        m_waitWatcher->deleteLater();
        m_waitWatcher = nullptr;
    }
    m_running = false;
    ++m_round; // what is still on its way belongs to this round
    m_where = where;
    Q_EMIT finished(where);
}

// systemd's questions (org.freedesktop.systemd1 on the system bus), each an asynchronous call: the unit file's state
// (enabled?), the unit's ActiveState (on its way?), and for an inactive unit the manager's SystemState (does the machine
// still start, so that the unit's turn may come?).
namespace {

const QString kSystemd = QStringLiteral("org.freedesktop.systemd1");
const QString kSystemdPath = QStringLiteral("/org/freedesktop/systemd1");
const QString kManager = QStringLiteral("org.freedesktop.systemd1.Manager");

QDBusMessage propertyGet(const QString &path, const QString &interface, const QString &property)
{
    QDBusMessage message = QDBusMessage::createMethodCall(
        kSystemd, path, QStringLiteral("org.freedesktop.DBus.Properties"), QStringLiteral("Get"));
    message << interface << property;
    return message;
}

QString propertyValue(const QDBusMessage &reply)
{
    return reply.arguments().value(0).value<QDBusVariant>().variant().toString();
}

} // namespace

void ServiceFinder::systemdCall(const QDBusMessage &message, std::function<void(const QDBusMessage &)> then)
{
    const quint64 round = m_round;
    auto *watcher = new QDBusPendingCallWatcher(m_system.asyncCall(message, kStepTimeoutMs), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this, round, then = std::move(then)](QDBusPendingCallWatcher *w) {
                w->deleteLater();
                if (round != m_round || !m_running)
                    return;
                const QDBusMessage reply = w->reply();
                if (reply.type() == QDBusMessage::ErrorMessage) {
                    noWait(QStringLiteral("systemd cannot tell about %1 (%2)").arg(m_unit, reply.errorMessage()));
                    return;
                }
                then(reply);
            });
}

void ServiceFinder::askUnitFileState()
{
    if (!m_system.isConnected()) {
        noWait(QStringLiteral("no system bus"));
        return;
    }
    QDBusMessage message = QDBusMessage::createMethodCall(kSystemd, kSystemdPath, kManager,
                                                          QStringLiteral("GetUnitFileState"));
    message << m_unit;
    systemdCall(message, [this](const QDBusMessage &reply) {
        const QString state = reply.arguments().value(0).toString();
        if (state == QLatin1String("enabled") || state == QLatin1String("enabled-runtime"))
            askActiveState();
        else
            noWait(QStringLiteral("%1 is %2").arg(m_unit, state));
    });
}

void ServiceFinder::askActiveState()
{
    QDBusMessage load = QDBusMessage::createMethodCall(kSystemd, kSystemdPath, kManager, QStringLiteral("LoadUnit"));
    load << m_unit;
    systemdCall(load, [this](const QDBusMessage &reply) {
        const QString path = reply.arguments().value(0).value<QDBusObjectPath>().path();
        systemdCall(propertyGet(path, QStringLiteral("org.freedesktop.systemd1.Unit"), QStringLiteral("ActiveState")),
                    [this](const QDBusMessage &state) {
                        const QString active = propertyValue(state);
                        if (active == QLatin1String("activating"))
                            waitForUnit(QStringLiteral("%1 is enabled and activating").arg(m_unit));
                        else if (active == QLatin1String("inactive"))
                            askSystemState();
                        else
                            noWait(QStringLiteral("%1 is enabled and %2").arg(m_unit, active));
                    });
    });
}

void ServiceFinder::askSystemState()
{
    systemdCall(propertyGet(kSystemdPath, kManager, QStringLiteral("SystemState")), [this](const QDBusMessage &reply) {
        const QString system = propertyValue(reply);
        if (system == QLatin1String("initializing") || system == QLatin1String("starting"))
            waitForUnit(QStringLiteral("%1 is enabled, and the system is %2").arg(m_unit, system));
        else
            noWait(QStringLiteral("%1 is enabled but inactive, and the system is %2").arg(m_unit, system));
    });
}

void ServiceFinder::noWait(const QString &why)
{
    m_unitVerdict = why;
    qCDebug(lcMonitor, "not waiting for the idlegpu system service: %s", qPrintable(why));
    done(Where::None);
}

void ServiceFinder::waitForUnit(const QString &why)
{
    m_unitVerdict = why;
    qCInfo(lcMonitor, "%s: waiting up to %d s for the idlegpu system service", qPrintable(why), m_unitWaitMs / 1000);
    Q_EMIT waitingForUnit(m_unit, m_unitWaitMs);
    waitForName(Where::System, m_unitWaitMs);
}

void ServiceFinder::waitForName(Where where, int waitMs)
{
    const QDBusConnection &bus = where == Where::System ? m_system : m_session;
    m_wait.start();
    // The watcher first, then one more look: a name that came between the first look and the watch is not missed.
    m_waitWatcher = new QDBusServiceWatcher(BusNames::service, bus, QDBusServiceWatcher::WatchForRegistration, this);
    connect(m_waitWatcher, &QDBusServiceWatcher::serviceRegistered, this, [this, where] { check(where); });
    m_waitTimer = new QTimer(this);
    m_waitTimer->setSingleShot(true);
    m_waitTimer->setTimerType(Qt::PreciseTimer); // a coarse timer may end the wait 5 % early
    connect(m_waitTimer, &QTimer::timeout, this, [this] { done(Where::None); });
    m_waitTimer->start(waitMs);
    check(where);
}
