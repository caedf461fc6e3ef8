// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The keeper of the running monitor's WorkLedger and its timers, which move the totals while a workload runs and
// write the ledger to its file. The monitor calls follow() at each decision and hands the ledger its energy samples.
#include "ledger/workledger.h"
#include "model/decision.h"

#include <QObject>

#include <functional>
#include <memory>

class LedgerStore;
class QTimer;

class LedgerKeeper : public QObject
{
    Q_OBJECT
public:
    // The period at which the ledger's totals move while a workload runs (moved()).
    static constexpr int kTickMs = 60'000;
    // The period at which the ledger is written while the file is open.
    static constexpr int kSaveMs = 300'000;
    // The delay of the write after a preemption, which keeps it off the preemption path, where another GPU's
    // preemption may follow.
    static constexpr int kSaveSoonMs = 1000;

    // `workloadRunning` tells whether a workload runs now; it is asked at each tick (idle time moves nothing that the
    // front ends show but the timeline, which the monitor's next decision extends).
    LedgerKeeper(const Clock *clock, std::function<bool()> workloadRunning, QObject *parent = nullptr);
    // Writes the ledger a last time if this is the file's writer.
    ~LedgerKeeper() override;

    WorkLedger &ledger() { return m_ledger; }
    const WorkLedger &ledger() const { return m_ledger; }

    // Loads the ledger from `path` and becomes its writer (LedgerStore::open); call it once, and not with an empty
    // path.
    void open(const QString &path);
    // Starts the ticks (moved()); the saves run from open() on.
    void startTicking();
    void stopTicking();

    // Records what each GPU does from now on, by the monitor's decision and the runner's workloads.
    void follow(const Decision &decision, const QHash<QString, WorkloadRuntime> &runtimes);
    // Records a preemption in the ledger now and in its file soon.
    void recordPreemption(const PreemptionRecord &record);
    // Ends the watch when the monitor stops: the time up to now counts, and the file is written.
    void finish();
    // Writes the file now, with the time counted up to now; does nothing unless this is the file's writer.
    void save();

Q_SIGNALS:
    // A tick moved the totals while a workload runs.
    void moved();

private:
    void tick();
    bool isWriter() const;

    WorkLedger m_ledger;
    std::function<bool()> m_workloadRunning;
    std::unique_ptr<LedgerStore> m_store;
    QTimer *m_tickTimer;
    QTimer *m_saveTimer;
    QTimer *m_saveSoonTimer;
};
