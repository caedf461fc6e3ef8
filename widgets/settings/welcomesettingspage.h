// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The first page of the settings dialog while idlegpu is not set up (no config file yet): the GPUs found and who
// uses them now, and the first workload in three fields, filled from a template. It edits the draft's first
// workload, the one the Workloads page shows first; saving (the dialog's) writes the file and the monitor runs it.
#include "model/monitorstate.h"
#include "settings/settingspage.h"

class GpuPicker;
class QComboBox;
class QLineEdit;
class QPushButton;
class QTableWidget;

class WelcomeSettingsPage : public SettingsPage
{
    Q_OBJECT
public:
    explicit WelcomeSettingsPage(QWidget *parent = nullptr);

    void load(const SettingsDraft &draft) override;
    void store(SettingsDraft &draft) const override;
    void showProblems(const QList<SettingsProblem> &problems) override;

    // Sets the GPUs in the table, with their names and holders, and those the GPU picker offers. It emits nothing.
    void setMonitorState(const MonitorState &state);
    // After the dialog's "Save and start" (its OK button, the one commit button of a first start): shows
    // `whatHappensNext` in place of the fields.
    void showSaved(const QString &whatHappensNext);

private:
    void applyTemplate(int comboIndex);
    void readFields();
    void showWorkload(); // fills the fields from m_workload; emits nothing

    WorkloadDraft m_workload; // the draft's first workload, as this page edits it
    bool m_hasWorkload = false; // a template was chosen or a field typed in (or the draft has a workload)
    QStringList m_otherNames;   // of the draft's other workloads, for a template's name to stay unique
    bool m_filling = false;

    QTableWidget *m_gpuTable;
    QLabel *m_noGpu;
    QComboBox *m_template;
    QLabel *m_templateHelp;
    QLineEdit *m_name;
    QLineEdit *m_cmd;
    QLineEdit *m_user; // shown only when idlegpu runs as root
    GpuPicker *m_gpus;
    QList<QWidget *> m_setUp; // the fields and what they say: hidden once saved
    QLabel *m_savedText;      // what happens next, once saved
    QHash<QString, QLabel *> m_messages;
};
