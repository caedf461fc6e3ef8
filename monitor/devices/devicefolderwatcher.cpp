// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "devices/devicefolderwatcher.h"

#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>

DeviceFolderWatcher::DeviceFolderWatcher(QObject *parent) : QObject(parent), m_watcher(new QFileSystemWatcher(this))
{
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, [this](const QString &path) {
        if (path == m_root || path == driFolder())
            Q_EMIT changed();
    });
}

bool DeviceFolderWatcher::watchRoot(const QString &root)
{
    const QStringList dirs = m_watcher->directories();
    if (!dirs.isEmpty())
        m_watcher->removePaths(dirs);
    m_root = root;
    return m_watcher->addPath(root);
}

void DeviceFolderWatcher::watchDriIfMade()
{
    const QString dri = driFolder();
    if (!m_watcher->directories().contains(dri) && QFileInfo(dri).isDir())
        m_watcher->addPath(dri);
}

QString DeviceFolderWatcher::driFolder() const
{
    return QDir(m_root).filePath(QStringLiteral("dri"));
}
