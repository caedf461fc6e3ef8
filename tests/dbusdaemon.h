// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A dbus-daemon of a test's own, from a configuration the test writes: started from the test, gone with it (also when
// the test is killed on its time-out). PrivateBus and PrivateSystemBus give it their configurations.
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <signal.h>
#include <sys/prctl.h>

class DbusDaemon
{
public:
    DbusDaemon() = default;
    DbusDaemon(const DbusDaemon &) = delete;
    DbusDaemon &operator=(const DbusDaemon &) = delete;
    ~DbusDaemon() { stop(); }

    // The daemon's own folder, for its socket and whatever its configuration includes; empty where none could be made.
    QString folder() const { return m_dir.isValid() ? m_dir.path() : QString(); }

    // Writes `configuration` (a busconfig document) into folder() and starts the daemon on it. False, with the
    // reason, where no dbus-daemon is installed, the file cannot be written or the daemon does not start.
    bool start(const QByteArray &configuration, QString *why)
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
        const QString config = m_dir.filePath(QStringLiteral("bus.conf"));
        QFile file(config);
        if (!file.open(QIODevice::WriteOnly) || file.write(configuration) != configuration.size()) {
            *why = QStringLiteral("cannot write %1: %2").arg(config, file.errorString());
            return false;
        }
        file.close();
        m_daemon.setProgram(daemon);
        m_daemon.setArguments({QStringLiteral("--config-file=") + config, QStringLiteral("--nofork"),
                               QStringLiteral("--print-address=1")});
        // Its complaints (as root: "Failed to set fd limit") only matter when it does not start.
        m_daemon.setStandardErrorFile(m_dir.filePath(QStringLiteral("stderr")));
        m_daemon.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
        m_daemon.start();
        if (!m_daemon.waitForStarted(5000)) {
            *why = QStringLiteral("dbus-daemon does not start: %1").arg(m_daemon.errorString());
            return false;
        }
        while (!m_daemon.canReadLine() && m_daemon.waitForReadyRead(5000)) {}
        m_address = QString::fromUtf8(m_daemon.readLine()).trimmed();
        if (m_address.isEmpty()) {
            *why = QStringLiteral("dbus-daemon printed no address: %1").arg(errors());
            stop();
            return false;
        }
        return true;
    }

    QString address() const { return m_address; }
    // What the daemon said on stderr (a policy file it rejected, for one).
    QString errors() const
    {
        QFile file(m_dir.filePath(QStringLiteral("stderr")));
        return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
    }

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
