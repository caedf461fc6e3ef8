// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "ledger/ledgerstore.h"

// The folder is opened once, as a trusted folder (SecureFile: nobody but root and idlegpu's user can write it or a
// folder above it), and every read and write goes through that fd: nothing in it is followed as a link. A write that
// fails (a full disk) keeps the old file whole and says why.

#include "base/errnotext.h"
#include "base/logging.h"
#include "ledger/workledger.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

// The folder made private where idlegpu makes it: created 0700 where missing (its parents as mkpath makes them).
void makeFolder(const QString &folder)
{
    QDir().mkpath(QFileInfo(folder).absolutePath());
    ::mkdir(QFile::encodeName(folder).constData(), 0700);
}

// The folder of a ledger, opened as a trusted folder of the user idlegpu runs as; narrowed to 0700 where idlegpu
// made it wider (the tray's log folder of older versions), on the fd, never through a link.
SecureFile::Opened openFolder(const QString &path, bool make)
{
    const QString folder = QFileInfo(path).absolutePath();
    if (make)
        makeFolder(folder);
    SecureFile::Opened opened = SecureFile::openTrustedFolder(folder, ::geteuid());
    struct stat st{};
    if (make && opened.ok() && ::fstat(opened.fd.get(), &st) == 0 && st.st_uid == ::geteuid() && (st.st_mode & 077))
        ::fchmod(opened.fd.get(), 0700);
    return opened;
}

// One read of the file, whole, if it can be a ledger at all: a regular file, not a link, not too big.
LedgerStore::ReadResult readOnce(int folderFd, const QByteArray &name, QByteArray *bytes, QString *error)
{
    UniqueFd file(::openat(folderFd, name.constData(), O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC));
    if (!file.valid()) {
        const int openError = errno;
        if (openError == ENOENT)
            return LedgerStore::ReadResult::Missing;
        *error = openError == ELOOP ? QStringLiteral("a symbolic link, not a file") : errnoText(openError);
        return openError == ELOOP ? LedgerStore::ReadResult::Unusable : LedgerStore::ReadResult::Unreadable;
    }
    struct stat st{};
    if (::fstat(file.get(), &st) != 0) {
        *error = errnoText(errno);
        return LedgerStore::ReadResult::Unreadable;
    }
    if (!S_ISREG(st.st_mode)) {
        *error = QStringLiteral("not a regular file");
        return LedgerStore::ReadResult::Unusable;
    }
    if (st.st_size > LedgerStore::kMaxFileBytes) {
        *error = QStringLiteral("%1 bytes, too big for a ledger").arg(qint64(st.st_size));
        return LedgerStore::ReadResult::Unusable;
    }
    QString readError;
    const std::optional<QByteArray> contents = SecureFile::readAll(file.get(), LedgerStore::kMaxFileBytes, &readError);
    if (!contents) {
        *error = readError;
        // It may have grown since: too big is what it holds, a failed read says nothing of that.
        return readError.startsWith(QLatin1String("larger than")) ? LedgerStore::ReadResult::Unusable
                                                                   : LedgerStore::ReadResult::Unreadable;
    }
    *bytes = *contents;
    return LedgerStore::ReadResult::Loaded;
}

// The ledger in the file, read and parsed. A file that does not parse is read again: only the same bytes twice make
// it Unusable, so that what is set aside is what the file holds, not a read that went wrong.
LedgerStore::ReadResult readAt(int folderFd, const QString &name, WorkLedger *ledger, QString *error)
{
    const QByteArray encoded = QFile::encodeName(name);
    QByteArray bytes;
    const LedgerStore::ReadResult result = readOnce(folderFd, encoded, &bytes, error);
    if (result != LedgerStore::ReadResult::Loaded || ledger->restore(bytes, error))
        return result;
    QByteArray again;
    QString againError;
    const LedgerStore::ReadResult second = readOnce(folderFd, encoded, &again, &againError);
    if (second != LedgerStore::ReadResult::Loaded || again != bytes) {
        *error = QStringLiteral("it changed between two reads (%1)").arg(*error);
        return LedgerStore::ReadResult::Unreadable;
    }
    return LedgerStore::ReadResult::Unusable;
}

} // namespace

QString LedgerStore::pathIn(const QString &stateFolder)
{
    return stateFolder + QStringLiteral("/ledger.json");
}

LedgerStore::LedgerStore(const QString &path) : m_path(path), m_name(QFileInfo(path).fileName()) {}

LedgerStore::~LedgerStore() = default;

LedgerStore::ReadResult LedgerStore::read(const QString &path, WorkLedger *ledger, QString *error)
{
    const SecureFile::Opened folder = openFolder(path, false);
    if (!folder.ok()) {
        if (!QFileInfo::exists(QFileInfo(path).absolutePath()))
            return ReadResult::Missing;
        *error = folder.error;
        return ReadResult::Unreadable;
    }
    return readAt(folder.fd.get(), QFileInfo(path).fileName(), ledger, error);
}

// No ledger: damaged, hostile, too big, not a file, read twice the same; the warning names the .bad file. It cannot be
// the writer when another idlegpu writes the file, the folder is not trusted, the file cannot be read now (an I/O
// error; it is left as it is) or the damaged one cannot be set aside.
bool LedgerStore::open(WorkLedger *ledger)
{
    if (isWriter())
        return true;
    SecureFile::Opened folder = openFolder(m_path, true);
    if (!folder.ok()) {
        qCWarning(lcLedger, "cannot keep the ledger %s: %s; the figures of the idle GPUs are kept in memory only",
                  qPrintable(m_path), qPrintable(folder.error));
        return false;
    }
    QString error;
    switch (m_lock.acquire(folder.fd.get(), m_name + QStringLiteral(".lock"), &error)) {
    case FileLock::Result::Acquired:
        break;
    case FileLock::Result::HeldByAnother:
        qCWarning(lcLedger, "%s is kept by another idlegpu (pid %lld); this one's figures are kept in memory only",
                  qPrintable(m_path), m_lock.ownerPid());
        return false;
    case FileLock::Result::Failed:
        qCWarning(lcLedger, "%s; the figures of the idle GPUs are kept in memory only", qPrintable(error));
        return false;
    }
    switch (readAt(folder.fd.get(), m_name, ledger, &error)) {
    case ReadResult::Missing:
        qCInfo(lcLedger, "starting the ledger of the idle GPUs in %s", qPrintable(m_path));
        break;
    case ReadResult::Loaded:
        qCInfo(lcLedger, "ledger of the idle GPUs: %s", qPrintable(m_path));
        break;
    case ReadResult::Unreadable:
        qCWarning(lcLedger, "cannot read %s (%s); it is left as it is and the figures of the idle GPUs are kept in "
                            "memory only",
                  qPrintable(m_path), qPrintable(error));
        m_lock.release();
        return false;
    case ReadResult::Unusable: {
        const QString aside = m_name + QStringLiteral(".bad");
        if (::renameat(folder.fd.get(), QFile::encodeName(m_name).constData(), folder.fd.get(),
                       QFile::encodeName(aside).constData())
            != 0) {
            qCWarning(lcLedger, "%s holds no ledger (%s) and cannot be set aside as %s (%s); it is left as it is and "
                                "the figures of the idle GPUs are kept in memory only",
                      qPrintable(m_path), qPrintable(error), qPrintable(m_path + QStringLiteral(".bad")),
                      qPrintable(errnoText(errno)));
            m_lock.release();
            return false;
        }
        qCWarning(lcLedger, "%s holds no ledger (%s): set aside as %s, the ledger starts afresh", qPrintable(m_path),
                  qPrintable(error), qPrintable(m_path + QStringLiteral(".bad")));
        break;
    }
    }
    m_folder = std::move(folder.fd);
    return true;
}

bool LedgerStore::save(const WorkLedger &ledger)
{
    if (!isWriter())
        return false;
    QString error;
    const bool ok = SecureFile::replaceFileAt(m_folder.get(), m_name, ledger.toJson(), 0600, false, &error);
    if (!ok && error != m_saveError)
        qCWarning(lcLedger, "the ledger %s is not saved: %s", qPrintable(m_path), qPrintable(error));
    else if (ok && !m_saveError.isEmpty())
        qCInfo(lcLedger, "%s written again", qPrintable(m_path));
    m_saveError = ok ? QString() : error;
    return ok;
}
