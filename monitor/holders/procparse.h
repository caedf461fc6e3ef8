// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// Parsers of /proc files, kept pure (text in, fields out) so that tests/fuzz can feed them anything. Plain C++:
// idlegpu-reaper, which has no Qt, uses them too.
#include <cstdint>

// The fields of /proc/<pid>/stat that idlegpu and its reaper need.
struct ProcStat
{
    char state = '?';           // R, S, D, Z, X, T...
    std::int64_t ppid = 0;
    std::int64_t pgid = 0;
    std::int64_t sid = 0;
    unsigned long long startTime = 0; // clock ticks after boot (0 if the line stops early): with the pid, names
                                      // one process for good
};

// Parses the NUL-terminated text of /proc/<pid>/stat, "pid (comm) state ppid pgrp session ... starttime ...".
// comm may hold spaces and ')', so the fields start after the LAST ')'. False when the text is not such a line.
bool parseProcStat(const char *text, ProcStat *stat);

// The comm of a /proc/<pid>/stat line: the text between the first '(' and the last ')'; false when there is none.
// `*begin` and `*length` then point into `text`.
bool procStatComm(const char *text, const char **begin, int *length);

// The value of `key` in the bytes of /proc/<pid>/environ (NUL-separated KEY=VALUE entries, the last one perhaps cut
// short): a pointer into `data` and its length, or nullptr when the key is not there.
const char *environValue(const char *data, int size, const char *key, int *length);
