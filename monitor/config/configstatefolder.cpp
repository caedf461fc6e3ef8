// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "config/configstatefolder.h"

// The state folder is trusted (SecureFile: nobody but root and idlegpu's user can change it or a folder above it), so
// nobody else can plant anything in it; configs/ and configs/<id>/ are still entered without following a link and
// checked on their fd, so that a state folder that an older idlegpu or the user made wider, or one on a path a user
// chose ($XDG_STATE_HOME, $STATE_DIRECTORY), cannot send root's state through someone else's link.

#include "base/errnotext.h"
#include "base/statefolder.h"
#include "config/config.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

const QString kSystemUnitConfig = QStringLiteral("/etc/idlegpu/idlegpu.conf");
const QString kConfigsFolder = QStringLiteral("configs");
const QString kConfigPathFile = QStringLiteral("config-path");

SecureFile::Opened refused(const QString &why, bool untrusted)
{
    SecureFile::Opened result;
    result.error = why;
    result.untrusted = untrusted;
    return result;
}

// Narrows a folder of this user's to 0700 on its fd (idlegpu made it wider in older versions, or a umask did).
void makePrivate(int fd)
{
    struct stat st
    {};
    if (::fstat(fd, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == ::geteuid() && (st.st_mode & 077))
        ::fchmod(fd, 0700);
}

// Makes `name` (0700) in the trusted folder `parentFd` and opens it without following a link. Refused unless it is a
// folder of this user's that nobody else can write; narrowed to 0700 where it is wider.
SecureFile::Opened openPrivateSubfolder(int parentFd, const QString &parentPath, const QString &name)
{
    const QString path = parentPath + QLatin1Char('/') + name;
    const QByteArray encoded = QFile::encodeName(name);
    if (::mkdirat(parentFd, encoded.constData(), 0700) != 0 && errno != EEXIST)
        return refused(QStringLiteral("cannot create the folder %1: %2").arg(path, errnoText(errno)), false);
    UniqueFd fd(::openat(parentFd, encoded.constData(), O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!fd.valid()) {
        const int openError = errno;
        if (openError == ELOOP || openError == ENOTDIR)
            return refused(
                QStringLiteral("%1 is not a folder idlegpu made (a link or a file is in its place); remove it")
                    .arg(path),
                true);
        return refused(QStringLiteral("cannot open %1: %2").arg(path, errnoText(openError)), false);
    }
    struct stat st
    {};
    if (::fstat(fd.get(), &st) != 0)
        return refused(QStringLiteral("cannot read the status of %1: %2").arg(path, errnoText(errno)), false);
    if (st.st_uid != ::geteuid())
        return refused(
            QStringLiteral("%1 is not a folder idlegpu made (its owner is uid %2); remove it").arg(path).arg(st.st_uid),
            true);
    if (st.st_mode & (S_IWGRP | S_IWOTH))
        return refused(QStringLiteral("%1 has mode %2: others may have put things in it; remove it")
                           .arg(path)
                           .arg(st.st_mode & 07777, 4, 8, QLatin1Char('0')),
                       true);
    makePrivate(fd.get());
    SecureFile::Opened result;
    result.fd = std::move(fd);
    result.path = path;
    return result;
}

bool isHomeConfig(const QString &configPath)
{
    return ConfigStateFolder::canonicalConfigPath(configPath)
           == ConfigStateFolder::canonicalConfigPath(ConfigStateFolder::homeConfigPath());
}

} // namespace

namespace ConfigStateFolder {

QString homeConfigPath()
{
    return ::geteuid() == 0 ? kSystemUnitConfig : ConfigLoader::locate(QString()).path;
}

QString canonicalConfigPath(const QString &configPath)
{
    const QFileInfo info(configPath);
    if (const QString canonical = info.canonicalFilePath(); !canonical.isEmpty())
        return canonical;
    // Not made yet (a first start): keyed as it will be once it exists, its folder's links resolved.
    const QString folder = QFileInfo(info.absolutePath()).canonicalFilePath();
    return folder.isEmpty() ? QDir::cleanPath(info.absoluteFilePath()) : QDir(folder).filePath(info.fileName());
}

QString configId(const QString &configPath)
{
    const QByteArray key = canonicalConfigPath(configPath).toUtf8();
    return QString::fromLatin1(QCryptographicHash::hash(key, QCryptographicHash::Sha256).toHex().left(16));
}

QString pathFor(const QString &configPath)
{
    const QString base = idlegpuStateFolder();
    if (isHomeConfig(configPath))
        return base;
    return base + QLatin1Char('/') + kConfigsFolder + QLatin1Char('/') + configId(configPath);
}

SecureFile::Opened prepare(const QString &configPath)
{
    const QString base = idlegpuStateFolder();
    // The state folder itself as idlegpu has always made it: its parents as mkpath makes them, itself 0700.
    QDir().mkpath(QFileInfo(base).absolutePath());
    ::mkdir(QFile::encodeName(base).constData(), 0700);
    SecureFile::Opened folder = SecureFile::openTrustedFolder(base, ::geteuid());
    if (!folder.ok())
        return folder;
    makePrivate(folder.fd.get());
    if (isHomeConfig(configPath)) {
        folder.path = base;
        return folder;
    }
    const SecureFile::Opened configs = openPrivateSubfolder(folder.fd.get(), base, kConfigsFolder);
    if (!configs.ok())
        return refused(configs.error, configs.untrusted);
    SecureFile::Opened own = openPrivateSubfolder(configs.fd.get(), configs.path, configId(configPath));
    if (!own.ok())
        return own;
    // Which configuration the folder belongs to, for whoever looks in configs/.
    QString error;
    if (!SecureFile::replaceFileAt(own.fd.get(), kConfigPathFile, canonicalConfigPath(configPath).toUtf8() + '\n', 0600,
                                   false, &error))
        return refused(QStringLiteral("%1/%2: %3").arg(own.path, kConfigPathFile, error), false);
    return own;
}

} // namespace ConfigStateFolder
