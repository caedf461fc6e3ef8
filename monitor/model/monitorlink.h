// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The front ends' line to the monitor that decides: the tray, the status window, the settings dialog and the notifier
// hear from it and send it requests through a MonitorLink, whether that monitor runs in this process on a thread of
// its own (MonitorHost) or is the idlegpu service on D-Bus (RemoteMonitor). The link keeps the last state received, so
// that a front end never asks the monitor anything; every request is answered, where it changes something, by
// stateChanged(), and where the monitor says no, by requestRefused(): never silently.
#include "model/monitorstate.h"

#include <QObject>

struct DesktopIdleReport; // conditions/presence.h: only a monitor of this process takes it

class MonitorLink : public QObject
{
    Q_OBJECT
public:
    // The requests, as requestRefused() names them.
    enum class Request {
        PauseAll,
        ResumeAll,
        PauseAllFor,
        PauseWorkload,
        PauseWorkloadFor,
        ResumeWorkload,
        ReloadConfig,
        LoadConfig
    };
    Q_ENUM(Request)
    // How a save of the configuration through a service ended.
    enum class SaveResult { Saved, Refused, Conflict, Invalid };
    Q_ENUM(SaveResult)

    explicit MonitorLink(QObject *parent = nullptr);
    ~MonitorLink() override;

    // Returns the last state received from the monitor; a default one until the first arrives.
    const MonitorState &state() const { return m_state; }
    // Returns whether the monitor answers: always for one in this process; for a service, while its name has an owner.
    bool isAvailable() const { return m_available; }
    // Says why the monitor does not answer ("The idlegpu service is not running"); empty while it does.
    QString unavailableReason() const { return m_unavailableReason; }

    // Returns whether the monitor runs in this process: then the tray keeps its pause across restarts itself and
    // edits the configuration file in place. A service keeps both.
    virtual bool isLocal() const = 0;
    // Returns the monitor's configuration file, as it names it; empty while a service has not said.
    virtual QString configPath() const = 0;

    virtual void setPausedAll(bool paused) = 0;
    // Pauses every workload for `durationMs` from now; a later setPausedAll() ends it.
    virtual void pauseAllFor(qint64 durationMs) = 0;
    virtual void setWorkloadPaused(const QString &id, bool paused) = 0;
    // Pauses the workload `id` for `durationMs` from now (the service's Pause(workload, seconds)); a later
    // setWorkloadPaused() ends it or makes it open-ended.
    virtual void pauseWorkloadFor(const QString &id, qint64 durationMs) = 0;
    // Asks the monitor to read its configuration file again (a service does so by itself on a change).
    virtual void reloadConfig() = 0;

    // The configuration file through a service, for the settings dialog: loadConfig() is answered by configLoaded()
    // or a refusal (polkit may ask for a password), saveConfig() by configSaveFinished(). A monitor of this process
    // does neither: the dialog reads and writes its file in place.
    virtual void loadConfig();
    virtual void saveConfig(const QByteArray &contents);

    // What only a monitor of this process takes; a service has its own sources and ignores them.
    // Replaces the whole pause: the tray's saved pause, at start.
    virtual void setPause(const PauseState &pause);
    // Whether someone looks at the GPU metrics (the status window is shown): sampling costs a little.
    virtual void setGpuSamplingWanted(bool wanted);
    // What the desktop of the tray's session says of its idle time ([activity] pause_while_active).
    virtual void setDesktopIdle(const DesktopIdleReport &report);

Q_SIGNALS:
    void stateChanged(const MonitorState &state);
    void preempted(const PreemptionEvent &event);
    void workloadFailed(const QString &id, const WorkloadRuntime &runtime);
    void configRejected(const QList<ConfigDiagnostic> &problems);
    // The monitor said no to a request (polkit refused it, the workload is gone...): `reason` in its words.
    void requestRefused(MonitorLink::Request request, const QString &reason);
    void configLoaded(const QString &path, const QByteArray &contents);
    // `message`: why it was refused; for Invalid, one "FILE:LINE: severity: text" per line.
    void configSaveFinished(MonitorLink::SaveResult result, const QString &message);
    // The monitor went away or came back; `why` says why it does not answer (empty when it does).
    void availabilityChanged(bool available, const QString &why);

protected:
    // Keeps `state` as the last state and emits stateChanged().
    void receiveState(const MonitorState &state);
    // Records whether the monitor answers and emits availabilityChanged() when that changed.
    void setAvailable(bool available, const QString &why = QString());

private:
    MonitorState m_state;
    bool m_available = true;
    QString m_unavailableReason;
};
