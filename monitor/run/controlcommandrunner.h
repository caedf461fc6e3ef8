// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The runner of workloads that are services which pause themselves (BOINC, Folding@home): idlegpu never runs the
// service, but lends it the GPUs with start_cmd= and takes them back with stop_cmd=. Each command runs as a workload's
// process would, for at most command_timeout_seconds. A workload frees its GPUs only in the state Stopped, once a stop
// command succeeded; controlcommandrunner.cpp draws the states.
#include "run/reaperrunner.h"

#include <QTimer>

struct ControlCommandEntry;

// The runner that lends GPUs to a service with its start_cmd= and takes them back with its stop_cmd=.
class ControlCommandRunner : public ReaperRunnerOf<ControlCommandEntry>
{
    Q_OBJECT
public:
    // `reaperPath` is the idlegpu-reaper executable; empty means defaultReaperPath().
    explicit ControlCommandRunner(const Clock *clock = SystemClock::instance(), const QString &reaperPath = QString(),
                                  QObject *parent = nullptr);
    ~ControlCommandRunner() override; // a command still running gets SIGTERM through its reaper (no waiting)

    bool start(const WorkloadConfig &config, const QList<int> &gpus, bool allGpus) override;
    void stop(const QString &id, const QString &reason) override;
    // Runs the stop command of each control workload not seen before, before its first start: idlegpu cannot know how
    // a service was left.
    void setWorkloads(const QList<WorkloadConfig> &workloads) override;

    // The most of a command's output that is kept for messages (runtime.lastOutput); its last lines are shown.
    static constexpr int kMaxOutputBytes = 16 * 1024;

    // The command of a workload that runs.
    enum class Command { Start, Stop };

private:
    using Entry = ControlCommandEntry;
    Entry &entryFor(const QString &id); // made on first use
    QString whyKept(const Entry &entry) const override;
    bool stopPending(const Entry &entry) const override;
    void stopForAll(const QString &id, const QString &reason) override;
    // Runs the command; returns false when it cannot run, and the command has then failed as one that ran and failed.
    bool runCommand(Entry &entry, Command command);
    // Handles a command that could not run (no plan, or its process refused log=) as one that ran and failed, with
    // nothing to undo.
    void notRun(Entry &entry, const QString &outcome);
    void onCommandEnded(const QString &id, bool succeeded, const QString &outcome);
    void onTimeout(const QString &id);
    // Runs the stop command to stop (or to undo a failed start); the workload is Stopped once it succeeds.
    void takeBack(Entry &entry);
    void stopFailed(Entry &entry, const QString &outcome);
};

// What ControlCommandRunner keeps of a workload besides what every ReaperRunner keeps.
struct ControlCommandEntry : ReaperRunner::Entry
{
    using Command = ControlCommandRunner::Command;
    // Where the workload stands in the diagram at the top of this file.
    enum class Phase {
        Idle,       // not lent: Stopped or BackingOff
        Starting,   // start_cmd runs (the runtime is Running, or Stopping once stop() came)
        Lent,       // start_cmd succeeded
        Stopping,   // stop_cmd runs
        StopFailed, // stop_cmd failed, so the service may still compute; it is tried again at retryAtMs
    };
    Phase phase = Phase::Idle;
    Command command = Command::Start;
    QTimer timeout; // fires after command_timeout_seconds, then after the reaper's own kill delay
    bool timedOut = false;
    bool reaperKillSent = false;
    QTimer retry; // in StopFailed, the timer of the next stop_cmd
    bool stopAsked = false; // stop() came while start_cmd ran, so stop_cmd follows it, whatever its outcome
    QString startFailure; // set when start_cmd failed: stop_cmd runs to undo what it may have done, then it backs off
    QByteArray output;    // the last kMaxOutputBytes of the command that runs

    QString key() const { return command == Command::Start ? QStringLiteral("start_cmd") : QStringLiteral("stop_cmd"); }
};
