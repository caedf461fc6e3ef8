// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
#include <QDateTime>
#include <QtGlobal>

// The source of time for the policy and the monitor: monotonic milliseconds for every delay, and the local wall
// time for [schedule]. It is injected so that tests can run against a FakeClock.
class Clock
{
public:
    virtual ~Clock() = default;
    virtual qint64 nowMs() const = 0;
    virtual QDateTime localNow() const = 0;
};

// The real clock: CLOCK_MONOTONIC and the system's local time. One instance serves the whole process.
class SystemClock final : public Clock
{
public:
    qint64 nowMs() const override;
    QDateTime localNow() const override { return QDateTime::currentDateTime(); }
    static SystemClock *instance();
};

// The CLOCK_MONOTONIC time in nanoseconds, for figures finer than a millisecond (such as the time from a foreign
// open to the stop). It is not injected because it measures idlegpu itself, not the world that a Clock stands for.
qint64 monotonicNowNs();
// The monotonicNowNs() value of a process's start time, given in clock ticks after boot (suspend included) as
// /proc/<pid>/stat has it. Returns 0 for 0, which means unknown.
qint64 monotonicNsOfBootTicks(unsigned long long ticks);

// A clock that tests advance by hand. Its wall time moves with its monotonic time from a settable start, by
// default Monday 2026-01-05 12:00 local time.
class FakeClock final : public Clock
{
public:
    explicit FakeClock(qint64 startMs = 1'000'000)
        : m_nowMs(startMs), m_anchorMs(startMs), m_anchorLocal(QDate(2026, 1, 5), QTime(12, 0))
    {
    }
    qint64 nowMs() const override { return m_nowMs; }
    QDateTime localNow() const override { return m_anchorLocal.addMSecs(m_nowMs - m_anchorMs); }
    void advance(qint64 ms) { m_nowMs += ms; }
    void set(qint64 ms) { m_nowMs = ms; }
    // Sets the wall time that the clock shows now; the wall time moves on from there.
    void setLocalNow(const QDateTime &local)
    {
        m_anchorMs = m_nowMs;
        m_anchorLocal = local;
    }

private:
    qint64 m_nowMs;
    qint64 m_anchorMs;
    QDateTime m_anchorLocal;
};
