// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// idlegpu-reaper: supervises one idle workload for idlegpu.
//
//   idlegpu-reaper [--parent PID] [--grace-ms MS] [--orphan-grace-ms MS] [--priority idle|low|normal]
//                  [--user NAME [--dir FOLDER]] [--env-fd FD] [--log FILE --log-socket FD [--log-cgroup-fd FD]]
//                  -- program [args...]
//
// Why it exists: idlegpu must be able to end a workload's whole process tree (children that fork, double-fork
// or call setsid included), and nothing may survive idlegpu itself, even when idlegpu dies by SIGKILL.
// PR_SET_PDEATHSIG alone covers only the direct child, so every workload runs under this small supervisor:
//  - it starts a session of its own (its pid is the session id, reported by idlegpu as the workload's pid);
//  - it is a child subreaper, so whatever forks away and is orphaned is re-parented to it and stays findable;
//  - it gets PR_SET_PDEATHSIG when idlegpu dies and then ends the tree on its own.
//
// Signals it understands:
//  SIGTERM, SIGINT, SIGHUP  stop: SIGTERM (+SIGCONT) to every descendant; SIGKILL to what is left after
//                           --grace-ms (default 10000).
//  SIGUSR1                  kill now: SIGKILL to every descendant.
//  parent death             stop, and SIGKILL what is left after --orphan-grace-ms (default 1000).
// When the workload ends by itself, the rest of its tree gets the same stop (SIGTERM, SIGKILL after the grace).
//
// --user NAME (idlegpu as root, the workload's user=): the workload drops to that user before the exec: its
// groups (initgroups, so the video/render membership GPU access may need is kept), its primary group, then its
// uid; regaining root must then fail. The reaper itself stays root, so that the workload cannot signal, trace
// or outlive its supervisor, and its PR_SET_PDEATHSIG (cleared by a credential change) stays armed. Any
// failure ends the start with 127 and a message: the program never runs as root instead. --dir FOLDER: the
// workload's working folder, entered after the switch, so that it is entered with the user's permissions.
//
// --env-fd FD: the workload's environment, read from FD (NAME=VALUE entries, each ended by a NUL byte; idlegpu
// passes a memfd) to its end before anything starts. It is applied only in the workload's own exec, after the
// user switch: the reaper itself runs with the small fixed environment idlegpu gives it, so that no variable of
// the workload (LD_PRELOAD, LD_LIBRARY_PATH naming a user's folder) reaches a process that runs as root, and none
// (env= may hold tokens) shows in the reaper's command line or /proc/PID/environ. The program is looked up in
// the workload's PATH. Without --env-fd the workload inherits the reaper's environment.
//
// --log FILE --log-socket FD: the workload's log file, written by a log writer (logwriter.h) forked before the
// workload, running as --user from then on (as the reaper, root, without --user): neither the reaper nor idlegpu
// ever writes, reads or stats a file a user named, since one on a FUSE mount whose daemon never answers would block
// them in the kernel for good. The writer opens the file (appending, created 0600, never through a link, never
// waiting on a FIFO; only a regular file with one link as root, /dev/null or /dev/full), takes the workload's
// standard output and error through a pipe, passes them on to the reaper's own output (which idlegpu reads) and
// into the file, and appends idlegpu's own lines, which come over the Unix socket FD (run/logprotocol.h). The
// workload execs only once the writer has the file and idlegpu's first line; a refused file goes to idlegpu over
// the socket, and the start ends with 127 without running the program. --log-cgroup-fd FD: cgroup.procs of the
// cgroup the writer moves to first, out of the workload's (idlegpu's log writers' cgroup).
//
// The writer is no part of the workload's tree: it leaves the reaper's session, a stop never signals it, and the
// reaper does not wait for it to end, only (LogProtocol::kWriterDrainMs at most) for it to have read the workload's
// output to its end, so that idlegpu has the last lines before it hears the workload ended. A writer that has not
// by then is stuck on its file: the reaper tells idlegpu so over the socket and exits; the writer, the user's own
// process, ends when its file answers.
//
// Every file descriptor above 2 is closed in the child before the exec: the workload inherits only its standard
// input (idlegpu gives /dev/null), output and error.
//
// --priority ([process-*] priority; default normal): how the workload's processes share the machine, set in the
// forked child before the exec, so that the whole workload tree inherits it while the reaper itself keeps
// idlegpu's priority and answers a stop at once. idle: SCHED_IDLE, nice 19 and the idle I/O class (only the CPU
// time and disk time nobody else wants); low: nice 10; normal: as inherited. Each only lowers the priority,
// which needs no privilege, so it is set after the switch to --user: root's privilege never lifts a workload
// above idlegpu's own (a nice already above the one asked for stays). A step the kernel refuses is logged on
// stderr and the workload still runs, at the priority it has then: a lower priority is a courtesy, not a
// condition of running.
//
// Exit status: once no descendant is left, it exits the way the workload (the direct child) ended: the same
// exit code, or the same signal re-raised, so that idlegpu sees what the workload did. 127 (with a message on
// stderr) when the program cannot be run; 2 for a bad command line; 143 (128 + SIGTERM) when idlegpu was gone
// before the workload started.
//
// Plain C++17 and POSIX (no Qt): it starts in a millisecond. All signals are blocked and taken one at a time
// with sigtimedwait, so no code runs in a signal handler.

#include "childsetup.h"
#include "holders/procstatfile.h"
#include "logwriter.h"
#include "run/logprotocol.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include <algorithm>
#include <climits>
#include <set>
#include <utility>
#include <vector>

namespace {

struct Options
{
    pid_t parent = 0;           // idlegpu's pid; 0: whoever started the reaper
    long graceMs = 10'000;      // stop: SIGTERM, then SIGKILL after this
    long orphanGraceMs = 1'000; // idlegpu died: SIGTERM, then SIGKILL after this
    const char *user = nullptr; // --user: the login name the workload runs as; null: as the reaper
    const char *dir = nullptr;  // --dir: the folder the workload starts in, entered as the user; null: inherited
    Priority priority = Priority::Normal; // --priority
    int envFd = -1;              // --env-fd: where the workload's environment is read from; -1: inherited
    const char *log = nullptr;   // --log: the workload's log file, written by the log writer
    int logSocket = -1;          // --log-socket: idlegpu's end of the log writer's talk (run/logprotocol.h)
    int logCgroupFd = -1;        // --log-cgroup-fd: cgroup.procs of the cgroup the log writer moves to
    char **program = nullptr;   // argv of the workload, null-terminated
};

void printUsage()
{
    fprintf(stderr, "usage: idlegpu-reaper [--parent PID] [--grace-ms MS] [--orphan-grace-ms MS] "
                    "[--priority idle|low|normal] [--user NAME [--dir FOLDER]] [--env-fd FD] "
                    "[--log FILE --log-socket FD [--log-cgroup-fd FD]] -- program [args...]\n");
}

bool parseNumber(const char *text, long &value)
{
    if (!text || !*text)
        return false;
    char *end = nullptr;
    errno = 0;
    const long parsed = strtol(text, &end, 10);
    if (errno != 0 || *end != '\0' || parsed < 0)
        return false;
    value = parsed;
    return true;
}

bool parseOptions(int argc, char **argv, Options &options)
{
    for (int i = 1; i < argc; ++i) {
        const char *arg = argv[i];
        if (strcmp(arg, "--") == 0) {
            if (i + 1 >= argc)
                return false;
            options.program = argv + i + 1;
            // --log and --log-socket come together; --log-cgroup-fd only with them
            return (options.log == nullptr) == (options.logSocket < 0) && (options.log || options.logCgroupFd < 0);
        }
        if (strcmp(arg, "--user") == 0 || strcmp(arg, "--dir") == 0 || strcmp(arg, "--log") == 0) {
            if (i + 1 >= argc || !*argv[i + 1])
                return false;
            (strcmp(arg, "--user") == 0 ? options.user : strcmp(arg, "--dir") == 0 ? options.dir : options.log) =
                argv[++i];
            continue;
        }
        if (strcmp(arg, "--priority") == 0) {
            const char *value = i + 1 < argc ? argv[++i] : "";
            if (strcmp(value, "idle") == 0)
                options.priority = Priority::Idle;
            else if (strcmp(value, "low") == 0)
                options.priority = Priority::Low;
            else if (strcmp(value, "normal") == 0)
                options.priority = Priority::Normal;
            else
                return false;
            continue;
        }
        long value = 0;
        if (i + 1 >= argc || !parseNumber(argv[i + 1], value))
            return false;
        if (strcmp(arg, "--parent") == 0)
            options.parent = pid_t(value);
        else if (strcmp(arg, "--grace-ms") == 0)
            options.graceMs = value;
        else if (strcmp(arg, "--orphan-grace-ms") == 0)
            options.orphanGraceMs = value;
        else if (strcmp(arg, "--env-fd") == 0 && value <= INT_MAX)
            options.envFd = int(value);
        else if (strcmp(arg, "--log-socket") == 0 && value <= INT_MAX)
            options.logSocket = int(value);
        else if (strcmp(arg, "--log-cgroup-fd") == 0 && value <= INT_MAX)
            options.logCgroupFd = int(value);
        else
            return false;
        ++i;
    }
    return false; // no "--"
}

long long nowMs()
{
    timespec ts{};
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (long long)ts.tv_sec * 1000 + ts.tv_nsec / 1'000'000;
}

// One line of /proc/<pid>/stat, the fields we need.
struct ProcessInfo
{
    pid_t pid = 0;
    pid_t ppid = 0;
    pid_t group = 0;
    pid_t session = 0;
    char state = '?';
    unsigned long long startTime = 0; // tells a process from a later one that reuses its pid
};

bool readProcessInfo(pid_t pid, ProcessInfo &info)
{
    ProcStat stat;
    if (!readProcStat("/proc", pid, &stat))
        return false; // gone meanwhile
    info.pid = pid;
    info.state = stat.state;
    info.ppid = pid_t(stat.ppid);
    info.group = pid_t(stat.pgid);
    info.session = pid_t(stat.sid);
    info.startTime = stat.startTime;
    return true;
}

// Every process of the workload: descendants of the reaper (escapees that called setsid were orphaned and
// re-parented to it, the subreaper) and whatever is still in its session or process group; never the log writer
// (`writer`, our child until we reap it; 0: none). Zombies count too: one that is our child must be reaped before we
// exit, or it would be left to init.
std::vector<ProcessInfo> findWorkloadProcesses(pid_t writer)
{
    const pid_t self = getpid();
    std::vector<ProcessInfo> all;
    if (DIR *proc = opendir("/proc")) {
        while (const dirent *entry = readdir(proc)) {
            char *end = nullptr;
            const long pid = strtol(entry->d_name, &end, 10);
            ProcessInfo info;
            if (*end == '\0' && pid > 0 && pid != self && pid != writer && readProcessInfo(pid_t(pid), info))
                all.push_back(info);
        }
        closedir(proc);
    }
    std::set<pid_t> tree{self};
    for (bool grew = true; grew;) { // parents may come after their children in /proc: repeat until stable
        grew = false;
        for (const ProcessInfo &p : all)
            if (!tree.count(p.pid) && (tree.count(p.ppid) || p.session == self || p.group == self)) {
                tree.insert(p.pid);
                grew = true;
            }
    }
    std::vector<ProcessInfo> result;
    for (const ProcessInfo &p : all)
        if (tree.count(p.pid))
            result.push_back(p);
    return result;
}

// Exits the way the workload ended, so that idlegpu's QProcess sees the same exit code or signal.
[[noreturn]] void exitLike(int status)
{
    if (WIFEXITED(status))
        _exit(WEXITSTATUS(status));
    const int sig = WIFSIGNALED(status) ? WTERMSIG(status) : SIGTERM;
    const rlimit noCore{0, 0}; // the workload may have dumped core; the reaper must not add a second one
    setrlimit(RLIMIT_CORE, &noCore);
    signal(sig, SIG_DFL);
    sigset_t only;
    sigemptyset(&only);
    sigaddset(&only, sig);
    sigprocmask(SIG_UNBLOCK, &only, nullptr);
    raise(sig);
    _exit(128 + sig); // a signal whose default is to be ignored
}

// The workload's environment from --env-fd: the bytes, and the null-terminated list of entries in them.
struct Environment
{
    std::vector<char> block;
    std::vector<char *> entries;
};

// Reads NAME=VALUE entries, each ended by a NUL byte, from `fd` to its end, and closes it. False (with a message)
// when the read fails or the block is malformed: the workload never starts with half an environment.
bool readEnvironment(int fd, Environment &environment)
{
    constexpr size_t kMaxBytes = size_t(64) << 20; // far above what an exec takes: only a guard against a runaway
    char chunk[64 * 1024];
    for (;;) {
        const ssize_t size = read(fd, chunk, sizeof chunk);
        if (size < 0 && errno == EINTR)
            continue;
        if (size < 0) {
            fprintf(stderr, "idlegpu-reaper: cannot read the environment (--env-fd %d): %s\n", fd, strerror(errno));
            return false;
        }
        if (size == 0)
            break;
        if (environment.block.size() + size_t(size) > kMaxBytes) {
            fprintf(stderr, "idlegpu-reaper: the environment (--env-fd %d) is larger than %zu bytes\n", fd, kMaxBytes);
            return false;
        }
        environment.block.insert(environment.block.end(), chunk, chunk + size);
    }
    close(fd);
    if (!environment.block.empty() && environment.block.back() != '\0') {
        fprintf(stderr, "idlegpu-reaper: the environment (--env-fd %d) does not end with a NUL byte\n", fd);
        return false;
    }
    for (size_t start = 0; start < environment.block.size();) {
        char *entry = environment.block.data() + start;
        const size_t length = strlen(entry);
        if (length == 0 || entry[0] == '=' || !strchr(entry, '=')) {
            fprintf(stderr, "idlegpu-reaper: the environment (--env-fd %d) holds an entry that is not NAME=VALUE\n",
                    fd);
            return false;
        }
        environment.entries.push_back(entry);
        start += length + 1;
    }
    environment.entries.push_back(nullptr);
    return true;
}

// The log writer as the reaper and the workload see it (--log): its pid, and the ends of the pipes it shares with them.
struct LogWriterLink
{
    pid_t pid = 0;     // 0: no log, or the writer has been reaped
    int output = -1;   // the workload's: its standard output and error, read by the writer
    int release = -1;  // the workload's: one byte from the writer before the exec, '+' to run
    int drained = -1;  // ours, non-blocking: at its end once the writer has read all the workload's output
};

// Forks the log writer (logwriter.h); false with a message on stderr.
bool startLogWriter(const Options &options, LogWriterLink &link)
{
    int output[2];
    int release[2];
    int drained[2];
    if (pipe2(output, O_CLOEXEC) != 0 || pipe2(release, O_CLOEXEC) != 0 || pipe2(drained, O_CLOEXEC) != 0) {
        fprintf(stderr, "idlegpu-reaper: cannot start the log writer: pipe: %s\n", strerror(errno));
        return false;
    }
    const pid_t pid = fork();
    if (pid < 0) {
        fprintf(stderr, "idlegpu-reaper: cannot start the log writer: fork: %s\n", strerror(errno));
        return false;
    }
    if (pid == 0) {
        close(output[1]);
        close(release[0]);
        close(drained[0]);
        LogWriterSetup setup;
        setup.path = options.log;
        setup.user = options.user;
        setup.priority = options.priority;
        setup.socket = options.logSocket;
        setup.cgroupProcs = options.logCgroupFd;
        setup.output = output[0];
        setup.release = release[1];
        setup.drained = drained[1];
        runLogWriter(setup);
    }
    close(output[0]);
    close(release[1]);
    close(drained[1]);
    if (options.logCgroupFd >= 0)
        close(options.logCgroupFd); // the writer's alone
    fcntl(drained[0], F_SETFL, fcntl(drained[0], F_GETFL) | O_NONBLOCK);
    link.pid = pid;
    link.output = output[1];
    link.release = release[0];
    link.drained = drained[0];
    return true;
}

[[noreturn]] void runWorkload(const Options &options, const LogWriterLink &writer, char **environment)
{
    char **program = options.program;
    const char *user = options.user;
    const char *dir = options.dir;
    // The workload starts with default dispositions and nothing blocked. Not the mask the reaper inherited:
    // idlegpu blocks SIGTERM, SIGINT and SIGHUP in every thread to read them from a signalfd, and a workload
    // started with SIGTERM blocked could never be stopped gracefully.
    for (int sig = 1; sig < NSIG; ++sig)
        signal(sig, SIG_DFL); // fails harmlessly for SIGKILL, SIGSTOP and the real-time signals libc reserves
    sigset_t nothing;
    sigemptyset(&nothing);
    sigprocmask(SIG_SETMASK, &nothing, nullptr);
    if (user && !becomeUser(user, STDERR_FILENO))
        _exit(127);
    lowerPriority(options.priority, STDERR_FILENO);
    if (writer.release >= 0) {
        // The writer has the log file and idlegpu's first line: from here on, what the workload says goes there.
        char verdict = 0;
        ssize_t size;
        while ((size = read(writer.release, &verdict, 1)) < 0 && errno == EINTR) {
        }
        if (size != 1) // a refusal sends '-' after telling idlegpu why
            dprintf(STDERR_FILENO, "idlegpu-reaper: the log writer ended before the program could start\n");
        if (verdict != '+')
            _exit(127);
        dup2(writer.output, STDOUT_FILENO);
        dup2(writer.output, STDERR_FILENO);
    }
    if (dir && chdir(dir) != 0) {
        dprintf(STDERR_FILENO, "idlegpu-reaper: cannot enter the working folder '%s'%s%s: %s\n", dir,
                user ? " as user " : "", user ? user : "", strerror(errno));
        _exit(127);
    }
    closeDescriptorsBut({}); // the workload inherits only its standard input, output and error
    if (environment)
        environ = environment; // execvp passes it on, and looks the program up in its PATH
    execvp(program[0], program);
    dprintf(STDERR_FILENO, "idlegpu-reaper: cannot run '%s': %s\n", program[0], strerror(errno));
    _exit(127);
}

class Reaper
{
public:
    Reaper(const Options &options, pid_t parent, const LogWriterLink &writer)
        : m_options(options), m_parent(parent), m_writer(writer)
    {
    }

    [[noreturn]] void run(pid_t child)
    {
        m_child = child;
        sigset_t handled = handledSignals();
        for (;;) {
            reapChildren();
            if (m_childDone && m_phase == Phase::Running)
                requestStop(m_options.graceMs); // it ended by itself: end what it left behind
            if (getppid() != m_parent && !m_orphaned) {
                m_orphaned = true; // idlegpu died (PR_SET_PDEATHSIG may be late or lost: check each time)
                requestStop(m_options.orphanGraceMs);
            }
            if (m_phase != Phase::Running && endTree() && writerDrained())
                exitLike(m_childStatus);

            siginfo_t info;
            const timespec timeout = nextTimeout();
            const int sig = sigtimedwait(&handled, &info, &timeout);
            if (sig == SIGTERM || sig == SIGINT || sig == SIGHUP)
                requestStop(m_options.graceMs);
            else if (sig == SIGUSR1)
                m_phase = Phase::Killing;
            // SIGCHLD, SIGALRM and timeouts: the loop reaps and rescans.
        }
    }

    static sigset_t handledSignals()
    {
        sigset_t set;
        sigemptyset(&set);
        for (int sig : {SIGTERM, SIGINT, SIGHUP, SIGUSR1, SIGCHLD, SIGALRM})
            sigaddset(&set, sig);
        return set;
    }

private:
    enum class Phase {
        Running,  // the workload runs
        Stopping, // SIGTERM sent to the tree; SIGKILL at m_killAtMs
        Killing,  // SIGKILL to whatever is left, each round
    };

    void reapChildren()
    {
        int status = 0;
        pid_t pid;
        while ((pid = waitpid(-1, &status, WNOHANG)) > 0) {
            if (pid == m_child) {
                m_childDone = true;
                m_childStatus = status;
            } else if (pid == m_writer.pid) {
                m_writer.pid = 0; // its pid is free now: no longer ours to leave out
            }
        }
    }

    void requestStop(long graceMs)
    {
        if (m_phase == Phase::Killing)
            return;
        const long long killAt = nowMs() + graceMs;
        m_killAtMs = m_phase == Phase::Stopping ? std::min(m_killAtMs, killAt) : killAt;
        if (m_phase == Phase::Running && !m_childDone)
            terminate(m_child); // at once: the walk over /proc for the rest of the tree takes a while
        m_phase = Phase::Stopping;
    }

    // SIGTERM once per process (a second one means "hurry" to some programs), and SIGCONT, since a stopped
    // process would never see it.
    void terminate(pid_t pid)
    {
        ProcessInfo info;
        if (!readProcessInfo(pid, info) || !m_terminated.insert({pid, info.startTime}).second)
            return;
        kill(pid, SIGTERM);
        kill(pid, SIGCONT);
    }

    // Signals the tree as the phase says, rescanning it first (it may have forked meanwhile). True once
    // nothing of the workload is left and the workload itself has been reaped.
    bool endTree()
    {
        if (m_phase == Phase::Stopping && nowMs() >= m_killAtMs)
            m_phase = Phase::Killing;
        const std::vector<ProcessInfo> processes = findWorkloadProcesses(m_writer.pid);
        if (processes.empty())
            return m_childDone;
        for (const ProcessInfo &p : processes) {
            if (p.state == 'Z' || p.state == 'X') {
                continue; // dead already: its parent (maybe we) reaps it
            } else if (m_phase == Phase::Killing) {
                kill(p.pid, SIGKILL);
            } else if (m_terminated.insert({p.pid, p.startTime}).second) {
                kill(p.pid, SIGTERM); // as terminate(), with the start time already read
                kill(p.pid, SIGCONT);
            }
        }
        return false;
    }

    // Once the workload is gone: true when the log writer has read its output to the end, or has not within
    // LogProtocol::kWriterDrainMs, less where that would outlast the stop's grace, after which idlegpu escalates
    // (then idlegpu hears that the writer is stuck on its file, and we go without it).
    bool writerDrained()
    {
        if (m_writer.drained < 0)
            return true;
        char byte;
        const ssize_t size = read(m_writer.drained, &byte, 1);
        if (size < 0 && (errno == EAGAIN || errno == EINTR)) {
            if (m_drainDeadlineMs == 0) {
                constexpr long long kMinDrainMs = 50;
                constexpr long long kBeforeEscalationMs = 100;
                const long long now = nowMs();
                m_drainDeadlineMs = now + std::clamp(m_killAtMs - kBeforeEscalationMs - now, kMinDrainMs,
                                                     (long long)LogProtocol::kWriterDrainMs);
            }
            if (nowMs() < m_drainDeadlineMs)
                return false;
            char message[32];
            const int length = snprintf(message, sizeof message, "%c%d", LogProtocol::kWriterStuck, int(m_writer.pid));
            send(m_options.logSocket, message, size_t(length), MSG_DONTWAIT | MSG_NOSIGNAL);
        }
        close(m_writer.drained);
        m_writer.drained = -1;
        return true;
    }

    timespec nextTimeout() const
    {
        // While running, wake now and then to check the parent; while stopping, rescan often for new forks; while
        // waiting for the log writer, look often (it is done within a millisecond unless stuck).
        long long waitMs = m_phase == Phase::Running ? 1000 : m_drainDeadlineMs > 0 ? 5 : 50;
        if (m_phase == Phase::Stopping)
            waitMs = std::max(0LL, std::min(waitMs, m_killAtMs - nowMs()));
        return timespec{time_t(waitMs / 1000), long(waitMs % 1000) * 1'000'000};
    }

    const Options m_options;
    const pid_t m_parent;
    LogWriterLink m_writer;
    long long m_drainDeadlineMs = 0; // when writerDrained() gives up; 0: not waiting yet
    pid_t m_child = 0;
    bool m_childDone = false;
    int m_childStatus = 0;
    bool m_orphaned = false;
    Phase m_phase = Phase::Running;
    long long m_killAtMs = 0;
    std::set<std::pair<pid_t, unsigned long long>> m_terminated; // (pid, start time) already sent SIGTERM
};

} // namespace

int main(int argc, char **argv)
{
    // Block first: a stop that arrives during the setup below is then taken by the loop, not lost.
    const sigset_t handled = Reaper::handledSignals();
    sigprocmask(SIG_BLOCK, &handled, nullptr);

    // Once idlegpu is gone, so is the read end of our stderr: a message must not kill us by SIGPIPE.
    signal(SIGPIPE, SIG_IGN);

    Options options;
    if (!parseOptions(argc, argv, options)) {
        printUsage();
        return 2;
    }
    Environment environment;
    if (options.envFd >= 0 && !readEnvironment(options.envFd, environment))
        return 127;

    // A session (and process group) of its own: the workload inherits both, and its session id is our pid.
    if (setsid() < 0)
        fprintf(stderr, "idlegpu-reaper: setsid: %s\n", strerror(errno));
    // Orphans of the workload (double forks, setsid escapees) are re-parented to us, not to init.
    if (prctl(PR_SET_CHILD_SUBREAPER, 1) < 0)
        fprintf(stderr, "idlegpu-reaper: PR_SET_CHILD_SUBREAPER: %s\n", strerror(errno));
    prctl(PR_SET_PDEATHSIG, SIGTERM);
    // The parent may have died before PR_SET_PDEATHSIG took effect: then no signal comes, so check.
    const pid_t parent = options.parent > 0 ? options.parent : getppid();
    if (getppid() != parent)
        return 128 + SIGTERM;

    LogWriterLink writer;
    if (options.log && !startLogWriter(options, writer))
        return 127;
    const pid_t child = fork();
    if (child < 0) {
        fprintf(stderr, "idlegpu-reaper: cannot run '%s': fork: %s\n", options.program[0], strerror(errno));
        return 127; // the writer gets no first line's release: it ends with idlegpu's socket
    }
    if (child == 0)
        runWorkload(options, writer, options.envFd >= 0 ? environment.entries.data() : nullptr);
    // The workload's ends alone: the writer sees the output's end once the workload's processes are gone. The log
    // socket stays open here, for telling idlegpu of a stuck writer.
    if (writer.output >= 0)
        close(writer.output);
    if (writer.release >= 0)
        close(writer.release);

    Reaper(options, parent, writer).run(child);
}
