// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// test_fusefile MOUNTPOINT UID GID [--allow-other] [--hang-writes]
//
// A user's FUSE mount, as sshfs, rclone or gvfs make one, for the attacks of tests/tst_sec_*: one regular file,
// MOUNTPOINT/data, owned by UID:GID, that takes every write and reads empty. Without --allow-other the kernel refuses
// every other user the mount, root included (what FUSE does unless the user's daemon asks otherwise). Its daemon can
// stop answering, as a hostile or stuck one does: --hang-writes leaves every write unanswered from the start, and
// SIGUSR1 makes it leave every request unanswered from then on (a stat of the file then blocks until the daemon ends).
// SIGTERM, or the end of the process that started it, unmounts and ends it; closing /dev/fuse fails whatever waits on
// it with ENOTCONN, so nothing stays blocked after the test.
//
// Speaks the kernel's FUSE protocol directly on /dev/fuse (linux/fuse.h), so that no FUSE library is needed: mount(2)
// needs root, so without it the program says why and exits 77. It prints "ready" once mounted (an access before the
// daemon has answered the kernel's INIT waits for it).
#include <linux/fuse.h>

#include <algorithm>
#include <cerrno>
#include <csignal>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include <fcntl.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <unistd.h>

namespace {

constexpr uint64_t kRootNode = FUSE_ROOT_ID;
constexpr uint64_t kFileNode = 2;
constexpr uint32_t kMaxWrite = 128 * 1024;

volatile sig_atomic_t g_stop = 0;
volatile sig_atomic_t g_hangAll = 0;

void onSignal(int signal)
{
    if (signal == SIGUSR1)
        g_hangAll = 1;
    else
        g_stop = 1;
}

struct Options
{
    const char *mountpoint = nullptr;
    uid_t uid = 0;
    gid_t gid = 0;
    bool allowOther = false;
    bool hangWrites = false;
};

class Server
{
public:
    Server(int fuseFd, const Options &options) : m_fd(fuseFd), m_options(options) {}

    // Serves until SIGTERM; false when /dev/fuse fails otherwise.
    bool serve()
    {
        std::vector<char> buffer(kMaxWrite + 64 * 1024);
        while (!g_stop) {
            const ssize_t size = ::read(m_fd, buffer.data(), buffer.size());
            if (size < 0) {
                if (errno == EINTR || errno == EAGAIN)
                    continue;
                if (errno == ENODEV) // unmounted
                    return true;
                std::perror("test_fusefile: read /dev/fuse");
                return false;
            }
            if (size_t(size) < sizeof(fuse_in_header))
                continue;
            const auto *header = reinterpret_cast<const fuse_in_header *>(buffer.data());
            handle(*header, buffer.data() + sizeof(fuse_in_header));
        }
        return true;
    }

private:
    void handle(const fuse_in_header &header, const char *body)
    {
        switch (header.opcode) {
        case FUSE_FORGET:
        case FUSE_BATCH_FORGET:
        case FUSE_INTERRUPT:
            return; // never answered
        default:
            break;
        }
        if (g_hangAll)
            return;
        switch (header.opcode) {
        case FUSE_INIT: {
            const auto *in = reinterpret_cast<const fuse_init_in *>(body);
            fuse_init_out out{};
            out.major = FUSE_KERNEL_VERSION;
            out.minor = std::min<uint32_t>(in->minor, FUSE_KERNEL_MINOR_VERSION);
            out.max_readahead = in->max_readahead;
            out.max_background = 16;
            out.congestion_threshold = 12;
            out.max_write = kMaxWrite;
            out.time_gran = 1;
            reply(header, &out, sizeof out);
            return;
        }
        case FUSE_LOOKUP: {
            if (header.nodeid != kRootNode || std::strcmp(body, "data") != 0)
                return fail(header, ENOENT);
            fuse_entry_out out{};
            out.nodeid = kFileNode;
            out.generation = 1;
            fillAttr(kFileNode, &out.attr);
            reply(header, &out, sizeof out);
            return;
        }
        case FUSE_GETATTR:
        case FUSE_SETATTR: {
            fuse_attr_out out{}; // attr_valid 0: every stat asks the daemon
            fillAttr(header.nodeid, &out.attr);
            reply(header, &out, sizeof out);
            return;
        }
        case FUSE_OPEN:
        case FUSE_OPENDIR: {
            fuse_open_out out{};
            out.fh = 1;
            out.open_flags = header.opcode == FUSE_OPEN ? FOPEN_DIRECT_IO : 0; // every write reaches the daemon
            reply(header, &out, sizeof out);
            return;
        }
        case FUSE_WRITE: {
            if (m_options.hangWrites)
                return;
            const auto *in = reinterpret_cast<const fuse_write_in *>(body);
            fuse_write_out out{};
            out.size = in->size;
            reply(header, &out, sizeof out);
            return;
        }
        case FUSE_READ:
        case FUSE_READDIR:
            reply(header, nullptr, 0); // empty: the end of the file, no entries
            return;
        case FUSE_STATFS: {
            fuse_statfs_out out{};
            out.st.bsize = 4096;
            out.st.namelen = 255;
            out.st.frsize = 4096;
            reply(header, &out, sizeof out);
            return;
        }
        case FUSE_FLUSH:
        case FUSE_RELEASE:
        case FUSE_RELEASEDIR:
        case FUSE_FSYNC:
        case FUSE_FSYNCDIR:
        case FUSE_ACCESS:
        case FUSE_DESTROY:
            reply(header, nullptr, 0);
            return;
        case FUSE_GETXATTR:
        case FUSE_LISTXATTR:
            return fail(header, ENODATA);
        default:
            return fail(header, ENOSYS);
        }
    }

    void fillAttr(uint64_t node, fuse_attr *attr) const
    {
        attr->ino = node;
        attr->mode = node == kFileNode ? (S_IFREG | 0600) : (S_IFDIR | 0755);
        attr->nlink = node == kFileNode ? 1 : 2;
        attr->uid = m_options.uid;
        attr->gid = m_options.gid;
        attr->blksize = 4096;
    }

    void reply(const fuse_in_header &header, const void *body, size_t size)
    {
        fuse_out_header out{};
        out.len = uint32_t(sizeof out + size);
        out.unique = header.unique;
        iovec parts[2] = {{&out, sizeof out}, {const_cast<void *>(body), size}};
        if (::writev(m_fd, parts, body ? 2 : 1) < 0 && errno != ENOENT) // ENOENT: the request was interrupted
            std::perror("test_fusefile: reply");
    }

    void fail(const fuse_in_header &header, int error)
    {
        fuse_out_header out{};
        out.len = sizeof out;
        out.error = -error;
        out.unique = header.unique;
        if (::write(m_fd, &out, sizeof out) < 0 && errno != ENOENT)
            std::perror("test_fusefile: reply");
    }

    const int m_fd;
    const Options m_options;
};

bool parseId(const char *text, unsigned *value)
{
    char *end = nullptr;
    errno = 0;
    const unsigned long parsed = std::strtoul(text, &end, 10);
    if (errno != 0 || end == text || *end != '\0' || parsed > 0xfffffffeUL)
        return false;
    *value = unsigned(parsed);
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    Options options;
    unsigned uid = 0;
    unsigned gid = 0;
    if (argc < 4 || !parseId(argv[2], &uid) || !parseId(argv[3], &gid)) {
        std::fprintf(stderr, "usage: test_fusefile MOUNTPOINT UID GID [--allow-other] [--hang-writes]\n");
        return 2;
    }
    options.mountpoint = argv[1];
    options.uid = uid;
    options.gid = gid;
    for (int i = 4; i < argc; ++i) {
        const std::string option = argv[i];
        if (option == "--allow-other") {
            options.allowOther = true;
        } else if (option == "--hang-writes") {
            options.hangWrites = true;
        } else {
            std::fprintf(stderr, "test_fusefile: unknown option %s\n", argv[i]);
            return 2;
        }
    }
    ::prctl(PR_SET_PDEATHSIG, SIGTERM); // the test that started it ends: so does the mount
    struct sigaction action{};
    action.sa_handler = onSignal; // no SA_RESTART: a signal ends the blocking read
    ::sigaction(SIGTERM, &action, nullptr);
    ::sigaction(SIGINT, &action, nullptr);
    ::sigaction(SIGUSR1, &action, nullptr);

    if (::geteuid() != 0) {
        std::printf("skip: mounting a FUSE file system by hand needs root\n");
        return 77;
    }
    const int fuseFd = ::open("/dev/fuse", O_RDWR | O_CLOEXEC);
    if (fuseFd < 0) {
        std::printf("skip: cannot open /dev/fuse: %s\n", std::strerror(errno));
        return 77;
    }
    const std::string mountOptions = "fd=" + std::to_string(fuseFd) + ",rootmode=40000,user_id=" + std::to_string(uid)
                                     + ",group_id=" + std::to_string(gid) + (options.allowOther ? ",allow_other" : "");
    if (::mount("test_fusefile", options.mountpoint, "fuse.test_fusefile", MS_NOSUID | MS_NODEV,
                mountOptions.c_str())
        != 0) {
        std::printf("skip: cannot mount a FUSE file system on %s: %s\n", options.mountpoint, std::strerror(errno));
        return 77;
    }
    Server server(fuseFd, options);
    std::printf("ready\n");
    std::fflush(stdout);
    const bool served = server.serve();
    ::umount2(options.mountpoint, MNT_DETACH);
    ::close(fuseFd); // fails every request still waiting with ENOTCONN
    return served ? 0 : 1;
}
