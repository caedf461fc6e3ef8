// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A private X display (Xvfb) for the tests that run idlegpu's tray on the xcb platform: started from the test,
// gone with it. Xvfb picks a free display number itself (-displayfd) and says it once it accepts clients.
#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>

#include <signal.h>
#include <sys/prctl.h>

class VirtualDisplay
{
public:
    VirtualDisplay() = default;
    VirtualDisplay(const VirtualDisplay &) = delete;
    VirtualDisplay &operator=(const VirtualDisplay &) = delete;
    ~VirtualDisplay() { stop(); }

    // False, with the reason, where Xvfb is not installed or does not start.
    bool start(QString *why)
    {
        const QString xvfb = QStandardPaths::findExecutable(QStringLiteral("Xvfb"));
        if (xvfb.isEmpty()) {
            *why = QStringLiteral("Xvfb is not installed (Debian: apt-get install xvfb)");
            return false;
        }
        m_xvfb.setProgram(xvfb);
        // -noreset: the server would reset when its last client leaves, and refuse connections meanwhile.
        m_xvfb.setArguments({QStringLiteral("-displayfd"), QStringLiteral("1"), QStringLiteral("-screen"),
                             QStringLiteral("0"), QStringLiteral("1024x768x24"), QStringLiteral("-nolisten"),
                             QStringLiteral("tcp"), QStringLiteral("-noreset")});
        m_xvfb.setStandardErrorFile(m_dir.filePath(QStringLiteral("stderr")));
        // A test killed on its time-out leaves no X server behind.
        m_xvfb.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
        m_xvfb.start();
        if (!m_xvfb.waitForStarted(5000)) {
            *why = QStringLiteral("Xvfb does not start: %1").arg(m_xvfb.errorString());
            return false;
        }
        while (!m_xvfb.canReadLine() && m_xvfb.waitForReadyRead(10000)) {
        }
        const QByteArray number = m_xvfb.readLine().trimmed();
        if (number.isEmpty()) {
            QFile errors(m_dir.filePath(QStringLiteral("stderr")));
            errors.open(QIODevice::ReadOnly);
            *why = QStringLiteral("Xvfb named no display: %1").arg(QString::fromUtf8(errors.readAll().right(500)));
            stop();
            return false;
        }
        m_display = QLatin1Char(':') + QString::fromLatin1(number);
        return true;
    }

    QString display() const { return m_display; } // for DISPLAY

    void stop()
    {
        if (m_xvfb.state() == QProcess::NotRunning)
            return;
        m_xvfb.terminate();
        if (!m_xvfb.waitForFinished(5000)) {
            m_xvfb.kill();
            m_xvfb.waitForFinished(5000);
        }
    }

private:
    QTemporaryDir m_dir;
    QProcess m_xvfb;
    QString m_display;
};
