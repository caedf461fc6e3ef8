// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The card of one configured workload on the dashboard, shown whether or not its GPUs exist: its name, its GPUs, what
// it does (DashboardText::workloadActivity), a failing workload's last lines of output, and its own pause: a Pause or
// Resume button and "Pause for…".
#include "model/monitorstate.h"

#include <QDateTime>
#include <QFrame>

class PauseMenu;
class QLabel;
class QPushButton;

class WorkloadCard : public QFrame
{
    Q_OBJECT
public:
    static constexpr int kOutputLines = 6; // a failing workload's last lines shown: its error, not its whole log

    explicit WorkloadCard(const QString &id, QWidget *parent = nullptr);

    QString id() const { return m_id; }
    void apply(const WorkloadConfig &workload, const MonitorState &state, qint64 nowMs, const QDateTime &wallNow);
    // Enables its pause buttons; off while the monitor does not answer.
    void setActionsEnabled(bool enabled);

    // Puts its buttons after `previous` in the Tab chain; returns its last one.
    QWidget *chainFocus(QWidget *previous);

    QString activityText() const;
    // Returns the last lines of output shown; empty when none is.
    QString lastOutputText() const;

Q_SIGNALS:
    void pauseRequested(const QString &id, bool paused);
    void pauseForRequested(const QString &id, qint64 ms);

private:
    QString m_id;
    bool m_paused = false;
    QLabel *m_title;
    QLabel *m_gpus;
    QLabel *m_activity;
    QLabel *m_outputCaption;
    QLabel *m_output;
    QPushButton *m_pause;
    QPushButton *m_pauseFor;
    PauseMenu *m_pauseMenu;
};
