#include "settings/settingsdialog.h"

#include "tray/autostart.h"
#include "config/commandsplit.h"
#include "config/configranges.h"
#include "config/inifile.h"
#include "run/launchplan.h"
#include "run/processrunner.h"
#include "tray/traylogging.h"

#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDialogButtonBox>
#include <QDir>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QFormLayout>
#include <QFrame>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QScrollArea>
#include <QSpinBox>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTableWidget>
#include <QTimer>
#include <QVBoxLayout>

#include <signal.h>
#include <unistd.h>

namespace {

constexpr int kMaxTestRunOutputChars = 100'000;
// After SIGTERM, how long a test run may take to end before its tree gets SIGKILL (the reaper does it).
constexpr int kTestRunGraceMs = 2'000;

QWidget *row(QWidget *main, const QList<QWidget *> &besides)
{
    auto *widget = new QWidget;
    auto *layout = new QHBoxLayout(widget);
    layout->setContentsMargins(0, 0, 0, 0);
    layout->addWidget(main, 1);
    for (QWidget *w : besides)
        layout->addWidget(w);
    return widget;
}

QPushButton *button(const QString &text, const QString &objectName)
{
    auto *b = new QPushButton(text);
    b->setObjectName(objectName);
    b->setAutoDefault(false);
    return b;
}

} // namespace

// "All GPUs", or a check box per GPU: the detected ones and any the selection names that is not present.
class GpuPicker : public QWidget
{
    Q_DECLARE_TR_FUNCTIONS(GpuPicker)
public:
    GpuPicker(const QString &namePrefix, std::function<void()> changed)
        : m_prefix(namePrefix), m_changed(std::move(changed)), m_layout(new QHBoxLayout(this))
    {
        setObjectName(namePrefix);
        m_layout->setContentsMargins(0, 0, 0, 0);
        m_all = new QCheckBox(tr("All GPUs"));
        m_all->setObjectName(namePrefix + QStringLiteral("All"));
        m_layout->addWidget(m_all);
        m_layout->addStretch(1);
        connect(m_all, &QCheckBox::toggled, this, [this](bool all) {
            m_selection.all = all;
            for (QCheckBox *box : std::as_const(m_boxes))
                box->setEnabled(!all);
            m_changed();
        });
    }

    void setPresent(const QList<int> &present)
    {
        if (present == m_present)
            return;
        m_present = present;
        rebuild();
    }

    void setSelection(const GpuSelection &selection)
    {
        m_selection = selection;
        rebuild();
    }

    GpuSelection selection() const
    {
        if (m_selection.all)
            return GpuSelection::allGpus();
        QList<int> checked;
        for (QCheckBox *box : m_boxes)
            if (box->isChecked())
                checked.append(box->property("gpu").toInt());
        return GpuSelection::of(checked);
    }

private:
    void rebuild()
    {
        const QList<int> explicitGpus = m_selection.all ? QList<int>() : m_selection.indices;
        qDeleteAll(m_boxes);
        m_boxes.clear();
        QList<int> shown = m_present;
        for (int gpu : explicitGpus)
            if (!shown.contains(gpu))
                shown.append(gpu);
        std::sort(shown.begin(), shown.end());
        const QSignalBlocker blockAll(m_all);
        m_all->setChecked(m_selection.all);
        for (int gpu : std::as_const(shown)) {
            auto *box = new QCheckBox(m_present.contains(gpu) ? tr("GPU %1").arg(gpu)
                                                              : tr("GPU %1 (not present)").arg(gpu));
            box->setObjectName(m_prefix + QStringLiteral("Gpu") + QString::number(gpu));
            box->setProperty("gpu", gpu);
            box->setChecked(explicitGpus.contains(gpu));
            box->setEnabled(!m_selection.all);
            connect(box, &QCheckBox::toggled, this, [this] { m_changed(); });
            m_layout->insertWidget(m_layout->count() - 1, box);
            m_boxes.append(box);
        }
    }

    QString m_prefix;
    std::function<void()> m_changed;
    QHBoxLayout *m_layout;
    QCheckBox *m_all;
    QList<QCheckBox *> m_boxes;
    QList<int> m_present;
    GpuSelection m_selection;
};

SettingsDialog::SettingsDialog(const QString &configPath, QWidget *parent)
    : QDialog(parent),
      m_path(configPath),
      m_pages(new QTabWidget),
      m_fileProblems(new QLabel),
      m_reloadBar(new QFrame),
      m_summary(new QLabel),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Apply | QDialogButtonBox::Cancel)),
      m_watcher(new QFileSystemWatcher(this)),
      m_testRunTimer(new QTimer(this))
{
    setWindowTitle(tr("idlegpu Settings"));
    setObjectName(QStringLiteral("settingsDialog"));
    auto *layout = new QVBoxLayout(this);

    auto *fileLabel = new QLabel(tr("Configuration file: %1").arg(QDir::toNativeSeparators(m_path)));
    fileLabel->setObjectName(QStringLiteral("fileLabel"));
    fileLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    layout->addWidget(fileLabel);

    m_fileProblems->setObjectName(QStringLiteral("fileProblems"));
    m_fileProblems->setWordWrap(true);
    m_fileProblems->setStyleSheet(QStringLiteral("color: #b00020;"));
    m_fileProblems->hide();
    layout->addWidget(m_fileProblems);

    m_reloadBar->setObjectName(QStringLiteral("reloadBar"));
    m_reloadBar->setFrameShape(QFrame::StyledPanel);
    auto *barLayout = new QHBoxLayout(m_reloadBar);
    auto *barIcon = new QLabel;
    barIcon->setPixmap(style()->standardIcon(QStyle::SP_MessageBoxInformation).pixmap(16, 16));
    barLayout->addWidget(barIcon);
    barLayout->addWidget(new QLabel(tr("Another program changed the configuration file.")), 1);
    QPushButton *reloadButton = button(tr("Reload (discard my edits)"), QStringLiteral("reloadButton"));
    QPushButton *keepButton = button(tr("Keep my edits"), QStringLiteral("keepEditsButton"));
    barLayout->addWidget(reloadButton);
    barLayout->addWidget(keepButton);
    connect(reloadButton, &QPushButton::clicked, this, &SettingsDialog::reload);
    connect(keepButton, &QPushButton::clicked, m_reloadBar, &QWidget::hide);
    m_reloadBar->hide();
    layout->addWidget(m_reloadBar);

    m_pages->setObjectName(QStringLiteral("pages"));
    buildGeneralPage(m_pages);
    buildGroupsPage(m_pages);
    buildWorkloadsPage(m_pages);
    buildActivityPage(m_pages);
    layout->addWidget(m_pages, 1);

    m_summary->setObjectName(QStringLiteral("problemSummary"));
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    m_buttons->setObjectName(QStringLiteral("buttons"));
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    connect(m_buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this, &SettingsDialog::apply);

    m_testRunTimer->setSingleShot(true);
    m_testRunTimer->setInterval(kTestRunMs);
    connect(m_testRunTimer, &QTimer::timeout, this,
            [this] { stopTestRun(tr("— stopped after %1 seconds —").arg(kTestRunMs / 1000)); });

    // The folder too: an atomic save replaces the file, and a watch on the file alone ends with it.
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &SettingsDialog::onFileChanged);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, &SettingsDialog::onFileChanged);

    resize(820, 640);
    loadFile();
}

SettingsDialog::~SettingsDialog()
{
    stopTestRun(QString());
}

// ---------------------------------------------------------------------------------------------------------
// Pages

QLabel *SettingsDialog::addMessage(QFormLayout *form, const QString &objectName)
{
    auto *container = new QWidget;
    auto *layout = new QHBoxLayout(container);
    layout->setContentsMargins(0, 0, 0, 0);
    auto *icon = new QLabel;
    icon->setObjectName(objectName + QStringLiteral("Icon"));
    auto *text = new QLabel;
    text->setObjectName(objectName);
    text->setWordWrap(true);
    layout->addWidget(icon, 0, Qt::AlignTop);
    layout->addWidget(text, 1);
    form->addRow(QString(), container);
    container->hide();
    return text;
}

void SettingsDialog::buildGeneralPage(QTabWidget *pages)
{
    auto *page = new QWidget;
    auto *form = new QFormLayout(page);
    const auto edited = [this] { readGeneral(); };

    m_interval = new QLineEdit;
    m_interval->setObjectName(QStringLiteral("intervalEdit"));
    m_interval->setToolTip(tr("How often idlegpu looks at the GPUs when nothing happens; opening a GPU is "
                              "noticed at once anyway."));
    form->addRow(tr("Fallback poll interval (seconds):"), m_interval);
    m_generalMessages.insert(QStringLiteral("interval"), addMessage(form, QStringLiteral("intervalError")));

    m_startDelay = new QLineEdit;
    m_startDelay->setObjectName(QStringLiteral("startDelayEdit"));
    m_startDelay->setToolTip(tr("How long a GPU must stay free before a workload starts on it."));
    form->addRow(tr("Start delay (seconds):"), m_startDelay);
    m_generalMessages.insert(QStringLiteral("startDelay"), addMessage(form, QStringLiteral("startDelayError")));

    auto *notify = new QWidget;
    auto *notifyLayout = new QVBoxLayout(notify);
    notifyLayout->setContentsMargins(0, 0, 0, 0);
    m_notifyPreemption = new QCheckBox(tr("A workload was stopped because a program opened its GPU"));
    m_notifyPreemption->setObjectName(QStringLiteral("notifyPreemption"));
    m_notifyFailure = new QCheckBox(tr("A workload keeps failing"));
    m_notifyFailure->setObjectName(QStringLiteral("notifyFailure"));
    m_notifyConfig = new QCheckBox(tr("The configuration file has an error"));
    m_notifyConfig->setObjectName(QStringLiteral("notifyConfig"));
    for (QCheckBox *box : {m_notifyPreemption, m_notifyFailure, m_notifyConfig}) {
        notifyLayout->addWidget(box);
        connect(box, &QCheckBox::toggled, this, edited);
    }
    form->addRow(tr("Notify me when:"), notify);

    m_autostart = new QCheckBox(tr("Start idlegpu when I log in"));
    m_autostart->setObjectName(QStringLiteral("autostartCheck"));
    connect(m_autostart, &QCheckBox::toggled, this, edited);
    form->addRow(tr("Start at login:"), m_autostart);

    connect(m_interval, &QLineEdit::textChanged, this, edited);
    connect(m_startDelay, &QLineEdit::textChanged, this, edited);
    pages->addTab(page, tr("General"));
}

void SettingsDialog::buildGroupsPage(QTabWidget *pages)
{
    auto *page = new QWidget;
    auto *layout = new QHBoxLayout(page);

    auto *left = new QVBoxLayout;
    m_groupList = new QListWidget;
    m_groupList->setObjectName(QStringLiteral("groupList"));
    left->addWidget(m_groupList, 1);
    QPushButton *add = button(tr("Add"), QStringLiteral("addGroupButton"));
    QPushButton *remove = button(tr("Remove"), QStringLiteral("removeGroupButton"));
    left->addWidget(row(add, {remove}));
    layout->addLayout(left, 1);
    connect(add, &QPushButton::clicked, this, &SettingsDialog::addGroup);
    connect(remove, &QPushButton::clicked, this, &SettingsDialog::removeGroup);
    connect(m_groupList, &QListWidget::currentRowChanged, this, &SettingsDialog::showGroup);

    m_groupEditor = new QWidget;
    auto *form = new QFormLayout(m_groupEditor);
    auto *about = new QLabel(tr("A program on one of these GPUs makes idlegpu stop the workloads there, unless "
                                "it is one of the ignored programs."));
    about->setWordWrap(true);
    form->addRow(about);
    m_groupGpus = new GpuPicker(QStringLiteral("groupGpus"), [this] { readGroup(); });
    form->addRow(tr("GPUs:"), m_groupGpus);
    m_groupMessages.insert(QStringLiteral("gpus"), addMessage(form, QStringLiteral("groupGpusError")));

    m_ignoreList = new QListWidget;
    m_ignoreList->setObjectName(QStringLiteral("ignoreList"));
    form->addRow(tr("Ignored programs:"), m_ignoreList);
    m_ignoreEdit = new QLineEdit;
    m_ignoreEdit->setObjectName(QStringLiteral("ignoreEdit"));
    m_ignoreEdit->setPlaceholderText(tr("Program name, e.g. nvidia-smi"));
    QPushButton *addIgnore = button(tr("Add"), QStringLiteral("addIgnoreButton"));
    QPushButton *removeIgnore = button(tr("Remove"), QStringLiteral("removeIgnoreButton"));
    form->addRow(QString(), row(m_ignoreEdit, {addIgnore, removeIgnore}));
    m_addFromHolders = button(tr("Add from current holders"), QStringLiteral("addFromHoldersButton"));
    m_holdersMenu = new QMenu(m_addFromHolders);
    m_holdersMenu->setObjectName(QStringLiteral("holdersMenu"));
    m_addFromHolders->setMenu(m_holdersMenu);
    form->addRow(QString(), row(new QWidget, {m_addFromHolders}));
    m_groupMessages.insert(QStringLiteral("ignore"), addMessage(form, QStringLiteral("ignoreError")));

    // busy_when: the item data is the key's value; the first item writes no key (the default).
    m_busyWhen = new QComboBox;
    m_busyWhen->setObjectName(QStringLiteral("busyWhen"));
    m_busyWhen->addItem(tr("A program opens it (default)"), QString());
    m_busyWhen->addItem(tr("A program opens it"), QStringLiteral("opened"));
    m_busyWhen->addItem(tr("A program computes on it"), QStringLiteral("computes"));
    m_busyWhen->addItem(tr("A program uses at least this much of its memory:"), QStringLiteral("memory"));
    m_busyWhen->setToolTip(tr("An open device node is the earliest and safest sign of a new job. Waiting for it to "
                              "compute or to take memory lets programs that merely keep the GPU open (a browser, "
                              "a CUDA process that opens every GPU but uses one) leave the workload running, but "
                              "the workload is then stopped a little later: up to a fifth of a second after the "
                              "job's first compute context, which needs NVML."));
    form->addRow(tr("The GPU is busy when:"), m_busyWhen);
    m_busyMemoryMib = new QSpinBox;
    m_busyMemoryMib->setObjectName(QStringLiteral("busyMemoryMib"));
    m_busyMemoryMib->setRange(int(ConfigRanges::busyMemoryMib.min), int(ConfigRanges::busyMemoryMib.max));
    m_busyMemoryMib->setSuffix(tr(" MiB"));
    form->addRow(QString(), m_busyMemoryMib);
    connect(m_busyWhen, &QComboBox::currentIndexChanged, this, [this] { readGroup(); });
    connect(m_busyMemoryMib, &QSpinBox::valueChanged, this, [this] { readGroup(); });

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
    layout->addWidget(m_groupEditor, 2);
    pages->addTab(page, tr("GPU groups"));
}

void SettingsDialog::buildWorkloadsPage(QTabWidget *pages)
{
    auto *page = new QWidget;
    auto *layout = new QHBoxLayout(page);

    auto *left = new QVBoxLayout;
    m_workloadList = new QListWidget;
    m_workloadList->setObjectName(QStringLiteral("workloadList"));
    left->addWidget(m_workloadList, 1);
    auto *orderHint = new QLabel(tr("Workloads higher in the list start first."));
    orderHint->setWordWrap(true);
    left->addWidget(orderHint);
    QPushButton *add = button(tr("Add"), QStringLiteral("addWorkloadButton"));
    QPushButton *duplicate = button(tr("Duplicate"), QStringLiteral("duplicateWorkloadButton"));
    QPushButton *remove = button(tr("Remove"), QStringLiteral("removeWorkloadButton"));
    QPushButton *up = button(tr("Up"), QStringLiteral("moveUpButton"));
    QPushButton *down = button(tr("Down"), QStringLiteral("moveDownButton"));
    left->addWidget(row(add, {duplicate, remove}));
    left->addWidget(row(up, {down}));
    layout->addLayout(left, 1);
    connect(add, &QPushButton::clicked, this, &SettingsDialog::addWorkload);
    connect(duplicate, &QPushButton::clicked, this, &SettingsDialog::duplicateWorkload);
    connect(remove, &QPushButton::clicked, this, &SettingsDialog::removeWorkload);
    connect(up, &QPushButton::clicked, this, [this] { moveWorkload(-1); });
    connect(down, &QPushButton::clicked, this, [this] { moveWorkload(1); });
    connect(m_workloadList, &QListWidget::currentRowChanged, this, &SettingsDialog::showWorkload);

    m_workloadEditor = new QWidget;
    auto *form = new QFormLayout(m_workloadEditor);
    const auto edited = [this] { readWorkload(); };

    m_name = new QLineEdit;
    m_name->setObjectName(QStringLiteral("nameEdit"));
    form->addRow(tr("Name:"), m_name);
    m_workloadMessages.insert(QStringLiteral("name"), addMessage(form, QStringLiteral("nameError")));

    m_cmd = new QLineEdit;
    m_cmd->setObjectName(QStringLiteral("cmdEdit"));
    m_cmd->setToolTip(tr("Split into words like a shell does (quotes, backslashes), but no shell runs: write "
                         "sh -c '…' for pipes or variables."));
    QPushButton *browseCmd = button(tr("Browse…"), QStringLiteral("browseCmdButton"));
    form->addRow(tr("Command:"), row(m_cmd, {browseCmd}));
    m_workloadMessages.insert(QStringLiteral("cmd"), addMessage(form, QStringLiteral("cmdError")));

    m_user = new QLineEdit;
    m_user->setObjectName(QStringLiteral("userEdit"));
    m_user->setPlaceholderText(::geteuid() == 0 ? tr("Required: idlegpu runs as root") : tr("You"));
    m_user->setToolTip(tr("The login name (or uid) the workload runs as. Only an idlegpu running as root can "
                          "run workloads as other users; it then needs one for every workload."));
    form->addRow(tr("Run as user:"), m_user);
    m_workloadMessages.insert(QStringLiteral("user"), addMessage(form, QStringLiteral("userError")));

    m_dir = new QLineEdit;
    m_dir->setObjectName(QStringLiteral("dirEdit"));
    m_dir->setPlaceholderText(tr("Home folder"));
    QPushButton *browseDir = button(tr("Browse…"), QStringLiteral("browseDirButton"));
    form->addRow(tr("Working folder:"), row(m_dir, {browseDir}));
    m_workloadMessages.insert(QStringLiteral("dir"), addMessage(form, QStringLiteral("dirError")));

    m_workloadGpus = new GpuPicker(QStringLiteral("workloadGpus"), edited);
    form->addRow(tr("GPUs:"), m_workloadGpus);
    m_workloadMessages.insert(QStringLiteral("gpus"), addMessage(form, QStringLiteral("workloadGpusError")));

    m_log = new QLineEdit;
    m_log->setObjectName(QStringLiteral("logEdit"));
    m_log->setPlaceholderText(tr("idlegpu's own log"));
    QPushButton *browseLog = button(tr("Browse…"), QStringLiteral("browseLogButton"));
    form->addRow(tr("Log file:"), row(m_log, {browseLog}));
    m_workloadMessages.insert(QStringLiteral("log"), addMessage(form, QStringLiteral("logError")));

    m_envTable = new QTableWidget(0, 2);
    m_envTable->setObjectName(QStringLiteral("envTable"));
    m_envTable->setHorizontalHeaderLabels({tr("Variable"), tr("Value")});
    m_envTable->horizontalHeader()->setStretchLastSection(true);
    m_envTable->verticalHeader()->hide();
    m_envTable->setMinimumHeight(90);
    QPushButton *addEnv = button(tr("Add"), QStringLiteral("addEnvButton"));
    QPushButton *removeEnv = button(tr("Remove"), QStringLiteral("removeEnvButton"));
    auto *envButtons = new QWidget;
    auto *envButtonsLayout = new QVBoxLayout(envButtons);
    envButtonsLayout->setContentsMargins(0, 0, 0, 0);
    envButtonsLayout->addWidget(addEnv);
    envButtonsLayout->addWidget(removeEnv);
    envButtonsLayout->addStretch(1);
    form->addRow(tr("Environment:"), row(m_envTable, {envButtons}));
    m_workloadMessages.insert(QStringLiteral("env"), addMessage(form, QStringLiteral("envError")));
    connect(addEnv, &QPushButton::clicked, this, [this] {
        const int newRow = m_envTable->rowCount();
        m_envTable->insertRow(newRow);
        m_envTable->setCurrentCell(newRow, 0);
        m_envTable->editItem(m_envTable->item(newRow, 0));
    });
    connect(removeEnv, &QPushButton::clicked, this, [this] {
        if (m_envTable->currentRow() >= 0)
            m_envTable->removeRow(m_envTable->currentRow());
        readEnvTable();
    });
    connect(m_envTable, &QTableWidget::itemChanged, this, &SettingsDialog::readEnvTable);

    m_stopTimeout = new QLineEdit;
    m_stopTimeout->setObjectName(QStringLiteral("stopTimeoutEdit"));
    m_stopTimeout->setToolTip(tr("After asking the workload to stop (SIGTERM), how long to wait before killing it."));
    form->addRow(tr("Stop timeout (seconds):"), m_stopTimeout);
    m_workloadMessages.insert(QStringLiteral("stopTimeout"), addMessage(form, QStringLiteral("stopTimeoutError")));

    m_enabled = new QCheckBox(tr("Enabled (run it when its GPUs are free)"));
    m_enabled->setObjectName(QStringLiteral("enabledCheck"));
    form->addRow(QString(), m_enabled);

    m_testRunButton = button(tr("Test run"), QStringLiteral("testRunButton"));
    m_testRunButton->setToolTip(tr("Runs the command for %1 seconds as idlegpu would, and shows what it prints.")
                                    .arg(kTestRunMs / 1000));
    m_testRunOutput = new QPlainTextEdit;
    m_testRunOutput->setObjectName(QStringLiteral("testRunOutput"));
    m_testRunOutput->setReadOnly(true);
    m_testRunOutput->setMaximumBlockCount(2000);
    m_testRunOutput->setMinimumHeight(80);
    m_testRunOutput->setPlaceholderText(tr("The output of a test run shows here."));
    form->addRow(m_testRunButton, m_testRunOutput);
    connect(m_testRunButton, &QPushButton::clicked, this, &SettingsDialog::startOrStopTestRun);

    for (QLineEdit *edit : {m_name, m_cmd, m_user, m_dir, m_log, m_stopTimeout})
        connect(edit, &QLineEdit::textChanged, this, edited);
    connect(m_enabled, &QCheckBox::toggled, this, edited);
    connect(browseCmd, &QPushButton::clicked, this, &SettingsDialog::browseCommand);
    connect(browseDir, &QPushButton::clicked, this, &SettingsDialog::browseFolder);
    connect(browseLog, &QPushButton::clicked, this, &SettingsDialog::browseLog);

    auto *scroll = new QScrollArea;
    scroll->setWidgetResizable(true);
    scroll->setFrameShape(QFrame::NoFrame);
    scroll->setWidget(m_workloadEditor);
    layout->addWidget(scroll, 3);
    pages->addTab(page, tr("Workloads"));
}

void SettingsDialog::buildActivityPage(QTabWidget *pages)
{
    auto *page = new QWidget;
    auto *form = new QFormLayout(page);
    const auto edited = [this] { readGeneral(); };
    auto *about = new QLabel(tr("While someone works in a terminal (a pseudo-terminal, such as an ssh login), "
                                "idlegpu stops all workloads."));
    about->setWordWrap(true);
    form->addRow(about);
    m_ttyEnabled = new QCheckBox(tr("Stop workloads while a user is active in a terminal"));
    m_ttyEnabled->setObjectName(QStringLiteral("ttyEnabledCheck"));
    form->addRow(QString(), m_ttyEnabled);
    m_whitelist = new QLineEdit;
    m_whitelist->setObjectName(QStringLiteral("whitelistEdit"));
    m_whitelist->setPlaceholderText(tr("user names, separated by commas"));
    form->addRow(tr("Users whose activity does not count:"), m_whitelist);
    m_ttyIdle = new QLineEdit;
    m_ttyIdle->setObjectName(QStringLiteral("ttyIdleEdit"));
    form->addRow(tr("A terminal idle this long does not count (seconds):"), m_ttyIdle);
    m_activityMessages.insert(QStringLiteral("ttyIdle"), addMessage(form, QStringLiteral("ttyIdleError")));
    connect(m_ttyEnabled, &QCheckBox::toggled, this, edited);
    connect(m_whitelist, &QLineEdit::textChanged, this, edited);
    connect(m_ttyIdle, &QLineEdit::textChanged, this, edited);
    pages->addTab(page, tr("User activity"));
}

// ---------------------------------------------------------------------------------------------------------
// Loading and showing

void SettingsDialog::loadFile()
{
    QString error;
    const bool exists = QFileInfo::exists(m_path);
    const std::optional<QByteArray> bytes = exists ? readIniFile(m_path, &error) : std::optional<QByteArray>();
    m_fileBytes = bytes.value_or(QByteArray());
    Config config;
    QStringList fileErrors;
    if (exists && !bytes) {
        fileErrors.append(tr("The file cannot be read: %1").arg(error));
    } else if (exists) {
        const ConfigLoadResult result = ConfigLoader::parse(m_fileBytes, m_path);
        config = result.config;
        for (const ConfigDiagnostic &d : result.diagnostics)
            if (d.severity == ConfigDiagnostic::Error && d.refusedWorkload.isEmpty()) // those show at "Run as user"
                fileErrors.append(d.toString());
    }
    if (fileErrors.isEmpty()) {
        m_fileProblems->hide();
    } else {
        m_fileProblems->setText(tr("The file has errors; where a value could not be read, the field shows its "
                                   "default:\n%1")
                                    .arg(fileErrors.mid(0, 5).join(QLatin1Char('\n'))));
        m_fileProblems->show();
    }
    m_baseline = SettingsDraft::fromConfig(config);
    m_draft = m_baseline;
    m_autostartBaseline = Autostart().isEnabled();
    m_reloadBar->hide();

    const QStringList watched = m_watcher->files() + m_watcher->directories();
    if (!watched.isEmpty())
        m_watcher->removePaths(watched);
    m_watcher->addPath(QFileInfo(m_path).absolutePath());
    if (exists)
        m_watcher->addPath(m_path);
    fillWidgets();
}

void SettingsDialog::reload()
{
    const int groupRow = m_groupList->currentRow();
    const int workloadRow = m_workloadList->currentRow();
    loadFile();
    m_groupList->setCurrentRow(qMin(groupRow, m_groupList->count() - 1));
    m_workloadList->setCurrentRow(qMin(workloadRow, m_workloadList->count() - 1));
}

void SettingsDialog::fillWidgets()
{
    m_filling = true;
    m_interval->setText(m_draft.interval);
    m_startDelay->setText(m_draft.startDelay);
    m_notifyPreemption->setChecked(m_draft.notify.preemption);
    m_notifyFailure->setChecked(m_draft.notify.failure);
    m_notifyConfig->setChecked(m_draft.notify.configError);
    m_autostart->setChecked(m_autostartBaseline);
    m_ttyEnabled->setChecked(m_draft.ttyEnabled);
    m_whitelist->setText(m_draft.whitelist);
    m_ttyIdle->setText(m_draft.ttyIdle);
    m_groupList->clear();
    for (int i = 0; i < m_draft.groups.size(); ++i)
        m_groupList->addItem(QString());
    m_workloadList->clear();
    for (int i = 0; i < m_draft.workloads.size(); ++i)
        m_workloadList->addItem(QString());
    m_filling = false;
    m_groupList->setCurrentRow(m_draft.groups.isEmpty() ? -1 : 0);
    m_workloadList->setCurrentRow(m_draft.workloads.isEmpty() ? -1 : 0);
    showGroup(m_groupList->currentRow());
    showWorkload(m_workloadList->currentRow());
    rebuildHoldersMenu();
    refresh();
}

void SettingsDialog::showGroup(int row)
{
    if (m_filling)
        return;
    m_filling = true;
    const bool valid = row >= 0 && row < m_draft.groups.size();
    m_groupEditor->setEnabled(valid);
    const GroupDraft group = valid ? m_draft.groups.at(row) : GroupDraft();
    m_groupGpus->setPresent(m_presentGpus);
    m_groupGpus->setSelection(group.gpus);
    m_ignoreList->clear();
    m_ignoreList->addItems(group.ignorePrograms);
    QString busyWhen;
    if (group.busyWhen)
        busyWhen = *group.busyWhen == BusyWhen::Opened     ? QStringLiteral("opened")
                   : *group.busyWhen == BusyWhen::Computes ? QStringLiteral("computes")
                                                           : QStringLiteral("memory");
    m_busyWhen->setCurrentIndex(qMax(0, m_busyWhen->findData(busyWhen)));
    m_busyMemoryMib->setValue(
        int(qBound(ConfigRanges::busyMemoryMib.min, group.busyMemoryMib, ConfigRanges::busyMemoryMib.max)));
    m_busyMemoryMib->setEnabled(group.busyWhen == BusyWhen::Memory);
    m_filling = false;
    refresh();
}

void SettingsDialog::showWorkload(int row)
{
    if (m_filling)
        return;
    m_filling = true;
    const bool valid = row >= 0 && row < m_draft.workloads.size();
    m_workloadEditor->setEnabled(valid);
    const WorkloadDraft w = valid ? m_draft.workloads.at(row) : WorkloadDraft();
    m_name->setText(w.name);
    m_cmd->setText(w.cmd);
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
    m_stopTimeout->setText(w.stopTimeout);
    m_enabled->setChecked(w.enabled);
    m_filling = false;
    refresh();
}

void SettingsDialog::setMonitorState(const MonitorState &state)
{
    QList<Holder> holders;
    for (const Holder &holder : state.snapshot.holders)
        if (!holder.hidden && !holder.comm.isEmpty())
            holders.append(holder);
    const bool holdersChanged = holders != m_holders;
    m_holders = holders;
    m_gpuDevices = state.snapshot.devices.gpus;
    QList<GpuInfo> identifiedByNvml; // the UUIDs CUDA_VISIBLE_DEVICES takes; AMD ids come with the devices
    for (const GpuDevice &device : std::as_const(m_gpuDevices))
        if (!device.isDrm() && state.gpuMetrics.gpus.contains(device.index))
            identifiedByNvml.append(state.gpuMetrics.gpus.value(device.index));
    m_gpuUuids = gpuUuidsByIndex(identifiedByNvml);
    const QList<int> present = state.snapshot.devices.indices();
    if (present != m_presentGpus) {
        m_presentGpus = present;
        // Rebuilding the check boxes must not count as an edit.
        m_filling = true;
        m_groupGpus->setPresent(present);
        m_workloadGpus->setPresent(present);
        m_filling = false;
        refresh();
    }
    if (holdersChanged) // not on every tick: the menu may be open
        rebuildHoldersMenu();
}

void SettingsDialog::rebuildHoldersMenu()
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

// ---------------------------------------------------------------------------------------------------------
// Edits

void SettingsDialog::readGeneral()
{
    if (m_filling)
        return;
    m_draft.interval = m_interval->text();
    m_draft.startDelay = m_startDelay->text();
    m_draft.notify = {m_notifyPreemption->isChecked(), m_notifyFailure->isChecked(), m_notifyConfig->isChecked()};
    m_draft.ttyEnabled = m_ttyEnabled->isChecked();
    m_draft.whitelist = m_whitelist->text();
    m_draft.ttyIdle = m_ttyIdle->text();
    refresh();
}

void SettingsDialog::readGroup()
{
    const int row = m_groupList->currentRow();
    if (m_filling || row < 0 || row >= m_draft.groups.size())
        return;
    GroupDraft &group = m_draft.groups[row];
    group.gpus = m_groupGpus->selection();
    group.ignorePrograms.clear();
    for (int i = 0; i < m_ignoreList->count(); ++i)
        group.ignorePrograms.append(m_ignoreList->item(i)->text());
    const QString busyWhen = m_busyWhen->currentData().toString();
    if (busyWhen.isEmpty())
        group.busyWhen.reset();
    else
        group.busyWhen = busyWhen == QLatin1String("opened")     ? BusyWhen::Opened
                         : busyWhen == QLatin1String("computes") ? BusyWhen::Computes
                                                                 : BusyWhen::Memory;
    group.busyMemoryMib = m_busyMemoryMib->value();
    m_busyMemoryMib->setEnabled(group.busyWhen == BusyWhen::Memory);
    refresh();
}

void SettingsDialog::readWorkload()
{
    const int row = m_workloadList->currentRow();
    if (m_filling || row < 0 || row >= m_draft.workloads.size())
        return;
    WorkloadDraft &w = m_draft.workloads[row];
    w.name = m_name->text();
    w.cmd = m_cmd->text();
    w.user = m_user->text();
    w.dir = m_dir->text();
    w.gpus = m_workloadGpus->selection();
    w.log = m_log->text();
    w.stopTimeout = m_stopTimeout->text();
    w.enabled = m_enabled->isChecked();
    refresh();
}

void SettingsDialog::readEnvTable()
{
    const int row = m_workloadList->currentRow();
    if (m_filling || row < 0 || row >= m_draft.workloads.size())
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
    m_draft.workloads[row].env = env;
    refresh();
}

void SettingsDialog::addGroup()
{
    GroupDraft group;
    group.ignorePrograms = {QStringLiteral("nvidia-smi")};
    m_draft.groups.append(group);
    m_groupList->addItem(QString());
    m_groupList->setCurrentRow(m_groupList->count() - 1);
}

void SettingsDialog::removeGroup()
{
    const int row = m_groupList->currentRow();
    if (row < 0 || row >= m_draft.groups.size())
        return;
    m_draft.groups.removeAt(row);
    m_filling = true;
    delete m_groupList->takeItem(row);
    m_filling = false;
    showGroup(m_groupList->currentRow());
}

void SettingsDialog::addIgnoredProgram(const QString &program)
{
    if (program.isEmpty() || !m_groupEditor->isEnabled())
        return;
    for (int i = 0; i < m_ignoreList->count(); ++i)
        if (m_ignoreList->item(i)->text() == program)
            return;
    m_ignoreList->addItem(program);
    readGroup();
}

void SettingsDialog::addWorkload()
{
    WorkloadDraft w;
    QStringList names;
    for (const WorkloadDraft &other : std::as_const(m_draft.workloads))
        names.append(other.name.trimmed());
    w.name = tr("workload");
    for (int n = 2; names.contains(w.name); ++n)
        w.name = tr("workload %1").arg(n);
    m_draft.workloads.append(w);
    m_workloadList->addItem(QString());
    m_workloadList->setCurrentRow(m_workloadList->count() - 1);
    m_name->setFocus();
    m_name->selectAll();
}

void SettingsDialog::duplicateWorkload()
{
    const int row = m_workloadList->currentRow();
    if (row < 0 || row >= m_draft.workloads.size())
        return;
    WorkloadDraft copy = m_draft.workloads.at(row);
    copy.id.clear();
    copy.name = tr("%1 (copy)").arg(copy.name.trimmed());
    m_draft.workloads.insert(row + 1, copy);
    m_filling = true;
    m_workloadList->insertItem(row + 1, QString());
    m_filling = false;
    m_workloadList->setCurrentRow(row + 1);
}

void SettingsDialog::removeWorkload()
{
    const int row = m_workloadList->currentRow();
    if (row < 0 || row >= m_draft.workloads.size())
        return;
    m_draft.workloads.removeAt(row);
    m_filling = true;
    delete m_workloadList->takeItem(row);
    m_filling = false;
    showWorkload(m_workloadList->currentRow());
}

void SettingsDialog::moveWorkload(int by)
{
    const int row = m_workloadList->currentRow();
    const int target = row + by;
    if (row < 0 || target < 0 || target >= m_draft.workloads.size())
        return;
    m_draft.workloads.move(row, target);
    m_filling = true;
    m_workloadList->setCurrentRow(target);
    m_filling = false;
    showWorkload(target);
}

void SettingsDialog::browseCommand()
{
    const QString program = QFileDialog::getOpenFileName(this, tr("Choose the program to run"),
                                                         QFileInfo(m_dir->text()).isDir() ? m_dir->text()
                                                                                          : QDir::homePath());
    if (program.isEmpty())
        return;
    // The program replaces the first word; the arguments stay.
    QString error;
    const std::optional<QStringList> words = splitCommand(m_cmd->text(), &error);
    QStringList quoted{SettingsModel::shellQuote(program)};
    if (words && !words->isEmpty())
        for (const QString &word : words->mid(1))
            quoted.append(SettingsModel::shellQuote(word));
    m_cmd->setText(quoted.join(QLatin1Char(' ')));
}

void SettingsDialog::browseFolder()
{
    const QString folder = QFileDialog::getExistingDirectory(this, tr("Choose the working folder"),
                                                             m_dir->text().isEmpty() ? QDir::homePath() : m_dir->text());
    if (!folder.isEmpty())
        m_dir->setText(folder);
}

void SettingsDialog::browseLog()
{
    const QString log = QFileDialog::getSaveFileName(this, tr("Choose the log file"),
                                                     m_log->text().isEmpty() ? QDir::homePath() : m_log->text(),
                                                     QString(), nullptr, QFileDialog::DontConfirmOverwrite);
    if (!log.isEmpty())
        m_log->setText(log);
}

// ---------------------------------------------------------------------------------------------------------
// Problems and buttons

void SettingsDialog::refresh()
{
    if (m_filling)
        return;
    m_problems = SettingsModel::validate(m_draft, m_presentGpus);
    const auto show = [this](const QHash<QString, QLabel *> &messages, SettingsProblem::Page page, int item) {
        for (auto it = messages.constBegin(); it != messages.constEnd(); ++it) {
            QLabel *text = it.value();
            QWidget *container = text->parentWidget();
            const auto problem = std::find_if(m_problems.cbegin(), m_problems.cend(), [&](const SettingsProblem &p) {
                return p.page == page && p.item == item && p.field == it.key();
            });
            if (problem == m_problems.cend()) {
                text->clear();
                container->hide();
                continue;
            }
            const bool error = problem->severity == SettingsProblem::Error;
            auto *icon = container->findChild<QLabel *>(text->objectName() + QStringLiteral("Icon"));
            icon->setPixmap(style()->standardIcon(error ? QStyle::SP_MessageBoxCritical : QStyle::SP_MessageBoxWarning)
                                .pixmap(16, 16));
            text->setStyleSheet(error ? QStringLiteral("color: #b00020;") : QStringLiteral("color: #8a5a00;"));
            text->setText(problem->message);
            container->show();
        }
    };
    show(m_generalMessages, SettingsProblem::General, -1);
    show(m_activityMessages, SettingsProblem::Activity, -1);
    show(m_groupMessages, SettingsProblem::Groups, m_groupList->currentRow());
    show(m_workloadMessages, SettingsProblem::Workloads, m_workloadList->currentRow());
    refreshLists();

    const int errors = int(std::count_if(m_problems.cbegin(), m_problems.cend(), [](const SettingsProblem &p) {
        return p.severity == SettingsProblem::Error;
    }));
    if (errors > 0) {
        const auto first = std::find_if(m_problems.cbegin(), m_problems.cend(), [](const SettingsProblem &p) {
            return p.severity == SettingsProblem::Error;
        });
        m_summary->setText(tr("Problems to fix before saving: %1. First: %2 (%3)")
                               .arg(errors)
                               .arg(first->message, m_pages->tabText(first->page)));
        m_summary->setStyleSheet(QStringLiteral("color: #b00020;"));
    } else {
        m_summary->clear();
    }
    const bool changed = hasUnsavedChanges();
    m_buttons->button(QDialogButtonBox::Ok)->setEnabled(errors == 0);
    m_buttons->button(QDialogButtonBox::Apply)->setEnabled(errors == 0 && changed);
}

void SettingsDialog::refreshLists()
{
    const auto hasError = [this](SettingsProblem::Page page, int item) {
        return std::any_of(m_problems.cbegin(), m_problems.cend(), [&](const SettingsProblem &p) {
            return p.page == page && p.item == item && p.severity == SettingsProblem::Error;
        });
    };
    const QIcon errorIcon = style()->standardIcon(QStyle::SP_MessageBoxCritical);
    for (int i = 0; i < m_groupList->count() && i < m_draft.groups.size(); ++i) {
        const GroupDraft &group = m_draft.groups.at(i);
        const QString gpus = group.gpus.all ? tr("all GPUs") : tr("GPUs %1").arg(group.gpus.toString());
        QListWidgetItem *item = m_groupList->item(i);
        item->setText(group.id.isEmpty() ? tr("New group: %1").arg(gpus) : QStringLiteral("%1: %2").arg(group.id, gpus));
        item->setIcon(hasError(SettingsProblem::Groups, i) ? errorIcon : QIcon());
    }
    for (int i = 0; i < m_workloadList->count() && i < m_draft.workloads.size(); ++i) {
        const WorkloadDraft &w = m_draft.workloads.at(i);
        QListWidgetItem *item = m_workloadList->item(i);
        item->setText(w.enabled ? w.name : tr("%1 (disabled)").arg(w.name));
        item->setIcon(hasError(SettingsProblem::Workloads, i) ? errorIcon : QIcon());
    }
}

bool SettingsDialog::hasUnsavedChanges() const
{
    return m_autostart->isChecked() != m_autostartBaseline
           || !SavePlan::make(m_baseline, m_draft, m_fileBytes).isEmpty();
}

bool SettingsDialog::apply()
{
    refresh();
    if (std::any_of(m_problems.cbegin(), m_problems.cend(),
                    [](const SettingsProblem &p) { return p.severity == SettingsProblem::Error; }))
        return false;
    QString error;
    // Moved sections are copied from the file as it is now, in case it changed since it was loaded.
    const std::optional<QByteArray> onDisk = readIniFile(m_path, &error);
    const SavePlan plan = SavePlan::make(m_baseline, m_draft, onDisk.value_or(m_fileBytes));
    if (!plan.isEmpty()) {
        if (!plan.apply(m_path, &error)) {
            m_summary->setText(tr("Not saved: %1").arg(error));
            m_summary->setStyleSheet(QStringLiteral("color: #b00020;"));
            return false;
        }
        qCInfo(lcTray, "settings saved to %s", qPrintable(m_path));
    }
    if (m_autostart->isChecked() != m_autostartBaseline) {
        Autostart autostart;
        if (!autostart.setEnabled(m_autostart->isChecked())) {
            m_summary->setText(tr("Start at login could not be changed: %1").arg(autostart.errorString()));
            m_summary->setStyleSheet(QStringLiteral("color: #b00020;"));
            return false;
        }
    }
    if (!plan.isEmpty()) {
        reload();
        Q_EMIT configSaved();
    } else {
        m_autostartBaseline = m_autostart->isChecked();
        refresh();
    }
    return true;
}

void SettingsDialog::accept()
{
    if (apply()) {
        stopTestRun(QString());
        QDialog::accept();
    }
}

void SettingsDialog::reject()
{
    stopTestRun(QString());
    QDialog::reject();
}

void SettingsDialog::onFileChanged()
{
    // A watch on a file ends when the file is replaced: watch the new one.
    if (QFileInfo::exists(m_path) && !m_watcher->files().contains(m_path))
        m_watcher->addPath(m_path);
    const std::optional<QByteArray> bytes = readIniFile(m_path, nullptr);
    if (bytes.value_or(QByteArray()) == m_fileBytes)
        return; // our own save, or a change of something else in the folder
    if (!hasUnsavedChanges())
        reload();
    else
        m_reloadBar->show();
}

// ---------------------------------------------------------------------------------------------------------
// Test run

void SettingsDialog::startOrStopTestRun()
{
    if (m_testRun)
        stopTestRun(tr("— stopped —"));
    else
        startTestRun();
}

void SettingsDialog::startTestRun()
{
    const int row = m_workloadList->currentRow();
    if (row < 0 || row >= m_draft.workloads.size())
        return;
    const WorkloadDraft &draft = m_draft.workloads.at(row);
    m_testRunOutput->clear();
    WorkloadConfig config = SettingsModel::workloadConfig(draft);
    config.stopTimeoutSeconds = kTestRunGraceMs / 1000; // a test run ends quickly whatever its stop timeout
    // As the monitor will start it: through the reaper, as its user, in its folder, with its environment.
    const LaunchPlan plan = LaunchPlan::make(config, config.gpus.indices, config.gpus.all,
                                             {ProcessRunner::defaultReaperPath(), m_gpuUuids, m_gpuDevices,
                                              UserLookup::system()});
    if (!plan.ready()) {
        m_testRunOutput->appendPlainText(testRunProblem(plan));
        return;
    }

    auto *process = new QProcess(this);
    process->setProgram(plan.program);
    process->setArguments(plan.arguments);
    process->setProcessEnvironment(plan.environment);
    process->setWorkingDirectory(plan.reaperFolder);
    process->setProcessChannelMode(QProcess::MergedChannels);
    process->setStandardInputFile(QProcess::nullDevice());
    connect(process, &QProcess::readyReadStandardOutput, this, [this, process] {
        const QString text = QString::fromLocal8Bit(process->read(64 * 1024));
        if (m_testRunOutput->toPlainText().size() < kMaxTestRunOutputChars) {
            m_testRunOutput->moveCursor(QTextCursor::End);
            m_testRunOutput->insertPlainText(text);
        }
    });
    connect(process, &QProcess::finished, this, [this, process](int code, QProcess::ExitStatus status) {
        if (process != m_testRun)
            return;
        m_testRunTimer->stop();
        m_testRunOutput->appendPlainText(status == QProcess::CrashExit ? tr("— ended by signal %1 —").arg(code)
                                                                        : tr("— exited with code %1 —").arg(code));
        m_testRunButton->setText(tr("Test run"));
        m_testRun = nullptr;
        process->deleteLater();
    });
    connect(process, &QProcess::errorOccurred, this, [this, process](QProcess::ProcessError processError) {
        if (processError != QProcess::FailedToStart || process != m_testRun)
            return;
        m_testRunTimer->stop();
        m_testRunOutput->appendPlainText(tr("Not started: %1").arg(process->errorString()));
        m_testRunButton->setText(tr("Test run"));
        m_testRun = nullptr;
        process->deleteLater();
    });
    m_testRun = process;
    m_testRunButton->setText(tr("Stop test run"));
    m_testRunOutput->appendPlainText(tr("$ %1").arg(config.cmd));
    m_testRunOutput->appendPlainText(QString()); // the output starts on a line of its own
    process->start();
    m_testRunTimer->start();
}

void SettingsDialog::stopTestRun(const QString &note)
{
    m_testRunTimer->stop();
    QProcess *process = m_testRun;
    if (!process)
        return;
    m_testRun = nullptr;
    if (!note.isEmpty())
        m_testRunOutput->appendPlainText(note);
    m_testRunButton->setText(tr("Test run"));
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

QString SettingsDialog::testRunProblem(const LaunchPlan &plan)
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
