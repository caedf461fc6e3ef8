// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// A stand-in workload for the benchmarks: appends "ready <pid> <t>" to a file when it starts and
// "term <pid> <t>" the moment SIGTERM arrives (t: CLOCK_MONOTONIC in microseconds), then exits.
#include <csignal>
#include <cstdio>
#include <ctime>
#include <fcntl.h>
#include <unistd.h>

static long long nowUs()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

static void appendLine(const char *path, const char *what)
{
    char line[96];
    const int n = snprintf(line, sizeof line, "%s %d %lld\n", what, int(getpid()), nowUs());
    const int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd >= 0) {
        (void)!write(fd, line, size_t(n));
        close(fd);
    }
}

int main(int argc, char **argv)
{
    if (argc != 2) {
        fprintf(stderr, "usage: sigterm_receiver FILE\n");
        return 2;
    }
    sigset_t set;
    sigemptyset(&set);
    sigaddset(&set, SIGTERM);
    sigprocmask(SIG_BLOCK, &set, nullptr);
    appendLine(argv[1], "ready");
    int signal = 0;
    sigwait(&set, &signal); // wakes on SIGTERM with no handler latency
    appendLine(argv[1], "term");
    return 0;
}
