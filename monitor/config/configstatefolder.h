// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The functions that find and make the folder where one configuration's state lives (its pause, its ledger, the
// tray's log): two configurations never share a pause or a history. The configuration that idlegpuStateFolder()
// belongs to keeps that folder itself, as before; any other gets <idlegpuStateFolder()>/configs/<id>/, where <id> is
// a stable hash of the configuration's canonical path and the file config-path in it names that path.
#include "config/securefile.h"

#include <QString>

namespace ConfigStateFolder {

// The configuration that owns idlegpuStateFolder() itself: for root the system unit's /etc/idlegpu/idlegpu.conf (the
// folder is the unit's StateDirectory, /var/lib/idlegpu), for another user the default one (ConfigLoader::locate).
QString homeConfigPath();

// The configuration's path as the state is keyed: links resolved, or the clean absolute path where it does not exist.
QString canonicalConfigPath(const QString &configPath);

// The first 16 hex digits of the SHA-256 of the canonical path.
QString configId(const QString &configPath);

// Where the state of the configuration `configPath` lives; nothing is made or opened.
QString pathFor(const QString &configPath);

// Makes the folder of `configPath` (0700, its parents as the state folder's) and opens it. A per-config folder and its
// configs/ parent are made and entered with mkdirat and O_NOFOLLOW in a folder that is already trusted, and used only
// when they are folders of idlegpu's user that nobody else can write: a link, a file or another user's folder in their
// place is refused, never followed or changed. Writes config-path in a per-config folder.
SecureFile::Opened prepare(const QString &configPath);

} // namespace ConfigStateFolder
