// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// idlegpu's side of a workload's log= file while something of it runs: the socket to the run's log writer
// (reaper/logwriter.h), which alone opens and writes the file, as the workload's user. No thread of idlegpu writes,
// reads or stats the file, and a line is dropped, never waited for, when the writer takes nothing.
#include "config/securefile.h"

#include <QByteArray>
#include <QString>

#include <memory>

class QSocketNotifier;

// idlegpu's end of the log socket to one run's log writer.
class WorkloadLog
{
public:
    WorkloadLog();
    ~WorkloadLog();
    WorkloadLog(const WorkloadLog &) = delete;
    WorkloadLog &operator=(const WorkloadLog &) = delete;

    // Sets the name of the workload whose log this is, as idlegpu's own log names it ("cannot write to log file PATH
    // of NAME").
    void setOwner(const QString &name) { m_owner = name; }
    // Prepares the log before a start and returns the socket end for the log writer of the run to come
    // (--log-socket; the caller keeps it open until the reaper has started). Returns an invalid fd and sets *error
    // when no socket can be made.
    UniqueFd expect(const QString &path, QString *error);
    // Returns whether idlegpu's lines go to the file: from expect() on, until close() or the writer refuses the file.
    bool isOpen() const { return m_socket.valid() && m_failure.isEmpty(); }
    // Returns why the writer refused the file ("cannot open log file PATH: why"); empty unless it said so.
    QString failure() const { return m_failure; }
    // Takes in what the writer and the reaper said, without waiting. writeLine() and close() call it first.
    void collect();
    // Closes the log after idlegpu's last line of the run; the writer ends once it has written what it has (and the
    // workload's output has ended).
    void close();
    QString fileName() const { return m_path; }

    // Writes "2026-11-03T10:00:00 idlegpu: LINE" on a line of its own. It never waits; the line is dropped when the
    // writer takes nothing.
    void writeLine(const QString &line);

    // The longest line written; a longer one is cut (a message on the socket is at most LogProtocol::kMaxMessageBytes).
    static constexpr int kMaxLineBytes = 4000;

private:
    void stopListening();

    QString m_path;
    QString m_owner;
    UniqueFd m_socket; // idlegpu's end; its peer is the writer's (and the reaper's)
    std::unique_ptr<QSocketNotifier> m_notifier;
    QString m_failure;
    bool m_writeFailureSaid = false;
    bool m_dropSaid = false;
};
