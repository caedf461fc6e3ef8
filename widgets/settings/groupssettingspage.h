// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The GPU groups page: the [gpu-*] sections, a list and an editor for the selected one (its GPUs, the
// programs it ignores, busy_when with its thresholds).
#include "model/snapshot.h"
#include "settings/settingspage.h"

class GpuPicker;
class QComboBox;
class QLineEdit;
class QListWidget;
class QMenu;
class QSpinBox;
class QStackedWidget;

class GroupsSettingsPage : public SettingsPage
{
    Q_OBJECT
public:
    explicit GroupsSettingsPage(QWidget *parent = nullptr);

    // Keeps the selected row where it can (a reload shows the same group).
    void load(const SettingsDraft &draft) override;
    void store(SettingsDraft &draft) const override;
    void showProblems(const QList<SettingsProblem> &problems) override;

    void setPresentGpus(const QList<int> &present); // emits nothing
    // Sets the programs that "Add from current holders" offers.
    void setHolders(const QList<Holder> &holders);

private:
    void showGroup(int row); // fills the editor; emits nothing
    void showThresholds(const GroupDraft &group); // the values and states of the fields busy_when uses; emits nothing
    void readGroup();
    void addGroup();
    void removeGroup();
    void addIgnoredProgram(const QString &program);
    void rebuildHoldersMenu();

    QList<GroupDraft> m_groups;
    QList<int> m_presentGpus;
    QList<Holder> m_holders;
    bool m_filling = false; // widgets are being set: their signals are not edits

    QListWidget *m_groupList;
    QStackedWidget *m_groupListStack; // the list, or that there is no group
    QWidget *m_groupEditor;
    QStackedWidget *m_editorStack; // the editor, or what applies without a group
    GpuPicker *m_groupGpus;
    QListWidget *m_ignoreList;
    QStackedWidget *m_ignoreStack;
    QLineEdit *m_ignoreEdit;
    QComboBox *m_busyWhen;
    QSpinBox *m_graphicsBusyPercent;
    QSpinBox *m_busyMemoryMib;
    QMenu *m_holdersMenu;
    QHash<QString, QLabel *> m_messages; // field name -> its message
};
