// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "holders/procparse.h"

#include <cerrno>
#include <cstdlib>
#include <cstring>

bool parseProcStat(const char *text, ProcStat *stat)
{
    const char *close = std::strrchr(text, ')');
    if (!close)
        return false;
    const char *cursor = close + 1;
    while (*cursor == ' ')
        ++cursor;
    if (!*cursor || *cursor == ' ')
        return false;
    const char state = *cursor++;
    // After the state: ppid pgrp session (required), then 16 fields up to starttime (field 22 of the line),
    // which a short line (a fake /proc in tests) may lack: startTime then stays 0.
    constexpr int kRequired = 3;
    constexpr int kFieldsToStartTime = 19;
    long long values[kFieldsToStartTime] = {};
    int parsed = 0;
    for (long long &value : values) {
        char *after = nullptr;
        errno = 0;
        value = std::strtoll(cursor, &after, 10);
        if (after == cursor || errno != 0)
            break;
        cursor = after;
        ++parsed;
    }
    if (parsed < kRequired)
        return false;
    stat->state = state;
    stat->ppid = values[0];
    stat->pgid = values[1];
    stat->sid = values[2];
    stat->startTime = parsed == kFieldsToStartTime ? static_cast<unsigned long long>(values[kFieldsToStartTime - 1]) : 0;
    return true;
}

bool procStatComm(const char *text, const char **begin, int *length)
{
    const char *open = std::strchr(text, '(');
    const char *close = std::strrchr(text, ')');
    if (!open || !close || close < open)
        return false;
    *begin = open + 1;
    *length = int(close - open - 1);
    return true;
}

const char *environValue(const char *data, int size, const char *key, int *length)
{
    const int keyLength = int(std::strlen(key));
    int start = 0;
    while (start < size) {
        const void *nul = std::memchr(data + start, '\0', size_t(size - start));
        const int end = nul ? int(static_cast<const char *>(nul) - data) : size;
        if (end - start > keyLength && std::memcmp(data + start, key, size_t(keyLength)) == 0
            && data[start + keyLength] == '=') {
            *length = end - start - keyLength - 1;
            return data + start + keyLength + 1;
        }
        start = end + 1;
    }
    return nullptr;
}
