// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "tray/traycontroller.h"

#include "status/statustext.h"
#include "tray/trayiconrenderer.h"

#include <QMenu>

TrayController::TrayController(QSystemTrayIcon *trayIcon, QObject *parent)
    : QObject(parent), m_menu(std::make_unique<QMenu>())
{
    m_menu->setToolTipsVisible(true); // the disabled "Settings…" says why
    connect(m_menu.get(), &QMenu::triggered, this, &TrayController::onActionTriggered);
    setTrayIcon(trayIcon);
}

void TrayController::setTrayIcon(QSystemTrayIcon *trayIcon)
{
    if (m_trayIcon) {
        m_trayIcon->setContextMenu(nullptr);
        disconnect(m_trayIcon, nullptr, this, nullptr);
    }
    m_trayIcon = trayIcon;
    if (!m_trayIcon)
        return;
    m_trayIcon->setContextMenu(m_menu.get());
    connect(m_trayIcon, &QSystemTrayIcon::activated, this, &TrayController::onActivated);
    if (m_iconSet)
        m_trayIcon->setIcon(TrayIconRenderer::icon(m_overall));
    m_trayIcon->setToolTip(m_toolTip);
    if (m_menuRebuilds > 0)
        updateMenu(); // the menu built before the icon may be exported now
}

TrayController::~TrayController()
{
    if (m_trayIcon)
        m_trayIcon->setContextMenu(nullptr);
}

void TrayController::applyState(const MonitorState &state, qint64 nowMs, const QDateTime &wallNow)
{
    m_state = state;
    m_nowMs = nowMs;
    m_wallNow = wallNow;
    m_hasState = true;
    updateIconAndToolTip();
    updateMenu();
}

void TrayController::updateIconAndToolTip()
{
    const OverallState overall = ::overallState(m_state);
    const bool iconChanged = !m_iconSet || overall != m_overall;
    m_overall = overall;
    m_iconSet = true;
    if (m_trayIcon && iconChanged)
        m_trayIcon->setIcon(m_available ? TrayIconRenderer::icon(overall) : TrayIconRenderer::unavailableIcon());
    // Away, the last state is old news: the tooltip says only that.
    const QString toolTip = m_available ? toolTipText(m_state, m_nowMs, m_wallNow)
                                        : tr("idlegpu — %1").arg(m_unavailableText);
    if (toolTip != m_toolTip) {
        m_toolTip = toolTip;
        if (m_trayIcon)
            m_trayIcon->setToolTip(toolTip);
    }
}

void TrayController::setAvailable(bool available, const QString &why)
{
    const QString text = available ? QString() : (why.isEmpty() ? tr("The idlegpu service is not running") : why);
    if (available == m_available && text == m_unavailableText)
        return;
    m_available = available;
    m_unavailableText = text;
    m_iconSet = false; // the picture changes between grey and the state's even when the state does not
    updateIconAndToolTip();
    updateMenu();
}

void TrayController::setRefusal(const QString &line)
{
    if (line == m_refusal)
        return;
    m_refusal = line;
    updateMenu();
}

QString TrayController::refusalText(MonitorLink::Request request, const QString &reason)
{
    const QString why = reason.isEmpty() ? tr("no reason given") : reason;
    switch (request) {
    case MonitorLink::Request::PauseAll:
    case MonitorLink::Request::PauseAllFor:
    case MonitorLink::Request::PauseWorkload:
    case MonitorLink::Request::PauseWorkloadFor: return tr("Pause refused: %1").arg(why);
    case MonitorLink::Request::ResumeAll:
    case MonitorLink::Request::ResumeWorkload: return tr("Resume refused: %1").arg(why);
    case MonitorLink::Request::ReloadConfig: return tr("Reload refused: %1").arg(why);
    case MonitorLink::Request::LoadConfig: return tr("Settings refused: %1").arg(why);
    }
    return why;
}

void TrayController::setDemoMode(bool demo)
{
    m_demo = demo;
    updateMenu();
}

void TrayController::setAutostartEnabled(bool enabled)
{
    m_autostart = enabled;
    updateMenu();
}

void TrayController::setSettingsAvailable(bool available)
{
    m_settingsAvailable = available;
    updateMenu();
}

QString TrayController::toolTipText(const MonitorState &state, qint64 nowMs, const QDateTime &wallNow)
{
    QStringList lines = StatusText::headlines(state);
    lines.first() = tr("idlegpu — %1").arg(lines.first());
    if (state.notSetUp)
        lines.append(tr("Click to choose what runs on your idle GPUs"));

    for (const ConfigDiagnostic &problem : state.configProblems)
        if (problem.severity == ConfigDiagnostic::Error) {
            lines.append(tr("Configuration error: %1").arg(problem.toString()));
            break;
        }
    // Root privileges nobody asked for by name (a gpu_mon file run as root): one short line, the full warning
    // with the fix is in the status window and the log.
    QStringList asRoot;
    for (const ConfigDiagnostic &problem : state.configProblems)
        if (!problem.rootWorkload.isEmpty())
            asRoot.append(StatusText::workloadName(state.config, problem.rootWorkload));
    if (!asRoot.isEmpty())
        lines.append(tr("Runs as root (no user =): %1 — add user = NAME to drop root")
                         .arg(asRoot.join(QStringLiteral(", "))));
    for (const WorkloadConfig &workload : state.config.workloads) {
        const auto runtime = state.runtimes.constFind(workload.id);
        if (runtime == state.runtimes.cend() || !runtime->failing())
            continue;
        lines.append(tr("%1 failing (%2), retry in %3")
                         .arg(StatusText::workloadName(state.config, workload.id),
                              runtime->lastExit.isEmpty() ? tr("no exit status") : runtime->lastExit,
                              StatusText::duration(runtime->retryAtMs - nowMs)));
        const QStringList output = lastOutputText(*runtime).split(QLatin1Char('\n'));
        if (output.size() > 1) // its last line: the menu's tooltip has more
            lines.append(tr("  Last output: %1").arg(output.last()));
    }
    if (state.pause.allPausedAt(nowMs)) {
        lines.append(state.pause.allUntilMs > 0
                         ? tr("All workloads paused until %1")
                               .arg(StatusText::clockTime(state.pause.allUntilMs, nowMs, wallNow))
                         : tr("All workloads paused"));
    }
    if (state.snapshot.devices.gpus.isEmpty())
        lines.append(tr("No GPU device node found in %1").arg(state.config.deviceRoot));
    for (const GpuStatus &gpu : state.decision.gpus)
        lines.append(tr("GPU %1: %2").arg(gpu.index).arg(StatusText::gpuActivity(gpu, state, nowMs, wallNow, true)));
    return lines.join(QLatin1Char('\n'));
}

QString TrayController::lastOutputText(const WorkloadRuntime &runtime)
{
    QStringList lines;
    for (auto line = runtime.lastOutput.crbegin();
         line != runtime.lastOutput.crend() && lines.size() < kOutputLinesShown; ++line)
        if (!line->trimmed().isEmpty())
            lines.prepend(line->trimmed());
    if (lines.isEmpty())
        return QString();
    const QString exit = runtime.lastExit.isEmpty() ? tr("no exit status") : runtime.lastExit;
    return tr("Failed (%1). Its last output:\n%2").arg(exit, lines.join(QLatin1Char('\n')));
}

QList<TrayController::MenuItem> TrayController::menuItems() const
{
    QList<MenuItem> items;
    auto add = [&items](MenuItem::Kind kind, const QString &id, const QString &text, const QVariant &data = QVariant()) {
        MenuItem item;
        item.kind = kind;
        item.id = id;
        item.text = text;
        item.data = data;
        item.enabled = kind == MenuItem::Action;
        items.append(item);
        return &items.last();
    };

    if (!m_available)
        add(MenuItem::Info, QStringLiteral("unavailable"), m_unavailableText);
    // The first line says that a click paused everything, the same on every desktop, whichever click it took.
    if (m_hasState && !m_state.notSetUp && m_state.pause.allPausedAt(m_nowMs))
        add(MenuItem::Info, QStringLiteral("pausedAll"),
            m_state.pause.allUntilMs > 0 ? tr("Paused all workloads until %1 — click again to resume")
                                               .arg(StatusText::clockTime(m_state.pause.allUntilMs, m_nowMs, m_wallNow))
                                         : tr("Paused all workloads — click again to resume"));
    if (!m_refusal.isEmpty())
        add(MenuItem::Info, QStringLiteral("refusal"), m_refusal);
    const bool notSetUp = m_hasState && m_state.notSetUp;
    if (notSetUp) {
        add(MenuItem::Info, QStringLiteral("notSetUp"), tr("idlegpu is not set up yet"));
        add(MenuItem::Action, QStringLiteral("setUp"), tr("Set up…"));
    }
    if (m_hasState && m_available) { // away, the GPUs' lines would be old news
        const QString hold = StatusText::holdReason(m_state.decision);
        if (!hold.isEmpty())
            add(MenuItem::Info, QStringLiteral("hold"), hold);
        for (const ConfigDiagnostic &problem : m_state.configProblems)
            if (problem.severity == ConfigDiagnostic::Error) {
                add(MenuItem::Info, QStringLiteral("configError"),
                    tr("Configuration error: %1").arg(problem.toString()));
                break;
            }
        if (m_state.snapshot.devices.gpus.isEmpty())
            add(MenuItem::Info, QStringLiteral("noGpu"),
                tr("No GPU device node found in %1").arg(m_state.config.deviceRoot));
        for (const GpuStatus &gpu : m_state.decision.gpus) {
            add(MenuItem::Section, QStringLiteral("gpu"), tr("GPU %1").arg(gpu.index), gpu.index);
            add(MenuItem::Info, QStringLiteral("gpuActivity"),
                StatusText::gpuActivity(gpu, m_state, m_nowMs, m_wallNow, false), gpu.index);
            if (gpu.state != GpuState::RunningWorkload && !gpu.workloadId.isEmpty()) {
                const auto runtime = m_state.runtimes.constFind(gpu.workloadId);
                const WorkloadRuntime::State runtimeState =
                    runtime == m_state.runtimes.cend() ? WorkloadRuntime::Stopped : runtime->state;
                MenuItem *line = add(MenuItem::Info, QStringLiteral("gpuWorkload"),
                                     tr("Workload: %1 (%2)")
                                         .arg(StatusText::workloadName(m_state.config, gpu.workloadId),
                                              StatusText::workloadState(runtimeState)),
                                     gpu.index);
                // "failed (exit code 3)" says little; what it printed last says why.
                if (runtime != m_state.runtimes.cend() && runtime->failing())
                    line->toolTip = lastOutputText(*runtime);
            }
        }
        add(MenuItem::Separator, QString(), QString());
    }

    if (!notSetUp) { // nothing to pause yet
        const bool pausedAll = m_state.pause.allPausedAt(m_nowMs);
        QString pauseText = tr("Pause all");
        if (pausedAll)
            pauseText = m_state.pause.allUntilMs > 0
                            ? tr("Resume (paused until %1)").arg(StatusText::clockTime(m_state.pause.allUntilMs, m_nowMs, m_wallNow))
                            : tr("Resume");
        add(MenuItem::Action, QStringLiteral("pauseAll"), pauseText, pausedAll)->enabled = m_available;
        add(MenuItem::Action, QStringLiteral("pauseForAnHour"), tr("Pause for 1 hour"))->enabled = m_available;
        // Each workload: its own pause (a check box; a timed pause says until when) and "Pause NAME for 1 hour".
        for (const WorkloadConfig &workload : m_state.config.workloads) {
            const QString name = StatusText::workloadName(m_state.config, workload.id);
            const bool paused = m_state.pause.workloadPausedAt(workload.id, m_nowMs);
            const qint64 until = paused ? m_state.pause.workloadUntilMs.value(workload.id) : 0;
            MenuItem *item = add(
                MenuItem::Action, QStringLiteral("pauseWorkload"),
                until > 0 ? tr("Pause %1 (paused until %2)").arg(name, StatusText::clockTime(until, m_nowMs, m_wallNow))
                          : tr("Pause %1").arg(name),
                workload.id);
            item->checkable = true;
            item->checked = paused;
            item->enabled = m_available;
            const auto runtime = m_state.runtimes.constFind(workload.id);
            if (runtime != m_state.runtimes.cend() && runtime->failing())
                item->toolTip = lastOutputText(*runtime);
            add(MenuItem::Action, QStringLiteral("pauseWorkloadForAnHour"), tr("Pause %1 for 1 hour").arg(name),
                workload.id)
                ->enabled = m_available;
        }
        add(MenuItem::Separator, QString(), QString());
    }

    if (m_demo)
        for (const GpuDevice &gpu : m_state.snapshot.devices.gpus)
            add(MenuItem::Action, QStringLiteral("simulateJob"), tr("Simulate a job on GPU %1").arg(gpu.index), gpu.index);
    add(MenuItem::Action, QStringLiteral("status"), tr("Status…"));
    MenuItem *settings = add(MenuItem::Action, QStringLiteral("settings"), tr("Settings…"));
    settings->enabled = m_settingsAvailable && m_available;
    if (!m_available)
        settings->toolTip = m_unavailableText;
    else if (!m_settingsAvailable)
        settings->toolTip = tr("Not available yet: edit the configuration file; idlegpu reloads it when it is saved.");
    add(MenuItem::Action, QStringLiteral("openLog"), tr("Open log"));
    MenuItem *autostart = add(MenuItem::Action, QStringLiteral("autostart"), tr("Start at login"));
    autostart->checkable = true;
    autostart->checked = m_autostart;
    add(MenuItem::Separator, QString(), QString());
    add(MenuItem::Action, QStringLiteral("quit"), tr("Quit"));
    return items;
}

void TrayController::updateMenu()
{
    // Exported over D-Bus (the StatusNotifierItem tray), the panel draws the menu from com.canonical.dbusmenu, where
    // Qt's export loses two things: a section's title (a section goes as a bare line; here its title follows the
    // line, as an item that cannot be clicked) and a literal "_" (dbusmenu's mnemonic mark; doubled here, or "Pause
    // folding_at_home" shows as "Pause foldingathome"). The icon, and with it the export, may come after the menu.
    const bool exported = m_menu->platformMenu() != nullptr;
    const QList<MenuItem> items = menuItems();
    if (items == m_shownItems && exported == m_shownExported && m_menuRebuilds > 0)
        return; // an open menu must not flicker for a state update that changes nothing in it
    m_shownItems = items;
    m_shownExported = exported;
    ++m_menuRebuilds;

    m_menu->clear();
    for (const MenuItem &item : items) {
        const QString text = exported ? QString(item.text).replace(QLatin1Char('_'), QLatin1String("__")) : item.text;
        QAction *action = nullptr;
        switch (item.kind) {
        case MenuItem::Section:
            if (exported) {
                if (!m_menu->isEmpty())
                    m_menu->addSeparator();
                action = m_menu->addAction(text);
            } else {
                action = m_menu->addSection(text);
            }
            break;
        case MenuItem::Separator: action = m_menu->addSeparator(); break;
        case MenuItem::Info:
        case MenuItem::Action: action = m_menu->addAction(text); break;
        }
        action->setObjectName(item.id);
        action->setData(item.data);
        action->setCheckable(item.checkable);
        action->setChecked(item.checked);
        action->setEnabled(item.enabled);
        action->setToolTip(item.toolTip.isEmpty() ? item.text : item.toolTip);
    }
}

void TrayController::onActionTriggered(QAction *action)
{
    const QString id = action->objectName();
    if (id == QLatin1String("setUp"))
        Q_EMIT setUpRequested();
    else if (id == QLatin1String("pauseAll"))
        Q_EMIT pauseAllRequested(!action->data().toBool());
    else if (id == QLatin1String("pauseForAnHour"))
        Q_EMIT pauseForRequested(kPauseForMs);
    else if (id == QLatin1String("pauseWorkload"))
        Q_EMIT workloadPauseRequested(action->data().toString(), action->isChecked());
    else if (id == QLatin1String("pauseWorkloadForAnHour"))
        Q_EMIT workloadPauseForRequested(action->data().toString(), kPauseForMs);
    else if (id == QLatin1String("simulateJob"))
        Q_EMIT simulateJobRequested(action->data().toInt());
    else if (id == QLatin1String("status"))
        Q_EMIT openStatusRequested();
    else if (id == QLatin1String("settings"))
        Q_EMIT openSettingsRequested();
    else if (id == QLatin1String("openLog"))
        Q_EMIT openLogRequested();
    else if (id == QLatin1String("autostart"))
        Q_EMIT autostartToggled(action->isChecked());
    else if (id == QLatin1String("quit"))
        Q_EMIT quitRequested();
}

void TrayController::onActivated(QSystemTrayIcon::ActivationReason reason)
{
    // A left click pauses or resumes everything; the menu is on the right button. On an X11 tray a second click
    // soon after the first comes as a double click: it is a second toggle, as the user meant it. Not set up yet,
    // there is nothing to pause: a click sets it up.
    if (reason != QSystemTrayIcon::Trigger && reason != QSystemTrayIcon::DoubleClick)
        return;
    if (!m_available)
        return; // nobody to ask; the tooltip says why
    if (m_state.notSetUp) {
        Q_EMIT setUpRequested();
        return;
    }
    const bool pause = !m_state.pause.allPausedAt(m_nowMs);
    Q_EMIT pauseAllRequested(pause);
    Q_EMIT pauseAllClicked(pause);
}
