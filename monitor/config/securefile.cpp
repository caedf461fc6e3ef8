// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "config/securefile.h"

// idlegpu often runs as root, and every path that a user can reach (the config and its folders, the metrics textfile,
// the state folder) is a way in for an attacker: a link swapped between a check and an open, a folder that another
// user can write, a FIFO where a file was expected. The rules here are sudo's and sshd's StrictModes:
//  - a trusted owner is root or `owner` (the user idlegpu runs as);
//  - a trusted folder is owned by a trusted owner and writable by nobody else. Two exceptions: a sticky folder
//    (/tmp), where others may add entries but not rename or remove ours, and a folder writable by its group when
//    that group is root's or the owner's own group with nobody else in it;
//  - a path is walked one component at a time from "/" with O_NOFOLLOW, checking each folder on the fd it was
//    opened as; a symbolic link is followed only when the folder that holds it is trusted (only a trusted owner
//    could have put it there or can swap it), so nothing can be switched between the check and the use;
//  - in a sticky folder others may write, where anyone may add an entry, the kernel's protected_symlinks and
//    protected_hardlinks rules hold whatever fs.protected_* say: a link is followed only when it is root's or
//    `owner`'s, a file with a second hard link is refused, and another user's file is not replaced.
// Plain POSIX under Qt strings: no QFile, which opens by name again and follows links.

#include "base/errnotext.h"
#include "config/useraccount.h"

#include <QDir>
#include <QFile>
#include <QRandomGenerator>
#include <QStringList>

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <limits.h>
#include <sys/stat.h>
#include <unistd.h>

#include <vector>

UniqueFd &UniqueFd::operator=(UniqueFd &&other) noexcept
{
    if (this != &other)
        reset(other.release());
    return *this;
}

int UniqueFd::release()
{
    const int fd = m_fd;
    m_fd = -1;
    return fd;
}

void UniqueFd::reset(int fd)
{
    if (m_fd >= 0)
        ::close(m_fd);
    m_fd = fd;
}

namespace SecureFile {

namespace {

constexpr int kMaxLinks = 40; // as the kernel's own path walk (ELOOP)

QString ownerName(uid_t uid)
{
    const std::optional<UserAccount> account = UserLookup::findAccount(QString::number(uid));
    return account ? account->name : QStringLiteral("uid %1").arg(uid);
}

// True when only root or `owner` can be in group `gid`: root's group, or the owner's own primary group that lists
// no other member (Debian's user private groups; the group a home folder of mode 0775 has).
bool groupHoldsOnlyTrusted(gid_t gid, uid_t owner)
{
    if (gid == 0)
        return true;
    const std::optional<UserAccount> account = UserLookup::findAccount(QString::number(owner));
    if (!account || account->gid != gid)
        return false;
    const QByteArray ownerName = account->name.toLocal8Bit();
    group entry{};
    group *found = nullptr;
    std::vector<char> buffer(65536);
    if (getgrgid_r(gid, &entry, buffer.data(), buffer.size(), &found) != 0 || !found)
        return false;
    for (char **member = found->gr_mem; member && *member; ++member)
        if (ownerName != *member)
            return false;
    return true;
}

// Why a file or folder with status `st` may be changed by someone other than root and `owner`; empty when not.
QString untrustedReason(const struct stat &st, const QString &name, uid_t owner)
{
    if (st.st_uid != 0 && st.st_uid != owner)
        return owner == 0 ? QStringLiteral("%1 is owned by %2, not by root").arg(name, ownerName(st.st_uid))
                          : QStringLiteral("%1 is owned by %2, not by root or %3")
                                .arg(name, ownerName(st.st_uid), ownerName(owner));
    const bool sticky = S_ISDIR(st.st_mode) && (st.st_mode & S_ISVTX);
    if ((st.st_mode & S_IWOTH) && !sticky)
        return QStringLiteral("%1 is writable by every user (mode %2)").arg(name).arg(st.st_mode & 07777, 4, 8,
                                                                                     QLatin1Char('0'));
    if ((st.st_mode & S_IWGRP) && !sticky && !groupHoldsOnlyTrusted(st.st_gid, owner))
        return QStringLiteral("%1 is writable by the group %2 (mode %3)")
            .arg(name)
            .arg(st.st_gid)
            .arg(st.st_mode & 07777, 4, 8, QLatin1Char('0'));
    return QString();
}

// A sticky folder others may write (/tmp): anyone can add an entry there, which only its owner can remove.
bool stickyAndOpenToOthers(const struct stat &folder)
{
    return S_ISDIR(folder.st_mode) && (folder.st_mode & S_ISVTX) && (folder.st_mode & (S_IWGRP | S_IWOTH));
}

// The kernel's protected_symlinks rule (fs/namei.c, may_follow_link), kept whatever fs.protected_symlinks says: in a
// sticky folder others may write, a link is followed only when it is its follower's or the folder owner's. The
// folder is trusted, so its owner is root or `owner`, and the follower is `owner`. Why the link with status `link`,
// named `linkPath`, in the folder open as `folderFd` and named `folderPath`, is not followed; empty when it is.
QString unfollowedLinkReason(int folderFd, const QString &folderPath, const struct stat &link, const QString &linkPath,
                             uid_t owner)
{
    struct stat folder{};
    if (::fstat(folderFd, &folder) != 0)
        return QStringLiteral("cannot read the status of %1: %2").arg(folderPath, errnoText(errno));
    if (!stickyAndOpenToOthers(folder) || link.st_uid == folder.st_uid || link.st_uid == owner || link.st_uid == 0)
        return QString();
    return QStringLiteral("%1 is a symbolic link owned by %2, in %3, a sticky folder other users may write: a link "
                          "there is followed only when it is root's%4")
        .arg(linkPath, ownerName(link.st_uid), folderPath,
             owner == 0 ? QString() : QStringLiteral(" or %1's").arg(ownerName(owner)));
}

QString joinPath(const QString &folder, const QString &name)
{
    return folder.endsWith(QLatin1Char('/')) ? folder + name : folder + QLatin1Char('/') + name;
}

QString parentPath(const QString &folder)
{
    const qsizetype slash = folder.lastIndexOf(QLatin1Char('/'));
    return slash <= 0 ? QStringLiteral("/") : folder.left(slash);
}

QStringList components(const QString &path)
{
    return path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
}

Opened refuse(const QString &error)
{
    Opened result;
    result.error = error;
    return result;
}

Opened refuseUntrusted(const QString &error)
{
    Opened result = refuse(error);
    result.untrusted = true;
    return result;
}

// The walk of openTrustedFile and openTrustedFolder (see the header).
Opened walk(const QString &path, uid_t owner, bool wantFolder)
{
    if (path.isEmpty())
        return refuse(QStringLiteral("no path given"));
    QStringList pending = components(QDir::isAbsolutePath(path) ? path : QDir::current().absoluteFilePath(path));
    UniqueFd folder(::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
    QString folderPath = QStringLiteral("/");
    int links = 0;
    const auto checkFolder = [&](const UniqueFd &fd, const QString &name) { return untrustedFolderReason(fd.get(), name, owner); };
    if (QString why = checkFolder(folder, folderPath); !why.isEmpty())
        return refuseUntrusted(why);
    while (!pending.isEmpty()) {
        const QString part = pending.takeFirst();
        if (part == QLatin1String("."))
            continue;
        const QByteArray encoded = QFile::encodeName(part);
        const bool last = pending.isEmpty();
        UniqueFd next(::openat(folder.get(), encoded.constData(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
        const QString nextPath = part == QLatin1String("..") ? parentPath(folderPath) : joinPath(folderPath, part);
        if (!next.valid())
            return refuse(QStringLiteral("cannot open %1: %2").arg(nextPath, errnoText(errno)));
        struct stat st{};
        if (::fstat(next.get(), &st) != 0)
            return refuse(QStringLiteral("cannot read the status of %1: %2").arg(nextPath, errnoText(errno)));
        if (S_ISLNK(st.st_mode)) {
            // The folder holding the link is trusted (checked when it was entered): only root or the owner could
            // have put the link there and only they can swap it, except in a sticky folder such as /tmp.
            if (QString why = unfollowedLinkReason(folder.get(), folderPath, st, nextPath, owner); !why.isEmpty())
                return refuseUntrusted(why);
            if (++links > kMaxLinks)
                return refuse(QStringLiteral("too many symbolic links on the way to %1").arg(path));
            char target[PATH_MAX + 1];
            const ssize_t size = ::readlinkat(next.get(), "", target, PATH_MAX); // the link whose owner was checked
            if (size < 0)
                return refuse(QStringLiteral("cannot read the link %1: %2").arg(nextPath, errnoText(errno)));
            const QString targetPath = QFile::decodeName(QByteArray(target, size));
            pending = components(targetPath) + pending;
            if (targetPath.startsWith(QLatin1Char('/'))) {
                folder.reset(::open("/", O_PATH | O_DIRECTORY | O_CLOEXEC));
                folderPath = QStringLiteral("/");
            }
            continue;
        }
        if (S_ISDIR(st.st_mode) && (!last || wantFolder)) {
            if (QString why = checkFolder(next, nextPath); !why.isEmpty())
                return refuseUntrusted(why);
            folder = std::move(next);
            folderPath = nextPath;
            continue;
        }
        if (!last)
            return refuse(QStringLiteral("%1 is not a folder").arg(nextPath));
        if (wantFolder)
            return refuse(QStringLiteral("%1 is not a folder").arg(nextPath));
        if (S_ISDIR(st.st_mode))
            return refuse(QStringLiteral("%1 is a folder, not a file").arg(nextPath));
        if (!S_ISREG(st.st_mode))
            return refuse(QStringLiteral("%1 is not a regular file").arg(nextPath));
        if (QString why = untrustedReason(st, nextPath, owner); !why.isEmpty())
            return refuseUntrusted(why);
        // A hard link another user made in /tmp to a file of root's would pass for root's own file there.
        if (st.st_nlink > 1) {
            struct stat holder{};
            if (::fstat(folder.get(), &holder) != 0 || stickyAndOpenToOthers(holder))
                return refuseUntrusted(QStringLiteral("%1 has %2 hard links, in %3, a sticky folder other users may "
                                                      "write: any of them may have linked it there")
                                           .arg(nextPath, QString::number(qulonglong(st.st_nlink)), folderPath));
        }
        // Opened again from the same trusted folder, for reading, without following a link and without waiting on
        // anything that is not a plain file; the same inode as the one checked.
        UniqueFd file(::openat(folder.get(), encoded.constData(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
        struct stat opened{};
        if (!file.valid() || ::fstat(file.get(), &opened) != 0)
            return refuse(QStringLiteral("cannot open %1: %2").arg(nextPath, errnoText(errno)));
        if (opened.st_dev != st.st_dev || opened.st_ino != st.st_ino)
            return refuse(QStringLiteral("%1 was replaced while it was opened").arg(nextPath));
        Opened result;
        result.fd = std::move(file);
        result.path = nextPath;
        return result;
    }
    if (!wantFolder)
        return refuse(QStringLiteral("%1 is a folder, not a file").arg(folderPath));
    Opened result;
    result.fd.reset(::openat(folder.get(), ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC));
    if (!result.fd.valid())
        return refuse(QStringLiteral("cannot open %1: %2").arg(folderPath, errnoText(errno)));
    result.path = folderPath;
    return result;
}

} // namespace

Opened openTrustedFile(const QString &path, uid_t owner)
{
    return walk(path, owner, false);
}

Opened openTrustedFolder(const QString &path, uid_t owner)
{
    return walk(path, owner, true);
}

// A symbolic link in the file's place is followed when its folder is trusted (as the walk follows every link), so the
// folder and name are those of the link's final target.
Opened openTrustedFolderOf(const QString &path, uid_t owner, QString *name)
{
    QString current = path.isEmpty() || QDir::isAbsolutePath(path) ? path : QDir::current().absoluteFilePath(path);
    for (int links = 0;; ++links) {
        while (current.size() > 1 && current.endsWith(QLatin1Char('/')))
            current.chop(1);
        const qsizetype slash = current.lastIndexOf(QLatin1Char('/'));
        const QString base = current.mid(slash + 1);
        if (slash < 0 || base.isEmpty() || base == QLatin1String(".") || base == QLatin1String(".."))
            return refuse(QStringLiteral("'%1' names no file").arg(path));
        Opened folder = walk(slash == 0 ? QStringLiteral("/") : current.left(slash), owner, true);
        if (!folder.ok())
            return folder;
        const QByteArray encoded = QFile::encodeName(base);
        const UniqueFd entry(::openat(folder.fd.get(), encoded.constData(), O_PATH | O_NOFOLLOW | O_CLOEXEC));
        struct stat st{};
        if (!entry.valid() || ::fstat(entry.get(), &st) != 0 || !S_ISLNK(st.st_mode)) {
            *name = base;
            return folder;
        }
        // The link is in a trusted folder: only root or the owner could have put it there, except in a sticky one.
        const QString linkPath = joinPath(folder.path, base);
        if (QString why = unfollowedLinkReason(folder.fd.get(), folder.path, st, linkPath, owner); !why.isEmpty())
            return refuseUntrusted(why);
        if (links >= kMaxLinks)
            return refuse(QStringLiteral("too many symbolic links on the way to %1").arg(path));
        char target[PATH_MAX + 1];
        const ssize_t size = ::readlinkat(entry.get(), "", target, PATH_MAX);
        if (size < 0)
            return refuse(QStringLiteral("cannot read the link %1: %2").arg(linkPath, errnoText(errno)));
        const QString targetPath = QFile::decodeName(QByteArray(target, size));
        current = targetPath.startsWith(QLatin1Char('/')) ? targetPath : joinPath(folder.path, targetPath);
    }
}

QString untrustedFolderReason(int fd, const QString &name, uid_t owner)
{
    struct stat st{};
    if (::fstat(fd, &st) != 0)
        return QStringLiteral("cannot read the status of %1: %2").arg(name, errnoText(errno));
    if (!S_ISDIR(st.st_mode))
        return QStringLiteral("%1 is not a folder").arg(name);
    return untrustedReason(st, name, owner);
}

std::optional<QByteArray> readAll(int fd, qint64 maxBytes, QString *error)
{
    QByteArray contents;
    char buffer[65536];
    for (off_t offset = 0;;) {
        const ssize_t size = ::pread(fd, buffer, sizeof buffer, offset);
        if (size < 0 && errno == EINTR)
            continue;
        if (size < 0) {
            if (error)
                *error = errnoText(errno);
            return std::nullopt;
        }
        if (size == 0)
            return contents;
        if (contents.size() + size > maxBytes) {
            if (error)
                *error = QStringLiteral("larger than %1 bytes").arg(maxBytes);
            return std::nullopt;
        }
        contents.append(buffer, size);
        offset += size;
    }
}

// The temporary file is made with O_EXCL, written in full, fsynced, then renamed over `name`. A short write, or ENOSPC
// at write, fsync or close, leaves the old file as it was and says why. An existing `name` that is a link, FIFO, device
// or folder is refused, never followed or replaced.
bool replaceFileAt(int folderFd, const QString &name, const QByteArray &contents, mode_t mode, bool keepMode,
                   QString *error)
{
    const auto fail = [error](const QString &message) {
        if (error)
            *error = message;
        return false;
    };
    const QByteArray target = QFile::encodeName(name);
    if (name.isEmpty() || name.contains(QLatin1Char('/')) || name == QLatin1String(".") || name == QLatin1String(".."))
        return fail(QStringLiteral("'%1' is not a file name").arg(name));
    struct stat existing{};
    const bool exists = ::fstatat(folderFd, target.constData(), &existing, AT_SYMLINK_NOFOLLOW) == 0;
    if (!exists && errno != ENOENT)
        return fail(QStringLiteral("cannot read the status of %1: %2").arg(name, errnoText(errno)));
    if (exists && !S_ISREG(existing.st_mode))
        return fail(QStringLiteral("%1 is not a regular file (a link, FIFO, device or folder): not replaced").arg(name));
    // As the kernel's protected_regular: in a sticky folder others may write, another user's file is theirs.
    struct stat folder{};
    if (::fstat(folderFd, &folder) != 0)
        return fail(QStringLiteral("cannot read the status of the folder of %1: %2").arg(name, errnoText(errno)));
    if (exists && stickyAndOpenToOthers(folder) && existing.st_uid != ::geteuid() && existing.st_uid != folder.st_uid)
        return fail(QStringLiteral("%1 is owned by %2, in a sticky folder other users may write: not replaced")
                        .arg(name, ownerName(existing.st_uid)));
    if (exists && keepMode)
        mode = existing.st_mode & 07777;

    // A name nobody else can have made: O_EXCL fails on anything already there, a link included; random, so that
    // another user cannot make every name it would try first in a sticky folder.
    QByteArray temporary;
    UniqueFd out;
    for (int attempt = 0; attempt < 100 && !out.valid(); ++attempt) {
        temporary = "." + target + ".tmp" + QByteArray::number(QRandomGenerator::system()->generate64(), 36);
        out.reset(::openat(folderFd, temporary.constData(), O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC,
                           mode & 0777));
        if (!out.valid() && errno != EEXIST)
            return fail(QStringLiteral("cannot create a file beside %1: %2").arg(name, errnoText(errno)));
    }
    if (!out.valid())
        return fail(QStringLiteral("cannot create a file beside %1: %2").arg(name, errnoText(EEXIST)));
    const auto discard = [&](const QString &message) {
        out.reset();
        ::unlinkat(folderFd, temporary.constData(), 0);
        return fail(QStringLiteral("cannot write %1: %2; the old file is kept").arg(name, message));
    };
    if (::fchmod(out.get(), mode) != 0) // the umask narrowed the mode at creation
        return discard(errnoText(errno));
    for (qsizetype written = 0; written < contents.size();) {
        const ssize_t size = ::write(out.get(), contents.constData() + written, size_t(contents.size() - written));
        if (size < 0 && errno == EINTR)
            continue;
        if (size <= 0)
            return discard(size < 0 ? errnoText(errno) : QStringLiteral("nothing written"));
        written += size;
    }
    // A full disk may show only here: the data is on disk before the old file goes.
    if (::fsync(out.get()) != 0)
        return discard(errnoText(errno));
    if (::close(out.release()) != 0) {
        const int closeError = errno;
        ::unlinkat(folderFd, temporary.constData(), 0);
        return fail(QStringLiteral("cannot write %1: %2; the old file is kept").arg(name, errnoText(closeError)));
    }
    if (::renameat(folderFd, temporary.constData(), folderFd, target.constData()) != 0) {
        const int renameError = errno;
        ::unlinkat(folderFd, temporary.constData(), 0);
        return fail(QStringLiteral("cannot replace %1: %2; the old file is kept").arg(name, errnoText(renameError)));
    }
    ::fsync(folderFd); // the rename itself on disk; a failure here loses nothing that was there before
    return true;
}

} // namespace SecureFile
