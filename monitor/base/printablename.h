// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
#include <QString>

// Returns a name that another user chose (a process's comm, exe or argv[0], a login, a Slurm job name) in a form
// that is safe to print in a log line, on a terminal and in a window. Control characters become visible escapes
// ("\n", "\t", "\x1b", and "\u202e" for a format character such as a bidi override) and a backslash becomes "\\",
// so a name cannot forge a line or a colour and each escape reads one way only. Every such name passes through
// this function where it is read, so no printer has to remember it; an ordinary name comes back unchanged.
QString printableName(const QString &name);

// Returns whether `name` holds nothing that printableName() would escape except backslashes, that is, whether it
// has been through printableName() already.
bool isPrintableName(const QString &name);
