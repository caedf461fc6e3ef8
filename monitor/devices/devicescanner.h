// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
#include "model/snapshot.h"

#include <optional>

// Lists the GPUs and the shared nodes under deviceRoot.
// - NVIDIA: nvidia[0-9]+ are GPUs (the number is the index); nvidiactl, nvidia-uvm, nvidia-uvm-tools and
//   nvidia-modeset are shared nodes. Names the driver never makes are ignored: a leading zero (nvidia01) or an
//   index above 255.
// - AMD and Intel: dri/renderD<N> whose sysfs device (<sysfsRoot>/class/drm/renderD<N>/device, matched by name)
//   is a PCI device of vendor 0x1002 bound to amdgpu, or of vendor 0x8086 bound to i915 or xe. They take the
//   indices after the highest NVIDIA one (0.. without NVIDIA GPUs), in PCI slot order. NVIDIA's own render nodes
//   (nvidiaN covers them) and those of other vendors or without a PCI device (vgem, virtio, llvmpipe) are
//   skipped. kfd (every ROCm process opens it) is a shared node.
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
