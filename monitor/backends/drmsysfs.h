// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The reader of what sysfs tells about an AMD or Intel GPU without a vendor library. A file that is missing, unreadable
// (amdgpu refuses reads while the GPU resets) or garbled leaves its field absent.
#include "backends/gpubackend.h"

#include <QString>

// Returns a GpuInfo with the name, busId, uuid and metrics read from a PCI device folder. index and backendIndex stay
// -1 and the process lists unknown: the caller numbers GPUs, and fdinfo gives the processes.
GpuInfo readDrmSysfsGpu(const QString &pciDeviceFolder);
