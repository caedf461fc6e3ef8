// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// libFuzzer target: [schedule] run = RULES on arbitrary text, and what a parsed schedule promises: toString() reads
// back as the same schedule, and msUntilChange() names the first minute whose answer differs.
#include "config/schedule.h"
#include "fuzzsupport.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    silenceQtMessages();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size < 2)
        return 0;
    // The first two bytes choose a moment of the week; the rest is the text.
    const int start = (data[0] << 8 | data[1]) % WeekTime::kMinutesPerWeek;
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data + 2), qsizetype(size - 2));
    QString message;
    const std::optional<Schedule> schedule = Schedule::parse(text, &message);
    if (!schedule) {
        if (message.isEmpty())
            std::abort(); // a refusal must say why
        return 0;
    }
    const std::optional<Schedule> reread = Schedule::parse(schedule->toString(), &message);
    if (!reread)
        std::abort();
    for (int minute = 0; minute < WeekTime::kMinutesPerWeek; minute += 7)
        if (reread->allowsAt({minute, 0}) != schedule->allowsAt({minute, 0}))
            std::abort();
    const WeekTime now{start, 0};
    const bool allowed = schedule->allowsAt(now);
    const std::optional<qint64> ms = schedule->msUntilChange(now);
    if (!ms)
        return 0;
    if (*ms <= 0 || *ms % 60'000 != 0 || *ms > qint64(WeekTime::kMinutesPerWeek) * 60'000)
        std::abort();
    const int ahead = int(*ms / 60'000);
    for (int step = 1; step < ahead; ++step)
        if (schedule->allowsAt({(start + step) % WeekTime::kMinutesPerWeek, 0}) != allowed)
            std::abort();
    if (schedule->allowsAt({(start + ahead) % WeekTime::kMinutesPerWeek, 0}) == allowed)
        std::abort();
    return 0;
}
