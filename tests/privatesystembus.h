// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A private dbus-daemon configured as a system bus is (Debian's /usr/share/dbus-1/system.conf): <type>system</type>,
// EXTERNAL authentication, and its default-deny policy (no one may own a name, no method call may be sent, but to the
// bus itself), so that only what the policy files in its system.d punch through gets through. Its system.d is a
// temporary folder that holds copies of the files given, the package's own (resources/io.github.idlegpu.Idlegpu1.conf)
// for the tests of who may own and call idlegpu's name. Unlike the real one it runs as whoever starts it, forks not,
// logs to no syslog and activates nothing. Every user may connect (its socket's folder is 0755): a test as root runs
// clients as another user (setpriv --reuid) with DBUS_SYSTEM_BUS_ADDRESS=address().
#include "dbusdaemon.h"

#include <QDir>
#include <QFileInfo>

class PrivateSystemBus
{
public:
    // Starts the bus with copies of `policyFiles` in its system.d. False, with the reason, where no dbus-daemon is
    // installed, a file cannot be copied or the daemon does not start.
    bool start(const QStringList &policyFiles, QString *why)
    {
        const QString systemD = m_daemon.folder() + QStringLiteral("/system.d");
        if (m_daemon.folder().isEmpty() || !QDir().mkpath(systemD)) {
            *why = QStringLiteral("no temporary folder");
            return false;
        }
        // Other users connect to the socket in it; they can read nothing else of it (the files are the bus's own).
        QFile::setPermissions(m_daemon.folder(), QFileDevice::ReadOwner | QFileDevice::WriteOwner
                                                     | QFileDevice::ExeOwner | QFileDevice::ReadGroup
                                                     | QFileDevice::ExeGroup | QFileDevice::ReadOther
                                                     | QFileDevice::ExeOther);
        for (const QString &policy : policyFiles) {
            const QString copy = systemD + QLatin1Char('/') + QFileInfo(policy).fileName();
            if (!QFile::copy(policy, copy)) {
                *why = QStringLiteral("cannot copy %1 to %2").arg(policy, copy);
                return false;
            }
        }
        // The policy of Debian 12's system.conf, less what concerns activation, systemd and the Stats interface.
        return m_daemon.start(
            QStringLiteral(
                "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN\"\n"
                " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
                "<busconfig>\n"
                "  <type>system</type>\n"
                "  <auth>EXTERNAL</auth>\n"
                "  <listen>unix:path=%1</listen>\n"
                "  <policy context=\"default\">\n"
                "    <allow user=\"*\"/>\n"
                "    <deny own=\"*\"/>\n"
                "    <deny send_type=\"method_call\"/>\n"
                "    <allow send_type=\"signal\"/>\n"
                "    <allow send_requested_reply=\"true\" send_type=\"method_return\"/>\n"
                "    <allow send_requested_reply=\"true\" send_type=\"error\"/>\n"
                "    <allow receive_type=\"method_call\"/>\n"
                "    <allow receive_type=\"method_return\"/>\n"
                "    <allow receive_type=\"error\"/>\n"
                "    <allow receive_type=\"signal\"/>\n"
                "    <allow send_destination=\"org.freedesktop.DBus\" send_interface=\"org.freedesktop.DBus\"/>\n"
                "    <allow send_destination=\"org.freedesktop.DBus\"\n"
                "           send_interface=\"org.freedesktop.DBus.Introspectable\"/>\n"
                "    <allow send_destination=\"org.freedesktop.DBus\"\n"
                "           send_interface=\"org.freedesktop.DBus.Properties\"/>\n"
                "    <deny send_destination=\"org.freedesktop.DBus\" send_interface=\"org.freedesktop.DBus\"\n"
                "          send_member=\"UpdateActivationEnvironment\"/>\n"
                "  </policy>\n"
                "  <policy user=\"root\">\n"
                "    <allow send_destination=\"org.freedesktop.DBus\"\n"
                "           send_interface=\"org.freedesktop.DBus.Monitoring\"/>\n"
                "  </policy>\n"
                "  <includedir>%2</includedir>\n"
                "</busconfig>\n")
                .arg(m_daemon.folder() + QStringLiteral("/system_bus_socket"), systemD)
                .toUtf8(),
            why);
    }

    QString address() const { return m_daemon.address(); }
    // What the daemon said on stderr (a policy file it rejected, for one).
    QString errors() const { return m_daemon.errors(); }
    void stop() { m_daemon.stop(); }

private:
    DbusDaemon m_daemon;
};
