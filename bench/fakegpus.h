// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A fake device_root with GPUs 0 and 1 and the shared nodes, and a private config over it, for the benchmarks
// that run a real monitor: plain files stand in for the nodes (inotify and /proc see them alike).
#include "devices/fakegpufolder.h"

#include <QFile>
#include <QTemporaryDir>

// `settings`: the rest of [defaults] after device_root, then the workloads. Returns the config's path.
inline QString writeFakeGpuConfig(const QTemporaryDir &dir, const QString &settings)
{
    const QString dev = dir.filePath(QStringLiteral("dev"));
    FakeGpuFolder::make(dev, 2);
    const QString path = dir.filePath(QStringLiteral("idlegpu.conf"));
    QFile config(path);
    config.open(QIODevice::WriteOnly);
    config.write((QStringLiteral("[defaults]\ndevice_root=%1\n").arg(dev) + settings).toUtf8());
    config.close();
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner);
    return path;
}
