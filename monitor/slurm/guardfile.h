// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// idlegpu's heartbeat for Slurm's own fail-closed hooks ("the guard file"): idlegpu in Slurm mode writes
// <root runtime folder>/slurm-<node>.guard every second and whenever its verdict on a GPU changes, from the monitor's
// thread (a hung monitor stops it), once before its first Slurm command and once more, marked stopped, at a clean
// exit. Slurm's Prolog and HealthCheckProgram (idlegpu --slurm-prolog / --slurm-health) read it without reading
// idlegpu's config: it names the process (pid and start time, so that a reused pid is not taken for it), the node, the
// hold partition, SLURM_CONF (the health check gets none from slurmd) and the GPUs in gres.conf's order with their
// device nodes and idlegpu's verdict on each: lent to the lab or held, and the processes it saw there and did not
// count (an ignored program, a graphics client under busy_when = auto, a workload's own), each by pid and start time.
// The prolog so judges a GPU as the monitor does, without the monitor's config: it refuses a job on a GPU idlegpu
// holds, or where a process holds the node that idlegpu did not account for (one that appeared since), and drains
// the node only when idlegpu is not there to judge.
//
// idlegpu is "running and current" on a node when the file is root's, a regular file nobody else may write, parses,
// names that node, was not marked stopped, was written less than kCurrentForMs ago, and its pid is alive with the
// start time written. Anything else, a link, another owner's file, garbage, a dead or reused pid, is a reason to
// refuse the node's jobs, said in words that start with kReasonPrefix (Slurm's drain reason).
//
// Pure but for read(), GuardFile::write() and the process reads of the verdicts, which take the folder, the proc root
// and the clock, so that tests need no root and no Slurm.
#include "holders/holderscanner.h"
#include "model/decision.h"
#include "model/snapshot.h"
#include "model/workloadruntime.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>

#include <optional>
#include <sys/types.h>

// The guard file's format, its reading and writing, and the hooks' verdicts on it.
namespace SlurmGuard {

// Every drain idlegpu makes starts with this: idlegpu resumes a node drained so, and no other.
inline constexpr char kReasonPrefix[] = "idlegpu: ";
// A heartbeat older than this (CLOCK_MONOTONIC) says idlegpu hangs: it is written every second.
inline constexpr qint64 kCurrentForMs = 5'000;
// A real one is a few hundred bytes per GPU and about 60 per process idlegpu does not count.
inline constexpr qint64 kMaxFileBytes = 512 * 1024;
inline constexpr int kMaxGpus = 1024;
// Processes not counted, over all GPUs: a desktop has a few dozen graphics clients. Beyond this the rest are left out,
// and the prolog refuses jobs on their GPU as it would for a process idlegpu never saw.
inline constexpr int kMaxUncounted = 4096;

// A process by pid and start time (/proc/<pid>/stat field 22): another process that gets the pid later is not it.
struct ProcessId
{
    qint64 pid = 0;
    quint64 startTime = 0;
    bool operator==(const ProcessId &) const = default;
};

// One GPU as the guard file describes it.
struct GuardGpu
{
    int index = -1; // idlegpu's GPU index, the N of nvidiaN
    QString path;   // its device node
    // idlegpu's verdict: lent to the lab (its hold released, no process it counts there). False: held for the owner,
    // or being held, or not yet lent.
    bool lent = false;
    // The processes holding the node that idlegpu saw and did not count: ignore_programs, service_programs, a
    // workload's own, a graphics client busy_when lets be, a Slurm job.
    QList<ProcessId> uncounted;
    bool operator==(const GuardGpu &) const = default;
};

// The whole contents of a guard file: who wrote it, when, and each GPU.
struct Heartbeat
{
    qint64 pid = 0;
    quint64 startTime = 0; // /proc/<pid>/stat field 22 (clock ticks after boot)
    QString node;
    QString partition;     // of the holds: its jobs pass the prolog
    QString slurmConf;     // SLURM_CONF as idlegpu has it; empty when unset
    QList<GuardGpu> gpus;  // the NVIDIA GPUs in gres.conf's order: a job's GRES index is a position here
    qint64 monotonicMs = 0; // CLOCK_MONOTONIC when written (the same clock for every process of the machine)
    QString writtenAt;     // UTC, ISO 8601, for people
    bool stopped = false;  // written at a clean exit
    bool operator==(const Heartbeat &) const = default;
};

// Returns the guard file's name for a node: "slurm-ws0.guard".
QString fileName(const QString &node);
// Returns the NVIDIA GPUs of `devices` as the heartbeat lists them, in gres.conf's order (by index), with the monitor's
// verdict on each: lent while its lending workload ([slurm], Config::slurmWorkloadId) runs and `decision` has it
// running there; uncounted, the holders `decision` saw there and left out (GpuStatus::ignoredHolders, openOnlyHolders)
// that have a known start time. Without a decision for a GPU (none made yet): held, nothing uncounted.
QList<GuardGpu> gpusOfDecision(const QList<GpuDevice> &devices, const Decision &decision,
                               const QHash<QString, WorkloadRuntime> &runtimes);

// User text (a process's comm) as it may stand in a drain reason, a field of `scontrol show node`'s line: printable
// (printableName, unless it went through it already) with a space as \x20 and `=` as \x3d, so that it cannot end
// the reason and add a field of its own (`p Reason=x`, `x State=IDLE`); cut to 64 characters.
QString reasonText(const QString &userText);

QByteArray toJson(const Heartbeat &heartbeat);
// Parses a heartbeat; returns nullopt with *error set when `text` is not one: not JSON, a field missing or of another
// type, a relative device path, too many GPUs. It never trusts a size or a count it reads.
std::optional<Heartbeat> parse(const QByteArray &text, QString *error);

// The result of reading a guard file: the heartbeat, or why there is none.
struct ReadResult
{
    QString path;                       // <folder>/slurm-<node>.guard
    std::optional<Heartbeat> heartbeat; // set when the file is trusted and parses
    // Why it cannot be used, when it cannot: "no /run/idlegpu/slurm-ws0.guard", "... is not root's (uid 1000)".
    QString problem;
    // The file exists but is not to be trusted (a link, another owner's, writable by others, not a regular file):
    // nothing in it is used, the hold partition neither.
    bool untrusted = false;
};

// Reads <folder>/slurm-<node>.guard as idlegpu's only when the folder is trusted (SecureFile::openTrustedFolder) and
// the file, opened once with O_NOFOLLOW and checked on that fd, is a regular file owned by `owner` (root; tests give
// their own uid), writable by nobody else, at most kMaxFileBytes.
ReadResult read(const QString &folder, const QString &node, uid_t owner);

// Returns why idlegpu is not running and current on `node` by `result`, as a drain reason ("idlegpu: not running on
// ws3 (pid 4242 is gone)", "idlegpu: hangs on ws3 (no heartbeat for 7 s)"); empty when it is. `nowMs` is
// CLOCK_MONOTONIC.
QString notRunningReason(const ReadResult &result, const QString &node, const QString &procRoot, qint64 nowMs);

// The job a Prolog is asked about (slurmd's environment).
struct PrologJob
{
    qint64 id = 0;            // SLURM_JOB_ID
    QString partition;        // SLURM_JOB_PARTITION
    QList<int> gresPositions; // SLURM_JOB_GPUS: positions in gres.conf
};

// What the Prolog does with a job, and why.
struct PrologVerdict
{
    // What the Prolog does.
    enum class Action {
        Run,    // the job may run
        Refuse, // a GPU of the job is busy: the job goes back to the queue, the node stays as it is
        Drain,  // idlegpu cannot guard the node (not running and current, or a GPU it does not watch): drain it
    };
    Action action = Action::Run;
    QString reason; // Refuse, Drain: starting with kReasonPrefix, one line; empty for Run
    bool operator==(const PrologVerdict &) const = default;
};

// The Prolog's verdict on `job` on `node`. Jobs of the hold partition (the heartbeat's, else `defaultPartition` when
// there is no trusted heartbeat) run. The others: Drain when idlegpu is not running and current, or when a GPU they got
// is not one the heartbeat names; Refuse when idlegpu holds a GPU they got ("idlegpu: GPU 1 of ws2 is held for its
// owner"), or when a process has its device node open that is neither the job's nor a Slurm job's nor one the heartbeat
// lists as uncounted there with the same start time ("idlegpu: GPU 1 of ws2 is in use by pid 977 (python3)");
// else Run. `procRoot`: where the processes are looked for, as the monitor's scan does.
PrologVerdict prologVerdict(const ReadResult &result, const PrologJob &job, const QString &node,
                            const QString &procRoot, qint64 nowMs, const QString &defaultPartition);

// Writes the heartbeat into a folder, as root's 0644 in one rename (SecureFile::replaceFileAt). A failure is logged
// once, and again once it has been written since.
class GuardFile
{
public:
    // `folder`: rootRuntimeFolderPath() (made where missing), or the tests' own, which is trusted for this user.
    explicit GuardFile(const QString &folder);
    bool write(const Heartbeat &heartbeat);

private:
    QString m_folder;
    QString m_lastError;
};

// This process as a heartbeat names it: its pid, its start time and its SLURM_CONF (when an absolute path).
Heartbeat selfHeartbeat(const QString &procRoot = QStringLiteral("/proc"));

} // namespace SlurmGuard
