// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The reader of one /proc/<pid>/stat, for whoever needs a process's parent, session, state or start time: the
// monitor, the runner's sweep of a killed reaper's processes, and idlegpu-reaper itself, for which it is plain POSIX
// without Qt.
#include "holders/procparse.h"

// Reads <procRoot>/<pid>/stat in one read and parses it (parseProcStat). Returns false when the process is gone or
// the text is not a stat line. With `comm` (commSize bytes), it also copies the program name, NUL-terminated and cut
// to fit.
bool readProcStat(const char *procRoot, long pid, ProcStat *stat, char *comm = nullptr, int commSize = 0);
