// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "settings/gpupicker.h"

#include <QCheckBox>
#include <QHBoxLayout>

#include <algorithm>

GpuPicker::GpuPicker(const QString &namePrefix, std::function<void()> changed)
    : m_prefix(namePrefix), m_changed(std::move(changed)), m_layout(new QHBoxLayout(this))
{
    setObjectName(namePrefix);
    m_layout->setContentsMargins(0, 0, 0, 0);
    m_all = new QCheckBox(tr("All GPUs"));
    m_all->setObjectName(namePrefix + QStringLiteral("All"));
    m_layout->addWidget(m_all);
    m_layout->addStretch(1);
    connect(m_all, &QCheckBox::toggled, this, [this](bool all) {
        m_selection.all = all;
        for (QCheckBox *box : std::as_const(m_boxes))
            box->setEnabled(!all);
        m_changed();
    });
}

void GpuPicker::setPresent(const QList<int> &present)
{
    if (present == m_present)
        return;
    m_present = present;
    rebuild();
}

void GpuPicker::setSelection(const GpuSelection &selection)
{
    m_selection = selection;
    rebuild();
}

GpuSelection GpuPicker::selection() const
{
    if (m_selection.all)
        return GpuSelection::allGpus();
    QList<int> checked;
    for (QCheckBox *box : m_boxes)
        if (box->isChecked())
            checked.append(box->property("gpu").toInt());
    return GpuSelection::of(checked);
}

void GpuPicker::rebuild()
{
    const QList<int> explicitGpus = m_selection.all ? QList<int>() : m_selection.indices;
    qDeleteAll(m_boxes);
    m_boxes.clear();
    QList<int> shown = m_present;
    for (int gpu : explicitGpus)
        if (!shown.contains(gpu))
            shown.append(gpu);
    std::sort(shown.begin(), shown.end());
    const QSignalBlocker blockAll(m_all);
    m_all->setChecked(m_selection.all);
    for (int gpu : std::as_const(shown)) {
        auto *box = new QCheckBox(m_present.contains(gpu) ? tr("GPU %1").arg(gpu) : tr("GPU %1 (not present)").arg(gpu));
        box->setObjectName(m_prefix + QStringLiteral("Gpu") + QString::number(gpu));
        box->setProperty("gpu", gpu);
        box->setChecked(explicitGpus.contains(gpu));
        box->setEnabled(!m_selection.all);
        connect(box, &QCheckBox::toggled, this, [this] { m_changed(); });
        m_layout->insertWidget(m_layout->count() - 1, box);
        m_boxes.append(box);
    }
}
