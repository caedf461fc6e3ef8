// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The parsers of what Slurm says of its jobs and of a node (bytes in, values out, no I/O), and the view of the jobs
// from one node: which GPU each job uses and which GPUs idlegpu's holds keep. They read only Slurm 22.05's JSON, never
// the text listings, whose fields a user's text can forge; slurmjobs.cpp says why and shows a job.
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

    // Whether it has or will have resources: pending, configuring, running, suspended or completing.
    bool isActive() const;
    // Whether it has resources now: configuring, running, suspended or completing.
    bool holdsResources() const;
    // The job's GRES on `node`: those of the first group naming it.
    QList<GresUse> gresOn(const QString &node) const;
};

// Parses `squeue --json`; nullopt with *error set ("no list \"jobs\"") when it is no listing of jobs or is over
// kMaxListingBytes. A job without a positive job_id is skipped; a field of the wrong type reads as absent.
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

// Returns whether `job` is one of idlegpu's holds of this node: root's, in slurm.partition, named holdJobName(N), and
// on this node (or asking for it while pending).
bool isHoldOnNode(const Job &job, const SlurmConfig &slurm);

// Returns the jobs seen from `slurm.node`. `gresOrder` is the GPU indices in gres.conf's order.
NodeView viewOfNode(const QList<Job> &jobs, const SlurmConfig &slurm, const QList<int> &gresOrder);

// Returns the position in `holds` of the hold job to keep when a GPU has several; -1 when `holds` is empty. `placedId`
// is the id salloc printed to idlegpu (0: none).
qsizetype holdToKeep(const QList<Job> &holds, qint64 placedId);

} // namespace Slurm
