// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
#include "model/snapshot.h"

#include <optional>

// Lists the GPUs and the shared nodes under deviceRoot. An NVIDIA GPU's index is the N of nvidiaN; AMD and Intel GPUs
// (render nodes) take the indices after the highest NVIDIA one, in PCI slot order. devicescanner.cpp gives the rules.
// Device majors are not checked, so tests can use plain files. A missing or unreadable deviceRoot gives an empty
// result; a render node whose sysfs entry is missing or garbage is skipped.
DeviceNodes scanDevices(const QString &deviceRoot, const QString &sysfsRoot = QStringLiteral("/sys"));

// Returns the AMD or Intel GPU that a render node (<...>/renderD<N>) stands for, read from
// <sysfsRoot>/class/drm/renderD<N>, with its index left at -1. Returns nullopt when it is not a GPU that idlegpu
// manages, and *whyNot then says why, naming the sysfs file.
std::optional<GpuDevice> readDrmGpu(const QString &renderNodePath, const QString &sysfsRoot,
                                    QString *whyNot = nullptr);

// Returns the GPUs of the chosen vendors ([defaults] vendors) among those found. An empty `vendors` (auto) means the
// NVIDIA GPUs when there is one, else the AMD and Intel ones. Indices stay as scanDevices() gave them; kfd goes with
// the AMD GPUs.
DeviceNodes keepVendors(const DeviceNodes &found, const QList<GpuVendor> &vendors);
