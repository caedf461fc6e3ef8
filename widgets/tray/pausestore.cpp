#include "tray/pausestore.h"

#include "tray/traylogging.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSaveFile>
#include <QUrl>

namespace {
// The file is ours and tiny; anything bigger is not ours to parse.
constexpr qint64 kMaxFileBytes = 64 * 1024;
} // namespace

QString PauseStore::defaultPath()
{
    QString stateHome = qEnvironmentVariable("XDG_STATE_HOME");
    if (stateHome.isEmpty() || !QDir::isAbsolutePath(stateHome))
        stateHome = QDir::homePath() + QStringLiteral("/.local/state");
    return stateHome + QStringLiteral("/idlegpu/state.ini");
}

PauseStore::PauseStore(const QString &filePath) : m_filePath(filePath) {}

PauseState PauseStore::load(qint64 nowMs, const QDateTime &wallNow) const
{
    PauseState pause;
    QFile file(m_filePath);
    if (!file.open(QIODevice::ReadOnly)) {
        if (file.exists())
            qCWarning(lcTray, "%s: cannot read the saved pause: %s", qPrintable(m_filePath),
                      qPrintable(file.errorString()));
        return pause;
    }
    if (file.size() > kMaxFileBytes) {
        qCWarning(lcTray, "%s: %lld bytes, too big to be idlegpu's pause state; ignored", qPrintable(m_filePath),
                  file.size());
        return pause;
    }
    const QList<QByteArray> lines = file.read(kMaxFileBytes).split('\n');

    bool inPauseSection = false;
    QDateTime until;
    for (int i = 0; i < lines.size(); ++i) {
        const QByteArray line = lines.at(i).trimmed();
        if (line.isEmpty() || line.startsWith(';') || line.startsWith('#'))
            continue;
        if (line.startsWith('[')) {
            inPauseSection = line == "[pause]";
            continue;
        }
        const int equals = line.indexOf('=');
        if (!inPauseSection || equals <= 0) {
            qCWarning(lcTray, "%s:%d: not understood; ignored", qPrintable(m_filePath), i + 1);
            continue;
        }
        const QByteArray key = line.left(equals).trimmed();
        const QByteArray value = line.mid(equals + 1).trimmed();
        if (key == "all") {
            pause.all = value == "true";
        } else if (key == "until") {
            until = QDateTime::fromString(QString::fromUtf8(value), Qt::ISODateWithMs);
            if (!until.isValid())
                qCWarning(lcTray, "%s:%d: not a date and time; the pause lasts until resumed", qPrintable(m_filePath),
                          i + 1);
        } else if (key == "workloads") {
            for (const QByteArray &id : value.split(','))
                if (!id.trimmed().isEmpty())
                    pause.workloads.insert(QUrl::fromPercentEncoding(id.trimmed()));
        } else {
            qCWarning(lcTray, "%s:%d: unknown key; ignored", qPrintable(m_filePath), i + 1);
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
    if (!QDir().mkpath(info.absolutePath())) {
        m_error = QStringLiteral("cannot create the folder %1").arg(info.absolutePath());
        return false;
    }
    QFile::setPermissions(info.absolutePath(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);

    QByteArray contents = "[pause]\n";
    const bool all = pause.allPausedAt(nowMs);
    contents += "all=" + QByteArray(all ? "true" : "false") + '\n';
    if (all && pause.allUntilMs > 0)
        contents += "until=" + wallNow.addMSecs(pause.allUntilMs - nowMs).toUTC().toString(Qt::ISODateWithMs).toUtf8() + '\n';
    QList<QString> ids(pause.workloads.cbegin(), pause.workloads.cend());
    std::sort(ids.begin(), ids.end());
    QByteArrayList encoded;
    for (const QString &id : ids)
        encoded.append(QUrl::toPercentEncoding(id));
    contents += "workloads=" + encoded.join(',') + '\n';

    QSaveFile file(m_filePath);
    if (!file.open(QIODevice::WriteOnly)) {
        m_error = QStringLiteral("%1: %2").arg(m_filePath, file.errorString());
        return false;
    }
    // Before anything is written: the temporary file becomes the file, with these permissions.
    file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    file.write(contents);
    if (!file.commit()) {
        m_error = QStringLiteral("%1: %2").arg(m_filePath, file.errorString());
        return false;
    }
    return true;
}
