// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The readers of where the machine's power comes from ([defaults] on_battery): the kernel's power supplies under
// <sysfs_root>/class/power_supply, read again when the kernel announces a change of one of them (a uevent on a
// NETLINK_KOBJECT_UEVENT socket, which needs no privilege), or at the fallback poll where no such socket opens.
#include "model/snapshot.h"

#include <QByteArray>
#include <QList>
#include <QObject>
#include <QString>

class QSocketNotifier;

// What one folder of <sysfs_root>/class/power_supply says, each file's first line as read (trimmed); empty where
// a file is missing or unreadable.
struct PowerSupplyReading
{
    QString name;   // the folder: "AC", "BAT0", "ucsi-source-psy-USBC000:001", "hidpp_battery_0"
    QString type;   // "Mains", "USB" (older kernels: "USB_C", "USB_PD"...), "Battery", "UPS", "Wireless"
    QString scope;  // "System", "Device" (a mouse's or keyboard's own battery), "Unknown"; most give none
    QString online; // for external supplies, "1" (or "2", programmable) when it powers the machine, else "0"
    QString status; // for batteries: "Discharging", "Charging", "Full", "Not charging", "Unknown"
    bool operator==(const PowerSupplyReading &) const = default;
};

// The functions that read and judge the power supplies.
namespace PowerSupply {

// Returns the machine's power as these supplies describe it; unknown with no battery and no external supply online
// (a desktop, which runs on AC).
PowerState judge(const QList<PowerSupplyReading> &supplies);

// Reads the supplies under <sysfsRoot>/class/power_supply, sorted by name; a battery's status only where no
// external supply is online.
QList<PowerSupplyReading> read(const QString &sysfsRoot);

// Returns judge(read(sysfsRoot)), for a one-shot look (`--status`).
PowerState readState(const QString &sysfsRoot);

// Returns the power state as the log and --status say it: "on battery (BAT0)", "on AC (AC)", "unknown (no battery)".
QString describe(const PowerState &power);

// Opens a socket that receives the kernel's uevents (NETLINK_KOBJECT_UEVENT, multicast group 1), non-blocking and
// close-on-exec. Returns -1 when the kernel or a sandbox refuses it, and *error then says why.
int openUeventSocket(QString *error = nullptr);

// Returns the messages waiting on a uevent socket, up to `max` of them, keeping only those the kernel sent (a
// message from any other sender is dropped). *lost is set when the kernel dropped some for lack of room (ENOBUFS),
// so whatever they said must be read again.
QList<QByteArray> takeUevents(int fd, bool *lost, int max = 256);

// Returns whether a kernel uevent ("ACTION@DEVPATH\0KEY=VALUE\0...") is about a power supply
// (SUBSYSTEM=power_supply).
bool isPowerSupplyEvent(const QByteArray &message);

} // namespace PowerSupply

// The watcher that keeps the power state current, read again at each power_supply uevent of the kernel or, where
// none come, at poll().
class PowerSupplyWatcher : public QObject
{
    Q_OBJECT
public:
    explicit PowerSupplyWatcher(const QString &sysfsRoot, QObject *parent = nullptr);
    ~PowerSupplyWatcher() override;

    const PowerState &state() const { return m_state; }
    // Returns whether the kernel tells of changes; poll() then reads nothing.
    bool eventDriven() const { return m_socket >= 0; }
    // Serves the fallback poll: reads again unless the kernel tells of changes.
    void poll();
    // Reads again now; emits changed() when the state is not what it was.
    void reread();

Q_SIGNALS:
    void changed(const PowerState &state);

private:
    void takeEvents();

    QString m_sysfsRoot;
    PowerState m_state;
    int m_socket = -1;
    QSocketNotifier *m_notifier = nullptr;
};
