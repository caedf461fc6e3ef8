// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
#include <QDir>
#include <QString>

#include <unistd.h>

// Returns the folder, private to the user, where idlegpu keeps its state across restarts (the pause, the ledger,
// the tray's log): the default configuration's; another configuration's is a folder below it
// (config/configstatefolder.h). It is the first of these:
//  - the first folder of $STATE_DIRECTORY, which systemd sets for a unit with StateDirectory=idlegpu
//    (/var/lib/idlegpu for the system service, ~/.local/state/idlegpu for a user's);
//  - $XDG_STATE_HOME/idlegpu;
//  - /var/lib/idlegpu for root (a service under supervisord), else ~/.local/state/idlegpu.
// Qt 6.4 has no QStandardPaths::StateLocation.
inline QString idlegpuStateFolder()
{
    const QString systemdState = qEnvironmentVariable("STATE_DIRECTORY").section(QLatin1Char(':'), 0, 0);
    if (QDir::isAbsolutePath(systemdState))
        return QDir::cleanPath(systemdState);
    const QString stateHome = qEnvironmentVariable("XDG_STATE_HOME");
    if (QDir::isAbsolutePath(stateHome))
        return stateHome + QStringLiteral("/idlegpu");
    if (::geteuid() == 0)
        return QStringLiteral("/var/lib/idlegpu");
    return QDir::homePath() + QStringLiteral("/.local/state/idlegpu");
}
