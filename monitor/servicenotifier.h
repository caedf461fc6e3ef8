// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The client of systemd's readiness and watchdog protocol (sd_notify(3)), spoken without libsystemd. Without
// $NOTIFY_SOCKET (a terminal, a desktop's autostart) every call does nothing.
#include <QByteArray>
#include <QString>

#include <chrono>
#include <memory>

class QObject;

// The sender of sd_notify(3) messages to systemd.
class ServiceNotifier
{
public:
    // Takes NOTIFY_SOCKET, WATCHDOG_USEC and WATCHDOG_PID out of the environment, so that no child inherits them. Call
    // it before any thread exists.
    static ServiceNotifier fromEnvironment();
    ServiceNotifier() = default; // an inactive notifier

    bool active() const { return m_socket != nullptr; }
    // Returns how often systemd wants a ping; zero without a watchdog for this process (none asked, or WATCHDOG_PID
    // names another process).
    std::chrono::microseconds watchdogTimeout() const { return m_watchdogTimeout; }
    // Returns what is in force, in words, for the log.
    QString describe() const;

    // Sends one datagram without blocking (a full socket drops it and says so once); returns false when it is not
    // sent. It is safe from any thread.
    bool notify(const QByteArray &message) const;
    void ready(const QString &status) const;
    void stopping() const;
    void setStatus(const QString &status) const;

    // Sends WATCHDOG=1 every half watchdogTimeout() from a timer made on `context`'s thread as its child, so the
    // pings stop while that thread's event loop is blocked and end with `context`. Does nothing without a watchdog.
    void feedWatchdogFrom(QObject *context) const;

private:
    struct Socket;
    std::shared_ptr<const Socket> m_socket; // shared with the watchdog's timer, which may outlive this object
    std::chrono::microseconds m_watchdogTimeout{0};
    QString m_socketName;
};
