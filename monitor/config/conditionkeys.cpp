// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The rows of the keys that keep workloads from running whatever the GPUs say: the battery, the GPUs' heat, a user at
// a terminal, someone at the computer, the schedule.
#include "config/keyrows.h"

namespace {

constexpr KeyRow batteryRows[] = {
    KeyRows::word<&Config::onBattery>("defaults"),
};

constexpr KeyRow heatRows[] = {
    KeyRows::number<&Config::maxTemperatureC>("defaults", "max_temperature_c", {0, 150}, "degrees Celsius")
        .withZeroMeaning("off"),
};

constexpr KeyRow terminalRows[] = {
    KeyRows::boolean<&Config::tty, &TtyConfig::enabled>("tty", "enabled").alwaysWritten(),
    KeyRows::list<&Config::tty, &TtyConfig::whitelist>("tty", "whitelist"),
    KeyRows::seconds<&Config::tty, &TtyConfig::idleSeconds>("tty", "idle_seconds", {0, 31536000}).alwaysWritten(),
};

constexpr KeyRow activityRows[] = {
    KeyRows::boolean<&Config::activity, &ActivityConfig::pauseWhileActive>("activity", "pause_while_active"),
    KeyRows::seconds<&Config::activity, &ActivityConfig::idleSeconds>("activity", "idle_seconds", {0, 31536000}),
};

void readRun(const KeyRow &row, KeyReading &reading)
{
    const IniDocument::Entry *entry = reading.entry(row);
    if (!entry)
        return;
    QString message;
    if (const std::optional<Schedule> schedule = Schedule::parse(entry->value, &message))
        reading.target().config->schedule = *schedule;
    else
        reading.error(entry->line, QStringLiteral("run: %1").arg(message));
}

QString runText(const KeyRow &, const KeySource &source)
{
    return source.config->schedule.always() ? QString() : source.config->schedule.toString();
}

constexpr KeyRow scheduleRows[] = {
    KeyRows::custom("schedule", "run", readRun, runText).withEmptyText("(always)"),
};

} // namespace

namespace KeyLists {
std::span<const KeyRow> battery()
{
    return batteryRows;
}
std::span<const KeyRow> heat()
{
    return heatRows;
}
std::span<const KeyRow> terminal()
{
    return terminalRows;
}
std::span<const KeyRow> activity()
{
    return activityRows;
}
std::span<const KeyRow> schedule()
{
    return scheduleRows;
}
} // namespace KeyLists
