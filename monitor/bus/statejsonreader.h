// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The service's state as its clients read it back: the JSON of GetState (docs/dbus.md, the --status --json report)
// turned into the MonitorState that the tray, the status window and the notifier show, the ledger's dashboard
// included. What the JSON does not carry (the policy's memory, a holder's ancestry) stays default; a key that is
// missing or of the wrong type leaves its field default too, since a newer service may add keys and an older one lack
// some, and a list longer than a service sends is cut there.
#include "model/monitorstate.h"

#include <QDateTime>
#include <QJsonObject>

namespace StateJson {

// Returns the state that `json` describes. Reads no file and trusts nothing: every value is checked for its type.
// The JSON gives past and future moments in wall time ("since", "retry_at"); they come back on the reader's monotonic
// clock by `monotonicNowMs` and `wallNow`, the same moment on both (left 0 without a `wallNow`).
MonitorState fromJson(const QJsonObject &json, qint64 monotonicNowMs = 0, const QDateTime &wallNow = QDateTime());

} // namespace StateJson
