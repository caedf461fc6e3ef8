// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// A picker of GPUs for a gpus= key: "All GPUs", or a check box per GPU, for the detected ones and any that the
// selection names but that is not present. The boxes are named <prefix>All and <prefix>Gpu<index>.
#include "config/gpuselection.h"

#include <QCoreApplication>
#include <QList>
#include <QWidget>

#include <functional>

class QCheckBox;
class QHBoxLayout;

class GpuPicker : public QWidget
{
    Q_DECLARE_TR_FUNCTIONS(GpuPicker)
public:
    // `changed` is called when the user changes the selection, not when the picker is set.
    GpuPicker(const QString &namePrefix, std::function<void()> changed);

    void setPresent(const QList<int> &present);
    void setSelection(const GpuSelection &selection);
    GpuSelection selection() const;

private:
    void rebuild();

    QString m_prefix;
    std::function<void()> m_changed;
    QHBoxLayout *m_layout;
    QCheckBox *m_all;
    QList<QCheckBox *> m_boxes;
    QList<int> m_present;
    GpuSelection m_selection;
};
