// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// What this machine says of a workload, as its start will find it: its user (the reader checks that as it reads),
// its working folder, its programs, its log. The settings dialog and `idlegpu --check-config` both ask here, so they
// give one verdict on the same workload. A program not found is a warning (it may be installed, or on the workload's
// PATH, by the time the workload starts); what would fail the start for sure is an error.
#include "config/config.h"
#include "config/inifile.h"
#include "config/useraccount.h"

#include <QList>
#include <QObject>
#include <QString>

struct WorkloadProblem
{
    Q_GADGET
public:
    enum Kind {
        NoSuchUser,       // user= names no account (subject: the user)
        UserNeedsRoot,    // user= names another user and idlegpu is not root (subject: the user)
        RootByDefault,    // no user=, and idlegpu runs as root: it runs as root, as gpu_mon ran it
        RunsAsRoot,       // user = root
        NoFolder,         // dir= is not a folder (subject: the folder)
        FolderClosed,     // the workload's user may not enter its folder (subject: the folder)
        ProgramNotFound,  // a program given by its path does not exist (subject: the path as written)
        ProgramNotInPath, // a program given by its name is in no folder of the workload's PATH (subject: the name)
        NotExecutable,    // the program exists and its user may not run it (subject: the program as written)
        LogIsFolder,      // log= names a folder (subject: log= as written)
        LogNotWritable,   // the log file exists and its user may not write it (subject: log= as written)
        NoLogFolder,      // the log's folder does not exist (subject: the folder)
        LogFolderClosed,  // the log does not exist and its user may not create it there (subject: the folder)
    };
    Q_ENUM(Kind)
    QString section; // the workload's section ("process-miner"); empty for one not saved yet
    QString key;     // "user", "dir", "cmd", "start_cmd", "stop_cmd" or "log"
    int line = 0;    // the key's line in the file given, else the section header's
    ConfigDiagnostic::Severity severity = ConfigDiagnostic::Error;
    Kind kind = NoFolder;
    QString subject;
    QString message; // plain English, for the command line and the log: "[process-miner] cmd: ..."

    ConfigDiagnostic diagnostic(const QString &file) const { return {severity, file, line, message}; }
};

// The PATH of a workload run as another user: systemd's default for services (sudo's secure_path), never idlegpu's.
inline constexpr char kLoginPath[] = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

// Returns a dir= or log= path as a shell reads it: a leading ~/ (or a lone ~) is `home`, the home folder of the user
// the workload runs as.
QString expandHome(const QString &path, const QString &home);

// Sorts problems as a user fixes them: by file, then by line; those about a whole file (line 0) after its lines.
void sortProblemsByLine(QList<ConfigDiagnostic> *problems);

namespace WorkloadChecks {
// Returns the problems of user=, as the reader finds them (checkWorkloadUser()); none for a disabled workload, which
// never runs.
QList<WorkloadProblem> userProblems(const WorkloadConfig &workload, const UserLookup &users,
                                    const IniDocument *file = nullptr);
// Returns the problems of its folder, programs (cmd=, or start_cmd= and stop_cmd=) and log, each looked for as its
// start looks: ~ is the home of the workload's user, a program is searched in the PATH it starts with (env='s PATH,
// else the login PATH for another user, else idlegpu's own), and the permissions are those of the user it runs as.
// A disabled workload, which never runs, and one refused for its user are not looked at.
// `file`, where given, is the document the workload was read from: a problem is on its key's line.
QList<WorkloadProblem> machineProblems(const WorkloadConfig &workload, const UserLookup &users,
                                       const IniDocument *file = nullptr);
// Both.
QList<WorkloadProblem> check(const WorkloadConfig &workload, const UserLookup &users,
                             const IniDocument *file = nullptr);

// Returns the program a workload starts for `argv0`: a name with a '/' as a path from `workingDir`, else the first
// executable of that name in the folders of `pathVariable`; empty when there is none, with *notExecutable set when a
// file of that name exists but `runAs` (nullptr: the user idlegpu runs as) may not run it.
QString resolveProgram(const QString &argv0, const QString &workingDir, const QString &pathVariable,
                       bool *notExecutable = nullptr, const UserAccount *runAs = nullptr);
// Returns whether `runAs` (nullptr: the user idlegpu runs as) may access `path` with the access(2) mode `mode`
// (R_OK, W_OK, X_OK), by the file's owner, group and mode bits (ACLs aside).
bool userMayAccess(const QString &path, int mode, const UserAccount *runAs = nullptr);
} // namespace WorkloadChecks
