// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The glue between the monitor's link and the tray's pieces: the states it sends go to the TrayController, the status
// window and the notifier; the controller's intents go to the link as requests (the pause too: the monitor keeps it).
// The monitor runs on the host's thread or in the idlegpu service: nothing here calls into it. Everything with logic
// lives in those pieces, which are tested without a Monitor.
#include "tray/autostart.h"
#include "base/clock.h"
#include "model/decision.h"
#include "tray/notifier.h"
#include "settings/settingsdialog.h"

#include <QObject>
#include <QPointer>

#include <memory>
#include <optional>

class DesktopIdlePoller;
class DesktopNotificationSink;
class LogOpener;
class MonitorLink;
class QSystemTrayIcon;
class QTimer;
class StatusWindow;
class TrayController;

class TrayApplication : public QObject
{
    Q_OBJECT
public:
    // Sends the saved pause to a monitor of this process at once (call before MonitorHost::start()). `logFilePath` is
    // what "Open log" opens.
    TrayApplication(MonitorLink *monitor, const QString &logFilePath, const Clock *clock = SystemClock::instance(),
                    QObject *parent = nullptr);
    ~TrayApplication() override;

    // Shows another monitor from now on: the service that appeared after the tray's own monitor stopped for it.
    // `monitor` must outlive the tray or be set again.
    void setLink(MonitorLink *monitor);
    MonitorLink *link() const { return m_monitor; }

    TrayController *controller() const { return m_controller; }
    Notifier *notifier() const { return m_notifier; }
    DesktopNotificationSink *desktopNotifications() const { return m_desktopNotifications; }
    LogOpener *logOpener() const { return m_logOpener; }
    StatusWindow *statusWindow() const { return m_statusWindow.get(); }

    // Makes the icon on the first call (not before: see TrayHostWatcher) and shows it.
    void showTrayIcon();
    void showStatusWindow();
    // Shows the one settings dialog, created on first use and raised when already open.
    void showSettingsDialog();
    SettingsDialog *settingsDialog() const { return m_settingsDialog; }
    // Shows the monitor as failing and tells the user, when it refused its configuration at start.
    void reportConfigProblems();

private:
    void applyState();
    // Opens the settings dialog on the service's file, as the service sent it.
    void openServiceSettings(const QString &path, const QByteArray &contents);
    // Connects the tray's pieces to m_monitor; a monitor of this process gets the saved pause.
    void connectLink();
    // Shows whether the monitor answers (a service may be away).
    void applyAvailability();
    // Tells what a click did once the monitor's state shows it.
    void answerPauseClick();

    QPointer<MonitorLink> m_monitor;
    QString m_logFilePath;
    const Clock *m_clock;
    QSystemTrayIcon *m_trayIcon = nullptr; // made by showTrayIcon()
    TrayController *m_controller;
    TrayNotificationSink m_balloons;                 // where no notification server takes the messages
    DesktopNotificationSink *m_desktopNotifications; // the notification server, the balloons behind it
    Notifier *m_notifier;
    std::unique_ptr<StatusWindow> m_statusWindow; // a window of its own: no parent
    QPointer<SettingsDialog> m_settingsDialog;    // deletes itself when closed
    Autostart m_autostart;
    QTimer *m_tickTimer; // refreshes countdowns and run times once a second while they are shown
    // A refusal's line stays in the menu while the pause it was about is as it was, for kRefusalShownMs at most.
    static constexpr int kRefusalShownMs = 60'000;
    QTimer *m_refusalTimer;
    PauseState m_pauseAtRefusal;
    DesktopIdlePoller *m_desktopIdle; // asks the desktop while pause_while_active is on
    LogOpener *m_logOpener;
    // What the last click on the icon asked for (pause or resume all), until the state shows it or it is refused.
    std::optional<bool> m_clickedPause;
};
