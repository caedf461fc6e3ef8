// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "tray/pausestore.h"

// The file is private (mode 0600), in QSettings' IniFormat (QSettings reads it; it is written whole with
// SecureFile::replaceFileAt, which keeps the old file when a write fails):
//
//   [pause]
//   all=true
//   until=2026-11-05T15:02:00.000Z     ; wall clock, UTC; absent: until resumed by hand
//   workloads=process-miner, process-boinc   ; percent-encoded ids
//
// A list without spaces ("workloads=a,b") reads the same.
// The monitor counts in monotonic ms, which mean nothing after a reboot; the file holds wall-clock time and
// converts with a "now" given on both clocks.

#include "config/securefile.h"
#include "base/statefolder.h"
#include "tray/traylogging.h"

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
} // namespace

QString PauseStore::defaultPath()
{
    return idlegpuStateFolder() + QStringLiteral("/state.ini");
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
        qCWarning(lcTray, "%s: not a file; the saved pause is ignored", qPrintable(m_filePath));
        return pause;
    }
    if (info.size() > kMaxFileBytes) {
        qCWarning(lcTray, "%s: %lld bytes, too big to be idlegpu's pause state; ignored", qPrintable(m_filePath),
                  info.size());
        return pause;
    }
    QFile probe(m_filePath);
    if (!probe.open(QIODevice::ReadOnly)) {
        qCWarning(lcTray, "%s: cannot read the saved pause: %s", qPrintable(m_filePath),
                  qPrintable(probe.errorString()));
        return pause;
    }
    probe.close();

    const QSettings settings(m_filePath, QSettings::IniFormat);
    if (settings.status() != QSettings::NoError)
        qCWarning(lcTray, "%s: not understood in part; what could be read is used", qPrintable(m_filePath));
    const QStringList keys = settings.allKeys();
    for (const QString &key : keys)
        if (key != kAllKey && key != kUntilKey && key != kWorkloadsKey)
            qCWarning(lcTray, "%s: unknown key %s; ignored", qPrintable(m_filePath), qPrintable(key));

    pause.all = settings.value(kAllKey).toString() == QLatin1String("true");
    QDateTime until;
    if (settings.contains(kUntilKey)) {
        until = QDateTime::fromString(settings.value(kUntilKey).toString(), Qt::ISODateWithMs);
        if (!until.isValid())
            qCWarning(lcTray, "%s: until is not a date and time; the pause lasts until resumed",
                      qPrintable(m_filePath));
    }
    // QSettings splits "a,b" into a list and keeps a lone id as a string; ids themselves hold no comma (they
    // are percent-encoded).
    const QStringList items = settings.value(kWorkloadsKey).toStringList();
    for (const QString &item : items)
        for (const QString &id : item.split(QLatin1Char(',')))
            if (!id.trimmed().isEmpty())
                pause.workloads.insert(QUrl::fromPercentEncoding(id.trimmed().toUtf8()));

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
    struct stat st{};
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

    QString error;
    if (!SecureFile::replaceFileAt(folder.fd.get(), info.fileName(), text, 0600, false, &error)) {
        m_error = QStringLiteral("%1: %2").arg(m_filePath, error);
        return false;
    }
    return true;
}
