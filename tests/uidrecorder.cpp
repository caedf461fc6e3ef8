// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// A stand-in for a user's library that env= LD_PRELOAD (or LD_LIBRARY_PATH) would load (tst_sec_workload): each
// process that loads it appends "<real uid> <effective uid>" to the file next to it, <its own path>.uids, which the
// test made beforehand. Nothing is read from the environment, so a process with a clean environment that still
// loaded it would be seen too.
#include <dlfcn.h>
#include <fcntl.h>
#include <stdio.h>
#include <unistd.h>

__attribute__((constructor)) static void recordWhoLoadsUs()
{
    Dl_info self{};
    if (!dladdr(reinterpret_cast<void *>(&recordWhoLoadsUs), &self) || !self.dli_fname)
        return;
    char path[4096];
    snprintf(path, sizeof path, "%s.uids", self.dli_fname);
    const int fd = open(path, O_WRONLY | O_APPEND | O_CLOEXEC);
    if (fd < 0)
        return;
    dprintf(fd, "%u %u\n", unsigned(getuid()), unsigned(geteuid()));
    close(fd);
}
