// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "logwriter.h"

// The log writer is forked by idlegpu-reaper (--log) before the
// workload, and it runs as the workload's user (--user; root for a workload without user=) from then on, so that
// whatever the file does (a FUSE file whose daemon never answers a write blocks its writer in the kernel, beyond
// even SIGKILL) it does to a process of that user's, never to idlegpu or the reaper.
//
// It opens the file (appending, created 0600, never through a link, never waiting on a FIFO; only a regular file,
// /dev/null or /dev/full) and then:
//  - reads the workload's output (its standard output and error, one pipe) and passes each piece on, first to its
//    own standard output (the reaper's, which idlegpu reads: the last lines idlegpu shows), then to the file;
//  - reads idlegpu's own lines from the log socket (run/logprotocol.h) and appends each on a line of its own: never
//    in the middle of a line of the workload's, since a newline goes first when the output so far did not end with
//    one;
//  - lets the workload exec only once idlegpu's first line has come (a '+' on `release`), so that the line that
//    says it started comes first; a refused file sends '-' there, the reason to idlegpu, and the program never runs;
//  - closes `drained` once it has read the workload's output to its end (every process of the workload gone):
//    the reaper waits for that (LogProtocol::kWriterDrainMs at most) before it exits, so that idlegpu has the last
//    lines when it hears the workload ended;
//  - ends once both the output and the socket are at their end (idlegpu closes the socket after its last line).
// Its output pipe gives the workload the back-pressure a file would: a workload whose writer is stuck blocks in its
// own write(), where a signal still ends it.
//
// It leaves the reaper's session and (--log-cgroup-fd) the workload's cgroup first, so that neither the reaper's
// end of the tree, nor idlegpu's sweep, nor the cgroup's kill waits for a writer stuck in the kernel: it is the
// user's own process, left behind until its file answers. Its name is "idlegpu-log"; it never forks or execs, and
// after its switch to the user it is not dumpable, so that user cannot trace it.

#include "run/logprotocol.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>


namespace {

// Why what lies at the log's path is no file to append to.
const char *describeNonFile(mode_t mode)
{
    if (S_ISLNK(mode))
        return "it is a symbolic link, and log files are opened without following links";
    if (S_ISFIFO(mode))
        return "it is a FIFO, not a regular file";
    if (S_ISSOCK(mode))
        return "it is a socket, not a regular file";
    if (S_ISCHR(mode) || S_ISBLK(mode))
        return "it is a device, not a regular file (of the devices only /dev/null and /dev/full are taken)";
    if (S_ISDIR(mode))
        return "it is a folder";
    return "it is not a regular file";
}

// After the user switch: opens the log file. Returns the file descriptor, or -1 with *why.
int openLog(const char *path, char *why, size_t whySize)
{
    const int fd = open(path, O_WRONLY | O_APPEND | O_CREAT | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC, 0600);
    struct stat info{};
    if (fd < 0) {
        const int error = errno;
        // O_NOFOLLOW fails a link with ELOOP, O_NONBLOCK a FIFO without a reader with ENXIO: say what is there.
        if ((error == ELOOP || error == ENXIO) && lstat(path, &info) == 0 && !S_ISREG(info.st_mode))
            snprintf(why, whySize, "%s", describeNonFile(info.st_mode));
        else
            snprintf(why, whySize, "%s", strerror(error));
        return -1;
    }
    const char *refusal = nullptr;
    if (fstat(fd, &info) != 0)
        refusal = strerror(errno);
    else if (S_ISCHR(info.st_mode) && (info.st_rdev == makedev(1, 3) || info.st_rdev == makedev(1, 7)))
        ; // /dev/null (gpu_mon's example has log=/dev/null), /dev/full: sinks that do nothing else
    else if (!S_ISREG(info.st_mode))
        refusal = describeNonFile(info.st_mode);
    else if (info.st_nlink > 1 && geteuid() == 0) // a user's hard link to a file of root's, where links are allowed
        refusal = "it has more than one hard link, and root appends only to a file with one";
    if (refusal) {
        snprintf(why, whySize, "%s", refusal);
        close(fd);
        return -1;
    }
    // Blocking writes from here on: the writer waits for its file as the workload would for its own.
    fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) & ~O_NONBLOCK);
    return fd;
}

// Says `kind` and `text` to idlegpu, never waiting: a message that does not fit is dropped.
void say(int socket, char kind, const char *text)
{
    char message[LogProtocol::kMaxMessageBytes];
    const int length = snprintf(message, sizeof message, "%c%s", kind, text);
    const size_t size = size_t(length) < sizeof message ? size_t(length) : sizeof message - 1;
    send(socket, message, size, MSG_DONTWAIT | MSG_NOSIGNAL);
}

// Writes all of `size` bytes to `fd`, waiting as long as it takes; false (errno set) on an error.
bool writeAll(int fd, const char *data, size_t size)
{
    while (size > 0) {
        const ssize_t written = write(fd, data, size);
        if (written < 0 && errno == EINTR)
            continue;
        if (written <= 0)
            return false;
        data += written;
        size -= size_t(written);
    }
    return true;
}

class Writer
{
public:
    Writer(const LogWriterSetup &setup, int file)
        : m_file(file), m_socket(setup.socket), m_output(setup.output), m_drained(setup.drained)
    {
    }

    void say(char kind, const char *text = "") { ::say(m_socket, kind, text); }

    // Waits for idlegpu's first line; false when the socket ended first (idlegpu let go of the run).
    bool awaitFirstLine()
    {
        while (m_socket >= 0) {
            pollfd socket{m_socket, POLLIN, 0};
            if (poll(&socket, 1, -1) < 0 && errno != EINTR)
                return false;
            if (receiveLine(/*firstOnly=*/true))
                return true;
        }
        return false;
    }

    // Passes on the workload's output and idlegpu's lines until both have ended.
    [[noreturn]] void run()
    {
        fcntl(m_output, F_SETFL, fcntl(m_output, F_GETFL) | O_NONBLOCK);
        while (m_output >= 0 || m_socket >= 0) {
            pollfd fds[2];
            nfds_t count = 0;
            if (m_output >= 0)
                fds[count++] = {m_output, POLLIN, 0};
            if (m_socket >= 0)
                fds[count++] = {m_socket, POLLIN, 0};
            if (poll(fds, count, -1) < 0 && errno != EINTR)
                break;
            // The output first: idlegpu's line about an end comes after the workload's processes are gone, so
            // everything they printed is in the pipe by then and goes before it.
            readOutput();
            while (receiveLine(/*firstOnly=*/false)) {
            }
        }
        _exit(0);
    }

    // The first line of idlegpu's, as awaitFirstLine() received it: written once the workload may run.
    void writeFirstLine() { appendLine(m_first, m_firstSize); }

private:
    // Reads what the output pipe holds now, a bounded amount (a workload that prints faster than the file takes it
    // must not starve idlegpu's lines); at its end, tells the reaper.
    void readOutput()
    {
        static char buffer[64 * 1024];
        for (int round = 0; m_output >= 0 && round < kReadsPerRound; ++round) {
            const ssize_t size = read(m_output, buffer, sizeof buffer);
            if (size < 0 && errno == EINTR)
                continue;
            if (size < 0 && errno == EAGAIN)
                return;
            if (size <= 0) {
                close(m_output);
                m_output = -1;
                close(m_drained);
                m_drained = -1;
                return;
            }
            forward(buffer, size_t(size));
            append(buffer, size_t(size));
            m_atLineStart = buffer[size - 1] == '\n';
        }
    }

    // One message from idlegpu, appended as a line (or, with firstOnly, kept for writeFirstLine()); false when none
    // is there now or the socket has ended.
    bool receiveLine(bool firstOnly)
    {
        char message[LogProtocol::kMaxMessageBytes];
        ssize_t size = -1;
        while (m_socket >= 0) {
            size = recv(m_socket, message, sizeof message, MSG_DONTWAIT);
            // ECONNRESET: idlegpu closed with a message of ours unread; what it sent before still comes.
            if (size < 0 && (errno == EINTR || errno == ECONNRESET))
                continue;
            if (size < 0 && errno == EAGAIN)
                return false;
            if (size > 0)
                break;
            close(m_socket);
            m_socket = -1;
        }
        if (m_socket < 0)
            return false;
        if (firstOnly) {
            memcpy(m_first, message, size_t(size));
            m_firstSize = size_t(size);
        } else {
            appendLine(message, size_t(size));
        }
        return true;
    }

    void appendLine(const char *text, size_t size)
    {
        char line[LogProtocol::kMaxMessageBytes + 2];
        size_t length = 0;
        if (!m_atLineStart)
            line[length++] = '\n';
        memcpy(line + length, text, size);
        length += size;
        line[length++] = '\n';
        append(line, length);
        m_atLineStart = true;
    }

    // To idlegpu, which shows the last lines; once it no longer reads (it let go of the reaper), never again.
    void forward(const char *data, size_t size)
    {
        if (m_forwarding && !writeAll(STDOUT_FILENO, data, size))
            m_forwarding = false;
    }

    void append(const char *data, size_t size)
    {
        if (writeAll(m_file, data, size) || m_writeFailed)
            return;
        m_writeFailed = true; // said once: a full disk would otherwise say it at every line
        say(LogProtocol::kWriteFailed, strerror(errno));
    }

    static constexpr int kReadsPerRound = 16;

    int m_file;
    int m_socket;
    int m_output;
    int m_drained;
    bool m_atLineStart = true;
    bool m_forwarding = true;
    bool m_writeFailed = false;
    char m_first[LogProtocol::kMaxMessageBytes];
    size_t m_firstSize = 0;
};

// Refuses the log: `text` to idlegpu, '-' to the workload, then ends.
[[noreturn]] void refuse(int socket, int release, const char *text)
{
    say(socket, LogProtocol::kRefused, text);
    const char no = '-';
    [[maybe_unused]] const ssize_t ignored = write(release, &no, 1);
    _exit(0);
}

} // namespace

void runLogWriter(const LogWriterSetup &setup)
{
    prctl(PR_SET_NAME, "idlegpu-log");
    // Out of the reaper's session and process group: neither its end of the workload's tree nor a SIGKILL to its
    // group takes the writer, which must outlive it to write idlegpu's last line.
    setsid();
    for (int sig = 1; sig < NSIG; ++sig)
        signal(sig, SIG_DFL);
    signal(SIGPIPE, SIG_IGN); // forwarding to an idlegpu that let go of the reaper's output fails with EPIPE
    sigset_t nothing;
    sigemptyset(&nothing);
    sigprocmask(SIG_SETMASK, &nothing, nullptr);
    // It may outlive the reaper by long (stuck on its file): nothing else of idlegpu's or the reaper's stays with it.
    closeDescriptorsBut({setup.socket, setup.cgroupProcs, setup.output, setup.release, setup.drained});
    [[maybe_unused]] const int moved = chdir("/"); // it holds no folder of the workload's busy

    char why[1024];
    if (setup.cgroupProcs >= 0) {
        if (write(setup.cgroupProcs, "0", 1) != 1) {
            char text[1400];
            snprintf(text, sizeof text, "cannot open log file %s: its writer cannot leave the workload's cgroup: %s",
                     setup.path, strerror(errno));
            refuse(setup.socket, setup.release, text);
        }
        close(setup.cgroupProcs);
    }
    // A user switch that fails fails the workload's own the same way, which says why: nothing to add.
    if (setup.user && !becomeUser(setup.user, -1)) {
        const char no = '-';
        [[maybe_unused]] const ssize_t ignored = write(setup.release, &no, 1);
        _exit(0);
    }
    lowerPriority(setup.priority, -1); // the workload's own says what it could not lower

    const int file = openLog(setup.path, why, sizeof why);
    if (file < 0) {
        char text[1800];
        snprintf(text, sizeof text, "cannot open log file %s: %s%s%s%s", setup.path, why,
                 setup.user ? " (opened as user " : "", setup.user ? setup.user : "", setup.user ? ")" : "");
        refuse(setup.socket, setup.release, text);
    }
    Writer writer(setup, file);
    writer.say(LogProtocol::kOpened);
    const bool go = writer.awaitFirstLine();
    const char verdict = go ? '+' : '-';
    [[maybe_unused]] const ssize_t released = write(setup.release, &verdict, 1);
    close(setup.release);
    if (go)
        writer.writeFirstLine();
    writer.run();
}
