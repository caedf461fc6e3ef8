// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A workload's log writer: the one process that writes its log= file. idlegpu-reaper forks it (--log) before the
// workload, and it runs as the workload's user (--user; root for a workload without user=) from then on, so that
// whatever the file does (a FUSE file whose daemon never answers a write blocks its writer in the kernel, beyond
// even SIGKILL) it does to a process of that user's, never to idlegpu or the reaper.
//
// It opens the file (appending, created 0600, never through a link, never waiting on a FIFO; only a regular file,
// /dev/null or /dev/full) and then:
//  - reads the workload's output (its standard output and error, one pipe) and passes each piece on, first to its
//    own standard output (the reaper's, which idlegpu reads: the last lines idlegpu shows), then to the file;
//  - reads idlegpu's own lines from the log socket (run/logprotocol.h) and appends each on a line of its own: never
//    in the middle of a line of the workload's, since a newline goes first when the output so far did not end with
//    one;
//  - lets the workload exec only once idlegpu's first line has come (a '+' on `release`), so that the line that
//    says it started comes first; a refused file sends '-' there, the reason to idlegpu, and the program never runs;
//  - closes `drained` once it has read the workload's output to its end (every process of the workload gone):
//    the reaper waits for that (LogProtocol::kWriterDrainMs at most) before it exits, so that idlegpu has the last
//    lines when it hears the workload ended;
//  - ends once both the output and the socket are at their end (idlegpu closes the socket after its last line).
// Its output pipe gives the workload the back-pressure a file would: a workload whose writer is stuck blocks in its
// own write(), where a signal still ends it.
//
// It leaves the reaper's session and (--log-cgroup-fd) the workload's cgroup first, so that neither the reaper's
// end of the tree, nor idlegpu's sweep, nor the cgroup's kill waits for a writer stuck in the kernel: it is the
// user's own process, left behind until its file answers. Its name is "idlegpu-log"; it never forks or execs, and
// after its switch to the user it is not dumpable, so that user cannot trace it.
#include "childsetup.h"

struct LogWriterSetup
{
    const char *path = nullptr; // --log
    const char *user = nullptr; // --user; null: stays as the reaper runs (root, for a workload without user=)
    Priority priority = Priority::Normal;
    int socket = -1;      // --log-socket: idlegpu's lines in, what the writer says out
    int cgroupProcs = -1; // --log-cgroup-fd: cgroup.procs of the cgroup it moves to; -1: stays where it is
    int output = -1;      // the read end of the workload's output pipe
    int release = -1;     // the workload reads one byte here before its exec: '+' run, '-' do not
    int drained = -1;     // closed once `output` is at its end
};

// In the forked child; never returns.
[[noreturn]] void runLogWriter(const LogWriterSetup &setup);
