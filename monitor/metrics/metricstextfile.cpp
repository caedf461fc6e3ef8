// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "metrics/metricstextfile.h"

// The writer replaces the file whole (a temporary file in the same folder, then a rename, so the collector never reads
// half a file) soon after each change and at least every refresh interval. It lives on the monitor's thread, beside the
// monitor that owns it, because writing a file is I/O and the GUI's thread does none. A file that it cannot write is
// warned about once per distinct error and tried again at the next write; it never stops idlegpu. It writes only into a
// folder that nobody but root and the user idlegpu runs as can write, and never through a link or over a FIFO or device
// there (SecureFile::replaceFileAt): root's idlegpu writes nothing a local user points it at.

#include "config/securefile.h"
#include "base/logging.h"

#include <QFile>
#include <QFileInfo>
#include <QTimer>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {
// 0644. The one file idlegpu makes that is not private (the ledger and the state are 0600): node_exporter runs as its
// own user (prometheus on Debian) and must read it. It holds what a fleet dashboard shows anyway: counts, times, GPU
// names and workload names, no command lines, users or paths.
constexpr mode_t kReadableByOthers = 0644;

// The textfile's folder, when only root or the user idlegpu runs as can write it (node_exporter's Debian folder,
// /var/lib/prometheus/node-exporter, is root's): in a folder another user can write, a link, FIFO or device put in
// the file's place would make idlegpu write where that user chose.
SecureFile::Opened openTextfileFolder(const QString &path)
{
    return SecureFile::openTrustedFolder(QFileInfo(path).absolutePath(), ::geteuid());
}
} // namespace
MetricsTextFile::MetricsTextFile(std::function<QByteArray()> render, QObject *parent)
    : QObject(parent), m_render(std::move(render))
{
    m_throttleTimer = new QTimer(this);
    m_throttleTimer->setSingleShot(true);
    connect(m_throttleTimer, &QTimer::timeout, this, &MetricsTextFile::writeNow);
    m_refreshTimer = new QTimer(this);
    m_refreshTimer->setInterval(10'000);
    connect(m_refreshTimer, &QTimer::timeout, this, &MetricsTextFile::writeNow);
}

void MetricsTextFile::setPath(const QString &path)
{
    if (path == m_path)
        return;
    if (m_wrote) {
        const SecureFile::Opened folder = openTextfileFolder(m_path);
        const QByteArray name = QFile::encodeName(QFileInfo(m_path).fileName());
        struct stat st{};
        if (folder.ok() && ::fstatat(folder.fd.get(), name.constData(), &st, AT_SYMLINK_NOFOLLOW) == 0
            && S_ISREG(st.st_mode) && ::unlinkat(folder.fd.get(), name.constData(), 0) == 0)
            qCInfo(lcMetrics, "removed %s: metrics go to %s now", qPrintable(m_path),
                   path.isEmpty() ? "no file" : qPrintable(path));
    }
    m_path = path;
    m_wrote = false;
    m_lastError.clear();
    if (m_path.isEmpty()) {
        m_throttleTimer->stop();
        m_refreshTimer->stop();
        return;
    }
    qCInfo(lcMetrics, "writing metrics to %s", qPrintable(m_path));
    changed();
}

void MetricsTextFile::setRefreshIntervalMs(int ms)
{
    if (ms == m_refreshTimer->interval())
        return;
    m_refreshTimer->setInterval(ms);
    if (m_refreshTimer->isActive())
        m_refreshTimer->start();
}

void MetricsTextFile::changed()
{
    if (m_path.isEmpty() || m_throttleTimer->isActive())
        return; // the pending write takes this change too: it renders what holds when it runs
    const qint64 sinceWrite = m_sinceWrite.isValid() ? m_sinceWrite.elapsed() : kThrottleMs;
    m_throttleTimer->start(int(qMax<qint64>(0, kThrottleMs - sinceWrite)));
}

bool MetricsTextFile::writeNow()
{
    m_throttleTimer->stop();
    if (m_path.isEmpty())
        return false;
    m_refreshTimer->start();
    m_sinceWrite.start();
    // The folder is opened (and checked) at each write: node_exporter may be installed, or its folder made, later.
    // replaceFileAt writes a temporary file there (O_EXCL) and renames it over the file: never in place, never
    // through a link, never over a FIFO or device, and a failed write (a full disk) keeps the old file.
    QString error;
    const SecureFile::Opened folder = openTextfileFolder(m_path);
    bool ok = folder.ok();
    if (!ok)
        error = folder.error;
    else
        ok = SecureFile::replaceFileAt(folder.fd.get(), QFileInfo(m_path).fileName(), m_render(), kReadableByOthers,
                                       false, &error);
    if (!ok) {
        if (error != m_lastError)
            qCWarning(lcMetrics, "cannot write the metrics to %s: %s (trying again at each change and every %d s)",
                      qPrintable(m_path), qPrintable(error), m_refreshTimer->interval() / 1000);
        m_lastError = error;
        return false;
    }
    if (!m_lastError.isEmpty())
        qCInfo(lcMetrics, "writing the metrics to %s again", qPrintable(m_path));
    m_lastError.clear();
    m_wrote = true;
    return true;
}
