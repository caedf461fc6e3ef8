// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "run/workloadlog.h"

#include "logging.h"

#include <QDateTime>
#include <QFileInfo>

#include <sys/stat.h>
#include <unistd.h>

// Append to a file; a device or a pipe (gpu_mon's example has log=/dev/null) has no end to seek to, and Qt warns
// "Cannot call seek on a sequential device" at each start when asked to append to one.
static QIODevice::OpenMode writeMode(bool regularFile)
{
    QIODevice::OpenMode mode = QIODevice::WriteOnly | QIODevice::Unbuffered;
    if (regularFile)
        mode |= QIODevice::Append;
    return mode;
}

bool WorkloadLog::open(const QString &path, const std::optional<UserAccount> &asUser, QString *error)
{
    auto file = std::make_unique<QFile>(path);
    bool opened = false;
    if (asUser) {
        QString why;
        const int fd = openAppendAsUser(path, *asUser, &why);
        if (fd < 0) {
            *error = QStringLiteral("cannot open log file %1: %2").arg(path, why);
            return false;
        }
        struct stat info{};
        const bool regular = ::fstat(fd, &info) == 0 && S_ISREG(info.st_mode);
        opened = file->open(fd, writeMode(regular), QFileDevice::AutoCloseHandle);
        if (!opened)
            ::close(fd);
    } else {
        const QFileInfo existing(path);
        opened = file->open(writeMode(!existing.exists() || existing.isFile()),
                            QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    }
    if (!opened) {
        *error = QStringLiteral("cannot open log file %1: %2").arg(path, file->errorString());
        return false;
    }
    m_file = std::move(file);
    m_atLineStart = true;
    m_writeFailed = false;
    return true;
}

void WorkloadLog::writeOutput(const QByteArray &bytes, const QString &owner)
{
    if (!m_file || bytes.isEmpty())
        return;
    if (m_file->write(bytes) != bytes.size() && !m_writeFailed) {
        m_writeFailed = true; // say it once, not once per line of output
        qCWarning(lcRunner).noquote() << QStringLiteral("cannot write to log file %1 of %2: %3")
                                             .arg(m_file->fileName(), owner, m_file->errorString());
    }
    m_atLineStart = bytes.endsWith('\n');
}

void WorkloadLog::writeLine(const QString &line)
{
    if (!m_file)
        return;
    const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss"));
    QByteArray bytes = (stamp + QStringLiteral(" idlegpu: ") + line + QLatin1Char('\n')).toUtf8();
    if (!m_atLineStart)
        bytes.prepend('\n');
    m_file->write(bytes);
    m_atLineStart = true;
}
