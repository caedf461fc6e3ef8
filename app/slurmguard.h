// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The modes that serve as Slurm's fail-closed hooks on a workstation that lends its GPUs (slurm/guardfile.h says
// what they read):
//  - --slurm-prolog (slurm.conf Prolog=): SlurmGuard::prologVerdict. A job refused on a busy GPU while idlegpu runs
//    and is current goes back to the queue and the node stays as it is: the prolog requeues it (scontrol requeue),
//    or cancels one Slurm could not requeue either (scancel), and exits 0; the reason goes to stderr and the system
//    log. While idlegpu cannot guard the node (not running and current, a GPU it does not watch), or when Slurm
//    answers neither, the node is drained (unless it is already) with the reason, which goes to stderr too, and the
//    exit status 1 has Slurm requeue the job. Jobs of the hold partition pass.
//  - --slurm-health (HealthCheckProgram=): drains the node (unless it is already, whatever the reason) while idlegpu
//    is not running and current; exits 0.
// Slurm runs a program without arguments: the binary called through a link named idlegpu-slurm-prolog or
// idlegpu-slurm-health acts as if given the option. Both run sinfo (the node's state) and scontrol (the drain), each
// call under a timeout, with a fixed environment (PATH=/usr/sbin:/usr/bin:/sbin:/bin, LANG=C, SLURM_CONF from their
// own environment, else the heartbeat's, else slurmd's): slurmd gives the prolog no PATH and the health check no
// SLURM_CONF.
#include "slurm/guardfile.h"

#include <QString>

#include <sys/types.h>

// The hook that a run serves, if any.
enum class SlurmGuardMode { None, Prolog, Health };

// Returns the mode that the program's name asks for: argv[0]'s base name idlegpu-slurm-prolog or
// idlegpu-slurm-health.
SlurmGuardMode slurmGuardModeOfProgram(const char *argv0);

// The inputs of a hook's run: slurmd's environment and the machine's places, or a test's.
struct SlurmGuardRun
{
    QString guardFolder;   // rootRuntimeFolderPath()
    uid_t guardOwner = 0;  // the heartbeat's owner: root
    QString procRoot = QStringLiteral("/proc");
    QString scontrol;      // its path; empty when none is found in the fixed PATH
    QString scancel;       // the same
    QString sinfo;         // the same; the node's state comes from its JSON
    QString node;          // SLURMD_NODENAME, else the short host name ([slurm] node='s default)
    SlurmGuard::PrologJob job; // SLURM_JOB_ID, SLURM_JOB_PARTITION, SLURM_JOB_GPUS
    QString slurmConf;     // SLURM_CONF of the environment; empty means the heartbeat's
    // SLURM_CONF of the parent (slurmd) when the parent is root's, for the health check, to which slurmd gives none,
    // when no heartbeat names one that exists (none written yet, or a stopped one of an old configuration).
    QString parentSlurmConf;
    qint64 nowMs = 0;      // CLOCK_MONOTONIC
};
// Returns the inputs that this process's environment and machine give.
SlurmGuardRun slurmGuardRunOfEnvironment();

// Runs a hook and returns its exit status: for the prolog 0 (the job may run, or was sent back to the queue) or 1
// (refused: the node is drained); for the health check 0.
int runSlurmGuard(SlurmGuardMode mode, const SlurmGuardRun &run = slurmGuardRunOfEnvironment());
