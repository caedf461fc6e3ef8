// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The guard file, idlegpu's heartbeat for Slurm's prolog and health check, which names idlegpu's process, the node and
// its verdict on each GPU. docs/files.md ("The heartbeat for Slurm") describes when it is written and what it holds.
// The functions are pure but for read(), GuardFile::write() and the process reads, which take the folder, the proc root
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
    // Whether the GPU is lent to the lab: its hold released and no process idlegpu counts there.
    bool lent = false;
    // The processes holding the node that idlegpu saw and did not count (an ignored program, a Slurm job, ...).
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
// Returns the NVIDIA GPUs of `devices` in gres.conf's order with the monitor's verdict on each, taken from `decision`
// and the lending workload's runtime. A GPU without a decision yet is held, with nothing uncounted.
QList<GuardGpu> gpusOfDecision(const QList<GpuDevice> &devices, const Decision &decision,
                               const QHash<QString, WorkloadRuntime> &runtimes);

// Returns user text (a process's comm) made safe for a drain reason: printable, without a space or `=`, at most 64
// characters.
QString reasonText(const QString &userText);

QByteArray toJson(const Heartbeat &heartbeat);
// Parses a heartbeat; returns nullopt with *error set when `text` is not one. It trusts no size or count it reads.
std::optional<Heartbeat> parse(const QByteArray &text, QString *error);

// The result of reading a guard file: the heartbeat, or why there is none.
struct ReadResult
{
    QString path;                       // <folder>/slurm-<node>.guard
    std::optional<Heartbeat> heartbeat; // set when the file is trusted and parses
    QString problem; // why it cannot be used: "no /run/idlegpu/slurm-ws0.guard", "... is not root's (uid 1000)"
    // Whether the file exists but is not to be trusted; then nothing in it is used, the hold partition neither.
    bool untrusted = false;
};

// Reads <folder>/slurm-<node>.guard when the folder is trusted and the file is a regular file of `owner` (root; tests
// give their own uid) that nobody else may write, at most kMaxFileBytes.
ReadResult read(const QString &folder, const QString &node, uid_t owner);

// Returns why idlegpu is not running and current on `node`, as a drain reason ("idlegpu: hangs on ws3 (no heartbeat
// for 7 s)"); empty when it is. `nowMs` is CLOCK_MONOTONIC.
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

// Returns the Prolog's verdict on `job` on `node`: Run for the hold partition's jobs, Drain when idlegpu cannot guard a
// GPU of the job, Refuse when one is held or in use. `procRoot` is where processes are looked for.
PrologVerdict prologVerdict(const ReadResult &result, const PrologJob &job, const QString &node,
                            const QString &procRoot, qint64 nowMs, const QString &defaultPartition);

// The writer of the heartbeat into a folder, as root's 0644 in one rename. It logs a failure once until a write works.
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
