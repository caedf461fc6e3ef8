// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "servicenotifier.h"

// The client of systemd's readiness and watchdog protocol (sd_notify(3)), spoken without libsystemd: one datagram per
// message ("READY=1", "WATCHDOG=1", "STOPPING=1", "STATUS=...") to the Unix socket that $NOTIFY_SOCKET names (a leading
// '@' names one in the abstract namespace). Under Type=notify idlegpu says READY=1 once its config is loaded and its
// first scan done; under WatchdogSec= a timer on the monitor's own thread says WATCHDOG=1 every half interval, so that
// a monitor whose event loop hangs stops the pings and systemd restarts the service. Without $NOTIFY_SOCKET (a
// terminal, supervisord, a desktop's autostart) every call does nothing.

#include "config/securefile.h"
#include "base/logging.h"

#include <QMetaObject>
#include <QObject>
#include <QTimer>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstddef>
#include <cstring>

#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

struct ServiceNotifier::Socket
{
    UniqueFd fd;
    sockaddr_un address{};
    socklen_t addressLength = 0;
    mutable std::atomic<bool> warnedUnsent{false};
};

namespace {

// The value of `name` in the environment, which is then rid of it.
QByteArray takeEnvironment(const char *name)
{
    const QByteArray value = qgetenv(name);
    qunsetenv(name);
    return value;
}

} // namespace

// A workload of its own could not speak for idlegpu anyway: the unit's NotifyAccess=main.
ServiceNotifier ServiceNotifier::fromEnvironment()
{
    const QByteArray socketName = takeEnvironment("NOTIFY_SOCKET");
    const QByteArray watchdogUsec = takeEnvironment("WATCHDOG_USEC");
    const QByteArray watchdogPid = takeEnvironment("WATCHDOG_PID");

    ServiceNotifier notifier;
    if (socketName.isEmpty())
        return notifier;
    auto socket = std::make_shared<Socket>();
    socket->address.sun_family = AF_UNIX;
    // A path, or '@' for the abstract namespace (a leading NUL); systemd 252 uses no other kind.
    const bool abstract = socketName.startsWith('@');
    if ((!abstract && !socketName.startsWith('/')) || socketName.size() < 2 || socketName.contains('\0')
        || size_t(socketName.size()) >= sizeof socket->address.sun_path) {
        qCWarning(lcMonitor, "NOTIFY_SOCKET=%s is no Unix socket idlegpu can use: not telling the service manager "
                             "anything", socketName.constData());
        return notifier;
    }
    std::memcpy(socket->address.sun_path, socketName.constData(), size_t(socketName.size()));
    if (abstract)
        socket->address.sun_path[0] = '\0';
    // An abstract name ends where the given bytes end; a path with its NUL.
    socket->addressLength = socklen_t(offsetof(sockaddr_un, sun_path) + size_t(socketName.size()) + (abstract ? 0 : 1));
    socket->fd.reset(::socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0));
    if (!socket->fd.valid()) {
        qCWarning(lcMonitor, "cannot make a socket for NOTIFY_SOCKET=%s: %s", socketName.constData(),
                  std::strerror(errno));
        return notifier;
    }
    notifier.m_socket = std::move(socket);
    notifier.m_socketName = QString::fromLocal8Bit(socketName);

    bool usecOk = false;
    const qulonglong usec = watchdogUsec.toULongLong(&usecOk);
    bool pidOk = false;
    const qlonglong pid = watchdogPid.toLongLong(&pidOk);
    const bool forThisProcess = watchdogPid.isEmpty() || (pidOk && pid == qlonglong(::getpid()));
    if (usecOk && usec > 0 && forThisProcess)
        notifier.m_watchdogTimeout = std::chrono::microseconds(usec);
    else if (!watchdogUsec.isEmpty() && forThisProcess)
        qCWarning(lcMonitor, "WATCHDOG_USEC=%s is no number of microseconds: no watchdog pings",
                  watchdogUsec.constData());
    return notifier;
}

QString ServiceNotifier::describe() const
{
    if (!active())
        return QStringLiteral("no NOTIFY_SOCKET: not telling a service manager when ready, no watchdog");
    if (m_watchdogTimeout.count() == 0)
        return QStringLiteral("telling the service manager through %1 when ready; no watchdog").arg(m_socketName);
    return QStringLiteral("telling the service manager through %1 when ready; watchdog of %2 ms, pinged every %3 ms "
                          "from the monitor's thread")
        .arg(m_socketName)
        .arg(std::chrono::duration_cast<std::chrono::milliseconds>(m_watchdogTimeout).count())
        .arg(std::chrono::duration_cast<std::chrono::milliseconds>(m_watchdogTimeout / 2).count());
}

bool ServiceNotifier::notify(const QByteArray &message) const
{
    if (!m_socket)
        return false;
    // MSG_DONTWAIT: a service manager that does not read must not block the monitor's thread.
    const ssize_t sent = ::sendto(m_socket->fd.get(), message.constData(), size_t(message.size()),
                                  MSG_DONTWAIT | MSG_NOSIGNAL, reinterpret_cast<const sockaddr *>(&m_socket->address),
                                  m_socket->addressLength);
    if (sent == ssize_t(message.size()))
        return true;
    if (!m_socket->warnedUnsent.exchange(true))
        qCWarning(lcMonitor, "cannot tell the service manager %s through %s: %s", message.left(40).constData(),
                  qPrintable(m_socketName), sent < 0 ? std::strerror(errno) : "a partial datagram");
    return false;
}

void ServiceNotifier::ready(const QString &status) const
{
    notify("READY=1\nSTATUS=" + status.toUtf8().replace('\n', ' '));
}

void ServiceNotifier::stopping() const
{
    notify("STOPPING=1\nSTATUS=stopping the workloads");
}

void ServiceNotifier::setStatus(const QString &status) const
{
    notify("STATUS=" + status.toUtf8().replace('\n', ' '));
}

void ServiceNotifier::feedWatchdogFrom(QObject *context) const
{
    if (!m_socket || m_watchdogTimeout.count() == 0)
        return;
    const auto period = std::max(std::chrono::milliseconds(1),
                                 std::chrono::duration_cast<std::chrono::milliseconds>(m_watchdogTimeout / 2));
    // Made on the context's thread (directly when that is this thread), so that it fires only while that thread's
    // event loop runs.
    QMetaObject::invokeMethod(context, [notifier = *this, context, period] {
        auto *timer = new QTimer(context);
        QObject::connect(timer, &QTimer::timeout, timer, [notifier] { notifier.notify("WATCHDOG=1"); });
        timer->start(period);
        notifier.notify("WATCHDOG=1");
    });
}
