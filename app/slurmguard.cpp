// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "slurmguard.h"

#include "base/clock.h"
#include "config/config.h"
#include "config/runtimefolder.h"
#include "config/securefile.h"
#include "holders/procparse.h"
#include "slurm/guardfile.h"
#include "slurm/slurmcommands.h"
#include "slurm/slurmjobs.h"
#include "slurm/slurmlender.h"

#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcessEnvironment>
#include <QStandardPaths>
#include <QSysInfo>
#include <QTextStream>

#include <fcntl.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

// The context "idlegpu" of translations/*.ts, as application.cpp's.
struct Cli
{
    Q_DECLARE_TR_FUNCTIONS(idlegpu)
};

const QStringList kPath = {QStringLiteral("/usr/sbin"), QStringLiteral("/usr/bin"), QStringLiteral("/sbin"),
                           QStringLiteral("/bin")};
// slurmctld answers in milliseconds; a client that cannot reach it would wait about 9 s on its own, while slurmd waits
// for its prolog (PrologEpilogTimeout) and the health check.
constexpr int kScontrolTimeoutMs = 5'000;

void printErr(const QString &text)
{
    QTextStream(stderr) << text << Qt::endl;
}

struct Scontrol
{
    QString program;
    QString sinfo; // the node's state, as JSON
    QProcessEnvironment environment;

    // Runs scontrol `arguments`; its output, or nullopt with *error set.
    std::optional<QByteArray> run(const QStringList &arguments, QString *error) const
    {
        return runClient(program, QStringLiteral("scontrol"), arguments, error);
    }
    // The state of `node` as sinfo's JSON says (never scontrol's text, where a reason holding "State=IDLE" reads
    // as the state); nullopt with *error set.
    std::optional<Slurm::NodeState> nodeState(const QString &node, QString *error) const
    {
        const std::optional<QByteArray> shown = runClient(sinfo, QStringLiteral("sinfo"), Slurm::nodeArguments(node), error);
        return shown ? Slurm::parseNodeJson(*shown, node, error) : std::nullopt;
    }

private:
    std::optional<QByteArray> runClient(const QString &path, const QString &name, const QStringList &arguments,
                                        QString *error) const
    {
        if (path.isEmpty()) {
            *error = QStringLiteral("no %1 in %2").arg(name, kPath.join(QLatin1Char(':')));
            return std::nullopt;
        }
        return SlurmLender::runOnce(path, arguments, kScontrolTimeoutMs, error, environment);
    }
};

Scontrol scontrolFor(const SlurmGuardRun &run, const SlurmGuard::ReadResult &guard)
{
    Scontrol scontrol;
    scontrol.program = run.scontrol;
    scontrol.sinfo = run.sinfo;
    scontrol.environment.insert(QStringLiteral("PATH"), kPath.join(QLatin1Char(':')));
    scontrol.environment.insert(QStringLiteral("LANG"), QStringLiteral("C"));
    QString conf = run.slurmConf;
    if (!QDir::isAbsolutePath(conf) && guard.heartbeat && QFileInfo::exists(guard.heartbeat->slurmConf))
        conf = guard.heartbeat->slurmConf;
    if (!QDir::isAbsolutePath(conf))
        conf = run.parentSlurmConf;
    if (QDir::isAbsolutePath(conf))
        scontrol.environment.insert(QStringLiteral("SLURM_CONF"), conf);
    return scontrol;
}

// Drains `node` with `reason` unless it is drained already (an admin's reason or an earlier refusal stays as it is).
// When its state cannot be read it is drained all the same.
void drainUnlessDrained(const Scontrol &scontrol, const QString &node, const QString &reason)
{
    QString error;
    const std::optional<Slurm::NodeState> state = scontrol.nodeState(node, &error);
    if (state && state->drained())
        return;
    if (!scontrol.run(Slurm::drainArguments(node, reason), &error))
        printErr(Cli::tr("Cannot drain node %1: %2").arg(node, error));
}

// SLURM_CONF in the environment of the parent process (slurmd) when the parent is root's; empty otherwise.
QString rootParentSlurmConf()
{
    const QByteArray folder = "/proc/" + QByteArray::number(qint64(::getppid()));
    struct stat st{};
    if (::stat(folder.constData(), &st) != 0 || st.st_uid != 0)
        return QString();
    const UniqueFd fd(::open((folder + "/environ").constData(), O_RDONLY | O_CLOEXEC));
    if (!fd.valid())
        return QString();
    const std::optional<QByteArray> environ = SecureFile::readAll(fd.get(), 1 << 20, nullptr);
    if (!environ)
        return QString();
    int length = 0;
    const char *value = environValue(environ->constData(), int(environ->size()), "SLURM_CONF", &length);
    return value ? QFile::decodeName(QByteArray(value, length)) : QString();
}

} // namespace

SlurmGuardMode slurmGuardModeOfProgram(const char *argv0)
{
    if (!argv0)
        return SlurmGuardMode::None;
    const char *slash = strrchr(argv0, '/');
    const char *name = slash ? slash + 1 : argv0;
    if (strcmp(name, "idlegpu-slurm-prolog") == 0)
        return SlurmGuardMode::Prolog;
    if (strcmp(name, "idlegpu-slurm-health") == 0)
        return SlurmGuardMode::Health;
    return SlurmGuardMode::None;
}

SlurmGuardRun slurmGuardRunOfEnvironment()
{
    SlurmGuardRun run;
    run.guardFolder = rootRuntimeFolderPath();
    run.scontrol = QStandardPaths::findExecutable(QStringLiteral("scontrol"), kPath);
    run.sinfo = QStandardPaths::findExecutable(QStringLiteral("sinfo"), kPath);
    run.node = qEnvironmentVariable("SLURMD_NODENAME");
    if (run.node.isEmpty())
        run.node = QSysInfo::machineHostName().section(QLatin1Char('.'), 0, 0);
    run.job.id = qEnvironmentVariable("SLURM_JOB_ID").toLongLong();
    run.job.partition = qEnvironmentVariable("SLURM_JOB_PARTITION");
    run.job.gresPositions = Slurm::parseIndexList(qEnvironmentVariable("SLURM_JOB_GPUS"));
    run.slurmConf = qEnvironmentVariable("SLURM_CONF");
    run.parentSlurmConf = rootParentSlurmConf();
    run.nowMs = SystemClock::instance()->nowMs();
    return run;
}

int runSlurmGuard(SlurmGuardMode mode, const SlurmGuardRun &run)
{
    const SlurmGuard::ReadResult guard = SlurmGuard::read(run.guardFolder, run.node, run.guardOwner);
    const QString reason =
        mode == SlurmGuardMode::Prolog
            ? SlurmGuard::prologRefusal(guard, run.job, run.node, run.procRoot, run.nowMs, SlurmConfig().partition)
            : SlurmGuard::notRunningReason(guard, run.node, run.procRoot, run.nowMs);
    if (reason.isEmpty())
        return 0;
    printErr(reason);
    drainUnlessDrained(scontrolFor(run, guard), run.node, reason);
    return mode == SlurmGuardMode::Prolog ? 1 : 0;
}
