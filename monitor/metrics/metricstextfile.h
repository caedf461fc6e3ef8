// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The writer that keeps [metrics] textfile for node_exporter's textfile collector, replacing it whole soon after each
// change and at least every refresh interval. It runs on the monitor's thread, never stops idlegpu, and writes only
// into a trusted folder (SecureFile::replaceFileAt).
#include <QElapsedTimer>
#include <QObject>
#include <QString>

#include <functional>

class QTimer;

class MetricsTextFile : public QObject
{
    Q_OBJECT
public:
    // The shortest time between two writes under a storm of changes, and the longest delay of a change.
    static constexpr int kThrottleMs = 250;

    // `render` returns the file's text now (MetricsText::render); it is called at each write.
    explicit MetricsTextFile(std::function<QByteArray()> render, QObject *parent = nullptr);

    // Sets the file to keep; empty means none. The file that this writer wrote under a previous path is removed,
    // because node_exporter would go on reading its values as if they were current.
    void setPath(const QString &path);
    QString path() const { return m_path; }
    // Sets how often the file is written even when nothing changes (the timestamp shows that the writer is alive).
    void setRefreshIntervalMs(int ms);

public Q_SLOTS:
    // Schedules a write within kThrottleMs, from the event loop and never on the caller's stack, because the
    // monitor emits its changes from the preemption path.
    void changed();
    // Writes now (the last file at exit). Returns false, with a warning, when it could not.
    bool writeNow();

private:
    std::function<QByteArray()> m_render;
    QString m_path;
    bool m_wrote = false; // m_path holds a file that this writer made
    QString m_lastError;  // the error of the last write; empty when it succeeded
    QTimer *m_throttleTimer;
    QTimer *m_refreshTimer;
    QElapsedTimer m_sinceWrite;
};
