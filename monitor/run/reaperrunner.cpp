// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "run/reaperrunner.h"

#include "base/logging.h"
#include "run/containment.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>

#include <signal.h>
#include <string.h>

namespace {

QString signalName(int sig)
{
    const char *abbreviation = sigabbrev_np(sig);
    return abbreviation ? QStringLiteral("SIG") + QLatin1String(abbreviation) : QStringLiteral("unknown signal");
}

} // namespace

QString ReaperRunner::describeExit(QProcess::ExitStatus status, int code)
{
    if (status == QProcess::CrashExit)
        return QStringLiteral("killed by signal %1 (%2)").arg(code).arg(signalName(code));
    return QStringLiteral("exit code %1").arg(code);
}

QString ReaperRunner::describeGpus(const QList<int> &gpus, bool allGpus)
{
    if (allGpus)
        return QStringLiteral("all GPUs");
    if (gpus.isEmpty())
        return QStringLiteral("no GPU");
    QStringList numbers;
    for (int gpu : gpus)
        numbers.append(QString::number(gpu));
    return QStringLiteral("GPUs ") + numbers.join(QLatin1Char(','));
}

qint64 ReaperRunner::backoffMs(int consecutiveFailures)
{
    qint64 ms = kFirstBackoffMs;
    for (int i = 1; i < consecutiveFailures && ms < kMaxBackoffMs; ++i)
        ms *= 2;
    return qMin(ms, kMaxBackoffMs);
}

QString ReaperRunner::defaultReaperPath()
{
    const QString ourDir = QCoreApplication::applicationDirPath();
    const QString besideUs = ourDir + QStringLiteral("/idlegpu-reaper");
    if (QFileInfo(besideUs).isExecutable())
        return besideUs;
    // The installed layout (<prefix>/bin/idlegpu, <prefix>/libexec/idlegpu/idlegpu-reaper), found relative to
    // the binary: a package installs to /usr while the build was configured for /usr/local, and a DESTDIR or
    // unpacked package lives elsewhere again.
    const QString underOurPrefix = QDir::cleanPath(ourDir + QStringLiteral("/../libexec/idlegpu/idlegpu-reaper"));
    if (QFileInfo(underOurPrefix).isExecutable())
        return underOurPrefix;
    const QString installed = QStringLiteral(IDLEGPU_LIBEXEC_DIR "/idlegpu-reaper");
    if (QFileInfo(installed).isExecutable())
        return installed;
    return QStringLiteral(IDLEGPU_BUILD_REAPER);
}

ReaperRunner::ReaperRunner(const Clock *clock, const QString &reaperPath, QObject *parent)
    : WorkloadRunner(parent), m_clock(clock), m_reaperPath(reaperPath.isEmpty() ? defaultReaperPath() : reaperPath)
{
}

void ReaperRunner::letReaperEndTree(Entry &entry)
{
    QProcess *process = entry.process;
    if (!process)
        return;
    disconnect(process, nullptr, this, nullptr);
    process->setParent(nullptr);
    connect(process, &QProcess::finished, process, &QObject::deleteLater);
    if (process->processId() > 0)
        ::kill(pid_t(process->processId()), SIGTERM);
}

void ReaperRunner::warnNotForgetting(const Entry &entry, const QString &why)
{
    qCWarning(lcRunner).noquote() << QStringLiteral("not forgetting %1: %2").arg(entry.name(), why);
}

QString ReaperRunner::logWritersCgroup(const QString &cgroupParent, QString *error)
{
    if (cgroupParent.isEmpty())
        return QString();
    const QString cgroup = WorkloadCgroup::logWritersPath(cgroupParent);
    return WorkloadCgroup::createLogWriters(cgroup, error) ? cgroup : QString();
}

LaunchContext ReaperRunner::launchContext() const
{
    return {m_reaperPath, m_gpuUuids, m_gpuDevices, UserLookup::system()};
}

void ReaperRunner::beginRun(Entry &entry, const WorkloadConfig &config, const QList<int> &gpus, bool allGpus)
{
    entry.config = config;
    entry.runtime.gpus = gpus;
    entry.allGpus = allGpus;
    entry.runtime.lastOutput.clear();
    entry.stopReason.clear();
}

void ReaperRunner::backOff(Entry &entry, const QString &lastExit, const QString &what)
{
    WorkloadRuntime &runtime = entry.runtime;
    runtime.state = WorkloadRuntime::BackingOff;
    runtime.pid = 0;
    runtime.lastExit = lastExit;
    ++runtime.consecutiveFailures;
    const qint64 delayMs = backoffMs(runtime.consecutiveFailures);
    runtime.retryAtMs = m_clock->nowMs() + delayMs;
    reportFailure(entry, QStringLiteral("%1; failure %2 in a row, next try in %3 s")
                             .arg(what, QString::number(runtime.consecutiveFailures), QString::number(delayMs / 1000)));
}

void ReaperRunner::reportFailure(Entry &entry, QString message)
{
    const WorkloadRuntime &runtime = entry.runtime;
    entry.log.writeLine(message);
    if (!runtime.lastOutput.isEmpty())
        message += QStringLiteral("; last output:\n    ") + runtime.lastOutput.join(QStringLiteral("\n    "));
    qCWarning(lcRunner).noquote() << message;
    emit runtimeChanged(runtime.id);
    emit workloadFailed(runtime.id, runtime);
}
