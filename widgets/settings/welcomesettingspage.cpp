// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "settings/welcomesettingspage.h"

#include "policy/policy.h"
#include "settings/gpupicker.h"
#include "settings/workloadtemplates.h"

#include <QComboBox>
#include <QFrame>
#include <QDir>
#include <QFormLayout>
#include <QGroupBox>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

#include <unistd.h>

#include <algorithm>

namespace {

const QString kCustomTemplate = QStringLiteral("custom");

// What the table calls a GPU: the vendor library's name (NVIDIA), the PCI device (AMD, Intel), else its node.
QString gpuName(const GpuDevice &device, const MonitorState &state)
{
    const auto info = state.gpuMetrics.gpus.constFind(device.index);
    if (info != state.gpuMetrics.gpus.cend() && !info->name.isEmpty())
        return info->name;
    if (!device.describe().isEmpty())
        return device.describe();
    return device.vendor == GpuVendor::Nvidia ? WelcomeSettingsPage::tr("NVIDIA GPU (%1)").arg(device.path)
                                              : device.path;
}

// Who holds the GPU now; programs idlegpu ignores on it (the display server, nvidia-smi) are marked so.
QString gpuUsers(int gpu, const MonitorState &state)
{
    const QStringList ignored = state.config.ignoredProgramsFor(gpu);
    QStringList users;
    for (const Holder &holder : state.snapshot.holders) {
        if (!holder.gpus.contains(gpu))
            continue;
        const bool isIgnored = std::any_of(ignored.cbegin(), ignored.cend(), [&holder](const QString &program) {
            return Policy::matchesProgram(holder, program);
        });
        users.append(isIgnored ? WelcomeSettingsPage::tr("%1, ignored").arg(holder.describe()) : holder.describe());
    }
    return users.isEmpty() ? WelcomeSettingsPage::tr("free") : users.join(QStringLiteral("; "));
}

} // namespace

WelcomeSettingsPage::WelcomeSettingsPage(QWidget *parent) : SettingsPage(parent)
{
    auto *layout = new QVBoxLayout(this);

    auto *title = new QLabel(tr("Welcome to idlegpu"));
    QFont titleFont = title->font();
    titleFont.setPointSizeF(titleFont.pointSizeF() * 1.4);
    titleFont.setBold(true);
    title->setFont(titleFont);
    layout->addWidget(title);
    auto *intro = new QLabel(
        tr("idlegpu runs a workload of your choice (a BOINC or Folding@home client, a miner, any "
           "batch job) on the GPUs nobody uses, and stops it the moment one of your own programs "
           "opens the GPU. Nothing is set up yet: choose what to run, then press Save and start."));
    intro->setObjectName(QStringLiteral("welcomeIntro"));
    intro->setWordWrap(true);
    layout->addWidget(intro);

    auto *gpuBox = new QGroupBox(tr("GPUs found"));
    auto *gpuLayout = new QVBoxLayout(gpuBox);
    m_gpuTable = new QTableWidget(0, 3);
    m_gpuTable->setObjectName(QStringLiteral("welcomeGpuTable"));
    m_gpuTable->setHorizontalHeaderLabels({tr("GPU"), tr("Name"), tr("In use now by")});
    m_gpuTable->horizontalHeader()->setSectionResizeMode(0, QHeaderView::ResizeToContents);
    m_gpuTable->horizontalHeader()->setSectionResizeMode(1, QHeaderView::ResizeToContents);
    m_gpuTable->horizontalHeader()->setStretchLastSection(true);
    m_gpuTable->verticalHeader()->hide();
    m_gpuTable->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_gpuTable->setSelectionMode(QAbstractItemView::NoSelection);
    // Tab leaves the table (a table's Tab moves between its cells and wraps round: the page's other controls were out
    // of reach by keyboard).
    m_gpuTable->setTabKeyNavigation(false);
    m_gpuTable->setMaximumHeight(130);
    gpuLayout->addWidget(m_gpuTable);
    m_noGpu = new QLabel;
    m_noGpu->setObjectName(QStringLiteral("welcomeNoGpu"));
    m_noGpu->setWordWrap(true);
    m_noGpu->hide();
    gpuLayout->addWidget(m_noGpu);
    layout->addWidget(gpuBox);

    auto *workloadBox = new QGroupBox(tr("Your first workload"));
    auto *form = new QFormLayout(workloadBox);
    m_template = new QComboBox;
    m_template->setObjectName(QStringLiteral("welcomeTemplateCombo"));
    for (const WorkloadTemplate &choice : WorkloadTemplates::all(QDir::homePath()))
        m_template->addItem(choice.title, choice.id);
    form->addRow(tr("Start from:"), m_template);
    m_templateHelp = templateExplanation(QStringLiteral("welcomeTemplateHelp"));
    form->addRow(m_templateHelp);

    m_name = new QLineEdit;
    m_name->setObjectName(QStringLiteral("welcomeNameEdit"));
    form->addRow(tr("Name:"), m_name);
    m_messages.insert(QStringLiteral("name"), addMessage(form, QStringLiteral("welcomeNameError")));
    m_cmd = new QLineEdit;
    m_cmd->setObjectName(QStringLiteral("welcomeCmdEdit"));
    m_cmd->setToolTip(tr("Split into words like a shell does (quotes, backslashes), but no shell runs: write "
                         "sh -c '…' for pipes or variables."));
    form->addRow(tr("Command:"), m_cmd);
    m_messages.insert(QStringLiteral("cmd"), addMessage(form, QStringLiteral("welcomeCmdError")));
    m_gpus = new GpuPicker(QStringLiteral("welcomeGpus"), [this] { readFields(); });
    form->addRow(tr("GPUs:"), m_gpus);
    m_messages.insert(QStringLiteral("gpus"), addMessage(form, QStringLiteral("welcomeGpusError")));
    // A root idlegpu (a system service, gpu_mon's way) runs a workload without a user as root: the first thing such
    // an admin wants to say is whom it runs as. Without root the workload runs as you, and there is nothing to ask.
    m_user = new QLineEdit;
    m_user->setObjectName(QStringLiteral("welcomeUserEdit"));
    m_user->setPlaceholderText(tr("root (idlegpu runs as root): enter a user to drop root"));
    form->addRow(tr("Run as user:"), m_user);
    form->setRowVisible(m_user, ::geteuid() == 0);
    m_messages.insert(QStringLiteral("user"), addMessage(form, QStringLiteral("welcomeUserError")));
    // The template's other fields (folder, log, stop timeout) need no word here; they show on the Workloads page.
    m_messages.insert(QStringLiteral("dir"), addMessage(form, QStringLiteral("welcomeDirError")));
    m_messages.insert(QStringLiteral("log"), addMessage(form, QStringLiteral("welcomeLogError")));
    layout->addWidget(workloadBox);

    auto *more = new QLabel(tr("The working folder, log file, environment and the rules for when to pause are on the "
                               "other pages. Nothing runs until you save; then idlegpu starts the workload as soon as "
                               "its GPUs are free."));
    more->setWordWrap(true);
    layout->addWidget(more);
    m_savedText = new QLabel;
    m_savedText->setObjectName(QStringLiteral("welcomeSavedText"));
    m_savedText->setWordWrap(true);
    m_savedText->setFrameShape(QFrame::StyledPanel);
    m_savedText->setMargin(8);
    m_savedText->hide();
    layout->addWidget(m_savedText);
    layout->addStretch(1);
    m_setUp = {intro, workloadBox, more};

    connect(m_template, &QComboBox::activated, this, &WelcomeSettingsPage::applyTemplate);
    connect(m_name, &QLineEdit::textEdited, this, &WelcomeSettingsPage::readFields);
    connect(m_cmd, &QLineEdit::textEdited, this, &WelcomeSettingsPage::readFields);
    connect(m_user, &QLineEdit::textEdited, this, &WelcomeSettingsPage::readFields);

    load(SettingsDraft());
}

void WelcomeSettingsPage::load(const SettingsDraft &draft)
{
    m_otherNames.clear();
    for (const WorkloadDraft &other : draft.workloads.mid(1))
        m_otherNames.append(other.name.trimmed());
    m_hasWorkload = !draft.workloads.isEmpty();
    if (m_hasWorkload)
        m_workload = draft.workloads.first();
    else
        m_workload = WorkloadTemplates::withUniqueName(
            WorkloadTemplates::find(kCustomTemplate, QDir::homePath()).value().draft, m_otherNames);
    showWorkload();
}

void WelcomeSettingsPage::store(SettingsDraft &draft) const
{
    if (!m_hasWorkload)
        return;
    if (draft.workloads.isEmpty()) {
        draft.workloads.append(m_workload);
        return;
    }
    WorkloadDraft first = m_workload;
    first.id = draft.workloads.first().id;
    draft.workloads.first() = first;
}

void WelcomeSettingsPage::showProblems(const QList<SettingsProblem> &problems)
{
    // The first workload's problems, once there is one (an untouched page has nothing to fix).
    showMessages(m_messages, m_hasWorkload ? problems : QList<SettingsProblem>(), SettingsProblem::Workloads, 0);
}

void WelcomeSettingsPage::setMonitorState(const MonitorState &state)
{
    const QList<GpuDevice> &gpus = state.snapshot.devices.gpus;
    m_gpuTable->setRowCount(int(gpus.size()));
    for (int row = 0; row < gpus.size(); ++row) {
        const GpuDevice &device = gpus.at(row);
        m_gpuTable->setItem(row, 0, new QTableWidgetItem(QString::number(device.index)));
        m_gpuTable->setItem(row, 1, new QTableWidgetItem(gpuName(device, state)));
        m_gpuTable->setItem(row, 2, new QTableWidgetItem(gpuUsers(device.index, state)));
    }
    m_gpuTable->setVisible(!gpus.isEmpty());
    m_noGpu->setText(tr("No GPU found under %1: idlegpu looks for NVIDIA device nodes (nvidia0, nvidia1, …) and the "
                        "render nodes of AMD and Intel GPUs (dri/renderD128, …). Check that the driver is loaded; "
                        "idlegpu notices a GPU when its node appears.")
                         .arg(state.config.deviceRoot));
    m_noGpu->setVisible(gpus.isEmpty());
    m_filling = true;
    m_gpus->setPresent(state.snapshot.devices.indices());
    m_filling = false;
}

void WelcomeSettingsPage::showSaved(const QString &whatHappensNext)
{
    for (QWidget *widget : std::as_const(m_setUp))
        widget->hide();
    m_savedText->setText(whatHappensNext);
    m_savedText->show();
}

void WelcomeSettingsPage::applyTemplate(int comboIndex)
{
    const std::optional<WorkloadTemplate> chosen =
        WorkloadTemplates::find(m_template->itemData(comboIndex).toString(), QDir::homePath());
    if (!chosen)
        return;
    WorkloadDraft workload = WorkloadTemplates::withUniqueName(chosen->draft, m_otherNames);
    workload.gpus = m_workload.gpus; // the GPUs already chosen stay
    workload.user = m_workload.user;
    m_workload = workload;
    m_hasWorkload = true;
    showWorkload();
    Q_EMIT edited();
}

void WelcomeSettingsPage::readFields()
{
    if (m_filling)
        return;
    m_workload.name = m_name->text();
    m_workload.cmd = m_cmd->text();
    m_workload.user = m_user->text().trimmed();
    m_workload.gpus = m_gpus->selection();
    m_hasWorkload = true;
    Q_EMIT edited();
}

void WelcomeSettingsPage::showWorkload()
{
    m_filling = true;
    const QString templateId = m_workload.templateId.isEmpty() ? kCustomTemplate : m_workload.templateId;
    const int index = m_template->findData(templateId);
    m_template->setCurrentIndex(qMax(0, index));
    const std::optional<WorkloadTemplate> madeFrom = WorkloadTemplates::find(templateId, QDir::homePath());
    m_templateHelp->setText(madeFrom ? madeFrom->explanation : QString());
    if (m_name->text() != m_workload.name)
        m_name->setText(m_workload.name);
    if (m_cmd->text() != m_workload.cmd)
        m_cmd->setText(m_workload.cmd);
    if (m_user->text() != m_workload.user)
        m_user->setText(m_workload.user);
    m_gpus->setSelection(m_workload.gpus);
    m_filling = false;
}
