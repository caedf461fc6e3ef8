// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// Infers how many open files of a device node belong to processes the scan cannot see (another user's, while
// idlegpu is not root). inotify reports every open and close of a node by anyone; a scan counts only the fds
// of readable processes. Opens that no visible fd explains are hidden holders until closes balance them.
// Pure bookkeeping: no I/O, no QObject.
#include <QHash>
#include <QString>

class HiddenHolderTracker
{
public:
    // Feeds one scan of `node`: `opens` and `closes` are the inotify counts since the previous update of this
    // node, `visibleFds` the fds on it among visible processes (HolderScanner::Result::visibleFdsByNode), and
    // `someUnreadable` whether any process could not be read. Without unreadable processes everything is
    // visible, so the hidden count drops to 0.
    // nowMs: monotonic. inotify merges identical events that queue up unread (two closes in a row), so the
    // counts can drift: a hidden holder expires when its node has had no open or close for kHiddenHolderTtlMs.
    void update(const QString &node, int opens, int closes, int visibleFds, bool someUnreadable, qint64 nowMs);
    static constexpr qint64 kHiddenHolderTtlMs = 10 * 60 * 1000;

    // Open files of `node` held by invisible processes, as far as the events tell, plus one for an unknown holder
    // (eventsLost()); 0 for an unknown node. Counts only confirmed ones: an unexplained open stays provisional for one
    // update first.
    int hiddenCount(const QString &node) const;
    // Whether events of `node` were lost while it had invisible processes (eventsLost()) and nothing has shown it
    // free since.
    bool heldByUnknown(const QString &node) const { return m_countsByNode.value(node).heldByUnknown; }
    // Unexplained opens of the last update. Most are a visible process that opened the node during the scan,
    // after the scan had passed it, or just before it with its fd not yet in /proc: the next update sees its fd
    // without an open and cancels them. What is still unexplained then is confirmed (only while some process is
    // unreadable; else it is dropped). The monitor scans again at once while any is provisional.
    int provisionalCount(const QString &node) const;
    // Visible fds that share an open file with another fd (fork, dup): their exit sends no close event.
    int sharedCount(const QString &node) const;

    // Forgets every count.
    void reset();
    // Events were lost (an inotify overflow): opens and closes of that time are unknown, so a count that reached 0
    // proves nothing any more. Each node whose last update could not see every process is held by an unknown holder
    // from now on, until an update sees every process, forgetNode() (a backend names no unseen process there) or the
    // expiry after kHiddenHolderTtlMs without events that bounds any drift of the counts. Confirmed hidden holders
    // stay; provisional opens are folded into the unknown holder.
    void eventsLost(qint64 nowMs);
    // When the last open or close of `node` was seen (monotonic ms); 0 for an unknown node.
    qint64 lastEventMs(const QString &node) const { return m_countsByNode.value(node).lastEventMs; }

    // Forgets one node (it was deleted; a node created later at its path starts from nothing).
    void forgetNode(const QString &node);

private:
    struct NodeCounts
    {
        int visibleFds = 0;
        int hidden = 0;
        int provisional = 0;
        int shared = 0;
        int closedAfterScan = 0; // visible fds of the last update whose close was read with its events
        qint64 lastEventMs = 0; // of the last open or close, or of eventsLost()
        bool someUnreadable = false; // at the last update
        bool heldByUnknown = false;  // since eventsLost()
    };
    QHash<QString, NodeCounts> m_countsByNode;
};
