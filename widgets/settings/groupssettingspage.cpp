// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "settings/groupssettingspage.h"

#include "config/configkeys.h"
#include "settings/gpupicker.h"

#include <QComboBox>
#include <QFormLayout>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPushButton>
#include <QSpinBox>
#include <QStackedWidget>
#include <QStyle>
#include <QVBoxLayout>

#include <algorithm>

// What each busy_when value means, in the combo box.
static const KeyRow &busyMemoryMibRow()
{
    return ConfigKeys::row(QStringLiteral("gpu-*"), QStringLiteral("busy_memory_mib"));
}

static QString busyWhenLabel(BusyWhen rule)
{
    switch (rule) {
    case BusyWhen::Auto:
        return GroupsSettingsPage::tr("A compute program opens it, or a graphics program uses a large share of it");
    case BusyWhen::Opened: return GroupsSettingsPage::tr("Any program opens it");
    case BusyWhen::Computes: return GroupsSettingsPage::tr("A program computes on it");
    case BusyWhen::Memory: return GroupsSettingsPage::tr("A program uses at least this much of its memory:");
    }
    return QString();
}

// A [gpu-*] key as a gpu_mon user finds it in a group's section: "[gpu-…] ignore_programs".
static QString groupKey(const char *key)
{
    return QStringLiteral("[gpu-…] %1").arg(QLatin1String(key));
}

GroupsSettingsPage::GroupsSettingsPage(QWidget *parent) : SettingsPage(parent)
{
    auto *layout = new QHBoxLayout(this);

    auto *left = new QVBoxLayout;
    m_groupList = new QListWidget;
    m_groupList->setObjectName(QStringLiteral("groupList"));
    m_groupListStack = withEmptyText(m_groupList, tr("No GPU groups."), QStringLiteral("groupListEmpty"));
    left->addWidget(m_groupListStack, 1);
    QPushButton *add = button(tr("Add"), QStringLiteral("addGroupButton"));
    QPushButton *remove = button(tr("Remove"), QStringLiteral("removeGroupButton"));
    left->addWidget(row(add, {remove}));
    layout->addLayout(left, 1);
    connect(add, &QPushButton::clicked, this, &GroupsSettingsPage::addGroup);
    connect(remove, &QPushButton::clicked, this, &GroupsSettingsPage::removeGroup);
    connect(m_groupList, &QListWidget::currentRowChanged, this, [this](int row) {
        if (m_filling)
            return;
        showGroup(row);
        Q_EMIT edited(); // the messages of the group now shown
    });

    m_groupEditor = new QWidget;
    auto *form = new QFormLayout(m_groupEditor);
    form->setContentsMargins(0, 0, 0, 0);
    auto *about = new QLabel(tr("A program on one of these GPUs makes idlegpu stop the workloads there, unless "
                                "it is one of the ignored programs."));
    about->setWordWrap(true);
    form->addRow(about);
    m_groupGpus = new GpuPicker(QStringLiteral("groupGpus"), [this] { readGroup(); });
    setFieldHelp(m_groupGpus, tr("The GPUs this group's rules apply to."), groupKey("gpus"));
    form->addRow(tr("GPUs:"), m_groupGpus);
    m_messages.insert(QStringLiteral("gpus"), addMessage(form, QStringLiteral("groupGpusError")));

    m_ignoreList = new QListWidget;
    m_ignoreList->setObjectName(QStringLiteral("ignoreList"));
    setFieldHelp(m_ignoreList,
                 tr("Programs that may hold these GPUs without stopping a workload: whole program names. The word "
                    "@builtin stands for the built-in list."),
                 groupKey("ignore_programs"));
    m_ignoreStack = withEmptyText(
        m_ignoreList,
        tr("None given: the built-in list applies (%1).").arg(builtinIgnoredPrograms().join(QStringLiteral(", "))),
        QStringLiteral("ignoreListEmpty"));
    form->addRow(tr("Ignored programs:"), m_ignoreStack);
    m_ignoreEdit = new QLineEdit;
    m_ignoreEdit->setObjectName(QStringLiteral("ignoreEdit"));
    m_ignoreEdit->setPlaceholderText(tr("A program name, such as nvidia-smi"));
    setFieldHelp(m_ignoreEdit, QString(), groupKey("ignore_programs"));
    QPushButton *addIgnore = button(tr("Add"), QStringLiteral("addIgnoreButton"));
    QPushButton *removeIgnore = button(tr("Remove"), QStringLiteral("removeIgnoreButton"));
    form->addRow(QString(), row(m_ignoreEdit, {addIgnore, removeIgnore}));
    QPushButton *addFromHolders = button(tr("Add from current holders"), QStringLiteral("addFromHoldersButton"));
    m_holdersMenu = new QMenu(addFromHolders);
    m_holdersMenu->setObjectName(QStringLiteral("holdersMenu"));
    addFromHolders->setMenu(m_holdersMenu);
    form->addRow(QString(), row(new QWidget, {addFromHolders}));
    m_messages.insert(QStringLiteral("ignore"), addMessage(form, QStringLiteral("ignoreError")));

    // busy_when: the item data is the key's word; the first item writes no key (the default, auto). A file's
    // explicit auto keeps its own item, so that an edit elsewhere in the group does not remove the key.
    m_busyWhen = new QComboBox;
    m_busyWhen->setObjectName(QStringLiteral("busyWhen"));
    m_busyWhen->addItem(tr("A compute program opens it, or a graphics program uses a large share of it (default)"),
                        QString());
    for (const ConfigWord<BusyWhen> &rule : ConfigWords<BusyWhen>::words)
        m_busyWhen->addItem(busyWhenLabel(rule.value), QLatin1String(rule.word));
    setFieldHelp(m_busyWhen,
                 tr("An open device node is the earliest and safest sign of a new job, but the desktop, "
                    "browsers and video players keep the GPU that drives the display open all day. "
                    "Waiting for a program to compute or to take memory lets them leave the workload "
                    "running, but the workload is then stopped a little later: up to a fifth of a "
                    "second after the job's first compute context, which needs NVML."),
                 groupKey("busy_when"));
    form->addRow(tr("The GPU is busy when:"), m_busyWhen);
    auto *clientKinds = new QLabel(tr("Compute programs (CUDA, ROCm: they open nvidia-uvm or /dev/kfd) count at "
                                      "once; graphics programs (the desktop, a browser, a video player) only while "
                                      "NVML or the driver measures them using this much of the GPU or its memory."));
    clientKinds->setObjectName(QStringLiteral("clientKindsHint"));
    clientKinds->setWordWrap(true);
    form->addRow(clientKinds); // spanning: a wrapped label in the field column gets too much height
    m_graphicsBusyPercent = new QSpinBox;
    m_graphicsBusyPercent->setObjectName(QStringLiteral("graphicsBusyPercent"));
    const KeyRow &graphicsBusyPercent = ConfigKeys::row(QStringLiteral("gpu-*"), QStringLiteral("graphics_busy_percent"));
    m_graphicsBusyPercent->setRange(int(graphicsBusyPercent.range.min), int(graphicsBusyPercent.range.max));
    m_graphicsBusyPercent->setSuffix(tr(" %"));
    m_graphicsBusyPercent->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    setFieldHelp(m_graphicsBusyPercent, tr("A graphics program makes the GPU busy once it uses this share of it."),
                 groupKey("graphics_busy_percent"));
    form->addRow(tr("A graphics program makes it busy at:"), m_graphicsBusyPercent);
    m_busyMemoryMib = new QSpinBox;
    m_busyMemoryMib->setObjectName(QStringLiteral("busyMemoryMib"));
    const ConfigRange busyMemoryMib = busyMemoryMibRow().range;
    m_busyMemoryMib->setRange(int(busyMemoryMib.min), int(busyMemoryMib.max));
    m_busyMemoryMib->setSuffix(tr(" MiB"));
    m_busyMemoryMib->setSizePolicy(QSizePolicy::Maximum, QSizePolicy::Fixed);
    setFieldHelp(m_busyMemoryMib, tr("A program makes the GPU busy once it uses this much of its memory."),
                 groupKey("busy_memory_mib"));
    form->addRow(tr("Or when it uses this much memory:"), m_busyMemoryMib);
    connect(m_busyWhen, &QComboBox::currentIndexChanged, this, [this] { readGroup(); });
    connect(m_graphicsBusyPercent, &QSpinBox::valueChanged, this, [this] { readGroup(); });
    connect(m_busyMemoryMib, &QSpinBox::valueChanged, this, [this](int mib) {
        const int row = m_groupList->currentRow();
        if (m_filling || row < 0 || row >= m_groups.size())
            return;
        m_groups[row].busyMemoryMib = mib; // set by the user: written from now on
        m_groups[row].busyMemoryMibGiven = true;
        Q_EMIT edited();
    });

    connect(addIgnore, &QPushButton::clicked, this, [this] {
        addIgnoredProgram(m_ignoreEdit->text().trimmed());
        m_ignoreEdit->clear();
    });
    connect(m_ignoreEdit, &QLineEdit::returnPressed, addIgnore, &QPushButton::click);
    connect(removeIgnore, &QPushButton::clicked, this, [this] {
        delete m_ignoreList->currentItem();
        readGroup();
    });
    connect(m_holdersMenu, &QMenu::triggered, this,
            [this](QAction *action) { addIgnoredProgram(action->data().toString()); });
    // Without a group, the defaults apply to every GPU: said in words rather than shown as a greyed form.
    auto *noGroup = new QLabel(
        tr("No GPU groups: the same rules apply to every GPU. idlegpu ignores the programs of the built-in list "
           "(%1), and a GPU counts as busy when a compute program opens it, or when a graphics program uses %2 % "
           "of it or %3 MiB of its memory.\n\nAdd a group to give some GPUs rules of their own.")
            .arg(builtinIgnoredPrograms().join(QStringLiteral(", ")))
            .arg(GpuGroupConfig::kDefaultGraphicsBusyPercent)
            .arg(GpuGroupConfig::kDefaultGraphicsBusyMemoryMib));
    noGroup->setObjectName(QStringLiteral("noGroupText"));
    noGroup->setWordWrap(true);
    noGroup->setAlignment(Qt::AlignTop | Qt::AlignLeft);
    m_editorStack = new QStackedWidget;
    m_editorStack->addWidget(m_groupEditor);
    m_editorStack->addWidget(noGroup);
    layout->addWidget(m_editorStack, 2);
    rebuildHoldersMenu();
}

void GroupsSettingsPage::load(const SettingsDraft &draft)
{
    const int row = m_groupList->currentRow();
    m_groups = draft.groups;
    m_filling = true;
    m_groupList->clear();
    for (int i = 0; i < m_groups.size(); ++i)
        m_groupList->addItem(QString());
    m_groupList->setCurrentRow(m_groups.isEmpty() ? -1 : qBound(0, row, int(m_groups.size()) - 1));
    m_filling = false;
    showGroup(m_groupList->currentRow());
}

void GroupsSettingsPage::store(SettingsDraft &draft) const
{
    draft.groups = m_groups;
}

void GroupsSettingsPage::showProblems(const QList<SettingsProblem> &problems)
{
    showMessages(m_messages, problems, SettingsProblem::Groups, m_groupList->currentRow());
    showEmptyText(m_groupListStack, m_groups.isEmpty());
    showEmptyText(m_editorStack, m_groups.isEmpty());
    const QIcon errorIcon = style()->standardIcon(QStyle::SP_MessageBoxCritical);
    for (int i = 0; i < m_groupList->count() && i < m_groups.size(); ++i) {
        const GroupDraft &group = m_groups.at(i);
        const QString gpus = group.gpus.all ? tr("all GPUs") : tr("GPUs %1").arg(group.gpus.toString());
        QListWidgetItem *item = m_groupList->item(i);
        item->setText(group.id.isEmpty() ? tr("New group: %1").arg(gpus) : QStringLiteral("%1: %2").arg(group.id, gpus));
        const bool hasError = std::any_of(problems.cbegin(), problems.cend(), [i](const SettingsProblem &p) {
            return p.page == SettingsProblem::Groups && p.item == i && p.severity == SettingsProblem::Error;
        });
        item->setIcon(hasError ? errorIcon : QIcon());
    }
}

void GroupsSettingsPage::setPresentGpus(const QList<int> &present)
{
    m_presentGpus = present;
    m_filling = true;
    m_groupGpus->setPresent(present);
    m_filling = false;
}

void GroupsSettingsPage::setHolders(const QList<Holder> &holders)
{
    if (holders == m_holders)
        return; // not on every tick: the menu may be open
    m_holders = holders;
    rebuildHoldersMenu();
}

void GroupsSettingsPage::showGroup(int row)
{
    m_filling = true;
    const bool valid = row >= 0 && row < m_groups.size();
    m_groupEditor->setEnabled(valid);
    const GroupDraft group = valid ? m_groups.at(row) : GroupDraft();
    m_groupGpus->setPresent(m_presentGpus);
    m_groupGpus->setSelection(group.gpus);
    m_ignoreList->clear();
    m_ignoreList->addItems(group.ignorePrograms);
    showEmptyText(m_ignoreStack, group.ignorePrograms.isEmpty());
    m_busyWhen->setCurrentIndex(qMax(0, m_busyWhen->findData(group.busyWhen ? configWord(*group.busyWhen) : QString())));
    m_graphicsBusyPercent->setValue(group.graphicsBusyPercent);
    m_filling = false;
    showThresholds(group);
}

void GroupsSettingsPage::showThresholds(const GroupDraft &group)
{
    m_filling = true;
    // Not given: the default of the rule chosen, which changes with it.
    const ConfigRange range = busyMemoryMibRow().range;
    m_busyMemoryMib->setValue(int(qBound(range.min, group.effectiveBusyMemoryMib(), range.max)));
    m_busyMemoryMib->setEnabled(group.usesBusyMemory());
    m_graphicsBusyPercent->setEnabled(group.usesGraphicsPercent());
    m_filling = false;
}

void GroupsSettingsPage::readGroup()
{
    const int row = m_groupList->currentRow();
    if (m_filling || row < 0 || row >= m_groups.size())
        return;
    GroupDraft &group = m_groups[row];
    group.gpus = m_groupGpus->selection();
    group.ignorePrograms.clear();
    for (int i = 0; i < m_ignoreList->count(); ++i)
        group.ignorePrograms.append(m_ignoreList->item(i)->text());
    showEmptyText(m_ignoreStack, group.ignorePrograms.isEmpty());
    group.busyWhen = configValue<BusyWhen>(m_busyWhen->currentData().toString()); // the first item: none
    group.graphicsBusyPercent = m_graphicsBusyPercent->value();
    showThresholds(group);
    Q_EMIT edited();
}

void GroupsSettingsPage::addGroup()
{
    GroupDraft group;
    group.ignorePrograms = {QStringLiteral("nvidia-smi")};
    m_groups.append(group);
    m_groupList->addItem(QString());
    m_groupList->setCurrentRow(m_groupList->count() - 1);
}

void GroupsSettingsPage::removeGroup()
{
    const int row = m_groupList->currentRow();
    if (row < 0 || row >= m_groups.size())
        return;
    m_groups.removeAt(row);
    m_filling = true;
    delete m_groupList->takeItem(row);
    m_filling = false;
    showGroup(m_groupList->currentRow());
    Q_EMIT edited();
}

void GroupsSettingsPage::addIgnoredProgram(const QString &program)
{
    if (program.isEmpty() || !m_groupEditor->isEnabled())
        return;
    for (int i = 0; i < m_ignoreList->count(); ++i)
        if (m_ignoreList->item(i)->text() == program)
            return;
    m_ignoreList->addItem(program);
    readGroup();
}

void GroupsSettingsPage::rebuildHoldersMenu()
{
    m_holdersMenu->clear();
    QStringList seen;
    for (const Holder &holder : std::as_const(m_holders)) {
        if (seen.contains(holder.comm))
            continue;
        seen.append(holder.comm);
        QStringList gpus;
        for (int gpu : holder.gpus)
            gpus.append(QString::number(gpu));
        const QString where = gpus.isEmpty() ? tr("no GPU node, only the shared ones")
                                             : tr("GPU %1").arg(gpus.join(QStringLiteral(", ")));
        QAction *action = m_holdersMenu->addAction(
            tr("%1 (%2, pid %3; %4)").arg(holder.comm, holder.user).arg(holder.pid).arg(where));
        action->setData(holder.comm);
    }
    if (seen.isEmpty())
        m_holdersMenu->addAction(tr("No program holds a GPU right now"))->setEnabled(false);
}
