// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "config/filelock.h"

// The folder is checked by SecureFile::openTrustedFolder. The kernel releases the lock when its process ends, however
// it ends, so there is no stale lock to take over and no pid that a reused or forged one could be mistaken for. The
// file holds its holder's pid, for messages only. It is opened without following a link and without waiting on a FIFO;
// anything but a regular file there is refused. The file is made 0600, and a file that another user could have open
// (another owner, a wider mode, a second hard link, such as an older idlegpu's 0644 file) is replaced by a fresh one
// rather than locked, because another user's flock on it would block nothing.

#include "base/errnotext.h"

#include <QFile>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

// A lock file only this user's processes can have open: this user's, mode 0600, one name. Any other (an older
// idlegpu's 0644 one, a hard link to it) may be open in another user's process, whose flock would keep every
// idlegpu of this user from starting.
bool privateLockFile(const struct stat &st)
{
    return st.st_uid == ::geteuid() && (st.st_mode & 077) == 0 && st.st_nlink == 1;
}

bool sameFile(const struct stat &a, const struct stat &b)
{
    return a.st_dev == b.st_dev && a.st_ino == b.st_ino;
}

} // namespace

FileLock::Result FileLock::acquire(int folderFd, const QString &name, QString *error)
{
    release();
    m_ownerPid = 0;
    const auto fail = [&](const QString &why) {
        if (error)
            *error = QStringLiteral("cannot lock %1: %2").arg(name, why);
        return Result::Failed;
    };
    const QByteArray encoded = QFile::encodeName(name);
    // A holder that lets go removes the file: a file locked after that is no longer the one at `name`, and is tried
    // again.
    for (int attempt = 0; attempt < 20; ++attempt) {
        UniqueFd file(::openat(folderFd, encoded.constData(), O_RDWR | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
        if (!file.valid() && errno == ENOENT)
            file.reset(::openat(folderFd, encoded.constData(),
                                O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600));
        if (!file.valid() && errno == EEXIST)
            continue; // made meanwhile by another idlegpu
        if (!file.valid())
            return fail(errnoText(errno));
        struct stat opened{};
        if (::fstat(file.get(), &opened) != 0)
            return fail(errnoText(errno));
        if (!S_ISREG(opened.st_mode))
            return fail(QStringLiteral("not a regular file"));
        if (!privateLockFile(opened)) {
            // Never waited for nor reused: a fresh file takes its place, which only this user can open.
            struct stat named{};
            if (::fstatat(folderFd, encoded.constData(), &named, AT_SYMLINK_NOFOLLOW) == 0 && sameFile(named, opened)
                && ::unlinkat(folderFd, encoded.constData(), 0) != 0)
                return fail(QStringLiteral("it is open to other users (mode %1, %2 links) and cannot be removed: %3")
                                .arg(QStringLiteral("%1").arg(opened.st_mode & 07777, 4, 8, QLatin1Char('0')),
                                     QString::number(qulonglong(opened.st_nlink)), errnoText(errno)));
            continue;
        }
        if (::flock(file.get(), LOCK_EX | LOCK_NB) != 0) {
            if (errno != EWOULDBLOCK)
                return fail(errnoText(errno));
            char text[32] = {};
            const ssize_t size = ::pread(file.get(), text, sizeof text - 1, 0);
            m_ownerPid = size > 0 ? QByteArray(text, size).trimmed().toLongLong() : 0;
            return Result::HeldByAnother;
        }
        struct stat named{};
        if (::fstatat(folderFd, encoded.constData(), &named, AT_SYMLINK_NOFOLLOW) != 0 || !sameFile(named, opened))
            continue;
        // The pid is for messages only: a full disk does not keep idlegpu from holding the lock.
        const QByteArray pid = QByteArray::number(qint64(::getpid())) + '\n';
        if (::ftruncate(file.get(), 0) == 0 && ::pwrite(file.get(), pid.constData(), size_t(pid.size()), 0) < 0)
            (void)::ftruncate(file.get(), 0);
        m_folder.reset(::fcntl(folderFd, F_DUPFD_CLOEXEC, 0));
        m_file = std::move(file);
        m_name = encoded;
        return Result::Acquired;
    }
    return fail(QStringLiteral("it was replaced again and again while it was locked"));
}

void FileLock::release()
{
    if (m_file.valid() && m_folder.valid())
        ::unlinkat(m_folder.get(), m_name.constData(), 0);
    m_file.reset();
    m_folder.reset();
    m_name.clear();
}
