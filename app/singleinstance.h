// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
#include "config/filelock.h"

#include <QString>

// The lock that allows one idlegpu monitor per config file, whatever path names the file. It is a FileLock in a folder
// that nobody else can write; singleinstance.cpp says which.
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
