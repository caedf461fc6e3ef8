// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "settings/testrun.h"

#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QTimer>

#include <signal.h>

namespace {

constexpr int kMaxOutputChars = 100'000;

} // namespace

TestRun::TestRun(QPushButton *button, QPlainTextEdit *output, QObject *parent)
    : QObject(parent), m_button(button), m_output(output), m_timer(new QTimer(this))
{
    m_button->setText(tr("Test run"));
    m_button->setToolTip(tr("Runs the command for %1 seconds as idlegpu would, and shows what it prints.")
                             .arg(kDurationMs / 1000));
    m_timer->setSingleShot(true);
    m_timer->setInterval(kDurationMs);
    connect(m_timer, &QTimer::timeout, this,
            [this] { stop(tr("— stopped after %1 seconds —").arg(kDurationMs / 1000)); });
}

TestRun::~TestRun()
{
    release(); // the widgets may be gone already: only the command is stopped
}

void TestRun::start(WorkloadConfig workload, const LaunchContext &context)
{
    stop(QString());
    m_output->clear();
    workload.stopTimeoutSeconds = kGraceMs / 1000; // a test run ends quickly, whatever the workload's timeout
    const LaunchPlan plan = LaunchPlan::make(workload, workload.gpus.indices, workload.gpus.all, context);
    if (!plan.ready()) {
        m_output->appendPlainText(problemText(plan));
        return;
    }

    QString error;
    QProcess *process = plan.makeProcess(this, nullptr, &error);
    if (!process) {
        m_output->appendPlainText(tr("Not started: %1").arg(error));
        return;
    }
    connect(process, &QProcess::readyReadStandardOutput, this, [this, process] {
        const QString text = QString::fromLocal8Bit(process->read(64 * 1024));
        if (m_output->toPlainText().size() < kMaxOutputChars) {
            m_output->moveCursor(QTextCursor::End);
            m_output->insertPlainText(text);
        }
    });
    connect(process, &QProcess::finished, this, [this, process](int code, QProcess::ExitStatus status) {
        if (process != m_process)
            return;
        m_process = nullptr;
        finish(status == QProcess::CrashExit ? tr("— ended by signal %1 —").arg(code)
                                             : tr("— exited with code %1 —").arg(code));
        process->deleteLater();
    });
    connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError error) {
        if (error != QProcess::FailedToStart || process != m_process)
            return;
        m_process = nullptr;
        finish(tr("Not started: %1").arg(process->errorString()));
        process->deleteLater();
    });
    m_process = process;
    m_button->setText(tr("Stop test run"));
    m_output->appendPlainText(tr("$ %1").arg(workload.cmd));
    m_output->appendPlainText(QString()); // the output starts on a line of its own
    process->start();
    m_timer->start();
}

void TestRun::stop(const QString &note)
{
    if (!m_process)
        return;
    finish(note);
    release();
}

void TestRun::release()
{
    QProcess *process = m_process;
    m_process = nullptr;
    if (!process)
        return;
    // It ends on its own time, without us waiting for it: the reaper gets SIGTERM and ends the tree.
    disconnect(process, nullptr, this, nullptr);
    process->setParent(nullptr);
    connect(process, &QProcess::finished, process, &QObject::deleteLater);
    const qint64 pid = process->processId();
    if (pid <= 0) { // never kill(0, ...): that would be idlegpu's own process group
        process->deleteLater();
        return;
    }
    ::kill(pid_t(pid), SIGTERM);
}

void TestRun::finish(const QString &note)
{
    m_timer->stop();
    if (!note.isEmpty())
        m_output->appendPlainText(note);
    m_button->setText(tr("Test run"));
}

QString TestRun::problemText(const LaunchPlan &plan)
{
    switch (plan.problem) {
    case LaunchPlan::Ready: break;
    case LaunchPlan::NoCommand: return tr("Not started: the command names no program.");
    case LaunchPlan::Refused:
    case LaunchPlan::UserRejected: return tr("Not started: fix “Run as user” first.");
    case LaunchPlan::NoFolder: return tr("Not started: the folder “%1” does not exist.").arg(plan.subject);
    case LaunchPlan::NotFound: return tr("Not started: the program “%1” is not found.").arg(plan.subject);
    case LaunchPlan::NotExecutable: return tr("Not started: “%1” is not an executable program.").arg(plan.subject);
    case LaunchPlan::NoReaper:
        return tr("Not started: idlegpu-reaper, which supervises the command, is not found at %1.").arg(plan.subject);
    }
    return QString();
}
