// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// What Slurm says of its jobs and of a node, parsed (bytes in, values out; no I/O), and the jobs seen from one node:
// which GPU each job uses, which GPUs idlegpu's holds keep for the owner. Read from Slurm 22.05's JSON (`squeue
// --json`, `sinfo --json`: its openapi/v0.0.38 serializer), never from the text listings: `scontrol show job`
// prints a job's name, comment, work folder and command as they are, so a lab user's comment holding a newline or
// "JobId=4 JobName=idlegpu-hold-gpu1 Partition=owner" posed as a line or fields of Slurm's own, and a process named
// "p Reason=x State=IDLE" in a drain reason as the node's fields. A job of squeue's JSON reads
//   {"job_id": 3, "name": "multi", "user_id": 1001, "user_name": "bob", "job_state": "RUNNING",
//    "partition": "scavenger", "nodes": "ws[1,3]", "required_nodes": "ws[1,3]",
//    "gres_detail": ["gpu:gpu0:0(IDX:),gpu:gpu1:1(IDX:1)", "gpu:gpu0:1(IDX:0),gpu:gpu1:0(IDX:)"],
//    "job_resources": {"allocated_nodes": [{"nodename": "ws1", ...}, {"nodename": "ws3", ...}], ...}, ...}
// (gres_detail: one entry per node of the job, in the order of job_resources' allocated_nodes; every GRES type of
// the node is listed, those the job has none of with count 0 and an empty IDX). Measured on the 2-core test machine:
// `squeue --json` 15 ms a call, `scontrol show job -d --oneliner` 7 ms; about 3.5 KB a job.
#include "config/config.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>
#include <QStringList>

#include <optional>

// The parsers of Slurm's JSON listings and the view of the jobs from one node.
namespace Slurm {

// The most of one listing idlegpu reads (squeue's or sinfo's JSON): about 9,000 jobs of 3.5 KB. Slurm caps a
// job's name and comment at 1 KiB each, not the number of jobs a user may queue (MaxJobCount, 10,000 by
// default): a longer listing is refused, not read.
constexpr qsizetype kMaxListingBytes = qsizetype(32) << 20;

// One GRES of a job on some of its nodes: "gpu:gpu1:1(IDX:1)".
struct GresUse
{
    QString name;      // "gpu"
    QString type;      // "gpu1"; empty for an untyped GRES
    int count = 0;
    QList<int> idx;    // positions in the node's gres.conf of that name (not device minors)
    bool operator==(const GresUse &) const = default;
};

// The GRES a job has on some of its nodes: one entry of gres_detail.
struct NodeGres
{
    QString nodes; // a host list: "ws0", "ws[1-3,7]" (the node of the entry, or the job's nodes when it has one)
    QList<GresUse> gres;
    bool operator==(const NodeGres &) const = default;
};

// One job as squeue --json describes it, with its names made printable.
struct Job
{
    qint64 id = 0;
    QString name;      // printable (printableName())
    qint64 uid = -1;   // user_id; -1 when not given
    QString user;      // user_name, printable
    QString state;     // job_state: RUNNING, PENDING, CONFIGURING, COMPLETING, CANCELLED...
    QString partition;
    QString nodeList;    // nodes: the nodes it has (empty while pending)
    QString reqNodeList; // required_nodes: the nodes it asked for (-w); empty when none
    QList<NodeGres> gresByNodes;
    bool operator==(const Job &) const = default;

    // It has or will have resources: pending, configuring, running, suspended, completing. Finished jobs that
    // squeue still lists (MinJobAge) are not.
    bool isActive() const;
    // It has resources now: configuring, running, suspended, completing.
    bool holdsResources() const;
    // The job's GRES on `node`: those of the first group naming it.
    QList<GresUse> gresOn(const QString &node) const;
};

// Parses `squeue --json`. nullopt, with *error set ("not JSON: ... at byte 17", "no list \"jobs\""), where the
// whole is not a listing of jobs: more than kMaxListingBytes, not JSON, no "jobs" list. Within it, a job without a
// positive integer job_id is skipped, a field of the wrong type reads as absent.
std::optional<QList<Job>> parseJobsJson(const QByteArray &json, QString *error = nullptr);

// A node as `sinfo --json` shows it: {"name": "ws0", "state": "idle", "state_flags": ["DRAIN"],
// "reason": "maintenance", "reason_set_by_user": "root", ...}.
struct NodeState
{
    QString state;     // the base state, as Slurm writes it: "idle", "mixed", "allocated", "down"...
    QStringList flags; // "DRAIN", "NOT_RESPONDING", "COMPLETING"...
    QString reason;    // as set (Slurm keeps who and when apart); empty when none
    // Drained or draining: no new job lands there.
    bool drained() const;
    bool operator==(const NodeState &) const = default;
};

// The node named `node` in `sinfo --json` (which lists every node: 22.05 ignores -n there). nullopt, with *error
// set, when the whole is no node listing (as parseJobsJson()) or names no such node.
std::optional<NodeState> parseNodeJson(const QByteArray &json, const QString &node, QString *error = nullptr);

// "0-1,3" -> 0 1 3; empty or malformed parts are skipped; at most 1024 indices.
QList<int> parseIndexList(QStringView text);

// Whether a Slurm host list ("ws0", "ws[0-3,7],gpu-a") names `host`. One bracket group per name, as Slurm writes
// them for nodes numbered in one place; zero-padded ranges ("ws[01-10]") keep their width.
bool hostListContains(QStringView hostList, const QString &host);

// idlegpu's hold of GPU `gpu`: the job name of `salloc -J`.
QString holdJobName(int gpu);
// The GPU a hold's job name stands for ("idlegpu-hold-gpu3" -> 3); -1 when the name is no hold's.
int gpuOfHoldName(const QString &name);

// What Slurm's jobs mean for this node's GPUs.
struct NodeView
{
    // GPU index -> idlegpu's hold jobs for it on this node (pending or running; more than one is a duplicate).
    QHash<int, QList<Job>> holds;
    // GPU index -> the other jobs using it (the lab's), those with resources on this node.
    QHash<int, QList<Job>> labJobs;
    bool operator==(const NodeView &) const = default;
};

// Returns whether `job` is one of idlegpu's holds of this node (slurm.node): root's (uid 0), in slurm.partition,
// named holdJobName(N), and with its resources on this node or, while pending, asking for it. Only root may run jobs
// in the hold partition (AllowGroups=root), but the uid check does not rest on that.
bool isHoldOnNode(const Job &job, const SlurmConfig &slurm);

// The jobs seen from `slurm.node`: holds as isHoldOnNode(); a job uses GPU N where its GRES on this node has type
// slurm.gresTypeOf(N), or, untyped, where its IDX is N's position in `gresOrder` (the GPU indices in gres.conf
// order, as --print-slurm-conf writes them).
NodeView viewOfNode(const QList<Job> &jobs, const SlurmConfig &slurm, const QList<int> &gresOrder);

// Which of a GPU's hold jobs to keep when there are several: the one whose id salloc printed to idlegpu
// (`placedId`, 0: none), else one that has the GPU already (running) over one still pending, else the oldest
// (lowest id). Its position in `holds`; -1 when `holds` is empty.
qsizetype holdToKeep(const QList<Job> &holds, qint64 placedId);

} // namespace Slurm
