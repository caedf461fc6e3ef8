// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A workload's log writer, the one process that writes its log= file, forked by idlegpu-reaper before the workload. It
// runs as the workload's user, so that a file that blocks (a FUSE file whose daemon never answers) blocks a process of
// that user's, never idlegpu or the reaper. logwriter.cpp says what it does, step by step.
#include "childsetup.h"

// The descriptors and options that idlegpu-reaper gives its log writer.
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
