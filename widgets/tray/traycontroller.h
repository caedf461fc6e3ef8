// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The controller that applies a MonitorState to the tray icon: its picture, tooltip and menu. It knows nothing of the
// Monitor: what the user asks for goes out as signals (intents) that TrayApplication forwards.
#include "model/monitorlink.h"
#include "model/monitorstate.h"
#include "tray/overallstate.h"

#include <QDateTime>
#include <QObject>
#include <QPointer>
#include <QSystemTrayIcon>
#include <QVariant>

#include <memory>

class QAction;
class QMenu;

class TrayController : public QObject
{
    Q_OBJECT
public:
    static constexpr qint64 kPauseForMs = 3'600'000; // "Pause for 1 hour", of all or of one workload

    // Drives `trayIcon` (not owned; may come later, see setTrayIcon) and owns the context menu it sets on it.
    explicit TrayController(QSystemTrayIcon *trayIcon, QObject *parent = nullptr);
    ~TrayController() override;

    // Sets the icon, made once a tray is there (TrayHostWatcher); it gets the menu, the picture and the tooltip of the
    // state applied so far.
    void setTrayIcon(QSystemTrayIcon *trayIcon);

    // Applies a state. `nowMs` is the monitor's clock (monotonic) and `wallNow` the same moment on the wall clock: the
    // tray says "since 14:02", and the state counts in monotonic ms.
    void applyState(const MonitorState &state, qint64 nowMs, const QDateTime &wallNow);

    // Says whether the monitor answers (a service may be away): while it does not, the icon is grey, the tooltip and the
    // menu's first line say `why`, and the pause items are disabled. The last state stays behind them.
    void setAvailable(bool available, const QString &why);
    // Shows a refused request as a disabled line at the top of the menu ("Pause refused: not authorized"); empty
    // clears it (TrayApplication does at the next state from the monitor).
    void setRefusal(const QString &line);
    bool isAvailable() const { return m_available; }
    QString unavailableText() const { return m_unavailableText; } // empty while available
    QString refusal() const { return m_refusal; }
    // Returns the refusal's line for the menu and the notification.
    static QString refusalText(MonitorLink::Request request, const QString &reason);

    void setDemoMode(bool demo);               // adds "Simulate a job on GPU N"
    void setAutostartEnabled(bool enabled);    // the "Start at login" check box
    void setSettingsAvailable(bool available); // enables "Settings…" once the dialog exists

    QMenu *menu() const { return m_menu.get(); }
    OverallState overallState() const { return m_overall; }
    QString toolTip() const { return m_toolTip; }
    int menuRebuildCount() const { return m_menuRebuilds; } // the menu is rebuilt only when its content changes

    // Returns the last lines a failing workload printed, for a tooltip; empty when it printed none.
    static QString lastOutputText(const WorkloadRuntime &runtime);
    static constexpr int kOutputLinesShown = 5;

    // Returns the tooltip: the overall state, then problems, then one line per GPU.
    static QString toolTipText(const MonitorState &state, qint64 nowMs, const QDateTime &wallNow);

Q_SIGNALS:
    void setUpRequested(); // not set up yet: "Set up…" or a left click
    void pauseAllRequested(bool paused);
    // A click on the icon asked to pause or resume everything (after pauseAllRequested): the tray says what it did.
    void pauseAllClicked(bool paused);
    void pauseForRequested(qint64 ms);
    void workloadPauseRequested(const QString &id, bool paused);
    void workloadPauseForRequested(const QString &id, qint64 ms); // "Pause NAME for 1 hour"
    void openStatusRequested();
    void openSettingsRequested();
    void openLogRequested();
    void autostartToggled(bool enabled);
    void quitRequested();
    void simulateJobRequested(int gpu);

private:
    // One line of the menu, as a value: two menus are the same when their item lists are equal.
    struct MenuItem
    {
        enum Kind { Section, Info, Action, Separator };
        Kind kind = Action;
        QString id; // the action's objectName: what it does
        QString text;
        QVariant data; // the workload id or GPU index it concerns
        bool checkable = false;
        bool checked = false;
        bool enabled = true;
        QString toolTip;

        bool operator==(const MenuItem &o) const
        {
            return kind == o.kind && id == o.id && text == o.text && data == o.data && checkable == o.checkable
                   && checked == o.checked && enabled == o.enabled && toolTip == o.toolTip;
        }
    };

    QList<MenuItem> menuItems() const;
    void updateMenu();
    void updateIconAndToolTip();
    void onActionTriggered(QAction *action);
    void onActivated(QSystemTrayIcon::ActivationReason reason);

    QPointer<QSystemTrayIcon> m_trayIcon;
    std::unique_ptr<QMenu> m_menu; // a context menu has no parent: QSystemTrayIcon does not take it
    MonitorState m_state;
    qint64 m_nowMs = 0;
    QDateTime m_wallNow;
    bool m_hasState = false;
    OverallState m_overall = OverallState::Idle;
    bool m_iconSet = false;
    QString m_toolTip;
    bool m_demo = false;
    bool m_autostart = false;
    bool m_settingsAvailable = false;
    bool m_available = true;
    QString m_unavailableText;
    QString m_refusal;
    QList<MenuItem> m_shownItems;
    bool m_shownExported = false; // m_shownItems as the D-Bus menu wants them
    int m_menuRebuilds = 0;
};
