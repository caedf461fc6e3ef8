// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// What a caller's /proc shows it of other users' processes: the options hidepid= and gid= of the proc file system
// mounted at /proc in the caller's own mount namespace, read from /proc/PID/mountinfo (proc(5)). Since Linux 5.8 each
// proc mount has its own options, so the service's own /proc (the unit's ProtectProc=) says nothing of the caller's.
#include <QByteArrayView>
#include <QList>
#include <QString>

#include <optional>

namespace ProcView {

// hidepid= as proc(5) names it; the numbers are the old spellings.
enum class HidePid { Off = 0, NoAccess = 1, Invisible = 2, Ptraceable = 4 };

struct MountOptions
{
    bool found = false; // a proc file system is mounted at /proc
    HidePid hidePid = HidePid::Off;
    std::optional<uint> gid; // gid=: its members see every process
};

// Returns the options of the proc file system mounted at /proc in `mountinfo` (the text of /proc/PID/mountinfo); of
// several stacked there, the last, which hides the others. An unknown hidepid= value counts as Invisible. Pure: it
// never fails, whatever the text; found is false when no line is a proc mount at /proc.
MountOptions parseMountInfo(QByteArrayView mountinfo);

// Returns whether a process of `uid`, in `groups`, sees other users' processes in a /proc mounted with `options`.
// Where no proc mount is found, nothing is seen (the most restrictive answer).
bool seesOthers(const MountOptions &options, uint uid, const QList<uint> &groups);

// Reads and parses procRoot/PID/mountinfo; a process gone or unreadable gives found = false (nothing seen).
MountOptions readMountInfo(qint64 pid, const QString &procRoot = QStringLiteral("/proc"));

} // namespace ProcView
