// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// root's runtime folder, where a root idlegpu keeps its lock (app/singleinstance) and, in Slurm mode, its heartbeat
// for Slurm's prolog and health check (slurm/guardfile): systemd's RuntimeDirectory=idlegpu ($RUNTIME_DIRECTORY, the
// first of its folders), else /run/idlegpu. Those helpers run with slurmd's environment, which has no
// RUNTIME_DIRECTORY: both ways name /run/idlegpu under the package's unit.
#include "config/securefile.h"

QString rootRuntimeFolderPath();
// Opens it when it and every folder above it are root's and writable by nobody else (SecureFile::openTrustedFolder).
// /run/idlegpu is root's alone, 0700: made so with `create` where missing, narrowed to it where an older idlegpu
// left it wider. Slurm's prolog and health check, which read the heartbeat there, run as root.
SecureFile::Opened openRootRuntimeFolder(bool create);
