// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// Chooses the mode from the command line: the tray (default), --headless, --status, --check-config, Slurm's prolog
// and health check (also by the name it is called by: app/slurmguard.h).
int runIdlegpu(int argc, char **argv);
