// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The reader of what sysfs tells about an AMD or Intel GPU without a vendor library. The GPU's PCI device folder
// (the resolved /sys/class/drm/renderD128/device, such as /sys/devices/pci0000:00/0000:00:01.1/0000:03:00.0) holds
// the PCI ids, and with amdgpu also the product name, load, VRAM use and unique id; its hwmon folder holds the
// temperature and power. A file that is missing, unreadable (amdgpu refuses reads while the GPU resets) or garbled
// leaves its field absent.
#include "backends/gpubackend.h"

#include <QString>

// Returns a GpuInfo with the name, busId, uuid and metrics read from a PCI device folder. index and backendIndex
// stay -1 and the process lists unknown, because the caller numbers GPUs and fdinfo gives the processes.
// - name: amdgpu's product_name where present, else "AMD GPU 1002:744c" / "Intel GPU 8086:56a0" from the PCI ids
// - busId: the folder's name, "0000:03:00.0" (the form drm-pdev of fdinfo uses); empty if it is not a PCI slot
// - uuid: "GPU-<unique_id>" (amdgpu's 16 hex digits, as ROCR_VISIBLE_DEVICES accepts it); empty without one
// - utilizationPercent: gpu_busy_percent (amdgpu)
// - memoryUsedBytes / memoryTotalBytes: mem_info_vram_used / mem_info_vram_total (amdgpu)
// - temperatureCelsius: hwmon/hwmon*/temp1_input (millidegrees)
// - powerMilliwatts: hwmon/hwmon*/power1_average, else power1_input (microwatts)
GpuInfo readDrmSysfsGpu(const QString &pciDeviceFolder);
