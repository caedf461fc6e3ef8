// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "metrics/metricstextfile.h"

#include "logging.h"

#include <QFile>
#include <QSaveFile>
#include <QTimer>

namespace {
// 0644. The one file idlegpu makes that is not private (the ledger and the state are 0600): node_exporter runs as its
// own user (prometheus on Debian) and must read it. It holds what a fleet dashboard shows anyway: counts, times, GPU
// names and workload names, no command lines, users or paths.
constexpr QFileDevice::Permissions kReadableByOthers = QFileDevice::ReadOwner | QFileDevice::WriteOwner
                                                       | QFileDevice::ReadGroup | QFileDevice::ReadOther;
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
    if (m_wrote && QFile::remove(m_path))
        qCInfo(lcMetrics, "removed %s: metrics go to %s now", qPrintable(m_path),
               path.isEmpty() ? "no file" : qPrintable(path));
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
    // QSaveFile writes a temporary file in the target's folder and renames it over the target at commit(). Without
    // setDirectWriteFallback() (off by default) it never writes the target in place: a folder where it cannot make
    // the temporary file fails the write instead.
    QSaveFile file(m_path);
    const QByteArray text = m_render();
    bool ok = file.open(QIODevice::WriteOnly);
    ok = ok && file.setPermissions(kReadableByOthers);
    ok = ok && file.write(text) == text.size();
    ok = ok && file.commit();
    if (!ok) {
        const QString error = file.errorString();
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
