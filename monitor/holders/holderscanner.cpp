// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "holders/holderscanner.h"

#include "base/logging.h"
#include "base/printablename.h"
#include "holders/procparse.h"
#include "config/useraccount.h"

#include <QFile>

#include <algorithm>
#include <atomic>
#include <cerrno>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <mutex>
#include <system_error>
#include <thread>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

// The hot path of every rescan, so the loop over processes and fds uses POSIX calls on descriptors relative
// to the proc root, with reused buffers and no Qt containers; Qt types are built only for the few holders,
// on the calling thread. Where it goes (1000 processes x 22 fds, 2-core VM, kernel 6.18): about 2.5 us per fd
// for the fstatat through the /proc magic link and about 20 us per process to open and list its fd folder;
// readlinkat or statx cost the same as fstatat. So past a few hundred processes the folders are read on two
// threads. A holder's details (comm, status, exe, cmdline, its ancestors' stat, environ for SLURM_JOB_ID) are read
// for the few holders only.

namespace {

// A node looked up once per scan: matched against every fd by device and inode.
struct NodeIdentity
{
    dev_t device;
    ino_t inode;
    int node; // index into the scan's node list
};

constexpr int kMaxAncestors = 64;
// argv0 longer than this is cut: enough for any real path, bounded against a hostile cmdline.
constexpr size_t kMaxArgv0Bytes = 64 * 1024;
// Enough of /proc/<pid>/environ for SLURM_JOB_ID: Slurm puts its variables among a job's first hundred or so, and an
// environment past this is cut (ARG_MAX allows 2 MiB).
constexpr size_t kMaxEnvironBytes = 256 * 1024;

bool isVanished(int error)
{
    return error == ENOENT || error == ESRCH;
}

// Reads up to `capacity` bytes of <dirFd>/<path>; returns the byte count, or -1 with errno set.
ssize_t readSmallFile(int dirFd, const char *path, char *buffer, size_t capacity)
{
    const int fd = ::openat(dirFd, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return -1;
    size_t total = 0;
    while (total < capacity) {
        const ssize_t got = ::read(fd, buffer + total, capacity - total);
        if (got < 0) {
            if (errno == EINTR)
                continue;
            const int error = errno;
            ::close(fd);
            errno = error;
            return -1;
        }
        if (got == 0)
            break;
        total += size_t(got);
    }
    ::close(fd);
    return ssize_t(total);
}

enum class StatRead { Read, Missing, Garbage };

// `isSlurmStepd`, when given, tells whether the process is slurmstepd (its comm, from the same line).
StatRead readStat(const QString &procRoot, int procFd, qint64 pid, ProcStat *stat, bool *isSlurmStepd = nullptr)
{
    char path[32];
    std::snprintf(path, sizeof path, "%lld/stat", static_cast<long long>(pid));
    char buffer[1024];
    const ssize_t length = readSmallFile(procFd, path, buffer, sizeof buffer - 1);
    if (length < 0)
        return StatRead::Missing;
    buffer[length] = '\0';
    if (!parseProcStat(buffer, stat)) {
        qCWarning(lcScan).noquote() << "cannot parse" << procRoot + QLatin1Char('/') + QLatin1String(path) + ':'
                                    << "not a process status line";
        return StatRead::Garbage;
    }
    if (isSlurmStepd) {
        const char *comm = nullptr;
        int length = 0;
        *isSlurmStepd = procStatComm(buffer, &comm, &length) && length == 10 && std::memcmp(comm, "slurmstepd", 10) == 0;
    }
    return StatRead::Read;
}

// SLURM_JOB_ID in /proc/<pid>/environ (readable as root or by the process's own user); 0 when absent or unreadable.
// Read for holders only: one small file per holder, about the cost of reading its comm.
qint64 readSlurmJobId(int procFd, qint64 pid)
{
    char path[32];
    std::snprintf(path, sizeof path, "%lld/environ", static_cast<long long>(pid));
    static thread_local std::vector<char> buffer(kMaxEnvironBytes);
    const ssize_t length = readSmallFile(procFd, path, buffer.data(), buffer.size());
    if (length <= 0)
        return 0;
    int valueLength = 0;
    const char *value = environValue(buffer.data(), int(length), "SLURM_JOB_ID", &valueLength);
    if (!value || valueLength <= 0 || valueLength > 18)
        return 0;
    qint64 id = 0;
    for (int i = 0; i < valueLength; ++i) {
        if (value[i] < '0' || value[i] > '9')
            return 0;
        id = id * 10 + (value[i] - '0');
    }
    return id;
}

// The real uid, from the "Uid:" line of /proc/<pid>/status. The owner of /proc/<pid> is only the fallback: it
// is root for a process that made itself non-dumpable.
bool readUid(int procFd, qint64 pid, uint *uid)
{
    char path[32];
    std::snprintf(path, sizeof path, "%lld/status", static_cast<long long>(pid));
    char buffer[8192];
    const ssize_t length = readSmallFile(procFd, path, buffer, sizeof buffer - 1);
    if (length > 0) {
        buffer[length] = '\0';
        const char *line = std::strstr(buffer, "\nUid:");
        char *after = nullptr;
        const unsigned long value = line ? std::strtoul(line + 5, &after, 10) : 0;
        if (line && after != line + 5) {
            *uid = uint(value);
            return true;
        }
    }
    std::snprintf(path, sizeof path, "%lld", static_cast<long long>(pid));
    struct stat info;
    if (::fstatat(procFd, path, &info, 0) != 0)
        return false;
    *uid = uint(info.st_uid);
    return true;
}

QString readComm(int procFd, qint64 pid, bool *ok)
{
    char path[32];
    std::snprintf(path, sizeof path, "%lld/comm", static_cast<long long>(pid));
    char buffer[256];
    ssize_t length = readSmallFile(procFd, path, buffer, sizeof buffer);
    *ok = length >= 0;
    if (length > 0 && buffer[length - 1] == '\n')
        --length;
    return length > 0 ? printableName(QString::fromUtf8(buffer, length)) : QString();
}

QString readExe(int procFd, qint64 pid)
{
    char path[32];
    std::snprintf(path, sizeof path, "%lld/exe", static_cast<long long>(pid));
    char target[PATH_MAX];
    const ssize_t length = ::readlinkat(procFd, path, target, sizeof target);
    return length > 0 ? printableName(QFile::decodeName(QByteArray(target, length))) : QString(); // kernel threads: none
}

QString readArgv0(int procFd, qint64 pid)
{
    char path[32];
    std::snprintf(path, sizeof path, "%lld/cmdline", static_cast<long long>(pid));
    const int fd = ::openat(procFd, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return QString();
    QByteArray argv0;
    char buffer[4096];
    while (size_t(argv0.size()) < kMaxArgv0Bytes) {
        const ssize_t got = ::read(fd, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0)
            break;
        const char *nul = static_cast<const char *>(std::memchr(buffer, '\0', size_t(got)));
        argv0.append(buffer, nul ? nul - buffer : got);
        if (nul)
            break;
    }
    ::close(fd);
    argv0.truncate(qsizetype(kMaxArgv0Bytes));
    return printableName(QFile::decodeName(argv0));
}

enum class FdsRead { Read, Gone, Unreadable };

// Reads the fd folders of processes and counts their fds on each node. The part of a scan that may run on a
// second thread: it touches only its own buffers and the scan's read-only node identities and proc root.
class FdWalker
{
public:
    FdWalker(int procFd, const std::vector<NodeIdentity> &identities, size_t nodeCount)
        : m_procFd(procFd), m_identities(identities), m_fdsPerNode(nodeCount, 0), m_entries(16 * 1024)
    {
    }

    // Fills fdsPerNode() for this process. Raw getdents64 into a reused buffer and fstatat relative to the fd
    // folder: the cost of a scan is these system calls, one per fd, and nothing else per fd.
    FdsRead read(qint64 pid)
    {
        std::fill(m_fdsPerNode.begin(), m_fdsPerNode.end(), 0);
        m_holdsAny = false;
        char path[32];
        std::snprintf(path, sizeof path, "%lld/fd", static_cast<long long>(pid));
        const int fdDirFd = ::openat(m_procFd, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (fdDirFd < 0) {
            // Anything but "gone" leaves the process unseen: count it, it may hold a node (EACCES for another
            // user's process; ENOTDIR only in a damaged or fake proc root).
            const int error = errno;
            if (isVanished(error)) {
                qCDebug(lcScan) << "process" << pid << "ended before its fds were read";
                return FdsRead::Gone;
            }
            qCDebug(lcScan) << "cannot read the fds of process" << pid << "-" << std::strerror(error);
            return FdsRead::Unreadable;
        }
        bool linksDenied = false;
        for (;;) {
            const ssize_t got = ::getdents64(fdDirFd, m_entries.data(), m_entries.size());
            if (got <= 0)
                break; // the end, or the process ended while listed: what was read stands
            for (ssize_t offset = 0; offset < got && !linksDenied;) {
                const auto *entry = reinterpret_cast<const dirent64 *>(m_entries.data() + offset);
                offset += entry->d_reclen;
                if (entry->d_name[0] == '.')
                    continue;
                linksDenied = !countFd(fdDirFd, entry->d_name);
            }
            if (linksDenied)
                break;
        }
        ::close(fdDirFd);
        if (linksDenied) {
            qCDebug(lcScan) << "cannot follow the fds of process" << pid << "- access denied";
            return FdsRead::Unreadable;
        }
        return FdsRead::Read;
    }

    const std::vector<int> &fdsPerNode() const { return m_fdsPerNode; }
    bool holdsAny() const { return m_holdsAny; }

private:
    // False when the fd links are refused: they are checked like ptrace access, per process, so one refused
    // means all are (a non-dumpable process, an LSM), even where the folder itself can be listed.
    bool countFd(int fdDirFd, const char *name)
    {
        struct stat target;
        if (::fstatat(fdDirFd, name, &target, 0) != 0)
            return errno != EACCES && errno != EPERM; // else closed meanwhile, or a target that cannot be looked up
        for (const NodeIdentity &identity : m_identities) {
            if (identity.inode == target.st_ino && identity.device == target.st_dev) {
                ++m_fdsPerNode[size_t(identity.node)];
                m_holdsAny = true;
            }
        }
        return true;
    }

    const int m_procFd;
    const std::vector<NodeIdentity> &m_identities;
    std::vector<int> m_fdsPerNode; // of the process being read, by node index
    bool m_holdsAny = false;
    std::vector<char> m_entries; // getdents64 buffer, reused for every process
};

// A holder found on the helper thread, reported on the calling thread.
struct FoundHolder
{
    qint64 pid;
    std::vector<int> fdsPerNode;
};

// From this many processes on, a scan reads fd folders on two threads (below it, starting a thread costs more
// than it saves). The work is nearly all system calls that scale with cores.
constexpr size_t kTwoThreadsFrom = 256;

// One scan: the nodes looked up, the open proc root, and what has been found so far.
class Scan
{
public:
    Scan(const QString &procRoot, const QList<HolderScanner::Node> &nodes, bool readSlurmJobIds)
        : m_procRoot(procRoot), m_nodes(nodes), m_readSlurmJobIds(readSlurmJobIds)
    {
        for (int i = 0; i < nodes.size(); ++i) {
            struct stat info;
            if (::stat(QFile::encodeName(nodes.at(i).path).constData(), &info) != 0) {
                const int error = errno;
                qCDebug(lcScan).noquote() << "cannot look up node" << nodes.at(i).path + QLatin1Char(':')
                                          << std::strerror(error);
                continue;
            }
            m_identities.push_back(NodeIdentity{info.st_dev, info.st_ino, i});
            m_result.visibleFdsByNode.insert(nodes.at(i).path, 0);
        }
        m_procFd = ::open(QFile::encodeName(procRoot).constData(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        if (m_procFd < 0) {
            const int error = errno;
            qCWarning(lcScan).noquote() << "cannot open the process folder" << procRoot + QLatin1Char(':')
                                        << std::strerror(error);
        }
    }

    ~Scan()
    {
        if (m_procFd >= 0)
            ::close(m_procFd);
    }

    Scan(const Scan &) = delete;
    Scan &operator=(const Scan &) = delete;

    // Numeric entries of the proc root, newest first.
    std::vector<qint64> listPids()
    {
        std::vector<qint64> pids;
        if (m_procFd < 0)
            return pids;
        const int listFd = ::openat(m_procFd, ".", O_RDONLY | O_DIRECTORY | O_CLOEXEC);
        DIR *dir = listFd >= 0 ? ::fdopendir(listFd) : nullptr;
        if (!dir) {
            if (listFd >= 0)
                ::close(listFd);
            return pids;
        }
        while (const dirent *entry = ::readdir(dir)) {
            const char *name = entry->d_name;
            if (*name < '1' || *name > '9')
                continue;
            char *end = nullptr;
            const long long pid = std::strtoll(name, &end, 10);
            if (*end == '\0' && pid > 0)
                pids.push_back(pid);
        }
        ::closedir(dir);
        sortNewestFirst(&pids);
        return pids;
    }

    // The kernel hands out pids counting up from the last one given and wraps around at pid_max (32768 on
    // many machines, reached in hours on a busy one). So the newest processes are the pids at and below the
    // last one, counting down, then those above it: once the pids have wrapped, "highest first" would scan the
    // opener of a node last. Without ns_last_pid (a fake proc root, an old kernel): highest first.
    void sortNewestFirst(std::vector<qint64> *pids)
    {
        m_lastPid = lastPidGiven();
        std::sort(pids->begin(), pids->end(), [this](qint64 a, qint64 b) { return isNewer(a, b); });
    }

    bool isNewer(qint64 a, qint64 b) const
    {
        const bool aAboveLast = m_lastPid > 0 && a > m_lastPid;
        const bool bAboveLast = m_lastPid > 0 && b > m_lastPid;
        return aAboveLast != bAboveLast ? !aAboveLast : a > b;
    }

    // /proc/sys/kernel/ns_last_pid: the pid the kernel gave out last in this pid namespace; 0 if unknown.
    qint64 lastPidGiven() const
    {
        char buffer[32];
        const ssize_t length = readSmallFile(m_procFd, "sys/kernel/ns_last_pid", buffer, sizeof buffer - 1);
        if (length <= 0)
            return 0;
        buffer[length] = '\0';
        char *end = nullptr;
        const long long pid = std::strtoll(buffer, &end, 10);
        return end != buffer && (*end == '\n' || *end == '\0') && pid > 0 ? pid : 0;
    }

    // Reads the processes in this order. With many, a helper thread takes processes from the same list (both
    // take the next one, so the newest are read first) and hands its holders over; the calling thread picks
    // them up after each process of its own, and reads their details and calls onHolder itself.
    void scanProcesses(const std::vector<qint64> &pids, const std::function<void(const Holder &)> &onHolder)
    {
        if (m_procFd < 0 || m_identities.empty())
            return;
        std::atomic<size_t> next{0};
        std::mutex handOverMutex;
        std::vector<FoundHolder> handedOver;
        std::atomic<bool> anyHandedOver{false};
        Counts helperCounts;
        std::thread helper;
        if (pids.size() >= kTwoThreadsFrom && std::thread::hardware_concurrency() > 1) {
            try {
                helper = std::thread([&] {
                    FdWalker walker(m_procFd, m_identities, size_t(m_nodes.size()));
                    for (size_t i; (i = next.fetch_add(1)) < pids.size();) {
                        if (!readFds(walker, pids[i], &helperCounts))
                            continue;
                        const std::lock_guard<std::mutex> lock(handOverMutex);
                        handedOver.push_back(FoundHolder{pids[i], walker.fdsPerNode()});
                        anyHandedOver.store(true);
                    }
                });
            } catch (const std::system_error &error) { // no thread to be had (RLIMIT_NPROC): one is enough
                qCDebug(lcScan) << "scanning on one thread:" << error.what();
            }
        }
        const auto reportHandedOver = [&] {
            std::vector<FoundHolder> found;
            {
                const std::lock_guard<std::mutex> lock(handOverMutex);
                found.swap(handedOver);
                anyHandedOver.store(false);
            }
            for (const FoundHolder &holder : found)
                report(holder.pid, holder.fdsPerNode, onHolder);
        };
        FdWalker walker(m_procFd, m_identities, size_t(m_nodes.size()));
        Counts counts;
        for (size_t i; (i = next.fetch_add(1)) < pids.size();) {
            if (readFds(walker, pids[i], &counts))
                report(pids[i], walker.fdsPerNode(), onHolder);
            if (anyHandedOver.load(std::memory_order_relaxed))
                reportHandedOver();
        }
        if (helper.joinable())
            helper.join();
        reportHandedOver();
        m_result.scannedProcesses += counts.scanned + helperCounts.scanned;
        m_result.unreadableProcesses += counts.unreadable + helperCounts.unreadable;
        // Newest first, whichever thread found them.
        std::sort(m_result.holders.begin(), m_result.holders.end(),
                  [this](const Holder &a, const Holder &b) { return isNewer(a.pid, b.pid); });
    }

    HolderScanner::Result takeResult() { return std::move(m_result); }

private:
    struct Counts
    {
        int scanned = 0;
        int unreadable = 0;
    };

    // Reads one process's fds; true when it holds a node. Safe on either thread: touches only its arguments.
    static bool readFds(FdWalker &walker, qint64 pid, Counts *counts)
    {
        switch (walker.read(pid)) {
        case FdsRead::Gone:
            return false;
        case FdsRead::Unreadable:
            ++counts->unreadable;
            return false;
        case FdsRead::Read:
            ++counts->scanned;
            return walker.holdsAny();
        }
        return false;
    }

    // A holder found: its details read, its fds counted, reported. On the calling thread only.
    void report(qint64 pid, const std::vector<int> &fdsPerNode, const std::function<void(const Holder &)> &onHolder)
    {
        Holder holder;
        if (!readDetails(pid, &holder)) {
            qCDebug(lcScan) << "process" << pid << "ended while its details were read";
            return;
        }
        for (size_t node = 0; node < fdsPerNode.size(); ++node) {
            if (fdsPerNode[node] == 0)
                continue;
            const HolderScanner::Node &held = m_nodes.at(qsizetype(node));
            m_result.visibleFdsByNode[held.path] += fdsPerNode[node];
            if (held.gpu < 0) {
                holder.holdsSharedNode = true;
                holder.holdsComputeNode = holder.holdsComputeNode || held.compute;
            } else if (!holder.gpus.contains(held.gpu)) {
                holder.gpus.append(held.gpu);
            }
        }
        std::sort(holder.gpus.begin(), holder.gpus.end());
        m_result.holders.append(holder);
        if (onHolder)
            onHolder(holder);
    }

    // False when the process is gone. A process whose files make no sense is still reported, with what could
    // be read: it holds a node, and a holder missed is a GPU taken from its user.
    bool readDetails(qint64 pid, Holder *holder) const
    {
        ProcStat stat;
        bool commRead = false;
        holder->pid = pid;
        holder->comm = readComm(m_procFd, pid, &commRead);
        if (!commRead || readStat(m_procRoot, m_procFd, pid, &stat) == StatRead::Missing
            || !readUid(m_procFd, pid, &holder->uid))
            return false;
        holder->ppid = stat.ppid;
        holder->pgid = stat.pgid;
        holder->sid = stat.sid;
        holder->startTime = stat.startTime;
        holder->user = userName(holder->uid);
        holder->exe = readExe(m_procFd, pid);
        holder->argv0 = readArgv0(m_procFd, pid);
        qint64 ancestor = stat.ppid;
        bool underSlurmStepd = false;
        while (ancestor > 1 && holder->ancestors.size() < kMaxAncestors) {
            holder->ancestors.append(ancestor);
            ProcStat ancestorStat;
            bool isStepd = false;
            if (readStat(m_procRoot, m_procFd, ancestor, &ancestorStat, &isStepd) != StatRead::Read)
                break;
            underSlurmStepd = underSlurmStepd || isStepd;
            ancestor = ancestorStat.ppid;
        }
        if (m_readSlurmJobIds) { // one more file per holder, on the preemption path: only where jobs are lent
            holder->slurmJobId = readSlurmJobId(m_procFd, pid);
            if (holder->slurmJobId == 0 && underSlurmStepd)
                holder->slurmJobId = -1;
        }
        return true;
    }

    const QString m_procRoot;
    const QList<HolderScanner::Node> &m_nodes;
    const bool m_readSlurmJobIds;
    std::vector<NodeIdentity> m_identities;
    int m_procFd = -1;
    qint64 m_lastPid = 0; // ns_last_pid when the pids were listed; 0: unknown
    HolderScanner::Result m_result;
};

} // namespace

HolderScanner::HolderScanner(const QString &procRoot) : m_procRoot(procRoot) {}

bool HolderScanner::isComputeNode(const QString &path)
{
    const QStringView name = QStringView(path).mid(path.lastIndexOf(QLatin1Char('/')) + 1);
    return name == QLatin1String("nvidia-uvm") || name == QLatin1String("kfd");
}

QList<HolderScanner::Node> HolderScanner::nodesOf(const DeviceNodes &devices)
{
    QList<Node> nodes;
    for (const QString &path : devices.sharedNodes)
        nodes.append({path, -1, isComputeNode(path)});
    for (const GpuDevice &gpu : devices.gpus)
        nodes.append({gpu.path, gpu.index});
    return nodes;
}

HolderScanner::Result HolderScanner::scan(const QList<Node> &nodes,
                                          const std::function<void(const Holder &)> &onHolder,
                                          bool readSlurmJobIds) const
{
    Scan scan(m_procRoot, nodes, readSlurmJobIds);
    scan.scanProcesses(scan.listPids(), onHolder);
    return scan.takeResult();
}

HolderScanner::Result HolderScanner::scanPids(const QList<qint64> &pids, const QList<Node> &nodes,
                                              bool readSlurmJobIds) const
{
    Scan scan(m_procRoot, nodes, readSlurmJobIds);
    std::vector<qint64> newestFirst;
    for (const qint64 pid : pids) {
        if (pid > 0)
            newestFirst.push_back(pid);
    }
    std::sort(newestFirst.begin(), newestFirst.end());
    newestFirst.erase(std::unique(newestFirst.begin(), newestFirst.end()), newestFirst.end());
    scan.sortNewestFirst(&newestFirst);
    scan.scanProcesses(newestFirst, {});
    return scan.takeResult();
}
