// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "config/configwatcher.h"

// A write in place is whole when its writer closes the file (IN_CLOSE_WRITE); a save by rename is whole when the new
// file is moved over the name (IN_MOVED_TO); a file deleted or moved away is gone at once. Every other step of a save
// (the truncation, each write, the creation of a new file) is ignored: an editor paused between two writes would
// otherwise hand over half a file, such as the first half of a workload without its user= line. The watch is on the
// file's folder (inotify through a QSocketNotifier), which outlives any replacement of the file; where the way to the
// file passes links (the config itself, a link in a chain of links, a folder on the way), the folder of each link is
// watched too, and after each change the watcher resolves the way again, so a link pointed elsewhere (`ln -sfn`) is
// followed. Before the file's folder exists (idlegpu is not set up yet), the nearest folder above it is watched until
// the next folder on the way appears.

#include "base/logging.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSocketNotifier>

#include <cerrno>
#include <climits>
#include <cstring>

#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

constexpr uint32_t kFolderMask = IN_CLOSE_WRITE | IN_MOVED_TO | IN_CREATE | IN_DELETE | IN_MOVED_FROM | IN_DELETE_SELF
                                 | IN_MOVE_SELF | IN_ONLYDIR;

// The most links the walk to the file follows, as the kernel's ELOOP: a loop of links ends it there.
constexpr int kMaxLinks = 40;

bool isLink(const QString &path)
{
    struct stat info;
    return ::lstat(QFile::encodeName(path).constData(), &info) == 0 && S_ISLNK(info.st_mode);
}

QString childOf(const QString &folder, const QString &name)
{
    return folder == QLatin1String("/") ? folder + name : folder + QLatin1Char('/') + name;
}

// Returns what the link at `path` holds, as written; empty where it cannot be read.
QString linkText(const QString &path)
{
    char target[PATH_MAX];
    const ssize_t length = ::readlink(QFile::encodeName(path).constData(), target, sizeof target);
    return length > 0 && size_t(length) < sizeof target ? QFile::decodeName(QByteArray(target, length)) : QString();
}

// Returns the places to watch for `path`, each a folder and the name in it that leads to the file: each link met on
// the way (the path itself, a folder on the way, each link of a chain), and the file itself; where a folder on the
// way is missing, the nearest folder above it with the name that leads on. A change of any of them can change which
// file the path names. The walk resolves the path as the kernel would, through lstat() and readlink() alone: it
// never opens what a user may have put there (the reader opens the file itself, safely).
QList<QPair<QString, QString>> watchPoints(const QString &path)
{
    QList<QPair<QString, QString>> points;
    QStringList pending = path.split(QLatin1Char('/'), Qt::SkipEmptyParts);
    QString folder = QStringLiteral("/"); // the way so far, free of links
    int links = 0;
    while (!pending.isEmpty()) {
        const QString name = pending.takeFirst();
        if (name == QLatin1String("."))
            continue;
        if (name == QLatin1String("..")) {
            folder = QFileInfo(folder).absolutePath();
            continue;
        }
        const QString here = childOf(folder, name);
        struct stat info;
        const bool exists = ::lstat(QFile::encodeName(here).constData(), &info) == 0;
        if (exists && S_ISLNK(info.st_mode)) {
            points.append({folder, name});
            const QString target = linkText(here);
            if (target.isEmpty() || ++links > kMaxLinks)
                break;
            if (target.startsWith(QLatin1Char('/')))
                folder = QStringLiteral("/");
            pending = target.split(QLatin1Char('/'), Qt::SkipEmptyParts) + pending;
        } else if (!exists || pending.isEmpty() || !S_ISDIR(info.st_mode)) {
            points.append({folder, name}); // the file, or where the way to it ends for now
            break;
        } else {
            folder = here;
        }
    }
    return points;
}

} // namespace

ConfigFileWatcher::ConfigFileWatcher(QObject *parent) : QObject(parent)
{
    m_fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (m_fd < 0) {
        qCWarning(lcConfig).noquote() << "cannot watch the config file for edits (inotify):" << std::strerror(errno)
                                      << "- send SIGHUP to apply an edit";
        return;
    }
    m_notifier = new QSocketNotifier(m_fd, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &ConfigFileWatcher::readEvents);
}

ConfigFileWatcher::~ConfigFileWatcher()
{
    delete m_notifier; // before its descriptor goes
    if (m_fd >= 0)
        ::close(m_fd);
}

void ConfigFileWatcher::watch(const QString &path)
{
    m_path = QFileInfo(path).absoluteFilePath();
    if (m_fd < 0)
        return;
    QHash<int, QString> folderByWatch;
    QHash<int, QSet<QString>> namesByWatch;
    for (const auto &[folder, name] : watchPoints(m_path)) {
        const int watch = ::inotify_add_watch(m_fd, QFile::encodeName(folder).constData(), kFolderMask);
        if (watch < 0) {
            qCWarning(lcConfig).noquote() << "cannot watch" << folder << "for edits of the config file:"
                                          << std::strerror(errno);
            continue;
        }
        folderByWatch.insert(watch, folder);
        namesByWatch[watch].insert(name);
    }
    for (auto it = m_folderByWatch.constBegin(); it != m_folderByWatch.constEnd(); ++it)
        if (!folderByWatch.contains(it.key()))
            ::inotify_rm_watch(m_fd, it.key()); // fails harmlessly for a folder that went
    m_folderByWatch = folderByWatch;
    m_namesByWatch = namesByWatch;
}

void ConfigFileWatcher::readEvents()
{
    bool changedNow = false;
    alignas(struct inotify_event) char buffer[16 * 1024];
    while (true) {
        const ssize_t length = ::read(m_fd, buffer, sizeof buffer);
        if (length < 0 && errno == EINTR)
            continue;
        if (length <= 0)
            break;
        for (ssize_t offset = 0; offset + ssize_t(sizeof(inotify_event)) <= length;) {
            const auto *event = reinterpret_cast<const inotify_event *>(buffer + offset);
            offset += ssize_t(sizeof(inotify_event)) + event->len;
            if (event->mask & IN_Q_OVERFLOW) {
                changedNow = true; // what was lost may have been the config's close
                continue;
            }
            if (!m_folderByWatch.contains(event->wd))
                continue; // a watch dropped by watch(): its last events and IN_IGNORED
            if (event->mask & (IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF)) {
                changedNow = true; // the folder went: watch what has its name now
                continue;
            }
            const QString name = event->len > 0 ? QFile::decodeName(event->name) : QString();
            if (!m_namesByWatch.value(event->wd).contains(name))
                continue;
            // Gone is whole too: the reload says the file is missing and keeps the config in force.
            if (event->mask & (IN_CLOSE_WRITE | IN_MOVED_TO | IN_DELETE | IN_MOVED_FROM))
                changedNow = true;
            // A new regular file is still being written (its close follows); a link or a folder is whole at once.
            else if ((event->mask & IN_CREATE)
                     && ((event->mask & IN_ISDIR) || isLink(m_folderByWatch.value(event->wd) + QLatin1Char('/') + name)))
                changedNow = true;
        }
    }
    if (!changedNow)
        return;
    watch(m_path);
    Q_EMIT changed();
}
