// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The accounts that workloads run as, from the [process-*] user= key. An idlegpu run as root starts each workload as
// the user that the key names; a workload that names no user runs as root, with a warning (docs/configuration.md,
// user).
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

// The user idlegpu runs as and the way it finds accounts. It is injected so that tests check the rules for root
// and for a plain user, whoever runs them.
struct UserLookup
{
    uint effectiveUid = 0;
    std::function<std::optional<UserAccount>(const QString &nameOrUid)> find;

    bool asRoot() const { return effectiveUid == 0; }

    // Returns the real lookup: geteuid() and the passwd database (getpwnam_r / getpwuid_r).
    static UserLookup system();
    // Finds the account of a login name or of a uid in decimal digits; nullopt when no such account exists.
    static std::optional<UserAccount> findAccount(const QString &nameOrUid);
};

// The verdict on a workload's user= value. An empty or blank value means that the key is absent and the workload
// runs as the user idlegpu runs as.
struct WorkloadUserCheck
{
    std::optional<UserAccount> account; // the account it runs as, when known
    QString error;                      // why it may not run; empty when it may
    QString warning;                    // set when it runs as root (user = root, or no user as root): allowed
    bool rootByDefault = false;         // it runs as root because no user is named, as gpu_mon ran it
};
WorkloadUserCheck checkWorkloadUser(const QString &user, const UserLookup &lookup);

// Returns the login name of a uid (with control characters escaped, as printableName() does), or the uid as text
// when it has no name. The answer is cached because every scan names the same few users and NSS may ask a network
// directory (LDAP, SSSD).
QString userName(uint uid);
