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
#include <charconv>
#include <climits>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <system_error>
#include <thread>
#include <vector>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

// The hot path of every rescan, so the loop over processes and fds uses POSIX calls on descriptors relative
// to the proc root, with reused buffers and no Qt containers; Qt types are built only for the few holders,
// on the calling thread. An fd is matched by the text of its /proc link, which the kernel writes without asking the
// file's file system: a stat through the link would go into it, and a user's FUSE mount refuses root (the process
// then looked unreadable) or never answers (the scan then waits for good). Where it goes (1000 processes x 20 fds,
// 2-core VM, kernel 6.18): about 2.5 us per fd in all, the readlinkat costing what the fstatat did (1.7 us each in
// one run, the fd folder's open included), and about 20 us per process to open and list its fd folder; a read of
// /proc/<pid>/fdinfo costs 3.2 us more per fd, so it is read only for an fd whose text names a node, and a process's
// mount namespace (one readlinkat) only at its first fd with a path: 5-10% more CPU per scan than the fstatat in all.
// So past a few hundred processes the folders are read on two threads. A holder's details (comm, status, exe, cmdline, its ancestors' stat, environ for
// SLURM_JOB_ID) are read for the few holders only.

namespace {

// A node looked up once per scan, as the fd links name it: the path inside its file system and that file system's
// device (as /proc/<pid>/mountinfo names it), from which each mount namespace's paths to it follow, and its inode.
struct NodeIdentity
{
    dev_t device;
    ino_t inode;
    int node;           // index into the scan's node list
    std::string fsPath; // inside its file system: "/nvidia0" for /dev/nvidia0 on devtmpfs
    std::string path;   // canonical, here
};

// One line of /proc/<pid>/mountinfo.
struct MountEntry
{
    int id = 0;
    dev_t device = 0;
    std::string root;  // the folder of the file system mounted there ("/" unless a bind mount of a part)
    std::string point; // where, as the namespace's processes see it
};

// A namespace's mount table is a few kB; a user can make one of 100000 mounts: past this it is not read, and fdinfo
// decides each of that namespace's fds instead.
constexpr size_t kMaxMountInfoBytes = 1024 * 1024;
// Mount tables one scan reads at most (per thread), past which fdinfo decides: a desktop has a few dozen namespaces
// (a service's ProtectSystem=, a flatpak, a container), a user can make thousands.
constexpr size_t kMaxMountTables = 64;
constexpr size_t kMaxMountTableBytes = 4 * 1024 * 1024;

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

enum class FileRead { Read, Missing, TooLong };

// All of <dirFd>/<path> into `text`, when it is at most `limit` bytes.
FileRead readWholeFile(int dirFd, const char *path, size_t limit, std::string *text)
{
    const int fd = ::openat(dirFd, path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return FileRead::Missing;
    text->clear();
    char buffer[64 * 1024];
    FileRead result = FileRead::Read;
    for (;;) {
        const ssize_t got = ::read(fd, buffer, sizeof buffer);
        if (got < 0 && errno == EINTR)
            continue;
        if (got <= 0) {
            result = got == 0 ? FileRead::Read : FileRead::Missing;
            break;
        }
        if (text->size() + size_t(got) > limit) {
            result = FileRead::TooLong;
            break;
        }
        text->append(buffer, size_t(got));
    }
    ::close(fd);
    return result;
}

// A mountinfo field as the kernel wrote it, its octal escapes (\040 for a space, \012 for a newline) undone.
std::string unescapeMountField(std::string_view field)
{
    std::string text;
    text.reserve(field.size());
    for (size_t i = 0; i < field.size(); ++i) {
        const auto octal = [&field](size_t at) { return at < field.size() && field[at] >= '0' && field[at] <= '7'; };
        if (field[i] == '\\' && octal(i + 1) && octal(i + 2) && octal(i + 3)) {
            text += char(((field[i + 1] - '0') << 6) | ((field[i + 2] - '0') << 3) | (field[i + 3] - '0'));
            i += 3;
        } else {
            text += field[i];
        }
    }
    return text;
}

// The mounts of /proc/<pid>/mountinfo: "36 35 98:0 /mnt1 /mnt2 rw,noatime master:1 - ext3 /dev/root rw".
std::vector<MountEntry> parseMountInfo(std::string_view text)
{
    std::vector<MountEntry> mounts;
    while (!text.empty()) {
        const size_t newline = text.find('\n');
        std::string_view line = text.substr(0, newline);
        text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
        std::string_view fields[5];
        int count = 0;
        while (count < 5 && !line.empty()) {
            const size_t space = line.find(' ');
            fields[count++] = line.substr(0, space);
            line = space == std::string_view::npos ? std::string_view() : line.substr(space + 1);
        }
        MountEntry mount;
        unsigned int major = 0, minor = 0;
        const std::string_view &device = fields[2];
        const size_t colon = device.find(':');
        if (count < 5 || colon == std::string_view::npos
            || std::from_chars(fields[0].data(), fields[0].data() + fields[0].size(), mount.id).ec != std::errc()
            || std::from_chars(device.data(), device.data() + colon, major).ec != std::errc()
            || std::from_chars(device.data() + colon + 1, device.data() + device.size(), minor).ec != std::errc()
            || fields[3].empty() || fields[3][0] != '/' || fields[4].empty() || fields[4][0] != '/')
            continue;
        mount.device = makedev(major, minor);
        mount.root = unescapeMountField(fields[3]);
        mount.point = unescapeMountField(fields[4]);
        mounts.push_back(std::move(mount));
    }
    return mounts;
}

// Whether `path` is `folder` or lies below it; `rest` is what follows it ("" or "/...").
bool pathWithin(std::string_view path, std::string_view folder, std::string_view *rest)
{
    if (folder == "/") {
        *rest = path;
        return true;
    }
    if (path.size() < folder.size() || path.compare(0, folder.size(), folder) != 0
        || (path.size() > folder.size() && path[folder.size()] != '/'))
        return false;
    *rest = path.substr(folder.size());
    return true;
}

// Folder paths joined: ("/srv/c", "/dev", "/nvidia0") is "/srv/c/dev/nvidia0"; "/" stands for nothing between.
std::string joinPaths(std::initializer_list<std::string_view> parts)
{
    std::string path;
    for (const std::string_view part : parts)
        if (part != "/")
            path += part;
    return path.empty() ? std::string("/") : path;
}

// The mount `path` (canonical here) lies on: the one at the longest mount point above it, the last mounted of those
// stacked there; one of `device` (stat's) first, since a btrfs subvolume or an overlay reports another.
const MountEntry *mountOf(const std::vector<MountEntry> &mounts, std::string_view path, dev_t device)
{
    const MountEntry *best = nullptr;
    for (const MountEntry &mount : mounts) {
        std::string_view rest;
        if (!pathWithin(path, mount.point, &rest))
            continue;
        const bool betterDevice = best && (mount.device == device) != (best->device == device);
        if (!best || (betterDevice && mount.device == device)
            || (!betterDevice && mount.point.size() >= best->point.size()))
            best = &mount;
    }
    return best;
}

// The nodes as the fd links of one mount namespace name them. The kernel writes a link's text from the file's mount
// up to the namespace's root (the reader's root where it is reachable): through every mount of a node's file system
// that shows the node (/dev, a bind mount of /dev or of the node itself, as container runtimes make), the path there
// is a text that can be the node, and no other text can, but for a hard link (only root makes one in /dev).
struct NamespaceView
{
    struct Text
    {
        std::string text;
        size_t identity; // index into the scan's identities
    };
    std::string key;                           // "mnt:[N]"
    std::vector<Text> texts;                   // where some node can be
    std::vector<std::pair<int, dev_t>> mounts; // mount id -> device, by id
    bool known = false;                        // false: no mount table; fdinfo decides each absolute path

    std::optional<dev_t> deviceOf(int mountId) const
    {
        const auto it = std::lower_bound(mounts.begin(), mounts.end(), std::make_pair(mountId, dev_t(0)));
        if (it == mounts.end() || it->first != mountId)
            return std::nullopt;
        return it->second;
    }
};

// Whether `text` is `path` below some folder ("/srv/box/dev/nvidia0" of "/dev/nvidia0").
bool endsWithPath(std::string_view text, std::string_view path)
{
    return text.size() > path.size() && text.substr(text.size() - path.size()) == path && path.front() == '/';
}

// The texts through `mounts` (as mountinfo lists them to a process whose root is its namespace's).
void fillView(NamespaceView *view, const std::vector<MountEntry> &mounts, const std::vector<NodeIdentity> &identities)
{
    view->known = true;
    for (const MountEntry &mount : mounts) {
        view->mounts.emplace_back(mount.id, mount.device);
        for (size_t i = 0; i < identities.size(); ++i) {
            std::string_view rest;
            if (identities[i].device != mount.device || !pathWithin(identities[i].fsPath, mount.root, &rest))
                continue;
            std::string text = joinPaths({mount.point, rest});
            const bool listed = std::any_of(view->texts.begin(), view->texts.end(), [&](const NamespaceView::Text &t) {
                return t.identity == i && t.text == text;
            });
            if (!listed)
                view->texts.push_back({std::move(text), i});
        }
    }
    std::sort(view->mounts.begin(), view->mounts.end());
}

// What /proc/<pid>/fdinfo/<fd> says of the file: the mount and the inode (since Linux 5.14).
struct FdInfo
{
    std::optional<int> mountId;
    std::optional<unsigned long long> inode;
};

// The number after `name` on a line of /proc text ("mnt_id:\t25"); nullopt on another line.
template<typename Number>
std::optional<Number> fieldValue(std::string_view line, std::string_view name)
{
    if (line.substr(0, name.size()) != name)
        return std::nullopt;
    line.remove_prefix(name.size());
    while (!line.empty() && (line.front() == ' ' || line.front() == '\t'))
        line.remove_prefix(1);
    Number number{};
    if (std::from_chars(line.data(), line.data() + line.size(), number).ec != std::errc())
        return std::nullopt;
    return number;
}

std::optional<FdInfo> readFdInfo(int procFd, qint64 pid, const char *fd)
{
    char path[64];
    std::snprintf(path, sizeof path, "%lld/fdinfo/%s", static_cast<long long>(pid), fd);
    char buffer[1024];
    const ssize_t length = readSmallFile(procFd, path, buffer, sizeof buffer);
    if (length <= 0)
        return std::nullopt;
    FdInfo info;
    std::string_view text(buffer, size_t(length));
    while (!text.empty()) {
        const size_t newline = text.find('\n');
        const std::string_view line = text.substr(0, newline);
        text = newline == std::string_view::npos ? std::string_view() : text.substr(newline + 1);
        if (const auto mountId = fieldValue<int>(line, "mnt_id:"))
            info.mountId = mountId;
        else if (const auto inode = fieldValue<unsigned long long>(line, "ino:"))
            info.inode = inode;
    }
    return info;
}

// The job of a slurmstepd's title, which it sets for each job step it runs: "slurmstepd: [7.batch]" -> 7; 0 when the
// title is none of that form.
qint64 jobIdOfStepdTitle(const QString &title)
{
    static const QLatin1String prefix("slurmstepd: [");
    if (!title.startsWith(prefix))
        return 0;
    qint64 id = 0;
    qsizetype digits = 0;
    for (qsizetype i = prefix.size(); i < title.size() && title.at(i).isDigit() && digits < 18; ++i, ++digits)
        id = id * 10 + title.at(i).digitValue();
    const qsizetype end = prefix.size() + digits;
    return digits > 0 && end < title.size() && (title.at(end) == QLatin1Char('.') || title.at(end) == QLatin1Char(']'))
               ? id
               : 0;
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

// Refused: the kernel refuses this process's fds even to this scan (EACCES, EPERM); Unreadable: anything else but gone.
enum class FdsRead { Read, Gone, Unreadable, Refused };

// What a scan matches fds against: built once, then only read, by either thread.
struct NodeMatcher
{
    std::vector<NodeIdentity> identities;
    NamespaceView ownView;    // this process's mount namespace
    std::string ownNamespace; // its "mnt:[N]"; empty when unknown
    NamespaceView unknownView; // a namespace whose mount table is not read: fdinfo decides
};

// Reads the fd folders of processes and counts their fds on each node. The part of a scan that may run on a
// second thread: it touches only its own buffers and the scan's read-only matcher and proc root.
class FdWalker
{
public:
    FdWalker(int procFd, const NodeMatcher &matcher, size_t nodeCount)
        : m_procFd(procFd), m_matcher(matcher), m_fdsPerNode(nodeCount, 0), m_entries(16 * 1024)
    {
    }

    // Fills fdsPerNode() for this process. Raw getdents64 into a reused buffer and readlinkat relative to the fd
    // folder: the cost of a scan is these system calls, one per fd, and fdinfo only for an fd whose text names a node.
    FdsRead read(qint64 pid)
    {
        std::fill(m_fdsPerNode.begin(), m_fdsPerNode.end(), 0);
        m_holdsAny = false;
        m_pid = pid;
        m_view = nullptr;
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
            return error == EACCES || error == EPERM ? FdsRead::Refused : FdsRead::Unreadable;
        }
        bool linksRefused = false;
        for (;;) {
            const ssize_t got = ::getdents64(fdDirFd, m_entries.data(), m_entries.size());
            if (got <= 0)
                break; // the end, or the process ended while listed: what was read stands
            for (ssize_t offset = 0; offset < got && !linksRefused;) {
                const auto *entry = reinterpret_cast<const dirent64 *>(m_entries.data() + offset);
                offset += entry->d_reclen;
                if (entry->d_name[0] == '.')
                    continue;
                linksRefused = !countFd(fdDirFd, entry->d_name);
            }
            if (linksRefused)
                break;
        }
        ::close(fdDirFd);
        if (linksRefused) {
            qCDebug(lcScan) << "cannot read the fd links of process" << pid << "- access denied";
            return FdsRead::Refused;
        }
        return FdsRead::Read;
    }

    const std::vector<int> &fdsPerNode() const { return m_fdsPerNode; }
    bool holdsAny() const { return m_holdsAny; }

private:
    // False when the fd links are refused: they are checked like ptrace access, per process, so one refused
    // means all are (a non-dumpable process, an LSM), even where the folder itself can be listed. Any other failure
    // is this fd's alone (closed meanwhile): it is no node, and the process's other fds still count.
    bool countFd(int fdDirFd, const char *name)
    {
        const ssize_t length = ::readlinkat(fdDirFd, name, m_target, sizeof m_target);
        if (length < 0)
            return errno != EACCES && errno != EPERM;
        // socket:[..], pipe:[..], anon_inode:..: no file. A text that fills the buffer is cut, and no node's is.
        if (length == 0 || m_target[0] != '/' || size_t(length) >= sizeof m_target)
            return true;
        const std::string_view text(m_target, size_t(length));
        const NamespaceView &view = viewOfProcess();
        if (!view.known) {
            countByFdInfo(name, text, view);
            return true;
        }
        m_matched.clear();
        const auto collect = [&](const NamespaceView &from, bool belowAnyRoot) {
            for (const NamespaceView::Text &candidate : from.texts)
                if ((candidate.text == text || (belowAnyRoot && endsWithPath(text, candidate.text)))
                    && std::find(m_matched.begin(), m_matched.end(), candidate.identity) == m_matched.end())
                    m_matched.push_back(candidate.identity);
        };
        if (&view == &m_matcher.ownView) {
            collect(view, false);
        } else {
            // Another namespace's texts start at its root and its mount table's at the process's root: a process
            // whose root is a folder there (a chroot) has that folder before them.
            collect(view, true);
            collect(m_matcher.ownView, false); // an fd opened before its process left this namespace names it as here
        }
        if (m_matched.empty())
            return true;
        // The text names a node: fdinfo tells whether the file is the node (a file mounted over /dev in a
        // namespace of the user's own has the node's path, not its mount and inode).
        const std::optional<FdInfo> info = readFdInfo(m_procFd, m_pid, name);
        for (const size_t identity : m_matched)
            if (isNode(info, view, identity))
                count(identity);
        return true;
    }

    // Without fdinfo (the fd closed meanwhile, a fake proc root) the text decides.
    bool isNode(const std::optional<FdInfo> &info, const NamespaceView &view, size_t identity) const
    {
        if (!info)
            return true;
        const NodeIdentity &node = m_matcher.identities[identity];
        if (info->inode && *info->inode != node.inode)
            return false;
        const std::optional<dev_t> device = deviceOfMount(info->mountId, view);
        return !device || *device == node.device; // a mount unknown (made since its table was read): the inode decides
    }

    std::optional<dev_t> deviceOfMount(std::optional<int> mountId, const NamespaceView &view) const
    {
        if (!mountId)
            return std::nullopt;
        std::optional<dev_t> device = view.deviceOf(*mountId); // mount ids are unique across namespaces
        return device ? device : m_matcher.ownView.deviceOf(*mountId);
    }

    // A namespace whose mount table was not read: every absolute path is looked up in fdinfo, by inode first.
    void countByFdInfo(const char *name, std::string_view text, const NamespaceView &view)
    {
        const std::optional<FdInfo> info = readFdInfo(m_procFd, m_pid, name);
        for (size_t i = 0; i < m_matcher.identities.size(); ++i) {
            const NodeIdentity &node = m_matcher.identities[i];
            if (!info || !info->inode ? text == node.path : *info->inode == node.inode && isNode(info, view, i))
                count(i);
        }
    }

    void count(size_t identity)
    {
        ++m_fdsPerNode[size_t(m_matcher.identities[identity].node)];
        m_holdsAny = true;
    }

    // The view of the process being read, looked up at its first fd with a path: "mnt:[N]" of /proc/<pid>/ns/mnt,
    // and where it is not this process's namespace, the mount table of the first process read there.
    const NamespaceView &viewOfProcess()
    {
        if (!m_view)
            m_view = &lookUpView();
        return *m_view;
    }

    const NamespaceView &lookUpView()
    {
        char path[48];
        std::snprintf(path, sizeof path, "%lld/ns/mnt", static_cast<long long>(m_pid));
        char ns[64];
        const ssize_t nsLength = ::readlinkat(m_procFd, path, ns, sizeof ns);
        // Unreadable: a fake proc root, or a process gone or refused (its fd links are then refused too).
        if (nsLength <= 0 || size_t(nsLength) >= sizeof ns
            || std::string_view(ns, size_t(nsLength)) == m_matcher.ownNamespace)
            return m_matcher.ownView;
        const std::string_view key(ns, size_t(nsLength));
        for (const std::unique_ptr<NamespaceView> &view : m_views)
            if (view->key == key)
                return *view;
        if (m_views.size() >= kMaxMountTables || m_mountInfoBytes >= kMaxMountTableBytes)
            return m_matcher.unknownView;
        std::snprintf(path, sizeof path, "%lld/mountinfo", static_cast<long long>(m_pid));
        auto view = std::make_unique<NamespaceView>();
        view->key = key;
        switch (readWholeFile(m_procFd, path, kMaxMountInfoBytes, &m_mountInfo)) {
        case FileRead::Missing:
            return m_matcher.unknownView; // gone meanwhile: the next process of that namespace reads it
        case FileRead::TooLong:
            qCDebug(lcScan) << "the mount table of process" << m_pid << "is longer than" << kMaxMountInfoBytes
                            << "bytes: fdinfo decides the fds of its namespace";
            m_mountInfoBytes += kMaxMountInfoBytes;
            break;
        case FileRead::Read:
            m_mountInfoBytes += m_mountInfo.size();
            fillView(view.get(), parseMountInfo(m_mountInfo), m_matcher.identities);
            break;
        }
        m_views.push_back(std::move(view));
        return *m_views.back();
    }

    const int m_procFd;
    const NodeMatcher &m_matcher;
    std::vector<int> m_fdsPerNode; // of the process being read, by node index
    bool m_holdsAny = false;
    qint64 m_pid = 0;
    const NamespaceView *m_view = nullptr; // of the process being read, once looked up
    std::vector<std::unique_ptr<NamespaceView>> m_views; // other namespaces', read in this scan
    size_t m_mountInfoBytes = 0;
    std::string m_mountInfo;
    std::vector<size_t> m_matched;
    std::vector<char> m_entries; // getdents64 buffer, reused for every process
    char m_target[PATH_MAX];     // readlinkat buffer
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
        std::string mountInfo;
        const bool mountsRead
            = readWholeFile(AT_FDCWD, "/proc/self/mountinfo", kMaxMountInfoBytes, &mountInfo) == FileRead::Read;
        const std::vector<MountEntry> mounts = parseMountInfo(mountInfo);
        static std::atomic<bool> warned{false};
        if (!mountsRead && !warned.exchange(true))
            qCWarning(lcScan, "cannot read /proc/self/mountinfo: device nodes are matched by their paths here only");
        for (int i = 0; i < nodes.size(); ++i) {
            const QByteArray path = QFile::encodeName(nodes.at(i).path);
            struct stat info;
            char canonical[PATH_MAX];
            if (::stat(path.constData(), &info) != 0 || !::realpath(path.constData(), canonical)) {
                const int error = errno;
                qCDebug(lcScan).noquote() << "cannot look up node" << nodes.at(i).path + QLatin1Char(':')
                                          << std::strerror(error);
                continue;
            }
            NodeIdentity identity{info.st_dev, info.st_ino, i, canonical, canonical};
            std::string_view rest;
            if (const MountEntry *mount = mountOf(mounts, identity.path, info.st_dev);
                mount && pathWithin(identity.path, mount->point, &rest)) {
                identity.device = mount->device;
                identity.fsPath = joinPaths({mount->root, rest});
            }
            m_matcher.identities.push_back(std::move(identity));
            m_result.visibleFdsByNode.insert(nodes.at(i).path, 0);
        }
        if (mountsRead) {
            fillView(&m_matcher.ownView, mounts, m_matcher.identities);
        } else {
            m_matcher.ownView.known = true;
            for (size_t i = 0; i < m_matcher.identities.size(); ++i)
                m_matcher.ownView.texts.push_back({m_matcher.identities[i].path, i});
        }
        char ns[64];
        const ssize_t nsLength = ::readlink("/proc/self/ns/mnt", ns, sizeof ns);
        if (nsLength > 0 && size_t(nsLength) < sizeof ns)
            m_matcher.ownNamespace.assign(ns, size_t(nsLength));
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
        if (m_procFd < 0 || m_matcher.identities.empty())
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
                    FdWalker walker(m_procFd, m_matcher, size_t(m_nodes.size()));
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
        FdWalker walker(m_procFd, m_matcher, size_t(m_nodes.size()));
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
        m_result.refusedProcesses += counts.refused + helperCounts.refused;
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
        int refused = 0;
    };

    // Reads one process's fds; true when it holds a node. Safe on either thread: touches only its arguments and
    // what the scan read before it began.
    bool readFds(FdWalker &walker, qint64 pid, Counts *counts) const
    {
        switch (walker.read(pid)) {
        case FdsRead::Gone:
            return false;
        case FdsRead::Refused:
            if (!isOwnAncestor(pid))
                ++counts->refused;
            [[fallthrough]];
        case FdsRead::Unreadable:
            ++counts->unreadable;
            return false;
        case FdsRead::Read:
            ++counts->scanned;
            return walker.holdsAny();
        }
        return false;
    }

    // This process's own ancestors started it: one it may not read is the manager of the sandbox or container it runs
    // in (root in a container whose init is the host's), not another user's job. Looked up at the first refusal, from
    // this process up as the proc root shows it (a fake one shows none); safe on either thread.
    bool isOwnAncestor(qint64 pid) const
    {
        std::call_once(m_ancestorsRead, [this] {
            ProcStat stat;
            if (readStat(m_procRoot, m_procFd, ::getpid(), &stat) != StatRead::Read)
                return;
            for (qint64 ancestor = stat.ppid; ancestor > 0 && m_ownAncestors.size() < size_t(kMaxAncestors);
                 ancestor = stat.ppid) {
                if (readStat(m_procRoot, m_procFd, ancestor, &stat) != StatRead::Read)
                    break;
                m_ownAncestors.push_back(ancestor);
            }
        });
        return std::find(m_ownAncestors.begin(), m_ownAncestors.end(), pid) != m_ownAncestors.end();
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
        qint64 slurmStepd = 0; // the nearest slurmstepd among the ancestors: root's, since any user may take its name
        while (ancestor > 1 && holder->ancestors.size() < kMaxAncestors) {
            holder->ancestors.append(ancestor);
            ProcStat ancestorStat;
            bool isStepd = false;
            if (readStat(m_procRoot, m_procFd, ancestor, &ancestorStat, &isStepd) != StatRead::Read)
                break;
            uint ancestorUid = 0;
            if (isStepd && slurmStepd == 0 && readUid(m_procFd, ancestor, &ancestorUid) && ancestorUid == 0)
                slurmStepd = ancestor;
            ancestor = ancestorStat.ppid;
        }
        if (m_readSlurmJobIds) { // one more file per holder, on the preemption path: only where jobs are lent
            holder->slurmJobId = readSlurmJobId(m_procFd, pid);
            if (slurmStepd != 0)
                holder->slurmStepJobId = jobIdOfStepdTitle(readArgv0(m_procFd, slurmStepd));
            if (holder->slurmJobId == 0 && slurmStepd != 0)
                holder->slurmJobId = holder->slurmStepJobId > 0 ? holder->slurmStepJobId : -1;
        }
        return true;
    }

    const QString m_procRoot;
    const QList<HolderScanner::Node> &m_nodes;
    const bool m_readSlurmJobIds;
    NodeMatcher m_matcher;
    int m_procFd = -1;
    mutable std::once_flag m_ancestorsRead;
    mutable std::vector<qint64> m_ownAncestors; // of this process, parent first, as the proc root shows them
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

// Newest first: pids count down from the last one the kernel gave out, wrapping around, because the opener of a node is
// usually a new process. Processes that vanish mid-read are skipped. An fd is matched by the text of its /proc link,
// never by a look at its file (a user's FUSE mount may refuse root or never answer): a text that names a node through
// any mount of the node's file system in the process's mount namespace (/dev, a container's bind mount) counts where
// /proc/<pid>/fdinfo confirms the node's mount device and inode. An unreadable fd is no node, and the process's other
// fds still count. A Slurm job id is SLURM_JOB_ID in the holder's environment, or slurmstepd among its ancestors.
//
// Result::refusedProcesses counts the processes whose fd folder or links the kernel refused: all of them without root,
// and as root only what an LSM keeps from it. This process's own ancestors (the manager of its sandbox or container may
// be beyond root's reach) and merely damaged entries (a fake proc root) are not counted. HiddenHolderTracker infers
// from node events what they hold, comparing visibleFdsByNode with inotify's open and close counts.
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
