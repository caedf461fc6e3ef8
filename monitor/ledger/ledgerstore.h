// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The file where the WorkLedger lives between runs: a private ledger.json in idlegpu's state folder, replaced whole at
// each write. The monitor that holds <file>.lock is its one writer; `--status` only reads it.
#include "config/filelock.h"
#include "config/securefile.h"

#include <QString>

class WorkLedger;

class LedgerStore
{
public:
    // The largest file that is read. A ledger is a few hundred kilobytes at most (LedgerSummary's bounds), so
    // anything bigger is not one.
    static constexpr qint64 kMaxFileBytes = 16 * 1024 * 1024;

    static QString pathIn(const QString &stateFolder); // <stateFolder>/ledger.json (ConfigStateFolder::pathFor)

    explicit LedgerStore(const QString &path);
    ~LedgerStore();
    QString path() const { return m_path; }

    // Becomes the file's one writer and loads it into `ledger`; a file that holds no ledger is renamed <file>.bad and
    // the ledger starts afresh. Returns false, with a warning, when it cannot be the writer; the ledger then stays in
    // memory and nothing is written.
    bool open(WorkLedger *ledger);
    bool isWriter() const { return m_lock.held(); }
    // Replaces the file atomically, only after open() succeeded. A failure keeps the old file and is warned about
    // once per distinct error, until a write succeeds again.
    bool save(const WorkLedger &ledger);

    // The outcome of read(). Unusable means that the file holds no ledger; Unreadable means that it could not be
    // read (an I/O error, a folder that is not trusted), which says nothing of what it holds.
    enum class ReadResult { Loaded, Missing, Unusable, Unreadable };
    // Reads the ledger that the file holds, without the lock and without setting anything aside, for `--status`.
    // `error` says why it is Unusable or Unreadable.
    static ReadResult read(const QString &path, WorkLedger *ledger, QString *error);

private:
    QString m_path;
    QString m_name;   // the file's name in m_folder
    UniqueFd m_folder; // open while this is the writer
    FileLock m_lock;
    QString m_saveError; // the error of the last save; empty when it succeeded
};
