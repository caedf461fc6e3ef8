// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The reader of one /proc/<pid>/stat, for a process's parent, session, state or start time. It is plain POSIX, for
// idlegpu-reaper's sake.
#include "holders/procparse.h"

// Reads <procRoot>/<pid>/stat in one read and parses it; false when the process is gone or the text is no stat line.
// With `comm` (commSize bytes), it also copies the program name, NUL-terminated and cut to fit.
bool readProcStat(const char *procRoot, long pid, ProcStat *stat, char *comm = nullptr, int commSize = 0);
