// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The monitor's state as JSON: what `idlegpu --status --json` prints and what the D-Bus service's GetState answers
// (docs/dbus.md). One place says which key holds what.
#include "model/monitorstate.h"

#include <QJsonObject>

namespace StateJson {

// Returns the state as JSON, every field included.
QJsonObject toJson(const MonitorState &state);

} // namespace StateJson
