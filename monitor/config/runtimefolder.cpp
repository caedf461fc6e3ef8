// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "config/runtimefolder.h"

#include "base/errnotext.h"

#include <QDir>
#include <QFile>

#include <errno.h>
#include <sys/stat.h>

QString rootRuntimeFolderPath()
{
    const QString folder = qEnvironmentVariable("RUNTIME_DIRECTORY").section(QLatin1Char(':'), 0, 0);
    return QDir::isAbsolutePath(folder) ? folder : QStringLiteral("/run/idlegpu");
}

SecureFile::Opened openRootRuntimeFolder(bool create)
{
    const QString folder = rootRuntimeFolderPath();
    if (create && folder == QLatin1String("/run/idlegpu")
        && ::mkdir(QFile::encodeName(folder).constData(), 0755) != 0 && errno != EEXIST) {
        SecureFile::Opened failed;
        failed.error = QStringLiteral("cannot create the folder %1: %2")
                           .arg(folder, errnoText(errno));
        return failed;
    }
    return SecureFile::openTrustedFolder(folder, 0);
}
