// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "config/useraccount.h"

// idlegpu-reaper drops to the user that user= names before the exec. A workload that names no user runs as root, as
// gpu_mon ran it (as root under supervisord, so that fuser saw every user), because gpu_mon's files must keep working
// unchanged. idlegpu says so in a warning that tells how to drop the privileges, never silently.

#include "base/printablename.h"

#include <QHash>
#include <QMutex>

#include <cerrno>
#include <vector>

#include <pwd.h>
#include <unistd.h>

namespace {

bool isDecimal(const QString &text)
{
    if (text.isEmpty() || text.size() > 10)
        return false;
    for (const QChar c : text)
        if (c < QLatin1Char('0') || c > QLatin1Char('9'))
            return false;
    return true;
}

} // namespace

UserLookup UserLookup::system()
{
    UserLookup lookup;
    lookup.effectiveUid = ::geteuid();
    lookup.find = &UserLookup::findAccount;
    return lookup;
}

std::optional<UserAccount> UserLookup::findAccount(const QString &nameOrUid)
{
    const bool byUid = isDecimal(nameOrUid);
    const qulonglong uid = byUid ? nameOrUid.toULongLong() : 0;
    if (nameOrUid.isEmpty() || nameOrUid.contains(QChar()) || (byUid && uid > 0xfffffffeULL))
        return std::nullopt;
    const QByteArray name = nameOrUid.toLocal8Bit();
    const long suggested = ::sysconf(_SC_GETPW_R_SIZE_MAX);
    std::vector<char> buffer(suggested > 0 ? size_t(suggested) : 16384);
    for (;;) {
        passwd entry{};
        passwd *found = nullptr;
        const int rc = byUid ? ::getpwuid_r(uid_t(uid), &entry, buffer.data(), buffer.size(), &found)
                             : ::getpwnam_r(name.constData(), &entry, buffer.data(), buffer.size(), &found);
        if (rc == ERANGE && buffer.size() < (1u << 20)) {
            buffer.resize(buffer.size() * 2);
            continue;
        }
        if (rc != 0 || !found)
            return std::nullopt;
        return UserAccount{QString::fromLocal8Bit(found->pw_name), uint(found->pw_uid), uint(found->pw_gid),
                           QString::fromLocal8Bit(found->pw_dir), QString::fromLocal8Bit(found->pw_shell)};
    }
}

WorkloadUserCheck checkWorkloadUser(const QString &user, const UserLookup &lookup)
{
    WorkloadUserCheck check;
    const QString wanted = user.trimmed();
    if (wanted.isEmpty()) {
        if (lookup.asRoot()) {
            check.rootByDefault = true;
            check.warning = QStringLiteral("runs as root, as gpu_mon ran it: add `user = NAME` to run it as that user");
        }
        return check;
    }
    check.account = lookup.find ? lookup.find(wanted) : std::nullopt;
    if (!check.account) {
        check.error = isDecimal(wanted) ? QStringLiteral("user: no account has uid %1").arg(wanted)
                                        : QStringLiteral("user: there is no user named '%1'").arg(wanted);
        return check;
    }
    if (check.account->uid == lookup.effectiveUid) {
        if (lookup.asRoot())
            check.warning = QStringLiteral("user = %1: this workload runs as root, with every privilege")
                                .arg(wanted);
        return check;
    }
    if (!lookup.asRoot())
        check.error = QStringLiteral("user: cannot run as %1 (uid %2): idlegpu runs as uid %3, and only root can "
                                     "start programs as another user")
                          .arg(check.account->name)
                          .arg(check.account->uid)
                          .arg(lookup.effectiveUid);
    return check;
}

QString userName(uint uid)
{
    static QMutex mutex;
    static QHash<uint, QString> namesByUid;
    QMutexLocker locker(&mutex);
    const auto cached = namesByUid.constFind(uid);
    if (cached != namesByUid.constEnd())
        return *cached;
    const std::optional<UserAccount> account = UserLookup::findAccount(QString::number(uid));
    const QString name = account && !account->name.isEmpty() ? printableName(account->name) : QString::number(uid);
    namesByUid.insert(uid, name);
    return name;
}
