// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The functions that find and open root's runtime folder, which holds a root idlegpu's lock and its heartbeat for
// Slurm: the first folder of $RUNTIME_DIRECTORY, else /run/idlegpu.
#include "config/securefile.h"

QString rootRuntimeFolderPath();
// Opens root's runtime folder when it and every folder above it are trusted; with `create` it is made, or narrowed,
// to 0700.
SecureFile::Opened openRootRuntimeFolder(bool create);
