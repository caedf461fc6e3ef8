#include "unixsignals.h"

#include "logging.h"

#include <QSocketNotifier>

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

UnixSignalWatcher::UnixSignalWatcher(QObject *parent) : QObject(parent)
{
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGINT);
    sigaddset(&mask, SIGHUP);
    // Blocked in this thread; Qt's threads are created later by the callers (or inherit it) in practice, and a
    // signal blocked in every thread is queued for the signalfd.
    if (pthread_sigmask(SIG_BLOCK, &mask, nullptr) != 0) {
        qCWarning(lcMonitor, "cannot block SIGTERM/SIGINT/SIGHUP: %s", strerror(errno));
        return;
    }
    m_fd = signalfd(-1, &mask, SFD_NONBLOCK | SFD_CLOEXEC);
    if (m_fd < 0) {
        qCWarning(lcMonitor, "signalfd failed: %s", strerror(errno));
        return;
    }
    m_notifier = new QSocketNotifier(m_fd, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &UnixSignalWatcher::readSignals);
}

UnixSignalWatcher::~UnixSignalWatcher()
{
    if (m_fd >= 0)
        ::close(m_fd);
}

void UnixSignalWatcher::readSignals()
{
    signalfd_siginfo info{};
    while (::read(m_fd, &info, sizeof info) == ssize_t(sizeof info)) {
        if (info.ssi_signo == SIGHUP)
            Q_EMIT reloadRequested();
        else
            Q_EMIT terminateRequested(int(info.ssi_signo));
    }
}
