// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "bus/remotemonitor.h"

#include "base/clock.h"
#include "base/logging.h"
#include "bus/busnames.h"
#include "bus/statejsonreader.h"

#include <QCryptographicHash>
#include <QDBusArgument>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QDBusServiceWatcher>
#include <QDateTime>
#include <QJsonDocument>
#include <QJsonObject>
#include <QTimer>

// How it follows the service:
//   - a QDBusServiceWatcher on the well-known name: no owner -> unavailable ("not running"); a new owner -> GetState
//     at once, timed from the owner change to the state applied (lastAttachMs(), the issue wants < 1 s);
//   - StateChanged and Preempted are matched on the object path and interface alone, and taken only from the name's
//     owner (m_owner): a match on the well-known name would make QtDBus ask the bus for its owner with a blocking call,
//     and a restarted service needs no new match;
//   - GetState: one call on its way at a time; a StateChanged meanwhile asks for one more after it. A reply older than
//     the one applied (by call number, and by generation for the same owner) is dropped.
//   - Preempted comes twice to the user whose job took the GPU (docs/dbus.md): a broadcast copy, maybe without the
//     holder, and a copy addressed to them with it. One without the holder's uid waits kPreemptionWaitMs for a better
//     copy of the same event; the first that names the uid is told at once; the event number keeps a second copy out.

namespace {

constexpr int kPreemptionWaitMs = 150;
constexpr int kDeliveredKept = 64;

QString reasonFor(const QDBusError &error)
{
    const QString name = error.name();
    const QString message = error.message();
    namespace E = BusNames::Error;
    if (name == E::notAuthorized)
        return message.isEmpty() ? RemoteMonitor::tr("not authorized") : message;
    if (name == E::cancelled)
        return RemoteMonitor::tr("the authentication was cancelled");
    if (name == E::interactionRequired)
        return RemoteMonitor::tr("a password is needed, and nothing could ask for it");
    if (name == E::rateLimited)
        return RemoteMonitor::tr("too many requests; try again in a moment");
    if (name == E::busy)
        return RemoteMonitor::tr("too many authorizations are pending; try again in a moment");
    if (name == E::authorityUnavailable)
        return RemoteMonitor::tr("polkit does not answer, so nobody may change anything");
    if (error.type() == QDBusError::NoReply || error.type() == QDBusError::Timeout)
        return RemoteMonitor::tr("the idlegpu service did not answer");
    if (error.type() == QDBusError::ServiceUnknown || error.name() == QLatin1String("org.freedesktop.DBus.Error.NameHasNoOwner"))
        return RemoteMonitor::tr("the idlegpu service is not running");
    return message.isEmpty() ? name : message;
}

// A pause's length as the service takes it: whole seconds, at least 1, at most BusNames::Limit::pauseSeconds.
qulonglong pauseSeconds(qint64 durationMs)
{
    return qulonglong(qBound<qint64>(1, (durationMs + 999) / 1000, BusNames::Limit::pauseSeconds));
}

QDBusMessage call(const QString &method)
{
    return QDBusMessage::createMethodCall(BusNames::service, BusNames::objectPath, BusNames::interface, method);
}

} // namespace

RemoteMonitor::RemoteMonitor(const QDBusConnection &bus, QObject *parent)
    : MonitorLink(parent), m_bus(bus),
      m_watcher(new QDBusServiceWatcher(BusNames::service, bus, QDBusServiceWatcher::WatchForOwnerChange, this))
{
    setAvailable(false, notRunningText());
    connect(m_watcher, &QDBusServiceWatcher::serviceOwnerChanged, this, &RemoteMonitor::onOwnerChanged);
    m_bus.connect(QString(), BusNames::objectPath, BusNames::interface, QStringLiteral("StateChanged"), this,
                  SLOT(onStateChanged(QDBusMessage)));
    m_bus.connect(QString(), BusNames::objectPath, BusNames::interface, QStringLiteral("Preempted"), this,
                  SLOT(onPreempted(QDBusMessage)));
}

RemoteMonitor::~RemoteMonitor()
{
    m_bus.disconnect(QString(), BusNames::objectPath, BusNames::interface, QStringLiteral("StateChanged"), this,
                     SLOT(onStateChanged(QDBusMessage)));
    m_bus.disconnect(QString(), BusNames::objectPath, BusNames::interface, QStringLiteral("Preempted"), this,
                     SLOT(onPreempted(QDBusMessage)));
}

QString RemoteMonitor::notRunningText()
{
    return tr("The idlegpu service is not running");
}

void RemoteMonitor::start()
{
    m_sinceOwnerChange.start();
    m_attaching = true;
    requestState();
}

QString RemoteMonitor::configPath() const
{
    return state().config.filePath;
}

void RemoteMonitor::requestState()
{
    if (m_inFlight) {
        m_dirty = true;
        return;
    }
    m_inFlight = true;
    m_dirty = false;
    const quint64 request = ++m_requests;
    auto *watcher = new QDBusPendingCallWatcher(m_bus.asyncCall(call(QStringLiteral("GetState")),
                                                                BusNames::callTimeoutMs),
                                                this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this, request](QDBusPendingCallWatcher *w) { onStateReply(w, request); });
}

void RemoteMonitor::onStateReply(QDBusPendingCallWatcher *watcher, quint64 request)
{
    watcher->deleteLater();
    if (request == m_requests)
        m_inFlight = false;
    const QDBusPendingReply<qulonglong, QString> reply = *watcher;
    if (reply.isError()) {
        const QDBusError error = reply.error();
        if (error.type() == QDBusError::ServiceUnknown || error.name() == QLatin1String("org.freedesktop.DBus.Error.NameHasNoOwner"))
            goAway();
        else
            qCWarning(lcMonitor, "the idlegpu service's state: %s", qPrintable(reasonFor(error)));
    } else if (request <= m_appliedRequest
               || (reply.argumentAt<0>() < m_lastGeneration && watcher->reply().service() == m_owner)) {
        ++m_staleDropped;
    } else {
        QJsonParseError parseError{};
        const QJsonDocument document = QJsonDocument::fromJson(reply.argumentAt<1>().toUtf8(), &parseError);
        if (!document.isObject()) {
            qCWarning(lcMonitor, "the idlegpu service sent a state that is no JSON object: %s",
                      qPrintable(parseError.errorString()));
        } else {
            m_appliedRequest = request;
            m_lastGeneration = reply.argumentAt<0>();
            m_owner = watcher->reply().service();
            MonitorState state = StateJson::fromJson(document.object(), SystemClock::instance()->nowMs(),
                                                     QDateTime::currentDateTimeUtc());
            receiveState(state);
            setAvailable(true);
            if (m_attaching) {
                m_attaching = false;
                m_lastAttachMs = m_sinceOwnerChange.elapsed();
                qCInfo(lcMonitor, "showing the idlegpu service (%s), %lld ms after it appeared", qPrintable(m_owner),
                       m_lastAttachMs);
                Q_EMIT attached(m_lastAttachMs);
            }
        }
    }
    if (m_dirty && !m_inFlight)
        requestState();
}

void RemoteMonitor::onStateChanged(const QDBusMessage &message)
{
    if (message.service() != m_owner || m_owner.isEmpty() || message.signature() != QLatin1String("t"))
        return; // not from the service (anyone may send a signal with its path), or before it answered
    const qulonglong generation = message.arguments().constFirst().toULongLong();
    if (generation != 0 && generation <= m_lastGeneration && isAvailable())
        return; // a state that was applied already
    requestState();
}

void RemoteMonitor::onOwnerChanged(const QString &, const QString &, const QString &newOwner)
{
    m_lastGeneration = 0; // a new owner counts afresh
    m_owner = newOwner;
    if (newOwner.isEmpty()) {
        goAway();
        return;
    }
    qCInfo(lcMonitor, "the idlegpu service is back (%s)", qPrintable(newOwner));
    m_sinceOwnerChange.start();
    m_attaching = true;
    m_inFlight = false; // a call to the old owner may still be out: its reply is older than this one's
    requestState();
}

void RemoteMonitor::goAway()
{
    if (isAvailable())
        qCWarning(lcMonitor, "the idlegpu service is not running");
    setAvailable(false, notRunningText());
}

void RemoteMonitor::setPausedAll(bool paused)
{
    if (paused)
        act(Request::PauseAll, QStringLiteral("Pause"), {QString(), qulonglong(0)});
    else
        act(Request::ResumeAll, QStringLiteral("Resume"), {QString()});
}

void RemoteMonitor::pauseAllFor(qint64 durationMs)
{
    act(Request::PauseAllFor, QStringLiteral("Pause"), {QString(), pauseSeconds(durationMs)});
}

void RemoteMonitor::setWorkloadPaused(const QString &id, bool paused)
{
    if (paused)
        act(Request::PauseWorkload, QStringLiteral("Pause"), {id, qulonglong(0)});
    else
        act(Request::ResumeWorkload, QStringLiteral("Resume"), {id});
}

void RemoteMonitor::pauseWorkloadFor(const QString &id, qint64 durationMs)
{
    act(Request::PauseWorkloadFor, QStringLiteral("Pause"), {id, pauseSeconds(durationMs)});
}

void RemoteMonitor::act(Request request, const QString &method, const QVariantList &arguments)
{
    if (!isAvailable()) {
        Q_EMIT requestRefused(request, unavailableReason());
        return;
    }
    QDBusMessage message = call(method);
    message.setArguments(arguments);
    // The desktop's polkit agent may ask the user for a password: allowed, and waited for as long as that takes.
    message.setInteractiveAuthorizationAllowed(true);
    auto *watcher = new QDBusPendingCallWatcher(m_bus.asyncCall(message, BusNames::interactiveCallTimeoutMs), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this, request](QDBusPendingCallWatcher *w) {
        w->deleteLater();
        if (w->isError()) {
            const QString reason = reasonFor(w->error());
            qCWarning(lcMonitor, "the idlegpu service refused a request: %s (%s)", qPrintable(reason),
                      qPrintable(w->error().name()));
            Q_EMIT requestRefused(request, reason);
        }
        // Done: the StateChanged that follows brings the new state.
    });
}

void RemoteMonitor::loadConfig()
{
    if (!isAvailable()) {
        Q_EMIT requestRefused(Request::LoadConfig, unavailableReason());
        return;
    }
    QDBusMessage message = call(QStringLiteral("GetConfig"));
    message.setInteractiveAuthorizationAllowed(true);
    auto *watcher = new QDBusPendingCallWatcher(m_bus.asyncCall(message, BusNames::interactiveCallTimeoutMs), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this](QDBusPendingCallWatcher *w) {
        w->deleteLater();
        const QDBusPendingReply<QString, QByteArray, QString> reply = *w;
        if (reply.isError()) {
            Q_EMIT requestRefused(Request::LoadConfig, reasonFor(reply.error()));
            return;
        }
        m_configEtag = reply.argumentAt<2>();
        Q_EMIT configLoaded(reply.argumentAt<0>(), reply.argumentAt<1>());
    });
}

void RemoteMonitor::saveConfig(const QByteArray &contents)
{
    if (!isAvailable()) {
        Q_EMIT configSaveFinished(SaveResult::Refused, unavailableReason());
        return;
    }
    QDBusMessage message = call(QStringLiteral("SetConfig"));
    message << contents << m_configEtag;
    message.setInteractiveAuthorizationAllowed(true);
    auto *watcher = new QDBusPendingCallWatcher(m_bus.asyncCall(message, BusNames::interactiveCallTimeoutMs), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this, contents](QDBusPendingCallWatcher *w) {
        w->deleteLater();
        if (!w->isError()) {
            // The file is these bytes now: the next save goes on from them.
            m_configEtag = QString::fromLatin1(QCryptographicHash::hash(contents, QCryptographicHash::Sha256).toHex());
            Q_EMIT configSaveFinished(SaveResult::Saved, QString());
            return;
        }
        const QDBusError error = w->error();
        if (error.name() == BusNames::Error::conflict)
            Q_EMIT configSaveFinished(SaveResult::Conflict, error.message());
        else if (error.name() == BusNames::Error::invalidConfig)
            Q_EMIT configSaveFinished(SaveResult::Invalid, error.message());
        else
            Q_EMIT configSaveFinished(SaveResult::Refused, reasonFor(error));
    });
}

void RemoteMonitor::onPreempted(const QDBusMessage &message)
{
    const QVariantList args = message.arguments();
    if (message.service() != m_owner || m_owner.isEmpty() || message.signature() != QLatin1String("usa{sv}d")
        || args.size() != 4)
        return;
    QVariantMap holder;
    args.at(2).value<QDBusArgument>() >> holder;
    const quint64 eventId = holder.value(QStringLiteral("event")).toULongLong();
    if (m_deliveredEvents.contains(eventId) && eventId != 0)
        return;

    PreemptionEvent event;
    event.gpu = int(args.at(0).toUInt());
    event.workloadId = args.at(1).toString();
    if (const WorkloadConfig *workload = state().config.workload(event.workloadId))
        event.workloadName = workload->name;
    const double ms = args.at(3).toDouble();
    if (ms >= 0)
        event.openToStopMs = ms;
    event.culprit.gpus = {event.gpu};
    const bool named = holder.contains(QStringLiteral("uid"));
    if (holder.contains(QStringLiteral("pid")))
        event.culprit.pid = holder.value(QStringLiteral("pid")).toLongLong();
    if (named)
        event.culprit.uid = holder.value(QStringLiteral("uid")).toUInt();
    event.culprit.user = holder.value(QStringLiteral("user")).toString();
    event.culprit.comm = holder.value(QStringLiteral("comm")).toString();
    // What every user may see left the holder out: a process of another user, as a hidden holder says it.
    event.culprit.hidden = !named && event.culprit.pid == 0;

    PendingPreemption &pending = m_preemptions[eventId];
    if (!pending.complete) {
        pending.event = event;
        pending.complete = named;
    }
    if (named || eventId == 0)
        deliverPreemption(eventId);
    else
        QTimer::singleShot(kPreemptionWaitMs, this, [this, eventId] { deliverPreemption(eventId); });
}

void RemoteMonitor::deliverPreemption(quint64 eventId)
{
    const auto pending = m_preemptions.constFind(eventId);
    if (pending == m_preemptions.cend())
        return; // told already
    const PreemptionEvent event = pending->event;
    m_preemptions.erase(pending);
    if (eventId != 0) {
        m_deliveredEvents.append(eventId);
        while (m_deliveredEvents.size() > kDeliveredKept)
            m_deliveredEvents.removeFirst();
    }
    Q_EMIT preempted(event);
}
