// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// An exclusive flock() lock on a file in a folder that nobody else can write. The kernel releases it when its process
// ends, however it ends, so there is no stale lock; the file holds its holder's pid, for messages only.
#include "config/securefile.h"

#include <QString>

class FileLock
{
public:
    enum class Result { Acquired, HeldByAnother, Failed };

    FileLock() = default;
    ~FileLock() { release(); }
    FileLock(const FileLock &) = delete;
    FileLock &operator=(const FileLock &) = delete;

    // Takes the lock on `name` in the folder open as `folderFd`, making the file (mode 0600) where it is missing.
    // It never waits. On Failed, *error says why, naming the file as `name`.
    Result acquire(int folderFd, const QString &name, QString *error);
    bool held() const { return m_file.valid(); }
    // After HeldByAnother, the pid that the holder wrote; 0 when it has written none yet.
    qint64 ownerPid() const { return m_ownerPid; }
    // Removes the file, then releases the lock: a process that waited on it finds it gone and makes a new one.
    void release();

private:
    UniqueFd m_folder;
    UniqueFd m_file;
    QByteArray m_name;
    qint64 m_ownerPid = 0;
};
