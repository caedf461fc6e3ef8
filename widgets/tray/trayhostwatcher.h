// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The watcher that tells when the tray icon may be created, following the desktop's trays over D-Bus and X11 without
// any QSystemTrayIcon call. Qt 6.4 chooses between a StatusNotifierItem and an XEmbed icon once per process, at the
// first QSystemTrayIcon, so an icon made before the panel is up would be XEmbed for good; trayhostwatcher.cpp says how
// it decides.
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

    // The trays that are there, as last heard.
    struct Trays
    {
        bool watcher = false; // org.kde.StatusNotifierWatcher has an owner
        bool host = false;    // and it says IsStatusNotifierHostRegistered
        bool xembed = false;  // _NET_SYSTEM_TRAY_S<screen> has an owner
    };

    // Returns the step for `trays`. `xembedAloneMs` is how long an XEmbed tray has been there without a watcher (-1: it
    // is not); `waitedMs` the time since start().
    static Step decide(const Trays &trays, bool xcb, qint64 xembedAloneMs, qint64 waitedMs, int graceMs = kGraceMs,
                       int trayWaitMs = kTrayWaitMs);

    // A probe that tells whether an XEmbed tray is there now.
    using XEmbedProbe = std::function<bool()>;
    // Returns the probe that asks Qt's X display (Xlib, loaded at run time); null off xcb, where no XEmbed tray can
    // show the icon.
    static XEmbedProbe x11XEmbedProbe();

    // `bus` is the session bus (a private one in tests); `xembedTray` is null where there is no XEmbed tray to wait
    // for.
    TrayHostWatcher(const QDBusConnection &bus, XEmbedProbe xembedTray, const Clock *clock = SystemClock::instance(),
                    QObject *parent = nullptr);
    ~TrayHostWatcher() override;

    void start();
    Step step() const { return m_step; }
    Trays trays() const { return m_trays; }
    // The setters with which tests shorten the waits.
    void setGraceMs(int ms) { m_graceMs = ms; }
    void setTrayWaitMs(int ms) { m_trayWaitMs = ms; }

Q_SIGNALS:
    // Emitted once, when the icon may be created; `tray` is StatusNotifierItem or XEmbed.
    void trayReady(TrayHostWatcher::Step tray);
    // Emitted once, kTrayWaitMs after start() without a tray; the waiting goes on.
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
