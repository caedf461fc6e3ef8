// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The inotify watch on the device nodes: IN_OPEN and IN_CLOSE arrive the moment any process (of any user) opens or
// closes a node, read through a QSocketNotifier. This is the fast path of preemption.
#include <QHash>
#include <QObject>
#include <QSet>
#include <QStringList>

class QSocketNotifier;

// The events read in one go from the inotify descriptor.
struct NodeEvents
{
    QHash<QString, int> opens;  // node path -> IN_OPEN count
    QHash<QString, int> closes; // node path -> IN_CLOSE_WRITE + IN_CLOSE_NOWRITE count
    QStringList gone;           // the nodes deleted or unmounted, or whose watch was dropped
    bool overflow = false;      // IN_Q_OVERFLOW: events were lost, so rescan everything
    // The monotonicNowNs() at which the first event was read, 0 when none was: the start of openToStopMs, unless the
    // monitor stood still before the read (Monitor::earliestOpenNs()).
    qint64 readAtNs = 0;

    bool isEmpty() const { return !overflow && opens.isEmpty() && closes.isEmpty() && gone.isEmpty(); }
};

// The watcher that reports opens and closes of the device nodes as NodeEvents.
class NodeWatcher : public QObject
{
    Q_OBJECT
public:
    explicit NodeWatcher(QObject *parent = nullptr);
    ~NodeWatcher() override;

    bool isValid() const; // false when inotify could not be set up (the poll timer still works)

    // Watches exactly these paths; unchanged paths keep their watch (a node recreated at the same path gets a new
    // watch). Paths that cannot be watched are logged and skipped.
    void setNodes(const QStringList &paths);
    QStringList watchedNodes() const;
    // Whether every path of the last setNodes() is watched (or shares the watch of another path to the same node). A
    // node that vanished between the device scan and its watch (a storm of removals) is not; call setNodes() again.
    bool watchesAll() const { return m_unwatchable.isEmpty(); }

    // Reads the events queued so far without emitting them. The monitor takes them right after a scan, so that every
    // fd that the scan saw has its open counted (the kernel queues IN_OPEN before the fd exists).
    NodeEvents takePendingEvents();

Q_SIGNALS:
    void eventsArrived(const NodeEvents &events);

private:
    void readEvents();
    void dropWatch(const QString &path);

    int m_fd = -1;
    QSocketNotifier *m_notifier = nullptr;
    QHash<int, QString> m_pathByWatch;
    QHash<QString, int> m_watchByPath;
    QHash<QString, QPair<quint64, quint64>> m_identityByPath; // dev and inode, to notice a node unlinked while open
    QSet<QString> m_unwatchable; // the paths of the last setNodes() whose watch failed; warned once
};
