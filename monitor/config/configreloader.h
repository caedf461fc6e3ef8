// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The reader of the monitor's config file: it reads the file once at start, watches it, and reads it again shortly
// after each write to it is whole.
// A file cut to nothing while idlegpu runs is refused, since it would stop every workload.
#include "config/config.h"

#include <QObject>

#include <optional>

class ConfigFileWatcher;
class QTimer;

class ConfigReloader : public QObject
{
    Q_OBJECT
public:
    // The delay between a write that is closed or renamed into place and the read, so that saves in a row bring
    // one read.
    static constexpr int kReloadDelayMs = 200;

    explicit ConfigReloader(const QString &path, QObject *parent = nullptr);

    QString path() const { return m_path; }
    // Whether the file did not exist at the last read and a placeholder stood in for it.
    bool notSetUp() const { return m_notSetUp; }

    // Lets a missing file stand for a setup without workloads: readFirst() then returns `placeholder` (whose
    // device_root is where GPUs are looked for), and the file is read once it appears. Without this call a missing
    // file is an error.
    void acceptMissing(const Config &placeholder);
    // Reads the file as it is now (or returns the placeholder), for the monitor's start.
    ConfigLoadResult readFirst();
    // Reads the file again after a change, for the monitor to apply. Returns nullopt when there is nothing to apply:
    // the file is still missing, or it changed while it was read (the end of that write brings another reload).
    std::optional<ConfigLoadResult> readAgain();

    // Starts watching the file; reloadDue() follows each whole write.
    void watch();
    // Drops the reloadDue() that the writes seen so far would bring.
    void cancelPending();

Q_SIGNALS:
    // The file was written whole kReloadDelayMs ago, so it is time to call readAgain().
    void reloadDue();

private:
    QString m_path;
    std::optional<Config> m_placeholder;
    bool m_notSetUp = false;
    ConfigFileWatcher *m_watcher;
    QTimer *m_delayTimer;
};
