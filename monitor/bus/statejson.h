// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The monitor's state as JSON: what `idlegpu --status --json` prints and what the D-Bus service's GetState answers
// (docs/dbus.md), as a caller may see it. One place says which key holds what, and who sees it.
#include "model/monitorstate.h"

#include <QDateTime>
#include <QJsonObject>
#include <QList>

namespace StateJson {

// Who reads the state, as far as it decides what they see (docs/dbus.md, "What a caller sees"):
//  - everyone: the GPUs' state and reason, counts, the workloads' id, name, user, GPUs, state and pause;
//  - a holder's pid, uid, user, comm, argv0 and GPU memory: the privileged, the holder's own user, and whoever
//    /proc shows other users' processes to (seesOthers: hidepid off, or in its gid=);
//  - a holder's exe and session, a workload's commands, folder, log, environment and last output, the config's
//    problems in words: the privileged, and the holder's or the workload's own user.
// The privileged are root and the service's own user (on a session bus: everyone who may call).
struct View
{
    uint uid = 0;           // the caller's
    QString user;           // the caller's login name, matched against workloads' user=; empty when unknown
    bool seesOthers = true; // the caller's /proc shows other users' processes
    uint serviceUid = 0;    // the service's own uid, as which a workload without user= runs

    bool privileged() const { return uid == 0 || uid == serviceUid; }
    // What `idlegpu --status --json` prints: everything.
    static View full() { return View(); }
    bool operator==(const View &) const = default;
};

// The instant at which the JSON is made, on both clocks: the monotonic times of the state (a pause's end) are given
// as wall-clock times too.
struct Now
{
    qint64 monotonicMs = 0;
    QDateTime wallUtc;
    static Now system(); // SystemClock's and the system's now
};

// Returns the state as `view` may see it. It adds "interface_version", "pause" and each workload's "runtime" to the
// keys `--status --json` always had.
QJsonObject toJson(const MonitorState &state, const View &view, const Now &now);
// Returns the state as JSON, every field included, now.
QJsonObject toJson(const MonitorState &state);

// Returns how a holder that `view` may not see is named in the state's words: "a process of another user".
QString unseenHolderWords();

// The ledger's 24-hour timelines travel in every GetState answer: a GPU's timeline of more than
// kTimelineSegments segments (a GPU that flapped every few seconds keeps up to WorkLedger::kMaxSegmentsPerGpu) is
// sent on a grid of kTimelineGridMs, each cell taking the activity that filled most of it; on more than
// kTimelineGridGpus GPUs the grid widens in proportion. So the timelines of 8 GPUs weigh at most about 200 KB.
inline constexpr qint64 kTimelineGridMs = 5 * 60'000;
inline constexpr int kTimelineSegments = int(LedgerSummary::kTimelineSpanMs / kTimelineGridMs) + 1; // 289
inline constexpr int kTimelineGridGpus = 8;
// The longest text of a preemption (program, user, workload) that is sent, in characters, as the ledger keeps it.
inline constexpr int kMaxPreemptionText = 256;

// Returns `segments` (oldest first) as they are sent on a grid of `gridMs` (at least kTimelineGridMs): unchanged
// when there are at most as many as the grid has cells in LedgerSummary::kTimelineSpanMs, plus one; else one
// segment per cell (aligned to the epoch) over the last kTimelineSpanMs before the last segment's end, with the
// activity that filled most of the cell (a cell mostly uncovered is left out), like neighbours merged.
QList<ActivitySegment> boundedTimeline(const QList<ActivitySegment> &segments, qint64 gridMs = kTimelineGridMs);

} // namespace StateJson
