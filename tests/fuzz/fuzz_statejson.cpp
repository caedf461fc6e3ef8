// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// libFuzzer target: a client's reading of the service's state (StateJson::fromJson, what RemoteMonitor does with
// GetState's answer) on arbitrary bytes. Whatever the service sends, the reading must not crash, must keep the
// ledger within what a service sends (50 preemptions, 2048 segments per GPU, indices below 4096, no time before
// 1970 or after 2100), and the state it gives must go out as JSON again without a fault.
#include "bus/statejson.h"
#include "bus/statejsonreader.h"
#include "fuzzsupport.h"

#include <QJsonDocument>

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    silenceQtMessages();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QJsonDocument document = QJsonDocument::fromJson(
        QByteArray::fromRawData(reinterpret_cast<const char *>(data), qsizetype(size)));
    if (!document.isObject())
        return 0;
    const QDateTime wallNow(QDate(2026, 12, 3), QTime(12, 0), Qt::UTC);
    const MonitorState state = StateJson::fromJson(document.object(), 1'000'000, wallNow);
    constexpr qint64 kMaxWallMs = 4'102'444'800'000LL; // 2100-01-01
    const LedgerSummary &ledger = state.ledger;
    if (ledger.recentPreemptions.size() > LedgerSummary::kRecentPreemptions)
        std::abort();
    for (auto it = ledger.lastDay.cbegin(); it != ledger.lastDay.cend(); ++it) {
        if (it.key() < 0 || it.key() >= 4096 || it->size() > 2048)
            std::abort();
        for (const ActivitySegment &segment : *it)
            if (segment.fromWallMs < 0 || segment.toWallMs <= segment.fromWallMs || segment.toWallMs > kMaxWallMs)
                std::abort();
        if (StateJson::boundedTimeline(*it).size() > StateJson::kTimelineSegments)
            std::abort();
    }
    for (const PreemptionRecord &record : ledger.recentPreemptions)
        if (record.wallMs < 0 || record.wallMs > kMaxWallMs || record.culpritPid < 0
            || (record.openToStopMs && !(*record.openToStopMs >= 0)))
            std::abort();
    StateJson::View stranger;
    stranger.uid = 1003;
    stranger.seesOthers = false;
    QJsonDocument(StateJson::toJson(state, stranger, {1'000'000, wallNow})).toJson(QJsonDocument::Compact);
    return 0;
}
