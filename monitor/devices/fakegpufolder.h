// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The functions that make fake NVIDIA GPUs: plain files in a folder that stands in for /dev, mode 0666 as the driver
// makes its nodes. scanDevices() does not check device majors, and inotify and /proc see a process that holds such a
// file as they see a CUDA job on a real GPU. The demo (idlegpu --demo), the tests and the benchmarks use them.
#include <QString>

namespace FakeGpuFolder {

QString gpuNode(const QString &folder, int gpu); // <folder>/nvidia<gpu>
QString ctlNode(const QString &folder);          // <folder>/nvidiactl
QString uvmNode(const QString &folder);          // <folder>/nvidia-uvm

// Makes `folder` (with its parents) holding nvidia0..nvidia<gpus-1>, nvidiactl and nvidia-uvm. With no GPU it stays
// empty, like a machine without NVIDIA's driver, whose AMD or Intel nodes addNode() adds. Returns false when a file
// could not be made.
bool make(const QString &folder, int gpus);
// Adds one more GPU: nvidia<gpu> in `folder`.
bool addGpu(const QString &folder, int gpu);
// Adds any node, `name` relative to `folder` ("dri/renderD128", "kfd"), with the folders it needs.
bool addNode(const QString &folder, const QString &name);

} // namespace FakeGpuFolder
