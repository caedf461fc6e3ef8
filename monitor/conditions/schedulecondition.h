// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The condition of the time of the week ([schedule]): Snapshot::localTime and HoldReason::OutsideSchedule. While
// [schedule] limits the hours, a timer on the wall clock rings at the schedule's next change and when the clock is
// set, so that a change passed during a suspend or across a clock step is decided at once.
#include "base/clock.h"
#include "conditions/condition.h"
#include "config/schedule.h"

#include <memory>

class QSocketNotifier;

class ScheduleCondition : public Condition
{
    Q_OBJECT
public:
    explicit ScheduleCondition(const Clock *clock);
    ~ScheduleCondition() override;

    HoldReason reason() const override { return HoldReason::OutsideSchedule; }
    void configure(const Config &config) override;
    void readOnce(const Config &) override {}
    void fill(const Config &config, Snapshot &snapshot) const override;

    // Returns the milliseconds until the wall-clock timer rings, or -1 while it is off (tests).
    qint64 msUntilRing() const;

private:
    void arm();
    void ring();

    const Clock *m_clock;
    Schedule m_schedule;
    int m_timerFd = -1; // a timerfd on CLOCK_REALTIME, while the schedule limits the hours
    std::unique_ptr<QSocketNotifier> m_notifier;
};
