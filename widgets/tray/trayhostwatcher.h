// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The watcher that tells when the tray icon may be created. Qt 6.4 chooses between a StatusNotifierItem and an XEmbed
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
#include "base/clock.h"

#include <QDBusConnection>
#include <QObject>

#include <functional>

class QDBusMessage;
class QDBusServiceWatcher;
class QTimer;

class TrayHostWatcher : public QObject
{
    Q_OBJECT
public:
    static constexpr int kGraceMs = 3000;
    static constexpr int kTrayWaitMs = 120'000;
    static constexpr int kXEmbedPollMs = 250;
    static constexpr int kCallTimeoutMs = 5000;
    static constexpr int kAskAgainMs = 1000; // after a watcher's error other than a timeout
    static constexpr const char *kWatcherService = "org.kde.StatusNotifierWatcher";
    static constexpr const char *kWatcherPath = "/StatusNotifierWatcher";

    enum class Step {
        WaitForAnyTray,        // xcb: no watcher, no XEmbed tray
        WaitForStatusNotifier, // not xcb: no watcher
        WaitForHost,           // a watcher without a host
        WaitForWatcher,        // an XEmbed tray and no watcher: the grace
        StatusNotifierItem,    // create the icon: Qt takes the StatusNotifierItem
        XEmbed,                // create the icon: Qt takes the XEmbed tray
    };
    Q_ENUM(Step)

    // What is there, as last heard.
    struct Trays
    {
        bool watcher = false; // org.kde.StatusNotifierWatcher has an owner
        bool host = false;    // and it says IsStatusNotifierHostRegistered
        bool xembed = false;  // _NET_SYSTEM_TRAY_S<screen> has an owner
    };

    // The step for `trays`. `xembedAloneMs`: how long an XEmbed tray has been there without a watcher (-1: it is not);
    // `waitedMs`: since start().
    static Step decide(const Trays &trays, bool xcb, qint64 xembedAloneMs, qint64 waitedMs, int graceMs = kGraceMs,
                       int trayWaitMs = kTrayWaitMs);

    // Whether an XEmbed tray is there now.
    using XEmbedProbe = std::function<bool()>;
    // Asks Qt's X display (Xlib, loaded at run time); null off xcb, where no XEmbed tray can show the icon.
    static XEmbedProbe x11XEmbedProbe();

    // `bus`: the session bus (a private one in tests). `xembedTray`: null where there is no XEmbed tray to wait for.
    TrayHostWatcher(const QDBusConnection &bus, XEmbedProbe xembedTray, const Clock *clock = SystemClock::instance(),
                    QObject *parent = nullptr);
    ~TrayHostWatcher() override;

    void start();
    Step step() const { return m_step; }
    Trays trays() const { return m_trays; }
    // Tests shorten the waits.
    void setGraceMs(int ms) { m_graceMs = ms; }
    void setTrayWaitMs(int ms) { m_trayWaitMs = ms; }

Q_SIGNALS:
    // Once: create the icon now; `tray` is StatusNotifierItem or XEmbed.
    void trayReady(TrayHostWatcher::Step tray);
    // Once, kTrayWaitMs after start() without a tray; waiting goes on.
    void trayLate();

private Q_SLOTS:
    void hostRegistered(const QDBusMessage &signal);
    void readHost();

private:
    void setWatcherOwned(bool owned);
    void askHostAgain(const QString &error);
    void reconsider();
    bool decided() const { return m_step == Step::StatusNotifierItem || m_step == Step::XEmbed; }

    QDBusConnection m_bus;
    XEmbedProbe m_xembedTray;
    const Clock *m_clock;
    QDBusServiceWatcher *m_serviceWatcher;
    QTimer *m_xembedPoll;
    QTimer *m_deadline; // the end of the grace or of kTrayWaitMs, whichever comes first
    Trays m_trays;
    Step m_step = Step::WaitForAnyTray;
    bool m_stepTaken = false; // m_step is more than its initial value: the first step is logged too
    bool m_late = false;
    QString m_watcherOwner;       // the watcher's unique name: whose StatusNotifierHostRegistered is believed
    bool m_ownerHeard = false;    // the service watcher spoke: the answer to the first GetNameOwner is older
    bool m_lateSniLogged = false; // a watcher with a host after the XEmbed choice: said once
    int m_pendingCalls = 0;       // no step is taken on a half-known picture (the log would say "waiting" needlessly)
    quint64 m_hostGeneration = 0; // answers to an older Get are dropped
    qint64 m_startMs = 0;
    qint64 m_xembedAloneSinceMs = -1;
    int m_graceMs = kGraceMs;
    int m_trayWaitMs = kTrayWaitMs;
};
