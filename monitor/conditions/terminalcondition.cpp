// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "conditions/terminalcondition.h"

#include "holders/ttyscanner.h"

#include <QDateTime>

TerminalCondition::TerminalCondition(const QString &ptsRoot) : m_ptsRoot(ptsRoot) {}

void TerminalCondition::fill(const Config &config, Snapshot &snapshot) const
{
    if (config.tty.enabled)
        snapshot.ttys = scanTtys(m_ptsRoot, QDateTime::currentMSecsSinceEpoch());
}
