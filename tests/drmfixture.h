// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A fake sysfs for AMD and Intel GPUs, laid out as the kernel does: the PCI device folder
// <root>/devices/pci0000:00/<slot> with vendor, device, uevent (and unique_id for amdgpu), and
// <root>/class/drm/renderD<N>/device, a relative symlink to it. The render node itself is a plain file
// <dev>/dri/renderD<N> (mode 0666), so that real processes can hold it open.
#include "devices/fakegpufolder.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>

namespace TestSupport {

class FakeSysfs
{
public:
    FakeSysfs()
    {
        if (!m_dir.isValid())
            qFatal("cannot create a temporary folder");
    }
    QString path() const { return m_dir.path(); }
    QString deviceFolder(const QString &slot) const
    {
        return m_dir.filePath(QStringLiteral("devices/pci0000:00/") + slot);
    }
    QString classFolder(int minor) const { return m_dir.filePath(QStringLiteral("class/drm/renderD%1").arg(minor)); }

    // A PCI device at `slot` with these ids ("0x1002") and driver; an empty value leaves that file (or uevent
    // line) out. Then renderD<minor> of sysfs points at it.
    void addPciGpu(int minor, const QString &slot, const QString &vendor, const QString &device,
                   const QString &driver, const QString &uniqueId = QString())
    {
        const QString folder = deviceFolder(slot);
        QDir().mkpath(folder);
        if (!vendor.isEmpty())
            writeFile(folder + QStringLiteral("/vendor"), vendor.toUtf8() + '\n');
        if (!device.isEmpty())
            writeFile(folder + QStringLiteral("/device"), device.toUtf8() + '\n');
        QByteArray uevent;
        if (!driver.isEmpty())
            uevent += "DRIVER=" + driver.toUtf8() + '\n';
        uevent += "PCI_CLASS=30000\nPCI_SLOT_NAME=" + slot.toUtf8() + "\nMODALIAS=pci:v00001002\n";
        writeFile(folder + QStringLiteral("/uevent"), uevent);
        if (!uniqueId.isEmpty())
            writeFile(folder + QStringLiteral("/unique_id"), uniqueId.toUtf8() + '\n');
        linkRenderNode(minor, QStringLiteral("../../../devices/pci0000:00/") + slot);
    }

    // renderD<minor> of sysfs pointing at `target` (relative to class/drm/renderD<minor>).
    void linkRenderNode(int minor, const QString &target)
    {
        QDir().mkpath(classFolder(minor));
        if (!QFile::link(target, classFolder(minor) + QStringLiteral("/device")))
            qFatal("cannot link the sysfs device of renderD%d", minor);
    }

    // <dev>/dri/renderD<minor> as a plain file anyone can open.
    static QString addRenderNode(const QString &devRoot, int minor)
    {
        const QString name = QStringLiteral("dri/renderD%1").arg(minor);
        if (!FakeGpuFolder::addNode(devRoot, name))
            qFatal("cannot create the render node %s in %s", qPrintable(name), qPrintable(devRoot));
        return QDir(devRoot).filePath(name);
    }

private:
    QTemporaryDir m_dir;
};

} // namespace TestSupport
