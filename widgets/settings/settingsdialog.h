#pragma once
// The settings dialog: General, GPU groups, Workloads and User activity, each field checked as it is typed,
// saved in place (only changed keys; comments and untouched lines stay byte for byte). It watches the file and
// offers to reload when another program changes it. "Test run" starts a workload's command for a few seconds,
// in the environment the monitor would give it, and shows its output.
#include "monitor.h"
#include "settings/settingsmodel.h"

#include <QDialog>
#include <QHash>
#include <QPointer>

#include <functional>

class QCheckBox;
class QComboBox;
class QDialogButtonBox;
class QFileSystemWatcher;
class QFormLayout;
class QFrame;
class QLabel;
class QLineEdit;
class QListWidget;
class QMenu;
class QPlainTextEdit;
class QSpinBox;
class QProcess;
class QPushButton;
class QTableWidget;
class QTabWidget;
class QTimer;
class QWidget;
class GpuPicker;
struct LaunchPlan;

class SettingsDialog : public QDialog
{
    Q_OBJECT
public:
    enum Page { GeneralPage, GroupsPage, WorkloadsPage, ActivityPage };
    // How long "Test run" lets the command run.
    static constexpr int kTestRunMs = 5'000;

    explicit SettingsDialog(const QString &configPath, QWidget *parent = nullptr);
    ~SettingsDialog() override; // stops a test run

    // The GPUs detected now (for the check boxes and the "not present" check) and the programs holding them
    // ("Add from current holders").
    void setMonitorState(const MonitorState &state);

    bool hasUnsavedChanges() const;
    QList<SettingsProblem> problems() const { return m_problems; }

public Q_SLOTS:
    // Saves what changed; false (nothing written) while there are errors or when writing fails.
    bool apply();
    void accept() override;
    void reject() override;
    // Reads the file again, dropping unsaved edits.
    void reload();

Q_SIGNALS:
    void configSaved(); // the file was written: the monitor should reload it

private:
    void buildGeneralPage(QTabWidget *pages);
    void buildGroupsPage(QTabWidget *pages);
    void buildWorkloadsPage(QTabWidget *pages);
    void buildActivityPage(QTabWidget *pages);
    QLabel *addMessage(QFormLayout *form, const QString &objectName);

    void loadFile();
    void fillWidgets();
    void showGroup(int row);
    void showWorkload(int row);
    void readGeneral();
    void readGroup();
    void readWorkload();
    void readEnvTable();
    void refresh();
    void refreshLists();
    void rebuildHoldersMenu();
    void onFileChanged();

    void addGroup();
    void removeGroup();
    void addIgnoredProgram(const QString &program);
    void addWorkload();
    void duplicateWorkload();
    void removeWorkload();
    void moveWorkload(int by);
    void browseCommand();
    void browseFolder();
    void browseLog();

    void startOrStopTestRun();
    void startTestRun();
    void stopTestRun(const QString &note);
    static QString testRunProblem(const LaunchPlan &plan);

    QString m_path;
    QByteArray m_fileBytes;    // the file as last loaded or saved: a change to other bytes is someone else's
    SettingsDraft m_baseline;  // the file as loaded, in the dialog's terms
    SettingsDraft m_draft;     // with the user's edits
    bool m_autostartBaseline = false;
    QList<SettingsProblem> m_problems;
    QList<int> m_presentGpus;
    QList<GpuDevice> m_gpuDevices;  // for a test run's environment
    QHash<int, QString> m_gpuUuids; // by index, where NVML named them
    QList<Holder> m_holders;
    bool m_filling = false; // widgets are being set from the draft: their signals are not edits

    QTabWidget *m_pages;
    QLabel *m_fileProblems;
    QFrame *m_reloadBar;
    QLabel *m_summary;
    QDialogButtonBox *m_buttons;
    QFileSystemWatcher *m_watcher;

    QLineEdit *m_interval;
    QLineEdit *m_startDelay;
    QCheckBox *m_notifyPreemption;
    QCheckBox *m_notifyFailure;
    QCheckBox *m_notifyConfig;
    QCheckBox *m_autostart;

    QListWidget *m_groupList;
    QWidget *m_groupEditor;
    GpuPicker *m_groupGpus;
    QListWidget *m_ignoreList;
    QComboBox *m_busyWhen;
    QSpinBox *m_busyMemoryMib;
    QLineEdit *m_ignoreEdit;
    QPushButton *m_addFromHolders;
    QMenu *m_holdersMenu;

    QListWidget *m_workloadList;
    QWidget *m_workloadEditor;
    QLineEdit *m_name;
    QLineEdit *m_cmd;
    QLineEdit *m_user;
    QLineEdit *m_dir;
    GpuPicker *m_workloadGpus;
    QLineEdit *m_log;
    QTableWidget *m_envTable;
    QLineEdit *m_stopTimeout;
    QCheckBox *m_enabled;
    QPushButton *m_testRunButton;
    QPlainTextEdit *m_testRunOutput;

    QCheckBox *m_ttyEnabled;
    QLineEdit *m_whitelist;
    QLineEdit *m_ttyIdle;

    // field name -> its message, per page ("interval", "cmd", ...)
    QHash<QString, QLabel *> m_generalMessages;
    QHash<QString, QLabel *> m_groupMessages;
    QHash<QString, QLabel *> m_workloadMessages;
    QHash<QString, QLabel *> m_activityMessages;

    QPointer<QProcess> m_testRun;
    QTimer *m_testRunTimer;
};
