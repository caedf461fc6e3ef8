// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "tray/pausestore.h"

#include "statefolder.h"
#include "tray/traylogging.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSettings>
#include <QUrl>

namespace {
// The file is ours and tiny; anything bigger is not ours to parse.
constexpr qint64 kMaxFileBytes = 64 * 1024;

const QString kAllKey = QStringLiteral("pause/all");
const QString kUntilKey = QStringLiteral("pause/until");
const QString kWorkloadsKey = QStringLiteral("pause/workloads");

constexpr QFileDevice::Permissions kPrivateFile = QFileDevice::ReadOwner | QFileDevice::WriteOwner;
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
    if (!QDir().mkpath(info.absolutePath())) {
        m_error = QStringLiteral("cannot create the folder %1").arg(info.absolutePath());
        return false;
    }
    QFile::setPermissions(info.absolutePath(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);

    // QSettings replaces the file atomically (QSaveFile), and the new file takes the mode of the one it
    // replaces: make that one private first, creating it if needed.
    QFile file(m_filePath);
    if (!file.exists() && !file.open(QIODevice::WriteOnly)) {
        m_error = QStringLiteral("%1: %2").arg(m_filePath, file.errorString());
        return false;
    }
    file.close();
    if (!file.setPermissions(kPrivateFile)) {
        m_error = QStringLiteral("%1: %2").arg(m_filePath, file.errorString());
        return false;
    }

    QSettings settings(m_filePath, QSettings::IniFormat);
    settings.clear(); // the file holds the pause and nothing else
    const bool all = pause.allPausedAt(nowMs);
    settings.setValue(kAllKey, all ? QStringLiteral("true") : QStringLiteral("false"));
    if (all && pause.allUntilMs > 0)
        settings.setValue(kUntilKey, wallNow.addMSecs(pause.allUntilMs - nowMs).toUTC().toString(Qt::ISODateWithMs));
    QStringList ids(pause.workloads.cbegin(), pause.workloads.cend());
    std::sort(ids.begin(), ids.end());
    QStringList encoded;
    for (const QString &id : std::as_const(ids))
        encoded.append(QString::fromLatin1(QUrl::toPercentEncoding(id)));
    // An empty QStringList would be written as @Invalid(); no workload is an empty value.
    if (encoded.isEmpty())
        settings.setValue(kWorkloadsKey, QString());
    else if (encoded.size() == 1)
        settings.setValue(kWorkloadsKey, encoded.first());
    else
        settings.setValue(kWorkloadsKey, encoded);
    settings.sync();
    if (settings.status() != QSettings::NoError) {
        m_error = QStringLiteral("%1: cannot be written").arg(m_filePath);
        return false;
    }
    return true;
}
