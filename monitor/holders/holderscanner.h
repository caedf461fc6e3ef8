// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A scanner that finds the processes that hold device nodes open by reading /proc/<pid>/fd, as fuser does but
// in-process.
#include "model/snapshot.h"

#include <QHash>
#include <QString>

#include <functional>

// The scanner of /proc/<pid>/fd for the processes that hold the GPUs' device nodes open.
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
        // Of those, the ones the kernel refused (EACCES, EPERM), not counting this process's own ancestors.
        int refusedProcesses = 0;
        int scannedProcesses = 0; // the processes whose fds were read
        // Node path -> the fds open on it among the visible processes, 0 for every node that could be looked up.
        QHash<QString, int> visibleFdsByNode;
    };

    explicit HolderScanner(const QString &procRoot = QStringLiteral("/proc"));

    // Returns the nodes to look for on a machine with these devices: the shared ones, then one per GPU.
    static QList<Node> nodesOf(const DeviceNodes &devices);
    // Whether a shared node is one only compute clients open: <device_root>/nvidia-uvm (every CUDA process) or
    // /dev/kfd (every ROCm process); nvidiactl, nvidia-uvm-tools and nvidia-modeset are not.
    static bool isComputeNode(const QString &path);

    // Scans every process, newest first, and calls `onHolder` for each holder as soon as it is found, so that the
    // monitor can preempt before the scan ends. It never stats a process's file. `readSlurmJobIds` fills each
    // holder's Holder::slurmJobId, at the cost of one more file per holder.
    Result scan(const QList<Node> &nodes, const std::function<void(const Holder &)> &onHolder = {},
                bool readSlurmJobIds = false) const;

    // Reads the fds of these pids only, as a quick check of processes already suspected.
    Result scanPids(const QList<qint64> &pids, const QList<Node> &nodes, bool readSlurmJobIds = false) const;

    QString procRoot() const { return m_procRoot; }

private:
    QString m_procRoot;
};
