// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A watcher that tells when a config file has been written whole, so that idlegpu reads it again then and never in
// the middle of a write.
//
// A write in place is whole when its writer closes the file (IN_CLOSE_WRITE); a save by rename is whole when the new
// file is moved over the name (IN_MOVED_TO); a file deleted or moved away is gone at once. Every other step of a save
// (the truncation, each write, the creation of a new file) is ignored: an editor paused between two writes would
// otherwise hand over half a file, such as the first half of a workload without its user= line. The watch is on the
// file's folder (inotify through a QSocketNotifier), which outlives any replacement of the file; where the way to the
// file passes links (the config itself, a link in a chain of links, a folder on the way), the folder of each link is
// watched too, and after each change the watcher resolves the way again, so a link pointed elsewhere (`ln -sfn`) is
// followed. Before the file's folder exists (idlegpu is not set up yet), the nearest folder above it is watched until
// the next folder on the way appears.
#include <QHash>
#include <QObject>
#include <QSet>
#include <QString>

class QSocketNotifier;

class ConfigFileWatcher : public QObject
{
    Q_OBJECT
public:
    explicit ConfigFileWatcher(QObject *parent = nullptr);
    ~ConfigFileWatcher() override;

    // Starts watching `path`, and every link on the way to the file it names now. The watcher follows what changes
    // later by itself.
    void watch(const QString &path);

Q_SIGNALS:
    // The file is worth reading again: it was closed after a write, renamed or linked into place, deleted or moved
    // away, a folder on its way appeared or went, or inotify lost events.
    void changed();

private:
    void readEvents();

    QString m_path;
    int m_fd = -1;
    QSocketNotifier *m_notifier = nullptr;
    QHash<int, QString> m_folderByWatch;
    QHash<int, QSet<QString>> m_namesByWatch; // the names in the folder that concern the config
};
