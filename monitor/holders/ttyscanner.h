// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
#include "model/snapshot.h"

// Lists the pseudo-terminals under ptsRoot (/dev/pts) with their owner and idle time (now minus atime), as gpu_mon's
// [tty] check does; `ptmx` is skipped. `wallNowMs` is in milliseconds since the epoch.
QList<TtySession> scanTtys(const QString &ptsRoot, qint64 wallNowMs);
