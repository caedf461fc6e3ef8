// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The D-Bus service's thread (docs/dbus.md): a thread of its own with a private bus connection, on which BusService
// answers the callers, so that the monitor's thread never waits on the bus. The host wires a Monitor (headless: on
// the thread that made it) or a MonitorHost (the tray) to it: their states and preemptions go to the bus thread by
// queued calls, the authorized pauses come back the same way.
#include <QDBusConnection>
#include <QObject>
#include <QThread>

#include <optional>

class BusService;
class Monitor;
class MonitorHost;

class BusServiceHost : public QObject
{
    Q_OBJECT
public:
    enum class Bus { System, Session };
    struct Options
    {
        Bus bus = Bus::Session;
        // A private bus for tests (tests/privatebus.h): its address; empty for the bus's own.
        QString address;
        // polkit decides (the system bus); else the service's own user and root may act (a session bus).
        bool usePolkit = false;
        QString configPath;
        QString procRoot = QStringLiteral("/proc");
        // Per user, the acts (Pause, Resume, GetConfig, SetConfig) a second and their burst (tests raise them).
        double actsPerSecond = 5, actBurst = 10;
    };
    enum class Result {
        Published, // the name is ours
        NameTaken, // another idlegpu owns it: not starting a second monitor
        NoBus,     // the bus cannot be reached, or its policy refuses us the name: idlegpu runs unpublished
    };

    // Returns the bus for this process: the system bus for root (the system service), the session bus for another
    // user; IDLEGPU_BUS=system, session or none in the environment chooses instead (none: nullopt).
    static std::optional<Bus> busOfProcess();
    static QString busName(Bus bus);

    explicit BusServiceHost(const Options &options, QObject *parent = nullptr);
    // Unregisters and leaves the bus on the bus thread, then ends the thread.
    ~BusServiceHost() override;

    // Connects, exports the object and asks for BusNames::service; blocks until the bus thread knows (a few ms; the
    // bus's own timeout at worst). *detail says why for NameTaken (with the owner's pid) and NoBus.
    Result start(QString *detail);

    // Sends `monitor`'s states and preemptions to the service and its pauses to `monitor`, which lives on this
    // thread. Call after start() returned Published.
    void attach(Monitor *monitor);
    // The same for the tray's monitor on its host's thread.
    void attach(MonitorHost *host);

    BusService *service() const { return m_service; }

private:
    Options m_options;
    QThread m_thread;
    BusService *m_service = nullptr; // lives on m_thread
    QString m_connectionName;
};
