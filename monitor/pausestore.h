// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The store that keeps the user's pause across restarts in a private file, in wall-clock time, since the monitor's
// monotonic times mean nothing after a reboot. pausestore.cpp shows the file.
#include "policy/policy.h"

#include <QDateTime>
#include <QString>

class PauseStore
{
public:
    // Returns <stateFolder>/state.ini; the state folder is the configuration's (ConfigStateFolder::pathFor).
    static QString pathIn(const QString &stateFolder);

    explicit PauseStore(const QString &filePath);

    // Returns the stored pause; a pause whose time has passed comes back as not paused. A missing, unreadable or
    // garbled file gives no pause (a garbled one is logged).
    PauseState load(qint64 nowMs, const QDateTime &wallNow) const;
    // Writes the pause atomically, creating the folder (0700) and the file (0600). Returns false, with errorString()
    // set and the old file kept, on failure (a folder others can change, a full disk).
    bool save(const PauseState &pause, qint64 nowMs, const QDateTime &wallNow);

    QString filePath() const { return m_filePath; }
    QString errorString() const { return m_error; }

private:
    QString m_filePath;
    QString m_error;
};
