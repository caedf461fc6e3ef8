// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "slurm/labprocesses.h"

#include "base/logging.h"
#include "holders/procstatfile.h"

#include <QElapsedTimer>
#include <QSocketNotifier>
#include <QTimer>

#include <cerrno>
#include <csignal>
#include <cstring>
#include <sys/syscall.h>
#include <unistd.h>

namespace {

int pidfdOpen(qint64 pid)
{
    return int(::syscall(SYS_pidfd_open, pid_t(pid), 0));
}

bool pidfdSignal(int pidfd, int signal)
{
    return ::syscall(SYS_pidfd_send_signal, pidfd, signal, nullptr, 0) == 0;
}

// The start time of process `pid` as /proc shows it now; 0 when it is gone or unreadable.
quint64 startTimeNow(qint64 pid)
{
    ProcStat stat;
    return readProcStat(LabProcesses::kProcRoot, long(pid), &stat) ? stat.startTime : 0;
}

} // namespace

struct LabProcesses::Process
{
    qint64 pid = 0;
    quint64 startTime = 0;
    QString comm;
    qint64 stepJobId = 0; // Holder::slurmStepJobId
    qint64 jobId = 0;     // Holder::slurmJobId, for the log
    QList<int> gpus;
    int pidfd = -1;
    int signalledFor = -1; // the GPU whose owner's open had it signalled; -1 before
    QElapsedTimer sinceTerm;
    QSocketNotifier *exitNotifier = nullptr;

    QString describe() const
    {
        return QStringLiteral("%1 (pid %2, job %3)").arg(comm).arg(pid).arg(stepJobId > 0 ? stepJobId : jobId);
    }
};

LabProcesses::LabProcesses(QObject *parent) : QObject(parent) {}

LabProcesses::~LabProcesses()
{
    for (const auto &[key, process] : m_processes) {
        delete process->exitNotifier;
        ::close(process->pidfd);
    }
}

void LabProcesses::track(const QList<Holder> &holders)
{
    std::map<std::pair<qint64, quint64>, std::unique_ptr<Process>> kept;
    for (const Holder &holder : holders) {
        if (holder.hidden || holder.pid <= 0 || holder.slurmJobId == 0 || holder.gpus.isEmpty()
            || holder.startTime == 0)
            continue;
        const std::pair<qint64, quint64> key{holder.pid, holder.startTime};
        if (kept.count(key))
            continue;
        if (const auto known = m_processes.find(key); known != m_processes.end()) {
            known->second->gpus = holder.gpus;
            kept[key] = std::move(known->second);
            m_processes.erase(known);
            continue;
        }
        const int pidfd = pidfdOpen(holder.pid);
        if (pidfd < 0)
            continue; // gone since the scan
        // Opened after the scan: the pid names the holder only if the process still has its start time.
        if (startTimeNow(holder.pid) != holder.startTime) {
            ::close(pidfd);
            continue;
        }
        auto process = std::make_unique<Process>();
        process->pid = holder.pid;
        process->startTime = holder.startTime;
        process->comm = holder.comm;
        process->stepJobId = holder.slurmStepJobId;
        process->jobId = holder.slurmJobId;
        process->gpus = holder.gpus;
        process->pidfd = pidfd;
        kept[key] = std::move(process);
    }
    // What the scan no longer shows is forgotten, unless it was signalled and has yet to end.
    for (auto &[key, process] : m_processes) {
        if (process->signalledFor >= 0)
            kept[key] = std::move(process);
        else
            ::close(process->pidfd);
    }
    m_processes = std::move(kept);
}

QList<qint64> LabProcesses::jobsOn(int gpu) const
{
    QList<qint64> jobs;
    for (const auto &[key, process] : m_processes)
        if (process->signalledFor < 0 && process->gpus.contains(gpu) && process->stepJobId > 0
            && !jobs.contains(process->stepJobId))
            jobs.append(process->stepJobId);
    return jobs;
}

QList<qint64> LabProcesses::terminate(int gpu, int stopTimeoutMs)
{
    QList<qint64> jobs;
    QList<std::pair<qint64, quint64>> signalled;
    for (const auto &[key, process] : m_processes) {
        if (process->signalledFor >= 0 || !process->gpus.contains(gpu))
            continue;
        if (!pidfdSignal(process->pidfd, SIGTERM)) {
            if (errno != ESRCH)
                qCWarning(lcSlurm, "GPU %d: cannot signal the lab's %s: %s", gpu, qPrintable(process->describe()),
                          strerror(errno));
            continue;
        }
        process->signalledFor = gpu;
        process->sinceTerm.start();
        signalled.append(key);
        if (process->stepJobId > 0 && !jobs.contains(process->stepJobId))
            jobs.append(process->stepJobId);
        // A pidfd reads ready once its process has ended.
        process->exitNotifier = new QSocketNotifier(process->pidfd, QSocketNotifier::Read, this);
        Process *raw = process.get();
        connect(process->exitNotifier, &QSocketNotifier::activated, this, [this, raw] { ended(raw); });
    }
    if (signalled.isEmpty())
        return jobs;
    QStringList names;
    for (const auto &key : std::as_const(signalled))
        names.append(m_processes.at(key)->describe());
    qCInfo(lcSlurm, "GPU %d: SIGTERM to the lab's %s", gpu, qPrintable(names.join(QLatin1String(", "))));
    // Precise: a coarse timer may ring 5% early, and the stop timeout is the time the job was promised.
    QTimer::singleShot(stopTimeoutMs, Qt::PreciseTimer, this,
                       [this, signalled, stopTimeoutMs] { killSurvivors(signalled, stopTimeoutMs); });
    return jobs;
}

void LabProcesses::ended(Process *process)
{
    // The time the GPU took to be free of it: what the lab suite's bench prints as the job's time to let go.
    qCInfo(lcSlurm, "GPU %d: the lab's %s ended %lld ms after its SIGTERM", process->signalledFor,
           qPrintable(process->describe()), qlonglong(process->sinceTerm.elapsed()));
    process->exitNotifier->setEnabled(false);
    process->exitNotifier->deleteLater();
    ::close(process->pidfd);
    m_processes.erase({process->pid, process->startTime});
}

void LabProcesses::killSurvivors(const QList<std::pair<qint64, quint64>> &signalled, int stopTimeoutMs)
{
    for (const auto &key : signalled) {
        const auto found = m_processes.find(key);
        if (found == m_processes.end())
            continue;
        Process &process = *found->second;
        if (pidfdSignal(process.pidfd, SIGKILL))
            qCWarning(lcSlurm, "GPU %d: the lab's %s was still there %d s after its SIGTERM: SIGKILL",
                      process.signalledFor, qPrintable(process.describe()), stopTimeoutMs / 1000);
    }
}
