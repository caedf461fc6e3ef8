// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A private D-Bus daemon for the tests that stand in for logind or a desktop: started from the test, gone with it.
// Point DBUS_SYSTEM_BUS_ADDRESS (or DBUS_SESSION_BUS_ADDRESS) at address() before the code under test first uses
// that bus; the fake services register on connections of their own (QDBusConnection::connectToBus(address, name)).
#include "dbusdaemon.h"

class PrivateBus
{
public:
    // False, with the reason, where no dbus-daemon is installed or it does not start.
    bool start(QString *why)
    {
        // Anyone may own any name and send anything: the fakes need to own org.freedesktop.login1.
        return m_daemon.start(
            QStringLiteral("<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN\"\n"
                           " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
                           "<busconfig>\n"
                           "  <type>session</type>\n"
                           "  <listen>unix:path=%1/bus</listen>\n"
                           "  <auth>EXTERNAL</auth>\n"
                           "  <policy context=\"default\">\n"
                           "    <allow user=\"*\"/>\n"
                           "    <allow own=\"*\"/>\n"
                           "    <allow send_destination=\"*\" eavesdrop=\"true\"/>\n"
                           "    <allow eavesdrop=\"true\"/>\n"
                           "  </policy>\n"
                           "</busconfig>\n")
                .arg(m_daemon.folder())
                .toUtf8(),
            why);
    }

    QString address() const { return m_daemon.address(); }
    void stop() { m_daemon.stop(); }

private:
    DbusDaemon m_daemon;
};
