// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The containment that keeps hold of every process of a workload, so that none outlives the workload's stop even when
// its idlegpu-reaper is gone. containment.cpp says how: a child subreaper, and a cgroup of its own per workload where
// systemd delegated one.
#include <QList>
#include <QString>

class QObject;

#include <sys/types.h>

// The functions that set up the containment for this process.
namespace Containment {

// Makes this process a child subreaper (PR_SET_CHILD_SUBREAPER); call it at the start of main, before any child
// exists.
bool becomeSubreaper();

// Reaps the orphans re-parented to this process as a subreaper, once they exit, leaving alone the children that a
// QProcess waits for. Returns how many it reaped.
int reapAdoptedOrphans();
// Runs reapAdoptedOrphans() every kOrphanReapIntervalMs from the event loop of `owner`'s thread while `owner` lives.
void reapAdoptedOrphansPeriodically(QObject *owner);
inline constexpr int kOrphanReapIntervalMs = 10'000;

// Where systemd delegated a cgroup v2 folder to this process, moves the process to its leaf "idlegpu" and returns
// the folder that the workloads' cgroups go in; otherwise returns an empty string. Logs once (idlegpu.runner) which
// containment is in force. Call it once, before the first workload starts; workloadCgroupParent() then answers.
QString establish();
QString workloadCgroupParent();

// The places that establish() reads, injected for tests.
struct CgroupSystem
{
    QString mountPoint = QStringLiteral("/sys/fs/cgroup"); // with cgroup v2 alone, it holds cgroup.controllers
    QString procSelfCgroup = QStringLiteral("/proc/self/cgroup");
    QString systemdRunFolder = QStringLiteral("/run/systemd/system"); // exists when systemd is PID 1 (sd_booted)
};
// Returns the cgroup folder that systemd delegated to this process; empty, with *why, when there is none.
QString findDelegatedCgroup(const CgroupSystem &system, QString *why);
// Moves this process into <delegated>/idlegpu (made when missing). Returns false and sets *error on failure.
bool moveSelfToLeaf(const QString &delegated, QString *error);

} // namespace Containment

// The functions on one workload's cgroup v2 folder, <parent>/workload-<id>.
namespace WorkloadCgroup {

// Returns the folder's path for this workload, unique per id: the id percent-encoded, cut to 200 bytes, '+' and a hash
// of the whole id when longer.
QString pathFor(const QString &parent, const QString &workloadId);
// Makes the folder (or takes the one that a previous run left, ending what still runs in it). Returns false and sets
// *error on failure.
bool create(const QString &cgroup, QString *error);
// Returns the cgroup that every workload's log writer moves to, <parent>/log-writers. createLogWriters() makes it when
// missing, leaving what runs in it alone; it returns false and sets *error on failure.
QString logWritersPath(const QString &parent);
bool createLogWriters(const QString &cgroup, QString *error);
// Opens <cgroup>/cgroup.procs for writing (O_CLOEXEC): a child that writes "0" to the fd before its exec moves
// itself in. Returns -1 and sets *error on failure.
int openProcs(const QString &cgroup, QString *error);
// Returns the processes in the cgroup (cgroup.procs); empty when there are none or the folder is gone.
QList<pid_t> members(const QString &cgroup);
// Sends SIGKILL to every process in the cgroup: through cgroup.kill (kernel >= 5.14), else to each pid in
// cgroup.procs.
void kill(const QString &cgroup);
// Removes the folder if it is empty; returns false otherwise, with errno kept.
bool remove(const QString &cgroup);

} // namespace WorkloadCgroup
