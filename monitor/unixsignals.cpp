// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "unixsignals.h"

#include "base/logging.h"

#include <QSocketNotifier>

#include <errno.h>
#include <signal.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

static sigset_t handledSignals()
{
    sigset_t mask;
    sigemptyset(&mask);
    sigaddset(&mask, SIGTERM);
    sigaddset(&mask, SIGINT);
    sigaddset(&mask, SIGHUP);
    return mask;
}

bool UnixSignalWatcher::blockHandledSignals()
{
    // A signal blocked in every thread stays pending for the signalfd instead of killing the process.
    const sigset_t mask = handledSignals();
    return pthread_sigmask(SIG_BLOCK, &mask, nullptr) == 0;
}

UnixSignalWatcher::UnixSignalWatcher(QObject *parent) : QObject(parent)
{
    if (!blockHandledSignals()) {
        qCWarning(lcMonitor, "cannot block SIGTERM/SIGINT/SIGHUP: %s", strerror(errno));
        return;
    }
    const sigset_t mask = handledSignals();
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
