// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "ledger/ledgerkeeper.h"

#include "ledger/ledgerstore.h"

#include <QTimer>

#include <utility>

LedgerKeeper::LedgerKeeper(const Clock *clock, std::function<bool()> workloadRunning, QObject *parent)
    : QObject(parent),
      m_ledger(clock),
      m_workloadRunning(std::move(workloadRunning)),
      m_tickTimer(new QTimer(this)),
      m_saveTimer(new QTimer(this)),
      m_saveSoonTimer(new QTimer(this))
{
    m_tickTimer->setInterval(kTickMs);
    connect(m_tickTimer, &QTimer::timeout, this, &LedgerKeeper::tick);
    m_saveTimer->setInterval(kSaveMs);
    connect(m_saveTimer, &QTimer::timeout, this, &LedgerKeeper::save);
    m_saveSoonTimer->setSingleShot(true);
    m_saveSoonTimer->setInterval(kSaveSoonMs);
    connect(m_saveSoonTimer, &QTimer::timeout, this, &LedgerKeeper::save);
}

LedgerKeeper::~LedgerKeeper()
{
    if (isWriter())
        finish();
}

void LedgerKeeper::open(const QString &path)
{
    if (m_store || path.isEmpty())
        return;
    m_store = std::make_unique<LedgerStore>(path);
    if (m_store->open(&m_ledger))
        m_saveTimer->start();
}

void LedgerKeeper::startTicking()
{
    m_tickTimer->start();
}

void LedgerKeeper::stopTicking()
{
    m_tickTimer->stop();
}

void LedgerKeeper::follow(const Decision &decision, const QHash<QString, WorkloadRuntime> &runtimes)
{
    QHash<int, GpuActivity> activity;
    QHash<int, QStringList> workloads;
    for (const GpuStatus &gpu : decision.gpus) {
        const GpuActivity what = WorkLedger::activityOf(gpu, runtimes);
        activity.insert(gpu.index, what);
        if (what == GpuActivity::Workload)
            workloads.insert(gpu.index, WorkLedger::workloadsOn(gpu.index, runtimes));
    }
    m_ledger.setActivity(activity, workloads);
}

void LedgerKeeper::recordPreemption(const PreemptionRecord &record)
{
    m_ledger.addPreemption(record);
    if (isWriter())
        m_saveSoonTimer->start();
}

void LedgerKeeper::finish()
{
    m_ledger.stopWatching();
    save();
}

void LedgerKeeper::save()
{
    if (!isWriter())
        return;
    m_ledger.advance();
    m_store->save(m_ledger);
}

void LedgerKeeper::tick()
{
    if (!m_workloadRunning())
        return;
    m_ledger.advance();
    Q_EMIT moved();
}

bool LedgerKeeper::isWriter() const
{
    return m_store && m_store->isWriter();
}
