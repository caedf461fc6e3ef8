// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The desktop's own idle time for [activity] pause_while_active, asked on the session bus from the GUI thread and
// handed to the monitor (MonitorHost::setDesktopIdle), which combines it with logind's word (conditions/presence.h).
// KDE never sets logind's IdleHint and GNOME sets it only after its own idle delay: the desktop knows the last input.
#include "base/clock.h"
#include "conditions/presence.h"

#include <QObject>

#include <functional>

class QDBusMessage;
class QTimer;

class DesktopIdlePoller : public QObject
{
    Q_OBJECT
public:
    explicit DesktopIdlePoller(const Clock *clock = SystemClock::instance(), QObject *parent = nullptr);
    ~DesktopIdlePoller() override;

    // Turns polling on (at once, then every kPollMs) while pause_while_active is set. Turned off, it asks nothing and
    // reports once that no source answers, so that an old answer does not linger.
    void setEnabled(bool enabled);
    bool isEnabled() const;

    static constexpr int kPollMs = 5000;
    static constexpr int kCallTimeoutMs = 1000;

public Q_SLOTS:
    void poll();

Q_SIGNALS:
    // Emitted after each poll; report.answered is false when no source answers.
    void reported(const DesktopIdleReport &report);

private:
    enum class Source { Gnome, Kde, X11, None };
    void ask(Source source);
    void askGnome();
    void askKde();
    void askKdeLock(qint64 idleMs);
    void askX11();
    void answer(Source source, qint64 idleMs, bool locked);
    void failed(Source source);
    void asyncCall(const QDBusMessage &call, std::function<void(const QDBusMessage &)> onReply);

    const Clock *m_clock;
    QTimer *m_timer;
    Source m_source = Source::Gnome; // where the next poll starts
    Source m_answering = Source::None; // the last poll's, for the log
    bool m_inFlight = false;
    quint64 m_generation = 0; // answers to a poll made before setEnabled(false) are dropped
};
