// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The store that keeps the user's pause across restarts, in a private file (mode 0600) in QSettings' IniFormat
// (QSettings reads it; it is written whole with SecureFile::replaceFileAt, which keeps the old file when a write
// fails):
//
//   [pause]
//   all=true
//   until=2026-11-05T15:02:00.000Z     ; wall clock, UTC; absent: until resumed by hand
//   workloads=process-miner, process-boinc   ; percent-encoded ids
//
// Files written before QSettings kept it ("workloads=a,b", no spaces) read the same.
// The monitor counts in monotonic ms, which mean nothing after a reboot; the file holds wall-clock time and
// converts with a "now" given on both clocks.
#include "policy/policy.h"

#include <QDateTime>
#include <QString>

class PauseStore
{
public:
    // $XDG_STATE_HOME/idlegpu/state.ini (default ~/.local/state/idlegpu/state.ini).
    static QString defaultPath();

    explicit PauseStore(const QString &filePath = defaultPath());

    // The stored pause; a pause whose time has passed comes back as not paused. A missing, unreadable or
    // garbled file gives no pause (a garbled one is logged).
    PauseState load(qint64 nowMs, const QDateTime &wallNow) const;
    // Writes atomically, creating the folder (0700) and the file (0600). False with errorString() on failure (a
    // folder others can change, a full disk: the old file is then kept).
    bool save(const PauseState &pause, qint64 nowMs, const QDateTime &wallNow);

    QString filePath() const { return m_filePath; }
    QString errorString() const { return m_error; }

private:
    QString m_filePath;
    QString m_error;
};
