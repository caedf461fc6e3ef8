// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The modes --slurm-prolog and --slurm-health, Slurm's fail-closed hooks on a workstation that lends its GPUs.
// docs/command-line.md ("Slurm's prolog and health check") says what each does to a job and to the node.
// slurmd starts the hook at every job and every HealthCheckInterval, so it has a program of its own,
// idlegpu-slurm-guard (slurmguardmain.cpp), of the monitor's Qt Core stages only: the links idlegpu-slurm-prolog and
// idlegpu-slurm-health name it. idlegpu itself runs the same code for its options and for links that name it.
#include "slurm/guardfile.h"

#include <QString>

#include <sys/types.h>

// The hook that a run serves, if any.
enum class SlurmGuardMode { None, Prolog, Health };

// Returns the mode that the program's name asks for: argv[0]'s base name idlegpu-slurm-prolog or
// idlegpu-slurm-health.
SlurmGuardMode slurmGuardModeOfProgram(const char *argv0);
// Returns the mode that an argument asks for: --slurm-prolog or --slurm-health.
SlurmGuardMode slurmGuardModeOfOption(const char *argument);

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
    QString parentSlurmConf; // the root-owned parent's (slurmd's), for when no heartbeat names one that exists
    qint64 nowMs = 0;      // CLOCK_MONOTONIC
};
// Returns the inputs that this process's environment and machine give.
SlurmGuardRun slurmGuardRunOfEnvironment();

// Runs a hook and returns its exit status: 0, or 1 when the prolog refused the job and drained the node.
int runSlurmGuard(SlurmGuardMode mode, const SlurmGuardRun &run = slurmGuardRunOfEnvironment());

// idlegpu-slurm-guard's whole run: the mode from the name it is called by, else from its one argument; exit status 2
// with its usage on stderr when neither gives one.
int runSlurmGuardProgram(int argc, char **argv);
