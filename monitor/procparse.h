#pragma once
// Parsers of /proc files, kept pure (text in, fields out) so that tests/fuzz can feed them anything.
#include <QtGlobal>

// The fields of /proc/<pid>/stat that a holder needs.
struct ProcStat
{
    qint64 ppid = 0;
    qint64 pgid = 0;
    qint64 sid = 0;
};

// Parses the NUL-terminated text of /proc/<pid>/stat, "pid (comm) state ppid pgrp session ...". comm may hold
// spaces and ')', so the fields start after the LAST ')'. False when the text is not such a line.
bool parseProcStat(const char *text, ProcStat *stat);
