// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The condition of whether a user types on a terminal ([tty]): Snapshot::ttys, read at every scan while
// [tty] is enabled, and HoldReason::TerminalUser. It has no watcher: a user who starts typing is seen at the next scan
// (the fallback poll at the latest), and the decision wakes itself when an active user turns idle
// (Decision::nextWakeMs).
#include "conditions/condition.h"

class TerminalCondition : public Condition
{
    Q_OBJECT
public:
    explicit TerminalCondition(const QString &ptsRoot);

    HoldReason reason() const override { return HoldReason::TerminalUser; }
    void configure(const Config &) override {}
    void readOnce(const Config &) override {}
    void fill(const Config &config, Snapshot &snapshot) const override;

private:
    QString m_ptsRoot;
};
