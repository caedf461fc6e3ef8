// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The source of the desktop notifications: a workload preempted, a workload failing again and again, a rejected
// configuration, a request the monitor refused, a pause by a click on the icon. They are coalesced per kind: the first
// message of a kind shows at once and opens a 10 s window; what else of that kind comes in the window is counted and
// shown as one summary ("3 more preemptions") when it ends. A body fits a banner (GNOME shows about two lines of ~50
// characters): what happened first, the details are in the status window.
#include "base/clock.h"
#include "model/monitorstate.h"

#include <QCoreApplication>
#include <QHash>
#include <QObject>
#include <QPointer>
#include <QSet>
#include <QSystemTrayIcon>

class QTimer;

// The kinds that the user wants ([defaults] notify, parsed by the config; all on by default).
struct NotifySettings
{
    bool preemption = true;
    bool failure = true;
    bool configError = true;
};

// The subject of a message: each kind has its own window, and a desktop notification replaces the last one of its
// kind.
// Pause answers a click on the icon: shown at once, never coalesced (a click and the click that undoes it both say so).
enum class NotificationKind { Preemption, Failure, ConfigError, Refusal, Pause };

// The place where messages go: the desktop's notification server or the tray icon's balloon, a recorder in tests.
class NotificationSink
{
public:
    virtual ~NotificationSink() = default;
    virtual void showMessage(NotificationKind kind, const QString &title, const QString &body,
                             QSystemTrayIcon::MessageIcon icon) = 0;
};

// The sink that shows messages in the icon's balloon, with the application's icon (not the Information/Warning one,
// which some desktops draw as a broken image). Until the icon is made (TrayHostWatcher) a message goes to the log
// only; so does a click's answer (NotificationKind::Pause), which a balloon over the icon would hide.
class TrayNotificationSink final : public NotificationSink
{
public:
    explicit TrayNotificationSink(QSystemTrayIcon *trayIcon = nullptr) : m_trayIcon(trayIcon) {}
    void setTrayIcon(QSystemTrayIcon *trayIcon) { m_trayIcon = trayIcon; }
    void showMessage(NotificationKind kind, const QString &title, const QString &body,
                     QSystemTrayIcon::MessageIcon icon) override;

private:
    QPointer<QSystemTrayIcon> m_trayIcon;
};

class Notifier : public QObject
{
    Q_OBJECT
public:
    using Kind = NotificationKind;
    static constexpr qint64 kWindowMs = 10'000;
    static constexpr int kFailuresBeforeNotice = 3;
    // What a banner shows of a body: GNOME Shell about two lines of ~50 characters, KDE a little more.
    static constexpr int kBodyMaxChars = 100;
    static constexpr int kBodyMaxLines = 2;
    // How long a pause's answer stays on screen.
    static constexpr int kPauseShownMs = 4000;

    Notifier(NotificationSink *sink, const Clock *clock, QObject *parent = nullptr);

    void setSettings(const NotifySettings &settings) { m_settings = settings; }
    NotifySettings settings() const { return m_settings; }
    // The user this tray runs for (getuid() by default): a preemption for a process of theirs tells them the GPU is
    // theirs now.
    void setOwnUid(uint uid) { m_ownUid = uid; }

    void notifyPreemption(const PreemptionEvent &event);
    // Tells of a failing workload from the kFailuresBeforeNotice-th failure in a row on, once per streak.
    void notifyWorkloadFailed(const QString &name, const WorkloadRuntime &runtime);
    void notifyConfigRejected(const QList<ConfigDiagnostic> &problems);
    // Tells that the monitor refused what the user asked ("Pause refused: not authorized"); always on, since the user
    // is waiting for an answer.
    void notifyRefused(const QString &line);
    // Tells what a click on the icon did: paused all workloads (`paused`) or resumed them.
    void notifyPauseClicked(bool paused);

    // Returns `body` cut to what a banner shows: at most kBodyMaxLines lines and kBodyMaxChars characters, ending in
    // "…" where cut (at a word's end where there is one).
    static QString fitBanner(const QString &body);

Q_SIGNALS:
    // A message went to the sink (not one held for a summary).
    void shown(NotificationKind kind, const QString &title, const QString &body);

public Q_SLOTS:
    // Shows the summaries of the windows that have ended by now and closes them. A timer calls it; tests call it
    // after advancing their clock.
    void flushDue();

private:
    struct Window
    {
        qint64 endsAtMs = 0;
        int held = 0; // messages swallowed in this window
    };
    void post(Kind kind, const QString &title, const QString &body, QSystemTrayIcon::MessageIcon icon);
    bool enabled(Kind kind) const;
    static QString summary(Kind kind, int count);
    // Returns `text` cut to `maxChars`, ending in "…" where cut.
    static QString elide(const QString &text, int maxChars);
    void scheduleFlush();

    NotificationSink *m_sink;
    const Clock *m_clock;
    NotifySettings m_settings;
    uint m_ownUid;
    QHash<int, Window> m_windows; // by Kind
    QSet<QString> m_failingNoticed; // workload ids told about in their current streak of failures
    QTimer *m_flushTimer;
};
