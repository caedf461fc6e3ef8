// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "run/containment.h"

// How the containment keeps hold of every process of a workload when its idlegpu-reaper is gone (killed, crashed):
//  - idlegpu is a child subreaper: what a dead reaper leaves is re-parented to idlegpu, not to init, and stays
//    findable (its session, its descendants, idlegpu's own children) for the sweep (run/workloadsweep.h);
//  - where systemd is the service manager, cgroup v2 is mounted alone, and idlegpu's cgroup was delegated to it
//    (a service with Delegate=yes), each workload runs in a cgroup of its own, <idlegpu's cgroup>/workload-<id>,
//    which nothing inside can leave, and cgroup.kill ends it whole. idlegpu moves itself to the leaf
//    <idlegpu's cgroup>/idlegpu first: cgroup v2 lets no process stay in a cgroup whose children have controllers.
// Without such a cgroup (no systemd, cgroup v1 or hybrid, a desktop session's scope) the sweep by session and
// descent is the containment.

#include "base/errnotext.h"
#include "holders/procstatfile.h"
#include "base/logging.h"

#include <QByteArray>
#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QSet>
#include <QTimer>

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <unistd.h>

namespace {

QString g_workloadCgroupParent;

// "workload-", this much of the encoded id, '+' and 32 hex digits of its SHA-256: at most 255 bytes.
constexpr qsizetype kMaxReadableBytes = 200;

QByteArray readKernelFile(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QByteArray();
    return file.readAll(); // kernel files: their size is bounded (cgroup.procs: a line per process)
}

// Writes `text` to a cgroup control file in one write(2), as the kernel wants it; false with errno set.
bool writeControl(const QString &path, const QByteArray &text)
{
    const int fd = ::open(QFile::encodeName(path).constData(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        return false;
    const bool written = ::write(fd, text.constData(), size_t(text.size())) == text.size();
    const int writeErrno = errno;
    ::close(fd);
    errno = writeErrno;
    return written;
}

// systemd marks a cgroup it delegated with the xattr trusted.delegate (user.delegate in a user manager) = "1".
bool markedDelegated(const QString &folder)
{
    const QByteArray path = QFile::encodeName(folder);
    for (const char *name : {"trusted.delegate", "user.delegate"}) {
        char value[8] = {};
        const ssize_t size = ::getxattr(path.constData(), name, value, sizeof value - 1);
        if (size == 1 && value[0] == '1')
            return true;
    }
    return false;
}

} // namespace

bool Containment::becomeSubreaper()
{
    if (::prctl(PR_SET_CHILD_SUBREAPER, 1) == 0)
        return true;
    qCWarning(lcRunner, "cannot become a child subreaper (%s): what a killed idlegpu-reaper leaves goes to init",
              strerror(errno));
    return false;
}

// A QProcess reaps its own children through their pidfds, so only zombies that no QProcess can own are taken: those
// outside this process's session (Slurm's commands stay in it) that are neither an idlegpu-reaper (ProcessRunner's,
// ControlCommandRunner's children) nor named as one of this process's threads (QProcess::startDetached's intermediate
// child, which Qt waits for itself). The orphans are a program started detached, or a control command's escapee.
int Containment::reapAdoptedOrphans()
{
    // /proc/self/task/<tid>/children: an orphan is re-parented to any live thread of the subreaper.
    QSet<pid_t> children;
    QSet<QByteArray> threadNames;
    const QStringList tasks = QDir(QStringLiteral("/proc/self/task")).entryList(QDir::Dirs | QDir::NoDotAndDotDot);
    for (const QString &task : tasks) {
        const QString folder = QStringLiteral("/proc/self/task/") + task;
        threadNames.insert(readKernelFile(folder + QStringLiteral("/comm")).trimmed());
        for (const QByteArray &pid : readKernelFile(folder + QStringLiteral("/children")).split(' '))
            if (pid.toLongLong() > 0)
                children.insert(pid_t(pid.toLongLong()));
    }
    const pid_t ownSession = ::getsid(0);
    int reaped = 0;
    for (pid_t pid : std::as_const(children)) {
        ProcStat stat;
        char comm[256];
        if (!readProcStat("/proc", pid, &stat, comm, sizeof comm))
            continue;
        const QByteArray name(comm);
        if (stat.state != 'Z' || stat.sid == ownSession || name == "idlegpu-reaper" || threadNames.contains(name))
            continue;
        siginfo_t info{};
        if (::waitid(P_PID, id_t(pid), &info, WEXITED | WNOHANG) == 0 && info.si_pid == pid)
            ++reaped;
    }
    return reaped;
}

void Containment::reapAdoptedOrphansPeriodically(QObject *owner)
{
    auto *timer = new QTimer(owner);
    QObject::connect(timer, &QTimer::timeout, timer, [] { reapAdoptedOrphans(); });
    timer->start(kOrphanReapIntervalMs);
}

QString Containment::findDelegatedCgroup(const CgroupSystem &system, QString *why)
{
    const auto fail = [why](const QString &reason) {
        *why = reason;
        return QString();
    };
    if (!QFileInfo(system.systemdRunFolder).isDir())
        return fail(QStringLiteral("systemd is not the service manager"));
    if (!QFileInfo::exists(system.mountPoint + QStringLiteral("/cgroup.controllers")))
        return fail(QStringLiteral("%1 is not a cgroup v2 hierarchy of its own").arg(system.mountPoint));
    // cgroup v2 alone: one line, "0::/system.slice/idlegpu.service".
    QString own;
    for (const QByteArray &line : readKernelFile(system.procSelfCgroup).split('\n'))
        if (line.startsWith("0::/"))
            own = QString::fromUtf8(line.mid(3));
    if (own.isEmpty() || own == QStringLiteral("/") || own.contains(QStringLiteral("/..")))
        return fail(QStringLiteral("idlegpu's own cgroup is unknown (%1)").arg(system.procSelfCgroup));
    const QString folder = QDir::cleanPath(system.mountPoint + own);
    if (!markedDelegated(folder))
        return fail(QStringLiteral("its cgroup %1 is not delegated to it (the unit needs Delegate=yes)").arg(own));
    const QByteArray path = QFile::encodeName(folder);
    if (::access(path.constData(), W_OK) != 0
        || ::access(QFile::encodeName(folder + QStringLiteral("/cgroup.procs")).constData(), W_OK) != 0)
        return fail(QStringLiteral("its delegated cgroup %1 is not writable (%2)")
                        .arg(folder, errnoText(errno)));
    return folder;
}

bool Containment::moveSelfToLeaf(const QString &delegated, QString *error)
{
    const QString leaf = delegated + QStringLiteral("/idlegpu");
    if (::mkdir(QFile::encodeName(leaf).constData(), 0755) != 0 && errno != EEXIST) {
        *error = QStringLiteral("cannot make %1: %2").arg(leaf, errnoText(errno));
        return false;
    }
    if (!writeControl(leaf + QStringLiteral("/cgroup.procs"), QByteArray::number(qint64(::getpid())))) {
        *error = QStringLiteral("cannot move idlegpu into %1: %2").arg(leaf, errnoText(errno));
        return false;
    }
    return true;
}

QString Containment::establish()
{
    QString why;
    const QString delegated = findDelegatedCgroup(CgroupSystem(), &why);
    QString error;
    if (!delegated.isEmpty() && moveSelfToLeaf(delegated, &error)) {
        g_workloadCgroupParent = delegated;
        qCInfo(lcRunner).noquote() << QStringLiteral("containment: each workload in a cgroup of its own under %1 "
                                                     "(ended with cgroup.kill), and its session swept")
                                          .arg(delegated);
    } else {
        g_workloadCgroupParent.clear();
        qCInfo(lcRunner).noquote() << QStringLiteral("containment: each workload's session and descendants, swept "
                                                     "by idlegpu as their subreaper; no cgroup per workload (%1)")
                                          .arg(error.isEmpty() ? why : error);
    }
    return g_workloadCgroupParent;
}

QString Containment::workloadCgroupParent()
{
    return g_workloadCgroupParent;
}

QString WorkloadCgroup::pathFor(const QString &parent, const QString &workloadId)
{
    QByteArray name = workloadId.toUtf8().toPercentEncoding("-_");
    // A folder name has at most 255 bytes. A longer id keeps a readable start and gets its whole self's hash after a
    // '+', which percent-encoding never leaves in a name: two ids never share a cgroup, nor does a short id look like
    // a long one's.
    if (name.size() > kMaxReadableBytes) {
        qsizetype cut = kMaxReadableBytes;
        if (name.at(cut - 1) == '%')
            cut -= 1;
        else if (name.at(cut - 2) == '%')
            cut -= 2;
        name = name.left(cut) + '+'
               + QCryptographicHash::hash(workloadId.toUtf8(), QCryptographicHash::Sha256).toHex().left(32);
    }
    return parent + QStringLiteral("/workload-") + QString::fromLatin1(name);
}

bool WorkloadCgroup::create(const QString &cgroup, QString *error)
{
    if (::mkdir(QFile::encodeName(cgroup).constData(), 0755) == 0)
        return true;
    if (errno != EEXIST) {
        *error = QStringLiteral("cannot make the cgroup %1: %2").arg(cgroup, errnoText(errno));
        return false;
    }
    // Left by an idlegpu that ended without stopping this workload: what still runs in it is not supervised.
    if (!members(cgroup).isEmpty()) {
        qCWarning(lcRunner).noquote() << QStringLiteral("the cgroup %1 still holds processes of an earlier run: "
                                                        "killing them")
                                             .arg(cgroup);
        kill(cgroup);
    }
    return true;
}

// The log writers' cgroup lies beside the workloads' own, so that a writer stuck on its user's file keeps no workload's
// cgroup from being ended and removed, and within idlegpu's, as a process idlegpu started.
QString WorkloadCgroup::logWritersPath(const QString &parent)
{
    return parent + QStringLiteral("/log-writers");
}

bool WorkloadCgroup::createLogWriters(const QString &cgroup, QString *error)
{
    if (::mkdir(QFile::encodeName(cgroup).constData(), 0755) == 0 || errno == EEXIST)
        return true;
    *error = QStringLiteral("cannot make the cgroup %1: %2").arg(cgroup, errnoText(errno));
    return false;
}

int WorkloadCgroup::openProcs(const QString &cgroup, QString *error)
{
    const QString procs = cgroup + QStringLiteral("/cgroup.procs");
    const int fd = ::open(QFile::encodeName(procs).constData(), O_WRONLY | O_CLOEXEC | O_NOFOLLOW);
    if (fd < 0)
        *error = QStringLiteral("cannot open %1: %2").arg(procs, errnoText(errno));
    return fd;
}

QList<pid_t> WorkloadCgroup::members(const QString &cgroup)
{
    QList<pid_t> pids;
    for (const QByteArray &line : readKernelFile(cgroup + QStringLiteral("/cgroup.procs")).split('\n')) {
        bool ok = false;
        const qint64 pid = line.toLongLong(&ok);
        if (ok && pid > 0)
            pids.append(pid_t(pid));
    }
    return pids;
}

void WorkloadCgroup::kill(const QString &cgroup)
{
    if (writeControl(cgroup + QStringLiteral("/cgroup.kill"), "1"))
        return;
    for (pid_t pid : members(cgroup)) // before 5.14: the cgroup may grow meanwhile; the caller repeats
        ::kill(pid, SIGKILL);
}

bool WorkloadCgroup::remove(const QString &cgroup)
{
    return ::rmdir(QFile::encodeName(cgroup).constData()) == 0 || errno == ENOENT;
}
