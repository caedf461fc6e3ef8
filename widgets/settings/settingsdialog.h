// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The settings dialog: a page each for General, GPU groups, Workloads, User activity and Power and heat, each field
// checked as it is typed, saved in place (only changed keys; comments and untouched lines stay byte for byte). It watches
// the file and offers to reload when another program changes it. Closing it with edits asks first.
#include "model/monitorlink.h"
#include "model/monitorstate.h"
#include "config/inifile.h"
#include "settings/settingsdraft.h"

#include <QDialog>
#include <QPointer>

class ActivitySettingsPage;
class GeneralSettingsPage;
class GroupsSettingsPage;
class QDialogButtonBox;
class QFileSystemWatcher;
class QFrame;
class QLabel;
class QMessageBox;
class PowerSettingsPage;
class QTabWidget;
class SettingsPage;
class WelcomeSettingsPage;
class WorkloadsSettingsPage;

class SettingsDialog : public QDialog
{
    Q_OBJECT
public:
    // The tabs, in their order; WelcomePage comes first, and only while the file does not exist when the dialog opens.
    enum Page { GeneralPage, GroupsPage, WorkloadsPage, ActivityPage, PowerPage, WelcomePage };

    explicit SettingsDialog(const QString &configPath, QWidget *parent = nullptr);
    // The dialog for the idlegpu service's file: it edits `serviceContents` (what GetConfig sent) and saves through
    // serviceSaveRequested(), answered by serviceSaveFinished(); it reads and writes no file itself.
    SettingsDialog(const QString &configPath, const QByteArray &serviceContents, QWidget *parent = nullptr);
    ~SettingsDialog() override;

    // Sets the GPUs detected now (for the check boxes, the "not present" check and a test run's environment) and
    // the programs holding them ("Add from current holders").
    void setMonitorState(const MonitorState &state);

    bool hasUnsavedChanges() const;
    // Brings the welcome page to the front, where there is one.
    void showWelcomePage();
    bool hasWelcomePage() const { return m_welcome != nullptr; }
    QList<SettingsProblem> problems() const { return m_problems; }
    // Returns the text that saving would write to the file now: the file as it is on disk with the edits made in
    // place (what "Show as file…" shows); nullopt with *error when the file cannot be read or edited.
    std::optional<QByteArray> contentsToSave(QString *error) const;
    // Opens the read-only view of contentsToSave().
    void showAsFile();

public Q_SLOTS:
    // Saves what changed; returns false, writing nothing, while there are errors or when writing fails.
    bool apply();
    void accept() override;
    // Esc, Cancel and the window's close: with unsaved edits, asks "Discard changes?" first (askToDiscard()).
    void reject() override;
    // Reads the file again, dropping unsaved edits.
    void reload();
    // The service's answer to serviceSaveRequested(): `message` says why it refused; for Invalid, one
    // "FILE:LINE: severity: text" per line.
    void serviceSaveFinished(MonitorLink::SaveResult result, const QString &message);

Q_SIGNALS:
    void configSaved(); // the file was written: the monitor should reload it
    void serviceSaveRequested(const QByteArray &contents); // for the service's file: these bytes are to be saved
    // The first start's "Save and start" wrote the file; `whatHappensNext` says, in a sentence, when the workload
    // starts. The dialog stays open showing that sentence; the tray opens the status window.
    void firstStartSaved(const QString &whatHappensNext);

protected:
    void closeEvent(QCloseEvent *event) override;

private:
    SettingsDialog(const QString &configPath, std::optional<QByteArray> serviceContents, QWidget *parent);
    void loadFile();
    // apply() for the service's file: sends the edited bytes; false until the service answers.
    bool applyThroughService();
    void onPageEdited(SettingsPage *edited);
    QWidget *pageWidget(const SettingsProblem &problem) const; // the page that shows it
    void refresh();
    void onFileChanged();
    void askToDiscard(); // the question, window-modal and answered by a signal: no nested event loop
    void discard();      // closes, dropping the edits
    SavePlan planToSave(const IniText &file, bool exists) const;
    void updateButtons(int errors, bool changed);
    QString whatHappensNext() const;

    QString m_path;
    // The service's file, where the dialog edits one (as last loaded or saved); absent for a file of this process.
    std::optional<QByteArray> m_serviceContents;
    QByteArray m_savingContents; // sent to the service, not yet answered
    bool m_closeAfterSave = false;
    IniText m_file;            // the file as last loaded or saved: a change to other bytes is someone else's
    SettingsDraft m_baseline;  // the file as loaded, in the dialog's terms
    SettingsDraft m_draft;     // with the user's edits
    bool m_autostartBaseline = false;
    QList<SettingsProblem> m_problems;
    QList<int> m_presentGpus;
    QString m_monitorDeviceRoot; // where the GPUs offered were found

    QTabWidget *m_pages;
    GeneralSettingsPage *m_general;
    GroupsSettingsPage *m_groups;
    WorkloadsSettingsPage *m_workloads;
    ActivitySettingsPage *m_activity;
    PowerSettingsPage *m_power;
    WelcomeSettingsPage *m_welcome = nullptr; // while not set up
    bool m_firstStartSaved = false; // the welcome page's workload was saved: the dialog says what happens next
    QPointer<QMessageBox> m_discardQuestion;
    QString m_okText; // OK's own text, while a first start calls it "Save and start"
    QList<SettingsPage *> m_allPages;
    QLabel *m_fileProblems;
    QFrame *m_reloadBar;
    QLabel *m_summary;
    QDialogButtonBox *m_buttons;
    QFileSystemWatcher *m_watcher;
};
