// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "slurm/guardfile.h"

// Slurm's Prolog and HealthCheckProgram read the guard file without reading idlegpu's config, so it carries the hold
// partition, SLURM_CONF (the health check gets none from slurmd) and, per GPU, the processes idlegpu saw and did not
// count. The prolog so judges a GPU as the monitor does: it refuses a job on a GPU idlegpu holds, or where a process
// holds the node that idlegpu did not account for (one that appeared since), and drains the node only when idlegpu is
// not there to judge.
//
// idlegpu is "running and current" on a node when the file is root's, a regular file nobody else may write, parses,
// names that node, was not marked stopped, was written less than kCurrentForMs ago, and its pid is alive with the start
// time written. Anything else (a link, another owner's file, garbage, a dead or reused pid) is a reason to refuse the
// node's jobs.

#include "base/errnotext.h"
#include "base/logging.h"
#include "base/printablename.h"
#include "config/config.h"
#include "config/runtimefolder.h"
#include "config/securefile.h"
#include "holders/procstatfile.h"

#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <errno.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace SlurmGuard {

namespace {

// 2: each GPU's verdict (lent, uncounted).
constexpr int kFormat = 2;
constexpr qsizetype kMaxText = 1024; // a node, partition, path or time in the file: longer is garbage

// A reason for slurm.conf's Reason= and a log line: what the file or a process gave, made printable and short.
QString shown(const QString &text)
{
    return printableName(text.left(200));
}

QString notRunning(const QString &node, const QString &why)
{
    return QStringLiteral("%1not running on %2 (%3)").arg(QLatin1String(kReasonPrefix), shown(node), why);
}

// A non-negative number written as text (a JSON number is a double, exact only up to 2^53).
bool number(const QJsonObject &object, const char *key, qint64 *out)
{
    const QJsonValue value = object.value(QLatin1String(key));
    bool ok = false;
    const qint64 parsed = value.isString() ? value.toString().toLongLong(&ok) : 0;
    if (!ok || parsed < 0)
        return false;
    *out = parsed;
    return true;
}

// {"pid": 4242, "startTime": "123456"}: a pid Linux may give (1..2^22) and a start time after boot.
std::optional<ProcessId> processId(const QJsonObject &object)
{
    const QJsonValue pid = object.value(QStringLiteral("pid"));
    const double pidValue = pid.toDouble(-1);
    qint64 startTime = 0;
    if (!pid.isDouble() || pidValue < 1 || pidValue > 4194304 || pidValue != double(qint64(pidValue))
        || !number(object, "startTime", &startTime) || startTime == 0)
        return std::nullopt;
    return ProcessId{qint64(pidValue), quint64(startTime)};
}

} // namespace

QString fileName(const QString &node)
{
    return QStringLiteral("slurm-%1.guard").arg(node);
}

// A GPU is lent while its lending workload ([slurm], Config::slurmWorkloadId) runs and `decision` has it running there;
// uncounted are the holders `decision` saw there and left out (GpuStatus::ignoredHolders, openOnlyHolders) that have a
// known start time.
QList<GuardGpu> gpusOfDecision(const QList<GpuDevice> &devices, const Decision &decision,
                               const QHash<QString, WorkloadRuntime> &runtimes)
{
    QList<GuardGpu> gpus;
    for (const GpuDevice &device : devices)
        if (device.vendor == GpuVendor::Nvidia)
            gpus.append({device.index, device.path, false, {}});
    std::sort(gpus.begin(), gpus.end(), [](const GuardGpu &a, const GuardGpu &b) { return a.index < b.index; });
    int uncounted = 0;
    for (GuardGpu &gpu : gpus) {
        const GpuStatus *status = decision.gpu(gpu.index);
        if (!status)
            continue;
        const QString lending = Config::slurmWorkloadId(gpu.index);
        gpu.lent = status->state == GpuState::RunningWorkload && status->workloadId == lending
                   && runtimes.value(lending).state == WorkloadRuntime::Running;
        const auto leaveUncounted = [&](const Holder &holder) {
            const ProcessId process{holder.pid, holder.startTime};
            // A holder without a known start time could be taken for another process with its pid: left out,
            // so that the prolog counts whatever holds the pid then.
            if (holder.hidden || holder.pid <= 0 || holder.startTime == 0 || gpu.uncounted.contains(process)
                || uncounted >= kMaxUncounted)
                return;
            gpu.uncounted.append(process);
            ++uncounted;
        };
        for (const IgnoredHolder &ignored : status->ignoredHolders)
            leaveUncounted(ignored.holder);
        for (const Holder &holder : status->openOnlyHolders)
            leaveUncounted(holder);
    }
    return gpus;
}

// A drain reason is a field of `scontrol show node`'s line. A space becomes \x20 and `=` becomes \x3d, so that the text
// cannot end the reason and add a field of its own (`p Reason=x`, `x State=IDLE`); printableName is applied unless the
// text went through it already.
QString reasonText(const QString &userText)
{
    // A process's comm went through printableName() as it was read: escaped once, not twice.
    const QString cut = userText.left(64);
    QString text = isPrintableName(cut) ? cut : printableName(cut);
    text.replace(QLatin1Char(' '), QLatin1String("\\x20"));
    text.replace(QLatin1Char('='), QLatin1String("\\x3d"));
    return text;
}

QByteArray toJson(const Heartbeat &heartbeat)
{
    QJsonArray gpus;
    for (const GuardGpu &gpu : heartbeat.gpus) {
        QJsonArray uncounted;
        for (const ProcessId &process : gpu.uncounted)
            uncounted.append(QJsonObject{{QStringLiteral("pid"), process.pid},
                                         {QStringLiteral("startTime"), QString::number(process.startTime)}});
        gpus.append(QJsonObject{{QStringLiteral("index"), gpu.index},
                                {QStringLiteral("path"), gpu.path},
                                {QStringLiteral("lent"), gpu.lent},
                                {QStringLiteral("uncounted"), uncounted}});
    }
    const QJsonObject object{
        {QStringLiteral("format"), kFormat},
        {QStringLiteral("pid"), heartbeat.pid},
        // As text: a JSON number is a double, exact only up to 2^53.
        {QStringLiteral("startTime"), QString::number(heartbeat.startTime)},
        {QStringLiteral("node"), heartbeat.node},
        {QStringLiteral("partition"), heartbeat.partition},
        {QStringLiteral("slurmConf"), heartbeat.slurmConf},
        {QStringLiteral("gpus"), gpus},
        {QStringLiteral("monotonicMs"), QString::number(heartbeat.monotonicMs)},
        {QStringLiteral("writtenAt"), heartbeat.writtenAt},
        {QStringLiteral("stopped"), heartbeat.stopped},
    };
    return QJsonDocument(object).toJson(QJsonDocument::Indented);
}

// Not a heartbeat: not JSON, a field missing or of another type, a relative device path, too many GPUs.
std::optional<Heartbeat> parse(const QByteArray &text, QString *error)
{
    const auto fail = [error](const QString &why) -> std::optional<Heartbeat> {
        if (error)
            *error = why;
        return std::nullopt;
    };
    if (text.size() > kMaxFileBytes)
        return fail(QStringLiteral("larger than %1 bytes").arg(kMaxFileBytes));
    QJsonParseError jsonError{};
    const QJsonDocument document = QJsonDocument::fromJson(text, &jsonError);
    if (jsonError.error != QJsonParseError::NoError || !document.isObject())
        return fail(QStringLiteral("not a JSON object"));
    const QJsonObject object = document.object();
    if (object.value(QStringLiteral("format")).toInt(-1) != kFormat)
        return fail(QStringLiteral("not of format %1").arg(kFormat));
    const auto text_ = [&](const char *key, QString *out, bool required) {
        const QJsonValue value = object.value(QLatin1String(key));
        if (!value.isString() || value.toString().size() > kMaxText || (required && value.toString().isEmpty()))
            return false;
        *out = value.toString();
        return true;
    };
    Heartbeat heartbeat;
    const std::optional<ProcessId> self = processId(object);
    if (!self)
        return fail(QStringLiteral("no valid pid and startTime"));
    heartbeat.pid = self->pid;
    heartbeat.startTime = self->startTime;
    if (!number(object, "monotonicMs", &heartbeat.monotonicMs))
        return fail(QStringLiteral("no valid monotonicMs"));
    if (!text_("node", &heartbeat.node, true) || !text_("partition", &heartbeat.partition, true)
        || !text_("slurmConf", &heartbeat.slurmConf, false) || !text_("writtenAt", &heartbeat.writtenAt, false))
        return fail(QStringLiteral("a text field is missing, empty or too long"));
    if (!heartbeat.slurmConf.isEmpty() && !QDir::isAbsolutePath(heartbeat.slurmConf))
        return fail(QStringLiteral("slurmConf is not an absolute path"));
    const QJsonValue stopped = object.value(QStringLiteral("stopped"));
    if (!stopped.isBool())
        return fail(QStringLiteral("no valid stopped"));
    heartbeat.stopped = stopped.toBool();
    const QJsonValue gpus = object.value(QStringLiteral("gpus"));
    if (!gpus.isArray() || gpus.toArray().size() > kMaxGpus)
        return fail(QStringLiteral("no valid gpus"));
    qsizetype uncountedInAll = 0;
    for (const QJsonValue &entry : gpus.toArray()) {
        const QJsonObject gpu = entry.toObject();
        const double index = gpu.value(QStringLiteral("index")).toDouble(-1);
        const QString path = gpu.value(QStringLiteral("path")).toString();
        if (!gpu.value(QStringLiteral("index")).isDouble() || index < 0 || index > 1'000'000
            || index != double(int(index)) || !QDir::isAbsolutePath(path) || path.size() > kMaxText)
            return fail(QStringLiteral("a GPU without a valid index and absolute path"));
        const QJsonValue lent = gpu.value(QStringLiteral("lent"));
        const QJsonValue uncounted = gpu.value(QStringLiteral("uncounted"));
        if (!lent.isBool() || !uncounted.isArray())
            return fail(QStringLiteral("GPU %1 without a valid lent and uncounted").arg(int(index)));
        uncountedInAll += uncounted.toArray().size();
        if (uncountedInAll > kMaxUncounted)
            return fail(QStringLiteral("more than %1 uncounted processes").arg(kMaxUncounted));
        GuardGpu parsed{int(index), path, lent.toBool(), {}};
        for (const QJsonValue &process : uncounted.toArray()) {
            const std::optional<ProcessId> id = processId(process.toObject());
            if (!id)
                return fail(QStringLiteral("an uncounted process of GPU %1 without a valid pid and startTime")
                                .arg(int(index)));
            parsed.uncounted.append(*id);
        }
        heartbeat.gpus.append(parsed);
    }
    return heartbeat;
}

// The folder is opened with SecureFile::openTrustedFolder, and the file once with O_NOFOLLOW and checked on that fd.
ReadResult read(const QString &folder, const QString &node, uid_t owner)
{
    ReadResult result;
    const QString name = fileName(node);
    result.path = QDir(folder).filePath(name);
    if (node.isEmpty() || name.contains(QLatin1Char('/'))) {
        result.problem = QStringLiteral("no node name to look for");
        return result;
    }
    if (!QFileInfo::exists(folder)) {
        result.problem = QStringLiteral("no %1").arg(result.path);
        return result;
    }
    const SecureFile::Opened opened = SecureFile::openTrustedFolder(folder, owner);
    if (!opened.ok()) {
        result.problem = opened.error;
        result.untrusted = opened.untrusted;
        return result;
    }
    const UniqueFd fd(::openat(opened.fd.get(), QFile::encodeName(name).constData(),
                               O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_NOCTTY | O_CLOEXEC));
    if (!fd.valid()) {
        const int error = errno;
        if (error == ENOENT)
            result.problem = QStringLiteral("no %1").arg(result.path);
        else if (error == ELOOP) {
            result.problem = QStringLiteral("%1 is a symbolic link").arg(result.path);
            result.untrusted = true;
        } else {
            result.problem = QStringLiteral("cannot open %1: %2").arg(result.path, errnoText(error));
        }
        return result;
    }
    struct stat st{};
    if (::fstat(fd.get(), &st) != 0) {
        result.problem = QStringLiteral("cannot read the status of %1: %2").arg(result.path, errnoText(errno));
        return result;
    }
    result.untrusted = true;
    if (!S_ISREG(st.st_mode)) {
        result.problem = QStringLiteral("%1 is not a regular file").arg(result.path);
        return result;
    }
    if (st.st_uid != owner) {
        result.problem = owner == 0 ? QStringLiteral("%1 is not root's (uid %2)").arg(result.path).arg(st.st_uid)
                                    : QStringLiteral("%1 is not uid %2's (uid %3)")
                                          .arg(result.path)
                                          .arg(owner)
                                          .arg(st.st_uid);
        return result;
    }
    if (st.st_mode & (S_IWGRP | S_IWOTH)) {
        result.problem = QStringLiteral("%1 may be written by others (mode %2)")
                             .arg(result.path)
                             .arg(st.st_mode & 07777, 4, 8, QLatin1Char('0'));
        return result;
    }
    result.untrusted = false;
    if (st.st_size > kMaxFileBytes) {
        result.problem = QStringLiteral("%1 is larger than %2 bytes").arg(result.path).arg(kMaxFileBytes);
        return result;
    }
    QString error;
    const std::optional<QByteArray> text = SecureFile::readAll(fd.get(), kMaxFileBytes, &error);
    if (!text) {
        result.problem = QStringLiteral("cannot read %1: %2").arg(result.path, error);
        return result;
    }
    result.heartbeat = parse(*text, &error);
    if (!result.heartbeat)
        result.problem = QStringLiteral("%1 is no heartbeat (%2)").arg(result.path, error);
    return result;
}

QString notRunningReason(const ReadResult &result, const QString &node, const QString &procRoot, qint64 nowMs)
{
    if (!result.heartbeat)
        return notRunning(node, shown(result.problem.isEmpty() ? QStringLiteral("no heartbeat") : result.problem));
    const Heartbeat &heartbeat = *result.heartbeat;
    if (heartbeat.node != node)
        return notRunning(node, QStringLiteral("%1 names node %2").arg(result.path, shown(heartbeat.node)));
    if (heartbeat.stopped)
        return notRunning(node, QStringLiteral("it stopped at %1").arg(shown(heartbeat.writtenAt)));
    ProcStat stat;
    if (!readProcStat(QFile::encodeName(procRoot).constData(), long(heartbeat.pid), &stat) || stat.state == 'Z'
        || stat.state == 'X')
        return notRunning(node, QStringLiteral("pid %1 is gone").arg(heartbeat.pid));
    if (stat.startTime != heartbeat.startTime)
        return notRunning(node, QStringLiteral("pid %1 is another process now").arg(heartbeat.pid));
    const qint64 ageMs = nowMs - heartbeat.monotonicMs;
    if (ageMs >= kCurrentForMs)
        return QStringLiteral("%1hangs on %2 (no heartbeat for %3 s)")
            .arg(QLatin1String(kReasonPrefix), shown(node))
            .arg(ageMs / 1000);
    if (ageMs <= -kCurrentForMs)
        return notRunning(node, QStringLiteral("its heartbeat is dated %1 s ahead").arg(-ageMs / 1000));
    return QString();
}

// The hold partition is the heartbeat's, else `defaultPartition` when there is no trusted heartbeat. Drain when idlegpu
// is not running and current, or when a GPU the job got is not one the heartbeat names. Refuse when idlegpu holds a GPU
// the job got ("idlegpu: GPU 1 of ws2 is held for its owner"), or when a process has its device node open that is
// neither the job's nor a Slurm job's nor one the heartbeat lists as uncounted there with the same start time
// ("idlegpu: GPU 1 of ws2 is in use by pid 977 (python3)").
PrologVerdict prologVerdict(const ReadResult &result, const PrologJob &job, const QString &node,
                            const QString &procRoot, qint64 nowMs, const QString &defaultPartition)
{
    using Action = PrologVerdict::Action;
    const QString holdPartition = result.heartbeat ? result.heartbeat->partition : defaultPartition;
    if (!job.partition.isEmpty() && job.partition == holdPartition)
        return {};
    if (QString reason = notRunningReason(result, node, procRoot, nowMs); !reason.isEmpty())
        return {Action::Drain, reason};
    const QList<GuardGpu> &gpus = result.heartbeat->gpus;
    QList<GuardGpu> jobGpus;
    for (int position : job.gresPositions) {
        if (position < 0 || position >= gpus.size())
            return {Action::Drain, QStringLiteral("%1GPU %2 in %3's gres.conf is not one idlegpu watches (it names %4)")
                                       .arg(QLatin1String(kReasonPrefix))
                                       .arg(position)
                                       .arg(shown(node))
                                       .arg(gpus.size())};
        jobGpus.append(gpus.at(position));
    }
    for (const GuardGpu &gpu : std::as_const(jobGpus))
        if (!gpu.lent)
            return {Action::Refuse, QStringLiteral("%1GPU %2 of %3 is held for its owner")
                                        .arg(QLatin1String(kReasonPrefix))
                                        .arg(gpu.index)
                                        .arg(shown(node))};
    if (jobGpus.isEmpty())
        return {};
    QList<HolderScanner::Node> nodes;
    for (const GuardGpu &gpu : std::as_const(jobGpus))
        nodes.append({gpu.path, gpu.index, false});
    const qint64 self = ::getpid();
    const HolderScanner::Result scan = HolderScanner(procRoot).scan(nodes, {}, true);
    for (const Holder &holder : scan.holders) {
        // The monitor counts no Slurm job's process either: the lab's jobs run on the GPUs lent to them.
        if (holder.pid == self || holder.slurmJobId != 0)
            continue;
        for (int index : holder.gpus) {
            const auto gpu = std::find_if(jobGpus.cbegin(), jobGpus.cend(),
                                          [index](const GuardGpu &g) { return g.index == index; });
            if (gpu == jobGpus.cend() || gpu->uncounted.contains(ProcessId{holder.pid, holder.startTime}))
                continue;
            return {Action::Refuse, QStringLiteral("%1GPU %2 of %3 is in use by pid %4 (%5)")
                                        .arg(QLatin1String(kReasonPrefix))
                                        .arg(index)
                                        .arg(shown(node))
                                        .arg(holder.pid)
                                        .arg(reasonText(holder.comm))};
        }
    }
    return {};
}

GuardFile::GuardFile(const QString &folder) : m_folder(folder) {}

bool GuardFile::write(const Heartbeat &heartbeat)
{
    const SecureFile::Opened opened = m_folder == rootRuntimeFolderPath()
                                          ? openRootRuntimeFolder(true)
                                          : SecureFile::openTrustedFolder(m_folder, ::geteuid());
    QString error = opened.error;
    if (opened.ok() && SecureFile::replaceFileAt(opened.fd.get(), fileName(heartbeat.node), toJson(heartbeat), 0644,
                                                 false, &error)) {
        if (!m_lastError.isEmpty())
            qCInfo(lcSlurm, "the heartbeat for Slurm's prolog and health check is written again");
        m_lastError.clear();
        return true;
    }
    if (error != m_lastError)
        qCWarning(lcSlurm, "cannot write the heartbeat for Slurm's prolog and health check (%s): %s; they will "
                           "refuse this node's jobs",
                  qPrintable(QDir(m_folder).filePath(fileName(heartbeat.node))), qPrintable(error));
    m_lastError = error;
    return false;
}

Heartbeat selfHeartbeat(const QString &procRoot)
{
    Heartbeat heartbeat;
    heartbeat.pid = ::getpid();
    ProcStat stat;
    if (readProcStat(QFile::encodeName(procRoot).constData(), long(heartbeat.pid), &stat))
        heartbeat.startTime = stat.startTime;
    if (const QString conf = qEnvironmentVariable("SLURM_CONF"); QDir::isAbsolutePath(conf))
        heartbeat.slurmConf = conf;
    return heartbeat;
}

} // namespace SlurmGuard
