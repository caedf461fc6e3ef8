// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "holders/ttyscanner.h"

#include "base/logging.h"
#include "config/useraccount.h"

#include <QFile>

#include <algorithm>
#include <cstring>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

bool isNumeric(const char *name)
{
    if (!*name)
        return false;
    for (const char *c = name; *c; ++c) {
        if (*c < '0' || *c > '9')
            return false;
    }
    return true;
}

} // namespace

QList<TtySession> scanTtys(const QString &ptsRoot, qint64 wallNowMs)
{
    QList<TtySession> sessions;
    const QByteArray rootPath = QFile::encodeName(ptsRoot);
    DIR *dir = ::opendir(rootPath.constData());
    if (!dir) {
        const int error = errno;
        qCDebug(lcScan).noquote() << "cannot list terminals in" << ptsRoot + QLatin1Char(':')
                                  << std::strerror(error);
        return sessions;
    }
    const QString prefix = ptsRoot.endsWith(QLatin1Char('/')) ? ptsRoot : ptsRoot + QLatin1Char('/');
    const int dirFd = ::dirfd(dir);
    while (const dirent *entry = ::readdir(dir)) {
        // ptmx is the multiplexer, not a terminal; every pts is a number.
        if (!isNumeric(entry->d_name))
            continue;
        struct stat info;
        if (::fstatat(dirFd, entry->d_name, &info, 0) != 0)
            continue; // closed between readdir and stat
        const qint64 accessedMs = qint64(info.st_atim.tv_sec) * 1000 + info.st_atim.tv_nsec / 1'000'000;
        TtySession session;
        session.tty = prefix + QFile::decodeName(entry->d_name);
        session.uid = uint(info.st_uid);
        session.user = userName(session.uid);
        session.idleMs = std::max<qint64>(0, wallNowMs - accessedMs);
        sessions.append(session);
    }
    ::closedir(dir);
    std::sort(sessions.begin(), sessions.end(), [](const TtySession &a, const TtySession &b) {
        return a.tty.size() != b.tty.size() ? a.tty.size() < b.tty.size() : a.tty < b.tty;
    });
    return sessions;
}
