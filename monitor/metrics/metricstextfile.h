// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// Keeps [metrics] textfile for node_exporter's textfile collector: replaced whole (a temporary file in the same
// folder, then a rename, so the collector never reads half a file) soon after each change and at least every refresh
// interval. Lives on the monitor's thread, beside it (the monitor owns it): writing a file is I/O, the GUI's thread
// does none. A file it cannot write is warned about once per distinct error and tried again at the next write; it
// never stops idlegpu. It writes only into a folder that nobody but root and the user idlegpu runs as can write, and
// never through a link or over a FIFO or device there (SecureFile::replaceFileAt): root's idlegpu writes nothing a
// local user points it at.
#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <functional>

class QTimer;

class MetricsTextFile : public QObject
{
    Q_OBJECT
public:
    // Under a storm of changes the file is written at most this often, and a change is never later than this.
    static constexpr int kThrottleMs = 250;

    // `render`: the file's text now (MetricsText::render), asked at each write.
    explicit MetricsTextFile(std::function<QByteArray()> render, QObject *parent = nullptr);

    // The file to keep; empty: none. The file this writer wrote under a previous path is removed: node_exporter
    // would go on reading its values as if they were current.
    void setPath(const QString &path);
    QString path() const { return m_path; }
    // Written at least this often, though nothing changes (the timestamp shows the writer is alive).
    void setRefreshIntervalMs(int ms);

public Q_SLOTS:
    // Something changed: written within kThrottleMs, from the event loop, never on the caller's stack (the monitor
    // emits its changes from the preemption path).
    void changed();
    // Writes now (the last file at exit). False when it could not (warned about).
    bool writeNow();

private:
    std::function<QByteArray()> m_render;
    QString m_path;
    bool m_wrote = false; // m_path holds a file this writer made
    QString m_lastError;  // of the last write; empty: it succeeded
    QTimer *m_throttleTimer;
    QTimer *m_refreshTimer;
    QElapsedTimer m_sinceWrite;
};
