// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// A stand-in for a user's GPU job in the tests: opens every file named on the command line, then waits to be
// killed. Run through a symlink, it takes the link's name ("python3"), and it opens only after that exec, so a
// scan never sees the files held under another name. The files after a "--then-on-input" are opened once a line
// arrives on stdin: a CUDA process that opens nvidiaN before nvidia-uvm.
// As a lab job's GPU process (the lab suite): "--on-term FILE" appends "gputerm NS NODE JOB" to FILE when SIGTERM
// comes (NS: CLOCK_REALTIME in ns; NODE and JOB from SLURMD_NODENAME and SLURM_JOB_ID), then exits 143, or carries
// on with "--ignore-term", as a job that ignores SIGTERM.
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

static void recordTerm(const char *path)
{
    timespec now{};
    clock_gettime(CLOCK_REALTIME, &now);
    const char *node = getenv("SLURMD_NODENAME");
    const char *job = getenv("SLURM_JOB_ID");
    char line[160];
    const int length = snprintf(line, sizeof line, "gputerm %lld%09ld %s %s\n", (long long)now.tv_sec, now.tv_nsec,
                                node ? node : "?", job ? job : "?");
    const int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
    if (fd >= 0) {
        (void)!write(fd, line, size_t(length));
        close(fd);
    }
}

int main(int argc, char **argv)
{
    const char *onTerm = nullptr;
    bool ignoreTerm = false;
    sigset_t term;
    sigemptyset(&term);
    sigaddset(&term, SIGTERM);
    for (int i = 1; i < argc; ++i) {
        if (strcmp(argv[i], "--on-term") == 0 && i + 1 < argc) {
            onTerm = argv[++i];
            sigprocmask(SIG_BLOCK, &term, nullptr); // taken by sigwait() below
            continue;
        }
        if (strcmp(argv[i], "--ignore-term") == 0) {
            ignoreTerm = true;
            continue;
        }
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
    if (!onTerm) {
        for (;;)
            pause();
    }
    for (;;) {
        int signal = 0;
        if (sigwait(&term, &signal) != 0)
            continue;
        recordTerm(onTerm);
        if (!ignoreTerm)
            return 143;
    }
}
