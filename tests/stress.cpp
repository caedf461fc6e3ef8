// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// Load for the fault tests, made by a small process rather than the test itself (fork from a Qt process with
// its page tables would cost far more per child; a shell loop would be too slow to reach the rates).
//
//   test_stress bystanders N
//       Starts a session of its own and N idle children in it; prints "ready" once all run, then waits. Kill its
//       process group to end them (they also die with it). If the machine refuses a fork, prints
//       "forked K of N: <reason>" on stderr and exits 3 after ending the ones it made.
//   test_stress storm PATH PER_SECOND SECONDS [HELD]
//       Opens PATH PER_SECOND times a second for SECONDS, each time holding it until just before the next open
//       (one process, so the node is nearly always held); then prints "opens <n> last-close <t>" (t: the
//       CLOCK_MONOTONIC microseconds of its last close) and exits. HELD (nvidia-uvm: a CUDA process) is opened
//       once before the storm and held throughout.
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

namespace {

long long nowUs()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000000 + ts.tv_nsec / 1000;
}

void sleepUntilUs(long long whenUs)
{
    const timespec when{time_t(whenUs / 1000000), long(whenUs % 1000000) * 1000};
    while (clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &when, nullptr) == EINTR) {
    }
}

int bystanders(int count)
{
    setsid();
    const pid_t parent = getpid();
    std::vector<pid_t> children;
    children.reserve(size_t(count));
    for (int i = 0; i < count; ++i) {
        const pid_t pid = fork();
        if (pid == 0) {
            prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (getppid() != parent)
                _exit(0);
            for (;;)
                pause();
        }
        if (pid < 0) {
            const int error = errno;
            fprintf(stderr, "forked %d of %d: %s\n", i, count, strerror(error));
            for (const pid_t child : children)
                kill(child, SIGKILL);
            for (const pid_t child : children)
                waitpid(child, nullptr, 0);
            return 3;
        }
        children.push_back(pid);
    }
    printf("ready\n");
    fflush(stdout);
    for (;;)
        pause();
}

int storm(const char *path, int perSecond, int seconds, const char *held)
{
    prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (held && open(held, O_RDONLY | O_CLOEXEC) < 0) {
        perror(held);
        return 1;
    }
    const long long periodUs = 1000000LL / perSecond;
    const long long startUs = nowUs();
    const long long endUs = startUs + seconds * 1000000LL;
    long long opens = 0, lastCloseUs = 0;
    for (long long tick = startUs; tick < endUs; tick += periodUs) {
        const int fd = open(path, O_RDONLY | O_CLOEXEC);
        if (fd < 0) {
            perror(path);
            return 1;
        }
        ++opens;
        sleepUntilUs(tick + periodUs - 50); // held for nearly the whole period
        close(fd);
        lastCloseUs = nowUs();
    }
    printf("opens %lld last-close %lld\n", opens, lastCloseUs);
    return 0;
}

} // namespace

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "bystanders") == 0)
        return bystanders(atoi(argv[2]));
    if ((argc == 5 || argc == 6) && strcmp(argv[1], "storm") == 0 && atoi(argv[3]) > 0)
        return storm(argv[2], atoi(argv[3]), atoi(argv[4]), argc == 6 ? argv[5] : nullptr);
    fprintf(stderr, "usage: test_stress bystanders N | test_stress storm PATH PER_SECOND SECONDS [HELD]\n");
    return 2;
}
