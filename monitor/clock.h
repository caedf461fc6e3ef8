#pragma once
#include <QtGlobal>

// Monotonic milliseconds, injected so that the policy and the monitor can be tested against a fake clock.
class Clock
{
public:
    virtual ~Clock() = default;
    virtual qint64 nowMs() const = 0;
};

class SystemClock final : public Clock
{
public:
    qint64 nowMs() const override;
    static SystemClock *instance();
};

// A clock that tests advance by hand.
class FakeClock final : public Clock
{
public:
    explicit FakeClock(qint64 startMs = 1'000'000) : m_nowMs(startMs) {}
    qint64 nowMs() const override { return m_nowMs; }
    void advance(qint64 ms) { m_nowMs += ms; }
    void set(qint64 ms) { m_nowMs = ms; }

private:
    qint64 m_nowMs;
};
