// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The functions that make fake NVIDIA GPUs for the demo, the tests and the benchmarks: plain files of mode 0666 in a
// folder that stands in for /dev, which inotify and /proc see held as they see a real GPU's node.
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
