// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "run/workloadlog.h"

// No thread of idlegpu writes, reads or stats the file: a file a user names may sit on her FUSE mount, whose daemon can
// leave a write unanswered, and the writer then sleeps in the kernel where not even SIGKILL reaches it. The file
// belongs to a log writer that idlegpu-reaper forks for the run (reaper/logwriter.h), which runs as the workload's
// user (root, for a workload without user=) and:
//  - opens the file as that user: appended to (the log outlives runs), created owner-only (output may hold wallet
//    addresses or tokens), never through a link, never a FIFO or a device but /dev/null and /dev/full;
//  - takes the workload's output from a pipe, straight from the workload, and passes it on to the reaper's output
//    (which the runner reads, for the last lines it shows) and into the file;
//  - takes idlegpu's own lines from this class, over a socket (run/logprotocol.h), and appends each stamped, on a
//    line of its own, never in the middle of a line of the workload's.
// idlegpu writes only into that socket, never waiting: a line that does not fit (the writer takes nothing, stuck on
// its file) is dropped, and the first drop is said in idlegpu's own log. What the writer says back (the file is
// open, refused, a write failed; from the reaper: the writer is stuck and left behind) is read when it comes.

#include "base/errnotext.h"
#include "base/logging.h"
#include "base/printablename.h"
#include "run/logprotocol.h"

#include <QDateTime>
#include <QSocketNotifier>

#include <cerrno>

#include <fcntl.h>
#include <sys/socket.h>
#include <unistd.h>

static_assert(WorkloadLog::kMaxLineBytes + 32 <= LogProtocol::kMaxMessageBytes, "a stamped line fits in a message");

WorkloadLog::WorkloadLog() = default;

WorkloadLog::~WorkloadLog() = default;

UniqueFd WorkloadLog::expect(const QString &path, QString *error)
{
    close();
    int ends[2];
    if (::socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, ends) != 0) {
        *error = QStringLiteral("cannot open log file %1: no socket for its writer: %2").arg(path, errnoText(errno));
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
    while (m_socket.valid()) {
        char message[LogProtocol::kMaxMessageBytes];
        const ssize_t size = ::recv(m_socket.get(), message, sizeof message, MSG_DONTWAIT);
        if (size < 0 && (errno == EINTR || errno == ECONNRESET))
            continue; // ECONNRESET: the writer ended with a line of ours unread; what it said before still comes
        if (size < 0)
            return; // EAGAIN: nothing more now
        if (size == 0) {
            stopListening(); // the writer and the reaper are gone: nothing more will come
            return;
        }
        // Said by a process of the workload's user: printable, whatever it holds.
        const QString text = printableName(QString::fromLocal8Bit(message + 1, int(size - 1)));
        switch (message[0]) {
        case LogProtocol::kRefused:
            m_failure = text;
            break;
        case LogProtocol::kWriteFailed:
            if (!m_writeFailureSaid) { // the writer says it once per run; a restart may say it again
                m_writeFailureSaid = true;
                qCWarning(lcRunner).noquote()
                    << QStringLiteral("cannot write to log file %1 of %2: %3").arg(m_path, m_owner, text);
            }
            break;
        case LogProtocol::kWriterStuck:
            qCWarning(lcRunner).noquote()
                << QStringLiteral("the log writer of %1 (pid %2) is stuck writing %3 (a file system that does not "
                                  "answer?): it is left behind, and ends when its file answers; the workload's "
                                  "processes have ended")
                       .arg(m_owner)
                       .arg(text.toLongLong())
                       .arg(m_path);
            break;
        default: // LogProtocol::kOpened, and nothing else is said
            break;
        }
    }
}

void WorkloadLog::stopListening()
{
    if (!m_notifier)
        return;
    // From a notifier's own signal, the notifier may only be deleted later.
    m_notifier->setEnabled(false);
    m_notifier.release()->deleteLater();
}

void WorkloadLog::close()
{
    collect();
    stopListening();
    m_socket.reset(); // the writer reads the lines it has, then the end
    m_failure.clear();
    m_writeFailureSaid = false;
    m_dropSaid = false;
}

void WorkloadLog::writeLine(const QString &line)
{
    collect();
    if (!isOpen())
        return;
    const QString stamp = QDateTime::currentDateTime().toString(QStringLiteral("yyyy-MM-ddTHH:mm:ss"));
    QByteArray bytes = (stamp + QStringLiteral(" idlegpu: ") + line).toUtf8();
    bytes.truncate(kMaxLineBytes);
    ssize_t sent;
    while ((sent = ::send(m_socket.get(), bytes.constData(), size_t(bytes.size()), MSG_DONTWAIT | MSG_NOSIGNAL)) < 0
           && errno == EINTR) {
    }
    if (sent >= 0 || m_dropSaid)
        return;
    m_dropSaid = true; // said once: every line after it would say it again
    const QString why = errno == EAGAIN || errno == ENOBUFS
                            ? QStringLiteral("it takes no more (stuck writing %1?)").arg(m_path)
                            : QStringLiteral("it has ended (%1)").arg(errnoText(errno));
    qCWarning(lcRunner).noquote()
        << QStringLiteral("the log writer of %1 gets no more of idlegpu's lines: %2; they are dropped")
               .arg(m_owner, why);
}
