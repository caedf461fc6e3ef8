#include "hiddenholders.h"

#include "logging.h"

#include <algorithm>

// Known limits, all erring towards "still held" (the idle workload waits) rather than "free":
// - A visible fd that vanishes without a close is taken for a shared fd's exit, so a hidden close in the same
//   interval as the last close of a shared visible file is not noticed; the count stays up until reset().
// - Hidden holders that opened the node before the first update are unknown (no event was seen for them).
void HiddenHolderTracker::update(const QString &node, int opens, int closes, int visibleFds, bool someUnreadable)
{
    NodeCounts &counts = m_countsByNode[node];
    opens = std::max(opens, 0);
    closes = std::max(closes, 0);
    visibleFds = std::max(visibleFds, 0);
    const int visibleChange = visibleFds - counts.visibleFds;
    counts.visibleFds = visibleFds;
    if (!someUnreadable) {
        counts.hidden = 0;
        counts.shared = 0;
        return;
    }
    const int visibleIncrease = std::max(visibleChange, 0);
    const int visibleDecrease = std::max(-visibleChange, 0);
    // Opens that no new visible fd explains were made by processes we cannot see.
    const int hiddenOpens = std::max(0, opens - visibleIncrease);
    // New visible fds without opens were inherited or duplicated: they share an already open file.
    counts.shared += std::max(0, visibleIncrease - opens);
    // Closes that no vanished visible fd explains were made by processes we cannot see.
    const int hiddenCloses = std::max(0, closes - visibleDecrease);
    // Visible fds that vanished without a close were sharing a file that stays open elsewhere.
    counts.shared -= std::min(counts.shared, std::max(0, visibleDecrease - closes));
    const int hiddenBefore = counts.hidden;
    counts.hidden = std::max(0, counts.hidden + hiddenOpens - hiddenCloses);
    if (counts.hidden != hiddenBefore)
        qCDebug(lcScan).noquote() << "hidden holders of" << node + QLatin1Char(':') << hiddenBefore << "->"
                                  << counts.hidden << "(opens" << opens << "closes" << closes << "visible fds"
                                  << visibleFds << "shared" << counts.shared << ")";
}

int HiddenHolderTracker::hiddenCount(const QString &node) const
{
    return m_countsByNode.value(node).hidden;
}

int HiddenHolderTracker::sharedCount(const QString &node) const
{
    return m_countsByNode.value(node).shared;
}

void HiddenHolderTracker::reset()
{
    if (!m_countsByNode.isEmpty())
        qCInfo(lcScan) << "node events were lost (inotify overflow): hidden holders are counted anew";
    m_countsByNode.clear();
}

void HiddenHolderTracker::forgetNode(const QString &node)
{
    m_countsByNode.remove(node);
}
