// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "run/workloadlog.h"

#include "base/errnotext.h"
#include "base/logging.h"

#include <QDateTime>
#include <QSocketNotifier>

#include <cerrno>
#include <cstring>
#include <utility>

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

WorkloadLog::WorkloadLog() = default;

WorkloadLog::~WorkloadLog() = default;

UniqueFd WorkloadLog::expect(const QString &path, QString *error)
{
    close();
    // One message, "+" with the file or "-" and why not (idlegpu-reaper's reportLog()).
    int ends[2];
    if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) != 0) {
        *error = QStringLiteral("cannot open log file %1: no socket to receive it on: %2")
                     .arg(path, errnoText(errno));
        return UniqueFd();
    }
    m_socket.reset(ends[0]);
    ::fcntl(ends[0], F_SETFL, ::fcntl(ends[0], F_GETFL) | O_NONBLOCK);
    m_path = path;
    m_notifier = std::make_unique<QSocketNotifier>(ends[0], QSocketNotifier::Read);
    QObject::connect(m_notifier.get(), &QSocketNotifier::activated, m_notifier.get(), [this] { collect(); });
    return UniqueFd(ends[1]);
}

void WorkloadLog::collect()
{
    if (!m_socket.valid())
        return;
    char message[2048];
    iovec part{message, sizeof message};
    alignas(cmsghdr) char control[CMSG_SPACE(sizeof(int))];
    msghdr header{};
    header.msg_iov = &part;
    header.msg_iovlen = 1;
    header.msg_control = control;
    header.msg_controllen = sizeof control;
    ssize_t size;
    while ((size = ::recvmsg(m_socket.get(), &header, MSG_DONTWAIT | MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR) {
    }
    if (size < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
        return; // not yet
    UniqueFd received;
    if (size > 0) {
        for (cmsghdr *item = CMSG_FIRSTHDR(&header); item; item = CMSG_NXTHDR(&header, item)) {
            if (item->cmsg_level == SOL_SOCKET && item->cmsg_type == SCM_RIGHTS
                && item->cmsg_len >= CMSG_LEN(sizeof(int))) {
                int fd = -1;
                memcpy(&fd, CMSG_DATA(item), sizeof fd);
                received.reset(fd);
            }
        }
    }
    // Let go of the socket: from a notifier's own signal, the notifier may only be deleted later.
    m_notifier->setEnabled(false);
    m_notifier.release()->deleteLater();
    m_socket.reset();
    if (size > 0 && message[0] == '+' && received.valid()) {
        m_file = std::move(received);
        write(std::exchange(m_pending, QByteArray()), m_pendingOwner);
    } else {
        // "-": refused. Nothing at all: the reaper ended (was stopped, or never ran) before its child got as far;
        // how it ended says the rest.
        if (size > 1 && message[0] == '-')
            m_failure = QString::fromLocal8Bit(message + 1, int(size - 1));
        m_pending.clear();
    }
}

void WorkloadLog::close()
{
    if (m_notifier) {
        m_notifier->setEnabled(false);
        m_notifier.release()->deleteLater();
    }
    m_socket.reset();
    m_file.reset();
    m_pending.clear();
    m_pendingOwner.clear();
    m_failure.clear();
    m_atLineStart = true;
    m_writeFailed = false;
}

void WorkloadLog::write(const QByteArray &bytes, const QString &owner)
{
    if (bytes.isEmpty())
        return;
    if (!m_file.valid()) {
        if (m_socket.valid() && m_pending.size() + bytes.size() <= kMaxPendingBytes) {
            m_pending += bytes;
            if (!owner.isEmpty())
                m_pendingOwner = owner;
        }
        return;
    }
    for (qsizetype done = 0; done < bytes.size();) {
        const ssize_t size = ::write(m_file.get(), bytes.constData() + done, size_t(bytes.size() - done));
        if (size < 0 && errno == EINTR)
            continue;
        if (size <= 0) {
            if (!m_writeFailed && !owner.isEmpty()) { // said once, not once per line of output
                m_writeFailed = true;
                qCWarning(lcRunner).noquote() << QStringLiteral("cannot write to log file %1 of %2: %3")
                                                     .arg(m_path, owner, errnoText(errno));
            }
            return;
        }
        done += size;
    }
}

void WorkloadLog::writeOutput(const QByteArray &bytes, const QString &owner)
{
    collect();
    if (!isOpen() || bytes.isEmpty())
        return;
    write(bytes, owner);
    m_atLineStart = bytes.endsWith('\n');
}

void WorkloadLog::writeLine(const QString &line)
{
    collect();
    if (!isOpen())
        return;
    const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss"));
    QByteArray bytes = (stamp + QStringLiteral(" idlegpu: ") + line + QLatin1Char('\n')).toUtf8();
    if (!m_atLineStart)
        bytes.prepend('\n');
    write(bytes, QString());
    m_atLineStart = true;
}
