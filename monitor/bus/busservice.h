// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// idlegpu's D-Bus interface, served (docs/dbus.md): one QDBusVirtualObject that lives on a thread of its own (the
// bus thread, monitor/busservicehost.h) and never on the monitor's. busservice.cpp draws a call's way.
#include "bus/authorizer.h"
#include "bus/callerregistry.h"
#include "bus/ratelimit.h"
#include "bus/statejson.h"
#include "model/monitorstate.h"

#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusVirtualObject>
#include <QElapsedTimer>

#include <memory>

class QTimer;

class BusService : public QDBusVirtualObject
{
    Q_OBJECT
public:
    struct Options
    {
        uint serviceUid = 0;
        QString configPath;                         // GetConfig and SetConfig's file
        QString procRoot = QStringLiteral("/proc"); // the callers' mountinfo, the host's (/proc/1) for broadcasts
        int stateIntervalMs = 100;                  // StateChanged at most once per this
        // Per user: reads (GetState) and acts (Pause, Resume, GetConfig, SetConfig) a second, and their bursts.
        double readsPerSecond = 50, readBurst = 100;
        double actsPerSecond = 5, actBurst = 10;
        // Authorizations that may wait for polkit at once, per user and in all.
        int pendingPerUid = 4, pendingInAll = 64;
    };

    // Serves on `connection` (a connection of the bus thread's own); registerOn() exports it there.
    BusService(const QDBusConnection &connection, const Options &options, std::unique_ptr<Authorizer> authorizer,
               QObject *parent = nullptr);
    ~BusService() override;

    // Registers the object at BusNames::objectPath. Call on the bus thread.
    bool registerOn();

    QString introspect(const QString &path) const override;
    bool handleMessage(const QDBusMessage &message, const QDBusConnection &connection) override;

    quint64 generation() const { return m_generation; }
    CallerRegistry *callers() const { return m_callers; }

public Q_SLOTS:
    // The monitor's state, sent by value from its thread at each change.
    void setState(const MonitorState &state);
    // A preemption: broadcast, and addressed to the holder's user.
    void notifyPreempted(const PreemptionEvent &event);

Q_SIGNALS:
    // An authorized request for the monitor: `workload` empty means all; untilMs is monotonic, 0 for no end.
    void pauseRequested(const QString &workload, qint64 untilMs);
    void resumeRequested(const QString &workload);

private:
    enum class Method { GetState, Pause, Resume, GetConfig, SetConfig };
    void serve(Method method, const QDBusMessage &message, const BusCaller &caller);
    void authorizeThen(const QDBusMessage &message, const BusCaller &caller, const QString &action,
                       const QMap<QString, QString> &details, std::function<void()> act);
    void replyError(const QDBusMessage &message, const QString &name, const QString &text);
    void reply(const QDBusMessage &message, const QList<QVariant> &arguments = {});
    QString stateJsonFor(const StateJson::View &view);
    void emitStateChanged();
    void getConfig(const QDBusMessage &message);
    void setConfig(const QDBusMessage &message, const QByteArray &contents, const QString &etag);

    QDBusConnection m_connection;
    Options m_options;
    std::unique_ptr<Authorizer> m_authorizer;
    CallerRegistry *m_callers;
    UidRateLimiter m_reads;
    UidRateLimiter m_acts;
    QElapsedTimer m_clock;

    MonitorState m_state;
    bool m_haveState = false;
    quint64 m_generation = 0;
    QList<std::pair<StateJson::View, QString>> m_jsonCache; // for m_generation, by view
    StateJson::View m_broadcastView;                        // what every local user may see (the host's /proc)

    QTimer *m_stateTimer;
    qint64 m_lastStateSignalMs = -1000000;
    quint64 m_preemptionEvents = 0;
    bool m_registered = false;
};
