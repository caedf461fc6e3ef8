// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// Shared by the tests of the tray and its windows: the helpers that need Qt Widgets, which testsupport.h does without.
#include <QString>
#include <QVariant>

class QAction;
class QMenu;

namespace TestSupport {

// Returns the action of `menu` with this object name (and, where `data` is valid, this data, such as the workload a
// "pauseWorkload" entry is for); null when the menu has none.
QAction *findAction(const QMenu *menu, const QString &objectName, const QVariant &data = QVariant());

} // namespace TestSupport
