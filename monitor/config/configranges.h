// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The numbers a config may hold, defined once: ConfigLoader refuses a value outside them and the settings
// dialog explains the same bounds before saving.
#include <QString>
#include <QtGlobal>

#include <optional>

struct ConfigRange
{
    qint64 min;
    qint64 max;

    constexpr bool contains(qint64 value) const { return value >= min && value <= max; }
};

namespace ConfigRanges {
inline constexpr ConfigRange intervalSeconds{1, 3600};        // [defaults] interval_seconds
inline constexpr ConfigRange startDelaySeconds{0, 86400};     // [defaults] start_delay_seconds
inline constexpr ConfigRange stopTimeoutSeconds{1, 3600};     // [process-*] stop_timeout_seconds
inline constexpr ConfigRange commandTimeoutSeconds{1, 3600};  // [process-*] command_timeout_seconds
inline constexpr ConfigRange ttyIdleSeconds{0, 31536000};     // [tty] idle_seconds: up to a year
inline constexpr ConfigRange busyMemoryMib{1, 16 * 1024 * 1024}; // [gpu-*] busy_memory_mib: 16 TiB, beyond any GPU
inline constexpr ConfigRange graphicsBusyPercent{1, 100};     // [gpu-*] graphics_busy_percent
inline constexpr ConfigRange activityIdleSeconds{0, 31536000}; // [activity] idle_seconds: up to a year
inline constexpr ConfigRange maxTemperatureC{0, 150};         // [defaults] max_temperature_c; 0: off
} // namespace ConfigRanges

// Python's int() on a config value: white space around, an optional sign, ASCII digits. Values too large for
// an int come back as a number beyond every range above.
std::optional<qint64> parseWholeNumber(const QString &text);
