// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A scanner that finds the processes that hold device nodes open by reading /proc/<pid>/fd, as fuser does but
// in-process.
#include "model/snapshot.h"

#include <QHash>
#include <QString>

#include <functional>

class HolderScanner
{
public:
    // A node to look for: its path and the GPU index it stands for.
    struct Node
    {
        QString path;
        int gpu = -1;         // -1 for a shared node
        bool compute = false; // nvidia-uvm or kfd, which only CUDA and ROCm processes open
    };

    // The holders that a scan found, and the counts that HiddenHolderTracker needs.
    struct Result
    {
        QList<Holder> holders; // visible holders only; hidden=false
        // The processes whose fds could not be read (another user's without root); they may hold a node.
        int unreadableProcesses = 0;
        // Of those, the ones the kernel refused (EACCES, EPERM on the fd folder or its links): all of them without
        // root, and as root only what an LSM keeps from it. This process's own ancestors (the manager of its sandbox
        // or container may be beyond root's reach) and merely damaged entries (a fake proc root) are not counted.
        // HiddenHolderTracker infers from node events what they hold.
        int refusedProcesses = 0;
        int scannedProcesses = 0; // the processes whose fds were read
        // Node path (as in Node::path) -> the fds open on it among the visible processes, 0 included for every node
        // that could be looked up. HiddenHolderTracker compares it with inotify's open and close counts.
        QHash<QString, int> visibleFdsByNode;
    };

    explicit HolderScanner(const QString &procRoot = QStringLiteral("/proc"));

    // Returns the nodes to look for on a machine with these devices: the shared ones, then one per GPU.
    static QList<Node> nodesOf(const DeviceNodes &devices);
    // Whether a shared node is one only compute clients open: <device_root>/nvidia-uvm (every CUDA process) or
    // /dev/kfd (every ROCm process); nvidiactl, nvidia-uvm-tools and nvidia-modeset are not.
    static bool isComputeNode(const QString &path);

    // Scans every process, newest first (pids counting down from the last one the kernel gave out, wrapping
    // around), because the opener of a node is usually a new process. `onHolder` is called for each holder as soon
    // as it is found, so that the monitor can preempt before the scan ends. Processes that vanish mid-read are
    // skipped. An fd is matched by the text of its /proc link, never by a look at its file (a user's FUSE mount may
    // refuse root or never answer): a text that names a node through any mount of the node's file system in the
    // process's mount namespace (/dev, a container's bind mount) counts where /proc/<pid>/fdinfo confirms the node's
    // mount device and inode. An unreadable fd is no node, and the process's other fds still count.
    // `readSlurmJobIds` fills each holder's Holder::slurmJobId (SLURM_JOB_ID in its environment, or slurmstepd among
    // its ancestors) at the cost of one more file per holder, for Slurm mode only.
    Result scan(const QList<Node> &nodes, const std::function<void(const Holder &)> &onHolder = {},
                bool readSlurmJobIds = false) const;

    // Reads the fds of these pids only, as a quick check of processes already suspected.
    Result scanPids(const QList<qint64> &pids, const QList<Node> &nodes, bool readSlurmJobIds = false) const;

    QString procRoot() const { return m_procRoot; }

private:
    QString m_procRoot;
};
