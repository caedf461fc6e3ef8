// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "tray/notifier.h"

#include "status/statustext.h"
#include "tray/trayiconrenderer.h"
#include "tray/traylogging.h"

#include <QTimer>

#include <unistd.h>

void TrayNotificationSink::showMessage(NotificationKind kind, const QString &title, const QString &body,
                                       QSystemTrayIcon::MessageIcon icon)
{
    if (!m_trayIcon) {
        qCInfo(lcTray, "no tray icon yet to show: %s: %s", qPrintable(title), qPrintable(body));
        return;
    }
    // A click's answer is no balloon: Qt's balloon points at the icon with its tip over it, and would take the next
    // click, the one the answer asks for. The menu's first line and the icon say it there.
    if (kind == NotificationKind::Pause) {
        qCInfo(lcTray, "%s", qPrintable(title));
        return;
    }
    // A rejected configuration stays until dismissed, as in DesktopNotificationSink; Qt's balloon has no "forever".
    const int shownMs = icon == QSystemTrayIcon::Critical ? 60'000 : int(Notifier::kWindowMs);
    m_trayIcon->showMessage(title, body, TrayIconRenderer::icon(OverallState::Idle), shownMs);
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
    // Who took which GPU and what stopped, in the first line a banner shows; the pid is in the status window.
    QString who;
    if (event.culprit.hidden && event.culprit.pid == 0)
        who = tr("A process of another user");
    else if (event.culprit.user.isEmpty())
        who = event.culprit.comm.isEmpty() ? tr("A program") : event.culprit.comm;
    else
        who = tr("%1 (%2)").arg(event.culprit.comm.isEmpty() ? QStringLiteral("?") : event.culprit.comm,
                                event.culprit.user);
    post(Kind::Preemption, tr("Workload stopped"), tr("%1 took GPU %2: stopped %3").arg(who).arg(event.gpu).arg(name),
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
    // What failed first, then its own last words ("cannot connect to pool"), which say more than an exit code.
    QString body =
        runtime.lastExit.isEmpty()
            ? tr("%1 failed %2 times in a row").arg(who).arg(runtime.consecutiveFailures)
            : tr("%1 failed %2 times in a row (%3)").arg(who).arg(runtime.consecutiveFailures).arg(runtime.lastExit);
    QString lastLine;
    for (auto line = runtime.lastOutput.crbegin(); line != runtime.lastOutput.crend() && lastLine.isEmpty(); ++line)
        lastLine = line->trimmed();
    body += QLatin1Char('\n')
            + (lastLine.isEmpty() ? tr("idlegpu keeps retrying it, less and less often.") : tr("“%1”").arg(lastLine));
    post(Kind::Failure, tr("Workload failing"), body, QSystemTrayIcon::Warning);
}

void Notifier::notifyConfigRejected(const QList<ConfigDiagnostic> &problems)
{
    const ConfigDiagnostic *first = problems.isEmpty() ? nullptr : &problems.first();
    for (const ConfigDiagnostic &problem : problems)
        if (problem.severity == ConfigDiagnostic::Error) {
            first = &problem;
            break;
        }
    // The line and the problem, not the file's path (the status window has it), so that the problem fits the banner.
    QString what;
    if (first)
        what = first->line > 0 ? tr("Line %1: %2").arg(first->line).arg(first->message) : first->message;
    // The problem is cut to leave room for the second line, which says that nothing changed.
    const QString kept = tr("The previous configuration stays in force.");
    what = elide(what.section(QLatin1Char('\n'), 0, 0), kBodyMaxChars - int(kept.size()) - 1);
    post(Kind::ConfigError, tr("Configuration not applied"), what + QLatin1Char('\n') + kept,
         QSystemTrayIcon::Critical);
}

void Notifier::notifyRefused(const QString &line)
{
    post(Kind::Refusal, tr("Request refused"), line, QSystemTrayIcon::Warning);
}

void Notifier::notifyPauseClicked(bool paused)
{
    if (paused)
        post(Kind::Pause, tr("Paused all workloads"), tr("Click the icon again to resume."),
             QSystemTrayIcon::Information);
    else
        post(Kind::Pause, tr("Resumed all workloads"), tr("They start again on idle GPUs. Click the icon to pause."),
             QSystemTrayIcon::Information);
}

QString Notifier::fitBanner(const QString &body)
{
    return elide(body.section(QLatin1Char('\n'), 0, kBodyMaxLines - 1), kBodyMaxChars);
}

QString Notifier::elide(const QString &text, int maxChars)
{
    if (text.size() <= maxChars)
        return text;
    QString cut = text.left(maxChars - 1);
    // At a word's end, unless that throws away more than a third.
    qsizetype space = cut.size();
    while (space > 0 && !cut.at(space - 1).isSpace())
        --space;
    if (space > maxChars * 2 / 3)
        cut.truncate(space);
    while (!cut.isEmpty() && (cut.back().isSpace() || cut.back().isPunct()))
        cut.chop(1);
    return cut + QChar(0x2026); // …
}

bool Notifier::enabled(Kind kind) const
{
    switch (kind) {
    case Kind::Refusal:
    case Kind::Pause: return true;
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
    const QString shownBody = fitBanner(body);
    if (kind == Kind::Pause) { // the answer to a click: at once, even right after the previous one
        m_sink->showMessage(kind, title, shownBody, icon);
        Q_EMIT shown(kind, title, shownBody);
        return;
    }
    flushDue(); // a window that has ended, though its timer has not fired yet, must not swallow this one
    const qint64 now = m_clock->nowMs();
    auto window = m_windows.find(int(kind));
    if (window != m_windows.end()) {
        ++window->held;
        return;
    }
    m_windows.insert(int(kind), Window{now + kWindowMs, 0});
    m_sink->showMessage(kind, title, shownBody, icon);
    Q_EMIT shown(kind, title, shownBody);
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
    case Kind::Pause: break; // never held
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
