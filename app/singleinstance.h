// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
#include "config/filelock.h"

#include <QString>

// The lock that allows one idlegpu monitor per config file: a FileLock (flock(), released by the kernel when idlegpu
// ends) named after the config's device and inode, so that every path to the same file (a symbolic link, a bind
// mount) takes the same lock; before the first start, when there is no file yet, it is named after the absolute
// path. The lock's folder is one that nobody else can write, checked on the fd it was opened as:
//  - for root, $RUNTIME_DIRECTORY (systemd's RuntimeDirectory=idlegpu), else /run/idlegpu, root's alone (made or
//    narrowed to 0700: runtimefolder.h), with the lock 0600;
//  - for another user, $XDG_RUNTIME_DIR, else <temp folder>/idlegpu-<uid>, made 0700 and used only while it is the
//    user's own folder of mode 0700 (a link, file or folder that another user put there is refused, never followed
//    or chmodded).
class SingleInstance
{
public:
    explicit SingleInstance(const QString &configPath);
    // Takes the lock. Returns false when another idlegpu holds it (ownerPid()) or it cannot be taken at all (error()).
    bool acquire();
    qint64 ownerPid() const { return m_lock.ownerPid(); } // the other instance's pid; 0 when unknown
    QString error() const { return m_error; }            // empty when another idlegpu holds the lock

private:
    QString m_configPath;
    QString m_error;
    FileLock m_lock;
};
