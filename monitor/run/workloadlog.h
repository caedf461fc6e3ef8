// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A workload's log= file while something of it runs (its process, a control command): appended to (the log outlives
// runs), owner-only (output may hold wallet addresses or tokens), opened as the workload's user when idlegpu runs it
// as another one. idlegpu's own lines are stamped and never start in the middle of the workload's output.
#include "config/useraccount.h"

#include <QByteArray>
#include <QFile>
#include <QString>

#include <memory>
#include <optional>

class WorkloadLog
{
public:
    // Opens `path` for appending, as `asUser` when given (a path they control cannot make root write elsewhere).
    // False with *error ("cannot open log file PATH: why").
    bool open(const QString &path, const std::optional<UserAccount> &asUser, QString *error);
    bool isOpen() const { return bool(m_file); }
    void close() { m_file.reset(); }
    QString fileName() const { return m_file ? m_file->fileName() : QString(); }

    // The workload's output as it came; a failed write is warned about once per open (`owner` names the workload).
    void writeOutput(const QByteArray &bytes, const QString &owner);
    // "2026-11-03T10:00:00 idlegpu: LINE", on a line of its own.
    void writeLine(const QString &line);

private:
    std::unique_ptr<QFile> m_file;
    bool m_atLineStart = true;
    bool m_writeFailed = false;
};
