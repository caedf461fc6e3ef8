// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "config/workloadchecks.h"

#include <QDir>
#include <QFileInfo>
#include <QStandardPaths>

#include <algorithm>

#include <grp.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

// Whether `account` is in the group `gid`: its primary group or one of the groups the group database lists it in.
bool inGroup(const UserAccount &account, uint gid)
{
    if (account.gid == gid)
        return true;
    const QByteArray name = account.name.toLocal8Bit();
    QList<gid_t> groups(32);
    int count = int(groups.size());
    while (::getgrouplist(name.constData(), gid_t(account.gid), groups.data(), &count) < 0) {
        if (count <= groups.size()) // no growth asked for: the lookup failed
            return false;
        groups.resize(count);
    }
    for (int i = 0; i < count; ++i)
        if (groups.at(i) == gid_t(gid))
            return true;
    return false;
}

// The account a workload runs as when that is not the user idlegpu runs as; nullopt when it is.
std::optional<UserAccount> otherAccount(const WorkloadConfig &workload, const UserLookup &users)
{
    const WorkloadUserCheck check = checkWorkloadUser(workload.user, users);
    if (check.account && check.account->uid != users.effectiveUid)
        return check.account;
    return std::nullopt;
}

// The line of a workload's key in `file`; the section header's where the file lacks it or is not given.
int lineOf(const WorkloadConfig &workload, const QString &key, const IniDocument *file)
{
    const IniDocument::Entry *entry = file ? file->find(workload.id, key) : nullptr;
    return entry ? entry->line : workload.line;
}

} // namespace

QString expandHome(const QString &path, const QString &home)
{
    if (path == QLatin1String("~"))
        return home;
    if (path.startsWith(QLatin1String("~/")))
        return home + path.mid(1);
    return path;
}

void sortProblemsByLine(QList<ConfigDiagnostic> *problems)
{
    std::stable_sort(problems->begin(), problems->end(), [](const ConfigDiagnostic &a, const ConfigDiagnostic &b) {
        if (a.file != b.file)
            return a.file < b.file;
        return unsigned(a.line - 1) < unsigned(b.line - 1); // line 0 wraps to the largest
    });
}

namespace WorkloadChecks {

bool userMayAccess(const QString &path, int mode, const UserAccount *runAs)
{
    const QByteArray file = QFile::encodeName(path);
    if (!runAs)
        return ::access(file.constData(), mode) == 0;
    struct stat st; // filled by stat() below, read only when it succeeds
    if (::stat(file.constData(), &st) != 0)
        return false;
    if (runAs->uid == 0) // root may read and write anything, and run what has any execute bit
        return !(mode & X_OK) || S_ISDIR(st.st_mode) || (st.st_mode & 0111) != 0;
    mode_t bits = st.st_mode & 07;
    if (st.st_uid == runAs->uid)
        bits = (st.st_mode >> 6) & 07;
    else if (inGroup(*runAs, uint(st.st_gid)))
        bits = (st.st_mode >> 3) & 07;
    return (bits & mode_t(mode)) == mode_t(mode);
}

QString resolveProgram(const QString &argv0, const QString &workingDir, const QString &pathVariable,
                       bool *notExecutable, const UserAccount *runAs)
{
    if (notExecutable)
        *notExecutable = false;
    const auto runnable = [runAs](const QFileInfo &info) {
        return info.isFile() && userMayAccess(info.absoluteFilePath(), X_OK, runAs);
    };
    if (argv0.contains(QLatin1Char('/'))) {
        const QFileInfo info(QDir(workingDir).absoluteFilePath(argv0));
        if (runnable(info))
            return info.absoluteFilePath();
        if (notExecutable)
            *notExecutable = info.exists();
        return QString();
    }
    // As execvp(3) searches: the first folder that has a file of that name its user may run.
    for (const QString &folder : pathVariable.split(QLatin1Char(':'), Qt::SkipEmptyParts)) {
        const QFileInfo info(QDir(folder).absoluteFilePath(argv0));
        if (runnable(info))
            return info.absoluteFilePath();
        if (notExecutable && info.isFile())
            *notExecutable = true;
    }
    return QString();
}

QList<WorkloadProblem> userProblems(const WorkloadConfig &workload, const UserLookup &users, const IniDocument *file)
{
    QList<WorkloadProblem> problems;
    if (!workload.enabled)
        return problems;
    const WorkloadUserCheck check = checkWorkloadUser(workload.user, users);
    const QString user = workload.user.trimmed();
    const auto add = [&](ConfigDiagnostic::Severity severity, WorkloadProblem::Kind kind, const QString &message) {
        problems.append({workload.id, QStringLiteral("user"), lineOf(workload, QStringLiteral("user"), file), severity,
                         kind, user, QStringLiteral("[%1] %2").arg(workload.id, message)});
    };
    if (!check.error.isEmpty())
        add(ConfigDiagnostic::Error, check.account ? WorkloadProblem::UserNeedsRoot : WorkloadProblem::NoSuchUser,
            QStringLiteral("will not run: %1").arg(check.error));
    else if (check.rootByDefault)
        add(ConfigDiagnostic::Warning, WorkloadProblem::RootByDefault, check.warning);
    else if (!check.warning.isEmpty())
        add(ConfigDiagnostic::Warning, WorkloadProblem::RunsAsRoot, check.warning);
    return problems;
}

QList<WorkloadProblem> machineProblems(const WorkloadConfig &workload, const UserLookup &users, const IniDocument *file)
{
    QList<WorkloadProblem> problems;
    // A disabled workload never runs: it is looked at once it is enabled, as its user= is.
    if (workload.kind() == WorkloadKind::SlurmLending || !workload.enabled)
        return problems;
    const WorkloadUserCheck userCheck = checkWorkloadUser(workload.user, users);
    if (!userCheck.error.isEmpty())
        return problems; // it will not run at all: userProblems() says why
    const std::optional<UserAccount> other = otherAccount(workload, users);
    const UserAccount *runAs = other ? &*other : nullptr;
    const QString home = userCheck.account && !workload.user.trimmed().isEmpty() ? userCheck.account->home
                                                                                 : QDir::homePath();
    const auto add = [&](const char *key, ConfigDiagnostic::Severity severity, WorkloadProblem::Kind kind,
                         const QString &subject, const QString &message) {
        const QString keyName = QLatin1String(key);
        problems.append({workload.id, keyName, lineOf(workload, keyName, file), severity, kind, subject,
                         QStringLiteral("[%1] %2: %3").arg(workload.id, keyName, message)});
    };
    const QString whose = runAs ? QStringLiteral("user %1").arg(runAs->name) : QStringLiteral("idlegpu's user");

    const QString dir = expandHome(workload.dir.trimmed(), home);
    const QString workingDir = dir.isEmpty() ? home : dir;
    if (!dir.isEmpty() && !QFileInfo(dir).isDir()) {
        add("dir", ConfigDiagnostic::Error, WorkloadProblem::NoFolder, dir,
            QStringLiteral("the folder %1 does not exist").arg(dir));
    } else if (!dir.isEmpty() && !userMayAccess(dir, X_OK, runAs)) {
        add("dir", ConfigDiagnostic::Error, WorkloadProblem::FolderClosed, dir,
            QStringLiteral("%1 may not enter the folder %2").arg(whose, dir));
    }

    // The PATH it starts with (LaunchPlan): env='s, else the login PATH of another user, else idlegpu's own.
    QString path = runAs ? QString::fromLatin1(kLoginPath) : qEnvironmentVariable("PATH");
    for (const auto &[name, value] : workload.env)
        if (name == QLatin1String("PATH"))
            path = value;
    const auto checkProgram = [&](const char *key, const QStringList &argv) {
        if (argv.isEmpty() || argv.first().isEmpty())
            return; // no command: the reader or the dialog says so
        const QString &program = argv.first();
        bool notExecutable = false;
        if (!resolveProgram(program, workingDir, path, &notExecutable, runAs).isEmpty())
            return;
        if (notExecutable)
            add(key, ConfigDiagnostic::Error, WorkloadProblem::NotExecutable, program,
                QStringLiteral("%1 may not run %2: it is not executable for that user").arg(whose, program));
        else if (program.contains(QLatin1Char('/')))
            add(key, ConfigDiagnostic::Warning, WorkloadProblem::ProgramNotFound, program,
                QStringLiteral("the program %1 does not exist (yet): the workload fails to start until it does")
                    .arg(QDir(workingDir).absoluteFilePath(program)));
        else
            add(key, ConfigDiagnostic::Warning, WorkloadProblem::ProgramNotInPath, program,
                QStringLiteral("the program %1 is not found in the workload's PATH (%2): the workload fails to start "
                               "until it is there")
                    .arg(program, path));
    };
    if (workload.kind() == WorkloadKind::ControlCommands) {
        checkProgram("start_cmd", workload.startArgv);
        checkProgram("stop_cmd", workload.stopArgv);
    } else {
        checkProgram("cmd", workload.argv);
    }

    // The log is opened by a process of the workload's user, relative to idlegpu's folder (LaunchPlan).
    const QString log = expandHome(workload.log.trimmed(), home);
    if (!log.isEmpty()) {
        const QFileInfo info(QDir::current().absoluteFilePath(log));
        const QString folder = info.absolutePath();
        if (info.isDir())
            add("log", ConfigDiagnostic::Error, WorkloadProblem::LogIsFolder, log,
                QStringLiteral("%1 is a folder, not a file").arg(log));
        else if (info.exists() && !userMayAccess(info.absoluteFilePath(), W_OK, runAs))
            add("log", ConfigDiagnostic::Error, WorkloadProblem::LogNotWritable, log,
                QStringLiteral("%1 may not write the file %2").arg(whose, log));
        else if (!info.exists() && !QFileInfo(folder).isDir())
            add("log", ConfigDiagnostic::Error, WorkloadProblem::NoLogFolder, folder,
                QStringLiteral("the folder %1 does not exist").arg(folder));
        else if (!info.exists() && !userMayAccess(folder, W_OK | X_OK, runAs))
            add("log", ConfigDiagnostic::Error, WorkloadProblem::LogFolderClosed, folder,
                QStringLiteral("%1 may not create a file in the folder %2").arg(whose, folder));
    }
    return problems;
}

QList<WorkloadProblem> check(const WorkloadConfig &workload, const UserLookup &users, const IniDocument *file)
{
    return userProblems(workload, users, file) + machineProblems(workload, users, file);
}

} // namespace WorkloadChecks
