// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// Turns SIGTERM, SIGINT and SIGHUP into Qt signals through a signalfd read by a QSocketNotifier, so that
// handling them runs in the event loop (no work in a signal handler).
#include <QObject>

class QSocketNotifier;

// The watcher that turns SIGTERM, SIGINT and SIGHUP into Qt signals.
class UnixSignalWatcher : public QObject
{
    Q_OBJECT
public:
    // Blocks SIGTERM, SIGINT and SIGHUP in the calling thread. Call it first in main(), before any thread
    // exists, so that every thread inherits the mask and the signals wait for the signalfd.
    static bool blockHandledSignals();

    // Needs the application object (for its QSocketNotifier); it blocks the signals too if that is not done yet.
    explicit UnixSignalWatcher(QObject *parent = nullptr);
    ~UnixSignalWatcher() override;

Q_SIGNALS:
    void terminateRequested(int signal); // SIGTERM or SIGINT
    void reloadRequested();              // SIGHUP

private:
    void readSignals();
    int m_fd = -1;
    QSocketNotifier *m_notifier = nullptr;
};
