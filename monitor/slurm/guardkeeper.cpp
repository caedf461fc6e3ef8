// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "slurm/guardkeeper.h"

#include "base/clock.h"

#include <QDateTime>
#include <QTimer>

#include <utility>

namespace SlurmGuard {

GuardKeeper::GuardKeeper(const QString &folder, const QString &procRoot, std::function<QList<GuardGpu>()> verdicts,
                         QObject *parent)
    : QObject(parent), m_procRoot(procRoot), m_verdicts(std::move(verdicts)), m_beatTimer(new QTimer(this))
{
    if (!folder.isEmpty())
        m_file = std::make_unique<GuardFile>(folder);
    m_beatTimer->setInterval(kBeatMs);
    connect(m_beatTimer, &QTimer::timeout, this, &GuardKeeper::write);
}

GuardKeeper::~GuardKeeper() = default;

void GuardKeeper::startBeating()
{
    if (m_file)
        m_beatTimer->start();
}

void GuardKeeper::stop()
{
    m_stopping = true;
    m_beatTimer->stop();
}

void GuardKeeper::writeIfChanged()
{
    if (m_file && m_slurm.enabled && m_verdicts() != m_gpus)
        write();
}

void GuardKeeper::writeHeartbeat(bool stopped)
{
    if (!m_file)
        return;
    const bool enabled = m_slurm.enabled && !stopped && !m_stopping;
    if (!enabled && m_node.isEmpty())
        return;
    Heartbeat heartbeat = selfHeartbeat(m_procRoot);
    heartbeat.node = enabled ? m_slurm.node : m_node;
    heartbeat.partition = m_slurm.partition;
    heartbeat.gpus = m_verdicts();
    if (!enabled)
        for (GuardGpu &gpu : heartbeat.gpus)
            gpu.lent = false;
    heartbeat.monotonicMs = monotonicNowNs() / 1'000'000;
    heartbeat.writtenAt = QDateTime::currentDateTimeUtc().toString(Qt::ISODateWithMs);
    heartbeat.stopped = !enabled;
    // Another node now ([slurm] node= changed): the old one's says stopped.
    if (enabled && !m_node.isEmpty() && m_node != heartbeat.node) {
        Heartbeat old = heartbeat;
        old.node = m_node;
        old.stopped = true;
        m_file->write(old);
    }
    m_file->write(heartbeat);
    m_node = enabled ? heartbeat.node : QString();
    m_gpus = heartbeat.gpus;
}

} // namespace SlurmGuard
