// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The functions that open files and folders a local user may influence in a way that a root service can trust.
// They follow sudo's and sshd's StrictModes rules, which securefile.cpp spells out. No QFile: it opens by name again.
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
    // Whether another user could change the file or a folder on the way, rather than it being missing or unreadable.
    bool untrusted = false;
    bool ok() const { return fd.valid(); }
};

// Opens `path` for reading when it and every folder on the way are trusted. It never blocks: a FIFO is refused.
Opened openTrustedFile(const QString &path, uid_t owner);

// Opens the folder `path` (O_DIRECTORY) when it and every folder above it are trusted.
Opened openTrustedFolder(const QString &path, uid_t owner);

// Opens the trusted folder that holds the file `path` names (after links) and sets *name; the file need not exist.
Opened openTrustedFolderOf(const QString &path, uid_t owner, QString *name);

// Returns why the folder open as `fd` is not trusted for `owner`, naming it as `name`; empty when it is trusted.
QString untrustedFolderReason(int fd, const QString &name, uid_t owner);

// Reads the file `fd` from its start; nullopt with *error set when a read fails or it is over maxBytes.
std::optional<QByteArray> readAll(int fd, qint64 maxBytes, QString *error);

// Replaces `name` in the folder `folderFd` with `contents` by writing, fsyncing and renaming a temporary file. Any
// failure leaves the old file as it was and sets *error. A `name` that is not a regular file is refused, and so is
// another user's file in a sticky folder. A new file gets `mode`; an existing one keeps its mode when keepMode is set.
bool replaceFileAt(int folderFd, const QString &name, const QByteArray &contents, mode_t mode, bool keepMode,
                   QString *error);

} // namespace SecureFile
