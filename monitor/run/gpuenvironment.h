// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The environment a workload runs in: idlegpu's own (for another user's workload, a fresh one with that user's
// identity), the variables through which each vendor's stack selects the workload's GPUs, and env=.
#include "config/useraccount.h"
#include "config/workloadchecks.h" // kLoginPath
#include "model/snapshot.h"

#include <QHash>
#include <QList>
#include <QPair>
#include <QProcessEnvironment>
#include <QString>

// Returns a workload's environment: `base` (idlegpu's own environment, PATH, HOME..., or a loginEnvironment()),
// CUDA_DEVICE_ORDER=PCI_BUS_ID so that CUDA numbers GPUs in PCI order, then, unless allGpus, each vendor's selection
// of `gpus`, then env= over all.
// An empty `devices` (the caller does not know them) makes every index an NVIDIA GPU.
QProcessEnvironment workloadEnvironment(const QList<QPair<QString, QString>> &env, const QList<int> &gpus,
                                        bool allGpus, const QHash<int, QString> &uuidsByIndex = QHash<int, QString>(),
                                        const QList<GpuDevice> &devices = QList<GpuDevice>(),
                                        const QProcessEnvironment &base = QProcessEnvironment::systemEnvironment());

// Returns the base environment of a workload that user= runs as someone else, made afresh as `runuser -l` makes it:
// `account`'s HOME, USER, LOGNAME and SHELL, PATH = kLoginPath, and only the language of `own`.
QProcessEnvironment loginEnvironment(const UserAccount &account, const QProcessEnvironment &own);
