// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The Workloads page: the [process-*] sections in their order (their priority), a list and an editor for the
// selected one, and its test run.
#include "model/snapshot.h"
#include "settings/settingspage.h"

class GpuPicker;
class QCheckBox;
class QComboBox;
class QFormLayout;
class QLineEdit;
class QListWidget;
class QPlainTextEdit;
class QPushButton;
class QSpinBox;
class QStackedWidget;
class QTableWidget;
class TestRun;

class WorkloadsSettingsPage : public SettingsPage
{
    Q_OBJECT
public:
    explicit WorkloadsSettingsPage(QWidget *parent = nullptr);

    // Keeps the selected row where it can (a reload shows the same workload).
    void load(const SettingsDraft &draft) override;
    void store(SettingsDraft &draft) const override;
    void showProblems(const QList<SettingsProblem> &problems) override;

    void setPresentGpus(const QList<int> &present); // emits nothing
    // Sets what a test run's environment names the GPUs by: their vendors, and UUIDs where a backend named them.
    void setGpuIdentities(const QList<GpuDevice> &devices, const QHash<int, QString> &uuids);
    void stopTestRun();

private:
    void showWorkload(int row); // fills the editor; emits nothing
    void readWorkload();
    void readEnvTable();
    void addWorkload(const QString &templateId); // WorkloadTemplates' id
    void duplicateWorkload();
    void removeWorkload();
    void moveWorkload(int by);
    void browseCommand();
    void browseFolder();
    void browseLog();
    void startOrStopTestRun();

    QList<WorkloadDraft> m_workloads;
    QList<int> m_presentGpus;
    QList<GpuDevice> m_gpuDevices;
    QHash<int, QString> m_gpuUuids;
    void showKindRows(bool controlsService);
    bool m_filling = false; // widgets are being set: their signals are not edits

    QListWidget *m_workloadList;
    QStackedWidget *m_workloadStack; // the list, or what applies without a workload
    QWidget *m_workloadEditor;
    QLabel *m_templateHelp; // what the template the workload was made from says
    QLineEdit *m_name;
    QFormLayout *m_form;
    QComboBox *m_kind; // runs a command (cmd=) or controls a service (start_cmd=, stop_cmd=)
    QLineEdit *m_cmd;
    QWidget *m_cmdRow;
    QLineEdit *m_startCmd;
    QLineEdit *m_stopCmd;
    QSpinBox *m_commandTimeout;
    QLineEdit *m_servicePrograms;
    QLineEdit *m_user;
    QLineEdit *m_dir;
    GpuPicker *m_workloadGpus;
    QLineEdit *m_log;
    QTableWidget *m_envTable;
    QStackedWidget *m_envStack;
    QSpinBox *m_stopTimeout;
    QComboBox *m_priority;
    QCheckBox *m_enabled;
    TestRun *m_testRun;
    QHash<QString, QLabel *> m_messages; // field name -> its message
};
