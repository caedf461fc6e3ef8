#pragma once
// Glue between a Monitor and the tray's pieces: state updates go to the TrayController, the status window and
// the notifier; the controller's intents go to the monitor (and the pause to the PauseStore). Everything with
// logic lives in those pieces, which are tested without a Monitor.
#include "tray/autostart.h"
#include "clock.h"
#include "tray/notifier.h"
#include "tray/pausestore.h"
#include "settings/settingsdialog.h"

#include <QObject>
#include <QPointer>

class Monitor;
class QSystemTrayIcon;
class QTimer;
class StatusWindow;
class TrayController;

class TrayApplication : public QObject
{
    Q_OBJECT
public:
    // Restores the saved pause into `monitor` at once (call before Monitor::start()). `logFilePath` is what
    // "Open log" opens.
    TrayApplication(Monitor *monitor, const QString &logFilePath, const Clock *clock = SystemClock::instance(),
                    QObject *parent = nullptr);
    ~TrayApplication() override;

    TrayController *controller() const { return m_controller; }
    StatusWindow *statusWindow() const { return m_statusWindow; }
    void setNotifySettings(const NotifySettings &settings) { m_notifier->setSettings(settings); }

    void showTrayIcon();
    void showStatusWindow();
    // The one settings dialog: created on first use, raised when already open.
    void showSettingsDialog();
    SettingsDialog *settingsDialog() const { return m_settingsDialog; }
    // The monitor refused its configuration at start: show it as failing, tell the user.
    void reportConfigProblems();

private:
    void applyState();
    void savePause();

    QPointer<Monitor> m_monitor;
    QString m_logFilePath;
    const Clock *m_clock;
    QSystemTrayIcon *m_trayIcon;
    TrayController *m_controller;
    TrayNotificationSink m_sink;
    Notifier *m_notifier;
    StatusWindow *m_statusWindow;
    QPointer<SettingsDialog> m_settingsDialog; // deletes itself when closed
    PauseStore m_pauseStore;
    Autostart m_autostart;
    QTimer *m_tickTimer; // refreshes countdowns and run times once a second while they are shown
};
