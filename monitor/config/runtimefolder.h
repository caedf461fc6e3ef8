// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// Returns root's runtime folder, where a root idlegpu keeps its lock (app/singleinstance) and, in Slurm mode, its
// heartbeat for Slurm's prolog and health check (slurm/guardfile). It is the first folder of $RUNTIME_DIRECTORY
// (systemd's RuntimeDirectory=idlegpu), else /run/idlegpu. Those helpers run with slurmd's environment, which has no
// RUNTIME_DIRECTORY; under the package's unit both ways name /run/idlegpu.
#include "config/securefile.h"

QString rootRuntimeFolderPath();
// Opens root's runtime folder when it and every folder above it are root's and writable by nobody else
// (SecureFile::openTrustedFolder). The folder is root's alone, 0700: with `create` it is made so where it is missing,
// and narrowed to 0700 where an older idlegpu left it wider. Slurm's prolog and health check, which read the
// heartbeat there, run as root.
SecureFile::Opened openRootRuntimeFolder(bool create);
