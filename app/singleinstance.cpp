// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "singleinstance.h"

// The lock is a FileLock (flock(), released by the kernel when idlegpu ends) named after the config's device and
// inode, so that every path to the same file (a symbolic link, a bind mount) takes the same lock; before the first
// start, when there is no file yet, it is named after the absolute path. The lock's folder is one that nobody else can
// write, checked on the fd it was opened as:
//  - for root, $RUNTIME_DIRECTORY (systemd's RuntimeDirectory=idlegpu), else /run/idlegpu, root's alone (made or
//    narrowed to 0700: runtimefolder.h), with the lock 0600;
//  - for another user, $XDG_RUNTIME_DIR, else <temp folder>/idlegpu-<uid>, made 0700 and used only while it is the
//    user's own folder of mode 0700 (a link, file or folder that another user put there is refused, never followed
//    or chmodded).

#include "base/errnotext.h"
#include "config/runtimefolder.h"
#include "config/securefile.h"
#include "base/logging.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

// The lock's name: the config's device and inode as idlegpu opens it (links followed where SecureFile follows them),
// else its absolute path's hash.
QString lockName(const QString &configPath)
{
    const SecureFile::Opened config = SecureFile::openTrustedFile(configPath, ::geteuid());
    struct stat st{};
    if (config.ok() && ::fstat(config.fd.get(), &st) == 0)
        return QStringLiteral("idlegpu-%1-%2.lock").arg(quint64(st.st_dev), 0, 16).arg(quint64(st.st_ino));
    const QByteArray key = QFileInfo(configPath).absoluteFilePath().toUtf8();
    return QStringLiteral("idlegpu-%1.lock")
        .arg(QString::fromLatin1(QCryptographicHash::hash(key, QCryptographicHash::Sha256).toHex().left(16)));
}

// A user's without a login session's runtime folder: <temp folder>/idlegpu-<uid>, made here and used only when it is
// the user's own folder of mode 0700. The temp folder is sticky (/tmp): whatever another user put at that name stays
// theirs, and is refused rather than worked around, so that two idlegpu of this user never lock in two places.
SecureFile::Opened privateTempFolder()
{
    SecureFile::Opened result;
    const uid_t self = ::geteuid();
    const QString tempPath = QDir::tempPath();
    const QString name = QStringLiteral("idlegpu-%1").arg(self);
    const QString path = QDir(tempPath).filePath(name);
    const QByteArray encoded = QFile::encodeName(name);
    const UniqueFd temp(::open(QFile::encodeName(tempPath).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!temp.valid()) {
        result.error = QStringLiteral("cannot open the temporary folder %1: %2").arg(tempPath, errnoText(errno));
        return result;
    }
    if (::mkdirat(temp.get(), encoded.constData(), 0700) != 0 && errno != EEXIST) {
        result.error = QStringLiteral("cannot create the folder %1: %2").arg(path, errnoText(errno));
        return result;
    }
    const QString remedy = QStringLiteral("remove it, or set XDG_RUNTIME_DIR to a folder of your own");
    UniqueFd folder(::openat(temp.get(), encoded.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!folder.valid()) {
        const int openError = errno;
        result.error = openError == ELOOP || openError == ENOTDIR
                           ? QStringLiteral("%1 is not a folder idlegpu made (a link or a file is in its place); %2")
                                 .arg(path, remedy)
                           : QStringLiteral("cannot open %1: %2").arg(path, errnoText(openError));
        return result;
    }
    struct stat st{};
    if (::fstat(folder.get(), &st) != 0) {
        result.error = QStringLiteral("cannot read the status of %1: %2").arg(path, errnoText(errno));
        return result;
    }
    if (st.st_uid != self) {
        result.error = QStringLiteral("%1 is not a folder idlegpu made (its owner is uid %2); %3")
                           .arg(path)
                           .arg(st.st_uid)
                           .arg(remedy);
        return result;
    }
    if ((st.st_mode & 07777) != 0700) {
        result.error = QStringLiteral("%1 has mode %2, not 0700: others may have put things in it; %3")
                           .arg(path)
                           .arg(st.st_mode & 07777, 4, 8, QLatin1Char('0'))
                           .arg(remedy);
        return result;
    }
    result.fd = std::move(folder);
    result.path = path;
    return result;
}

SecureFile::Opened lockFolder()
{
    if (::geteuid() == 0)
        return openRootRuntimeFolder(true);
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (QDir::isAbsolutePath(runtime)) {
        SecureFile::Opened opened = SecureFile::openTrustedFolder(runtime, ::geteuid());
        if (opened.ok())
            return opened;
        qCWarning(lcMonitor, "XDG_RUNTIME_DIR: %s; the lock that keeps a second idlegpu from starting goes to the "
                             "temporary folder",
                  qPrintable(opened.error));
    }
    return privateTempFolder();
}

} // namespace

SingleInstance::SingleInstance(const QString &configPath) : m_configPath(configPath) {}

bool SingleInstance::acquire()
{
    m_error.clear();
    // Named when acquired, not when made: the config may have been written in between (the first start's setup).
    const QString name = lockName(m_configPath);
    const SecureFile::Opened folder = lockFolder();
    if (!folder.ok()) {
        m_error = QStringLiteral("cannot lock %1 against a second idlegpu: %2").arg(m_configPath, folder.error);
        return false;
    }
    QString why;
    switch (m_lock.acquire(folder.fd.get(), name, &why)) {
    case FileLock::Result::Acquired:
        return true;
    case FileLock::Result::HeldByAnother:
        return false;
    case FileLock::Result::Failed:
        m_error = QStringLiteral("cannot lock %1 against a second idlegpu: %2 in %3")
                      .arg(m_configPath, why, folder.path);
        return false;
    }
    return false;
}
