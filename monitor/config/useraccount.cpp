// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "config/useraccount.h"

#include <QFile>

#include <cerrno>
#include <cstring>
#include <thread>
#include <vector>

#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <sys/syscall.h>
#include <unistd.h>

namespace {

// The 32-bit-id calls where a 32-bit architecture also has 16-bit ones under the plain names.
#ifdef SYS_setgroups32
constexpr long kSetGroups = SYS_setgroups32, kSetFsUid = SYS_setfsuid32, kSetFsGid = SYS_setfsgid32;
#else
constexpr long kSetGroups = SYS_setgroups, kSetFsUid = SYS_setfsuid, kSetFsGid = SYS_setfsgid;
#endif

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

int openAppendAsUser(const QString &path, const UserAccount &account, QString *error)
{
    // The groups are looked up here, in a normal thread; the thread below only makes system calls.
    const QByteArray name = account.name.toLocal8Bit();
    int count = 64;
    std::vector<gid_t> groups(static_cast<size_t>(count));
    if (::getgrouplist(name.constData(), gid_t(account.gid), groups.data(), &count) < 0) {
        groups.resize(size_t(count));
        if (::getgrouplist(name.constData(), gid_t(account.gid), groups.data(), &count) < 0)
            count = 0; // the primary group alone then
    }
    groups.resize(size_t(qMax(count, 0)));
    if (groups.empty())
        groups.push_back(gid_t(account.gid));

    const QByteArray file = QFile::encodeName(path);
    int fd = -1;
    int openErrno = 0;
    QString failure;
    // Raw system calls: glibc's wrappers of setgroups would change every thread of idlegpu, the kernel's calls
    // change only this one, which ends right after the open.
    std::thread opener([&] {
        if (::syscall(kSetGroups, groups.size(), groups.data()) != 0) {
            failure = QStringLiteral("cannot take the groups of %1: %2").arg(account.name, QString::fromLocal8Bit(strerror(errno)));
            return;
        }
        ::syscall(kSetFsGid, gid_t(account.gid));
        ::syscall(kSetFsUid, uid_t(account.uid));
        // Both calls return the previous id whatever happens: asking again (-1 changes nothing) tells the result.
        if (uid_t(::syscall(kSetFsUid, uid_t(-1))) != uid_t(account.uid)
            || gid_t(::syscall(kSetFsGid, gid_t(-1))) != gid_t(account.gid)) {
            failure = QStringLiteral("cannot take the file-system identity of %1").arg(account.name);
            return;
        }
        fd = ::open(file.constData(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC | O_NOCTTY, 0600);
        openErrno = errno;
    });
    opener.join();
    if (!failure.isEmpty()) {
        *error = failure;
        return -1;
    }
    if (fd < 0)
        *error = QStringLiteral("%1 (opened as user %2)").arg(QString::fromLocal8Bit(strerror(openErrno)), account.name);
    return fd;
}
