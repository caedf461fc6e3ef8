// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The functions that open files and folders a local user may influence in a way that a root service can trust.
//
// idlegpu often runs as root, and every path that a user can reach (the config and its folders, the metrics
// textfile, the state folder) is a way in for an attacker: a link swapped between a check and an open, a folder that
// another user can write, a FIFO where a file was expected. The rules here are sudo's and sshd's StrictModes:
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
#include <QByteArray>
#include <QString>

#include <optional>
#include <sys/types.h>

// An owned file descriptor, closed when the object is destroyed.
class UniqueFd
{
public:
    UniqueFd() = default;
    explicit UniqueFd(int fd) : m_fd(fd) {}
    ~UniqueFd() { reset(); }
    UniqueFd(UniqueFd &&other) noexcept : m_fd(other.release()) {}
    UniqueFd &operator=(UniqueFd &&other) noexcept;
    UniqueFd(const UniqueFd &) = delete;
    UniqueFd &operator=(const UniqueFd &) = delete;

    int get() const { return m_fd; }
    bool valid() const { return m_fd >= 0; }
    int release();
    void reset(int fd = -1);

private:
    int m_fd = -1;
};

namespace SecureFile {

// The result of an open: a valid descriptor, or the reason it was refused.
struct Opened
{
    UniqueFd fd;
    QString path;  // the path as opened, every link resolved
    QString error; // why it was refused, naming the path or folder at fault; empty when fd is valid
    // Whether it was refused because of who may change it (an owner or a mode that lets another user write the file
    // or a folder on the way), rather than for being missing, unreadable or not a file.
    bool untrusted = false;
    bool ok() const { return fd.valid(); }
};

// Opens `path` for reading as a trusted file: every folder on the way is trusted, and the file is a regular file
// owned by root or `owner` that nobody else may write. Never blocks (O_NONBLOCK: a FIFO is refused, not waited for).
Opened openTrustedFile(const QString &path, uid_t owner);

// Opens the folder `path` (O_DIRECTORY) when it and every folder above it are trusted.
Opened openTrustedFolder(const QString &path, uid_t owner);

// Opens the folder that holds the file that `path` names, when it is trusted, and sets *name to the file's name. A
// symbolic link in the file's place is followed when its folder is trusted (as the walk follows every link), so the
// folder and name are those of the link's final target; the file itself need not exist. For replaceFileAt.
Opened openTrustedFolderOf(const QString &path, uid_t owner, QString *name);

// Returns why the folder open as `fd` is not trusted for `owner`, naming it as `name`; empty when it is trusted.
QString untrustedFolderReason(int fd, const QString &name, uid_t owner);

// Reads the open file `fd` from its start, at most maxBytes; nullopt with *error set when a read fails or the
// file is larger.
std::optional<QByteArray> readAll(int fd, qint64 maxBytes, QString *error);

// Replaces `name` in the folder open as `folderFd` with `contents` in one rename: a temporary file made there with
// O_EXCL, written in full and flushed to disk (fsync), then renamed over `name`. A short write, or ENOSPC at write,
// fsync or close, leaves the old file as it was and says why. An existing `name` that is not a regular file (a
// link, FIFO, device or folder) is refused, never followed or replaced, and so is another user's file in a sticky
// folder. A new file gets `mode`; an existing one keeps its own mode when keepMode is set.
bool replaceFileAt(int folderFd, const QString &name, const QByteArray &contents, mode_t mode, bool keepMode,
                   QString *error);

} // namespace SecureFile
