// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// Who a workload runs as: the [process-*] user= key. A root-run idlegpu starts each workload as the user it
// names (idlegpu-reaper drops to it before the exec). One that names no user runs as root, as gpu_mon (run as
// root under supervisord, so that fuser saw every user) ran it: its files must keep working unchanged. That is
// said as a warning that tells how to drop the privileges, never done silently.
#include <QString>

#include <functional>
#include <optional>

// One entry of the passwd database.
struct UserAccount
{
    QString name; // login name
    uint uid = 0;
    uint gid = 0; // primary group
    QString home;
    QString shell;

    bool operator==(const UserAccount &) const = default;
};

// Who idlegpu runs as and how it finds accounts. Injected so that tests check the rules for root and for a
// plain user whoever runs them.
struct UserLookup
{
    uint effectiveUid = 0;
    std::function<std::optional<UserAccount>(const QString &nameOrUid)> find;

    bool asRoot() const { return effectiveUid == 0; }

    // The real one: geteuid() and the passwd database (getpwnam_r / getpwuid_r).
    static UserLookup system();
    // A login name, or a uid in decimal digits; nullopt when no such account exists.
    static std::optional<UserAccount> findAccount(const QString &nameOrUid);
};

// The verdict on a workload's user= (empty or blank: the key is absent, the user idlegpu runs as).
struct WorkloadUserCheck
{
    std::optional<UserAccount> account; // whom it runs as, when known
    QString error;                      // why it may not run; empty when it may
    QString warning;                    // it runs as root (user = root, or no user as root): allowed, but said
    bool rootByDefault = false;         // as root with no user named: runs as root, as gpu_mon ran it
};
WorkloadUserCheck checkWorkloadUser(const QString &user, const UserLookup &lookup);

// Opens (creating it with mode 0600 when missing) a file for appending with the file-system credentials of
// `account` (uid, gid and its groups), so that a path the user controls cannot make root write or create a
// file the user could not: the file belongs to the user, as if the user had opened it. Only the calling
// thread's credentials change, in a short-lived thread of its own, so idlegpu stays root. Returns the file
// descriptor (O_CLOEXEC), or -1 with *error.
int openAppendAsUser(const QString &path, const UserAccount &account, QString *error);
