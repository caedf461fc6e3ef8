// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// Where the machine's power comes from ([defaults] on_battery): the kernel's power supplies under
// <sysfs_root>/class/power_supply, read again when the kernel announces a change of one of them (a uevent on a
// NETLINK_KOBJECT_UEVENT socket, which needs no privilege), or at the fallback poll where no such socket opens.
//
// Kept apart: the pure judgement over what the supplies say (PowerSupply::judge, table-tested), the reading of
// the files (every one of which may vanish or hold garbage), the parsing of a uevent, and the watcher.
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
    QString online; // external supplies: "1" (or "2": online, programmable) when it powers the machine, "0" not
    QString status; // batteries: "Discharging", "Charging", "Full", "Not charging", "Unknown"
    bool operator==(const PowerSupplyReading &) const = default;
};

namespace PowerSupply {

// The machine's power as these supplies describe it. A supply of scope "Device" (wireless mice, keyboards,
// headsets) says nothing of the machine's own power. An external supply (mains, USB, wireless charging)
// online: on AC. Else a battery that discharges: on battery. Else a battery in any other state (charging, full,
// not charging, unknown): on AC, as far as anyone can tell. No battery and no external supply online: unknown,
// a desktop (which runs on AC).
PowerState judge(const QList<PowerSupplyReading> &supplies);

// The supplies under <sysfsRoot>/class/power_supply, sorted by name. A battery's status is its firmware's to answer
// (ACPI _BST, which takes milliseconds on some laptops): it is read only where no external supply is online, the
// one case it decides.
QList<PowerSupplyReading> read(const QString &sysfsRoot);

// judge(read(sysfsRoot)): a one-shot look (`--status`).
PowerState readState(const QString &sysfsRoot);

// "on battery (BAT0)", "on AC (AC)", "unknown (no battery)": how the log and --status say it.
QString describe(const PowerState &power);

// A socket that receives the kernel's uevents (NETLINK_KOBJECT_UEVENT, multicast group 1), non-blocking and
// close-on-exec; -1 when the kernel or a sandbox refuses it (*error then says why).
int openUeventSocket(QString *error = nullptr);

// The messages waiting on a uevent socket, up to `max` of them; only those the kernel sent (a message from any
// other sender is dropped). *lost is set when the kernel dropped some for lack of room (ENOBUFS): whatever they
// said must be read again.
QList<QByteArray> takeUevents(int fd, bool *lost, int max = 256);

// True when a kernel uevent ("ACTION@DEVPATH\0KEY=VALUE\0...") is about a power supply (SUBSYSTEM=power_supply).
bool isPowerSupplyEvent(const QByteArray &message);

} // namespace PowerSupply

// The power state, kept current: read at once, then again at each power_supply uevent of the kernel. The kernel's
// uevents describe /sys: a watcher of any other root (a test's fixture) and one whose socket could not be opened
// read again at poll() instead, which the monitor calls at its fallback poll (interval_seconds).
class PowerSupplyWatcher : public QObject
{
    Q_OBJECT
public:
    explicit PowerSupplyWatcher(const QString &sysfsRoot, QObject *parent = nullptr);
    ~PowerSupplyWatcher() override;

    const PowerState &state() const { return m_state; }
    // True when the kernel tells of changes: poll() then reads nothing.
    bool eventDriven() const { return m_socket >= 0; }
    // The fallback poll: reads again unless the kernel tells of changes.
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
