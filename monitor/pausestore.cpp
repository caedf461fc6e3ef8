// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "pausestore.h"

// The file is private (mode 0600), in QSettings' IniFormat (QSettings reads it; it is written whole with
// SecureFile::replaceFileAt, which keeps the old file when a write fails):
//
//   [pause]
//   all=true
//   until=2026-11-05T15:02:00.000Z     ; wall clock, UTC; absent: until resumed by hand
//   workloads=process-miner, process-boinc   ; percent-encoded ids
//   workloads_until=process-miner 2026-11-05T16:00:00.000Z   ; for those paused for a while: id, space, wall clock
//
// A list without spaces ("workloads=a,b") reads the same. A workload absent from workloads_until is paused until
// resumed; an idlegpu older than workloads_until ignores the key (with a warning) and keeps those paused until resumed.
// The monitor counts in monotonic ms, which mean nothing after a reboot; the file holds wall-clock time and
// converts with a "now" given on both clocks.

#include "config/securefile.h"
#include "base/logging.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QUrl>

#include <algorithm>

#include <sys/stat.h>
#include <unistd.h>

namespace {
// The file is ours and tiny; anything bigger is not ours to parse.
constexpr qint64 kMaxFileBytes = 64 * 1024;

const QString kAllKey = QStringLiteral("pause/all");
const QString kUntilKey = QStringLiteral("pause/until");
const QString kWorkloadsKey = QStringLiteral("pause/workloads");
const QString kWorkloadsUntilKey = QStringLiteral("pause/workloads_until");
} // namespace

QString PauseStore::pathIn(const QString &stateFolder)
{
    return stateFolder + QStringLiteral("/state.ini");
}

PauseStore::PauseStore(const QString &filePath) : m_filePath(filePath) {}

PauseState PauseStore::load(qint64 nowMs, const QDateTime &wallNow) const
{
    PauseState pause;
    const QFileInfo info(m_filePath);
    if (!info.exists())
        return pause;
    // QSettings reads whatever it is given, whole: refuse what cannot be ours before it does.
    if (!info.isFile()) {
        qCWarning(lcMonitor, "%s: not a file; the saved pause is ignored", qPrintable(m_filePath));
        return pause;
    }
    if (info.size() > kMaxFileBytes) {
        qCWarning(lcMonitor, "%s: %lld bytes, too big to be idlegpu's pause state; ignored", qPrintable(m_filePath),
                  info.size());
        return pause;
    }
    QFile probe(m_filePath);
    if (!probe.open(QIODevice::ReadOnly)) {
        qCWarning(lcMonitor, "%s: cannot read the saved pause: %s", qPrintable(m_filePath),
                  qPrintable(probe.errorString()));
        return pause;
    }
    probe.close();

    const QSettings settings(m_filePath, QSettings::IniFormat);
    if (settings.status() != QSettings::NoError)
        qCWarning(lcMonitor, "%s: not understood in part; what could be read is used", qPrintable(m_filePath));
    const QStringList keys = settings.allKeys();
    for (const QString &key : keys)
        if (key != kAllKey && key != kUntilKey && key != kWorkloadsKey && key != kWorkloadsUntilKey)
            qCWarning(lcMonitor, "%s: unknown key %s; ignored", qPrintable(m_filePath), qPrintable(key));

    pause.all = settings.value(kAllKey).toString() == QLatin1String("true");
    QDateTime until;
    if (settings.contains(kUntilKey)) {
        until = QDateTime::fromString(settings.value(kUntilKey).toString(), Qt::ISODateWithMs);
        if (!until.isValid())
            qCWarning(lcMonitor, "%s: until is not a date and time; the pause lasts until resumed",
                      qPrintable(m_filePath));
    }
    // QSettings splits "a,b" into a list and keeps a lone id as a string; ids themselves hold no comma (they
    // are percent-encoded).
    const QStringList items = settings.value(kWorkloadsKey).toStringList();
    for (const QString &item : items)
        for (const QString &id : item.split(QLatin1Char(',')))
            if (!id.trimmed().isEmpty())
                pause.workloads.insert(QUrl::fromPercentEncoding(id.trimmed().toUtf8()));

    // "id until" pairs: a workload paused for a while; one whose time passed while idlegpu was not running is resumed.
    const QStringList untilItems = settings.value(kWorkloadsUntilKey).toStringList();
    for (const QString &item : untilItems) {
        for (const QString &pair : item.split(QLatin1Char(','))) {
            const QStringList parts = pair.trimmed().split(QLatin1Char(' '), Qt::SkipEmptyParts);
            if (parts.isEmpty())
                continue;
            const QString id = QUrl::fromPercentEncoding(parts.first().toUtf8());
            const QDateTime at = parts.size() == 2 ? QDateTime::fromString(parts.at(1), Qt::ISODateWithMs)
                                                   : QDateTime();
            if (!at.isValid()) {
                qCWarning(lcMonitor, "%s: workloads_until has no date and time for %s; its pause lasts until resumed",
                          qPrintable(m_filePath), qPrintable(id));
                continue;
            }
            if (!pause.workloads.contains(id))
                continue;
            const qint64 leftMs = wallNow.msecsTo(at);
            if (leftMs <= 0)
                pause.workloads.remove(id);
            else
                pause.workloadUntilMs.insert(id, nowMs + leftMs);
        }
    }

    if (pause.all && until.isValid()) {
        const qint64 leftMs = wallNow.msecsTo(until);
        if (leftMs <= 0) {
            pause.all = false; // the pause ended while idlegpu was not running
        } else {
            pause.allUntilMs = nowMs + leftMs;
        }
    }
    return pause;
}

bool PauseStore::save(const PauseState &pause, qint64 nowMs, const QDateTime &wallNow)
{
    m_error.clear();
    const QFileInfo info(m_filePath);
    const QString folderPath = info.absolutePath();
    QDir().mkpath(QFileInfo(folderPath).absolutePath());
    ::mkdir(QFile::encodeName(folderPath).constData(), 0700);
    // The state folder, trusted (nobody but root and this user can change it), made private on its fd; the file is
    // replaced there in one rename, never through a link, and a failed write (a full disk) keeps the old one.
    const SecureFile::Opened folder = SecureFile::openTrustedFolder(folderPath, ::geteuid());
    if (!folder.ok()) {
        m_error = QStringLiteral("%1: %2").arg(m_filePath, folder.error);
        return false;
    }
    struct stat st
    {};
    if (::fstat(folder.fd.get(), &st) == 0 && st.st_uid == ::geteuid() && (st.st_mode & 077))
        ::fchmod(folder.fd.get(), 0700);

    // In QSettings' IniFormat, as load() reads it: every value here (true/false, an ISO date, percent-encoded ids
    // joined by ", ") is one IniFormat writes as it is.
    const bool all = pause.allPausedAt(nowMs);
    QByteArray text = "[pause]\nall=" + QByteArray(all ? "true" : "false") + '\n';
    if (all && pause.allUntilMs > 0)
        text += "until=" + wallNow.addMSecs(pause.allUntilMs - nowMs).toUTC().toString(Qt::ISODateWithMs).toLatin1()
                + '\n';
    QStringList ids(pause.workloads.cbegin(), pause.workloads.cend());
    std::sort(ids.begin(), ids.end());
    QByteArrayList encoded;
    for (const QString &id : std::as_const(ids))
        encoded.append(QUrl::toPercentEncoding(id));
    text += "workloads=" + encoded.join(", ") + '\n';
    QByteArrayList untils;
    for (const QString &id : std::as_const(ids))
        if (const qint64 at = pause.workloadUntilMs.value(id); at > 0)
            untils.append(QUrl::toPercentEncoding(id) + ' '
                          + wallNow.addMSecs(at - nowMs).toUTC().toString(Qt::ISODateWithMs).toLatin1());
    if (!untils.isEmpty())
        text += "workloads_until=" + untils.join(", ") + '\n';

    QString error;
    if (!SecureFile::replaceFileAt(folder.fd.get(), info.fileName(), text, 0600, false, &error)) {
        m_error = QStringLiteral("%1: %2").arg(m_filePath, error);
        return false;
    }
    return true;
}
