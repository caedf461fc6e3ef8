// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "widgettestsupport.h"

#include <QAction>
#include <QMenu>

namespace TestSupport {

QAction *findAction(const QMenu *menu, const QString &objectName, const QVariant &data)
{
    const QList<QAction *> actions = menu->actions();
    for (QAction *action : actions)
        if (action->objectName() == objectName && (!data.isValid() || action->data() == data))
            return action;
    return nullptr;
}

} // namespace TestSupport
