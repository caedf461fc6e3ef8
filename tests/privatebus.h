// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A private D-Bus daemon for the tests that stand in for logind or a desktop: started from the test, gone with it.
// Point DBUS_SYSTEM_BUS_ADDRESS (or DBUS_SESSION_BUS_ADDRESS) at address() before the code under test first uses
// that bus; the fake services register on connections of their own (QDBusConnection::connectToBus(address, name)).
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <signal.h>
#include <sys/prctl.h>

class PrivateBus
{
public:
    PrivateBus() = default;
    PrivateBus(const PrivateBus &) = delete;
    PrivateBus &operator=(const PrivateBus &) = delete;
    ~PrivateBus() { stop(); }

    // False, with the reason, where no dbus-daemon is installed or it does not start.
    bool start(QString *why)
    {
        const QString daemon = QStandardPaths::findExecutable(QStringLiteral("dbus-daemon"));
        if (daemon.isEmpty()) {
            *why = QStringLiteral("dbus-daemon is not installed (Debian: apt-get install dbus-daemon)");
            return false;
        }
        if (!m_dir.isValid()) {
            *why = QStringLiteral("no temporary folder");
            return false;
        }
        // Anyone may own any name and send anything: the fakes need to own org.freedesktop.login1.
        const QString config = m_dir.filePath(QStringLiteral("bus.conf"));
        QFile file(config);
        if (!file.open(QIODevice::WriteOnly)) {
            *why = file.errorString();
            return false;
        }
        file.write(QStringLiteral(
                       "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN\"\n"
                       " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
                       "<busconfig>\n"
                       "  <type>session</type>\n"
                       "  <listen>unix:path=%1</listen>\n"
                       "  <auth>EXTERNAL</auth>\n"
                       "  <policy context=\"default\">\n"
                       "    <allow user=\"*\"/>\n"
                       "    <allow own=\"*\"/>\n"
                       "    <allow send_destination=\"*\" eavesdrop=\"true\"/>\n"
                       "    <allow eavesdrop=\"true\"/>\n"
                       "  </policy>\n"
                       "</busconfig>\n")
                       .arg(m_dir.filePath(QStringLiteral("bus")))
                       .toUtf8());
        file.close();
        m_daemon.setProgram(daemon);
        m_daemon.setArguments({QStringLiteral("--config-file=") + config, QStringLiteral("--nofork"),
                               QStringLiteral("--print-address=1")});
        // Its complaints (as root: "Failed to set fd limit") only matter when it does not start.
        m_daemon.setStandardErrorFile(m_dir.filePath(QStringLiteral("stderr")));
        // A test killed on its time-out leaves no bus behind.
        m_daemon.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
        m_daemon.start();
        if (!m_daemon.waitForStarted(5000)) {
            *why = QStringLiteral("dbus-daemon does not start: %1").arg(m_daemon.errorString());
            return false;
        }
        while (!m_daemon.canReadLine() && m_daemon.waitForReadyRead(5000)) {
        }
        m_address = QString::fromUtf8(m_daemon.readLine()).trimmed();
        if (m_address.isEmpty()) {
            QFile errors(m_dir.filePath(QStringLiteral("stderr")));
            errors.open(QIODevice::ReadOnly);
            *why = QStringLiteral("dbus-daemon printed no address: %1").arg(QString::fromUtf8(errors.readAll()));
            stop();
            return false;
        }
        return true;
    }

    QString address() const { return m_address; }

    void stop()
    {
        if (m_daemon.state() == QProcess::NotRunning)
            return;
        m_daemon.kill();
        m_daemon.waitForFinished(5000);
    }

private:
    QTemporaryDir m_dir;
    QProcess m_daemon;
    QString m_address;
};
