// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A watcher that tells when a config file has been written whole, so that idlegpu reads it again then and never in
// the middle of a write.
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

    // Starts watching `path` and every link on the way to the file it names; later changes of the way are followed.
    void watch(const QString &path);

Q_SIGNALS:
    // Says that the file is worth reading again: it was written whole, replaced or removed, a folder on its way
    // appeared or went, or inotify lost events.
    void changed();

private:
    void readEvents();

    QString m_path;
    int m_fd = -1;
    QSocketNotifier *m_notifier = nullptr;
    QHash<int, QString> m_folderByWatch;
    QHash<int, QSet<QString>> m_namesByWatch; // the names in the folder that concern the config
};
