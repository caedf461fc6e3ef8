// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// Shared by the tests: fake device nodes in a temporary folder, and real processes that hold them open, so
// that /proc, inotify and process groups are all real while no GPU is needed.
#include <QProcess>
#include <QStringList>
#include <QTemporaryDir>

#include <memory>

class Monitor;
struct WorkloadConfig;

namespace TestSupport {

// A temporary device_root with nvidia0..nvidia<gpus-1>, nvidiactl and nvidia-uvm as plain files (mode 0666), made
// by FakeGpuFolder; with no GPU an empty one, for another vendor's nodes (addNode).
class FakeDevRoot
{
public:
    explicit FakeDevRoot(int gpus = 2);
    QString path() const { return m_dir.path(); }
    QString filePath(const QString &name) const { return m_dir.filePath(name); }
    QString node(int gpu) const; // <root>/nvidia<gpu>
    QString ctl() const;         // <root>/nvidiactl
    QString uvm() const;         // <root>/nvidia-uvm
    // What a user's CUDA job holds on `gpu` (every CUDA process, even a bare `import torch`, opens nvidiactl,
    // nvidia-uvm and nvidiaN; HolderScanner::isComputeNode): a compute client, which stops a workload at once.
    QStringList computeJob(int gpu) const;
    // What an OpenGL/Vulkan program, a browser or a compositor holds on `gpu`: nvidiaN and nvidiactl, no
    // nvidia-uvm. A graphics client: under busy_when = auto it counts only while a backend measures it busy.
    QStringList graphicsClient(int gpu) const;
    void addGpu(int gpu);
    void removeGpu(int gpu);
    QString addNode(const QString &name); // "dri/renderD128", "kfd": returns its path

private:
    QTemporaryDir m_dir;
};

// A real process that opens `paths` and keeps them open until it is killed or closes them. Its program
// name (comm) is `programName` (a symlink to test_holdopen, which opens them after its exec), so tests can
// name it like a CUDA job ("python3").
// `later` are opened only once openLater() is called (a CUDA process that opens nvidiaN, then nvidia-uvm).
class NodeHolder
{
public:
    NodeHolder(const QStringList &paths, const QString &programName = QStringLiteral("python3"),
               const QStringList &later = {});
    ~NodeHolder(); // kills it and waits (test code may block)
    qint64 pid() const;
    bool waitUntilOpen(int timeoutMs = 5000) const; // true once every path opened so far shows in /proc/<pid>/fd
    void openLater();
    void kill();

private:
    QTemporaryDir m_binDir;
    std::unique_ptr<QProcess> m_process;
    QStringList m_paths;
    QStringList m_later;
};

// A proc root in a temporary folder: <root>/<pid>/{stat,comm,cmdline,status,exe,fd/<n>} as the kernel lays
// it out, with fd links pointing at fake nodes.
class FakeProc
{
public:
    struct Process
    {
        qint64 pid = 0;
        qint64 ppid = 1;
        qint64 pgid = 0;
        qint64 sid = 0;
        QByteArray comm = "proc";
        QByteArray cmdline;
        QString exe;
        QStringList fds; // link targets of fd 0, 1, ...
        int uid = -1;    // written as a status file when >= 0
    };

    FakeProc();
    QString path() const { return m_dir.path(); }
    QString pidDir(qint64 pid) const { return m_dir.filePath(QString::number(pid)); }

    void add(const Process &process);

private:
    QTemporaryDir m_dir;
};

// A local user made for one test and removed after it (userdel -r): the second user an attack on root's idlegpu
// needs. valid() is false, with skipReason() saying why, where the test does not run as root or useradd is
// missing; the test then QSKIPs with that reason. The name is unique per process ("igt<pid><n>").
class TemporaryUser
{
public:
    TemporaryUser();
    ~TemporaryUser();
    TemporaryUser(const TemporaryUser &) = delete;
    TemporaryUser &operator=(const TemporaryUser &) = delete;
    bool valid() const { return m_uid >= 0; }
    QString skipReason() const { return m_skipReason; }
    QString name() const { return m_name; }
    QString home() const { return m_home; } // made, owned by the user, mode 0755
    int uid() const { return m_uid; }
    int gid() const { return m_gid; }
    // Runs `script` through /bin/sh as this user (runuser), waits; returns its exit code, -1 if it did not run.
    int run(const QString &script, QByteArray *output = nullptr) const;

private:
    QString m_name;
    QString m_home;
    QString m_skipReason;
    int m_uid = -1;
    int m_gid = -1;
};

// A user's FUSE mount made for one test (test_fusefile, as root): <path()>/data is a regular file owned by `uid`:`gid`
// on a file system whose daemon the test controls. Without allowOther the kernel refuses the mount to everyone but
// `uid`, root included, as sshfs does by default; hangWrites leaves every write to the file unanswered (the writer
// blocks); hangAll() makes the daemon leave every request unanswered from then on (a stat of the file blocks).
// The destructor ends the daemon, which fails whatever still waits on it and unmounts. valid() is false, with
// skipReason() saying why, where the test is not root or the host has no FUSE.
class FuseMount
{
public:
    struct Options
    {
        bool allowOther = false;
        bool hangWrites = false;
    };
    FuseMount(int uid, int gid, const Options &options);
    ~FuseMount();
    FuseMount(const FuseMount &) = delete;
    FuseMount &operator=(const FuseMount &) = delete;
    bool valid() const { return m_mounted; }
    QString skipReason() const { return m_skipReason; }
    QString path() const { return m_dir.path(); }
    QString file() const { return m_dir.filePath(QStringLiteral("data")); }
    void hangAll();
    // The daemon's pid: a watchdog thread's SIGTERM to it ends the mount, and fails whatever waits on it.
    qint64 daemonPid() const { return m_daemon.processId(); }

private:
    QTemporaryDir m_dir;
    QProcess m_daemon;
    QString m_skipReason;
    bool m_mounted = false;
};

// What varies in the [defaults] of the tests' configs.
struct ConfigDefaults
{
    int startDelaySeconds = 0;
    int intervalSeconds = 60; // the fallback poll: at 60 s only node events answer within a test
    QString more;             // further lines of [defaults], each ending in a newline
};
// The [defaults] section the tests' configs start with: interval_seconds, start_delay_seconds and device_root =
// `deviceRoot` on its first 4 lines, then `defaults.more` and a blank line.
QString defaultsSection(const QString &deviceRoot, const ConfigDefaults &defaults = {});
// [process-<name>]: a workload that sleeps on `gpus` and is killed 2 s after its SIGTERM, then a blank line.
QString sleeperSection(const QString &name, const QString &gpus);

// Stops the monitor as idlegpu's exit does (every workload ended) and waits for it; false on time-out.
bool shutDownMonitor(Monitor &monitor, int timeoutMs = 15000);

// Returns the idlegpu-reaper of the build, beside the test executables.
QString reaperPath();
// A workload that runs `script` through sh -c in `dir`, killed 2 s after its SIGTERM.
WorkloadConfig shellWorkload(const QString &id, const QString &script, const QString &dir);
// Returns the permission bits of a file (following a link) as the kernel has them; -1 where it cannot be looked at.
int modeOf(const QString &path);
// True when /proc/<pid>/fd of `pid` holds a link to `path`.
bool processHolds(qint64 pid, const QString &path);
// True while /proc/<pid> exists and is not a zombie.
bool processAlive(qint64 pid);
// Writes text to a file, creating folders; returns the path.
QString writeFile(const QString &path, const QByteArray &contents);
// The contents of a file; empty where it cannot be read.
QByteArray readFileOrEmpty(const QString &path);
// The pid a workload wrote into `path`, a line; 0 while the file is missing or incomplete.
qint64 pidFromFile(const QString &path);
// Starts the real idlegpu --headless with `config`, its runtime folder (its lock) and state (its ledger) in
// `stateDir`, stdout and stderr merged into the process's channel.
std::unique_ptr<QProcess> startHeadless(const QString &config, const QString &stateDir);

// The environment of the real idlegpu in tray mode under test: nothing of the machine's desktop, the xcb platform on
// X display `display`, the session bus at `sessionBus`, C.UTF-8, and XDG folders and TMPDIR of its own made under
// `home` (mode 0700). Empty where a folder cannot be made.
QProcessEnvironment trayUnderTestEnvironment(const QString &home, const QString &display, const QString &sessionBus);
// Starts the real idlegpu with `arguments` in `env`, its output (stdout and stderr) into `outputFile`; it gets SIGTERM
// when the test dies (a time-out). False, with the reason in the process's errorString(), where it does not start.
bool startIdlegpuBinary(QProcess &process, const QProcessEnvironment &env, const QStringList &arguments,
                        const QString &outputFile);
// Ends `process` with SIGTERM, as a desktop session's end does, and waits; SIGKILL after `graceMs`.
void terminateAndWait(QProcess &process, int graceMs = 15000);

} // namespace TestSupport
