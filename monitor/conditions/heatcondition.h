// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The condition of each GPU's temperature ([defaults] max_temperature_c): Snapshot::temperatures and
// HoldReason::TooHot. It has no watcher: it takes the GPU backends' samples (takeSample()).
#include "conditions/condition.h"
#include "model/gpumetrics.h"

class HeatCondition : public Condition
{
    Q_OBJECT
public:
    HoldReason reason() const override { return HoldReason::TooHot; }
    void configure(const Config &) override {}
    void readOnce(const Config &) override {}
    void fill(const Config &config, Snapshot &snapshot) const override;

    // Takes the temperatures of a backends' sample; a GPU without a reading is unknown until the next one.
    void takeSample(const QHash<int, GpuInfo> &gpus);

private:
    QHash<int, int> m_celsiusByGpu;
};
