// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The table of workload templates that the Workloads page's Add menu and the welcome page offer: a custom command and
// a few workloads people lend their GPUs to, each with the fields it fills and a text on what to change before saving.
#include "settings/settingsdraft.h"

#include <QCoreApplication>
#include <QList>
#include <QString>

struct WorkloadTemplate
{
    QString id;          // "custom", "boinc", ...: the menu action's name and WorkloadDraft::templateId
    QString title;       // the menu's text
    QString explanation; // shown beside the fields while the workload made from it is selected
    WorkloadDraft draft; // the fields it fills (the name may get a number to stay unique)
};

class WorkloadTemplates
{
    Q_DECLARE_TR_FUNCTIONS(WorkloadTemplates)
public:
    // In the menu's order, "custom" first. Paths are under `home` (the home folder of whoever runs the dialog):
    // commands run without a shell, so a ~ in them would not be expanded.
    static QList<WorkloadTemplate> all(const QString &home);
    // The template `id`, or none.
    static std::optional<WorkloadTemplate> find(const QString &id, const QString &home);
    // `draft` with a name that none of `taken` has: "boinc", "boinc 2", ...
    static WorkloadDraft withUniqueName(WorkloadDraft draft, const QStringList &taken);
};
