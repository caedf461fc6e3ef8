// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The entry point of idlegpu, which runs it in the mode that the command line chooses: the tray (the default),
// --headless, --status, --check-config, or Slurm's prolog and health check (also chosen by the program's name:
// app/slurmguard.h).
int runIdlegpu(int argc, char **argv);
