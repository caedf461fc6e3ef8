// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "testsupport.h"

#include "config/config.h"
#include "devices/fakegpufolder.h"
#include "monitor.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QSignalSpy>
#include <QThread>

#include <pwd.h>
#include <signal.h>
#include <unistd.h>
#include <sys/mount.h>
#include <sys/prctl.h>
#include <sys/stat.h>

namespace TestSupport {

FakeDevRoot::FakeDevRoot(int gpus)
{
    if (!m_dir.isValid() || !FakeGpuFolder::make(m_dir.path(), gpus))
        qFatal("cannot create %d fake GPUs in a temporary folder", gpus);
}

QString FakeDevRoot::node(int gpu) const
{
    return FakeGpuFolder::gpuNode(m_dir.path(), gpu);
}

QString FakeDevRoot::ctl() const
{
    return FakeGpuFolder::ctlNode(m_dir.path());
}

QString FakeDevRoot::uvm() const
{
    return FakeGpuFolder::uvmNode(m_dir.path());
}

QStringList FakeDevRoot::computeJob(int gpu) const
{
    return {ctl(), uvm(), node(gpu)};
}

QStringList FakeDevRoot::graphicsClient(int gpu) const
{
    return {node(gpu), ctl()};
}

void FakeDevRoot::addGpu(int gpu)
{
    if (!FakeGpuFolder::addGpu(m_dir.path(), gpu))
        qFatal("cannot create fake node %s", qPrintable(node(gpu)));
}

void FakeDevRoot::removeGpu(int gpu)
{
    QFile::remove(node(gpu));
}

QString FakeDevRoot::addNode(const QString &name)
{
    if (!FakeGpuFolder::addNode(m_dir.path(), name))
        qFatal("cannot create fake node %s", qPrintable(filePath(name)));
    return filePath(name);
}

NodeHolder::NodeHolder(const QStringList &paths, const QString &programName, const QStringList &later)
    : m_paths(paths), m_later(later)
{
    const QString program = m_binDir.filePath(programName);
    if (!QFile::link(QStringLiteral(IDLEGPU_TEST_HOLDOPEN), program))
        qFatal("cannot link %s", qPrintable(program));
    m_process = std::make_unique<QProcess>();
    m_process->setProgram(program);
    m_process->setArguments(later.isEmpty() ? paths : paths + QStringList{QStringLiteral("--then-on-input")} + later);
    m_process->setProcessChannelMode(QProcess::ForwardedChannels);
    m_process->start();
    if (!m_process->waitForStarted(5000))
        qFatal("cannot start a node holder");
}

NodeHolder::~NodeHolder()
{
    kill();
}

qint64 NodeHolder::pid() const
{
    return m_process ? m_process->processId() : 0;
}

bool NodeHolder::waitUntilOpen(int timeoutMs) const
{
    for (int waited = 0; waited < timeoutMs; waited += 5) {
        bool all = true;
        for (const QString &path : m_paths)
            all = all && processHolds(pid(), path);
        if (all)
            return true;
        QThread::msleep(5);
    }
    return false;
}

void NodeHolder::openLater()
{
    if (m_later.isEmpty())
        return;
    m_process->write("\n");
    m_process->waitForBytesWritten(5000);
    m_paths += m_later;
    m_later.clear();
}

void NodeHolder::kill()
{
    if (m_process && m_process->state() != QProcess::NotRunning) {
        m_process->kill();
        m_process->waitForFinished(5000);
    }
}

QString defaultsSection(const QString &deviceRoot, const ConfigDefaults &defaults)
{
    return QStringLiteral("[defaults]\ninterval_seconds=%1\nstart_delay_seconds=%2\ndevice_root=%3\n%4\n")
        .arg(defaults.intervalSeconds)
        .arg(defaults.startDelaySeconds)
        .arg(deviceRoot, defaults.more);
}

QString sleeperSection(const QString &name, const QString &gpus)
{
    return QStringLiteral("[process-%1]\ncmd=sleep 1000\ngpus=%2\nstop_timeout_seconds=2\n\n").arg(name, gpus);
}

bool shutDownMonitor(Monitor &monitor, int timeoutMs)
{
    QSignalSpy finished(&monitor, &Monitor::shutdownFinished);
    monitor.shutdown();
    return finished.count() == 1 || finished.wait(timeoutMs);
}

QString reaperPath()
{
    return QCoreApplication::applicationDirPath() + QStringLiteral("/idlegpu-reaper");
}

WorkloadConfig shellWorkload(const QString &id, const QString &script, const QString &dir)
{
    WorkloadConfig config;
    config.id = id;
    config.name = id;
    config.cmd = QStringLiteral("sh -c '%1'").arg(script);
    config.argv = QStringList{QStringLiteral("sh"), QStringLiteral("-c"), script};
    config.dir = dir;
    config.stopTimeoutSeconds = 2;
    return config;
}

int modeOf(const QString &path)
{
    struct stat info = {};
    return ::stat(QFile::encodeName(path).constData(), &info) == 0 ? int(info.st_mode & 07777) : -1;
}

bool processHolds(qint64 pid, const QString &path)
{
    const QString canonical = QFileInfo(path).canonicalFilePath();
    const QDir fdDir(QStringLiteral("/proc/%1/fd").arg(pid));
    const QStringList fds = fdDir.entryList(QDir::NoDotAndDotDot | QDir::AllEntries | QDir::System);
    for (const QString &fd : fds) {
        const QString target = QFile::symLinkTarget(fdDir.filePath(fd));
        if (target == path || (!canonical.isEmpty() && target == canonical))
            return true;
    }
    return false;
}

bool processAlive(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return false;
    const QByteArray line = stat.readAll();
    const int close = line.lastIndexOf(')');
    return close > 0 && close + 2 < line.size() && line.at(close + 2) != 'Z' && line.at(close + 2) != 'X';
}

QString writeFile(const QString &path, const QByteArray &contents)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate))
        qFatal("cannot write %s", qPrintable(path));
    file.write(contents);
    return path;
}

QByteArray readFileOrEmpty(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

qint64 pidFromFile(const QString &path)
{
    const QByteArray text = readFileOrEmpty(path);
    return text.endsWith('\n') ? text.trimmed().toLongLong() : 0;
}

std::unique_ptr<QProcess> startHeadless(const QString &config, const QString &stateDir)
{
    auto process = std::make_unique<QProcess>();
    process->setProgram(QStringLiteral(IDLEGPU_BINARY));
    process->setArguments({QStringLiteral("--headless"), QStringLiteral("--config"), config});
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    env.insert(QStringLiteral("XDG_RUNTIME_DIR"), stateDir);
    env.insert(QStringLiteral("XDG_STATE_HOME"), stateDir);
    process->setProcessEnvironment(env);
    process->setProcessChannelMode(QProcess::MergedChannels);
    process->start();
    return process;
}

FakeProc::FakeProc()
{
    if (!m_dir.isValid())
        qFatal("no temporary folder");
}

void FakeProc::add(const Process &process)
{
    const QString dir = pidDir(process.pid);
    QDir().mkpath(dir + "/fd");
    writeFile(dir + "/comm", process.comm + '\n');
    writeFile(dir + "/stat", QByteArray::number(process.pid) + " (" + process.comm + ") S "
                                              + QByteArray::number(process.ppid) + ' '
                                              + QByteArray::number(process.pgid) + ' '
                                              + QByteArray::number(process.sid) + " 34816 1234 4194560 0\n");
    writeFile(dir + "/cmdline", process.cmdline);
    if (process.uid >= 0)
        writeFile(dir + "/status", "Name:\t" + process.comm + "\nUmask:\t0022\nState:\tS\nUid:\t"
                                                    + QByteArray::number(process.uid) + "\t0\t0\t0\nGid:\t0\n");
    if (!process.exe.isEmpty())
        QFile::link(process.exe, dir + "/exe");
    for (int fd = 0; fd < process.fds.size(); ++fd)
        QFile::link(process.fds.at(fd), dir + "/fd/" + QString::number(fd));
}

// The users a test killed before its cleanup (a time-out, a crash) left behind: "igt<pid>x<n>" whose pid is gone.
static void removeUsersOfDeadTests()
{
    static const QRegularExpression ours(QStringLiteral("^igt(\\d+)x\\d+$"));
    QStringList stale;
    ::setpwent();
    while (const passwd *account = ::getpwent()) {
        const QRegularExpressionMatch match = ours.match(QString::fromLocal8Bit(account->pw_name));
        if (match.hasMatch() && !QFileInfo::exists(QStringLiteral("/proc/") + match.captured(1)))
            stale.append(match.captured(0));
    }
    ::endpwent();
    for (const QString &name : std::as_const(stale)) {
        QProcess::execute(QStringLiteral("pkill"), {QStringLiteral("-KILL"), QStringLiteral("-U"), name});
        QProcess::execute(QStringLiteral("userdel"), {QStringLiteral("--remove"), name});
        QDir(QStringLiteral("/tmp/%1-home").arg(name)).removeRecursively();
    }
}

TemporaryUser::TemporaryUser()
{
    if (::geteuid() != 0) {
        m_skipReason = QStringLiteral("needs root: the attack needs a second user, made with useradd");
        return;
    }
    const QString useradd = QStandardPaths::findExecutable(QStringLiteral("useradd"),
                                                           {QStringLiteral("/usr/sbin"), QStringLiteral("/sbin")});
    if (useradd.isEmpty()) {
        m_skipReason = QStringLiteral("useradd is not installed (Debian's passwd package)");
        return;
    }
    removeUsersOfDeadTests();
    static int made = 0;
    m_name = QStringLiteral("igt%1x%2").arg(::getpid()).arg(made++);
    m_home = QStringLiteral("/tmp/%1-home").arg(m_name);
    QProcess add;
    add.start(useradd, {QStringLiteral("--create-home"), QStringLiteral("--home-dir"), m_home,
                        QStringLiteral("--shell"), QStringLiteral("/bin/sh"), QStringLiteral("--user-group"), m_name});
    if (!add.waitForFinished(30000) || add.exitStatus() != QProcess::NormalExit || add.exitCode() != 0) {
        m_skipReason = QStringLiteral("useradd %1 failed: %2").arg(m_name, QString::fromLocal8Bit(add.readAll()));
        return;
    }
    const passwd *account = ::getpwnam(m_name.toLocal8Bit().constData());
    if (!account) {
        m_skipReason = QStringLiteral("useradd made %1, but getpwnam does not find it").arg(m_name);
        return;
    }
    m_uid = int(account->pw_uid);
    m_gid = int(account->pw_gid);
    ::chmod(QFile::encodeName(m_home).constData(), 0755);
}

TemporaryUser::~TemporaryUser()
{
    if (m_name.isEmpty() || m_uid < 0)
        return;
    // Whatever the user still runs would keep userdel from removing the account.
    QProcess::execute(QStringLiteral("pkill"), {QStringLiteral("-KILL"), QStringLiteral("-U"), m_name});
    QProcess::execute(QStringLiteral("userdel"), {QStringLiteral("--remove"), m_name});
    QDir(m_home).removeRecursively();
}

int TemporaryUser::run(const QString &script, QByteArray *output) const
{
    if (!valid())
        return -1;
    QProcess shell;
    shell.setProcessChannelMode(QProcess::MergedChannels);
    shell.setStandardInputFile(QProcess::nullDevice());
    shell.setWorkingDirectory(m_home);
    shell.start(QStringLiteral("runuser"), {QStringLiteral("-u"), m_name, QStringLiteral("--"), QStringLiteral("/bin/sh"),
                                            QStringLiteral("-c"), script});
    if (!shell.waitForFinished(60000) || shell.exitStatus() != QProcess::NormalExit)
        return -1;
    if (output)
        *output = shell.readAll();
    return shell.exitCode();
}

FuseMount::FuseMount(int uid, int gid, const Options &options)
{
    ::chmod(QFile::encodeName(m_dir.path()).constData(), 0755); // the mount point: reachable for `uid`
    QStringList arguments{m_dir.path(), QString::number(uid), QString::number(gid)};
    if (options.allowOther)
        arguments << QStringLiteral("--allow-other");
    if (options.hangWrites)
        arguments << QStringLiteral("--hang-writes");
    m_daemon.setProcessChannelMode(QProcess::ForwardedErrorChannel);
    m_daemon.start(QStringLiteral(IDLEGPU_TEST_FUSEFILE), arguments);
    if (!m_daemon.waitForStarted(5000)) {
        m_skipReason = QStringLiteral("test_fusefile did not start: %1").arg(m_daemon.errorString());
        return;
    }
    QByteArray line;
    while (!line.contains('\n') && m_daemon.waitForReadyRead(10000))
        line += m_daemon.readAllStandardOutput();
    if (line.startsWith("ready")) {
        m_mounted = true;
        return;
    }
    m_daemon.waitForFinished(5000);
    line += m_daemon.readAllStandardOutput();
    m_skipReason = line.startsWith("skip: ") ? QString::fromLocal8Bit(line.mid(6)).trimmed()
                                             : QStringLiteral("test_fusefile failed: %1").arg(QString::fromLocal8Bit(line));
}

FuseMount::~FuseMount()
{
    if (m_daemon.state() == QProcess::NotRunning)
        return;
    m_daemon.terminate();
    if (!m_daemon.waitForFinished(5000)) {
        m_daemon.kill();
        m_daemon.waitForFinished(5000);
    }
    ::umount2(QFile::encodeName(m_dir.path()).constData(), MNT_DETACH); // if the daemon could not
}

void FuseMount::hangAll()
{
    if (m_daemon.state() != QProcess::NotRunning)
        ::kill(pid_t(m_daemon.processId()), SIGUSR1);
    QThread::msleep(50); // the daemon's next request is left unanswered: let it see the signal first
}

QProcessEnvironment trayUnderTestEnvironment(const QString &home, const QString &display, const QString &sessionBus)
{
    QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
    for (const char *name : {"WAYLAND_DISPLAY", "XDG_CURRENT_DESKTOP", "DESKTOP_SESSION", "QT_QPA_PLATFORMTHEME",
                             "QT_STYLE_OVERRIDE", "SESSION_MANAGER", "XDG_SESSION_ID"})
        env.remove(QLatin1String(name));
    env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("xcb"));
    env.insert(QStringLiteral("DISPLAY"), display);
    env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), sessionBus);
    env.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
    env.insert(QStringLiteral("LC_ALL"), QStringLiteral("C.UTF-8"));
    const std::pair<const char *, const char *> folders[] = {{"XDG_RUNTIME_DIR", "runtime"},
                                                             {"XDG_STATE_HOME", "state"},
                                                             {"XDG_CONFIG_HOME", "config"},
                                                             {"XDG_CACHE_HOME", "cache"},
                                                             {"TMPDIR", "tmp"}};
    for (const auto &[variable, folder] : folders) {
        const QString path = home + QLatin1Char('/') + QLatin1String(folder);
        if (!QDir().mkpath(path))
            return {};
        QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        env.insert(QLatin1String(variable), path);
    }
    return env;
}

bool startIdlegpuBinary(QProcess &process, const QProcessEnvironment &env, const QStringList &arguments,
                        const QString &outputFile)
{
    process.setProcessEnvironment(env);
    process.setStandardOutputFile(outputFile);
    process.setProcessChannelMode(QProcess::MergedChannels);
    // A test killed on its time-out: idlegpu ends too, as on SIGTERM, its workloads with it.
    process.setChildProcessModifier([] { ::prctl(PR_SET_PDEATHSIG, SIGTERM); });
    process.start(QStringLiteral(IDLEGPU_BINARY), arguments);
    return process.waitForStarted();
}

void terminateAndWait(QProcess &process, int graceMs)
{
    if (process.state() == QProcess::NotRunning)
        return;
    ::kill(pid_t(process.processId()), SIGTERM);
    if (!process.waitForFinished(graceMs)) {
        process.kill();
        process.waitForFinished(5000);
    }
}

} // namespace TestSupport
