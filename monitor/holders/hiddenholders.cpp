// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "holders/hiddenholders.h"

#include "base/logging.h"

#include <algorithm>

// Known limits, all erring towards "still held" (the idle workload waits) rather than "free", except the
// expiry after kHiddenHolderTtlMs without events, which bounds a drift of the counts:
// - A visible fd that vanishes without a close is taken for a shared fd's exit, so a hidden close in the same
//   interval as the last close of a shared visible file is not noticed; the count stays up until reset().
// - Hidden holders that opened the node before the first update are unknown (no event was seen for them).
//
// `visibleFds` is HolderScanner::Result::visibleFdsByNode's count. inotify merges identical events that queue up
// unread (two closes in a row), so the counts can drift; a hidden holder therefore expires when its node has had no
// open or close for kHiddenHolderTtlMs.
void HiddenHolderTracker::update(const QString &node, int opens, int closes, int visibleFds, bool someUnreadable,
                                 qint64 nowMs)
{
    NodeCounts &counts = m_countsByNode[node];
    opens = std::max(opens, 0);
    closes = std::max(closes, 0);
    visibleFds = std::max(visibleFds, 0);
    if (opens || closes || visibleFds != counts.visibleFds)
        qCDebug(lcScan).noquote() << "node" << node << "opens" << opens << "closes" << closes << "visible fds"
                                  << counts.visibleFds << "->" << visibleFds << "provisional" << counts.provisional;
    // The events are read after the scan, so a close read last time may be of an fd that scan still saw: that
    // fd is gone already, and its disappearance now is no shared fd's exit.
    const int visibleChange = visibleFds - std::max(0, counts.visibleFds - counts.closedAfterScan);
    counts.visibleFds = visibleFds;
    counts.closedAfterScan = 0;
    if (!someUnreadable) {
        // Nothing is hidden. An open that no new fd explains stays provisional for this one update all the same:
        // the kernel reports an open before the opener's fd shows in /proc, so a scan that answers the event at
        // once can come too early, and the monitor looks again while any is provisional.
        const int unexplainedCloses = std::max(0, closes - std::max(-visibleChange, 0)); // a short-lived opener's
        const int unexplainedOpens = std::max(0, opens - std::max(visibleChange, 0) - unexplainedCloses);
        counts = NodeCounts{visibleFds, 0, unexplainedOpens, 0, 0, nowMs, false, false};
        return;
    }
    counts.someUnreadable = true;
    if (opens || closes)
        counts.lastEventMs = nowMs;
    const int visibleIncrease = std::max(visibleChange, 0);
    const int visibleDecrease = std::max(-visibleChange, 0);
    const int hiddenBefore = counts.hidden;
    // New visible fds without opens: either the late sight of last update's provisional opens (a process that
    // opened the node mid-scan), or fds inherited or duplicated that share an already open file.
    const int visibleWithoutOpen = std::max(0, visibleIncrease - opens);
    const int lateSights = std::min(counts.provisional, visibleWithoutOpen);
    counts.shared += visibleWithoutOpen - lateSights;
    // Last update's unexplained opens that are still unexplained were made by processes we cannot see.
    counts.hidden += counts.provisional - lateSights;
    // Opens that no new visible fd explains: provisional until the next update.
    counts.provisional = std::max(0, opens - visibleIncrease);
    // Closes that no vanished visible fd explains were made by processes we cannot see.
    const int hiddenCloses = std::max(0, closes - visibleDecrease);
    // Visible fds that vanished without a close were sharing a file that stays open elsewhere.
    counts.shared -= std::min(counts.shared, std::max(0, visibleDecrease - closes));
    // A hidden close ends a provisional open first (a short-lived hidden job), then a confirmed one.
    const int closesOfProvisional = std::min(counts.provisional, hiddenCloses);
    counts.provisional -= closesOfProvisional;
    const int closesOfHidden = std::min(counts.hidden, hiddenCloses - closesOfProvisional);
    counts.hidden -= closesOfHidden;
    // Closes that no hidden open explains either: fds this scan saw, closed before their events were read.
    counts.closedAfterScan = std::min(visibleFds, hiddenCloses - closesOfProvisional - closesOfHidden);
    if ((counts.hidden > 0 || counts.heldByUnknown) && nowMs - counts.lastEventMs >= kHiddenHolderTtlMs) {
        qCInfo(lcScan).noquote() << "no open or close of" << node << "for" << kHiddenHolderTtlMs / 60000
                                 << "min: no longer counting" << hiddenCount(node)
                                 << (hiddenCount(node) == 1 ? "hidden holder" : "hidden holders")
                                 << "on it (run idlegpu as root to see every process)";
        counts.hidden = 0;
        counts.heldByUnknown = false;
    }
    if (counts.hidden != hiddenBefore)
        qCDebug(lcScan).noquote() << "hidden holders of" << node + QLatin1Char(':') << hiddenBefore << "->"
                                  << counts.hidden << "(opens" << opens << "closes" << closes << "visible fds"
                                  << visibleFds << "shared" << counts.shared << ")";
}

int HiddenHolderTracker::hiddenCount(const QString &node) const
{
    const NodeCounts counts = m_countsByNode.value(node);
    return counts.hidden + (counts.heldByUnknown ? 1 : 0);
}

// Most unexplained opens are a visible process that opened the node during the scan, after the scan had passed it or
// before its fd was in /proc; the next update sees the fd without an open and cancels them. What is still unexplained
// then is confirmed while some process is unreadable, and dropped otherwise.
int HiddenHolderTracker::provisionalCount(const QString &node) const
{
    return m_countsByNode.value(node).provisional;
}

int HiddenHolderTracker::sharedCount(const QString &node) const
{
    return m_countsByNode.value(node).shared;
}

void HiddenHolderTracker::reset()
{
    m_countsByNode.clear();
}

// After lost events a count that reached 0 proves nothing. forgetNode() is called when a backend names no unseen
// process on the node. Confirmed hidden holders stay; provisional opens are folded into the unknown holder.
void HiddenHolderTracker::eventsLost(qint64 nowMs)
{
    for (auto it = m_countsByNode.begin(); it != m_countsByNode.end(); ++it) {
        NodeCounts &counts = it.value();
        if (!counts.someUnreadable)
            continue; // the next scan sees every holder of it
        if (!counts.heldByUnknown)
            qCInfo(lcScan).noquote() << "opens and closes of" << it.key() << "were lost: it counts as held by a "
                                        "process of another user until a scan or a GPU backend shows it free";
        counts.heldByUnknown = true;
        counts.provisional = 0;
        counts.closedAfterScan = 0;
        counts.lastEventMs = nowMs;
    }
}

void HiddenHolderTracker::forgetNode(const QString &node)
{
    m_countsByNode.remove(node);
}
