// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "settings/workloadssettingspage.h"

#include "config/commandsplit.h"
#include "run/processrunner.h"
#include "settings/gpupicker.h"
#include "settings/testrun.h"
#include "settings/workloadtemplates.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStyle>
#include <QTableWidget>
#include <QVBoxLayout>

#include <algorithm>

#include <unistd.h>

// What each priority means, in the combo box.
static QString priorityLabel(WorkloadPriority priority)
{
    switch (priority) {
    case WorkloadPriority::Idle: return WorkloadsSettingsPage::tr("Idle: only CPU time nobody else wants (default)");
    case WorkloadPriority::Low: return WorkloadsSettingsPage::tr("Low (nice 10)");
    case WorkloadPriority::Normal: return WorkloadsSettingsPage::tr("Normal, as idlegpu's own");
    }
    return QString();
}

namespace {

// A [process-*] key as a gpu_mon user finds it in a workload's section: "[process-…] cmd".
QString processKey(const char *key)
{
    return QStringLiteral("[process-…] %1").arg(QLatin1String(key));
}

const KeyRow &processRow(const char *key)
{
    return ConfigKeys::row(QStringLiteral("process-*"), QLatin1String(key));
}

// A spin box for a workload's seconds key, in the key's range.
QSpinBox *secondsSpinBox(const char *key, const QString &objectName)
{
    auto *spin = new QSpinBox;
    spin->setObjectName(objectName);
    const ConfigRange range = processRow(key).range;
    spin->setRange(int(range.min), int(range.max));
    spin->setSuffix(WorkloadsSettingsPage::tr(" s"));
    spin->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    spin->setProperty("idlegpuRow", QByteArray(key));
    return spin;
}

// The draft keeps the text as the file had it ("0" or "abc" are shown as a problem): the spin box shows the value, or
// the key's default where the text is none, and writes its value only once the user changed it.
void setSeconds(QSpinBox *spin, const QString &text)
{
    const KeyRow &row = processRow(spin->property("idlegpuRow").toByteArray().constData());
    const qint64 fallback = parseWholeNumber(row.defaultText()).value_or(row.range.min);
    spin->setValue(int(qBound(row.range.min, parseWholeNumber(text).value_or(fallback), row.range.max)));
}

void storeSeconds(const QSpinBox *spin, QString &text)
{
    if (parseWholeNumber(text) != spin->value())
        text = QString::number(spin->value());
}

} // namespace

WorkloadsSettingsPage::WorkloadsSettingsPage(QWidget *parent) : SettingsPage(parent)
{
    auto *layout = new QHBoxLayout(this);

    auto *left = new QVBoxLayout;
    m_workloadList = new QListWidget;
    m_workloadList->setObjectName(QStringLiteral("workloadList"));
    m_workloadStack = withEmptyText(m_workloadList,
                                    tr("No workloads yet. Until you add one, idlegpu only watches the GPUs. Press Add "
                                       "to run a command or a ready-made example."),
                                    QStringLiteral("workloadListEmpty"));
    left->addWidget(m_workloadStack, 1);
    // Policy::startOrder(), said once, where the order is set.
    auto *orderHint = new QLabel(tr("A GPU runs one workload at a time. When several want the same GPU, workloads on "
                                    "all GPUs go first, then the others in the order of this list. A running "
                                    "workload is never stopped to make way for another."));
    orderHint->setObjectName(QStringLiteral("orderRule"));
    orderHint->setWordWrap(true);
    left->addWidget(orderHint);
    QPushButton *add = button(tr("Add"), QStringLiteral("addWorkloadButton"));
    // A custom command or a filled-in example: nothing runs until the dialog saves.
    auto *addMenu = new QMenu(add);
    addMenu->setObjectName(QStringLiteral("addWorkloadMenu"));
    for (const WorkloadTemplate &choice : WorkloadTemplates::all(QDir::homePath())) {
        QAction *action = addMenu->addAction(choice.title);
        action->setObjectName(QStringLiteral("addTemplate-") + choice.id);
        connect(action, &QAction::triggered, this, [this, id = choice.id] { addWorkload(id); });
    }
    add->setMenu(addMenu);
    QPushButton *duplicate = button(tr("Duplicate"), QStringLiteral("duplicateWorkloadButton"));
    QPushButton *remove = button(tr("Remove"), QStringLiteral("removeWorkloadButton"));
    QPushButton *up = button(tr("Up"), QStringLiteral("moveUpButton"));
    QPushButton *down = button(tr("Down"), QStringLiteral("moveDownButton"));
    left->addWidget(row(add, {duplicate, remove}));
    left->addWidget(row(up, {down}));
    layout->addLayout(left, 1);
    connect(duplicate, &QPushButton::clicked, this, &WorkloadsSettingsPage::duplicateWorkload);
    connect(remove, &QPushButton::clicked, this, &WorkloadsSettingsPage::removeWorkload);
    connect(up, &QPushButton::clicked, this, [this] { moveWorkload(-1); });
    connect(down, &QPushButton::clicked, this, [this] { moveWorkload(1); });
    connect(m_workloadList, &QListWidget::currentRowChanged, this, [this](int row) {
        if (m_filling)
            return;
        showWorkload(row);
        Q_EMIT edited(); // the messages of the workload now shown
    });

    m_workloadEditor = new QWidget;
    auto *editorLayout = new QVBoxLayout(m_workloadEditor);
    editorLayout->setContentsMargins(0, 0, 0, 0);
    m_templateHelp = templateExplanation(QStringLiteral("templateHelp"));
    m_templateHelp->hide();
    editorLayout->addWidget(m_templateHelp);
    auto *form = new QFormLayout;
    m_form = form;
    editorLayout->addLayout(form);
    editorLayout->addStretch(1);
    const auto onEdit = [this] { readWorkload(); };

    m_name = new QLineEdit;
    m_name->setObjectName(QStringLiteral("nameEdit"));
    setFieldHelp(m_name, tr("The name the tray and the status window show."), processKey("name"));
    form->addRow(tr("Name:"), m_name);
    m_messages.insert(QStringLiteral("name"), addMessage(form, QStringLiteral("nameError")));

    m_cmd = new QLineEdit;
    m_cmd->setObjectName(QStringLiteral("cmdEdit"));
    setFieldHelp(m_cmd,
                 tr("Split into words like a shell does (quotes, backslashes), but no shell runs: write "
                    "sh -c '…' for pipes or variables."),
                 processKey("cmd"));
    m_kind = new QComboBox;
    m_kind->setObjectName(QStringLiteral("kindCombo"));
    m_kind->addItem(tr("Runs a command"), false);
    m_kind->addItem(tr("Controls a service"), true);
    setFieldHelp(m_kind,
                 tr("Runs a command: idlegpu starts it when its GPUs are free and ends it when another program "
                    "opens one. Controls a service: a program that runs all the time and pauses itself on "
                    "request (BOINC, Folding@home); idlegpu runs one command to let it use the GPUs and another "
                    "to make it leave them."),
                 tr("%1, or %2 and %3").arg(processKey("cmd"), processKey("start_cmd"), processKey("stop_cmd")));
    form->addRow(tr("Kind:"), m_kind);

    QPushButton *browseCmd = button(tr("Browse…"), QStringLiteral("browseCmdButton"));
    m_cmdRow = row(m_cmd, {browseCmd});
    form->addRow(tr("Command:"), m_cmdRow);
    m_messages.insert(QStringLiteral("cmd"), addMessage(form, QStringLiteral("cmdError")));

    m_startCmd = new QLineEdit;
    m_startCmd->setObjectName(QStringLiteral("startCmdEdit"));
    setFieldHelp(m_startCmd,
                 tr("Runs when the service may use the GPUs; it must exit with 0 once the service computes. It is "
                    "split into words like the command; no shell runs."),
                 processKey("start_cmd"));
    form->addRow(tr("Start command:"), m_startCmd);
    m_messages.insert(QStringLiteral("startCmd"), addMessage(form, QStringLiteral("startCmdError")));
    m_stopCmd = new QLineEdit;
    m_stopCmd->setObjectName(QStringLiteral("stopCmdEdit"));
    setFieldHelp(m_stopCmd,
                 tr("Runs the moment another program opens one of the GPUs; it must exit with 0 once the service "
                    "has left them. While it fails, the GPUs stay the service's and idlegpu tries again."),
                 processKey("stop_cmd"));
    form->addRow(tr("Stop command:"), m_stopCmd);
    m_messages.insert(QStringLiteral("stopCmd"), addMessage(form, QStringLiteral("stopCmdError")));
    m_commandTimeout = secondsSpinBox("command_timeout_seconds", QStringLiteral("commandTimeoutSpin"));
    setFieldHelp(m_commandTimeout,
                 tr("How long the start or stop command may take before it is killed and counted as failed."),
                 processKey("command_timeout_seconds"));
    form->addRow(tr("Command timeout:"), m_commandTimeout);
    m_messages.insert(QStringLiteral("commandTimeout"), addMessage(form, QStringLiteral("commandTimeoutError")));
    m_servicePrograms = new QLineEdit;
    m_servicePrograms->setObjectName(QStringLiteral("serviceProgramsEdit"));
    m_servicePrograms->setPlaceholderText(tr("None"));
    setFieldHelp(m_servicePrograms,
                 tr("The service's own programs, separated by commas (whole names, as in the ignored programs of a "
                    "GPU group): they never count as another program on this workload's GPUs."),
                 processKey("service_programs"));
    form->addRow(tr("Service programs:"), m_servicePrograms);

    m_user = new QLineEdit;
    m_user->setObjectName(QStringLiteral("userEdit"));
    m_user->setPlaceholderText(::geteuid() == 0 ? tr("root (idlegpu runs as root): enter a user to drop root")
                                                : tr("You"));
    setFieldHelp(m_user,
                 tr("The login name (or uid) the workload runs as. Only an idlegpu running as root can run "
                    "workloads as other users; without one, a workload of a root idlegpu runs as root."),
                 processKey("user"));
    form->addRow(tr("Run as user:"), m_user);
    m_messages.insert(QStringLiteral("user"), addMessage(form, QStringLiteral("userError")));

    m_dir = new QLineEdit;
    m_dir->setObjectName(QStringLiteral("dirEdit"));
    m_dir->setPlaceholderText(tr("Home folder"));
    setFieldHelp(m_dir, tr("The folder the command starts in."), processKey("dir"));
    QPushButton *browseDir = button(tr("Browse…"), QStringLiteral("browseDirButton"));
    form->addRow(tr("Working folder:"), row(m_dir, {browseDir}));
    m_messages.insert(QStringLiteral("dir"), addMessage(form, QStringLiteral("dirError")));

    m_workloadGpus = new GpuPicker(QStringLiteral("workloadGpus"), onEdit);
    setFieldHelp(m_workloadGpus, tr("The GPUs the workload runs on; it starts when all of them are free."),
                 processKey("gpus"));
    form->addRow(tr("GPUs:"), m_workloadGpus);
    m_messages.insert(QStringLiteral("gpus"), addMessage(form, QStringLiteral("workloadGpusError")));

    m_log = new QLineEdit;
    m_log->setObjectName(QStringLiteral("logEdit"));
    m_log->setPlaceholderText(tr("idlegpu's own log"));
    setFieldHelp(m_log, tr("Where the workload's output goes."), processKey("log"));
    QPushButton *browseLog = button(tr("Browse…"), QStringLiteral("browseLogButton"));
    form->addRow(tr("Log file:"), row(m_log, {browseLog}));
    m_messages.insert(QStringLiteral("log"), addMessage(form, QStringLiteral("logError")));

    m_envTable = new QTableWidget(0, 2);
    m_envTable->setObjectName(QStringLiteral("envTable"));
    m_envTable->setHorizontalHeaderLabels({tr("Variable"), tr("Value")});
    m_envTable->horizontalHeader()->setStretchLastSection(true);
    m_envTable->verticalHeader()->hide();
    m_envTable->setMinimumHeight(90);
    setFieldHelp(m_envTable, tr("Variables set for the workload, on top of idlegpu's own environment."),
                 processKey("env"));
    QPushButton *addEnv = button(tr("Add"), QStringLiteral("addEnvButton"));
    QPushButton *removeEnv = button(tr("Remove"), QStringLiteral("removeEnvButton"));
    auto *envButtons = new QWidget;
    auto *envButtonsLayout = new QVBoxLayout(envButtons);
    envButtonsLayout->setContentsMargins(0, 0, 0, 0);
    envButtonsLayout->addWidget(addEnv);
    envButtonsLayout->addWidget(removeEnv);
    envButtonsLayout->addStretch(1);
    m_envStack = withEmptyText(m_envTable,
                               tr("No variables of its own: the workload gets idlegpu's environment, and "
                                  "CUDA_VISIBLE_DEVICES for its GPUs. Press Add to set one."),
                               QStringLiteral("envTableEmpty"));
    m_envStack->setMinimumHeight(90);
    form->addRow(tr("Environment:"), row(m_envStack, {envButtons}));
    m_messages.insert(QStringLiteral("env"), addMessage(form, QStringLiteral("envError")));
    connect(addEnv, &QPushButton::clicked, this, [this] {
        const int newRow = m_envTable->rowCount();
        m_envTable->insertRow(newRow);
        showEmptyText(m_envStack, false);
        m_envTable->setCurrentCell(newRow, 0);
        m_envTable->editItem(m_envTable->item(newRow, 0));
    });
    connect(removeEnv, &QPushButton::clicked, this, [this] {
        if (m_envTable->currentRow() >= 0)
            m_envTable->removeRow(m_envTable->currentRow());
        showEmptyText(m_envStack, m_envTable->rowCount() == 0);
        readEnvTable();
    });
    connect(m_envTable, &QTableWidget::itemChanged, this, &WorkloadsSettingsPage::readEnvTable);

    m_stopTimeout = secondsSpinBox("stop_timeout_seconds", QStringLiteral("stopTimeoutSpin"));
    setFieldHelp(m_stopTimeout, tr("After asking the workload to stop (SIGTERM), how long to wait before killing it."),
                 processKey("stop_timeout_seconds"));
    form->addRow(tr("Stop timeout:"), m_stopTimeout);
    m_messages.insert(QStringLiteral("stopTimeout"), addMessage(form, QStringLiteral("stopTimeoutError")));

    m_priority = new QComboBox;
    m_priority->setObjectName(QStringLiteral("priorityCombo"));
    for (const ConfigWord<WorkloadPriority> &priority : ConfigWords<WorkloadPriority>::words)
        m_priority->addItem(priorityLabel(priority.value), int(priority.value));
    setFieldHelp(m_priority,
                 tr("How the workload's processes share the CPU with your programs. Idle (SCHED_IDLE, "
                    "nice 19, idle I/O) keeps its CPU threads from ever slowing the desktop or your jobs."),
                 processKey("priority"));
    form->addRow(tr("CPU priority:"), m_priority);
    connect(m_priority, &QComboBox::currentIndexChanged, this, onEdit);

    m_enabled = new QCheckBox(tr("Enabled (run it when its GPUs are free)"));
    m_enabled->setObjectName(QStringLiteral("enabledCheck"));
    setFieldHelp(m_enabled, QString(), processKey("enabled"));
    form->addRow(QString(), m_enabled);

    QPushButton *testRunButton = button(QString(), QStringLiteral("testRunButton"));
    auto *testRunOutput = new QPlainTextEdit;
    testRunOutput->setObjectName(QStringLiteral("testRunOutput"));
    testRunOutput->setReadOnly(true);
    testRunOutput->setMaximumBlockCount(2000);
    testRunOutput->setMinimumHeight(80);
    testRunOutput->setPlaceholderText(tr("The output of a test run shows here."));
    form->addRow(testRunButton, testRunOutput);
    m_testRun = new TestRun(testRunButton, testRunOutput, this);
    connect(testRunButton, &QPushButton::clicked, this, &WorkloadsSettingsPage::startOrStopTestRun);

    for (QLineEdit *edit : {m_name, m_cmd, m_startCmd, m_stopCmd, m_servicePrograms, m_user, m_dir, m_log})
        connect(edit, &QLineEdit::textChanged, this, onEdit);
    for (QSpinBox *spin : {m_commandTimeout, m_stopTimeout})
        connect(spin, &QSpinBox::valueChanged, this, onEdit);
    connect(m_kind, &QComboBox::currentIndexChanged, this, [this, onEdit] {
        showKindRows(m_kind->currentData().toBool());
        onEdit();
    });
    showKindRows(false);
    connect(m_enabled, &QCheckBox::toggled, this, onEdit);
    connect(browseCmd, &QPushButton::clicked, this, &WorkloadsSettingsPage::browseCommand);
    connect(browseDir, &QPushButton::clicked, this, &WorkloadsSettingsPage::browseFolder);
    connect(browseLog, &QPushButton::clicked, this, &WorkloadsSettingsPage::browseLog);

    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(m_workloadEditor);
    layout->addWidget(scroll, 3);
}

void WorkloadsSettingsPage::load(const SettingsDraft &draft)
{
    const int row = m_workloadList->currentRow();
    m_workloads = draft.workloads;
    m_filling = true;
    m_workloadList->clear();
    for (int i = 0; i < m_workloads.size(); ++i)
        m_workloadList->addItem(QString());
    m_workloadList->setCurrentRow(m_workloads.isEmpty() ? -1 : qBound(0, row, int(m_workloads.size()) - 1));
    m_filling = false;
    showWorkload(m_workloadList->currentRow());
}

void WorkloadsSettingsPage::store(SettingsDraft &draft) const
{
    draft.workloads = m_workloads;
}

void WorkloadsSettingsPage::showProblems(const QList<SettingsProblem> &problems)
{
    showMessages(m_messages, problems, SettingsProblem::Workloads, m_workloadList->currentRow());
    showEmptyText(m_workloadStack, m_workloads.isEmpty());
    const QIcon errorIcon = style()->standardIcon(QStyle::SP_MessageBoxCritical);
    for (int i = 0; i < m_workloadList->count() && i < m_workloads.size(); ++i) {
        const WorkloadDraft &w = m_workloads.at(i);
        QListWidgetItem *item = m_workloadList->item(i);
        item->setText(w.enabled ? w.name : tr("%1 (disabled)").arg(w.name));
        const bool hasError = std::any_of(problems.cbegin(), problems.cend(), [i](const SettingsProblem &p) {
            return p.page == SettingsProblem::Workloads && p.item == i && p.severity == SettingsProblem::Error;
        });
        item->setIcon(hasError ? errorIcon : QIcon());
    }
}

void WorkloadsSettingsPage::setPresentGpus(const QList<int> &present)
{
    m_presentGpus = present;
    m_filling = true;
    m_workloadGpus->setPresent(present);
    m_filling = false;
}

void WorkloadsSettingsPage::setGpuIdentities(const QList<GpuDevice> &devices, const QHash<int, QString> &uuids)
{
    m_gpuDevices = devices;
    m_gpuUuids = uuids;
}

void WorkloadsSettingsPage::stopTestRun()
{
    m_testRun->stop(QString());
}

void WorkloadsSettingsPage::startOrStopTestRun()
{
    if (m_testRun->isRunning()) {
        m_testRun->stop(tr("— stopped —"));
        return;
    }
    const int row = m_workloadList->currentRow();
    if (row < 0 || row >= m_workloads.size())
        return;
    m_testRun->start(DraftRules::workloadConfig(m_workloads.at(row)),
                     {ProcessRunner::defaultReaperPath(), m_gpuUuids, m_gpuDevices, UserLookup::system()});
}

void WorkloadsSettingsPage::showWorkload(int row)
{
    m_filling = true;
    const bool valid = row >= 0 && row < m_workloads.size();
    m_workloadEditor->setEnabled(valid);
    const WorkloadDraft w = valid ? m_workloads.at(row) : WorkloadDraft();
    m_name->setText(w.name);
    m_cmd->setText(w.cmd);
    m_kind->setCurrentIndex(w.controlsService ? 1 : 0);
    showKindRows(w.controlsService);
    m_startCmd->setText(w.startCmd);
    m_stopCmd->setText(w.stopCmd);
    setSeconds(m_commandTimeout, w.commandTimeout);
    m_servicePrograms->setText(w.servicePrograms);
    m_user->setText(w.user);
    m_dir->setText(w.dir);
    m_workloadGpus->setPresent(m_presentGpus);
    m_workloadGpus->setSelection(w.gpus);
    m_log->setText(w.log);
    m_envTable->setRowCount(0);
    for (const auto &[key, value] : w.env) {
        const int r = m_envTable->rowCount();
        m_envTable->insertRow(r);
        m_envTable->setItem(r, 0, new QTableWidgetItem(key));
        m_envTable->setItem(r, 1, new QTableWidgetItem(value));
    }
    showEmptyText(m_envStack, w.env.isEmpty());
    setSeconds(m_stopTimeout, w.stopTimeout);
    m_priority->setCurrentIndex(qMax(0, m_priority->findData(int(w.priority))));
    m_enabled->setChecked(w.enabled);
    const std::optional<WorkloadTemplate> madeFrom = WorkloadTemplates::find(w.templateId, QDir::homePath());
    m_templateHelp->setText(madeFrom ? madeFrom->explanation : QString());
    m_templateHelp->setVisible(madeFrom.has_value());
    m_filling = false;
}

void WorkloadsSettingsPage::showKindRows(bool controlsService)
{
    m_form->setRowVisible(m_cmdRow, !controlsService);
    for (QWidget *field : {static_cast<QWidget *>(m_startCmd), static_cast<QWidget *>(m_stopCmd),
                           static_cast<QWidget *>(m_commandTimeout)})
        m_form->setRowVisible(field, controlsService);
}

void WorkloadsSettingsPage::readWorkload()
{
    const int row = m_workloadList->currentRow();
    if (m_filling || row < 0 || row >= m_workloads.size())
        return;
    WorkloadDraft &w = m_workloads[row];
    w.name = m_name->text();
    w.cmd = m_cmd->text();
    w.controlsService = m_kind->currentData().toBool();
    w.startCmd = m_startCmd->text();
    w.stopCmd = m_stopCmd->text();
    storeSeconds(m_commandTimeout, w.commandTimeout);
    w.servicePrograms = m_servicePrograms->text();
    w.user = m_user->text();
    w.dir = m_dir->text();
    w.gpus = m_workloadGpus->selection();
    w.log = m_log->text();
    storeSeconds(m_stopTimeout, w.stopTimeout);
    w.priority = WorkloadPriority(m_priority->currentData().toInt());
    w.enabled = m_enabled->isChecked();
    Q_EMIT edited();
}

void WorkloadsSettingsPage::readEnvTable()
{
    const int row = m_workloadList->currentRow();
    if (m_filling || row < 0 || row >= m_workloads.size())
        return;
    QList<QPair<QString, QString>> env;
    for (int r = 0; r < m_envTable->rowCount(); ++r) {
        const QTableWidgetItem *key = m_envTable->item(r, 0);
        const QTableWidgetItem *value = m_envTable->item(r, 1);
        const QString keyText = key ? key->text().trimmed() : QString();
        const QString valueText = value ? value->text() : QString();
        if (!keyText.isEmpty() || !valueText.isEmpty())
            env.append({keyText, valueText});
    }
    m_workloads[row].env = env;
    Q_EMIT edited();
}

void WorkloadsSettingsPage::addWorkload(const QString &templateId)
{
    const std::optional<WorkloadTemplate> chosen = WorkloadTemplates::find(templateId, QDir::homePath());
    if (!chosen)
        return;
    QStringList names;
    for (const WorkloadDraft &other : std::as_const(m_workloads))
        names.append(other.name.trimmed());
    m_workloads.append(WorkloadTemplates::withUniqueName(chosen->draft, names));
    m_workloadList->addItem(QString());
    m_workloadList->setCurrentRow(m_workloadList->count() - 1);
    m_name->setFocus();
    m_name->selectAll();
}

void WorkloadsSettingsPage::duplicateWorkload()
{
    const int row = m_workloadList->currentRow();
    if (row < 0 || row >= m_workloads.size())
        return;
    WorkloadDraft copy = m_workloads.at(row);
    copy.id.clear();
    copy.name = tr("%1 (copy)").arg(copy.name.trimmed());
    m_workloads.insert(row + 1, copy);
    m_filling = true;
    m_workloadList->insertItem(row + 1, QString());
    m_filling = false;
    m_workloadList->setCurrentRow(row + 1);
}

void WorkloadsSettingsPage::removeWorkload()
{
    const int row = m_workloadList->currentRow();
    if (row < 0 || row >= m_workloads.size())
        return;
    m_workloads.removeAt(row);
    m_filling = true;
    delete m_workloadList->takeItem(row);
    m_filling = false;
    showWorkload(m_workloadList->currentRow());
    Q_EMIT edited();
}

void WorkloadsSettingsPage::moveWorkload(int by)
{
    const int row = m_workloadList->currentRow();
    const int target = row + by;
    if (row < 0 || target < 0 || target >= m_workloads.size())
        return;
    m_workloads.move(row, target);
    m_filling = true;
    m_workloadList->setCurrentRow(target);
    m_filling = false;
    showWorkload(target);
    Q_EMIT edited();
}

void WorkloadsSettingsPage::browseCommand()
{
    const QString program = QFileDialog::getOpenFileName(this, tr("Choose the program to run"),
                                                         QFileInfo(m_dir->text()).isDir() ? m_dir->text()
                                                                                          : QDir::homePath());
    if (program.isEmpty())
        return;
    // The program replaces the first word; the arguments stay.
    QString error;
    const std::optional<QStringList> words = splitCommand(m_cmd->text(), &error);
    QStringList quoted{DraftRules::shellQuote(program)};
    if (words && !words->isEmpty())
        for (const QString &word : words->mid(1))
            quoted.append(DraftRules::shellQuote(word));
    m_cmd->setText(quoted.join(QLatin1Char(' ')));
}

void WorkloadsSettingsPage::browseFolder()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Choose the working folder"),
                                                             m_dir->text().isEmpty() ? QDir::homePath() : m_dir->text());
    if (!folder.isEmpty())
        m_dir->setText(folder);
}

void WorkloadsSettingsPage::browseLog()
{
    const QString log = QFileDialog::getSaveFileName(this, tr("Choose the log file"),
                                                     m_log->text().isEmpty() ? QDir::homePath() : m_log->text(),
                                                     QString(), nullptr, QFileDialog::DontConfirmOverwrite);
    if (!log.isEmpty())
        m_log->setText(log);
}
