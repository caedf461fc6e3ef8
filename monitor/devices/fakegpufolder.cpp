// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "devices/fakegpufolder.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

namespace FakeGpuFolder {

QString gpuNode(const QString &folder, int gpu)
{
    return QDir(folder).filePath(QStringLiteral("nvidia%1").arg(gpu));
}

QString ctlNode(const QString &folder)
{
    return QDir(folder).filePath(QStringLiteral("nvidiactl"));
}

QString uvmNode(const QString &folder)
{
    return QDir(folder).filePath(QStringLiteral("nvidia-uvm"));
}

static bool makeNode(const QString &path)
{
    if (!QDir().mkpath(QFileInfo(path).absolutePath()))
        return false;
    QFile node(path);
    if (!node.open(QIODevice::WriteOnly))
        return false;
    node.close();
    return node.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadUser
                               | QFileDevice::WriteUser | QFileDevice::ReadGroup | QFileDevice::WriteGroup
                               | QFileDevice::ReadOther | QFileDevice::WriteOther);
}

bool make(const QString &folder, int gpus)
{
    if (!QDir().mkpath(folder))
        return false;
    for (int gpu = 0; gpu < gpus; ++gpu)
        if (!addGpu(folder, gpu))
            return false;
    return gpus == 0 || (makeNode(ctlNode(folder)) && makeNode(uvmNode(folder)));
}

bool addGpu(const QString &folder, int gpu)
{
    return makeNode(gpuNode(folder, gpu));
}

bool addNode(const QString &folder, const QString &name)
{
    return makeNode(QDir(folder).filePath(name));
}

} // namespace FakeGpuFolder
