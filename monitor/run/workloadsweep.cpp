// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "run/workloadsweep.h"

// The reaper ends the workload's tree itself whenever it can, so a sweep finds nothing after a normal exit, but a
// reaper killed by SIGKILL leaves the whole tree running. idlegpu, a child subreaper (run/containment.h), then holds
// it:
//  - every process in the workload's session or process group (both are the dead reaper's pid);
//  - every descendant of those (a child that called setsid stays a child);
//  - idlegpu's own children outside its session that are no idlegpu-reaper and started after this one, when the
//    workload has no cgroup and the reaper left its session's processes behind: the reaper's adopted orphans
//    (double forks that left the session), re-parented to idlegpu at its death;
//  - every process in the workload's cgroup, where it has one: that alone catches whatever escaped both.
// Each gets SIGTERM (and SIGCONT) once, SIGKILL after the grace; the sweep rescans on a timer (never blocking the
// event loop) until none is alive, reaping those that became idlegpu's zombies by their pid alone (waitid(P_PID),
// never waitpid(-1): QProcess reaps its own children through their pidfds).

#include "holders/procstatfile.h"
#include "run/containment.h"

#include "base/logging.h"

#include <QByteArray>
#include <QFileInfo>
#include <QList>

#include <dirent.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/wait.h>
#include <unistd.h>

#include <algorithm>
#include <vector>

namespace {

struct ProcessEntry
{
    pid_t pid = 0;
    ProcStat stat;
    QByteArray comm;
    bool dead() const { return stat.state == 'Z' || stat.state == 'X'; }
};

bool readProcess(pid_t pid, ProcessEntry &entry)
{
    char comm[256];
    if (!readProcStat("/proc", pid, &entry.stat, comm, sizeof comm))
        return false; // gone meanwhile
    entry.pid = pid;
    entry.comm = QByteArray(comm);
    return true;
}

std::vector<ProcessEntry> readProcesses()
{
    std::vector<ProcessEntry> all;
    DIR *proc = ::opendir("/proc");
    if (!proc)
        return all;
    while (const dirent *entry = ::readdir(proc)) {
        char *end = nullptr;
        const long pid = strtol(entry->d_name, &end, 10);
        ProcessEntry process;
        if (*end == '\0' && pid > 0 && readProcess(pid_t(pid), process))
            all.push_back(process);
    }
    ::closedir(proc);
    return all;
}

// A supervisor idlegpu started (another workload's reaper, a control command's, a test run's): its program is the
// reaper, or, where /proc/<pid>/exe cannot be read (a zombie that QProcess has yet to reap), its name is.
bool isSupervisor(const ProcessEntry &process, const QString &reaperName)
{
    char path[64];
    snprintf(path, sizeof path, "/proc/%d/exe", int(process.pid));
    char target[4096];
    const ssize_t length = ::readlink(path, target, sizeof target - 1);
    if (length <= 0)
        return process.comm == reaperName.toLocal8Bit().left(15); // TASK_COMM_LEN
    QString name = QFileInfo(QString::fromLocal8Bit(target, int(length))).fileName();
    if (name.endsWith(QStringLiteral(" (deleted)"))) // replaced by an upgrade while it runs
        name.chop(10);
    return name == reaperName;
}

} // namespace

unsigned long long WorkloadSweep::startTimeOf(pid_t pid)
{
    ProcessEntry process;
    return pid > 0 && readProcess(pid, process) ? process.stat.startTime : 0;
}

WorkloadSweep::WorkloadSweep(const Target &target, QObject *parent) : QObject(parent), m_target(target)
{
    m_timer.setInterval(kScanIntervalMs);
    connect(&m_timer, &QTimer::timeout, this, [this] {
        if (!m_killing && m_clock.elapsed() >= m_target.graceMs) {
            m_killing = true;
            qCWarning(lcRunner).noquote()
                << QStringLiteral("%1 %2 of %3 did not end within %4 s: killing them")
                       .arg(m_remaining)
                       .arg(m_remaining == 1 ? QStringLiteral("process") : QStringLiteral("processes"))
                       .arg(m_target.name)
                       .arg(m_target.graceMs / 1000.0);
        }
        if (scan()) {
            m_timer.stop();
            emit finished();
        }
    });
}

bool WorkloadSweep::start()
{
    m_clock.start();
    m_killing = m_target.graceMs <= 0;
    if (scan())
        return true;
    m_timer.start();
    return false;
}

void WorkloadSweep::killNow()
{
    m_killing = true;
    scan();
    m_timer.stop();
}

bool WorkloadSweep::scan()
{
    const pid_t self = ::getpid();
    const pid_t ownSession = ::getsid(0);
    const pid_t reaper = m_target.reaperPid;
    const std::vector<ProcessEntry> processes = readProcesses();
    // The reaper was reaped before the sweep began: a process with its pid now is a later one, and so is the
    // session it leads. Its number then no longer names the workload's session.
    const bool sessionReused = std::any_of(processes.cbegin(), processes.cend(),
                                           [reaper](const ProcessEntry &p) { return p.pid == reaper; });
    QList<pid_t> inCgroup;
    if (!m_target.cgroup.isEmpty())
        inCgroup = WorkloadCgroup::members(m_target.cgroup);

    std::set<pid_t> members;
    for (const ProcessEntry &p : processes) {
        const bool known = m_members.count({p.pid, p.stat.startTime}) > 0;
        const bool inSession = reaper > 0 && !sessionReused && (p.stat.sid == reaper || p.stat.pgid == reaper);
        if (known || inSession || inCgroup.contains(p.pid))
            members.insert(p.pid);
    }
    // The reaper's adopted orphans: only without a cgroup (which holds them itself), and only once the reaper is
    // seen to have left its tree (a reaper that exits by itself has ended all of it). idlegpu's other children
    // outside its session are supervisors or, rarely, a program it started detached (the tray's log viewer),
    // which this takes for the workload's when it started after the reaper.
    m_reaperLeftTree = m_reaperLeftTree || !members.empty();
    if (m_target.cgroup.isEmpty() && m_reaperLeftTree) {
        for (const ProcessEntry &p : processes)
            if (p.stat.ppid == self && p.stat.sid != ownSession && p.stat.startTime >= m_target.reaperStartTime
                && !members.count(p.pid) && !isSupervisor(p, m_target.reaperName))
                members.insert(p.pid);
    }
    for (bool grew = true; grew;) { // parents may come after their children in /proc: repeat until stable
        grew = false;
        for (const ProcessEntry &p : processes)
            if (!members.count(p.pid) && p.pid != self && members.count(pid_t(p.stat.ppid))) {
                members.insert(p.pid);
                grew = true;
            }
    }

    int alive = 0;
    for (const ProcessEntry &p : processes) {
        if (!members.count(p.pid))
            continue;
        m_members.insert({p.pid, p.stat.startTime});
        if (p.dead()) {
            // Ours to reap: an orphan of the workload re-parented to idlegpu (never a QProcess child: those are
            // supervisors, which are no members). Others are reaped by their parents.
            if (p.stat.ppid == self) {
                siginfo_t info{};
                ::waitid(P_PID, id_t(p.pid), &info, WEXITED | WNOHANG);
            }
            continue;
        }
        ++alive;
        if (m_killing) {
            ::kill(p.pid, SIGKILL);
        } else if (m_terminated.insert({p.pid, p.stat.startTime}).second) {
            ::kill(p.pid, SIGTERM); // once: a second SIGTERM means "hurry" to some programs
            ::kill(p.pid, SIGCONT); // a stopped process would never see it
        }
    }
    if (m_killing && !inCgroup.isEmpty())
        WorkloadCgroup::kill(m_target.cgroup); // also what forked since the scan
    m_remaining = alive;
    return alive == 0;
}
