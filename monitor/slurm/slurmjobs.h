// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// What Slurm says of its jobs, parsed (text in, values out; no I/O) and seen from one node: which GPU each job uses,
// which GPUs idlegpu's holds keep for the owner. Fed by `scontrol show job -d --oneliner`, whose lines read
//   JobId=2 JobName=lab UserId=bob(1001) ... JobState=RUNNING ... Partition=scavenger ... NodeList=ws0 ...
//   JOB_GRES=gpu:gpu0:1,gpu:gpu1:0   Nodes=ws0 CPU_IDs=1 Mem=0 GRES=gpu:gpu0:1(IDX:0),gpu:gpu1:0(IDX:) ...
// (Slurm 22.05: every GRES type of the node is listed, those the job has none of with count 0 and an empty IDX).
#include "config/config.h"

#include <QByteArray>
#include <QHash>
#include <QList>
#include <QString>

#include <optional>

namespace Slurm {

// One GRES of a job on some of its nodes: "gpu:gpu1:1(IDX:1)".
struct GresUse
{
    QString name;      // "gpu"
    QString type;      // "gpu1"; empty for an untyped GRES
    int count = 0;
    QList<int> idx;    // positions in the node's gres.conf of that name (not device minors)
    bool operator==(const GresUse &) const = default;
};

// The GRES a job has on the nodes of one "Nodes=" group of the detailed listing.
struct NodeGres
{
    QString nodes; // a host list: "ws0", "ws[1-3,7]"
    QList<GresUse> gres;
    bool operator==(const NodeGres &) const = default;
};

struct Job
{
    qint64 id = 0;
    QString name;
    QString user;      // UserId=bob(1001) -> bob
    QString state;     // JobState: RUNNING, PENDING, CONFIGURING, COMPLETING, CANCELLED...
    QString partition;
    QString nodeList;    // NodeList: the nodes it has (empty while pending)
    QString reqNodeList; // ReqNodeList: the nodes it asked for (-w); empty when none
    QList<NodeGres> gresByNodes;
    bool operator==(const Job &) const = default;

    // It has or will have resources: pending, configuring, running, suspended, completing. Finished jobs that
    // scontrol still lists (MinJobAge) are not.
    bool isActive() const;
    // It has resources now: configuring, running, suspended, completing.
    bool holdsResources() const;
    // The job's GRES on `node`: those of the first Nodes= group naming it.
    QList<GresUse> gresOn(const QString &node) const;
};

// Parses the output of `scontrol show job -d --oneliner`: one job per line. Fields are KEY=VALUE separated by
// spaces; a word without '=' continues the value before it (a JobName with a space). Lines without a JobId are
// skipped. Never fails: garbage gives fewer jobs.
QList<Job> parseShowJobs(const QByteArray &text);

// A node as `scontrol show node NODE --oneliner` shows it: "State=IDLE+DRAIN ... Reason=maintenance [root@...]".
struct NodeState
{
    QString state;  // "IDLE", "IDLE+DRAIN", "MIXED+DRAIN", "DOWN+DRAIN+NOT_RESPONDING"...
    QString reason; // without Slurm's " [user@time]"; empty when none
    // Drained or draining: no new job lands there.
    bool drained() const;
    bool operator==(const NodeState &) const = default;
};

// The line of `node` in scontrol's node listing; nullopt when none names it with a State.
std::optional<NodeState> parseShowNode(const QByteArray &text, const QString &node);

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

// The jobs seen from `slurm.node`: a hold is a job named holdJobName(N) in slurm.partition that asked for or has this
// node; a job uses GPU N where its GRES on this node has type slurm.gresTypeOf(N), or, untyped, where its IDX is N's
// position in `gresOrder` (the GPU indices in gres.conf order, as --print-slurm-conf writes them).
NodeView viewOfNode(const QList<Job> &jobs, const SlurmConfig &slurm, const QList<int> &gresOrder);

} // namespace Slurm
