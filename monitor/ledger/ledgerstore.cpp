// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "ledger/ledgerstore.h"

#include "ledger/workledger.h"
#include "logging.h"
#include "statefolder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QLockFile>
#include <QSaveFile>

namespace {

constexpr QFileDevice::Permissions kPrivateFile = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
constexpr QFileDevice::Permissions kPrivateFolder =
    QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner;

// The folder of `path`, made private: created 0700 where missing, narrowed to 0700 where idlegpu made it wider (the
// tray's log folder of older versions).
bool makePrivateFolder(const QString &path, QString *error)
{
    const QString folder = QFileInfo(path).absolutePath();
    const QString parent = QFileInfo(folder).absolutePath();
    if (!QDir().mkpath(parent) || (!QFileInfo(folder).isDir() && !QDir().mkdir(folder, kPrivateFolder))) {
        *error = QStringLiteral("cannot create the folder %1").arg(folder);
        return false;
    }
    constexpr QFileDevice::Permissions kOthers = QFileDevice::ReadGroup | QFileDevice::WriteGroup
                                                 | QFileDevice::ExeGroup | QFileDevice::ReadOther
                                                 | QFileDevice::WriteOther | QFileDevice::ExeOther;
    if (QFileInfo(folder).permissions() & kOthers)
        QFile::setPermissions(folder, kPrivateFolder);
    return true;
}

// The file's bytes, if it can be a ledger at all: a regular file, not too big.
LedgerStore::ReadResult readBytes(const QString &path, QByteArray *bytes, QString *error)
{
    const QFileInfo info(path);
    if (!info.exists() && !info.isSymLink())
        return LedgerStore::ReadResult::Missing;
    if (!info.isFile()) {
        *error = QStringLiteral("not a regular file");
        return LedgerStore::ReadResult::Unusable;
    }
    if (info.size() > LedgerStore::kMaxFileBytes) {
        *error = QStringLiteral("%1 bytes, too big for a ledger").arg(info.size());
        return LedgerStore::ReadResult::Unusable;
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return LedgerStore::ReadResult::Unusable;
    }
    *bytes = file.read(LedgerStore::kMaxFileBytes + 1); // it may have grown since
    if (bytes->size() > LedgerStore::kMaxFileBytes) {
        *error = QStringLiteral("too big for a ledger");
        return LedgerStore::ReadResult::Unusable;
    }
    return LedgerStore::ReadResult::Loaded;
}

} // namespace

QString LedgerStore::defaultPath()
{
    return idlegpuStateFolder() + QStringLiteral("/ledger.json");
}

LedgerStore::LedgerStore(const QString &path) : m_path(path) {}

LedgerStore::~LedgerStore() = default;

LedgerStore::ReadResult LedgerStore::read(const QString &path, WorkLedger *ledger, QString *error)
{
    QByteArray bytes;
    const ReadResult result = readBytes(path, &bytes, error);
    if (result != ReadResult::Loaded)
        return result;
    return ledger->restore(bytes, error) ? ReadResult::Loaded : ReadResult::Unusable;
}

bool LedgerStore::open(WorkLedger *ledger)
{
    if (m_lock)
        return true;
    QString error;
    if (!makePrivateFolder(m_path, &error)) {
        qCWarning(lcLedger, "%s; the figures of the idle GPUs are kept in memory only", qPrintable(error));
        return false;
    }
    auto lock = std::make_unique<QLockFile>(m_path + QStringLiteral(".lock"));
    lock->setStaleLockTime(0); // only a dead owner makes the lock stale, never its age
    if (!lock->tryLock(0)) {
        qint64 pid = 0;
        QString host, application;
        lock->getLockInfo(&pid, &host, &application);
        qCWarning(lcLedger, "%s is kept by another idlegpu (pid %lld); this one's figures are kept in memory only",
                  qPrintable(m_path), pid);
        return false;
    }
    switch (read(m_path, ledger, &error)) {
    case ReadResult::Missing:
        qCInfo(lcLedger, "starting the ledger of the idle GPUs in %s", qPrintable(m_path));
        break;
    case ReadResult::Loaded:
        qCInfo(lcLedger, "ledger of the idle GPUs: %s", qPrintable(m_path));
        break;
    case ReadResult::Unusable: {
        const QString aside = m_path + QStringLiteral(".bad");
        QFile::remove(aside);
        if (!QFile::rename(m_path, aside)) {
            qCWarning(lcLedger, "%s holds no ledger (%s) and cannot be set aside as %s; it is left as it is and "
                                "the figures of the idle GPUs are kept in memory only",
                      qPrintable(m_path), qPrintable(error), qPrintable(aside));
            return false;
        }
        qCWarning(lcLedger, "%s holds no ledger (%s): set aside as %s, the ledger starts afresh", qPrintable(m_path),
                  qPrintable(error), qPrintable(aside));
        break;
    }
    }
    m_lock = std::move(lock);
    return true;
}

bool LedgerStore::save(const WorkLedger &ledger)
{
    if (!m_lock)
        return false;
    QSaveFile file(m_path);
    bool ok = file.open(QIODevice::WriteOnly);
    ok = ok && file.setPermissions(kPrivateFile);
    ok = ok && file.write(ledger.toJson()) >= 0;
    ok = ok && file.commit();
    if (!ok && !m_saveFailing)
        qCWarning(lcLedger, "cannot write %s: %s", qPrintable(m_path), qPrintable(file.errorString()));
    else if (ok && m_saveFailing)
        qCInfo(lcLedger, "%s written again", qPrintable(m_path));
    m_saveFailing = !ok;
    return ok;
}
