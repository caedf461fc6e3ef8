// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "tray/notifier.h"

#include "status/statustext.h"
#include "tray/traylogging.h"

#include <QTimer>

#include <unistd.h>

void TrayNotificationSink::showMessage(NotificationKind, const QString &title, const QString &body,
                                       QSystemTrayIcon::MessageIcon icon)
{
    if (m_trayIcon)
        m_trayIcon->showMessage(title, body, icon);
    else
        qCInfo(lcTray, "no tray icon yet to show: %s: %s", qPrintable(title), qPrintable(body));
}

Notifier::Notifier(NotificationSink *sink, const Clock *clock, QObject *parent)
    : QObject(parent), m_sink(sink), m_clock(clock), m_ownUid(::getuid()), m_flushTimer(new QTimer(this))
{
    m_flushTimer->setSingleShot(true);
    connect(m_flushTimer, &QTimer::timeout, this, &Notifier::flushDue);
}

void Notifier::notifyPreemption(const PreemptionEvent &event)
{
    const QString name = event.workloadName.isEmpty() ? event.workloadId : event.workloadName;
    if (!event.culprit.hidden && event.culprit.uid == m_ownUid) {
        // The user whose job took the GPU: told that it is theirs, and how fast.
        const QString program = event.culprit.comm.isEmpty() ? tr("your program") : event.culprit.comm;
        QString body;
        if (event.openToStopMs) {
            const double ms = *event.openToStopMs;
            body = tr("GPU %1 is yours: stopped %2 %3 ms after %4 opened it")
                       .arg(event.gpu)
                       .arg(name, QString::number(ms, 'f', ms < 1 ? 1 : 0), program);
        } else {
            body = tr("GPU %1 is yours: stopped %2 after %3 opened it").arg(event.gpu).arg(name, program);
        }
        post(Kind::Preemption, tr("The GPU is yours"), body, QSystemTrayIcon::Information);
        return;
    }
    post(Kind::Preemption, tr("Workload stopped"),
         tr("Stopped %1 on GPU %2: %3 opened the GPU").arg(name).arg(event.gpu).arg(StatusText::holder(event.culprit)),
         QSystemTrayIcon::Information);
}

void Notifier::notifyWorkloadFailed(const QString &name, const WorkloadRuntime &runtime)
{
    if (runtime.consecutiveFailures < kFailuresBeforeNotice) {
        m_failingNoticed.remove(runtime.id); // a new streak: tell again when it gets long
        return;
    }
    if (m_failingNoticed.contains(runtime.id))
        return;
    m_failingNoticed.insert(runtime.id);
    const QString who = name.isEmpty() ? runtime.id : name;
    const QString body =
        runtime.lastExit.isEmpty()
            ? tr("%1 failed %2 times in a row; idlegpu keeps retrying it, less and less often.")
                  .arg(who)
                  .arg(runtime.consecutiveFailures)
            : tr("%1 failed %2 times in a row (last: %3); idlegpu keeps retrying it, less and less often.")
                  .arg(who)
                  .arg(runtime.consecutiveFailures)
                  .arg(runtime.lastExit);
    post(Kind::Failure, tr("Workload failing"), body,
         QSystemTrayIcon::Warning);
}

void Notifier::notifyConfigRejected(const QList<ConfigDiagnostic> &problems)
{
    QString first;
    for (const ConfigDiagnostic &problem : problems)
        if (problem.severity == ConfigDiagnostic::Error) {
            first = problem.toString();
            break;
        }
    if (first.isEmpty() && !problems.isEmpty())
        first = problems.first().toString();
    post(Kind::ConfigError, tr("Configuration not applied"),
         tr("%1\nThe previous configuration stays in force.").arg(first), QSystemTrayIcon::Critical);
}

void Notifier::notifyRefused(const QString &line)
{
    post(Kind::Refusal, tr("Request refused"), line, QSystemTrayIcon::Warning);
}

bool Notifier::enabled(Kind kind) const
{
    switch (kind) {
    case Kind::Refusal: return true;
    case Kind::Preemption: return m_settings.preemption;
    case Kind::Failure: return m_settings.failure;
    case Kind::ConfigError: return m_settings.configError;
    }
    return false;
}

void Notifier::post(Kind kind, const QString &title, const QString &body, QSystemTrayIcon::MessageIcon icon)
{
    if (!enabled(kind))
        return;
    flushDue(); // a window that has ended, though its timer has not fired yet, must not swallow this one
    const qint64 now = m_clock->nowMs();
    auto window = m_windows.find(int(kind));
    if (window != m_windows.end()) {
        ++window->held;
        return;
    }
    m_windows.insert(int(kind), Window{now + kWindowMs, 0});
    m_sink->showMessage(kind, title, body, icon);
    Q_EMIT shown(kind, title, body);
    scheduleFlush();
}

void Notifier::flushDue()
{
    const qint64 now = m_clock->nowMs();
    for (auto window = m_windows.begin(); window != m_windows.end();) {
        if (window->endsAtMs > now) {
            ++window;
            continue;
        }
        const Kind kind = Kind(window.key());
        if (window->held > 0 && enabled(kind)) {
            m_sink->showMessage(kind, tr("idlegpu"), summary(kind, window->held),
                                kind == Kind::Preemption ? QSystemTrayIcon::Information : QSystemTrayIcon::Warning);
            // The summary is this kind's message for the next window.
            window->endsAtMs = now + kWindowMs;
            window->held = 0;
            ++window;
        } else {
            window = m_windows.erase(window);
        }
    }
    scheduleFlush();
}

QString Notifier::summary(Kind kind, int count)
{
    switch (kind) {
    case Kind::Preemption:
        return count == 1 ? tr("1 more preemption") : tr("%1 more preemptions").arg(count);
    case Kind::Failure:
        return count == 1 ? tr("1 more workload failing") : tr("%1 more workloads failing").arg(count);
    case Kind::ConfigError:
        return count == 1 ? tr("1 more configuration error") : tr("%1 more configuration errors").arg(count);
    case Kind::Refusal: return count == 1 ? tr("1 more request refused") : tr("%1 more requests refused").arg(count);
    }
    return QString();
}

void Notifier::scheduleFlush()
{
    qint64 next = 0;
    for (const Window &window : std::as_const(m_windows))
        if (next == 0 || window.endsAtMs < next)
            next = window.endsAtMs;
    if (next == 0) {
        m_flushTimer->stop();
        return;
    }
    m_flushTimer->start(int(qBound<qint64>(0, next - m_clock->nowMs(), kWindowMs)));
}
