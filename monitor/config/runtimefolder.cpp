// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "config/runtimefolder.h"

#include "base/errnotext.h"
#include "base/logging.h"

#include <QDir>
#include <QFile>

#include <errno.h>
#include <sys/stat.h>

namespace {
const QString kDefaultFolder = QStringLiteral("/run/idlegpu");
}

// Slurm's prolog and health check run with slurmd's environment, which has no RUNTIME_DIRECTORY; under the package's
// unit both ways name /run/idlegpu.
QString rootRuntimeFolderPath()
{
    const QString folder = qEnvironmentVariable("RUNTIME_DIRECTORY").section(QLatin1Char(':'), 0, 0);
    return QDir::isAbsolutePath(folder) ? folder : kDefaultFolder;
}

// The folder is root's alone, 0700: with `create` it is made so where it is missing, and narrowed to 0700 where an
// older idlegpu left it wider. Slurm's prolog and health check, which read the heartbeat there, run as root.
SecureFile::Opened openRootRuntimeFolder(bool create)
{
    const QString folder = rootRuntimeFolderPath();
    const bool own = folder == kDefaultFolder;
    if (create && own && ::mkdir(QFile::encodeName(folder).constData(), 0700) != 0 && errno != EEXIST) {
        SecureFile::Opened failed;
        failed.error = QStringLiteral("cannot create the folder %1: %2").arg(folder, errnoText(errno));
        return failed;
    }
    SecureFile::Opened opened = SecureFile::openTrustedFolder(folder, 0);
    if (!opened.ok() || !own)
        return opened; // $RUNTIME_DIRECTORY: systemd made it as the unit says (RuntimeDirectoryMode=0700)
    // An older idlegpu made it 0755: a user could enter it and open the lock.
    struct stat st{};
    if (::fstat(opened.fd.get(), &st) != 0 || (st.st_mode & 07777) == 0700)
        return opened;
    if (::fchmod(opened.fd.get(), 0700) != 0) {
        SecureFile::Opened failed;
        failed.error = QStringLiteral("%1 has mode %2, and cannot be made 0700: %3")
                           .arg(folder, QStringLiteral("%1").arg(st.st_mode & 07777, 4, 8, QLatin1Char('0')),
                                errnoText(errno));
        return failed;
    }
    qCInfo(lcMonitor, "%s had mode %04o: made 0700, root's alone", qPrintable(folder), unsigned(st.st_mode & 07777));
    return opened;
}
