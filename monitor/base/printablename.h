// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
#include <QString>

// A name another user chose (a process's comm, exe, argv[0], a login or Slurm job name), made safe to print in a
// log line, on a terminal (--status) and in a window: control characters become visible escapes ("\n", "\t",
// "\x1b", "\u202e" for a format character such as a bidi override) and a backslash becomes "\\", so that a name
// cannot forge a line or a colour and each escape reads one way only. Every such name passes through this where it
// is read, so that no printer has to remember it; an ordinary name comes back unchanged.
QString printableName(const QString &name);

// Whether `name` holds nothing printableName() would escape but backslashes: a name that went through it already.
bool isPrintableName(const QString &name);
