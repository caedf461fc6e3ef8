// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "slurmguard.h"

// What the two hooks do (slurm/guardfile.h says what they read):
//  - --slurm-prolog (slurm.conf Prolog=): SlurmGuard::prologVerdict. A job refused on a busy GPU while idlegpu runs
//    and is current goes back to the queue and the node stays as it is: the prolog requeues it (scontrol requeue),
//    or cancels one Slurm could not requeue either (scancel), and exits 0; the reason goes to stderr and the system
//    log. While idlegpu cannot guard the node (not running and current, a GPU it does not watch), or when Slurm
//    answers neither, the node is drained (unless it is already) with the reason, which goes to stderr too, and the
//    exit status 1 has Slurm requeue the job. Jobs of the hold partition pass.
//  - --slurm-health (HealthCheckProgram=): drains the node (unless it is already, whatever the reason) while idlegpu
//    is not running and current; exits 0.
// Slurm runs a program without arguments: the binary called through a link named idlegpu-slurm-prolog or
// idlegpu-slurm-health acts as if given the option. Both run sinfo (the node's state) and scontrol (the drain), each
// call under a timeout, with a fixed environment (PATH=/usr/sbin:/usr/bin:/sbin:/bin, LANG=C, SLURM_CONF from their
// own environment, else the heartbeat's, else slurmd's): slurmd gives the prolog no PATH and the health check no
// SLURM_CONF.

#include "base/clock.h"
#include "base/printablename.h"
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
#include <syslog.h>
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
constexpr int kClientTimeoutMs = 5'000;

void printErr(const QString &text)
{
    QTextStream(stderr) << text << Qt::endl;
}

// slurmd keeps a prolog's output only when it fails: a refusal that lets the node be says it to the system log too.
void logRefusal(const QString &text)
{
    ::openlog("idlegpu-slurm-prolog", LOG_PID, LOG_DAEMON);
    ::syslog(LOG_NOTICE, "%s", text.toUtf8().constData());
    ::closelog();
}

// Slurm's clients as the prolog and the health check run them: found in the fixed PATH, with a fixed environment.
struct SlurmClients
{
    QString scontrol;
    QString scancel;
    QString sinfo; // the node's state, as JSON
    QProcessEnvironment environment;

    std::optional<QByteArray> scontrolRun(const QStringList &arguments, QString *error) const
    {
        return run(scontrol, "scontrol", arguments, error);
    }
    std::optional<QByteArray> scancelRun(const QStringList &arguments, QString *error) const
    {
        return run(scancel, "scancel", arguments, error);
    }
    // The state of `node` as sinfo's JSON says (never scontrol's text, where a reason holding "State=IDLE" reads
    // as the state); nullopt with *error set.
    std::optional<Slurm::NodeState> nodeState(const QString &node, QString *error) const
    {
        const std::optional<QByteArray> shown = run(sinfo, "sinfo", Slurm::nodeArguments(node), error);
        return shown ? Slurm::parseNodeJson(*shown, node, error) : std::nullopt;
    }

private:
    // Runs `program` (`name` when it was not found) under a timeout; its output, or nullopt with *error set.
    std::optional<QByteArray> run(const QString &program, const char *name, const QStringList &arguments,
                                  QString *error) const
    {
        if (program.isEmpty()) {
            *error = QStringLiteral("no %1 in %2").arg(QLatin1String(name), kPath.join(QLatin1Char(':')));
            return std::nullopt;
        }
        return SlurmLender::runOnce(program, arguments, kClientTimeoutMs, error, environment);
    }
};

SlurmClients slurmClientsFor(const SlurmGuardRun &run, const SlurmGuard::ReadResult &guard)
{
    SlurmClients slurm;
    slurm.scontrol = run.scontrol;
    slurm.scancel = run.scancel;
    slurm.sinfo = run.sinfo;
    slurm.environment.insert(QStringLiteral("PATH"), kPath.join(QLatin1Char(':')));
    slurm.environment.insert(QStringLiteral("LANG"), QStringLiteral("C"));
    QString conf = run.slurmConf;
    if (!QDir::isAbsolutePath(conf) && guard.heartbeat && QFileInfo::exists(guard.heartbeat->slurmConf))
        conf = guard.heartbeat->slurmConf;
    if (!QDir::isAbsolutePath(conf))
        conf = run.parentSlurmConf;
    if (QDir::isAbsolutePath(conf))
        slurm.environment.insert(QStringLiteral("SLURM_CONF"), conf);
    return slurm;
}

// Drains `node` with `reason` unless it is drained already (an admin's reason or an earlier refusal stays as it is).
// When its state cannot be read it is drained all the same.
void drainUnlessDrained(const SlurmClients &slurm, const QString &node, const QString &reason)
{
    QString error;
    const std::optional<Slurm::NodeState> state = slurm.nodeState(node, &error);
    if (state && state->drained())
        return;
    if (!slurm.scontrolRun(Slurm::drainArguments(node, reason), &error))
        printErr(Cli::tr("Cannot drain node %1: %2").arg(node, error));
}

// Sends the job back to the queue and leaves the node as it is: requeued (a batch job that may be), else, as Slurm
// does with a job its prolog refused that cannot be requeued, cancelled, by its id narrowed to a job running on this
// node. The id is slurmd's (SLURM_JOB_ID), never read from Slurm's text. Either has slurmctld tell slurmd to end the
// job, which revokes its credential while the prolog still runs; slurmd checks it once the prolog has returned and
// does not launch the job (Slurm 22.05: "already killed, do not launch batch job", 16 refusals of 16 measured).
// False with *error set when neither could be done (slurmctld unreachable).
bool sendBack(const SlurmClients &slurm, const SlurmGuardRun &run, QString *error)
{
    const QString id = QString::number(run.job.id);
    QString requeueError;
    if (slurm.scontrolRun({QStringLiteral("requeue"), id}, &requeueError)) {
        printErr(Cli::tr("Job %1 requeued.").arg(id));
        return true;
    }
    // Not requeueable (--no-requeue: "Requested operation is presently disabled"; an interactive job: "Only batch
    // jobs are accepted"), or Slurm did not answer. --state=RUNNING spares a job the requeue did send back.
    QString cancelError;
    const QStringList cancel = {QStringLiteral("--state=RUNNING"), QStringLiteral("--nodelist=") + run.node, id};
    if (slurm.scancelRun(cancel, &cancelError)) {
        printErr(Cli::tr("Job %1 cannot be requeued (%2): cancelled.").arg(id, requeueError));
        return true;
    }
    *error = QStringLiteral("cannot requeue job %1 (%2) nor cancel it (%3)").arg(id, requeueError, cancelError);
    return false;
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

SlurmGuardMode slurmGuardModeOfOption(const char *argument)
{
    if (!argument)
        return SlurmGuardMode::None;
    if (strcmp(argument, "--slurm-prolog") == 0)
        return SlurmGuardMode::Prolog;
    if (strcmp(argument, "--slurm-health") == 0)
        return SlurmGuardMode::Health;
    return SlurmGuardMode::None;
}

SlurmGuardRun slurmGuardRunOfEnvironment()
{
    SlurmGuardRun run;
    run.guardFolder = rootRuntimeFolderPath();
    run.scontrol = QStandardPaths::findExecutable(QStringLiteral("scontrol"), kPath);
    run.scancel = QStandardPaths::findExecutable(QStringLiteral("scancel"), kPath);
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
    if (mode == SlurmGuardMode::Health) {
        const QString reason = SlurmGuard::notRunningReason(guard, run.node, run.procRoot, run.nowMs);
        if (!reason.isEmpty()) {
            printErr(reason);
            drainUnlessDrained(slurmClientsFor(run, guard), run.node, reason);
        }
        return 0;
    }
    using Action = SlurmGuard::PrologVerdict::Action;
    const SlurmGuard::PrologVerdict verdict =
        SlurmGuard::prologVerdict(guard, run.job, run.node, run.procRoot, run.nowMs, SlurmConfig().partition);
    if (verdict.action == Action::Run)
        return 0;
    printErr(verdict.reason);
    const SlurmClients slurm = slurmClientsFor(run, guard);
    QString reason = verdict.reason;
    if (verdict.action == Action::Refuse) {
        logRefusal(QStringLiteral("job %1: %2").arg(run.job.id).arg(verdict.reason));
        QString error;
        if (run.job.id > 0 && sendBack(slurm, run, &error))
            return 0;
        if (run.job.id <= 0)
            error = QStringLiteral("no SLURM_JOB_ID");
        // Slurm requeues the job (or cancels it) for the exit status 1, and drains the node: with idlegpu's reason,
        // which the running idlegpu resumes.
        reason = QStringLiteral("%1; %2").arg(verdict.reason, printableName(error.left(200)));
        printErr(reason);
    }
    drainUnlessDrained(slurm, run.node, reason);
    return 1;
}

int runSlurmGuardProgram(int argc, char **argv)
{
    SlurmGuardMode mode = slurmGuardModeOfProgram(argc > 0 ? argv[0] : nullptr);
    if (mode == SlurmGuardMode::None && argc == 2)
        mode = slurmGuardModeOfOption(argv[1]);
    if (mode == SlurmGuardMode::None) {
        printErr(Cli::tr("Usage: idlegpu-slurm-guard --slurm-prolog | --slurm-health. Slurm runs it through the links "
                         "idlegpu-slurm-prolog and idlegpu-slurm-health, without arguments."));
        return 2;
    }
    const QCoreApplication app(argc, argv);
    return runSlurmGuard(mode);
}
