// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "conditions/schedulecondition.h"

#include "base/logging.h"

#include <QSocketNotifier>

#include <cerrno>
#include <cstring>
#include <algorithm>
#include <ctime>
#include <limits>
#include <sys/timerfd.h>
#include <unistd.h>

// The decision's own wake (Decision::nextWakeMs) runs on the monotonic clock, which stands still while the machine
// sleeps and ignores a step of the wall clock: after a night's suspend it would still wait out the hours it slept.
// A timerfd on CLOCK_REALTIME with an absolute deadline rings as the machine wakes past the deadline, and
// TFD_TIMER_CANCEL_ON_SET makes it ring (ECANCELED) when the wall clock is set (NTP's step at boot, a user's date).

ScheduleCondition::ScheduleCondition(const Clock *clock) : m_clock(clock) {}

ScheduleCondition::~ScheduleCondition()
{
    m_notifier.reset();
    if (m_timerFd >= 0)
        ::close(m_timerFd);
}

void ScheduleCondition::configure(const Config &config)
{
    m_schedule = config.schedule;
    if (m_schedule.always()) {
        m_notifier.reset();
        if (m_timerFd >= 0)
            ::close(m_timerFd);
        m_timerFd = -1;
        return;
    }
    if (m_timerFd < 0) {
        m_timerFd = ::timerfd_create(CLOCK_REALTIME, TFD_NONBLOCK | TFD_CLOEXEC);
        if (m_timerFd < 0) {
            qCWarning(lcScan, "cannot watch the wall clock for [schedule] (%s): its changes are seen at the next "
                              "scan", std::strerror(errno));
            return;
        }
        m_notifier = std::make_unique<QSocketNotifier>(m_timerFd, QSocketNotifier::Read);
        connect(m_notifier.get(), &QSocketNotifier::activated, this, &ScheduleCondition::ring);
    }
    arm();
}

void ScheduleCondition::fill(const Config &, Snapshot &snapshot) const
{
    snapshot.localTime = m_clock->localNow();
}

void ScheduleCondition::arm()
{
    const std::optional<qint64> ms = m_schedule.msUntilChange(WeekTime::of(m_clock->localNow()));
    itimerspec spec{};
    if (ms) {
        // The deadline in CLOCK_REALTIME's terms: now on that clock plus the schedule's wait on the monitor's clock
        // (the same wall clock, but a test's fake clock may show another hour).
        timespec now{};
        ::clock_gettime(CLOCK_REALTIME, &now);
        const qint64 deadlineNs = qint64(now.tv_sec) * 1'000'000'000 + now.tv_nsec + std::max<qint64>(*ms, 1) * 1'000'000;
        spec.it_value.tv_sec = time_t(deadlineNs / 1'000'000'000);
        spec.it_value.tv_nsec = long(deadlineNs % 1'000'000'000);
    } else {
        // A schedule that never changes (every hour allowed or none): only a step of the clock can matter.
        spec.it_value.tv_sec = std::numeric_limits<time_t>::max() / 2;
    }
    if (::timerfd_settime(m_timerFd, TFD_TIMER_ABSTIME | TFD_TIMER_CANCEL_ON_SET, &spec, nullptr) != 0)
        qCWarning(lcScan, "cannot set the wall-clock timer for [schedule] (%s)", std::strerror(errno));
}

void ScheduleCondition::ring()
{
    quint64 expirations = 0;
    // ECANCELED: the wall clock was set. EAGAIN: nothing to read (a spurious wake-up).
    if (::read(m_timerFd, &expirations, sizeof expirations) < 0 && errno == EAGAIN)
        return;
    arm();
    Q_EMIT changed(Rescan::Now);
}

qint64 ScheduleCondition::msUntilRing() const
{
    if (m_timerFd < 0)
        return -1;
    itimerspec spec{};
    if (::timerfd_gettime(m_timerFd, &spec) != 0)
        return -1;
    return qint64(spec.it_value.tv_sec) * 1000 + spec.it_value.tv_nsec / 1'000'000;
}
