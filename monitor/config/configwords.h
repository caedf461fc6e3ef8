// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The words of the config: each enum that a key takes, with its key, its default and the word that each value is
// written as. Every stage that reads or shows a word takes it from here, so a new value is one line in its table
// besides what the policy makes of it.
#include <QString>
#include <QStringList>

#include <optional>

// One value of a key and its word as written in the file. `meaning` is what the reader's error message says the
// value does, in parentheses after the word; it is null for a word that needs no explanation.
template<typename Enum>
struct ConfigWord
{
    Enum value;
    const char *word;
    const char *meaning = nullptr;
};

// A key's table, specialised for each enum below: `key`, `words` in the order the reader lists them, and for a key
// that takes one word its `defaultValue` (the key absent).
template<typename Enum>
struct ConfigWords;

// [gpu-*] busy_when: what makes a GPU busy.
enum class BusyWhen {
    // A compute client (it holds nvidia-uvm or /dev/kfd, or a backend lists it computing there) at once, as an open
    // node; a graphics client (anything else: a browser, the compositor) only while a backend measures it using
    // graphics_busy_percent of the GPU or busy_memory_mib of its memory. The default.
    Auto,
    Opened,   // any foreign program opens its device node: the earliest signal, but every browser counts
    Computes, // a foreign program computes on it (a backend lists it as a compute process)
    Memory    // a foreign program uses at least busy_memory_mib of its memory
};
template<>
struct ConfigWords<BusyWhen>
{
    static constexpr const char *key = "busy_when";
    static constexpr BusyWhen defaultValue = BusyWhen::Auto;
    static constexpr ConfigWord<BusyWhen> words[] = {
        {BusyWhen::Auto, "auto", "compute clients make the GPU busy, graphics clients only while they use it much"},
        {BusyWhen::Opened, "opened", "any program that opens the GPU makes it busy"},
        {BusyWhen::Computes, "computes", "one that computes on it"},
        {BusyWhen::Memory, "memory", "one that uses busy_memory_mib of its memory"},
    };
};

// [process-*] priority: how the workload's processes share the CPU with everything else.
enum class WorkloadPriority {
    Idle,  // SCHED_IDLE, nice 19 and the idle I/O class: only CPU time nobody else wants (the default)
    Low,   // nice 10
    Normal // as idlegpu's own
};
template<>
struct ConfigWords<WorkloadPriority>
{
    static constexpr const char *key = "priority";
    static constexpr WorkloadPriority defaultValue = WorkloadPriority::Idle;
    static constexpr ConfigWord<WorkloadPriority> words[] = {
        {WorkloadPriority::Idle, "idle", "CPU time nobody else wants"},
        {WorkloadPriority::Low, "low", "nice 10"},
        {WorkloadPriority::Normal, "normal"},
    };
};

// [defaults] on_battery: what the workloads do while the computer runs on battery.
enum class OnBattery { Pause, Run };
template<>
struct ConfigWords<OnBattery>
{
    static constexpr const char *key = "on_battery";
    static constexpr OnBattery defaultValue = OnBattery::Pause;
    static constexpr ConfigWord<OnBattery> words[] = {
        {OnBattery::Pause, "pause", "stop every workload while the computer runs on battery"},
        {OnBattery::Run, "run"},
    };
};

// [defaults] notify: the kinds of desktop notification that the tray shows (NotifyConfig), as a comma-separated
// list of them, all (the default) or none.
enum class NotifyKind {
    Preemption,  // a workload stopped because someone opened its GPU
    Failure,     // a workload fails again and again
    ConfigError, // an edit of the config file that cannot be used
};
template<>
struct ConfigWords<NotifyKind>
{
    static constexpr const char *key = "notify";
    static constexpr const char *all = "all";
    static constexpr const char *none = "none";
    static constexpr ConfigWord<NotifyKind> words[] = {
        {NotifyKind::Preemption, "preemption"},
        {NotifyKind::Failure, "failure"},
        {NotifyKind::ConfigError, "config"},
    };
};

// [defaults] vendors: the makers whose GPUs idlegpu manages, as a comma-separated list of them or auto (the
// default). --status names a GPU's maker with it too.
enum class GpuVendor { Nvidia, Amd, Intel };
template<>
struct ConfigWords<GpuVendor>
{
    static constexpr const char *key = "vendors";
    static constexpr const char *automatic = "auto";
    static constexpr ConfigWord<GpuVendor> words[] = {
        {GpuVendor::Nvidia, "nvidia"},
        {GpuVendor::Amd, "amd"},
        {GpuVendor::Intel, "intel"},
    };
};

// Returns the key that an enum is the value of (busy_when for BusyWhen).
template<typename Enum>
QString configKey()
{
    return QLatin1String(ConfigWords<Enum>::key);
}

// Returns the value's word as the file writes it (computes for BusyWhen::Computes).
template<typename Enum>
QString configWord(Enum value)
{
    for (const ConfigWord<Enum> &entry : ConfigWords<Enum>::words)
        if (entry.value == value)
            return QLatin1String(entry.word);
    return QString();
}

// Returns the value that a word stands for, as the reader takes it (any case, white space around); nullopt when it is
// no word of the key.
template<typename Enum>
std::optional<Enum> configValue(const QString &text)
{
    const QString word = text.trimmed().toLower();
    for (const ConfigWord<Enum> &entry : ConfigWords<Enum>::words)
        if (word == QLatin1String(entry.word))
            return entry.value;
    return std::nullopt;
}

// Returns every word of the key in the table's order, for messages: "nvidia, amd, intel".
template<typename Enum>
QString configWordList()
{
    QStringList words;
    for (const ConfigWord<Enum> &entry : ConfigWords<Enum>::words)
        words.append(QLatin1String(entry.word));
    return words.join(QStringLiteral(", "));
}
