// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "holders/procstatfile.h"

#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

bool readProcStat(const char *procRoot, long pid, ProcStat *stat, char *comm, int commSize)
{
    char path[4096];
    if (snprintf(path, sizeof path, "%s/%ld/stat", procRoot, pid) >= int(sizeof path))
        return false;
    const int fd = ::open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0)
        return false; // gone meanwhile
    char buffer[1024]; // a stat line is far shorter: comm is at most 64 bytes
    const ssize_t size = ::read(fd, buffer, sizeof buffer - 1);
    ::close(fd);
    if (size <= 0)
        return false;
    buffer[size] = '\0';
    if (!parseProcStat(buffer, stat))
        return false;
    if (comm && commSize > 0) {
        const char *begin = nullptr;
        int length = 0;
        if (!procStatComm(buffer, &begin, &length))
            return false;
        length = length < commSize - 1 ? length : commSize - 1;
        memcpy(comm, begin, size_t(length));
        comm[length] = '\0';
    }
    return true;
}
