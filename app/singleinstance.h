// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
#include <QLockFile>
#include <QString>

#include <memory>

// One idlegpu monitor per user and config file: a lock in $XDG_RUNTIME_DIR (else the temp folder) named
// after the config's absolute path. A stale lock of a crashed idlegpu is taken over.
class SingleInstance
{
public:
    explicit SingleInstance(const QString &configPath);
    bool acquire();          // false when another idlegpu holds it
    qint64 ownerPid() const; // of the other instance, after a failed acquire()
    QString lockPath() const { return m_path; }

private:
    QString m_path;
    std::unique_ptr<QLockFile> m_lock;
};
