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

// Login name of a uid (control characters escaped, as printableName() does), or the uid as text when it has none.
// Cached: every scan names the same few users, and NSS may ask a network directory (LDAP, SSSD).
QString userName(uint uid);
