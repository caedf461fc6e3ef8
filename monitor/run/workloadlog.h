// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A workload's log= file while something of it runs (its process, a control command): appended to (the log outlives
// runs), owner-only (output may hold wallet addresses or tokens). idlegpu never opens it itself: the workload's own
// process (idlegpu-reaper's child, after the switch to user=, so with the user's permissions) opens it without
// following a link or waiting on a FIFO, and hands the open file over a socket (expect()). idlegpu then writes the
// workload's output and its own lines into it; what is written before the file comes is kept for it. idlegpu's own
// lines are stamped and never start in the middle of the workload's output.
#include "config/securefile.h"

#include <QByteArray>
#include <QString>

#include <memory>

class QSocketNotifier;

class WorkloadLog
{
public:
    WorkloadLog();
    ~WorkloadLog();
    WorkloadLog(const WorkloadLog &) = delete;
    WorkloadLog &operator=(const WorkloadLog &) = delete;

    // Before a start: `path` is to come from the workload's process. Returns the socket end the reaper gets
    // (--log-socket; the caller keeps it open until the reaper has started), or an invalid one with *error.
    UniqueFd expect(const QString &path, QString *error);
    // From expect() on, while the file may still come or is open: what is written is kept for it.
    bool isOpen() const { return m_socket.valid() || m_file.valid(); }
    // Why the workload's process refused the file ("cannot open log file PATH: why"); empty unless it said so.
    QString failure() const { return m_failure; }
    // Takes the file, or the reason there is none, if it has come; never waits. Every write calls it first.
    void collect();
    void close();
    QString fileName() const { return m_path; }

    // The workload's output as it came; a failed write is warned about once per open (`owner` names the workload).
    void writeOutput(const QByteArray &bytes, const QString &owner);
    // "2026-11-03T10:00:00 idlegpu: LINE", on a line of its own.
    void writeLine(const QString &line);

    // What is kept while the file has not come yet; what comes beyond it is dropped.
    static constexpr qsizetype kMaxPendingBytes = 256 * 1024;

private:
    void write(const QByteArray &bytes, const QString &owner);

    QString m_path;
    UniqueFd m_socket; // ours, until the file or the reason has come
    std::unique_ptr<QSocketNotifier> m_notifier;
    UniqueFd m_file;
    QByteArray m_pending; // written before the file came
    QString m_pendingOwner;
    QString m_failure;
    bool m_atLineStart = true;
    bool m_writeFailed = false;
};
