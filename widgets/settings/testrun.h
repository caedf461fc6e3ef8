// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The settings dialog's "Test run": it starts a workload's command for a few seconds exactly as the monitor would (a
// LaunchPlan: through idlegpu-reaper, as its user, in its folder and environment) and shows what it prints. It never
// waits for the command: a stop sends SIGTERM to the reaper, which ends the whole tree (SIGKILL after the grace).
#include "run/launchplan.h"

#include <QObject>
#include <QPointer>

class QPlainTextEdit;
class QProcess;
class QPushButton;
class QTimer;

class TestRun : public QObject
{
    Q_OBJECT
public:
    // The time that the command may run.
    static constexpr int kDurationMs = 5'000;
    // The time that the command may take after SIGTERM to end before its tree gets SIGKILL.
    static constexpr int kGraceMs = 2'000;

    // `button` starts and stops it (its text says which); `output` shows what the command prints.
    TestRun(QPushButton *button, QPlainTextEdit *output, QObject *parent = nullptr);
    ~TestRun() override; // stops a test run

    bool isRunning() const { return !m_process.isNull(); }
    // Starts `workload` on its GPUs, or says in the output why it cannot.
    void start(WorkloadConfig workload, const LaunchContext &context);
    // Stops a test run that still goes; `note`, when given, ends its output.
    void stop(const QString &note);

    // Returns why a plan cannot start, in words for the user.
    static QString problemText(const LaunchPlan &plan);

private:
    void finish(const QString &note); // the timer, the note and the button; the process is dealt with apart
    void release();                   // lets go of the process, with a SIGTERM to the reaper

    QPushButton *m_button;
    QPlainTextEdit *m_output;
    QPointer<QProcess> m_process;
    QTimer *m_timer;
};
