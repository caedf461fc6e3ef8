// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The idlegpu service on D-Bus as a MonitorLink (docs/dbus.md): the tray and its windows show the service's state and
// send it their requests as they would to a monitor of their own. Everything is asynchronous: a reply comes back
// through a QDBusPendingCallWatcher, never by waiting in the GUI thread. remotemonitor.cpp tells how it follows the
// service across restarts.
#include "model/monitorlink.h"

#include <QDBusConnection>
#include <QElapsedTimer>
#include <QHash>

class QDBusMessage;
class QDBusPendingCallWatcher;
class QDBusServiceWatcher;
class QTimer;

class RemoteMonitor : public MonitorLink
{
    Q_OBJECT
public:
    // Follows the service on `bus` (the system bus or the session bus). Unavailable until the first state arrives;
    // start() asks for it.
    explicit RemoteMonitor(const QDBusConnection &bus, QObject *parent = nullptr);
    ~RemoteMonitor() override;

    // Asks for the state at once, and from now on at each StateChanged and each new owner of the name.
    void start();

    bool isLocal() const override { return false; }
    QString configPath() const override;
    void setPausedAll(bool paused) override;
    void pauseAllFor(qint64 durationMs) override;
    void setWorkloadPaused(const QString &id, bool paused) override;
    void pauseWorkloadFor(const QString &id, qint64 durationMs) override;
    // The service reloads its file by itself when it changes: nothing to send.
    void reloadConfig() override {}
    // GetConfig and SetConfig (polkit's configure action): the etag of the last load or save goes with a save.
    void loadConfig() override;
    void saveConfig(const QByteArray &contents) override;

    // The time from the last new owner of the name to the first state applied from it, in ms; -1 before one.
    qint64 lastAttachMs() const { return m_lastAttachMs; }
    // How many GetState replies were dropped because a newer one had been applied.
    int staleRepliesDropped() const { return m_staleDropped; }
    // The text said while the service is away.
    static QString notRunningText();

Q_SIGNALS:
    // A state from a new owner of the name was applied, `ms` after the owner changed (the figure the issue asks for).
    void attached(qint64 ms);

private Q_SLOTS:
    void onStateChanged(const QDBusMessage &message);
    void onPreempted(const QDBusMessage &message);

private:
    void requestState();
    void onStateReply(QDBusPendingCallWatcher *watcher, quint64 request);
    void onOwnerChanged(const QString &name, const QString &oldOwner, const QString &newOwner);
    void goAway();
    // Sends an act with interactive authorization allowed; a refusal becomes requestRefused(request, reason).
    void act(Request request, const QString &method, const QVariantList &arguments);
    void deliverPreemption(quint64 eventId);

    struct PendingPreemption
    {
        PreemptionEvent event;
        bool complete = false; // the copy that names the holder's user
    };

    QDBusConnection m_bus;
    QDBusServiceWatcher *m_watcher;
    quint64 m_requests = 0;        // GetState calls sent
    quint64 m_appliedRequest = 0;  // the newest call whose reply was applied
    quint64 m_lastGeneration = 0;  // of the current owner
    bool m_inFlight = false;       // a GetState is on its way: one more is sent after it, not beside it
    bool m_dirty = false;          // a StateChanged came while one was on its way
    QString m_owner;               // the name's owner (its unique name), from the watcher or the last reply
    QElapsedTimer m_sinceOwnerChange;
    bool m_attaching = false;
    qint64 m_lastAttachMs = -1;
    int m_staleDropped = 0;
    QString m_configEtag; // of the contents last loaded or saved
    QHash<quint64, PendingPreemption> m_preemptions; // by the service's event number, until delivered
    QList<quint64> m_deliveredEvents;                // the last few, so that a second copy is not told again
};
