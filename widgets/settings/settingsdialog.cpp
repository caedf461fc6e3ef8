// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "settings/settingsdialog.h"

#include "backends/gpubackend.h"
#include "config/inifile.h"
#include "settings/activitysettingspage.h"
#include "settings/generalsettingspage.h"
#include "settings/groupssettingspage.h"
#include "settings/powersettingspage.h"
#include "settings/welcomesettingspage.h"
#include "settings/workloadssettingspage.h"
#include "tray/autostart.h"
#include "tray/traylogging.h"

#include <QCloseEvent>
#include <QDialogButtonBox>
#include <QFontDatabase>
#include <QDir>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QStyle>
#include <QTabWidget>
#include <QVBoxLayout>

#include <algorithm>

namespace {

// The programs "Add from current holders" offers: those seen holding a GPU now (a hidden holder has no name).
QList<Holder> holdersToOffer(const MonitorState &state)
{
    QList<Holder> holders;
    for (const Holder &holder : state.snapshot.holders)
        if (!holder.hidden && !holder.comm.isEmpty())
            holders.append(holder);
    return holders;
}

} // namespace

SettingsDialog::SettingsDialog(const QString &configPath, QWidget *parent)
    : SettingsDialog(configPath, std::nullopt, parent)
{
}

SettingsDialog::SettingsDialog(const QString &configPath, const QByteArray &serviceContents, QWidget *parent)
    : SettingsDialog(configPath, std::optional<QByteArray>(serviceContents), parent)
{
}

SettingsDialog::SettingsDialog(const QString &configPath, std::optional<QByteArray> serviceContents, QWidget *parent)
    : QDialog(parent), m_path(configPath), m_serviceContents(std::move(serviceContents)), m_pages(new QTabWidget),
      m_general(new GeneralSettingsPage), m_groups(new GroupsSettingsPage), m_workloads(new WorkloadsSettingsPage),
      m_activity(new ActivitySettingsPage),
      m_power(new PowerSettingsPage), m_allPages{m_general, m_groups, m_workloads, m_activity, m_power},
      m_fileProblems(new QLabel), m_reloadBar(new QFrame), m_summary(new QLabel),
      m_buttons(new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Apply | QDialogButtonBox::Cancel)),
      m_watcher(new QFileSystemWatcher(this))
{
    setWindowTitle(tr("idlegpu settings"));
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
    QPushButton *reloadButton = SettingsPage::button(tr("Reload (discard my edits)"), QStringLiteral("reloadButton"));
    QPushButton *keepButton = SettingsPage::button(tr("Keep my edits"), QStringLiteral("keepEditsButton"));
    barLayout->addWidget(reloadButton);
    barLayout->addWidget(keepButton);
    connect(reloadButton, &QPushButton::clicked, this, &SettingsDialog::reload);
    connect(keepButton, &QPushButton::clicked, m_reloadBar, &QWidget::hide);
    m_reloadBar->hide();
    layout->addWidget(m_reloadBar);

    m_pages->setObjectName(QStringLiteral("pages"));
    // In the order of Page.
    m_pages->addTab(m_general, tr("General"));
    m_pages->addTab(m_groups, tr("GPU groups"));
    m_pages->addTab(m_workloads, tr("Workloads"));
    m_pages->addTab(m_activity, tr("User activity"));
    m_pages->addTab(m_power, tr("Power and heat"));
    // Not set up yet: a page to start from, in front. It edits the first workload, as the Workloads page does.
    if (!m_serviceContents && !QFileInfo::exists(m_path)) {
        m_welcome = new WelcomeSettingsPage;
        m_welcome->setObjectName(QStringLiteral("welcomePage"));
        m_pages->insertTab(0, m_welcome, tr("Welcome"));
        m_pages->setCurrentIndex(0);
        m_allPages.append(m_welcome);
    }
    for (SettingsPage *page : std::as_const(m_allPages))
        connect(page, &SettingsPage::edited, this, [this, page] { onPageEdited(page); });
    layout->addWidget(m_pages, 1);

    m_summary->setObjectName(QStringLiteral("problemSummary"));
    m_summary->setWordWrap(true);
    layout->addWidget(m_summary);
    m_buttons->setObjectName(QStringLiteral("buttons"));
    layout->addWidget(m_buttons);
    connect(m_buttons, &QDialogButtonBox::accepted, this, &SettingsDialog::accept);
    connect(m_buttons, &QDialogButtonBox::rejected, this, &SettingsDialog::reject);
    connect(m_buttons->button(QDialogButtonBox::Apply), &QPushButton::clicked, this, &SettingsDialog::apply);
    QPushButton *showAsFile = m_buttons->addButton(tr("Show as file…"), QDialogButtonBox::HelpRole);
    showAsFile->setObjectName(QStringLiteral("showAsFileButton"));
    showAsFile->setAutoDefault(false);
    showAsFile->setToolTip(tr("Shows the text that saving writes to the configuration file, in gpu_mon's format."));
    connect(showAsFile, &QPushButton::clicked, this, &SettingsDialog::showAsFile);
    // GNOME and KDE show no icons on a dialog's buttons; some Qt styles do (a red dot on Cancel).
    for (QAbstractButton *button : m_buttons->buttons())
        button->setIcon(QIcon());
    if (m_welcome) {
        // The first start has one commit button: OK is "Save and start", and there is nothing to apply yet.
        m_okText = m_buttons->button(QDialogButtonBox::Ok)->text();
        m_buttons->button(QDialogButtonBox::Ok)->setText(tr("Save and start"));
        m_buttons->button(QDialogButtonBox::Apply)->hide();
    }

    // The folder too: an atomic save replaces the file, and a watch on the file alone ends with it.
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &SettingsDialog::onFileChanged);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, &SettingsDialog::onFileChanged);

    resize(820, 640);
    loadFile();
}

SettingsDialog::~SettingsDialog() = default; // the Workloads page stops a test run

void SettingsDialog::setMonitorState(const MonitorState &state)
{
    m_groups->setHolders(holdersToOffer(state));
    // As the runner is told: the environment takes a UUID only for an NVIDIA GPU; AMD ids come with the devices.
    m_workloads->setGpuIdentities(state.snapshot.devices.gpus, gpuUuidsByIndex(state.gpuMetrics.gpus.values()));
    m_monitorDeviceRoot = state.config.deviceRoot;
    if (m_welcome)
        m_welcome->setMonitorState(state);
    const QList<int> present = state.snapshot.devices.indices();
    if (present != m_presentGpus) {
        m_presentGpus = present;
        m_groups->setPresentGpus(present);
        m_workloads->setPresentGpus(present);
        refresh();
    }
}

void SettingsDialog::onPageEdited(SettingsPage *edited)
{
    for (const SettingsPage *page : std::as_const(m_allPages))
        if (page != m_welcome)
            page->store(m_draft);
    // The welcome page and the Workloads page show the same first workload: the one edited last tells the other.
    if (m_welcome && edited == m_welcome) {
        m_welcome->store(m_draft);
        m_workloads->load(m_draft);
    } else if (m_welcome) {
        m_welcome->load(m_draft);
    }
    refresh();
}

void SettingsDialog::showWelcomePage()
{
    if (m_welcome)
        m_pages->setCurrentWidget(m_welcome);
}

QWidget *SettingsDialog::pageWidget(const SettingsProblem &problem) const
{
    switch (problem.page) {
    case SettingsProblem::General: return m_general;
    case SettingsProblem::Groups: return m_groups;
    case SettingsProblem::Workloads: return m_workloads;
    case SettingsProblem::Activity: return m_activity;
    case SettingsProblem::Key:
        for (SettingsPage *page : m_allPages)
            if (page->showsKey(problem.field))
                return page;
        return nullptr;
    }
    return nullptr;
}

void SettingsDialog::loadFile()
{
    QString error;
    const bool exists = m_serviceContents || QFileInfo::exists(m_path);
    const std::optional<QByteArray> bytes = m_serviceContents ? m_serviceContents
                                            : exists          ? readIniFile(m_path, &error)
                                                              : std::optional<QByteArray>();
    m_file = IniText::parse(bytes.value_or(QByteArray()));
    Config config;
    QStringList fileErrors;
    if (exists && !bytes) {
        fileErrors.append(tr("The file cannot be read: %1").arg(error));
    } else if (exists) {
        const ConfigLoadResult result = ConfigLoader::read(m_file.document(), m_path);
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
    m_baseline = SettingsDraft::fromConfig(config, m_file.document());
    m_draft = m_baseline;
    m_autostartBaseline = Autostart().isEnabled();
    m_reloadBar->hide();

    const QStringList watched = m_watcher->files() + m_watcher->directories();
    if (!watched.isEmpty())
        m_watcher->removePaths(watched);
    if (!m_serviceContents) { // the service's file may be unreadable here; it tells of a change itself
        m_watcher->addPath(QFileInfo(m_path).absolutePath());
        if (exists)
            m_watcher->addPath(m_path);
    }
    for (SettingsPage *page : std::as_const(m_allPages))
        page->load(m_draft);
    m_general->setAutostart(m_autostartBaseline);
    refresh();
}

void SettingsDialog::reload()
{
    loadFile(); // the pages keep the rows they show
}

void SettingsDialog::refresh()
{
    m_problems = DraftRules::validate(m_draft, m_presentGpus);
    for (SettingsPage *page : std::as_const(m_allPages))
        page->showProblems(m_problems);

    const int errors = int(std::count_if(m_problems.cbegin(), m_problems.cend(), [](const SettingsProblem &p) {
        return p.severity == SettingsProblem::Error;
    }));
    if (errors > 0) {
        const auto first = std::find_if(m_problems.cbegin(), m_problems.cend(), [](const SettingsProblem &p) {
            return p.severity == SettingsProblem::Error;
        });
        const QString page = m_pages->tabText(m_pages->indexOf(pageWidget(*first)));
        m_summary->setText(
            page.isEmpty() ? first->message
            : errors == 1
                ? tr("One problem keeps the settings from being saved, on the %1 page: %2").arg(page, first->message)
                : tr("%n problems keep the settings from being saved. The first, on the %1 page: %2", nullptr, errors)
                      .arg(page, first->message));
        m_summary->setStyleSheet(QStringLiteral("color: #b00020;"));
    } else if (!m_firstStartSaved) {
        m_summary->clear();
    }
    updateButtons(errors, hasUnsavedChanges());
}

void SettingsDialog::updateButtons(int errors, bool changed)
{
    QPushButton *ok = m_buttons->button(QDialogButtonBox::Ok);
    QPushButton *apply = m_buttons->button(QDialogButtonBox::Apply);
    QPushButton *cancel = m_buttons->button(QDialogButtonBox::Cancel);
    if (m_welcome && !m_firstStartSaved) {
        // Not live while there is nothing to save: Enter then does not close a dialog that saved nothing.
        ok->setEnabled(errors == 0 && changed);
        return;
    }
    if (m_welcome && m_firstStartSaved && !changed) { // saved: what is left is to close
        ok->setText(tr("Close"));
        ok->setEnabled(true);
        cancel->hide();
        apply->hide();
        return;
    }
    if (m_welcome) { // edited again after the first save: an ordinary settings dialog
        ok->setText(m_okText);
        cancel->show();
        apply->show();
    }
    ok->setEnabled(errors == 0);
    apply->setEnabled(errors == 0 && changed);
}

bool SettingsDialog::hasUnsavedChanges() const
{
    return m_general->autostart() != m_autostartBaseline
           || !SavePlan::make(m_baseline, m_draft, m_file.document()).isEmpty();
}

bool SettingsDialog::apply()
{
    refresh();
    if (std::any_of(m_problems.cbegin(), m_problems.cend(),
                    [](const SettingsProblem &p) { return p.severity == SettingsProblem::Error; }))
        return false;
    QString error;
    if (m_serviceContents)
        return applyThroughService();
    // The edits go to the file as it is now, in case it changed since it was loaded: read and parsed once,
    // edited in memory, replaced once.
    const bool exists = QFileInfo::exists(m_path);
    const std::optional<QByteArray> onDisk = exists ? readIniFile(m_path, &error) : std::optional(QByteArray());
    const IniText file = onDisk ? IniText::parse(*onDisk) : m_file;
    const SavePlan plan = planToSave(file, exists);
    if (!plan.isEmpty()) {
        if (!onDisk || !plan.apply(m_path, file, &error)) {
            qCWarning(lcTray, "settings not saved to %s: %s", qPrintable(m_path), qPrintable(error));
            m_summary->setText(tr("Not saved: %1").arg(error));
            m_summary->setStyleSheet(QStringLiteral("color: #b00020;"));
            return false;
        }
        qCInfo(lcTray, "settings saved to %s", qPrintable(m_path));
    }
    if (m_general->autostart() != m_autostartBaseline) {
        Autostart autostart;
        if (!autostart.setEnabled(m_general->autostart())) {
            m_summary->setText(tr("Start at login could not be changed: %1").arg(autostart.errorString()));
            m_summary->setStyleSheet(QStringLiteral("color: #b00020;"));
            return false;
        }
    }
    if (!plan.isEmpty()) {
        reload();
        Q_EMIT configSaved();
    } else {
        m_autostartBaseline = m_general->autostart();
        refresh();
    }
    return true;
}

SavePlan SettingsDialog::planToSave(const IniText &file, bool exists) const
{
    SavePlan plan = SavePlan::make(m_baseline, m_draft, file.document());
    // A first file keeps the device_root under which the GPUs offered were found (/dev, the default, writes nothing).
    const KeyRow &deviceRoot = ConfigKeys::row(QStringLiteral("defaults"), QStringLiteral("device_root"));
    if (!exists && !plan.isEmpty() && m_draft.key(deviceRoot) == m_baseline.key(deviceRoot)
        && !m_monitorDeviceRoot.isEmpty()) {
        SettingsDraft draft = m_draft;
        draft.setKey(deviceRoot, m_monitorDeviceRoot);
        plan = SavePlan::make(m_baseline, draft, file.document());
    }
    return plan;
}

std::optional<QByteArray> SettingsDialog::contentsToSave(QString *error) const
{
    // As apply() and applyThroughService() take the file: the service's as sent, a file of this process as on disk.
    const bool exists = m_serviceContents || QFileInfo::exists(m_path);
    IniText file = m_file;
    if (!m_serviceContents && exists) {
        const std::optional<QByteArray> onDisk = readIniFile(m_path, error);
        if (!onDisk)
            return std::nullopt;
        file = IniText::parse(*onDisk);
    }
    const SavePlan plan = m_serviceContents ? SavePlan::make(m_baseline, m_draft, file.document())
                                            : planToSave(file, exists);
    if (plan.isEmpty())
        return file.contents();
    return file.edited(plan.edit, error);
}

void SettingsDialog::showAsFile()
{
    QString error;
    const std::optional<QByteArray> contents = contentsToSave(&error);
    auto *view = new QDialog(this);
    view->setObjectName(QStringLiteral("showAsFileView"));
    view->setAttribute(Qt::WA_DeleteOnClose);
    view->setWindowTitle(tr("Configuration file as it will be saved"));
    auto *layout = new QVBoxLayout(view);
    auto *about = new QLabel;
    about->setObjectName(QStringLiteral("showAsFileAbout"));
    about->setWordWrap(true);
    if (!contents)
        about->setText(tr("The file cannot be shown: %1").arg(error));
    else if (hasUnsavedChanges())
        about->setText(tr("This is the text that saving writes to %1. Lines you did not change stay as they are.")
                           .arg(QDir::toNativeSeparators(m_path)));
    else
        about->setText(tr("Nothing is changed: this is %1 as it is now.").arg(QDir::toNativeSeparators(m_path)));
    layout->addWidget(about);
    auto *text = new QPlainTextEdit;
    text->setObjectName(QStringLiteral("showAsFileText"));
    text->setReadOnly(true);
    text->setLineWrapMode(QPlainTextEdit::NoWrap);
    text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    text->setPlainText(QString::fromUtf8(contents.value_or(QByteArray())));
    layout->addWidget(text, 1);
    auto *buttons = new QDialogButtonBox(QDialogButtonBox::Close);
    for (QAbstractButton *button : buttons->buttons())
        button->setIcon(QIcon());
    connect(buttons, &QDialogButtonBox::rejected, view, &QDialog::reject);
    layout->addWidget(buttons);
    view->resize(720, 560);
    view->show();
}

bool SettingsDialog::applyThroughService()
{
    const SavePlan plan = SavePlan::make(m_baseline, m_draft, m_file.document());
    if (m_general->autostart() != m_autostartBaseline) { // start at login is this user's own, not the service's
        Autostart autostart;
        if (!autostart.setEnabled(m_general->autostart())) {
            m_summary->setText(tr("Start at login could not be changed: %1").arg(autostart.errorString()));
            m_summary->setStyleSheet(QStringLiteral("color: #b00020;"));
            return false;
        }
        m_autostartBaseline = m_general->autostart();
    }
    if (plan.isEmpty()) {
        refresh();
        return true;
    }
    QString error;
    const std::optional<QByteArray> bytes = m_file.edited(plan.edit, &error);
    if (!bytes) {
        m_summary->setText(tr("Not saved: %1").arg(error));
        m_summary->setStyleSheet(QStringLiteral("color: #b00020;"));
        return false;
    }
    m_savingContents = *bytes;
    m_buttons->setEnabled(false);
    m_summary->setStyleSheet(QString());
    m_summary->setText(tr("Saving through the idlegpu service…"));
    Q_EMIT serviceSaveRequested(*bytes);
    return false; // not yet: serviceSaveFinished() says
}

void SettingsDialog::serviceSaveFinished(MonitorLink::SaveResult result, const QString &message)
{
    m_buttons->setEnabled(true);
    const bool close = std::exchange(m_closeAfterSave, false);
    switch (result) {
    case MonitorLink::SaveResult::Saved:
        qCInfo(lcTray, "settings saved through the idlegpu service to %s", qPrintable(m_path));
        m_serviceContents = m_savingContents;
        reload();
        Q_EMIT configSaved();
        if (close) {
            m_workloads->stopTestRun();
            QDialog::accept();
        }
        return;
    case MonitorLink::SaveResult::Conflict:
        m_summary->setText(tr("Not saved: the configuration changed meanwhile. Close this window and open Settings… "
                              "again to load it."));
        break;
    case MonitorLink::SaveResult::Invalid:
        m_fileProblems->setText(tr("The idlegpu service did not save the file; nothing was written:\n%1").arg(message));
        m_fileProblems->show();
        m_summary->setText(tr("Not saved: the file has errors (above)."));
        break;
    case MonitorLink::SaveResult::Refused:
        m_summary->setText(tr("Not saved: %1").arg(message));
        break;
    }
    m_summary->setStyleSheet(QStringLiteral("color: #b00020;"));
}

void SettingsDialog::accept()
{
    if (m_serviceContents) {
        m_closeAfterSave = true;
        if (applyThroughService()) { // nothing to save
            m_closeAfterSave = false;
            m_workloads->stopTestRun();
            QDialog::accept();
        }
        return;
    }
    if (m_welcome && !m_firstStartSaved) {
        // "Save and start": the dialog stays to say what happens next, beside the status window the tray opens.
        if (!apply())
            return;
        m_firstStartSaved = true;
        const QString next = whatHappensNext();
        m_welcome->showSaved(next);
        m_pages->setCurrentWidget(m_welcome);
        m_summary->setStyleSheet(QString());
        m_summary->clear();
        refresh();
        m_buttons->button(QDialogButtonBox::Ok)->setFocus();
        Q_EMIT firstStartSaved(next);
        return;
    }
    if (apply()) {
        m_workloads->stopTestRun();
        QDialog::accept();
    }
}

QString SettingsDialog::whatHappensNext() const
{
    const KeyRow &startDelay = ConfigKeys::row(QStringLiteral("defaults"), QStringLiteral("start_delay_seconds"));
    const int seconds = int(parseWholeNumber(m_draft.key(startDelay)).value_or(0));
    const QString name = m_draft.workloads.isEmpty() ? QString() : m_draft.workloads.first().name.trimmed();
    const QString starts =
        seconds <= 0   ? tr("“%1” is saved. idlegpu starts it as soon as its GPUs are free.").arg(name)
        : seconds == 1 ? tr("“%1” is saved. idlegpu starts it once its GPUs have been free for a second.").arg(name)
                       : tr("“%1” is saved. idlegpu starts it once its GPUs have been free for %2 seconds.")
                             .arg(name)
                             .arg(seconds);
    return starts + QLatin1Char(' ')
           + tr("It stops the moment one of your own programs opens one of them. The status window shows what it "
                "does.");
}

void SettingsDialog::reject()
{
    if (hasUnsavedChanges()) {
        askToDiscard();
        return;
    }
    discard();
}

void SettingsDialog::discard()
{
    m_workloads->stopTestRun();
    QDialog::reject();
}

void SettingsDialog::closeEvent(QCloseEvent *event)
{
    if (!event->spontaneous()) {
        // Closed by the program (the tray's monitor went away): the edits were for a file this dialog no longer saves.
        discard();
        event->accept();
        return;
    }
    QDialog::closeEvent(event); // calls reject(), which may ask; the dialog then stays
}

void SettingsDialog::askToDiscard()
{
    if (m_discardQuestion) {
        m_discardQuestion->raise();
        return;
    }
    m_discardQuestion = new QMessageBox(QMessageBox::Question, tr("Discard changes?"),
                                        tr("Your changes to the settings are not saved yet."), QMessageBox::NoButton,
                                        this);
    m_discardQuestion->setObjectName(QStringLiteral("discardQuestion"));
    m_discardQuestion->setInformativeText(tr("Discard them and close the settings, or keep editing?"));
    m_discardQuestion->setAttribute(Qt::WA_DeleteOnClose);
    QPushButton *discardButton = m_discardQuestion->addButton(tr("Discard"), QMessageBox::DestructiveRole);
    discardButton->setObjectName(QStringLiteral("discardButton"));
    QPushButton *keepButton = m_discardQuestion->addButton(tr("Keep editing"), QMessageBox::RejectRole);
    keepButton->setObjectName(QStringLiteral("keepEditingButton"));
    // The safe answer is the default: Enter or Esc keeps the edits.
    m_discardQuestion->setDefaultButton(keepButton);
    m_discardQuestion->setEscapeButton(keepButton);
    connect(m_discardQuestion, &QMessageBox::buttonClicked, this, [this, discardButton](QAbstractButton *clicked) {
        m_discardQuestion = nullptr;
        if (clicked == discardButton)
            discard();
    });
    m_discardQuestion->open();
}

void SettingsDialog::onFileChanged()
{
    // A watch on a file ends when the file is replaced: watch the new one.
    if (QFileInfo::exists(m_path) && !m_watcher->files().contains(m_path))
        m_watcher->addPath(m_path);
    const std::optional<QByteArray> bytes = readIniFile(m_path, nullptr);
    if (bytes.value_or(QByteArray()) == m_file.contents())
        return; // our own save, or a change of something else in the folder
    if (!hasUnsavedChanges())
        reload();
    else
        m_reloadBar->show();
}
