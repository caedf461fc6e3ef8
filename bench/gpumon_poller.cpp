// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// gpu_mon's method, for bench_preemption to compare against: one loop over all GPUs that runs
// `fuser -av <nodes>` (stderr merged into stdout, as gpu_mon's subprocess.run does), parses it as gpu_mon's
// _parse_fuser_output does, stops the workload of every GPU that has a foreign holder, starts a workload on
// every GPU that has none, then sleeps the interval (so one period is the interval plus the poll itself).
// gpu_mon stops with Popen.kill(), a SIGKILL; this sends SIGTERM so that sigterm_receiver can time it: when
// the signal is sent is the same either way.
//
//   gpumon_poller INTERVAL_MS RECEIVER EVENTS_PREFIX NODE...
//
// The workload of GPU i (the i-th NODE) is `RECEIVER EVENTS_PREFIX<i>`. Each poll appends "poll <t>" (t:
// CLOCK_MONOTONIC in microseconds, when fuser starts) to EVENTS_PREFIXpolls, from which the benchmark learns the
// period. SIGTERM to the poller stops the workloads and it.
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <ctime>
#include <fcntl.h>
#include <map>
#include <set>
#include <spawn.h>
#include <sstream>
#include <string>
#include <sys/wait.h>
#include <unistd.h>
#include <vector>

extern char **environ;

namespace {

volatile sig_atomic_t quit = 0;

void onTerm(int)
{
    quit = 1;
}

// Runs fuser -av on the nodes; its stdout and stderr together, as gpu_mon reads them.
std::string runFuser(const std::vector<std::string> &nodes)
{
    int pipeFds[2];
    if (pipe(pipeFds) != 0)
        return {};
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, pipeFds[1], 1);
    posix_spawn_file_actions_adddup2(&actions, pipeFds[1], 2);
    posix_spawn_file_actions_addclose(&actions, pipeFds[0]);
    std::vector<char *> argv{const_cast<char *>("fuser"), const_cast<char *>("-av")};
    for (const std::string &node : nodes)
        argv.push_back(const_cast<char *>(node.c_str()));
    argv.push_back(nullptr);
    pid_t pid = 0;
    const int spawned = posix_spawnp(&pid, "fuser", &actions, nullptr, argv.data(), environ);
    posix_spawn_file_actions_destroy(&actions);
    close(pipeFds[1]);
    std::string output;
    char buffer[65536];
    for (;;) {
        const ssize_t got = read(pipeFds[0], buffer, sizeof buffer);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        output.append(buffer, size_t(got));
    }
    close(pipeFds[0]);
    if (spawned == 0)
        waitpid(pid, nullptr, 0);
    return output;
}

// gpu_mon's _parse_fuser_output: a line of at least 5 fields gives a holder, its pid the third field; a
// first field ending in ':' names the file. One difference: fuser puts a name longer than its column (the
// benchmark's nodes are in a temporary folder, unlike /dev/nvidia0) on a line of its own, which gpu_mon would
// skip; here any line names the file, so the parse is what gpu_mon's is on /dev/nvidia*.
std::map<std::string, std::set<pid_t>> parseFuser(const std::string &output)
{
    std::map<std::string, std::set<pid_t>> holders;
    std::string currentFile;
    std::istringstream lines(output);
    std::string line;
    while (std::getline(lines, line)) {
        std::vector<std::string> parts;
        std::istringstream fields(line);
        std::string field;
        if (!line.empty() && (line[0] == ' ' || line[0] == '\t'))
            parts.push_back(std::string()); // re.split(r'\s+') of a line that starts with blanks
        while (fields >> field)
            parts.push_back(field);
        if (!parts.empty() && parts[0].size() > 1 && parts[0].back() == ':')
            currentFile = parts[0].substr(0, parts[0].size() - 1);
        if (parts.size() < 5 || currentFile.empty())
            continue;
        char *end = nullptr;
        const long pid = strtol(parts[2].c_str(), &end, 10);
        if (*end == '\0' && pid > 0)
            holders[currentFile].insert(pid_t(pid));
    }
    return holders;
}

pid_t startWorkload(const char *receiver, const std::string &events)
{
    char *argv[] = {const_cast<char *>(receiver), const_cast<char *>(events.c_str()), nullptr};
    pid_t pid = 0;
    return posix_spawn(&pid, receiver, nullptr, nullptr, argv, environ) == 0 ? pid : 0;
}

void stopWorkload(pid_t *pid)
{
    kill(*pid, SIGTERM);
    waitpid(*pid, nullptr, 0);
    *pid = 0;
}

void appendPoll(const std::string &path)
{
    timespec now{};
    clock_gettime(CLOCK_MONOTONIC, &now);
    const std::string line = "poll " + std::to_string((long long)now.tv_sec * 1000000 + now.tv_nsec / 1000) + "\n";
    const int fd = open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0600);
    if (fd >= 0) {
        (void)!write(fd, line.data(), line.size());
        close(fd);
    }
}

// Sleeps `ms` unless SIGTERM arrives.
void sleepMs(long ms)
{
    timespec left{ms / 1000, (ms % 1000) * 1000000L};
    while (!quit && nanosleep(&left, &left) != 0 && errno == EINTR) {
    }
}

} // namespace

int main(int argc, char **argv)
{
    if (argc < 5) {
        fprintf(stderr, "usage: gpumon_poller INTERVAL_MS RECEIVER EVENTS_PREFIX NODE...\n");
        return 2;
    }
    const long intervalMs = atol(argv[1]);
    const char *receiver = argv[2];
    const std::string eventsPrefix = argv[3];
    const std::vector<std::string> nodes(argv + 4, argv + argc);
    std::vector<pid_t> workloads(nodes.size(), 0);
    struct sigaction action {};
    action.sa_handler = onTerm;
    sigaction(SIGTERM, &action, nullptr);
    sigaction(SIGINT, &action, nullptr);

    while (!quit) {
        appendPoll(eventsPrefix + "polls");
        const std::map<std::string, std::set<pid_t>> holders = parseFuser(runFuser(nodes));
        for (size_t gpu = 0; gpu < nodes.size() && !quit; ++gpu) {
            const auto held = holders.find(nodes[gpu]);
            bool foreign = false;
            if (held != holders.end()) {
                for (const pid_t pid : held->second)
                    foreign = foreign || pid != workloads[gpu];
            }
            if (foreign && workloads[gpu])
                stopWorkload(&workloads[gpu]);
            else if (!foreign && !workloads[gpu])
                workloads[gpu] = startWorkload(receiver, eventsPrefix + std::to_string(gpu));
        }
        sleepMs(intervalMs);
    }
    for (pid_t &pid : workloads) {
        if (pid)
            stopWorkload(&pid);
    }
    return 0;
}
