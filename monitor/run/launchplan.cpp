// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "run/launchplan.h"

#include "run/gpuenvironment.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

QString LaunchPlan::error() const
{
    switch (problem) {
    case Ready: return QString();
    case NoCommand: return QStringLiteral("no command given (cmd= is empty)");
    case Refused: return QStringLiteral("refused: %1").arg(subject);
    case UserRejected: return subject;
    case NoFolder: return QStringLiteral("working folder does not exist: %1").arg(subject);
    case NotFound:
    case NotExecutable: return QStringLiteral("command not found: %1").arg(subject);
    case NoReaper: return QStringLiteral("idlegpu-reaper not found at %1").arg(subject);
    }
    return QString();
}

// The reaper's --priority value for [process-*] priority.
static QString priorityArgument(WorkloadPriority priority)
{
    switch (priority) {
    case WorkloadPriority::Idle: return QStringLiteral("idle");
    case WorkloadPriority::Low: return QStringLiteral("low");
    case WorkloadPriority::Normal: return QStringLiteral("normal");
    }
    return QStringLiteral("idle");
}

QProcess *LaunchPlan::makeProcess(QObject *parent) const
{
    auto *process = new QProcess(parent);
    process->setProgram(program);
    process->setArguments(arguments);
    process->setProcessEnvironment(environment);
    process->setWorkingDirectory(reaperFolder);
    process->setProcessChannelMode(QProcess::MergedChannels);
    process->setStandardInputFile(QProcess::nullDevice());
    return process;
}

LaunchPlan LaunchPlan::make(const WorkloadConfig &config, const QList<int> &gpus, bool allGpus,
                            const LaunchContext &context)
{
    LaunchPlan plan;
    const auto fail = [&plan](Problem problem, const QString &subject) {
        plan.problem = problem;
        plan.subject = subject;
        return plan;
    };
    if (config.argv.isEmpty())
        return fail(NoCommand, QString());
    if (!config.refusal.isEmpty())
        return fail(Refused, config.refusal);
    // Checked at each start: the account may have gone, or changed, since the config was read.
    const WorkloadUserCheck userCheck = checkWorkloadUser(config.user, context.users);
    if (!userCheck.error.isEmpty())
        return fail(UserRejected, userCheck.error);
    const std::optional<UserAccount> &account = userCheck.account;
    if (account && account->uid != context.users.effectiveUid)
        plan.switchTo = account;
    plan.workingFolder = !config.dir.isEmpty() ? config.dir : account ? account->home : QDir::homePath();
    if (!QFileInfo(plan.workingFolder).isDir())
        return fail(NoFolder, plan.workingFolder);

    plan.environment = workloadEnvironment(config.env, gpus, allGpus, context.gpuUuids, context.gpuDevices);
    if (plan.switchTo)
        plan.environment = userEnvironment(plan.environment, *plan.switchTo, config.env);
    bool notExecutable = false;
    const QString executable = resolveProgram(config.argv.first(), plan.workingFolder,
                                              plan.environment.value(QStringLiteral("PATH")), &notExecutable);
    if (executable.isEmpty())
        return fail(notExecutable ? NotExecutable : NotFound, config.argv.first());
    if (!QFileInfo(context.reaperPath).isExecutable())
        return fail(NoReaper, context.reaperPath);

    plan.program = context.reaperPath;
    plan.arguments = QStringList{QStringLiteral("--parent"), QString::number(QCoreApplication::applicationPid()),
                                 QStringLiteral("--grace-ms"),
                                 QString::number(qMax(0, config.stopTimeoutSeconds) * 1000LL),
                                 QStringLiteral("--priority"), priorityArgument(config.priority)};
    // Another user's workload enters its folder after the switch, with that user's permissions: a folder the
    // user may not enter fails the start with a message instead of leaving the program in it.
    if (plan.switchTo)
        plan.arguments += {QStringLiteral("--user"), plan.switchTo->name, QStringLiteral("--dir"), plan.workingFolder};
    plan.arguments += {QStringLiteral("--"), executable};
    plan.arguments += config.argv.mid(1);
    plan.reaperFolder = plan.switchTo ? QStringLiteral("/") : plan.workingFolder;
    return plan;
}

QString LaunchPlan::resolveProgram(const QString &argv0, const QString &workingDir, const QString &pathVariable,
                                   bool *notExecutable)
{
    if (notExecutable)
        *notExecutable = false;
    if (argv0.contains(QLatin1Char('/'))) {
        const QFileInfo info(QDir(workingDir).absoluteFilePath(argv0));
        if (info.isFile() && info.isExecutable())
            return info.absoluteFilePath();
        if (notExecutable)
            *notExecutable = info.exists();
        return QString();
    }
    const QStringList searchPath = pathVariable.split(QLatin1Char(':'), Qt::SkipEmptyParts);
    const QString found = QStandardPaths::findExecutable(argv0, searchPath);
    if (found.isEmpty() && notExecutable)
        for (const QString &folder : searchPath)
            if (QFileInfo(QDir(folder).filePath(argv0)).isFile())
                *notExecutable = true;
    return found;
}
