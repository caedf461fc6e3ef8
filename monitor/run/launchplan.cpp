// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "run/launchplan.h"

#include "config/workloadchecks.h"

// A workload always runs under idlegpu-reaper (reaper/reaper.cpp): it gets a session of its own, and its whole
// tree ends when the reaper is told to or when idlegpu dies. With user= naming another user (idlegpu as root),
// the reaper stays root, the workload drops to that user, and only then enters its working folder (--dir), with
// that user's permissions. The reaper runs with a small fixed environment of its own (reaperEnvironment()); the
// workload's reaches it through a file descriptor and is applied only in the workload's exec, and the workload's
// log file is written by a log writer the reaper forks, as the workload's user (run/workloadlog.h): idlegpu itself
// never opens a file a user controls.

#include "base/errnotext.h"
#include "config/securefile.h"
#include "run/containment.h"
#include "run/gpuenvironment.h"
#include "run/workloadlog.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include <memory>

#include <fcntl.h>
#include <sys/mman.h>
#include <unistd.h>

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

QProcessEnvironment LaunchPlan::reaperEnvironment()
{
    QProcessEnvironment result;
    result.insert(QStringLiteral("PATH"), QStringLiteral("/usr/sbin:/usr/bin:/sbin:/bin"));
    result.insert(QStringLiteral("LANG"), QStringLiteral("C"));
    return result;
}

namespace {

// The workload's environment as the reaper reads it (--env-fd): NAME=VALUE entries, each ended by a NUL byte, in
// a memfd (no size limit, nothing on the command line, gone with its last descriptor). Invalid with *error.
UniqueFd environmentFile(const QProcessEnvironment &environment, QString *error)
{
    QByteArray block;
    for (const QString &entry : environment.toStringList()) {
        QByteArray bytes = entry.toLocal8Bit();
        bytes.truncate(bytes.indexOf('\0') < 0 ? bytes.size() : bytes.indexOf('\0')); // where an exec would end it
        block += bytes + '\0';
    }
    UniqueFd file(::memfd_create("idlegpu-workload-environment", MFD_CLOEXEC));
    qsizetype written = 0;
    while (file.valid() && written < block.size()) {
        const ssize_t size = ::write(file.get(), block.constData() + written, size_t(block.size() - written));
        if (size < 0 && errno == EINTR)
            continue;
        if (size <= 0)
            break;
        written += size;
    }
    if (!file.valid() || written < block.size() || ::lseek(file.get(), 0, SEEK_SET) != 0) {
        *error = QStringLiteral("cannot pass the environment to idlegpu-reaper: %1")
                     .arg(errnoText(errno));
        return UniqueFd();
    }
    return file;
}

// The descriptors the reaper inherits, held until it has started (or failed to), then closed on our side.
class InheritedFds : public QObject
{
public:
    InheritedFds(QProcess *process, std::vector<UniqueFd> fds) : QObject(process), m_fds(std::move(fds))
    {
        QObject::connect(process, &QProcess::stateChanged, this, [this](QProcess::ProcessState state) {
            if (state != QProcess::Starting)
                m_fds.clear();
        });
    }

private:
    std::vector<UniqueFd> m_fds;
};

} // namespace

// The process has its output merged and no standard input (a workload that reads stdin must not hang). The reaper gets
// reaperEnvironment() and the workload's environment through a memfd (--env-fd). With `log` and a logPath, the reaper's
// log writer writes the log file, and `log` talks to it (WorkloadLog::expect()); with `logWriterCgroup`, a cgroup v2
// folder, the writer moves there first, out of the workload's cgroup.
QProcess *LaunchPlan::makeProcess(QObject *parent, WorkloadLog *log, QString *error,
                                  const QString &logWriterCgroup) const
{
    QString why;
    std::vector<UniqueFd> fds;
    fds.push_back(environmentFile(environment, &why));
    QStringList fdArguments{QStringLiteral("--env-fd"), QString::number(fds.back().get())};
    if (fds.back().valid() && log && !logPath.isEmpty()) {
        fds.push_back(log->expect(logPath, &why));
        fdArguments += {QStringLiteral("--log"), logPath, QStringLiteral("--log-socket"),
                        QString::number(fds.back().get())};
        if (fds.back().valid() && !logWriterCgroup.isEmpty()) {
            fds.push_back(UniqueFd(WorkloadCgroup::openProcs(logWriterCgroup, &why)));
            fdArguments += {QStringLiteral("--log-cgroup-fd"), QString::number(fds.back().get())};
        }
    }
    if (!fds.back().valid()) {
        if (error)
            *error = why;
        return nullptr;
    }
    std::vector<int> inherited;
    for (const UniqueFd &fd : fds)
        inherited.push_back(fd.get());

    auto *process = new QProcess(parent);
    process->setProgram(program);
    process->setArguments(fdArguments + arguments);
    process->setProcessEnvironment(reaperEnvironment());
    process->setWorkingDirectory(reaperFolder);
    process->setProcessChannelMode(QProcess::MergedChannels);
    process->setStandardInputFile(QProcess::nullDevice());
    // In the forked child, before the exec: these alone lose close-on-exec (they were made with it, so no other
    // process idlegpu starts meanwhile inherits them).
    process->setChildProcessModifier([inherited] {
        for (int fd : inherited)
            ::fcntl(fd, F_SETFD, 0);
    });
    new InheritedFds(process, std::move(fds));
    return process;
}

// The reaper ends the tree with SIGKILL config.stopTimeoutSeconds after a SIGTERM, and on its own when idlegpu dies; it
// sets config.priority in the workload before the exec.
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

    // Another user's workload starts from a fresh environment (as runuser -l gives), never from root's.
    const QProcessEnvironment own = QProcessEnvironment::systemEnvironment();
    plan.environment = workloadEnvironment(config.env, gpus, allGpus, context.gpuUuids, context.gpuDevices,
                                           plan.switchTo ? loginEnvironment(*plan.switchTo, own) : own);
    // Relative to idlegpu's folder, as always (the workload's process opens it after entering its own).
    if (!config.log.isEmpty())
        plan.logPath = QDir::current().absoluteFilePath(config.log);
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
                                 // the reaper takes [process-*] priority's words
                                 QStringLiteral("--priority"), configWord(config.priority)};
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
    return WorkloadChecks::resolveProgram(argv0, workingDir, pathVariable, notExecutable);
}
