// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "singleinstance.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFileInfo>
#include <QFile>

#include <unistd.h>

SingleInstance::SingleInstance(const QString &configPath)
{
    // $XDG_RUNTIME_DIR where a login session made one; under supervisord or cron there is none, and a
    // private folder in /tmp (made here, mode 0700) serves instead.
    QString dir = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (dir.isEmpty() || !QFileInfo(dir).isDir()) {
        dir = QDir::tempPath() + QStringLiteral("/idlegpu-%1").arg(::getuid());
        QDir().mkpath(dir);
        QFile::setPermissions(dir, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
    }
    const QByteArray key = QFileInfo(configPath).absoluteFilePath().toUtf8();
    const QString hash = QString::fromLatin1(QCryptographicHash::hash(key, QCryptographicHash::Sha256).toHex().left(16));
    m_path = QDir(dir).filePath(QStringLiteral("idlegpu-%1.lock").arg(hash));
    m_lock = std::make_unique<QLockFile>(m_path);
    m_lock->setStaleLockTime(0); // only a dead owner makes the lock stale, never its age
}

bool SingleInstance::acquire()
{
    return m_lock->tryLock(0);
}

qint64 SingleInstance::ownerPid() const
{
    qint64 pid = 0;
    QString host, app;
    m_lock->getLockInfo(&pid, &host, &app);
    return pid;
}
