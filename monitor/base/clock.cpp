// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "base/clock.h"

#include <time.h>
#include <unistd.h>

qint64 SystemClock::nowMs() const
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return qint64(ts.tv_sec) * 1000 + ts.tv_nsec / 1'000'000;
}

qint64 monotonicNowNs()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return qint64(ts.tv_sec) * 1'000'000'000 + ts.tv_nsec;
}

qint64 monotonicNsOfBootTicks(unsigned long long ticks)
{
    static const long ticksPerSecond = ::sysconf(_SC_CLK_TCK);
    if (ticks == 0 || ticksPerSecond <= 0)
        return 0;
    timespec boot{};
    clock_gettime(CLOCK_BOOTTIME, &boot);
    const qint64 sleptNs = qint64(boot.tv_sec) * 1'000'000'000 + boot.tv_nsec - monotonicNowNs();
    const qint64 seconds = qint64(ticks / ticksPerSecond);
    const qint64 restNs = qint64(ticks % ticksPerSecond) * 1'000'000'000 / ticksPerSecond;
    return seconds * 1'000'000'000 + restNs - sleptNs;
}

SystemClock *SystemClock::instance()
{
    static SystemClock clock;
    return &clock;
}
