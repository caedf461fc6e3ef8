// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A watcher of device_root and its dri/ folder, where GPUs appear and go: a node made or removed there may change
// the GPUs present.
#include <QObject>
#include <QString>

class QFileSystemWatcher;

class DeviceFolderWatcher : public QObject
{
    Q_OBJECT
public:
    explicit DeviceFolderWatcher(QObject *parent = nullptr);

    // Watches `root` instead of the folders before; returns false when it cannot be watched.
    bool watchRoot(const QString &root);
    // Watches <root>/dri too if it exists now: render nodes come and go there (amdgpu loaded late, a GPU unbound).
    // A removed folder drops its watch by itself.
    void watchDriIfMade();

Q_SIGNALS:
    void changed();

private:
    QString driFolder() const;

    QString m_root;
    QFileSystemWatcher *m_watcher;
};
