// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The plan of how one workload is started, worked out before anything runs. The monitor's runs (ProcessRunner) and
// the settings dialog's test runs both start what a plan says, so a test run is the run it previews.
#include "config/config.h"
#include "config/useraccount.h"
#include "model/snapshot.h"

#include <QHash>
#include <QProcess>
#include <QList>
#include <QProcessEnvironment>
#include <QString>
#include <QStringList>

#include <optional>

class WorkloadLog;

// What a plan depends on besides the workload: where the reaper is, the GPUs, and who idlegpu runs as.
struct LaunchContext
{
    QString reaperPath;
    QHash<int, QString> gpuUuids; // by index, where a backend named them (CUDA_VISIBLE_DEVICES takes them)
    QList<GpuDevice> gpuDevices;  // the GPUs with their vendors; if empty, every index is NVIDIA's
    UserLookup users;             // who idlegpu runs as and the accounts user= may name
};

// The plan of one workload's start: the reaper's arguments, the workload's environment, or the problem that keeps
// it from starting.
struct LaunchPlan
{
    // The reason a plan is not ready, if any.
    enum Problem {
        Ready,
        NoCommand,     // cmd= split into no words
        Refused,       // the config loader refused the workload (subject: why)
        UserRejected,  // user= names no account, or one idlegpu may not switch to (subject: why)
        NoFolder,      // subject: the working folder
        NotFound,      // subject: argv[0]
        NotExecutable, // a file by that name exists but cannot be run (subject: argv[0])
        NoReaper,      // subject: the reaper's path
    };
    Problem problem = Ready;
    QString subject; // what the problem is about

    QString program;       // the reaper
    QStringList arguments; // the reaper's, then "--", the workload's program and its arguments
    QProcessEnvironment environment; // the workload's environment (the reaper gets reaperEnvironment())
    QString logPath;       // log=, made absolute; empty means none
    QString reaperFolder;  // where the reaper starts: the working folder, or "/" when it enters it as the user
    QString workingFolder; // where the workload runs
    std::optional<UserAccount> switchTo; // the user the workload drops to; none means the one idlegpu runs as

    bool ready() const { return problem == Ready; }
    // Returns why it cannot start, as idlegpu's log says it ("command not found: miner-run"); empty when ready.
    QString error() const;
    // Returns a process set up to start what the plan says, for the caller to connect and start. With `log`, the
    // log writer writes the log file and moves to `logWriterCgroup` when one is given. Returns null and sets *error
    // when the descriptors for that cannot be made.
    QProcess *makeProcess(QObject *parent, WorkloadLog *log = nullptr, QString *error = nullptr,
                          const QString &logWriterCgroup = QString()) const;
    // Returns the reaper's own environment, whatever the workload's: a fixed PATH and the C locale, nothing inherited.
    static QProcessEnvironment reaperEnvironment();

    // Returns the plan for `config` on `gpus`; allGpus means gpus=ALL, without a selection in the environment.
    static LaunchPlan make(const WorkloadConfig &config, const QList<int> &gpus, bool allGpus,
                           const LaunchContext &context);

    // Returns argv[0] as the workload would find it in its working folder or `pathVariable`; empty when it is not
    // found, with *notExecutable set when a file by that name exists but cannot be run.
    static QString resolveProgram(const QString &argv0, const QString &workingDir, const QString &pathVariable,
                                  bool *notExecutable = nullptr);
};
