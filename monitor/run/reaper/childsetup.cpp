// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "childsetup.h"

#include <dirent.h>
#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

namespace {

// ioprio_set(2) has no glibc wrapper; its constants, from linux/ioprio.h, are declared here so that no kernel header
// is needed.
constexpr int kIoprioWhoProcess = 1;
constexpr int kIoprioClassIdle = 3;
constexpr int kIoprioClassShift = 13;

// Raises the nice value to `nice` unless it is higher already: a workload never runs above what it inherited.
void niceAtLeast(int nice, int messages)
{
    errno = 0;
    const int current = getpriority(PRIO_PROCESS, 0);
    if (errno == 0 && current >= nice)
        return;
    if (setpriority(PRIO_PROCESS, 0, nice) != 0)
        dprintf(messages, "idlegpu-reaper: cannot set nice %d: %s; the workload runs at nice %d\n", nice,
                strerror(errno), current);
}

} // namespace

// The steps: the groups by initgroups, the primary group, then the uid; regaining root must then fail. The reaper has
// one thread, so the passwd and group lookups are safe after the fork.
bool becomeUser(const char *user, int messages)
{
    errno = 0;
    const passwd *account = getpwnam(user);
    if (!account) {
        // getpwnam(3): these errors, like none, mean that the name was not found.
        const bool notFound = errno == 0 || errno == ENOENT || errno == ESRCH || errno == EBADF || errno == EPERM;
        dprintf(messages, "idlegpu-reaper: cannot run as user '%s': %s\n", user,
                notFound ? "no such user (any more)" : strerror(errno));
        return false;
    }
    const uid_t uid = account->pw_uid;
    const gid_t gid = account->pw_gid;
    if (initgroups(account->pw_name, gid) != 0) {
        dprintf(messages, "idlegpu-reaper: cannot take the groups of user '%s': %s\n", user, strerror(errno));
        return false;
    }
    if (setresgid(gid, gid, gid) != 0 || setresuid(uid, uid, uid) != 0) {
        dprintf(messages, "idlegpu-reaper: cannot become user '%s' (uid %u, gid %u): %s\n", user,
                unsigned(uid), unsigned(gid), strerror(errno));
        return false;
    }
    uid_t realUid, effectiveUid, savedUid;
    gid_t realGid, effectiveGid, savedGid;
    getresuid(&realUid, &effectiveUid, &savedUid);
    getresgid(&realGid, &effectiveGid, &savedGid);
    const bool switched = realUid == uid && effectiveUid == uid && savedUid == uid && realGid == gid
                          && effectiveGid == gid && savedGid == gid;
    if (!switched || (uid != 0 && (setuid(0) == 0 || seteuid(0) == 0))) {
        dprintf(messages, "idlegpu-reaper: switching to user '%s' did not drop root for good\n", user);
        return false;
    }
    return true;
}

void lowerPriority(Priority priority, int messages)
{
    if (priority == Priority::Normal)
        return;
    if (priority == Priority::Idle) {
        sched_param param{};
        param.sched_priority = 0;
        if (sched_setscheduler(0, SCHED_IDLE, &param) != 0)
            dprintf(messages, "idlegpu-reaper: cannot set the SCHED_IDLE policy: %s\n", strerror(errno));
        if (syscall(SYS_ioprio_set, kIoprioWhoProcess, 0, kIoprioClassIdle << kIoprioClassShift) != 0)
            dprintf(messages, "idlegpu-reaper: cannot set the idle I/O class: %s\n", strerror(errno));
    }
    // Under SCHED_IDLE the nice value no longer weighs, but it is the floor a child that leaves SCHED_IDLE
    // (allowed within RLIMIT_NICE) falls back to.
    niceAtLeast(priority == Priority::Idle ? 19 : 10, messages);
}

void closeDescriptorsBut(std::initializer_list<int> keep)
{
#ifdef SYS_close_range
    if (keep.size() == 0 && syscall(SYS_close_range, 3U, ~0U, 0U) == 0)
        return;
#endif
    std::vector<int> fds; // read first, then closed: closing while reading the folder would close its own fd
    if (DIR *folder = opendir("/proc/self/fd")) {
        while (const dirent *entry = readdir(folder)) {
            char *end = nullptr;
            const long fd = strtol(entry->d_name, &end, 10);
            if (*end == '\0' && fd > 2 && fd != dirfd(folder))
                fds.push_back(int(fd));
        }
        closedir(folder);
    } else {
        const long limit = sysconf(_SC_OPEN_MAX);
        for (long fd = 3; fd < (limit > 0 ? std::min(limit, 65536L) : 1024L); ++fd)
            fds.push_back(int(fd));
    }
    for (int fd : fds)
        if (std::find(keep.begin(), keep.end(), fd) == keep.end())
            close(fd);
}
