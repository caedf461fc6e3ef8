// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "conditions/powersupply.h"

// Four parts are kept apart: the pure judgement over what the supplies say (PowerSupply::judge, table-tested), the
// reading of the files (any of which may vanish or hold garbage), the parsing of a uevent, and the watcher.

#include "base/errnotext.h"
#include "base/logging.h"

#include <QDir>
#include <QFile>
#include <QSocketNotifier>

#include <algorithm>

#include <errno.h>
#include <linux/netlink.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

namespace {

// A sysfs attribute is one short line; anything longer is not what the kernel wrote.
constexpr qint64 kAttributeMaxBytes = 64;
// One uevent: the kernel's UEVENT_BUFFER_SIZE is 2048 bytes.
constexpr int kUeventMaxBytes = 8192;

bool isExternal(const PowerSupplyReading &supply)
{
    // Older kernels name the kind of USB port in the type ("USB_C", "USB_PD"); newer ones say "USB" and keep it in
    // usb_type. BrickID: the ID of an Apple charger brick.
    return supply.type == QLatin1String("Mains") || supply.type == QLatin1String("USB")
           || supply.type.startsWith(QLatin1String("USB_")) || supply.type == QLatin1String("Wireless")
           || supply.type == QLatin1String("BrickID");
}

bool isBattery(const PowerSupplyReading &supply) { return supply.type == QLatin1String("Battery"); }

// A mouse's battery says nothing of the machine's power.
bool isOwnDevice(const PowerSupplyReading &supply) { return supply.scope == QLatin1String("Device"); }

bool isOnline(const PowerSupplyReading &supply)
{
    bool ok = false;
    const int value = supply.online.toInt(&ok);
    return ok && value > 0;
}

// The first line of a sysfs attribute, trimmed; empty when it is missing, unreadable or not text.
QString readAttribute(const QDir &folder, const char *name)
{
    QFile file(folder.filePath(QLatin1String(name)));
    if (!file.open(QIODevice::ReadOnly))
        return QString();
    const QByteArray bytes = file.read(kAttributeMaxBytes + 1);
    if (bytes.size() > kAttributeMaxBytes || bytes.contains('\0'))
        return QString();
    return QString::fromUtf8(bytes.left(bytes.indexOf('\n') >= 0 ? bytes.indexOf('\n') : bytes.size())).trimmed();
}

} // namespace

namespace PowerSupply {

// A supply of scope "Device" (wireless mice, keyboards, headsets) says nothing of the machine's own power. With an
// external supply (mains, USB, wireless charging) online, the machine is on AC; else with a battery that discharges,
// on battery; else with a battery in any other state (charging, full, not charging, unknown), on AC as far as anyone
// can tell. With no battery and no external supply online, the state is unknown: a desktop, which runs on AC.
PowerState judge(const QList<PowerSupplyReading> &supplies)
{
    PowerState power;
    const PowerSupplyReading *discharging = nullptr;
    const PowerSupplyReading *battery = nullptr;
    for (const PowerSupplyReading &supply : supplies) {
        if (isOwnDevice(supply))
            continue;
        if (isExternal(supply) && isOnline(supply)) {
            power.known = true;
            power.onBattery = false;
            power.source = supply.name;
            return power;
        }
        if (isBattery(supply)) {
            if (!battery)
                battery = &supply;
            if (!discharging && supply.status == QLatin1String("Discharging"))
                discharging = &supply;
        }
    }
    if (discharging) {
        power.known = true;
        power.onBattery = true;
        power.source = discharging->name;
    } else if (battery) {
        power.known = true;
        power.source = battery->name;
    }
    return power;
}

// A battery's status is its firmware's to answer (ACPI _BST, which takes milliseconds on some laptops), so it is read
// only where no external supply is online, the one case it decides.
QList<PowerSupplyReading> read(const QString &sysfsRoot)
{
    QList<PowerSupplyReading> supplies;
    const QDir classDir(sysfsRoot + QStringLiteral("/class/power_supply"));
    // Each entry is a link to its device's folder; a supply unplugged meanwhile is a dangling link, not listed.
    const QStringList names = classDir.entryList(QDir::Dirs | QDir::NoDotAndDotDot, QDir::Name);
    bool externalOnline = false;
    for (const QString &name : names) {
        const QDir folder(classDir.filePath(name));
        PowerSupplyReading supply;
        supply.name = name;
        supply.type = readAttribute(folder, "type");
        if (supply.type.isEmpty())
            continue; // gone meanwhile, or not a supply
        supply.scope = readAttribute(folder, "scope");
        if (isExternal(supply))
            supply.online = readAttribute(folder, "online");
        externalOnline = externalOnline || (isExternal(supply) && isOnline(supply) && !isOwnDevice(supply));
        supplies.append(supply);
    }
    if (!externalOnline)
        for (PowerSupplyReading &supply : supplies)
            if (isBattery(supply) && !isOwnDevice(supply))
                supply.status = readAttribute(QDir(classDir.filePath(supply.name)), "status");
    return supplies;
}

PowerState readState(const QString &sysfsRoot)
{
    return judge(read(sysfsRoot));
}

QString describe(const PowerState &power)
{
    if (!power.known)
        return QStringLiteral("no battery found (taken as on AC)");
    return QStringLiteral("%1 (%2)").arg(power.onBattery ? QStringLiteral("on battery") : QStringLiteral("on AC"),
                                         power.source);
}

int openUeventSocket(QString *error)
{
    const int fd = ::socket(AF_NETLINK, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, NETLINK_KOBJECT_UEVENT);
    if (fd < 0) {
        if (error)
            *error = errnoText(errno);
        return -1;
    }
    sockaddr_nl address{};
    address.nl_family = AF_NETLINK;
    address.nl_groups = 1; // the kernel's own uevents (group 2 is udev's re-broadcast)
    if (::bind(fd, reinterpret_cast<const sockaddr *>(&address), sizeof address) != 0) {
        if (error)
            *error = errnoText(errno);
        ::close(fd);
        return -1;
    }
    return fd;
}

QList<QByteArray> takeUevents(int fd, bool *lost, int max)
{
    QList<QByteArray> messages;
    char buffer[kUeventMaxBytes];
    while (messages.size() < max) {
        sockaddr_nl sender{};
        socklen_t senderSize = sizeof sender;
        const ssize_t size = ::recvfrom(fd, buffer, sizeof buffer, MSG_DONTWAIT,
                                        reinterpret_cast<sockaddr *>(&sender), &senderSize);
        if (size < 0) {
            if (errno == EINTR)
                continue;
            if (errno == ENOBUFS) { // the queue overflowed: some are lost, the next ones follow
                if (lost)
                    *lost = true;
                continue;
            }
            break; // EAGAIN: none left; anything else: nothing to read now
        }
        if (size == 0 || sender.nl_pid != 0)
            continue; // only the kernel's word counts
        messages.append(QByteArray(buffer, int(qMin<ssize_t>(size, sizeof buffer))));
    }
    return messages;
}

bool isPowerSupplyEvent(const QByteArray &message)
{
    // The header "ACTION@DEVPATH" comes first; udev's own messages (which start "libudev") have no such form.
    const QList<QByteArray> fields = message.split('\0');
    if (fields.isEmpty() || !fields.first().contains('@'))
        return false;
    for (qsizetype i = 1; i < fields.size(); ++i)
        if (fields.at(i) == "SUBSYSTEM=power_supply")
            return true;
    return false;
}

} // namespace PowerSupply

// The watcher reads at once, then again at each power_supply uevent of the kernel. The kernel's uevents describe
// /sys, so a watcher of any other root (a test's fixture) and one whose socket could not be opened read again at
// poll() instead, which the monitor calls at its fallback poll (interval_seconds).
PowerSupplyWatcher::PowerSupplyWatcher(const QString &sysfsRoot, QObject *parent)
    : QObject(parent), m_sysfsRoot(sysfsRoot)
{
    QString error;
    if (QDir::cleanPath(sysfsRoot) == QLatin1String("/sys")) {
        m_socket = PowerSupply::openUeventSocket(&error);
        if (m_socket >= 0) {
            m_notifier = new QSocketNotifier(m_socket, QSocketNotifier::Read, this);
            connect(m_notifier, &QSocketNotifier::activated, this, &PowerSupplyWatcher::takeEvents);
        }
    } else {
        error = QStringLiteral("%1 is not the kernel's /sys").arg(sysfsRoot);
    }
    m_state = PowerSupply::readState(m_sysfsRoot);
    qCInfo(lcPower, "power: %s; %s", qPrintable(PowerSupply::describe(m_state)),
           m_socket >= 0 ? "changes come as kernel events"
                         : qPrintable(QStringLiteral("no kernel events (%1): read at each poll").arg(error)));
}

PowerSupplyWatcher::~PowerSupplyWatcher()
{
    delete m_notifier; // before its socket closes
    if (m_socket >= 0)
        ::close(m_socket);
}

void PowerSupplyWatcher::poll()
{
    if (!eventDriven())
        reread();
}

void PowerSupplyWatcher::reread()
{
    const PowerState state = PowerSupply::readState(m_sysfsRoot);
    if (state == m_state)
        return;
    m_state = state;
    qCInfo(lcPower, "power: %s", qPrintable(PowerSupply::describe(m_state)));
    Q_EMIT changed(m_state);
}

void PowerSupplyWatcher::takeEvents()
{
    // Every uevent of the machine comes here (a USB stick, a network link): read the supplies only for theirs. A
    // burst (a charger plugged in changes the adapter and each battery) is taken whole and read once.
    bool lost = false;
    const QList<QByteArray> events = PowerSupply::takeUevents(m_socket, &lost);
    if (lost || std::any_of(events.cbegin(), events.cend(), PowerSupply::isPowerSupplyEvent))
        reread();
}
