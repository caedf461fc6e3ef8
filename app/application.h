#pragma once
// Chooses the mode from the command line: the tray (default), --headless, --status, --check-config.
int runIdlegpu(int argc, char **argv);
