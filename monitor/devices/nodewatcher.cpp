// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "devices/nodewatcher.h"

#include "base/clock.h"
#include "base/logging.h"

#include <QFile>
#include <QSocketNotifier>

#include <cerrno>
#include <cstring>

#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

// IN_ATTRIB because IN_DELETE_SELF waits until the last fd on the node is closed: unlinking a node that a
// process still holds only changes its link count, which IN_ATTRIB reports.
constexpr uint32_t kWatchMask = IN_OPEN | IN_CLOSE_WRITE | IN_CLOSE_NOWRITE | IN_DELETE_SELF | IN_MOVE_SELF
                                | IN_ATTRIB;

// The node a path names now, or {0, 0} when there is none.
QPair<quint64, quint64> identityOf(const QString &path)
{
    struct stat info;
    if (::stat(QFile::encodeName(path).constData(), &info) != 0)
        return {0, 0};
    return {quint64(info.st_dev), quint64(info.st_ino)};
}

} // namespace

NodeWatcher::NodeWatcher(QObject *parent) : QObject(parent)
{
    m_fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
    if (m_fd < 0) {
        const int error = errno;
        qCWarning(lcScan).noquote() << "cannot watch device nodes for opens (inotify):" << std::strerror(error)
                          << "- holders are found by the periodic scan only";
        return;
    }
    m_notifier = new QSocketNotifier(m_fd, QSocketNotifier::Read, this);
    connect(m_notifier, &QSocketNotifier::activated, this, &NodeWatcher::readEvents);
}

NodeWatcher::~NodeWatcher()
{
    delete m_notifier; // before its descriptor goes
    if (m_fd >= 0)
        ::close(m_fd);
}

bool NodeWatcher::isValid() const
{
    return m_fd >= 0;
}

QStringList NodeWatcher::watchedNodes() const
{
    QStringList paths = m_watchByPath.keys();
    paths.sort();
    return paths;
}

void NodeWatcher::setNodes(const QStringList &paths)
{
    if (m_fd < 0)
        return;
    const QStringList watched = m_watchByPath.keys();
    for (const QString &path : watched) {
        if (!paths.contains(path))
            dropWatch(path);
    }
    QSet<QString> unwatchable;
    for (const QString &path : paths) {
        // Asking again is exact where comparing inode numbers is not (a recreated node may get the old number):
        // the kernel answers with the existing watch while the path still names the watched node.
        const int watch = ::inotify_add_watch(m_fd, QFile::encodeName(path).constData(), kWatchMask);
        const int watchError = errno;
        const int known = m_watchByPath.value(path, -1);
        if (watch >= 0 && watch == known)
            continue;
        if (known >= 0) {
            qCDebug(lcScan).noquote() << "node" << path << "was recreated; watching the new one";
            dropWatch(path);
        }
        if (watch < 0) {
            if (!unwatchable.contains(path) && !m_unwatchable.contains(path))
                qCWarning(lcScan).noquote() << "cannot watch" << path << "for opens:" << std::strerror(watchError);
            unwatchable.insert(path);
            continue;
        }
        const QString alias = m_pathByWatch.value(watch);
        if (!alias.isEmpty()) {
            // Two paths to one node share one watch; its events are told under the first path.
            qCDebug(lcScan).noquote() << path << "is the same node as" << alias << "- its events count for"
                                      << alias;
            continue;
        }
        m_pathByWatch.insert(watch, path);
        m_watchByPath.insert(path, watch);
        m_identityByPath.insert(path, identityOf(path));
    }
    m_unwatchable = unwatchable;
}

void NodeWatcher::dropWatch(const QString &path)
{
    const int watch = m_watchByPath.take(path);
    m_pathByWatch.remove(watch);
    m_identityByPath.remove(path);
    // Fails harmlessly when the kernel already dropped it (node deleted); its last events are then unknown.
    ::inotify_rm_watch(m_fd, watch);
}

void NodeWatcher::readEvents()
{
    const NodeEvents events = takePendingEvents();
    if (!events.isEmpty())
        Q_EMIT eventsArrived(events);
}

NodeEvents NodeWatcher::takePendingEvents()
{
    NodeEvents events;
    if (m_fd < 0)
        return events;
    auto markGone = [&](const QString &path) {
        if (!events.gone.contains(path))
            events.gone.append(path);
    };
    alignas(struct inotify_event) char buffer[64 * 1024];
    while (true) {
        const ssize_t length = ::read(m_fd, buffer, sizeof buffer);
        if (length < 0) {
            const int error = errno;
            if (error == EINTR)
                continue;
            if (error != EAGAIN)
                qCWarning(lcScan).noquote() << "cannot read device node events:" << std::strerror(error);
            break;
        }
        if (length == 0)
            break;
        if (events.readAtNs == 0)
            events.readAtNs = monotonicNowNs();
        for (ssize_t offset = 0; offset + ssize_t(sizeof(inotify_event)) <= length;) {
            const auto *event = reinterpret_cast<const inotify_event *>(buffer + offset);
            offset += ssize_t(sizeof(inotify_event)) + event->len;
            if (event->mask & IN_Q_OVERFLOW) {
                events.overflow = true;
                continue;
            }
            const QString path = m_pathByWatch.value(event->wd);
            if (path.isEmpty())
                continue; // a watch dropped by setNodes: its last events and IN_IGNORED
            if (event->mask & IN_OPEN)
                ++events.opens[path];
            if (event->mask & (IN_CLOSE_WRITE | IN_CLOSE_NOWRITE))
                ++events.closes[path];
            if (event->mask & (IN_IGNORED | IN_DELETE_SELF | IN_MOVE_SELF)
                || ((event->mask & IN_ATTRIB) && identityOf(path) != m_identityByPath.value(path))) {
                // Deleted, moved away, unmounted or unlinked while open: the path no longer names this node.
                markGone(path);
                dropWatch(path);
            }
        }
    }
    return events;
}
