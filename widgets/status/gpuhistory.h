// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The record of what a GPU did over the last hour, from the states it was seen in, and the small graph that paints it.
#include "policy/policy.h"

#include <QList>
#include <QWidget>

class GpuHistory
{
public:
    static constexpr qint64 kSpanMs = 3'600'000;

    struct Segment
    {
        qint64 fromMs = 0;
        qint64 toMs = 0;
        GpuState state = GpuState::Idle;
    };

    // Notes the state at `nowMs`; only changes are stored, and what is older than the span is dropped.
    void record(GpuState state, qint64 nowMs);
    // Returns the segments between nowMs - kSpanMs and nowMs, oldest first, none before the first record.
    QList<Segment> segments(qint64 nowMs) const;

private:
    struct Change
    {
        qint64 atMs;
        GpuState state;
    };
    QList<Change> m_changes;
};

class GpuHistoryGraph : public QWidget
{
    Q_OBJECT
public:
    explicit GpuHistoryGraph(QWidget *parent = nullptr);
    void setHistory(const GpuHistory &history, qint64 nowMs);
    QSize sizeHint() const override;

protected:
    void paintEvent(QPaintEvent *event) override;

private:
    GpuHistory m_history;
    qint64 m_nowMs = 0;
};
