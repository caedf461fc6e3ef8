// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
#include <QString>

// Returns a name that another user chose (a process's comm, a login, a Slurm job name) in a form that is safe to print
// in a log line, on a terminal and in a window: control characters and backslashes escaped. Every such name passes
// through it where it is read, so no printer has to remember it.
QString printableName(const QString &name);

// Returns whether `name` holds nothing that printableName() would escape except backslashes, that is, whether it
// has been through printableName() already.
bool isPrintableName(const QString &name);
