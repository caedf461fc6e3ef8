// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// Durations as people type them on a command line (`idlegpu --pause --for 2h30m`): pure, no I/O.
#include <QString>
#include <QtGlobal>

#include <optional>

// Returns the seconds of `text`: numbers each followed by a unit, d(ays), h(ours), m(inutes) or s(econds), the units
// largest first and each at most once: "90s", "30m", "1h", "2h30m", "1d", "1d12h". Upper case units are taken too.
// Returns nothing for anything else (a bare number, an unknown unit, a zero total, more than 100 years), with `*error`
// set to one sentence that names the value and says what is expected.
std::optional<qint64> parseDuration(const QString &text, QString *error);

// Returns `seconds` in the form parseDuration() reads, largest units first: 9000 → "2h30m", 0 → "0s".
QString formatDuration(qint64 seconds);
