// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The environment a workload runs in: idlegpu's own (for another user's workload, a fresh one with that user's
// identity), the variables through which each vendor's stack selects the workload's GPUs, and env=.
#include "config/useraccount.h"
#include "model/snapshot.h"

#include <QHash>
#include <QList>
#include <QPair>
#include <QProcessEnvironment>
#include <QString>

// Returns a workload's environment: `base` (idlegpu's own environment, PATH, HOME..., or a loginEnvironment()),
// CUDA_DEVICE_ORDER=PCI_BUS_ID so that CUDA numbers GPUs in PCI order, then, unless allGpus, each vendor's selection
// of `gpus`, then env= over all.
// - NVIDIA: CUDA_VISIBLE_DEVICES names the selected NVIDIA GPUs by UUID (GPU-...) when `uuidsByIndex` knows
//   every one of them, so no renumbering can put a workload on another card; else by number. "-1" (an
//   invalid index: CUDA shows the devices before it, none) when none of them is selected. It is unset on a machine
//   without NVIDIA GPUs, because HIP reads it too.
// - AMD (when present): ROCR_VISIBLE_DEVICES names the selected ones by "GPU-<unique_id>" when sysfs has it
//   for each, else by their ordinal among the AMD GPUs in PCI order; empty hides them all (ROCr filters as
//   soon as the variable is set). HIP_VISIBLE_DEVICES then lists all that ROCr exposes (0..k-1), so that
//   neither an inherited value nor CUDA_VISIBLE_DEVICES (HIP's fallback) narrows it again; an inherited
//   GPU_DEVICE_ORDINAL, which would index into them, is removed.
// - Intel (when present): ZE_AFFINITY_MASK lists the ordinals of the selected ones among the Intel GPUs in
//   PCI order, with ZE_ENABLE_PCI_ID_DEVICE_ORDER=1 (Level Zero numbers them so) and
//   ZE_FLAT_DEVICE_HIERARCHY=COMPOSITE (an ordinal names a card, not one tile of it). With none selected, it is
//   the ordinal past the last one (Level Zero drops it, leaving no device).
// An empty `devices` (the caller does not know them) makes every index an NVIDIA GPU.
QProcessEnvironment workloadEnvironment(const QList<QPair<QString, QString>> &env, const QList<int> &gpus,
                                        bool allGpus, const QHash<int, QString> &uuidsByIndex = QHash<int, QString>(),
                                        const QList<GpuDevice> &devices = QList<GpuDevice>(),
                                        const QProcessEnvironment &base = QProcessEnvironment::systemEnvironment());

// The PATH of a workload run as another user: systemd's default for services (sudo's secure_path), never idlegpu's.
inline constexpr char kLoginPath[] = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// The base environment of a workload that user= runs as someone else (idlegpu as root), made afresh as
// `runuser -l` and sudo's env_reset make it: HOME, USER, LOGNAME and SHELL of `account`, PATH = kLoginPath, and of
// `own` (idlegpu's environment) only the language (LANG, LANGUAGE, LC_*). Nothing else of root's (a token, its
// PATH, LD_* variables, its XDG folders) reaches another user's workload; env= adds what the workload needs.
QProcessEnvironment loginEnvironment(const UserAccount &account, const QProcessEnvironment &own);
