// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// Reads one /proc/<pid>/stat for whoever needs a process's parent, session, state or start time: the monitor, the
// runner's sweep of a killed reaper's processes, and idlegpu-reaper itself. Plain POSIX, no Qt, for the reaper.
#include "holders/procparse.h"

// Reads <procRoot>/<pid>/stat in one read and parses it (parseProcStat). False when the process is gone or the text
// is no such line. With `comm` (commSize bytes), also its program name, NUL-terminated, cut to fit.
bool readProcStat(const char *procRoot, long pid, ProcStat *stat, char *comm = nullptr, int commSize = 0);
