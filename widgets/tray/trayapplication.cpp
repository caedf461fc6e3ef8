// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "tray/trayapplication.h"

#include "conditions/presence.h"
#include "model/monitorlink.h"
#include "settings/settingsdialog.h"
#include "status/statuswindow.h"
#include "tray/desktopidlepoller.h"
#include "tray/desktopnotificationsink.h"
#include "tray/logviewer.h"
#include "tray/traycontroller.h"
#include "tray/traylogging.h"

#include <QDateTime>
#include <QIcon>
#include <QSystemTrayIcon>
#include <QTimer>

#include <algorithm>

TrayApplication::TrayApplication(MonitorLink *monitor, const QString &logFilePath, const Clock *clock, QObject *parent)
    : QObject(parent), m_monitor(monitor), m_logFilePath(logFilePath), m_clock(clock),
      m_controller(new TrayController(nullptr, this)),
      m_desktopNotifications(new DesktopNotificationSink(&m_balloons, QDBusConnection::sessionBus(), this)),
      m_notifier(new Notifier(m_desktopNotifications, clock, this)), m_statusWindow(std::make_unique<StatusWindow>()),
      m_tickTimer(new QTimer(this)), m_refusalTimer(new QTimer(this)),
      m_desktopIdle(new DesktopIdlePoller(clock, this)), m_logOpener(new LogOpener(this))
{
    // Only where the theme has the icon (installed in hicolor): else the name draws a broken image, and the picture
    // sent as image-data is the icon.
    if (!QIcon::hasThemeIcon(QLatin1String(DesktopNotificationSink::kAppIcon)))
        m_desktopNotifications->setAppIconName(QString());
    connect(m_desktopNotifications, &DesktopNotificationSink::showStatusRequested, this,
            &TrayApplication::showStatusWindow);
    connect(m_desktopNotifications, &DesktopNotificationSink::pauseAllForRequested, this,
            [this](qint64 ms) { m_monitor->pauseAllFor(ms); });
    m_refusalTimer->setSingleShot(true);
    m_refusalTimer->setInterval(kRefusalShownMs);
    connect(m_refusalTimer, &QTimer::timeout, this, [this] { m_controller->setRefusal(QString()); });
    m_controller->setAutostartEnabled(m_autostart.isEnabled());
    connectLink();

    connect(m_controller, &TrayController::pauseAllRequested, this, [this](bool paused) {
        m_monitor->setPausedAll(paused);
    });
    connect(m_controller, &TrayController::pauseAllClicked, this, [this](bool paused) { m_clickedPause = paused; });
    connect(m_controller, &TrayController::pauseForRequested, this, [this](qint64 ms) {
        m_monitor->pauseAllFor(ms);
    });
    connect(m_controller, &TrayController::workloadPauseRequested, this, [this](const QString &id, bool paused) {
        m_monitor->setWorkloadPaused(id, paused);
    });
    connect(m_controller, &TrayController::workloadPauseForRequested, this,
            [this](const QString &id, qint64 ms) { m_monitor->pauseWorkloadFor(id, ms); });
    connect(m_controller, &TrayController::openStatusRequested, this, &TrayApplication::showStatusWindow);
    connect(m_controller, &TrayController::openSettingsRequested, this, &TrayApplication::showSettingsDialog);
    connect(m_controller, &TrayController::setUpRequested, this, [this] {
        showSettingsDialog();
        m_settingsDialog->showWelcomePage();
    });
    connect(m_controller, &TrayController::openLogRequested, this, [this] { m_logOpener->open(m_logFilePath); });
    // The status window asks what the menu asks, and is answered the same way.
    StatusWindow *status = m_statusWindow.get();
    connect(status, &StatusWindow::pauseAllRequested, m_controller, &TrayController::pauseAllRequested);
    connect(status, &StatusWindow::pauseForRequested, m_controller, &TrayController::pauseForRequested);
    connect(status, &StatusWindow::workloadPauseRequested, m_controller, &TrayController::workloadPauseRequested);
    connect(status, &StatusWindow::workloadPauseForRequested, m_controller, &TrayController::workloadPauseForRequested);
    connect(status, &StatusWindow::openSettingsRequested, m_controller, &TrayController::openSettingsRequested);
    connect(status, &StatusWindow::setUpRequested, m_controller, &TrayController::setUpRequested);
    connect(status, &StatusWindow::openLogRequested, m_controller, &TrayController::openLogRequested);
    connect(m_controller, &TrayController::autostartToggled, this, [this](bool enabled) {
        if (!m_autostart.setEnabled(enabled))
            qCWarning(lcTray, "start at login: %s", qPrintable(m_autostart.errorString()));
        m_controller->setAutostartEnabled(m_autostart.isEnabled());
    });

    m_tickTimer->setInterval(1000);
    connect(m_tickTimer, &QTimer::timeout, this, &TrayApplication::applyState);
    applyAvailability();
    applyState();
}

void TrayApplication::setLink(MonitorLink *monitor)
{
    if (monitor == m_monitor)
        return;
    if (m_monitor) {
        disconnect(m_monitor, nullptr, this, nullptr);
        disconnect(m_monitor, nullptr, m_notifier, nullptr);
        disconnect(m_statusWindow.get(), nullptr, m_monitor, nullptr);
        disconnect(m_desktopIdle, nullptr, m_monitor, nullptr);
        if (m_settingsDialog)
            disconnect(m_settingsDialog, nullptr, m_monitor, nullptr);
    }
    // The dialog edits the file of the monitor it was opened for.
    if (m_settingsDialog)
        m_settingsDialog->close();
    m_monitor = monitor;
    m_controller->setRefusal(QString());
    connectLink();
    m_monitor->setGpuSamplingWanted(m_statusWindow->isVisible());
    applyAvailability();
    applyState();
}

void TrayApplication::connectLink()
{
    m_controller->setSettingsAvailable(true);

    // A service sends a state after every scan, whatever changed: the refusal's line goes when the pause changes (the
    // person tried again, or someone else paused), or after a while, not with the next scan.
    connect(m_monitor, &MonitorLink::stateChanged, this, [this] {
        if (m_monitor->state().pause != m_pauseAtRefusal)
            m_controller->setRefusal(QString());
        applyState();
        answerPauseClick();
    });
    connect(m_monitor, &MonitorLink::requestRefused, this, [this](MonitorLink::Request request, const QString &reason) {
        const QString line = TrayController::refusalText(request, reason);
        qCWarning(lcTray, "%s", qPrintable(line));
        m_controller->setRefusal(line);
        m_pauseAtRefusal = m_monitor->state().pause;
        m_refusalTimer->start();
        m_clickedPause.reset(); // the refusal says what happened
        m_notifier->notifyRefused(line);
    });
    connect(m_monitor, &MonitorLink::availabilityChanged, this, &TrayApplication::applyAvailability);
    connect(m_monitor, &MonitorLink::preempted, m_notifier, &Notifier::notifyPreemption);
    connect(m_monitor, &MonitorLink::workloadFailed, this, [this](const QString &id, const WorkloadRuntime &runtime) {
        const WorkloadConfig *workload = m_monitor->state().config.workload(id);
        m_notifier->notifyWorkloadFailed(workload ? workload->name : id, runtime);
    });
    connect(m_monitor, &MonitorLink::configRejected, m_notifier, &Notifier::notifyConfigRejected);
    connect(m_monitor, &MonitorLink::configLoaded, this, &TrayApplication::openServiceSettings);
    connect(m_monitor, &MonitorLink::configSaveFinished, this,
            [this](MonitorLink::SaveResult result, const QString &message) {
                if (m_settingsDialog)
                    m_settingsDialog->serviceSaveFinished(result, message);
            });
    connect(m_statusWindow.get(), &StatusWindow::visibilityChanged, m_monitor, &MonitorLink::setGpuSamplingWanted);
    connect(m_desktopIdle, &DesktopIdlePoller::reported, m_monitor, &MonitorLink::setDesktopIdle);
}

TrayApplication::~TrayApplication()
{
    delete m_settingsDialog;
}

void TrayApplication::showTrayIcon()
{
    if (!m_trayIcon) {
        // Here Qt chooses, once for the whole process, between a StatusNotifierItem and XEmbed: only when
        // TrayHostWatcher says the tray that should be chosen is there.
        m_trayIcon = new QSystemTrayIcon(this);
        m_controller->setTrayIcon(m_trayIcon);
        m_balloons.setTrayIcon(m_trayIcon);
    }
    m_trayIcon->show();
}

void TrayApplication::showStatusWindow()
{
    m_statusWindow->show();
    m_statusWindow->raise();
    m_statusWindow->activateWindow();
    applyState(); // starts the ticking
}

void TrayApplication::showSettingsDialog()
{
    if (!m_settingsDialog && !m_monitor->isLocal()) {
        // The service's file: loaded through it first (polkit may ask for a password), openServiceSettings() then.
        m_monitor->loadConfig();
        return;
    }
    if (!m_settingsDialog) {
        m_settingsDialog = new SettingsDialog(m_monitor->configPath());
        m_settingsDialog->setAttribute(Qt::WA_DeleteOnClose);
        m_settingsDialog->setMonitorState(m_monitor->state());
        // The monitor's own file watcher would notice too, a moment later; reloading now shows the result at once.
        connect(m_settingsDialog, &SettingsDialog::configSaved, m_monitor, &MonitorLink::reloadConfig);
        // The first start's "Save and start": the dialog says what happens next, the status window shows it happen.
        connect(m_settingsDialog, &SettingsDialog::firstStartSaved, this, &TrayApplication::showStatusWindow);
        connect(m_settingsDialog, &QDialog::finished, this, [this] {
            // "Start at login" may have changed in the dialog.
            m_controller->setAutostartEnabled(m_autostart.isEnabled());
        });
    }
    m_settingsDialog->show();
    m_settingsDialog->raise();
    m_settingsDialog->activateWindow();
}

void TrayApplication::openServiceSettings(const QString &path, const QByteArray &contents)
{
    if (m_settingsDialog) {
        m_settingsDialog->raise();
        return;
    }
    m_settingsDialog = new SettingsDialog(path, contents);
    m_settingsDialog->setAttribute(Qt::WA_DeleteOnClose);
    m_settingsDialog->setMonitorState(m_monitor->state());
    connect(m_settingsDialog, &SettingsDialog::serviceSaveRequested, m_monitor, &MonitorLink::saveConfig);
    connect(m_settingsDialog, &QDialog::finished, this,
            [this] { m_controller->setAutostartEnabled(m_autostart.isEnabled()); });
    m_settingsDialog->show();
    m_settingsDialog->raise();
    m_settingsDialog->activateWindow();
}

void TrayApplication::reportConfigProblems()
{
    applyState();
    m_notifier->notifyConfigRejected(m_monitor->state().configProblems);
}

void TrayApplication::answerPauseClick()
{
    if (!m_clickedPause || m_monitor->state().pause.allPausedAt(m_clock->nowMs()) != *m_clickedPause)
        return;
    m_notifier->notifyPauseClicked(*m_clickedPause);
    m_clickedPause.reset();
}

void TrayApplication::applyAvailability()
{
    m_controller->setAvailable(m_monitor->isAvailable(), m_monitor->unavailableReason());
    m_statusWindow->setUnavailable(m_controller->unavailableText());
}

void TrayApplication::applyState()
{
    const MonitorState &state = m_monitor->state();
    m_notifier->setSettings({state.config.notify.preemption, state.config.notify.failure,
                             state.config.notify.configError});
    const qint64 nowMs = m_clock->nowMs();
    const QDateTime wallNow = QDateTime::currentDateTime();
    m_controller->applyState(state, nowMs, wallNow);
    m_desktopIdle->setEnabled(state.config.activity.pauseWhileActive);
    if (m_monitor->isAvailable()) // away, its last state must not count on in the window's history
        m_statusWindow->applyState(state, nowMs, wallNow);
    if (m_settingsDialog)
        m_settingsDialog->setMonitorState(state);

    // Tick every second while something on screen counts: a countdown, or the status window's clocks and graphs.
    const bool counting = m_statusWindow->isVisible()
                          || std::any_of(state.decision.gpus.cbegin(), state.decision.gpus.cend(),
                                         [](const GpuStatus &gpu) { return gpu.state == GpuState::Waiting; });
    if (counting && !m_tickTimer->isActive())
        m_tickTimer->start();
    else if (!counting)
        m_tickTimer->stop();
}


// Its moc output compiled here rather than in the library's shared mocs_compilation object.
#include "moc_trayapplication.cpp"
