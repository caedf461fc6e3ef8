// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The tracker that infers how many open files of a device node belong to processes the scan cannot see (another
// user's, while idlegpu is not root). inotify reports every open and close of a node by anyone; a scan counts only
// the fds of readable processes. Opens that no visible fd explains are hidden holders until closes balance them.
// It is pure bookkeeping, without I/O.
#include <QHash>
#include <QString>

class HiddenHolderTracker
{
public:
    // Feeds one scan of `node`: `opens` and `closes` are the inotify counts since its previous update, `visibleFds`
    // the fds on it among visible processes, and `someUnreadable` whether any process could not be read (without
    // one, the hidden count drops to 0). `nowMs` is monotonic.
    void update(const QString &node, int opens, int closes, int visibleFds, bool someUnreadable, qint64 nowMs);
    static constexpr qint64 kHiddenHolderTtlMs = 10 * 60 * 1000;

    // Returns the confirmed open files of `node` held by invisible processes, plus one for an unknown holder
    // (eventsLost()); 0 for an unknown node. An unexplained open stays provisional for one update first.
    int hiddenCount(const QString &node) const;
    // Whether events of `node` were lost while it had invisible processes (eventsLost()) and nothing has shown it
    // free since.
    bool heldByUnknown(const QString &node) const { return m_countsByNode.value(node).heldByUnknown; }
    // Returns the unexplained opens of the last update, which the next update confirms or drops; the monitor scans
    // again at once while any is provisional.
    int provisionalCount(const QString &node) const;
    // Returns the visible fds that share an open file with another fd (fork, dup); their exit sends no close event.
    int sharedCount(const QString &node) const;

    // Forgets every count.
    void reset();
    // Records that events were lost (an inotify overflow): each node whose last update could not see every process
    // is then held by an unknown holder until an update sees every process, forgetNode() or the TTL.
    void eventsLost(qint64 nowMs);
    // Returns the monotonic time of the last open or close seen on `node`; 0 for an unknown node.
    qint64 lastEventMs(const QString &node) const { return m_countsByNode.value(node).lastEventMs; }

    // Forgets a deleted node; a node created later at its path starts from nothing.
    void forgetNode(const QString &node);

private:
    struct NodeCounts
    {
        int visibleFds = 0;
        int hidden = 0;
        int provisional = 0;
        int shared = 0;
        int closedAfterScan = 0; // the visible fds of the last update whose close was read with its events
        qint64 lastEventMs = 0; // the time of the last open or close, or of eventsLost()
        bool someUnreadable = false; // as of the last update
        bool heldByUnknown = false;  // since eventsLost()
    };
    QHash<QString, NodeCounts> m_countsByNode;
};
