// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
#include <QDir>
#include <QString>

// $XDG_STATE_HOME/idlegpu (by default ~/.local/state/idlegpu): the user's private state, what idlegpu keeps across
// restarts (the pause, the ledger, the tray's log). Qt 6.4 has no QStandardPaths::StateLocation.
inline QString idlegpuStateFolder()
{
    QString stateHome = qEnvironmentVariable("XDG_STATE_HOME");
    if (stateHome.isEmpty() || !QDir::isAbsolutePath(stateHome))
        stateHome = QDir::homePath() + QStringLiteral("/.local/state");
    return stateHome + QStringLiteral("/idlegpu");
}
