// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The parsers of /proc files, kept pure (text in, fields out) so that tests/fuzz can feed them anything. They are
// plain C++ because idlegpu-reaper, which has no Qt, uses them too.
#include <cstdint>

// The fields of /proc/<pid>/stat that idlegpu and its reaper need.
struct ProcStat
{
    char state = '?';           // R, S, D, Z, X, T...
    std::int64_t ppid = 0;
    std::int64_t pgid = 0;
    std::int64_t sid = 0;
    unsigned long long startTime = 0; // clock ticks after boot (0 if the line stops early); with the pid, it
                                      // names one process for good
};

// Parses the NUL-terminated text of /proc/<pid>/stat, "pid (comm) state ppid pgrp session ... starttime ...".
// comm may hold spaces and ')', so the fields start after the LAST ')'. Returns false for any other text.
bool parseProcStat(const char *text, ProcStat *stat);

// Finds the comm of a /proc/<pid>/stat line, the text between the first '(' and the last ')', and points `*begin`
// and `*length` into `text`. Returns false when there is none.
bool procStatComm(const char *text, const char **begin, int *length);

// Returns the value of `key` in the bytes of /proc/<pid>/environ (NUL-separated KEY=VALUE entries, the last one
// perhaps cut short) as a pointer into `data` with *length, or nullptr when the key is not there.
const char *environValue(const char *data, int size, const char *key, int *length);
