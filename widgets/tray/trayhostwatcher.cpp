// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "tray/trayhostwatcher.h"

// How the watcher decides. Qt 6.4 chooses between a StatusNotifierItem and an XEmbed
// icon once per process, at the first QSystemTrayIcon (or isSystemTrayAvailable(), supportsMessages()), and keeps that
// choice: a StatusNotifierItem only if org.kde.StatusNotifierWatcher already says IsStatusNotifierHostRegistered.
// Started at login before the panel, idlegpu would get XEmbed for good: no icon on Wayland, none on Plasma without
// xembedsniproxy. So this follows the trays itself, without any QSystemTrayIcon call, and says when to create the icon:
//   - the watcher has a host: now (a StatusNotifierItem);
//   - a watcher without a host (Plasma: kded5 owns it seconds before plasmashell registers its host): wait for it;
//   - no watcher but an XEmbed tray (an owner of _NET_SYSTEM_TRAY_S<screen>, xcb only): wait kGraceMs for a watcher
//     (GNOME on X11 and XFCE take the XEmbed selection 0.1-0.5 s before their watcher), then XEmbed;
//   - neither: wait for either. Not on xcb (Wayland) there is only the StatusNotifierItem: wait for it.
// After kTrayWaitMs without a tray it says so once (the status window shows instead) and keeps waiting; a watcher
// whose host never came then gives way to an XEmbed tray, if there is one.
// Qt 6.5 and later ask afresh for each icon; waiting for the host does no harm there.
//
// Nothing blocks: a QDBusServiceWatcher follows the watcher's owner, the host is read with an asynchronous
// Properties.Get at start, when the owner changes and on StatusNotifierHostUnregistered; the owner's own
// StatusNotifierHostRegistered is believed without a Get (one round trip less to a busy shell); the
// XEmbed selection is asked every kXEmbedPollMs while undecided (a round trip to the local X server).

#include "tray/traylogging.h"
#include "tray/x11display.h"

#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QDBusServiceWatcher>
#include <QDBusVariant>
#include <QTimer>

#include <dlfcn.h>

#include <algorithm>

namespace {

const QString kWatcherInterface = QStringLiteral("org.kde.StatusNotifierWatcher");

} // namespace

TrayHostWatcher::Step TrayHostWatcher::decide(const Trays &trays, bool xcb, qint64 xembedAloneMs, qint64 waitedMs,
                                              int graceMs, int trayWaitMs)
{
    if (trays.watcher && trays.host)
        return Step::StatusNotifierItem;
    if (!xcb)
        return trays.watcher ? Step::WaitForHost : Step::WaitForStatusNotifier;
    if (trays.watcher) // a host that has not come in all that time gives way to an XEmbed tray
        return trays.xembed && waitedMs >= trayWaitMs ? Step::XEmbed : Step::WaitForHost;
    if (!trays.xembed)
        return Step::WaitForAnyTray;
    return xembedAloneMs >= graceMs ? Step::XEmbed : Step::WaitForWatcher;
}

TrayHostWatcher::XEmbedProbe TrayHostWatcher::x11XEmbedProbe()
{
    void *display = x11Display();
    void *xlib = display ? loadedXlib() : nullptr;
    if (!xlib)
        return {};
    using InternAtom = unsigned long (*)(void *display, const char *name, int onlyIfExists);
    using GetSelectionOwner = unsigned long (*)(void *display, unsigned long selection);
    using DefaultScreen = int (*)(void *display);
    const auto internAtom = reinterpret_cast<InternAtom>(dlsym(xlib, "XInternAtom"));
    const auto getSelectionOwner = reinterpret_cast<GetSelectionOwner>(dlsym(xlib, "XGetSelectionOwner"));
    const auto defaultScreen = reinterpret_cast<DefaultScreen>(dlsym(xlib, "XDefaultScreen"));
    if (!internAtom || !getSelectionOwner || !defaultScreen)
        return {};
    // The selection of the screen Qt docks its XEmbed icon on, the default one. Each question is a round trip to the
    // local X server, as any X client makes them.
    const QByteArray selection = "_NET_SYSTEM_TRAY_S" + QByteArray::number(defaultScreen(display));
    const unsigned long atom = internAtom(display, selection.constData(), 0);
    return [display, getSelectionOwner, atom] { return getSelectionOwner(display, atom) != 0; };
}

TrayHostWatcher::TrayHostWatcher(const QDBusConnection &bus, XEmbedProbe xembedTray, const Clock *clock,
                                 QObject *parent)
    : QObject(parent),
      m_bus(bus),
      m_xembedTray(std::move(xembedTray)),
      m_clock(clock),
      m_serviceWatcher(new QDBusServiceWatcher(QLatin1String(kWatcherService), bus,
                                               QDBusServiceWatcher::WatchForOwnerChange, this)),
      m_xembedPoll(new QTimer(this)),
      m_deadline(new QTimer(this))
{
    m_xembedPoll->setInterval(kXEmbedPollMs);
    m_deadline->setSingleShot(true);
    connect(m_xembedPoll, &QTimer::timeout, this, &TrayHostWatcher::reconsider);
    connect(m_deadline, &QTimer::timeout, this, &TrayHostWatcher::reconsider);
    connect(m_serviceWatcher, &QDBusServiceWatcher::serviceOwnerChanged, this,
            [this](const QString &, const QString &, const QString &newOwner) {
                m_ownerHeard = true;
                m_watcherOwner = newOwner;
                setWatcherOwned(!newOwner.isEmpty()); // a new owner is asked for its host afresh
            });
}

TrayHostWatcher::~TrayHostWatcher() = default;

void TrayHostWatcher::start()
{
    m_startMs = m_clock->nowMs();
    // From any sender: naming the watcher's service would make QtDBus look up its owner with a blocking call.
    m_bus.connect(QString(), QLatin1String(kWatcherPath), kWatcherInterface,
                  QStringLiteral("StatusNotifierHostRegistered"), this, SLOT(hostRegistered(QDBusMessage)));
    m_bus.connect(QString(), QLatin1String(kWatcherPath), kWatcherInterface,
                  QStringLiteral("StatusNotifierHostUnregistered"), this, SLOT(readHost()));
    if (m_xembedTray)
        m_xembedPoll->start();
    if (!m_bus.isConnected()) { // no StatusNotifierWatcher can come: nothing to give a grace for
        qCInfo(lcTray, "no session bus: no StatusNotifierItem");
        m_graceMs = 0;
        reconsider();
        return;
    }

    QDBusMessage call = QDBusMessage::createMethodCall(QStringLiteral("org.freedesktop.DBus"),
                                                       QStringLiteral("/org/freedesktop/DBus"),
                                                       QStringLiteral("org.freedesktop.DBus"),
                                                       QStringLiteral("GetNameOwner"));
    call << QLatin1String(kWatcherService);
    ++m_pendingCalls;
    auto *pending = new QDBusPendingCallWatcher(m_bus.asyncCall(call, kCallTimeoutMs), this);
    connect(pending, &QDBusPendingCallWatcher::finished, this, [this, pending] {
        pending->deleteLater();
        --m_pendingCalls;
        const QDBusMessage reply = pending->reply();
        if (m_ownerHeard) {
            reconsider();
            return;
        }
        // An error (org.freedesktop.DBus.Error.NameHasNoOwner): no watcher yet.
        m_watcherOwner = reply.type() == QDBusMessage::ReplyMessage ? reply.arguments().value(0).toString() : QString();
        setWatcherOwned(!m_watcherOwner.isEmpty());
    });
}

void TrayHostWatcher::setWatcherOwned(bool owned)
{
    m_trays.watcher = owned;
    if (owned) {
        readHost();
        return;
    }
    ++m_hostGeneration; // an answer on its way is from the watcher that went
    m_trays.host = false;
    reconsider();
}

void TrayHostWatcher::hostRegistered(const QDBusMessage &signal)
{
    // The watcher's own word is enough: reading the property again would cost a round trip to a desktop shell that
    // answers slowly while it starts (0.4-0.6 s on GNOME), before Qt asks it once more itself. A signal from anyone
    // else is checked with a Get.
    if (m_watcherOwner.isEmpty() || signal.service() != m_watcherOwner) {
        readHost();
        return;
    }
    ++m_hostGeneration; // a Get on its way is older than this
    m_trays.host = true;
    reconsider();
}

void TrayHostWatcher::readHost()
{
    // Not activatable anywhere we know, but a Get must never start a desktop's service.
    QDBusMessage call = QDBusMessage::createMethodCall(QLatin1String(kWatcherService), QLatin1String(kWatcherPath),
                                                       QStringLiteral("org.freedesktop.DBus.Properties"),
                                                       QStringLiteral("Get"));
    call << kWatcherInterface << QStringLiteral("IsStatusNotifierHostRegistered");
    call.setAutoStartService(false);
    const quint64 generation = ++m_hostGeneration;
    ++m_pendingCalls;
    auto *pending = new QDBusPendingCallWatcher(m_bus.asyncCall(call, kCallTimeoutMs), this);
    connect(pending, &QDBusPendingCallWatcher::finished, this, [this, pending, generation] {
        pending->deleteLater();
        --m_pendingCalls;
        if (generation == m_hostGeneration) {
            const QDBusMessage reply = pending->reply();
            const bool answered = reply.type() == QDBusMessage::ReplyMessage;
            m_trays.host = answered && qvariant_cast<QDBusVariant>(reply.arguments().value(0)).variant().toBool();
            if (answered)
                m_trays.watcher = true; // it answered: there, even if its NameOwnerChanged is still on its way
            else if (m_trays.watcher)
                askHostAgain(reply.errorName());
        }
        reconsider();
    });
}

void TrayHostWatcher::askHostAgain(const QString &error)
{
    // Plasma's watcher (kded5) is owned at once but answers nothing while kded5 starts (10-20 s on 2 cores), and it
    // never sends StatusNotifierHostRegistered: without asking again the icon would wait for good. A call that timed
    // out has waited long enough; any other error waits a little, so a broken watcher is not asked in a loop.
    const int delayMs = error == QLatin1String("org.freedesktop.DBus.Error.NoReply") ? 0 : kAskAgainMs;
    QTimer::singleShot(delayMs, this, [this, generation = m_hostGeneration] {
        if (generation == m_hostGeneration && m_trays.watcher && !decided())
            readHost();
    });
}

void TrayHostWatcher::reconsider()
{
    if (m_step == Step::XEmbed && m_trays.watcher && m_trays.host && !m_lateSniLogged) {
        m_lateSniLogged = true;
        qCInfo(lcTray, "a StatusNotifierWatcher with a host appeared after the XEmbed icon was made; restart idlegpu "
                       "to show its icon there");
    }
    // A watcher with a host decides whatever is still on its way; anything less waits for the whole picture.
    if (decided() || (m_pendingCalls > 0 && !(m_trays.watcher && m_trays.host)))
        return;

    const qint64 nowMs = m_clock->nowMs();
    if (m_xembedTray) {
        const bool xembed = m_xembedTray();
        if (xembed != m_trays.xembed)
            qCDebug(lcTray, "XEmbed tray: %s", xembed ? "there" : "gone");
        m_trays.xembed = xembed;
    }
    const bool xembedAlone = m_trays.xembed && !m_trays.watcher;
    if (!xembedAlone)
        m_xembedAloneSinceMs = -1;
    else if (m_xembedAloneSinceMs < 0)
        m_xembedAloneSinceMs = nowMs;
    const qint64 waitedMs = nowMs - m_startMs;
    const Step step = decide(m_trays, bool(m_xembedTray), xembedAlone ? nowMs - m_xembedAloneSinceMs : -1, waitedMs,
                             m_graceMs, m_trayWaitMs);

    if (step != m_step || !m_stepTaken) {
        switch (step) {
        case Step::WaitForAnyTray:
            qCInfo(lcTray, "waiting for a system tray: no StatusNotifierWatcher, no XEmbed tray");
            break;
        case Step::WaitForStatusNotifier:
            qCInfo(lcTray, "waiting for a StatusNotifierWatcher, the only tray on this platform");
            break;
        case Step::WaitForHost:
            qCInfo(lcTray, "waiting for the StatusNotifierHost: the StatusNotifierWatcher has none yet");
            break;
        case Step::WaitForWatcher:
            qCInfo(lcTray, "an XEmbed tray is there; waiting up to %.1f s for a StatusNotifierWatcher",
                   m_graceMs / 1000.0);
            break;
        case Step::StatusNotifierItem:
            qCInfo(lcTray, "tray: StatusNotifierItem (the StatusNotifierWatcher has a host)");
            break;
        case Step::XEmbed:
            if (m_trays.watcher)
                qCInfo(lcTray, "tray: XEmbed (the StatusNotifierWatcher has had no host for %.1f s)",
                       m_trayWaitMs / 1000.0);
            else if (!m_bus.isConnected())
                qCInfo(lcTray, "tray: XEmbed (no session bus)");
            else
                qCInfo(lcTray, "tray: XEmbed (no StatusNotifierWatcher %.1f s after the XEmbed tray)",
                       m_graceMs / 1000.0);
            break;
        }
    }
    m_step = step;
    m_stepTaken = true;

    if (decided()) {
        m_xembedPoll->stop();
        m_deadline->stop();
        Q_EMIT trayReady(step);
        return;
    }
    if (!m_late && waitedMs >= m_trayWaitMs) {
        m_late = true;
        Q_EMIT trayLate();
    }
    qint64 untilMs = m_late ? -1 : m_trayWaitMs - waitedMs;
    if (xembedAlone) {
        const qint64 graceLeftMs = m_xembedAloneSinceMs + m_graceMs - nowMs;
        untilMs = untilMs < 0 ? graceLeftMs : std::min(untilMs, graceLeftMs);
    }
    if (untilMs >= 0)
        m_deadline->start(int(std::max<qint64>(untilMs, 0)));
}
