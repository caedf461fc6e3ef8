// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// Where the WorkLedger lives between runs: $XDG_STATE_HOME/idlegpu/ledger.json, the user's private state (folder
// 0700, file 0600), replaced whole at each write. The monitor that holds <file>.lock is its one writer; `--status`
// only reads it, so a tray and a `--status` at the same time cannot corrupt it.
#include <QString>

#include <memory>

class QLockFile;
class WorkLedger;

class LedgerStore
{
public:
    // A ledger is a few hundred kilobytes at most (LedgerSummary's bounds); anything bigger is not one.
    static constexpr qint64 kMaxFileBytes = 16 * 1024 * 1024;

    static QString defaultPath(); // $XDG_STATE_HOME/idlegpu/ledger.json

    explicit LedgerStore(const QString &path);
    ~LedgerStore();
    QString path() const { return m_path; }

    // Becomes the file's one writer and loads it into `ledger`. A file that holds no ledger (damaged, hostile, too
    // big, not a file) is renamed <file>.bad with a warning that names it, and the ledger starts afresh. False,
    // with a warning, when another idlegpu writes the file or the damaged one cannot be set aside: the ledger then
    // stays in memory and nothing is written.
    bool open(WorkLedger *ledger);
    bool isWriter() const { return m_lock != nullptr; }
    // Replaces the file atomically; only once open() succeeded. A failure is warned about once, until a write
    // succeeds again.
    bool save(const WorkLedger &ledger);

    enum class ReadResult { Loaded, Missing, Unusable };
    // The ledger the file holds, read only, without the lock, nothing set aside: for `--status`. `error` says why
    // it is Unusable.
    static ReadResult read(const QString &path, WorkLedger *ledger, QString *error);

private:
    QString m_path;
    std::unique_ptr<QLockFile> m_lock;
    bool m_saveFailing = false;
};
