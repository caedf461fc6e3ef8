// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// idlegpu-slurm-guard: Slurm's Prolog= and HealthCheckProgram= (slurmguard.h), without the GUI's libraries.
#include "slurmguard.h"

int main(int argc, char **argv)
{
    return runSlurmGuardProgram(argc, argv);
}
