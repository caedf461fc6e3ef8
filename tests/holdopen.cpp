// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// A stand-in for a user's GPU job in the tests: opens every file named on the command line, then waits to be
// killed. Run through a symlink, it takes the link's name ("python3"), and it opens only after that exec, so a
// scan never sees the files held under another name. The files after a "--then-on-input" are opened once a line
// arrives on stdin: a CUDA process that opens nvidiaN before nvidia-uvm.
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--then-on-input") == 0) {
            char line[16];
            if (!fgets(line, sizeof line, stdin))
                return 1;
            continue;
        }
        if (open(argv[i], O_RDONLY) < 0) {
            perror(argv[i]);
            return 1;
        }
    }
    for (;;)
        pause();
}
