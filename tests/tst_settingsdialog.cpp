// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The settings dialog, driven through its widgets: problems shown next to their fields (and OK disabled), edits
// saved in place and read back equal by ConfigLoader, hand-written files kept byte for byte, test runs.
#include "config/commandsplit.h"
#include "config/config.h"
#include "config/configkeys.h"
#include "settings/activitysettingspage.h"
#include "settings/settingsdialog.h"
#include "settings/settingsdraft.h"
#include "settings/workloadtemplates.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QLabel>
#include <QLineEdit>
#include <QListWidget>
#include <QMenu>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QProxyStyle>
#include <QPushButton>
#include <QSpinBox>
#include <QTabBar>
#include <QTabWidget>
#include <QTableWidget>
#include <QScopeGuard>
#include <QScreen>
#include <QTemporaryDir>
#include <QtTest>

#include <QThread>

#include <atomic>

#include <poll.h>
#include <sys/inotify.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

const QByteArray twoWorkloads = R"(# two workloads, one per GPU
[defaults]
interval_seconds = 5

[gpu-all]
gpus = ALL
ignore_programs = nvidia-smi

; the first one
[process-one]
cmd = sh -c 'sleep 1'
gpus = 0

[process-two]
cmd = true
gpus = 1
)";

// Every kind of line a hand-written file has: comments, blank lines, spacing, a continued value, unknown keys.
const QByteArray commented = R"(# idlegpu config, written by hand
; with both comment styles

[defaults]
# poll
interval_seconds = 10   
start_delay_seconds: 3
    # indented comment

[gpu-all]
gpus = ALL
ignore_programs = nvidia-smi ,  nvtop
color = blue

[process-miner]
;; the miner
name = Miner (pool A)
cmd = sh -c 'sleep 100'
    --more words
env = A=1 MSG='hello world'
gpus = 0,1
stop_timeout_seconds = 30
enabled = yes

[tty]
enabled = on
whitelist = alice , bob,
idle_seconds = 300
# the end, no newline after this)";

// Every key of issue 12 at a value other than its default.
const QByteArray desktopKeys = R"(# a desktop workstation
[defaults]
interval_seconds = 10
on_battery = run
max_temperature_c = 83

[activity]
pause_while_active = yes
idle_seconds = 120

[schedule]
run = Mon-Fri  18:00-08:00,
    Sat, Sun

[gpu-all]
gpus = ALL
busy_when = auto
graphics_busy_percent = 40
busy_memory_mib = 2048

[process-miner]
cmd = true
priority = low
)";

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

void writeAll(const QString &path, const QByteArray &bytes)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(bytes), bytes.size());
    file.close();
    QVERIFY(file.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner));
}

MonitorState gpus01(const QList<Holder> &holders = {})
{
    MonitorState state;
    state.snapshot.devices.gpus = {{0, QStringLiteral("/dev/nvidia0")}, {1, QStringLiteral("/dev/nvidia1")}};
    state.snapshot.holders = holders;
    return state;
}

template<typename T>
T *child(const QWidget &dialog, const QString &name)
{
    T *widget = dialog.findChild<T *>(name);
    if (!widget)
        qWarning("no child %s", qPrintable(name));
    return widget;
}

void openTab(const SettingsDialog &dialog, SettingsDialog::Page page)
{
    QTabBar *bar = child<QTabWidget>(dialog, QStringLiteral("pages"))->tabBar();
    QTest::mouseClick(bar, Qt::LeftButton, {}, bar->tabRect(page).center());
}

void selectRow(QListWidget *list, int row)
{
    list->scrollToItem(list->item(row));
    QTest::mouseClick(list->viewport(), Qt::LeftButton, {}, list->visualItemRect(list->item(row)).center());
}

// The line edit of a field: the field itself, or the one inside a spin box (typed into as a user would).
QLineEdit *fieldEdit(const QWidget &dialog, const QString &name)
{
    if (auto *spin = dialog.findChild<QSpinBox *>(name))
        return spin->findChild<QLineEdit *>();
    return child<QLineEdit>(dialog, name);
}

void typeInto(QLineEdit *edit, const QString &text)
{
    edit->setFocus();
    QTest::keyClick(edit, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClick(edit, Qt::Key_Delete);
    QTest::keyClicks(edit, text);
}

// Add ▸ <template>: the Add button's menu, as a click on one of its items.
void addFromTemplate(const SettingsDialog &dialog, const QString &templateId)
{
    auto *add = child<QPushButton>(dialog, QStringLiteral("addWorkloadButton"));
    QVERIFY(add && add->menu());
    auto *action = add->menu()->findChild<QAction *>(QStringLiteral("addTemplate-") + templateId);
    QVERIFY2(action, qPrintable(templateId));
    action->trigger();
}

QPushButton *dialogButton(const SettingsDialog &dialog, QDialogButtonBox::StandardButton which)
{
    return child<QDialogButtonBox>(dialog, QStringLiteral("buttons"))->button(which);
}

ino_t inodeOf(const QString &path)
{
    struct stat info = {};
    return ::stat(QFile::encodeName(path).constData(), &info) == 0 ? info.st_ino : 0;
}

mode_t modeOf(const QString &path)
{
    struct stat info = {};
    return ::stat(QFile::encodeName(path).constData(), &info) == 0 ? info.st_mode & 07777 : 0;
}

// Watches a folder with inotify on a thread of its own and reads the file named `name` each time a new one lands
// there (renamed into place, or written and closed), as soon as it can: what a running idlegpu would read.
class LandingWatch
{
public:
    LandingWatch(const QString &folder, const QString &name) : m_name(QFile::encodeName(name)), m_path(folder + '/' + name)
    {
        m_fd = ::inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
        if (m_fd >= 0 && ::inotify_add_watch(m_fd, QFile::encodeName(folder).constData(), IN_MOVED_TO | IN_CLOSE_WRITE) >= 0)
            m_thread.reset(QThread::create([this] { run(); }));
        if (m_thread)
            m_thread->start();
    }
    ~LandingWatch()
    {
        stop();
        if (m_fd >= 0)
            ::close(m_fd);
    }
    bool isWatching() const { return bool(m_thread); }
    // Ends the watch once the events so far are read; returns the contents of each file that landed.
    QList<QByteArray> stop()
    {
        m_stop = true;
        if (m_thread)
            m_thread->wait();
        return m_landed;
    }

private:
    void run()
    {
        alignas(struct inotify_event) char buffer[4096];
        for (;;) {
            pollfd p{m_fd, POLLIN, 0};
            if (::poll(&p, 1, 50) <= 0) {
                if (m_stop)
                    return;
                continue;
            }
            const ssize_t size = ::read(m_fd, buffer, sizeof buffer);
            for (ssize_t at = 0; at < size;) {
                const auto *event = reinterpret_cast<const struct inotify_event *>(buffer + at);
                if (event->len > 0 && m_name == event->name) {
                    QFile file(m_path);
                    m_landed.append(file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<gone>"));
                }
                at += ssize_t(sizeof(struct inotify_event)) + event->len;
            }
        }
    }

    QByteArray m_name;
    QString m_path;
    int m_fd = -1;
    std::atomic<bool> m_stop{false};
    std::unique_ptr<QThread> m_thread;
    QList<QByteArray> m_landed; // written by the thread until stop() joins it
};

} // namespace

class TestSettingsDialog : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void init();

    void invalidInputShowsMessageAndDisablesOk_data();
    void invalidInputShowsMessageAndDisablesOk();
    void rangesSharedWithLoader_data();
    void rangesSharedWithLoader();
    void missingProgramNeverBlocksSaving();
    void sharedGpuIsAnOrder();
    void startOrderNotes_data();
    void startOrderNotes();
    void validEditSavesAndReloadsEqual();
    void oneKeyEditKeepsEveryOtherByte_data();
    void oneKeyEditKeepsEveryOtherByte();
    void okWithoutChangeLeavesFileUntouched_data();
    void okWithoutChangeLeavesFileUntouched();
    void addRemoveAndReorderWorkloads();
    void templatesFillFieldsAndSave_data();
    void templatesFillFieldsAndSave();
    void welcomePageStartsTheFirstWorkload();
    void editAndMoveSavesOnce();
    void busyWhenEdits();
    void busyWhenAutoThresholds();
    void activityPageLoadsValues();
    void desktopKeysSaveExactly();
    void defaultsWriteNothing();
    void choosingDefaultRemovesKey();
    void schedulePresetsAndNow();
    void envTextReadsBack_data();
    void envTextReadsBack();
    void runAsUserValidated_data();
    void runAsUserValidated();
    void runAsUserSaved();
    void runAsRootWithoutUserWarned();
    void addFromCurrentHolders();
    void externalChangeOffersReload();
    void testRunShowsOutput();
    void testRunEntersFolderAsUser();
    void discardQuestionOnlyWithEdits();
    void spinBoxesTakeTheKeyRanges_data();
    void spinBoxesTakeTheKeyRanges();
    void tooltipsNameTheKeys_data();
    void tooltipsNameTheKeys();
    void showAsFileIsWhatSaveWrites();
    void noIconsOnDialogButtons();
    void emptyListsSayWhatApplies();
    void batteryAndHeatOnTheirOwnPage();
    void plainWordsInTitleAndSummary();
    void screenshots();

private:
    QString m_path;
    std::unique_ptr<QTemporaryDir> m_dir;
    QString m_fakeBin;
};

void TestSettingsDialog::initTestCase()
{
    // "Start at login" writes under XDG_CONFIG_HOME: never the real one.
    static QTemporaryDir configHome;
    qputenv("XDG_CONFIG_HOME", QFile::encodeName(configHome.path()));
    // gpu_mon's examples run "miner-run": a program of that name must exist for them to validate.
    static QTemporaryDir bin;
    m_fakeBin = bin.path();
    QFile miner(m_fakeBin + QStringLiteral("/miner-run"));
    QVERIFY(miner.open(QIODevice::WriteOnly));
    miner.write("#!/bin/sh\nexit 0\n");
    miner.close();
    QVERIFY(miner.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
    qputenv("PATH", QFile::encodeName(m_fakeBin) + ':' + qgetenv("PATH"));
}

void TestSettingsDialog::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_path = m_dir->filePath(QStringLiteral("idlegpu.conf"));
    writeAll(m_path, twoWorkloads);
    for (const char *name : {"not-a-program", "read-only.log"}) {
        QFile file(m_dir->filePath(QLatin1String(name)));
        QVERIFY(file.open(QIODevice::WriteOnly));
        QVERIFY(file.setPermissions(QFileDevice::ReadOwner));
    }
}

void TestSettingsDialog::invalidInputShowsMessageAndDisablesOk_data()
{
    QTest::addColumn<int>("page");
    QTest::addColumn<int>("workloadRow");
    QTest::addColumn<QString>("widget"); // a line edit to type into, or a check box to click
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("message");
    QTest::addColumn<QString>("expected");

    const int workloads = SettingsDialog::WorkloadsPage;
    // Schedule::parse's own message, whole.
    QTest::newRow("schedule, not a day") << int(SettingsDialog::ActivityPage) << -1 << "scheduleEdit"
                                         << "Mo-Fr 18:00-08:00" << "scheduleError"
                                         << "Not a schedule: 'Mo-Fr' in 'Mo-Fr 18:00-08:00' is not a day or a range "
                                            "of days (Mon..Sun, like Mon-Fri).";
    QTest::newRow("schedule, not a time") << int(SettingsDialog::ActivityPage) << -1 << "scheduleEdit"
                                          << "Sat, 25:00-08:00"
                                          << "scheduleError"
                                          << "'25:00-08:00' in '25:00-08:00' is not a time range";
    // A program not found is a warning (missingProgramNeverBlocksSaving); one that its user may not run, an error.
    QTest::newRow("command not executable") << workloads << 0 << "cmdEdit"
                                            << "%TMP%/not-a-program"
                                            << "cmdError"
                                            << "is not a program the workload's user can run";
    QTest::newRow("unterminated quote") << workloads << 0 << "cmdEdit" << "sh -c 'echo" << "cmdError"
                                        << "unterminated single quote";
    QTest::newRow("folder missing") << workloads << 0 << "dirEdit" << "/no/such/folder" << "dirError"
                                    << "“/no/such/folder” does not exist";
    QTest::newRow("log folder missing") << workloads << 0 << "logEdit" << "/no/such/folder/miner.log" << "logError"
                                        << "“/no/such/folder” does not exist";
    QTest::newRow("log not writable") << workloads << 0 << "logEdit" << "%TMP%/read-only.log" << "logError"
                                      << "not writable";
    QTest::newRow("log is a folder") << workloads << 0 << "logEdit" << "%TMP%" << "logError" << "is a folder";
    QTest::newRow("duplicate name") << workloads << 1 << "nameEdit" << "one" << "nameError"
                                    << "already named “one”";
    QTest::newRow("empty name") << workloads << 1 << "nameEdit" << "" << "nameError" << "Enter a name";
    QTest::newRow("no GPU chosen") << workloads << 0 << "workloadGpusGpu0" << "" << "workloadGpusError"
                                   << "at least one GPU";
    QTest::newRow("unknown user") << workloads << 0 << "userEdit" << "idlegpu-no-such-user" << "userError"
                                  << "There is no user “idlegpu-no-such-user”";
}

void TestSettingsDialog::invalidInputShowsMessageAndDisablesOk()
{
    QFETCH(int, page);
    QFETCH(int, workloadRow);
    QFETCH(QString, widget);
    QFETCH(QString, text);
    QFETCH(QString, message);
    QFETCH(QString, expected);
    text.replace(QStringLiteral("%TMP%"), m_dir->path());
    if (expected == QLatin1String("not writable") && ::geteuid() == 0)
        QSKIP("root may write to any file");

    SettingsDialog dialog(m_path);
    dialog.setMonitorState(gpus01());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QVERIFY(dialogButton(dialog, QDialogButtonBox::Ok)->isEnabled());
    openTab(dialog, SettingsDialog::Page(page));
    if (workloadRow >= 0)
        selectRow(child<QListWidget>(dialog, QStringLiteral("workloadList")), workloadRow);

    auto *label = child<QLabel>(dialog, message);
    QVERIFY(label);
    if (message == QLatin1String("userError") && ::geteuid() == 0) {
        // As root (CI) the workload, which names no user, runs as root: warned from the start, Ok still enabled.
        QVERIFY(label->isVisibleTo(&dialog));
        QVERIFY2(label->text().contains(QStringLiteral("without a user this workload runs as root")),
                 qPrintable(label->text()));
    } else {
        QVERIFY(!label->isVisibleTo(&dialog));
    }
    if (auto *edit = dialog.findChild<QLineEdit *>(widget)) {
        typeInto(edit, text);
    } else {
        auto *box = child<QCheckBox>(dialog, widget);
        QVERIFY(box);
        QTest::mouseClick(box, Qt::LeftButton, {}, QPoint(5, box->height() / 2));
    }

    QVERIFY2(label->text().contains(expected), qPrintable(label->text()));
    QVERIFY(label->isVisibleTo(&dialog));
    QVERIFY(!child<QLabel>(dialog, message + QStringLiteral("Icon"))->pixmap().isNull()); // not colour alone
    QVERIFY(!dialogButton(dialog, QDialogButtonBox::Ok)->isEnabled());
    QVERIFY(!dialogButton(dialog, QDialogButtonBox::Apply)->isEnabled());
    QVERIFY(child<QLabel>(dialog, QStringLiteral("problemSummary"))->text().contains(expected));

    // Enter and a click on the disabled OK change nothing.
    QTest::mouseClick(dialogButton(dialog, QDialogButtonBox::Ok), Qt::LeftButton);
    QVERIFY(dialog.isVisible());
    QVERIFY(!dialog.apply());
    QCOMPARE(readAll(m_path), twoWorkloads);
}

// The dialog refuses exactly the numbers ConfigLoader refuses, and names the same bounds (the rows of
// config/configkeys.h).
void TestSettingsDialog::rangesSharedWithLoader_data()
{
    QTest::addColumn<QString>("field");   // SettingsProblem::field
    QTest::addColumn<QByteArray>("file"); // a config with the value as %1
    QTest::addColumn<qint64>("min");
    QTest::addColumn<qint64>("max");
    const auto add = [](const char *name, const char *field, const QByteArray &file, ConfigRange range) {
        QTest::newRow(name) << QString::fromLatin1(field) << file << range.min << range.max;
    };
    const auto range = [](const char *section, const char *key) {
        return ConfigKeys::row(QLatin1String(section), QLatin1String(key)).range;
    };
    add("interval_seconds", "defaults/interval_seconds", "[defaults]\ninterval_seconds = %1\n",
        range("defaults", "interval_seconds"));
    add("start_delay_seconds", "defaults/start_delay_seconds", "[defaults]\nstart_delay_seconds = %1\n",
        range("defaults", "start_delay_seconds"));
    add("stop_timeout_seconds", "stopTimeout", "[process-a]\ncmd = true\nstop_timeout_seconds = %1\n",
        range("process-*", "stop_timeout_seconds"));
    add("idle_seconds", "tty/idle_seconds", "[tty]\nidle_seconds = %1\n", range("tty", "idle_seconds"));
    add("activity idle_seconds", "activity/idle_seconds", "[activity]\nidle_seconds = %1\n",
        range("activity", "idle_seconds"));
}

void TestSettingsDialog::rangesSharedWithLoader()
{
    QFETCH(QString, field);
    QFETCH(QByteArray, file);
    QFETCH(qint64, min);
    QFETCH(qint64, max);
    const QString bounds = QStringLiteral("%1 to %2").arg(min).arg(max);
    const QStringList values{QString::number(min - 1), QString::number(min), QStringLiteral(" +%1 ").arg(min),
                             QString::number(max), QString::number(max + 1), QStringLiteral("ten"),
                             QStringLiteral("99999999999999999999")};
    for (const QString &value : values) {
        const ConfigLoadResult loaded = ConfigLoader::parse(QString::fromUtf8(file).arg(value).toUtf8(), "test.conf");
        QStringList loaderErrors;
        for (const ConfigDiagnostic &d : loaded.diagnostics)
            if (d.severity == ConfigDiagnostic::Error && d.refusedWorkload.isEmpty()) // user= is not the point
                loaderErrors.append(d.message);

        SettingsDraft draft = SettingsDraft::fromConfig(Config());
        WorkloadDraft workload;
        workload.name = QStringLiteral("a");
        workload.cmd = QStringLiteral("true");
        draft.workloads.append(workload);
        if (field == QLatin1String("stopTimeout"))
            draft.workloads[0].stopTimeout = value;
        else
            draft.keys[field] = value;
        QStringList dialogErrors;
        for (const SettingsProblem &problem : DraftRules::validate(draft, {0, 1}))
            if (problem.field == field && problem.severity == SettingsProblem::Error)
                dialogErrors.append(problem.message);

        QCOMPARE(dialogErrors.isEmpty(), loaderErrors.isEmpty());
        if (!loaderErrors.isEmpty()) {
            QVERIFY2(loaderErrors.first().contains(QLatin1Char('(') + bounds), qPrintable(loaderErrors.first()));
            QVERIFY2(dialogErrors.first().contains(QStringLiteral("from ") + bounds), qPrintable(dialogErrors.first()));
        }
    }
}

// gpu_mon's own example names cmd=miner-run, which is on no PATH here: a warning on that field (the program may be
// there by the time the workload starts), as `idlegpu --check-config` says too; it keeps no edit from being saved,
// the poll interval's or the command's own.
void TestSettingsDialog::missingProgramNeverBlocksSaving()
{
    // Without the miner-run that initTestCase() puts on PATH for the other tests.
    const QByteArray path = qgetenv("PATH");
    const auto restorePath = qScopeGuard([path] { qputenv("PATH", path); });
    QByteArray withoutMiner = path;
    withoutMiner.replace(QFile::encodeName(m_fakeBin) + ':', QByteArray());
    qputenv("PATH", withoutMiner);

    QFile example(QStringLiteral(IDLEGPU_TEST_DATA "/gpu_mon_example_all.conf"));
    QVERIFY(example.open(QIODevice::ReadOnly));
    const ConfigLoadResult loaded = ConfigLoader::parse(example.readAll(), QStringLiteral("gpu_mon.conf"));
    QVERIFY(loaded.ok());
    SettingsDraft draft = SettingsDraft::fromConfig(loaded.config);
    draft.keys[QStringLiteral("defaults/interval_seconds")] = QStringLiteral("20");
    draft.workloads[0].cmd = QStringLiteral("miner-run --pool eu1");
    QList<SettingsProblem> cmdProblems;
    for (const SettingsProblem &problem : DraftRules::validate(draft, {0, 1})) {
        QVERIFY2(problem.severity != SettingsProblem::Error, qPrintable(problem.field + ": " + problem.message));
        if (problem.field == QLatin1String("cmd"))
            cmdProblems.append(problem);
    }
    QCOMPARE(cmdProblems.size(), 1);
    QCOMPARE(cmdProblems.first().severity, SettingsProblem::Warning);
    QCOMPARE(cmdProblems.first().message,
             QStringLiteral("The program “miner-run” is not found in the workload's PATH: the workload cannot start "
                            "until it is there."));
}

// Two workloads on the same GPU are an order, not an error: each says which one runs first and which waits,
// and the file is saved.
void TestSettingsDialog::sharedGpuIsAnOrder()
{
    SettingsDialog dialog(m_path);
    dialog.setMonitorState(gpus01());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    openTab(dialog, SettingsDialog::WorkloadsPage);
    auto *list = child<QListWidget>(dialog, QStringLiteral("workloadList"));
    auto *note = child<QLabel>(dialog, QStringLiteral("workloadGpusError"));
    selectRow(list, 1); // "two", gpus = 1
    QVERIFY(!note->isVisibleTo(&dialog));
    auto *gpu0 = child<QCheckBox>(dialog, QStringLiteral("workloadGpusGpu0"));
    QTest::mouseClick(gpu0, Qt::LeftButton, {}, QPoint(5, gpu0->height() / 2));

    QVERIFY(note->isVisibleTo(&dialog));
    QCOMPARE(note->text(), QStringLiteral("“one” goes first on a GPU this workload also uses: this one waits while "
                                          "it runs there."));
    QVERIFY(!child<QLabel>(dialog, QStringLiteral("workloadGpusErrorIcon"))->pixmap().isNull());
    QVERIFY(child<QLabel>(dialog, QStringLiteral("problemSummary"))->text().isEmpty());
    QVERIFY(list->item(1)->icon().isNull()); // no error mark in the list
    selectRow(list, 0);
    QCOMPARE(note->text(), QStringLiteral("“two” also uses one of its GPUs and waits while this one runs there."));
    // The rule, said once under the list: what Policy::startOrder() does.
    QCOMPARE(child<QLabel>(dialog, QStringLiteral("orderRule"))->text(),
             QStringLiteral("A GPU runs one workload at a time. When several want the same GPU, workloads on all GPUs "
                            "go first, then the others in the order of this list. A running workload is never stopped "
                            "to make way for another."));
    QVERIFY(dialogButton(dialog, QDialogButtonBox::Apply)->isEnabled());
    QTest::mouseClick(dialogButton(dialog, QDialogButtonBox::Ok), Qt::LeftButton);
    QVERIFY(!dialog.isVisible());
    const ConfigLoadResult saved = ConfigLoader::load(m_path);
    QVERIFY(saved.ok());
    QCOMPARE(saved.config.workloads.at(1).gpus, GpuSelection::of({0, 1}));
}

// Which workload the note says runs first follows the policy's order: gpus=ALL before GPU lists, then the list.
void TestSettingsDialog::startOrderNotes_data()
{
    QTest::addColumn<QStringList>("gpus"); // per workload "a", "b", "c" in list order; "-" disables it
    QTest::addColumn<QStringList>("notes"); // per workload: the start of its note, "" for none
    QTest::newRow("apart") << QStringList{"0", "1"} << QStringList{"", ""};
    QTest::newRow("lists share GPU 1") << QStringList{"0,1", "1"}
                                       << QStringList{"“b” also uses one of its GPUs and waits",
                                                      "“a” goes first on a GPU this workload also uses"};
    QTest::newRow("ALL comes first though lower")
        << QStringList{"1", "ALL"}
        << QStringList{"“b” goes first on a GPU this workload also uses", "“a” also uses one of its GPUs and waits"};
    QTest::newRow("two ALL") << QStringList{"ALL", "ALL"}
                             << QStringList{"“b” also uses one of its GPUs and waits", "“a” goes first"};
    QTest::newRow("disabled keeps none waiting") << QStringList{"-0", "0"} << QStringList{"", ""};
    // Every workload it shares a GPU with is named, not only the first.
    QTest::newRow("three on one GPU")
        << QStringList{"0", "0", "0"}
        << QStringList{QLocale().createSeparatedList({"“b”", "“c”"})
                           + " also use its GPUs and wait while this one runs there.",
                       "“a” goes first on a GPU this workload also uses: this one waits while it runs there. “c” also "
                       "uses one of its GPUs and waits while this one runs there.",
                       QLocale().createSeparatedList({"“a”", "“b”"})
                           + " go first on GPUs this workload also uses: this one waits while they run there."};
}

void TestSettingsDialog::startOrderNotes()
{
    QFETCH(QStringList, gpus);
    QFETCH(QStringList, notes);
    SettingsDraft draft;
    for (int i = 0; i < gpus.size(); ++i) {
        WorkloadDraft workload;
        workload.name = QString(QLatin1Char('a' + i));
        workload.cmd = QStringLiteral("true");
        QString text = gpus.at(i);
        workload.enabled = !text.startsWith(QLatin1Char('-'));
        text.remove(QLatin1Char('-'));
        QString error;
        workload.gpus = GpuSelection::parse(text, &error).value();
        draft.workloads.append(workload);
    }
    QStringList found(gpus.size());
    for (const SettingsProblem &problem : DraftRules::validate(draft, {0, 1})) {
        if (problem.field != QLatin1String("gpus"))
            continue;
        QCOMPARE(int(problem.severity), int(SettingsProblem::Note));
        QVERIFY2(found[problem.item].isEmpty(), "one note per workload");
        found[problem.item] = problem.message;
    }
    for (int i = 0; i < gpus.size(); ++i) {
        if (notes.at(i).isEmpty())
            QVERIFY2(found.at(i).isEmpty(), qPrintable(found.at(i)));
        else
            QVERIFY2(found.at(i).startsWith(notes.at(i)), qPrintable(found.at(i)));
    }
}

void TestSettingsDialog::validEditSavesAndReloadsEqual()
{
    const ConfigLoadResult before = ConfigLoader::load(m_path);
    QVERIFY(before.ok());
    SettingsDialog dialog(m_path);
    QSignalSpy saved(&dialog, &SettingsDialog::configSaved);
    dialog.setMonitorState(gpus01());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));

    typeInto(fieldEdit(dialog, QStringLiteral("startDelaySpin")), QStringLiteral("25"));
    QTest::mouseClick(child<QCheckBox>(dialog, QStringLiteral("notifyFailure")), Qt::LeftButton, {}, QPoint(5, 5));
    openTab(dialog, SettingsDialog::WorkloadsPage);
    selectRow(child<QListWidget>(dialog, QStringLiteral("workloadList")), 1);
    typeInto(child<QLineEdit>(dialog, QStringLiteral("nameEdit")), QStringLiteral("Second one"));
    typeInto(fieldEdit(dialog, QStringLiteral("stopTimeoutSpin")), QStringLiteral("30"));
    typeInto(child<QLineEdit>(dialog, QStringLiteral("dirEdit")), m_dir->path());
    QTest::mouseClick(child<QPushButton>(dialog, QStringLiteral("addEnvButton")), Qt::LeftButton);
    auto *env = child<QTableWidget>(dialog, QStringLiteral("envTable"));
    env->setItem(0, 0, new QTableWidgetItem(QStringLiteral("MSG")));
    env->setItem(0, 1, new QTableWidgetItem(QStringLiteral("it's a \"test\" $HOME")));
    openTab(dialog, SettingsDialog::ActivityPage);
    QTest::mouseClick(child<QCheckBox>(dialog, QStringLiteral("ttyEnabledCheck")), Qt::LeftButton, {}, QPoint(5, 5));
    typeInto(child<QLineEdit>(dialog, QStringLiteral("whitelistEdit")), QStringLiteral("alice, bob"));

    QVERIFY(dialogButton(dialog, QDialogButtonBox::Apply)->isEnabled());
    QTest::mouseClick(dialogButton(dialog, QDialogButtonBox::Ok), Qt::LeftButton);
    QVERIFY(!dialog.isVisible());
    QCOMPARE(saved.count(), 1);

    const ConfigLoadResult after = ConfigLoader::load(m_path);
    QVERIFY2(after.ok(), qPrintable(after.diagnostics.isEmpty() ? QString() : after.diagnostics.first().toString()));
    Config expected = before.config;
    expected.startDelaySeconds = 25;
    expected.notify.failure = false;
    expected.workloads[1].name = QStringLiteral("Second one");
    expected.workloads[1].stopTimeoutSeconds = 30;
    expected.workloads[1].dir = m_dir->path();
    expected.workloads[1].env = {{QStringLiteral("MSG"), QStringLiteral("it's a \"test\" $HOME")}};
    expected.tty.enabled = true;
    expected.tty.whitelist = {QStringLiteral("alice"), QStringLiteral("bob")};
    QVERIFY(after.config.settings() == expected.settings());
    QCOMPARE(modeOf(m_path), mode_t(0600));
}

void TestSettingsDialog::oneKeyEditKeepsEveryOtherByte_data()
{
    QTest::addColumn<QByteArray>("original");
    QTest::addColumn<int>("page");
    QTest::addColumn<QString>("edit");
    QTest::addColumn<QString>("text");
    QTest::addColumn<QByteArray>("oldLine");
    QTest::addColumn<QByteArray>("newLine");

    QFile example(QStringLiteral(IDLEGPU_TEST_DATA "/gpu_mon_example_all.conf"));
    QVERIFY(example.open(QIODevice::ReadOnly));
    const QByteArray exampleAll = example.readAll();
    const int general = SettingsDialog::GeneralPage, activity = SettingsDialog::ActivityPage;
    QTest::newRow("gpu_mon example, interval")
        << exampleAll << general << "intervalSpin"
        << "20" << QByteArray("interval_seconds=10") << QByteArray("interval_seconds=20");
    QTest::newRow("gpu_mon example, idle") << exampleAll << activity << "ttyIdleSpin"
                                           << "60" << QByteArray("idle_seconds=300") << QByteArray("idle_seconds=60");
    QTest::newRow("comments, interval") << commented << general << "intervalSpin"
                                        << "20" << QByteArray("interval_seconds = 10   ")
                                        << QByteArray("interval_seconds = 20");
    QTest::newRow("comments, start delay")
        << commented << general << "startDelaySpin"
        << "0" << QByteArray("start_delay_seconds: 3") << QByteArray("start_delay_seconds: 0");
    QTest::newRow("comments, idle") << commented << activity << "ttyIdleSpin"
                                    << "600" << QByteArray("idle_seconds = 300") << QByteArray("idle_seconds = 600");
}

void TestSettingsDialog::oneKeyEditKeepsEveryOtherByte()
{
    QFETCH(QByteArray, original);
    QFETCH(int, page);
    QFETCH(QString, edit);
    QFETCH(QString, text);
    QFETCH(QByteArray, oldLine);
    QFETCH(QByteArray, newLine);
    writeAll(m_path, original);

    SettingsDialog dialog(m_path);
    dialog.setMonitorState(gpus01());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QVERIFY2(dialogButton(dialog, QDialogButtonBox::Ok)->isEnabled(),
             qPrintable(child<QLabel>(dialog, QStringLiteral("problemSummary"))->text()));
    openTab(dialog, SettingsDialog::Page(page));
    typeInto(fieldEdit(dialog, edit), text);
    QTest::mouseClick(dialogButton(dialog, QDialogButtonBox::Ok), Qt::LeftButton);
    QVERIFY(!dialog.isVisible());

    QCOMPARE(original.count(oldLine), 1);
    QByteArray expected = original;
    expected.replace(oldLine, newLine);
    QCOMPARE(readAll(m_path), expected);
    QCOMPARE(modeOf(m_path), mode_t(0600));
    QVERIFY(ConfigLoader::load(m_path).ok());
}

// "The GPU is busy when": the combo writes busy_when, the MiB field busy_memory_mib (for memory and auto, once
// set), and the file reads back as chosen; back to the default removes busy_when and keeps the MiB given, which
// auto uses too.
void TestSettingsDialog::busyWhenEdits()
{
    writeAll(m_path, "[gpu-all]\ngpus = ALL\n\n[process-a]\ncmd = sleep 1\n");
    {
        SettingsDialog dialog(m_path);
        dialog.setMonitorState(gpus01());
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        openTab(dialog, SettingsDialog::GroupsPage);
        child<QListWidget>(dialog, QStringLiteral("groupList"))->setCurrentRow(0);
        auto *busyWhen = child<QComboBox>(dialog, QStringLiteral("busyWhen"));
        auto *memory = child<QSpinBox>(dialog, QStringLiteral("busyMemoryMib"));
        auto *percent = child<QSpinBox>(dialog, QStringLiteral("graphicsBusyPercent"));
        QCOMPARE(busyWhen->currentIndex(), 0);
        QVERIFY(memory->isEnabled());
        QVERIFY(percent->isEnabled());
        QCOMPARE(memory->value(), int(GpuGroupConfig::kDefaultGraphicsBusyMemoryMib)); // auto's default
        QCOMPARE(percent->value(), GpuGroupConfig::kDefaultGraphicsBusyPercent);
        busyWhen->setCurrentIndex(busyWhen->findData(QStringLiteral("opened")));
        QVERIFY(!memory->isEnabled());
        QVERIFY(!percent->isEnabled());
        busyWhen->setCurrentIndex(busyWhen->findData(QStringLiteral("memory")));
        QVERIFY(memory->isEnabled());
        QVERIFY(!percent->isEnabled());
        QCOMPARE(memory->value(), int(GpuGroupConfig::kDefaultBusyMemoryMib)); // memory's default
        memory->setValue(512);
        QTest::mouseClick(dialogButton(dialog, QDialogButtonBox::Ok), Qt::LeftButton);
        QVERIFY(!dialog.isVisible());
    }
    QVERIFY2(readAll(m_path).contains("busy_memory_mib = 512\nbusy_when = memory\n"), readAll(m_path).constData());
    ConfigLoadResult loaded = ConfigLoader::load(m_path);
    QVERIFY(loaded.ok());
    QCOMPARE(loaded.config.busyRuleFor(1).memoryThresholdBytes, qint64(512) << 20);
    QVERIFY(!loaded.config.busyRuleFor(1).opened);
    QVERIFY(!loaded.config.busyRuleFor(1).byClientKind);
    {
        SettingsDialog dialog(m_path);
        dialog.setMonitorState(gpus01());
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        openTab(dialog, SettingsDialog::GroupsPage);
        child<QListWidget>(dialog, QStringLiteral("groupList"))->setCurrentRow(0);
        auto *busyWhen = child<QComboBox>(dialog, QStringLiteral("busyWhen"));
        QCOMPARE(busyWhen->currentData().toString(), QStringLiteral("memory"));
        QCOMPARE(child<QSpinBox>(dialog, QStringLiteral("busyMemoryMib"))->value(), 512);
        busyWhen->setCurrentIndex(0);
        QCOMPARE(child<QSpinBox>(dialog, QStringLiteral("busyMemoryMib"))->value(), 512); // given: auto uses it
        QTest::mouseClick(dialogButton(dialog, QDialogButtonBox::Ok), Qt::LeftButton);
    }
    QCOMPARE(readAll(m_path), QByteArray("[gpu-all]\ngpus = ALL\nbusy_memory_mib = 512\n\n[process-a]\ncmd = sleep 1\n"));
    loaded = ConfigLoader::load(m_path);
    QVERIFY(loaded.ok());
    const BusyRule rule = loaded.config.busyRuleFor(1);
    QVERIFY(rule.byClientKind);
    QVERIFY(!rule.opened);
    QCOMPARE(rule.graphicsMemoryBytes, qint64(512) << 20);
}

// busy_when = auto chosen in so many words, its percentage changed: busy_memory_mib, never set, is not written.
void TestSettingsDialog::busyWhenAutoThresholds()
{
    writeAll(m_path, "[gpu-all]\ngpus = ALL\n\n[process-a]\ncmd = sleep 1\n");
    SettingsDialog dialog(m_path);
    dialog.setMonitorState(gpus01());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    openTab(dialog, SettingsDialog::GroupsPage);
    selectRow(child<QListWidget>(dialog, QStringLiteral("groupList")), 0);
    QVERIFY(child<QLabel>(dialog, QStringLiteral("clientKindsHint"))->isVisibleTo(&dialog));
    auto *busyWhen = child<QComboBox>(dialog, QStringLiteral("busyWhen"));
    busyWhen->setCurrentIndex(busyWhen->findData(QStringLiteral("auto")));
    auto *percent = child<QSpinBox>(dialog, QStringLiteral("graphicsBusyPercent"));
    QVERIFY(percent->isEnabled());
    percent->setFocus();
    QTest::keyClick(percent, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(percent, QStringLiteral("55"));
    QCOMPARE(percent->value(), 55);
    QTest::mouseClick(dialogButton(dialog, QDialogButtonBox::Ok), Qt::LeftButton);
    QVERIFY(!dialog.isVisible());
    QCOMPARE(readAll(m_path), QByteArray("[gpu-all]\ngpus = ALL\nbusy_when = auto\ngraphics_busy_percent = 55\n\n"
                                         "[process-a]\ncmd = sleep 1\n"));
    const ConfigLoadResult loaded = ConfigLoader::load(m_path);
    QVERIFY(loaded.ok());
    QCOMPARE(loaded.config.busyRuleFor(0).graphicsBusyPercent, 55);
    QCOMPARE(loaded.config.busyRuleFor(0).graphicsMemoryBytes, GpuGroupConfig::kDefaultGraphicsBusyMemoryMib << 20);
}

// A file with every new key: the widgets show their values.
void TestSettingsDialog::activityPageLoadsValues()
{
    writeAll(m_path, desktopKeys);
    SettingsDialog dialog(m_path);
    dialog.setMonitorState(gpus01());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QVERIFY2(dialogButton(dialog, QDialogButtonBox::Ok)->isEnabled(),
             qPrintable(child<QLabel>(dialog, QStringLiteral("problemSummary"))->text()));
    openTab(dialog, SettingsDialog::ActivityPage);
    QVERIFY(child<QCheckBox>(dialog, QStringLiteral("pauseWhileActiveCheck"))->isChecked());
    QCOMPARE(child<QSpinBox>(dialog, QStringLiteral("activityIdleSpin"))->value(), 120);
    QVERIFY(fieldEdit(dialog, QStringLiteral("activityIdleSpin"))->isEnabled());
    // The file's own words, on one line.
    QCOMPARE(child<QLineEdit>(dialog, QStringLiteral("scheduleEdit"))->text(),
             QStringLiteral("Mon-Fri 18:00-08:00, Sat, Sun"));
    QVERIFY(!child<QLabel>(dialog, QStringLiteral("scheduleError"))->isVisibleTo(&dialog));
    QVERIFY(child<QLabel>(dialog, QStringLiteral("scheduleNow"))->text().startsWith(QStringLiteral("Now ")));
    QCOMPARE(child<QComboBox>(dialog, QStringLiteral("onBatteryCombo"))->currentData().toInt(), int(OnBattery::Run));
    auto *temperature = child<QSpinBox>(dialog, QStringLiteral("maxTemperatureSpin"));
    QCOMPARE(temperature->value(), 83);
    QCOMPARE(temperature->text(), QStringLiteral("83 °C"));
    const ConfigRange temperatureRange = ConfigKeys::row(QStringLiteral("defaults"), QStringLiteral("max_temperature_c")).range;
    QCOMPARE(temperature->minimum(), int(temperatureRange.min));
    QCOMPARE(temperature->maximum(), int(temperatureRange.max));
    // Each field of a key says which, for the dialog to show.
    QCOMPARE(SettingsPage::configKeyOf(temperature), QStringLiteral("[defaults] max_temperature_c"));
    QCOMPARE(SettingsPage::configKeyOf(child<QSpinBox>(dialog, QStringLiteral("activityIdleSpin"))),
             QStringLiteral("[activity] idle_seconds"));

    openTab(dialog, SettingsDialog::GroupsPage);
    selectRow(child<QListWidget>(dialog, QStringLiteral("groupList")), 0);
    QCOMPARE(child<QComboBox>(dialog, QStringLiteral("busyWhen"))->currentData().toString(), QStringLiteral("auto"));
    QCOMPARE(child<QSpinBox>(dialog, QStringLiteral("graphicsBusyPercent"))->value(), 40);
    QCOMPARE(child<QSpinBox>(dialog, QStringLiteral("busyMemoryMib"))->value(), 2048);

    openTab(dialog, SettingsDialog::WorkloadsPage);
    QCOMPARE(child<QComboBox>(dialog, QStringLiteral("priorityCombo"))->currentData().toInt(),
             int(WorkloadPriority::Low));

    // A file without them: the defaults.
    writeAll(m_path, twoWorkloads);
    dialog.reload();
    openTab(dialog, SettingsDialog::ActivityPage);
    QVERIFY(!child<QCheckBox>(dialog, QStringLiteral("pauseWhileActiveCheck"))->isChecked());
    QVERIFY(!fieldEdit(dialog, QStringLiteral("activityIdleSpin"))->isEnabled());
    QCOMPARE(child<QSpinBox>(dialog, QStringLiteral("activityIdleSpin"))->value(), 300);
    QCOMPARE(child<QLineEdit>(dialog, QStringLiteral("scheduleEdit"))->text(), QString());
    QVERIFY(!child<QLabel>(dialog, QStringLiteral("scheduleNow"))->isVisibleTo(&dialog));
    QCOMPARE(child<QComboBox>(dialog, QStringLiteral("onBatteryCombo"))->currentData().toInt(), int(OnBattery::Pause));
    QCOMPARE(temperature->value(), 0);
    QCOMPARE(temperature->text(), QStringLiteral("Off"));
    openTab(dialog, SettingsDialog::WorkloadsPage);
    QCOMPARE(child<QComboBox>(dialog, QStringLiteral("priorityCombo"))->currentData().toInt(),
             int(WorkloadPriority::Idle));
}

// Each new field edited through its widget: exactly its key is written (new sections at the end), the rest of the
// file stays byte for byte, and the loader reads back what was chosen.
void TestSettingsDialog::desktopKeysSaveExactly()
{
    SettingsDialog dialog(m_path);
    dialog.setMonitorState(gpus01());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    openTab(dialog, SettingsDialog::ActivityPage);
    auto *pauseWhileActive = child<QCheckBox>(dialog, QStringLiteral("pauseWhileActiveCheck"));
    QTest::mouseClick(pauseWhileActive, Qt::LeftButton, {}, QPoint(5, pauseWhileActive->height() / 2));
    auto *activityIdle = fieldEdit(dialog, QStringLiteral("activityIdleSpin"));
    QVERIFY(activityIdle->isEnabled());
    typeInto(activityIdle, QStringLiteral("31536001")); // the spin box takes no number beyond the key's range
    QCOMPARE(child<QSpinBox>(dialog, QStringLiteral("activityIdleSpin"))->value(), 3153600);
    QVERIFY(dialogButton(dialog, QDialogButtonBox::Ok)->isEnabled());
    typeInto(activityIdle, QStringLiteral("90"));
    QVERIFY(!child<QLabel>(dialog, QStringLiteral("activityIdleError"))->isVisibleTo(&dialog));
    typeInto(child<QLineEdit>(dialog, QStringLiteral("scheduleEdit")), QStringLiteral(" Mon-Fri 18:00-08:00, Sat "));
    openTab(dialog, SettingsDialog::PowerPage);
    auto *onBattery = child<QComboBox>(dialog, QStringLiteral("onBatteryCombo"));
    onBattery->setFocus();
    QTest::keyClick(onBattery, Qt::Key_Down);
    QCOMPARE(onBattery->currentData().toInt(), int(OnBattery::Run));
    auto *temperature = child<QSpinBox>(dialog, QStringLiteral("maxTemperatureSpin"));
    temperature->setFocus();
    QTest::keyClick(temperature, Qt::Key_A, Qt::ControlModifier);
    QTest::keyClicks(temperature, QStringLiteral("84"));
    QCOMPARE(temperature->value(), 84);
    openTab(dialog, SettingsDialog::WorkloadsPage);
    selectRow(child<QListWidget>(dialog, QStringLiteral("workloadList")), 1);
    auto *priority = child<QComboBox>(dialog, QStringLiteral("priorityCombo"));
    priority->setCurrentIndex(priority->findData(int(WorkloadPriority::Normal)));

    QVERIFY(dialogButton(dialog, QDialogButtonBox::Apply)->isEnabled());
    QTest::mouseClick(dialogButton(dialog, QDialogButtonBox::Ok), Qt::LeftButton);
    QVERIFY(!dialog.isVisible());
    QCOMPARE(readAll(m_path),
             QByteArray("# two workloads, one per GPU\n[defaults]\ninterval_seconds = 5\nmax_temperature_c = 84\n"
                        "on_battery = run\n\n[gpu-all]\ngpus = ALL\nignore_programs = nvidia-smi\n\n; the first one\n"
                        "[process-one]\ncmd = sh -c 'sleep 1'\ngpus = 0\n\n[process-two]\ncmd = true\ngpus = 1\n"
                        "priority = normal\n\n[activity]\nidle_seconds = 90\npause_while_active = true\n\n"
                        "[schedule]\nrun = Mon-Fri 18:00-08:00, Sat\n"));
    const ConfigLoadResult loaded = ConfigLoader::load(m_path);
    QVERIFY2(loaded.ok(), qPrintable(loaded.diagnostics.value(0).toString()));
    QVERIFY(loaded.config.activity.pauseWhileActive);
    QCOMPARE(loaded.config.activity.idleSeconds, 90);
    QString message;
    QCOMPARE(loaded.config.schedule, *Schedule::parse(QStringLiteral("Mon-Fri 18:00-08:00, Sat"), &message));
    QCOMPARE(loaded.config.onBattery, OnBattery::Run);
    QCOMPARE(loaded.config.maxTemperatureC, 84);
    QCOMPARE(loaded.config.workloads.at(0).priority, WorkloadPriority::Idle);
    QCOMPARE(loaded.config.workloads.at(1).priority, WorkloadPriority::Normal);
}

// Every new field moved off its default and back: nothing to save, and the file stays as it was.
void TestSettingsDialog::defaultsWriteNothing()
{
    const ino_t inode = inodeOf(m_path);
    SettingsDialog dialog(m_path);
    dialog.setMonitorState(gpus01());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    openTab(dialog, SettingsDialog::ActivityPage);
    auto *pauseWhileActive = child<QCheckBox>(dialog, QStringLiteral("pauseWhileActiveCheck"));
    QTest::mouseClick(pauseWhileActive, Qt::LeftButton, {}, QPoint(5, pauseWhileActive->height() / 2));
    QVERIFY(dialog.hasUnsavedChanges());
    typeInto(fieldEdit(dialog, QStringLiteral("activityIdleSpin")), QStringLiteral("60"));
    typeInto(fieldEdit(dialog, QStringLiteral("activityIdleSpin")), QStringLiteral("300"));
    QTest::mouseClick(pauseWhileActive, Qt::LeftButton, {}, QPoint(5, pauseWhileActive->height() / 2));
    typeInto(child<QLineEdit>(dialog, QStringLiteral("scheduleEdit")), QStringLiteral("Sat"));
    QVERIFY(dialog.hasUnsavedChanges());
    typeInto(child<QLineEdit>(dialog, QStringLiteral("scheduleEdit")), QStringLiteral("  "));
    auto *onBattery = child<QComboBox>(dialog, QStringLiteral("onBatteryCombo"));
    onBattery->setCurrentIndex(1);
    onBattery->setCurrentIndex(0);
    auto *temperature = child<QSpinBox>(dialog, QStringLiteral("maxTemperatureSpin"));
    temperature->setValue(90);
    QVERIFY(dialog.hasUnsavedChanges());
    temperature->setValue(0);
    openTab(dialog, SettingsDialog::GroupsPage);
    selectRow(child<QListWidget>(dialog, QStringLiteral("groupList")), 0);
    auto *percent = child<QSpinBox>(dialog, QStringLiteral("graphicsBusyPercent"));
    percent->setValue(70);
    QVERIFY(dialog.hasUnsavedChanges());
    percent->setValue(GpuGroupConfig::kDefaultGraphicsBusyPercent);
    openTab(dialog, SettingsDialog::WorkloadsPage);
    auto *priority = child<QComboBox>(dialog, QStringLiteral("priorityCombo"));
    priority->setCurrentIndex(2);
    QVERIFY(dialog.hasUnsavedChanges());
    priority->setCurrentIndex(0);

    QVERIFY(!dialog.hasUnsavedChanges());
    QVERIFY(!dialogButton(dialog, QDialogButtonBox::Apply)->isEnabled());
    QTest::mouseClick(dialogButton(dialog, QDialogButtonBox::Ok), Qt::LeftButton);
    QVERIFY(!dialog.isVisible());
    QCOMPARE(readAll(m_path), twoWorkloads);
    QCOMPARE(inodeOf(m_path), inode);
}

// A key set away from its default and chosen back to it: removed, and the file says what the default says.
void TestSettingsDialog::choosingDefaultRemovesKey()
{
    writeAll(m_path, desktopKeys);
    SettingsDialog dialog(m_path);
    dialog.setMonitorState(gpus01());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    openTab(dialog, SettingsDialog::ActivityPage);
    child<QComboBox>(dialog, QStringLiteral("onBatteryCombo"))->setCurrentIndex(0);
    child<QSpinBox>(dialog, QStringLiteral("maxTemperatureSpin"))->setValue(0);
    typeInto(child<QLineEdit>(dialog, QStringLiteral("scheduleEdit")), QString());
    openTab(dialog, SettingsDialog::WorkloadsPage);
    auto *priority = child<QComboBox>(dialog, QStringLiteral("priorityCombo"));
    priority->setCurrentIndex(priority->findData(int(WorkloadPriority::Idle)));
    QTest::mouseClick(dialogButton(dialog, QDialogButtonBox::Ok), Qt::LeftButton);
    QVERIFY(!dialog.isVisible());

    QByteArray expected = desktopKeys;
    for (const QByteArray &line : {QByteArray("on_battery = run\n"), QByteArray("max_temperature_c = 83\n"),
                                   QByteArray("run = Mon-Fri  18:00-08:00,\n    Sat, Sun\n"),
                                   QByteArray("priority = low\n")}) {
        QCOMPARE(expected.count(line), 1);
        expected.replace(line, QByteArray());
    }
    QCOMPARE(readAll(m_path), expected);
    const ConfigLoadResult loaded = ConfigLoader::load(m_path);
    QVERIFY(loaded.ok());
    QCOMPARE(loaded.config.onBattery, OnBattery::Pause);
    QCOMPARE(loaded.config.maxTemperatureC, 0);
    QVERIFY(loaded.config.schedule.always());
    QCOMPARE(loaded.config.workloads.at(0).priority, WorkloadPriority::Idle);
}

// The presets fill the schedule field with rules that parse; a rule typed says where now is in it.
void TestSettingsDialog::schedulePresetsAndNow()
{
    SettingsDialog dialog(m_path);
    dialog.setMonitorState(gpus01());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    openTab(dialog, SettingsDialog::ActivityPage);
    auto *schedule = child<QLineEdit>(dialog, QStringLiteral("scheduleEdit"));
    auto *menu = child<QMenu>(dialog, QStringLiteral("schedulePresetsMenu"));
    QCOMPARE(menu->actions().size(), ActivitySettingsPage::schedulePresets().size());
    for (QAction *action : menu->actions()) {
        action->trigger();
        QCOMPARE(schedule->text(), action->data().toString());
        QString message;
        QVERIFY2(Schedule::parse(schedule->text(), &message), qPrintable(message));
        QVERIFY(dialogButton(dialog, QDialogButtonBox::Ok)->isEnabled());
    }
    QAction *nights = menu->actions().at(1);
    QCOMPARE(nights->text(), QStringLiteral("Nights and weekends (18:00-08:00, Sat, Sun)"));
    nights->trigger();
    auto *now = child<QLabel>(dialog, QStringLiteral("scheduleNow"));
    QVERIFY(now->isVisibleTo(&dialog));
    QVERIFY2(now->text().startsWith(QStringLiteral("Now inside the schedule: workloads may run until "))
                 || now->text().startsWith(QStringLiteral("Now outside the schedule: workloads wait until ")),
             qPrintable(now->text()));
    typeInto(schedule, QStringLiteral("Mon-Sun"));
    QCOMPARE(now->text(), QStringLiteral("Now inside the schedule, at every hour of the week."));
    typeInto(schedule, QStringLiteral("Mon-Sun 25:00-26:00"));
    QVERIFY(!now->isVisibleTo(&dialog));
    QVERIFY(!dialogButton(dialog, QDialogButtonBox::Ok)->isEnabled());
}

void TestSettingsDialog::runAsUserValidated_data()
{
    QTest::addColumn<uint>("effectiveUid");
    QTest::addColumn<QString>("user");
    QTest::addColumn<int>("severity"); // -1: no problem with the field
    QTest::addColumn<QString>("message");
    const int error = SettingsProblem::Error, warning = SettingsProblem::Warning;
    // As gpu_mon ran it: allowed, and said with the way out.
    QTest::newRow("root, none") << 0u << "" << warning
                                << "without a user this workload runs as root, with every privilege (as gpu_mon ran "
                                   "it): enter a user to run it as that user";
    QTest::newRow("root, blank") << 0u << "  " << warning << "without a user this workload runs as root";
    QTest::newRow("root, alice") << 0u << "alice" << -1 << "";
    QTest::newRow("root, by uid") << 0u << "1000" << -1 << "";
    QTest::newRow("root, root") << 0u << "root" << warning << "runs as root, with every privilege";
    QTest::newRow("root, unknown") << 0u << "mallory" << error << "There is no user “mallory”";
    QTest::newRow("alice, none") << 1000u << "" << -1 << "";
    QTest::newRow("alice, herself") << 1000u << " alice " << -1 << "";
    QTest::newRow("alice, root") << 1000u << "root" << error << "Only root can run a workload as another user";
}

void TestSettingsDialog::runAsUserValidated()
{
    QFETCH(uint, effectiveUid);
    QFETCH(QString, user);
    QFETCH(int, severity);
    QFETCH(QString, message);
    UserLookup users;
    users.effectiveUid = effectiveUid;
    users.find = [](const QString &nameOrUid) -> std::optional<UserAccount> {
        if (nameOrUid == QLatin1String("root") || nameOrUid == QLatin1String("0"))
            return UserAccount{QStringLiteral("root"), 0, 0, QStringLiteral("/root"), QStringLiteral("/bin/sh")};
        if (nameOrUid == QLatin1String("alice") || nameOrUid == QLatin1String("1000"))
            return UserAccount{QStringLiteral("alice"), 1000, 1000, QStringLiteral("/"), QStringLiteral("/bin/sh")};
        return std::nullopt;
    };
    SettingsDraft draft;
    WorkloadDraft workload;
    workload.name = QStringLiteral("w");
    workload.cmd = QStringLiteral("sh -c true");
    workload.user = user;
    draft.workloads.append(workload);
    QList<SettingsProblem> userProblems;
    for (const SettingsProblem &problem : DraftRules::validate(draft, {0, 1}, users))
        if (problem.field == QLatin1String("user"))
            userProblems.append(problem);
    if (severity < 0) {
        QVERIFY2(userProblems.isEmpty(), qPrintable(userProblems.value(0).message));
        return;
    }
    QCOMPARE(userProblems.size(), 1);
    QCOMPARE(int(userProblems.first().severity), severity);
    QVERIFY2(userProblems.first().message.contains(message), qPrintable(userProblems.first().message));
}

// Typed in "Run as user", saved as user= and read back by the loader.
void TestSettingsDialog::runAsUserSaved()
{
    const std::optional<UserAccount> me = UserLookup::findAccount(QString::number(::geteuid()));
    QVERIFY(me);
    SettingsDialog dialog(m_path);
    dialog.setMonitorState(gpus01());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    openTab(dialog, SettingsDialog::WorkloadsPage);
    typeInto(child<QLineEdit>(dialog, QStringLiteral("userEdit")), me->name);
    QTest::mouseClick(dialogButton(dialog, QDialogButtonBox::Ok), Qt::LeftButton);
    QVERIFY(!dialog.isVisible());
    const ConfigLoadResult after = ConfigLoader::load(m_path);
    QVERIFY(after.ok());
    QCOMPARE(after.config.workloads.at(0).user, me->name);
    QCOMPARE(after.config.workloads.at(1).user, QString());
}

// As root (CI runs as root), gpu_mon's example (no user=) opens with the same warning the loader gives: the
// workload runs as root, Ok saves nothing new, and a user typed in takes the warning away.
void TestSettingsDialog::runAsRootWithoutUserWarned()
{
    if (::geteuid() != 0)
        QSKIP("needs root: only a root idlegpu runs a workload without user= as root");
    QFile example(QStringLiteral(IDLEGPU_TEST_DATA "/gpu_mon_example_all.conf"));
    QVERIFY(example.open(QIODevice::ReadOnly));
    const QByteArray original = example.readAll();
    writeAll(m_path, original);
    SettingsDialog dialog(m_path);
    dialog.setMonitorState(gpus01());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    openTab(dialog, SettingsDialog::WorkloadsPage);
    auto *user = child<QLineEdit>(dialog, QStringLiteral("userEdit"));
    QCOMPARE(user->text(), QString());
    QCOMPARE(user->placeholderText(), QStringLiteral("root (idlegpu runs as root): enter a user to drop root"));
    auto *message = child<QLabel>(dialog, QStringLiteral("userError"));
    QTRY_VERIFY(message->isVisibleTo(&dialog));
    QVERIFY2(message->text().contains(QStringLiteral("without a user this workload runs as root")),
             qPrintable(message->text()));
    QVERIFY(dialogButton(dialog, QDialogButtonBox::Ok)->isEnabled()); // a warning, not an error

    const std::optional<UserAccount> nobody = UserLookup::findAccount(QStringLiteral("nobody"));
    if (nobody) {
        typeInto(user, nobody->name);
        QTRY_VERIFY(!message->isVisibleTo(&dialog));
        typeInto(user, QString());
        QTRY_VERIFY(message->isVisibleTo(&dialog));
    }
    QTest::mouseClick(dialogButton(dialog, QDialogButtonBox::Ok), Qt::LeftButton);
    QVERIFY(!dialog.isVisible());
    QCOMPARE(readAll(m_path), original);
}

void TestSettingsDialog::okWithoutChangeLeavesFileUntouched_data()
{
    QTest::addColumn<QByteArray>("original");
    for (const char *name : {"gpu_mon_example_all.conf", "gpu_mon_example_per_gpu.conf"}) {
        QFile example(QStringLiteral(IDLEGPU_TEST_DATA "/") + QLatin1String(name));
        QVERIFY(example.open(QIODevice::ReadOnly));
        QTest::newRow(name) << example.readAll();
    }
    QTest::newRow("comments") << commented;
    QTest::newRow("two workloads") << twoWorkloads;
    QTest::newRow("busy_when") << QByteArray("[gpu-all]\ngpus = ALL\nbusy_when = Memory\nbusy_memory_mib = 300\n\n"
                                             "[process-a]\ncmd = sleep 1\n");
    QTest::newRow("desktop keys") << desktopKeys;
    QTest::newRow("desktop keys at their defaults")
        << QByteArray("[defaults]\non_battery = pause\nmax_temperature_c = 0\n\n[activity]\npause_while_active = no\n"
                      "idle_seconds = 300\n\n[schedule]\nrun =\n\n[gpu-all]\ngpus = ALL\ngraphics_busy_percent = 30\n\n"
                      "[process-a]\ncmd = sleep 1\npriority = idle\n");
}

void TestSettingsDialog::okWithoutChangeLeavesFileUntouched()
{
    QFETCH(QByteArray, original);
    writeAll(m_path, original);
    const ino_t inode = inodeOf(m_path);

    SettingsDialog dialog(m_path);
    QSignalSpy saved(&dialog, &SettingsDialog::configSaved);
    dialog.setMonitorState(gpus01());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QVERIFY(!dialog.hasUnsavedChanges());
    QVERIFY(!dialogButton(dialog, QDialogButtonBox::Apply)->isEnabled());
    // Looking at every workload and group changes nothing either.
    openTab(dialog, SettingsDialog::WorkloadsPage);
    auto *list = child<QListWidget>(dialog, QStringLiteral("workloadList"));
    for (int row = 0; row < list->count(); ++row)
        selectRow(list, row);
    openTab(dialog, SettingsDialog::GroupsPage);
    auto *groups = child<QListWidget>(dialog, QStringLiteral("groupList"));
    for (int row = 0; row < groups->count(); ++row)
        selectRow(groups, row);
    openTab(dialog, SettingsDialog::ActivityPage);
    QVERIFY(!dialog.hasUnsavedChanges());
    QTest::mouseClick(dialogButton(dialog, QDialogButtonBox::Ok), Qt::LeftButton);
    QVERIFY(!dialog.isVisible());

    QCOMPARE(readAll(m_path), original);
    QCOMPARE(inodeOf(m_path), inode); // not even rewritten
    QCOMPARE(saved.count(), 0);
}

void TestSettingsDialog::addRemoveAndReorderWorkloads()
{
    SettingsDialog dialog(m_path);
    dialog.setMonitorState(gpus01());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    openTab(dialog, SettingsDialog::WorkloadsPage);
    auto *list = child<QListWidget>(dialog, QStringLiteral("workloadList"));

    // [one, two] -> [two, one]: "two" moved up; then a new "BOINC client" at the end.
    selectRow(list, 1);
    QTest::mouseClick(child<QPushButton>(dialog, QStringLiteral("moveUpButton")), Qt::LeftButton);
    QCOMPARE(list->item(0)->text(), QStringLiteral("two"));
    addFromTemplate(dialog, QStringLiteral("custom"));
    QCOMPARE(list->count(), 3);
    typeInto(child<QLineEdit>(dialog, QStringLiteral("nameEdit")), QStringLiteral("BOINC client"));
    typeInto(child<QLineEdit>(dialog, QStringLiteral("cmdEdit")), QStringLiteral("true --x"));
    QTest::mouseClick(dialogButton(dialog, QDialogButtonBox::Apply), Qt::LeftButton);

    ConfigLoadResult result = ConfigLoader::load(m_path);
    QVERIFY(result.ok());
    QCOMPARE(result.config.workloads.size(), 3);
    QCOMPARE(result.config.workloads.at(0).id, QStringLiteral("process-two"));
    QCOMPARE(result.config.workloads.at(1).id, QStringLiteral("process-one"));
    QCOMPARE(result.config.workloads.at(2).id, QStringLiteral("process-boinc-client"));
    QCOMPARE(result.config.workloads.at(2).name, QStringLiteral("BOINC client"));
    // Reordering: "one" moved after "two", with the comment above its header; the new one at the end.
    const QByteArray file = readAll(m_path);
    QCOMPARE(file, QByteArray("# two workloads, one per GPU\n[defaults]\ninterval_seconds = 5\n\n[gpu-all]\ngpus = ALL\n"
                              "ignore_programs = nvidia-smi\n\n[process-two]\ncmd = true\ngpus = 1\n\n"
                              "; the first one\n[process-one]\ncmd = sh -c 'sleep 1'\ngpus = 0\n\n[process-boinc-client]\n"
                              "cmd = true --x\nname = BOINC client\n"));
    QVERIFY(file.startsWith("# two workloads, one per GPU\n[defaults]\ninterval_seconds = 5\n"));
    QVERIFY(file.indexOf("[process-two]") < file.indexOf("[process-one]"));
    QCOMPARE(list->item(0)->text(), QStringLiteral("two")); // the dialog shows the file it saved

    // Duplicate "two", then remove the original: the copy has its settings under a new section.
    selectRow(list, 0);
    QTest::mouseClick(child<QPushButton>(dialog, QStringLiteral("duplicateWorkloadButton")), Qt::LeftButton);
    QCOMPARE(list->currentRow(), 1);
    typeInto(child<QLineEdit>(dialog, QStringLiteral("nameEdit")), QStringLiteral("three"));
    selectRow(list, 0);
    QTest::mouseClick(child<QPushButton>(dialog, QStringLiteral("removeWorkloadButton")), Qt::LeftButton);
    QTest::mouseClick(dialogButton(dialog, QDialogButtonBox::Ok), Qt::LeftButton);
    result = ConfigLoader::load(m_path);
    QVERIFY(result.ok());
    QStringList ids;
    for (const WorkloadConfig &w : result.config.workloads)
        ids.append(w.id);
    QCOMPARE(ids, (QStringList{"process-three", "process-one", "process-boinc-client"}));
    QCOMPARE(result.config.workloads.at(0).cmd, QStringLiteral("true"));
    QCOMPARE(result.config.workloads.at(0).gpus, GpuSelection::of({1}));
    QVERIFY(!readAll(m_path).contains("[process-two]"));
}

// Each template of the Add menu fills the fields it names and says what it is; nothing is written until OK, and
// the saved workload reads back as the template made it.
void TestSettingsDialog::templatesFillFieldsAndSave_data()
{
    QTest::addColumn<QString>("templateId");
    for (const WorkloadTemplate &choice : WorkloadTemplates::all(QDir::homePath()))
        QTest::newRow(qPrintable(choice.id)) << choice.id;
}

void TestSettingsDialog::templatesFillFieldsAndSave()
{
    QFETCH(QString, templateId);
    // The templates' folders are under the home folder: a scratch one, set up as a user of each would have it.
    QTemporaryDir home;
    const QByteArray realHome = qgetenv("HOME");
    qputenv("HOME", QFile::encodeName(home.path()));
    const auto restoreHome = qScopeGuard([&realHome] { qputenv("HOME", realHome); });
    for (const char *folder : {"boinc", "fah", "jobs"})
        QVERIFY(QDir(home.path()).mkdir(QLatin1String(folder)));
    for (const char *program : {"boinc", "boinccmd", "fah-client", "lolMiner"}) {
        QFile fake(m_fakeBin + QLatin1Char('/') + QLatin1String(program));
        QVERIFY(fake.open(QIODevice::WriteOnly));
        fake.write("#!/bin/sh\nexit 0\n");
        fake.close();
        QVERIFY(fake.setPermissions(QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner));
    }
    const WorkloadTemplate expected = WorkloadTemplates::find(templateId, home.path()).value();
    QVERIFY(!expected.explanation.isEmpty());

    SettingsDialog dialog(m_path);
    QVERIFY(!dialog.hasWelcomePage()); // the file exists: set up already
    dialog.setMonitorState(gpus01());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    openTab(dialog, SettingsDialog::WorkloadsPage);
    auto *list = child<QListWidget>(dialog, QStringLiteral("workloadList"));
    auto *help = child<QLabel>(dialog, QStringLiteral("templateHelp"));
    QVERIFY(!help->isVisibleTo(&dialog)); // a workload from the file came from no template
    addFromTemplate(dialog, templateId);
    QCOMPARE(list->count(), 3);
    QCOMPARE(list->currentRow(), 2);
    QCOMPARE(child<QLineEdit>(dialog, QStringLiteral("nameEdit"))->text(), expected.draft.name);
    QCOMPARE(child<QLineEdit>(dialog, QStringLiteral("cmdEdit"))->text(), expected.draft.cmd);
    const bool controls = expected.draft.controlsService;
    QCOMPARE(child<QComboBox>(dialog, QStringLiteral("kindCombo"))->currentData().toBool(), controls);
    QCOMPARE(child<QLineEdit>(dialog, QStringLiteral("cmdEdit"))->isVisibleTo(&dialog), !controls);
    QCOMPARE(child<QLineEdit>(dialog, QStringLiteral("startCmdEdit"))->isVisibleTo(&dialog), controls);
    QCOMPARE(child<QLineEdit>(dialog, QStringLiteral("startCmdEdit"))->text(), expected.draft.startCmd);
    QCOMPARE(child<QLineEdit>(dialog, QStringLiteral("stopCmdEdit"))->text(), expected.draft.stopCmd);
    QCOMPARE(child<QLineEdit>(dialog, QStringLiteral("serviceProgramsEdit"))->text(), expected.draft.servicePrograms);
    QCOMPARE(child<QLineEdit>(dialog, QStringLiteral("dirEdit"))->text(), expected.draft.dir);
    QCOMPARE(child<QLineEdit>(dialog, QStringLiteral("logEdit"))->text(), expected.draft.log);
    QCOMPARE(child<QSpinBox>(dialog, QStringLiteral("stopTimeoutSpin"))->value(), expected.draft.stopTimeout.toInt());
    QCOMPARE(child<QComboBox>(dialog, QStringLiteral("priorityCombo"))->currentData().toInt(),
             int(expected.draft.priority));
    QVERIFY(help->isVisibleTo(&dialog));
    QCOMPARE(help->text(), expected.explanation);
    if (expected.draft.cmd.isEmpty() && !controls)
        typeInto(child<QLineEdit>(dialog, QStringLiteral("cmdEdit")), QStringLiteral("true"));
    QCOMPARE(readAll(m_path), twoWorkloads); // nothing written, nothing started, until saved

    selectRow(list, 0);
    QVERIFY(!help->isVisibleTo(&dialog));
    selectRow(list, 2);
    QVERIFY(help->isVisibleTo(&dialog));
    QVERIFY2(dialogButton(dialog, QDialogButtonBox::Ok)->isEnabled(),
             qPrintable(child<QLabel>(dialog, QStringLiteral("problemSummary"))->text()));
    QTest::mouseClick(dialogButton(dialog, QDialogButtonBox::Ok), Qt::LeftButton);
    QVERIFY(!dialog.isVisible());

    const ConfigLoadResult saved = ConfigLoader::load(m_path);
    QVERIFY2(saved.ok(), qPrintable(saved.diagnostics.value(0).toString()));
    QCOMPARE(saved.config.workloads.size(), 3);
    const WorkloadConfig &workload = saved.config.workloads.at(2);
    QCOMPARE(workload.name, expected.draft.name);
    if (controls) {
        QCOMPARE(workload.kind(), WorkloadKind::ControlCommands);
        QVERIFY(workload.cmd.isEmpty());
        QCOMPARE(workload.startCmd, expected.draft.startCmd);
        QCOMPARE(workload.stopCmd, expected.draft.stopCmd);
        QCOMPARE(workload.servicePrograms.join(QStringLiteral(", ")), expected.draft.servicePrograms);
    } else {
        QCOMPARE(workload.cmd, expected.draft.cmd.isEmpty() ? QStringLiteral("true") : expected.draft.cmd);
        QVERIFY(!workload.argv.isEmpty());
    }
    QCOMPARE(workload.dir, expected.draft.dir);
    QCOMPARE(workload.log, expected.draft.log);
    QCOMPARE(workload.stopTimeoutSeconds, expected.draft.stopTimeout.toInt());
    QCOMPARE(workload.priority, expected.draft.priority);
    QCOMPARE(workload.gpus, GpuSelection::allGpus());
}

// No config file yet: the dialog opens on a welcome page that lists the GPUs and who uses them, and a template
// chosen there, saved, is the file's one workload (in a private folder made for it).
void TestSettingsDialog::welcomePageStartsTheFirstWorkload()
{
    const QString path = m_dir->filePath(QStringLiteral("fresh/idlegpu/idlegpu.conf"));
    Holder python;
    python.pid = 4242;
    python.comm = QStringLiteral("python3");
    python.user = QStringLiteral("alice");
    python.gpus = {1};
    MonitorState state = gpus01({python});
    state.notSetUp = true;
    state.config.deviceRoot = m_dir->filePath(QStringLiteral("dev")); // where the GPUs were found: kept in the file

    SettingsDialog dialog(path);
    QVERIFY(dialog.hasWelcomePage());
    dialog.setMonitorState(state);
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QCOMPARE(child<QTabWidget>(dialog, QStringLiteral("pages"))->currentWidget()->objectName(),
             QStringLiteral("welcomePage"));

    auto *gpus = child<QTableWidget>(dialog, QStringLiteral("welcomeGpuTable"));
    QCOMPARE(gpus->rowCount(), 2);
    QCOMPARE(gpus->item(0, 0)->text(), QStringLiteral("0"));
    QCOMPARE(gpus->item(1, 0)->text(), QStringLiteral("1"));
    QCOMPARE(gpus->item(0, 2)->text(), QStringLiteral("free"));
    QCOMPARE(gpus->item(1, 2)->text(), QStringLiteral("python3 (alice, pid 4242)"));
    QVERIFY(!child<QLabel>(dialog, QStringLiteral("welcomeNoGpu"))->isVisibleTo(&dialog));
    // One commit button: the dialog's OK is "Save and start", not live while there is nothing to save.
    QVERIFY(!dialog.findChild<QPushButton *>(QStringLiteral("welcomeSaveButton")));
    auto *save = dialogButton(dialog, QDialogButtonBox::Ok);
    QCOMPARE(save->text(), QStringLiteral("Save and start"));
    QVERIFY(!save->isEnabled()); // nothing chosen yet
    QVERIFY(!dialogButton(dialog, QDialogButtonBox::Apply)->isVisibleTo(&dialog));
    QVERIFY(!child<QLabel>(dialog, QStringLiteral("welcomeCmdError"))->isVisibleTo(&dialog)); // nor complained of

    auto *templates = child<QComboBox>(dialog, QStringLiteral("welcomeTemplateCombo"));
    const int test = templates->findData(QStringLiteral("test"));
    QVERIFY(test >= 0);
    templates->setCurrentIndex(test);
    Q_EMIT templates->activated(test); // as a choice in the list
    const WorkloadTemplate expected = WorkloadTemplates::find(QStringLiteral("test"), QDir::homePath()).value();
    QCOMPARE(child<QLineEdit>(dialog, QStringLiteral("welcomeNameEdit"))->text(), expected.draft.name);
    QCOMPARE(child<QLineEdit>(dialog, QStringLiteral("welcomeCmdEdit"))->text(), expected.draft.cmd);
    QCOMPARE(child<QLabel>(dialog, QStringLiteral("welcomeTemplateHelp"))->text(), expected.explanation);
    // The Workloads page shows the same workload.
    QCOMPARE(child<QListWidget>(dialog, QStringLiteral("workloadList"))->count(), 1);
    QCOMPARE(child<QListWidget>(dialog, QStringLiteral("workloadList"))->item(0)->text(), expected.draft.name);

    // GPU 0 only: the one nobody uses.
    auto *all = child<QCheckBox>(dialog, QStringLiteral("welcomeGpusAll"));
    QTest::mouseClick(all, Qt::LeftButton, {}, QPoint(5, all->height() / 2));
    auto *gpu0 = child<QCheckBox>(dialog, QStringLiteral("welcomeGpusGpu0"));
    QTest::mouseClick(gpu0, Qt::LeftButton, {}, QPoint(5, gpu0->height() / 2));
    // As root (CI runs as root) the page asks whom the workload runs as; without root it runs as you, unasked.
    auto *user = child<QLineEdit>(dialog, QStringLiteral("welcomeUserEdit"));
    const bool root = ::geteuid() == 0;
    QCOMPARE(user->isVisibleTo(&dialog), root);
    if (root) {
        QVERIFY(child<QLabel>(dialog, QStringLiteral("welcomeUserError"))->isVisibleTo(&dialog)); // runs as root
        typeInto(user, QStringLiteral("nobody"));
        QTRY_VERIFY(!child<QLabel>(dialog, QStringLiteral("welcomeUserError"))->isVisibleTo(&dialog));
    }
    QVERIFY2(save->isEnabled(), qPrintable(child<QLabel>(dialog, QStringLiteral("problemSummary"))->text()));
    QVERIFY(!QFile::exists(path));
    QVERIFY(save->isDefault()); // Enter saves, as the one commit button
    QSignalSpy firstStartSaved(&dialog, &SettingsDialog::firstStartSaved);
    QTest::mouseClick(save, Qt::LeftButton);
    QVERIFY(QFile::exists(path));
    // The dialog says what happens next (and the tray opens the status window on the signal); then Close closes.
    QCOMPARE(firstStartSaved.count(), 1);
    const QString next = firstStartSaved.at(0).at(0).toString();
    QCOMPARE(next, QStringLiteral("“%1” is saved. idlegpu starts it once its GPUs have been free for 10 seconds. It "
                                  "stops the moment one of your own programs opens one of them. The status window "
                                  "shows what it does.")
                       .arg(expected.draft.name));
    auto *savedText = child<QLabel>(dialog, QStringLiteral("welcomeSavedText"));
    QVERIFY(savedText->isVisibleTo(&dialog));
    QCOMPARE(savedText->text(), next);
    QVERIFY(!child<QComboBox>(dialog, QStringLiteral("welcomeTemplateCombo"))->isVisibleTo(&dialog));
    QVERIFY(dialog.isVisible());
    QCOMPARE(save->text(), QStringLiteral("Close"));
    QVERIFY(save->isEnabled());
    QVERIFY(!dialogButton(dialog, QDialogButtonBox::Cancel)->isVisibleTo(&dialog));
    QTest::mouseClick(save, Qt::LeftButton);
    QVERIFY(!dialog.isVisible());

    QCOMPARE(modeOf(path), mode_t(0600));
    QCOMPARE(modeOf(QFileInfo(path).absolutePath()), mode_t(0700));
    const ConfigLoadResult saved = ConfigLoader::load(path);
    QVERIFY2(saved.ok(), qPrintable(saved.diagnostics.value(0).toString()));
    QCOMPARE(saved.config.workloads.size(), 1);
    QCOMPARE(saved.config.workloads.at(0).name, expected.draft.name);
    QCOMPARE(saved.config.workloads.at(0).cmd, expected.draft.cmd);
    QCOMPARE(saved.config.workloads.at(0).gpus, GpuSelection::of({0}));
    QCOMPARE(saved.config.workloads.at(0).stopTimeoutSeconds, expected.draft.stopTimeout.toInt());
    QCOMPARE(saved.config.workloads.at(0).user, root ? QStringLiteral("nobody") : QString());
    QCOMPARE(saved.config.deviceRoot, state.config.deviceRoot);
}

// One workload edited and another moved up: the file is replaced once, a watcher never sees it without a
// workload, the comment above the moved section goes with it, and its mode stays.
void TestSettingsDialog::editAndMoveSavesOnce()
{
    QVERIFY(::chmod(QFile::encodeName(m_path).constData(), 0640) == 0);
    SettingsDialog dialog(m_path);
    dialog.setMonitorState(gpus01());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    openTab(dialog, SettingsDialog::WorkloadsPage);
    auto *list = child<QListWidget>(dialog, QStringLiteral("workloadList"));
    selectRow(list, 0);
    typeInto(fieldEdit(dialog, QStringLiteral("stopTimeoutSpin")), QStringLiteral("30"));
    selectRow(list, 1);
    QTest::mouseClick(child<QPushButton>(dialog, QStringLiteral("moveUpButton")), Qt::LeftButton);
    QCOMPARE(list->item(0)->text(), QStringLiteral("two"));

    LandingWatch watch(m_dir->path(), QFileInfo(m_path).fileName());
    QVERIFY(watch.isWatching());
    QTest::mouseClick(dialogButton(dialog, QDialogButtonBox::Apply), Qt::LeftButton);
    const QList<QByteArray> landed = watch.stop();

    const QByteArray expected = "# two workloads, one per GPU\n[defaults]\ninterval_seconds = 5\n\n[gpu-all]\n"
                                "gpus = ALL\nignore_programs = nvidia-smi\n\n[process-two]\ncmd = true\ngpus = 1\n\n"
                                "; the first one\n[process-one]\ncmd = sh -c 'sleep 1'\ngpus = 0\n"
                                "stop_timeout_seconds = 30\n";
    for (const QByteArray &contents : landed) {
        QVERIFY2(contents.contains("[process-one]"), contents.constData());
        QVERIFY2(contents.contains("[process-two]"), contents.constData());
    }
    QCOMPARE(landed.size(), 1);
    QCOMPARE(readAll(m_path), expected);
    QCOMPARE(modeOf(m_path), mode_t(0640));

    const ConfigLoadResult result = ConfigLoader::load(m_path);
    QVERIFY(result.ok());
    QCOMPARE(result.config.workloads.size(), 2);
    QCOMPARE(result.config.workloads.at(0).id, QStringLiteral("process-two"));
    QCOMPARE(result.config.workloads.at(1).id, QStringLiteral("process-one"));
    QCOMPARE(result.config.workloads.at(1).stopTimeoutSeconds, 30);
}

void TestSettingsDialog::envTextReadsBack_data()
{
    QTest::addColumn<QString>("value");
    QTest::newRow("plain") << "plain-value_1.0";
    QTest::newRow("space") << "hello world";
    QTest::newRow("single quote") << "it's";
    QTest::newRow("double quote") << "say \"hi\"";
    QTest::newRow("dollar and backslash") << "$HOME\\n";
    QTest::newRow("empty") << "";
    QTest::newRow("hash") << "#not-a-comment";
    QTest::newRow("unicode") << "grüße 世界";
}

void TestSettingsDialog::envTextReadsBack()
{
    QFETCH(QString, value);
    const QList<QPair<QString, QString>> env{{QStringLiteral("A"), value}, {QStringLiteral("B_2"), QStringLiteral("x")}};
    QString error;
    const auto parsed = parseEnvAssignments(DraftRules::envText(env), &error);
    QVERIFY2(parsed, qPrintable(error));
    QCOMPARE(*parsed, env);
}

void TestSettingsDialog::addFromCurrentHolders()
{
    Holder python;
    python.pid = 4242;
    python.comm = QStringLiteral("python3");
    python.user = QStringLiteral("alice");
    python.gpus = {1};
    SettingsDialog dialog(m_path);
    dialog.setMonitorState(gpus01({python}));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    openTab(dialog, SettingsDialog::GroupsPage);

    auto *menu = child<QMenu>(dialog, QStringLiteral("holdersMenu"));
    QCOMPARE(menu->actions().size(), 1);
    QCOMPARE(menu->actions().first()->text(), QStringLiteral("python3 (alice, pid 4242; GPU 1)"));
    menu->actions().first()->trigger();
    auto *ignored = child<QListWidget>(dialog, QStringLiteral("ignoreList"));
    QCOMPARE(ignored->count(), 2);
    QCOMPARE(ignored->item(1)->text(), QStringLiteral("python3"));
    QTest::mouseClick(dialogButton(dialog, QDialogButtonBox::Ok), Qt::LeftButton);
    QCOMPARE(ConfigLoader::load(m_path).config.gpuGroups.first().ignorePrograms,
             (QStringList{"nvidia-smi", "python3"}));
    QByteArray expected = twoWorkloads;
    QCOMPARE(readAll(m_path), expected.replace("ignore_programs = nvidia-smi", "ignore_programs = nvidia-smi, python3"));
}

void TestSettingsDialog::externalChangeOffersReload()
{
    SettingsDialog dialog(m_path);
    dialog.setMonitorState(gpus01());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    auto *interval = fieldEdit(dialog, QStringLiteral("intervalSpin"));
    auto *startDelay = fieldEdit(dialog, QStringLiteral("startDelaySpin"));
    auto *bar = child<QWidget>(dialog, QStringLiteral("reloadBar"));

    // Without edits the dialog just follows the file.
    QByteArray changed = twoWorkloads;
    writeAll(m_path, changed.replace("interval_seconds = 5", "interval_seconds = 7"));
    QTRY_COMPARE(interval->text(), QStringLiteral("7 s"));
    QVERIFY(!bar->isVisibleTo(&dialog));

    // With edits it asks.
    typeInto(startDelay, QStringLiteral("42"));
    writeAll(m_path, changed.replace("interval_seconds = 7", "interval_seconds = 8"));
    QTRY_VERIFY(bar->isVisibleTo(&dialog));
    QCOMPARE(interval->text(), QStringLiteral("7 s"));
    QTest::mouseClick(child<QPushButton>(dialog, QStringLiteral("reloadButton")), Qt::LeftButton);
    QCOMPARE(interval->text(), QStringLiteral("8 s"));
    QCOMPARE(startDelay->text(), QStringLiteral("10 s"));
    QVERIFY(!bar->isVisibleTo(&dialog));
}

void TestSettingsDialog::testRunShowsOutput()
{
    SettingsDialog dialog(m_path);
    dialog.setMonitorState(gpus01());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    openTab(dialog, SettingsDialog::WorkloadsPage);
    selectRow(child<QListWidget>(dialog, QStringLiteral("workloadList")), 1); // gpus = 1
    typeInto(child<QLineEdit>(dialog, QStringLiteral("cmdEdit")),
             QStringLiteral("sh -c 'echo hello-from-test-run; echo \"gpus=$CUDA_VISIBLE_DEVICES order=$CUDA_DEVICE_ORDER "
                            "msg=$MSG\"; sleep 30'"));
    QTest::mouseClick(child<QPushButton>(dialog, QStringLiteral("addEnvButton")), Qt::LeftButton);
    auto *env = child<QTableWidget>(dialog, QStringLiteral("envTable"));
    env->setItem(0, 0, new QTableWidgetItem(QStringLiteral("MSG")));
    env->setItem(0, 1, new QTableWidgetItem(QStringLiteral("two words")));

    auto *runButton = child<QPushButton>(dialog, QStringLiteral("testRunButton"));
    auto *output = child<QPlainTextEdit>(dialog, QStringLiteral("testRunOutput"));
    QTest::mouseClick(runButton, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(output->toPlainText().contains(QStringLiteral("hello-from-test-run")), 10'000);
    QTRY_VERIFY(output->toPlainText().contains(QStringLiteral("gpus=1 order=PCI_BUS_ID msg=two words")));
    // The sleep is cut short after the test run's seconds.
    QTRY_VERIFY_WITH_TIMEOUT(output->toPlainText().contains(QStringLiteral("stopped after 5 seconds")), 15'000);
    QTRY_COMPARE(runButton->text(), QStringLiteral("Test run"));

    // A test run still going when the dialog closes is stopped.
    QTest::mouseClick(runButton, Qt::LeftButton);
    QTRY_VERIFY_WITH_TIMEOUT(output->toPlainText().count(QStringLiteral("hello-from-test-run")) == 2, 10'000);
    QTest::mouseClick(dialogButton(dialog, QDialogButtonBox::Cancel), Qt::LeftButton);
    auto *question = dialog.findChild<QMessageBox *>(QStringLiteral("discardQuestion")); // the edits: asked first
    QVERIFY(question);
    QTest::mouseClick(child<QPushButton>(*question, QStringLiteral("discardButton")), Qt::LeftButton);
    QVERIFY(!dialog.isVisible());
    QVERIFY(output->toPlainText().endsWith(QStringLiteral("hello-from-test-run\ngpus=1 order=PCI_BUS_ID msg=two words\n")));
    QCOMPARE(readAll(m_path), twoWorkloads); // Cancel saved nothing
}

// As root (CI runs as root), a test run of a workload with user = nobody starts as the monitor would start it:
// nobody enters the working folder after the switch, so a folder only root may enter fails with the reaper's
// message, and one nobody may enter is where the command runs.
void TestSettingsDialog::testRunEntersFolderAsUser()
{
    if (::geteuid() != 0)
        QSKIP("needs root: only root can start a workload as another user");
    const std::optional<UserAccount> nobody = UserLookup::findAccount(QStringLiteral("nobody"));
    if (!nobody)
        QSKIP("this machine has no user 'nobody'");
    // The test's folder is root's (0700): open it for traversal, and give nobody a folder of its own.
    QVERIFY(QFile::setPermissions(m_dir->path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner
                                                     | QFile::ExeGroup | QFile::ExeOther));
    const QString nobodys = m_dir->filePath(QStringLiteral("nobodys"));
    QVERIFY(QDir().mkdir(nobodys));
    QCOMPARE(::chown(QFile::encodeName(nobodys).constData(), nobody->uid, nobody->gid), 0);
    const QString rootOnly = m_dir->filePath(QStringLiteral("root-only"));
    QVERIFY(QDir().mkdir(rootOnly));
    QVERIFY(QFile::setPermissions(rootOnly, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));

    SettingsDialog dialog(m_path);
    dialog.setMonitorState(gpus01());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    openTab(dialog, SettingsDialog::WorkloadsPage);
    typeInto(child<QLineEdit>(dialog, QStringLiteral("cmdEdit")),
             QStringLiteral("sh -c 'echo \"in=$(pwd -P) as $(id -un)\"'"));
    typeInto(child<QLineEdit>(dialog, QStringLiteral("userEdit")), QStringLiteral("nobody"));
    typeInto(child<QLineEdit>(dialog, QStringLiteral("dirEdit")), rootOnly);
    auto *runButton = child<QPushButton>(dialog, QStringLiteral("testRunButton"));
    auto *output = child<QPlainTextEdit>(dialog, QStringLiteral("testRunOutput"));

    QTest::mouseClick(runButton, Qt::LeftButton);
    const QString refused =
        QStringLiteral("cannot enter the working folder '%1' as user nobody: Permission denied").arg(rootOnly);
    QTRY_VERIFY2_WITH_TIMEOUT(output->toPlainText().contains(refused), qPrintable(output->toPlainText()), 10'000);
    QTRY_COMPARE(runButton->text(), QStringLiteral("Test run"));
    QVERIFY2(!output->toPlainText().contains(QStringLiteral("in=/")), qPrintable(output->toPlainText()));

    typeInto(child<QLineEdit>(dialog, QStringLiteral("dirEdit")), nobodys);
    QTest::mouseClick(runButton, Qt::LeftButton);
    const QString ran = QStringLiteral("in=%1 as nobody").arg(QFileInfo(nobodys).canonicalFilePath());
    QTRY_VERIFY2_WITH_TIMEOUT(output->toPlainText().contains(ran), qPrintable(output->toPlainText()), 10'000);
    QTRY_VERIFY(output->toPlainText().contains(QStringLiteral("— exited with code 0 —")));
}

// Not a check: pictures of each page for a person to look at, in build/test-artifacts.
void TestSettingsDialog::screenshots()
{
    writeAll(m_path, commented);
    Holder python;
    python.pid = 4242;
    python.comm = QStringLiteral("python3");
    python.user = QStringLiteral("alice");
    python.gpus = {0};
    SettingsDialog dialog(m_path);
    dialog.setMonitorState(gpus01({python}));
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    const QString folder = qEnvironmentVariableIsSet("IDLEGPU_SETTINGS_SHOTS")
                               ? qEnvironmentVariable("IDLEGPU_SETTINGS_SHOTS")
                               : QCoreApplication::applicationDirPath() + QStringLiteral("/../test-artifacts");
    QVERIFY(QDir().mkpath(folder));
    // The dialog as drawn, and on a real display (xcb, such as Xvfb at 1280x800) the whole screen with it.
    const auto shoot = [&folder](QWidget *window, const QString &name) {
        QCoreApplication::processEvents();
        QVERIFY(window->grab().save(folder + QStringLiteral("/settings-") + name + QStringLiteral(".png")));
        if (QGuiApplication::platformName() == QLatin1String("xcb")) {
            QTest::qWait(200);
            QVERIFY(window->screen()->grabWindow(0).save(folder + QStringLiteral("/screen-settings-") + name
                                                         + QStringLiteral(".png")));
        }
    };
    const QStringList names{"general", "groups", "workloads", "activity", "power"};
    for (int page = 0; page < names.size(); ++page) {
        openTab(dialog, SettingsDialog::Page(page));
        if (page == SettingsDialog::WorkloadsPage)
            typeInto(child<QLineEdit>(dialog, QStringLiteral("logEdit")), QStringLiteral("/no/such/folder/miner.log"));
        shoot(&dialog, names.at(page));
    }
    QTest::mouseClick(child<QPushButton>(dialog, QStringLiteral("showAsFileButton")), Qt::LeftButton);
    auto *view = dialog.findChild<QDialog *>(QStringLiteral("showAsFileView"));
    QVERIFY(view && QTest::qWaitForWindowExposed(view));
    shoot(view, QStringLiteral("show-as-file"));
    view->close();
    QTest::keyClick(&dialog, Qt::Key_Escape);
    auto *question = dialog.findChild<QMessageBox *>(QStringLiteral("discardQuestion"));
    QVERIFY(question && QTest::qWaitForWindowExposed(question));
    shoot(question, QStringLiteral("discard-question"));
    QTest::mouseClick(child<QPushButton>(*question, QStringLiteral("discardButton")), Qt::LeftButton);

    // A first start, and a file without groups or workloads: the empty lists.
    MonitorState state = gpus01({python});
    state.notSetUp = true;
    SettingsDialog welcome(m_dir->filePath(QStringLiteral("new/idlegpu.conf")));
    welcome.setMonitorState(state);
    welcome.show();
    QVERIFY(QTest::qWaitForWindowExposed(&welcome));
    shoot(&welcome, QStringLiteral("welcome"));
    openTab(welcome, SettingsDialog::Page(SettingsDialog::GroupsPage + 1)); // the welcome tab comes first
    shoot(&welcome, QStringLiteral("groups-empty"));
    openTab(welcome, SettingsDialog::Page(SettingsDialog::WorkloadsPage + 1));
    shoot(&welcome, QStringLiteral("workloads-empty"));
    openTab(welcome, SettingsDialog::Page(0));
    auto *templates = child<QComboBox>(welcome, QStringLiteral("welcomeTemplateCombo"));
    const int test = templates->findData(QStringLiteral("test"));
    templates->setCurrentIndex(test);
    Q_EMIT templates->activated(test);
    shoot(&welcome, QStringLiteral("welcome-filled"));
    QTest::mouseClick(dialogButton(welcome, QDialogButtonBox::Ok), Qt::LeftButton);
    shoot(&welcome, QStringLiteral("welcome-saved"));
}

// Esc, Cancel and the window's close ask before throwing edits away (a half-filled new workload too), and only then;
// "Keep editing" is the default answer.
void TestSettingsDialog::discardQuestionOnlyWithEdits()
{
    {
        SettingsDialog dialog(m_path);
        dialog.setMonitorState(gpus01());
        dialog.show();
        QVERIFY(QTest::qWaitForWindowExposed(&dialog));
        QTest::keyClick(&dialog, Qt::Key_Escape); // nothing changed: closes without a word
        QVERIFY(!dialog.isVisible());
        QVERIFY(!dialog.findChild<QMessageBox *>(QStringLiteral("discardQuestion")));
    }
    SettingsDialog dialog(m_path);
    dialog.setMonitorState(gpus01());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    openTab(dialog, SettingsDialog::WorkloadsPage);
    addFromTemplate(dialog, QStringLiteral("custom"));
    typeInto(child<QLineEdit>(dialog, QStringLiteral("cmdEdit")), QStringLiteral("miner --wallet x"));
    QVERIFY(dialog.hasUnsavedChanges());

    QTest::keyClick(&dialog, Qt::Key_Escape);
    QVERIFY(dialog.isVisible());
    auto *question = dialog.findChild<QMessageBox *>(QStringLiteral("discardQuestion"));
    QVERIFY(question);
    QVERIFY(question->isVisible());
    QCOMPARE(question->windowTitle(), QStringLiteral("Discard changes?"));
    auto *keep = child<QPushButton>(*question, QStringLiteral("keepEditingButton"));
    auto *discard = child<QPushButton>(*question, QStringLiteral("discardButton"));
    QCOMPARE(keep->text(), QStringLiteral("Keep editing"));
    QCOMPARE(discard->text(), QStringLiteral("Discard"));
    QCOMPARE(question->defaultButton(), keep);
    QTest::mouseClick(keep, Qt::LeftButton);
    QTRY_VERIFY(!dialog.findChild<QMessageBox *>(QStringLiteral("discardQuestion")));
    QVERIFY(dialog.isVisible());
    QCOMPARE(child<QLineEdit>(dialog, QStringLiteral("cmdEdit"))->text(), QStringLiteral("miner --wallet x"));

    QTest::mouseClick(dialogButton(dialog, QDialogButtonBox::Cancel), Qt::LeftButton);
    question = dialog.findChild<QMessageBox *>(QStringLiteral("discardQuestion"));
    QVERIFY(question && question->isVisible());
    QTest::mouseClick(child<QPushButton>(*question, QStringLiteral("discardButton")), Qt::LeftButton);
    QVERIFY(!dialog.isVisible());
    QCOMPARE(readAll(m_path), twoWorkloads);
}

// Each number of the file is a spin box with its unit and the range of its key's row.
void TestSettingsDialog::spinBoxesTakeTheKeyRanges_data()
{
    QTest::addColumn<QString>("spin");
    QTest::addColumn<QString>("section");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("suffix");
    QTest::newRow("interval") << "intervalSpin"
                              << "defaults"
                              << "interval_seconds"
                              << " s";
    QTest::newRow("start delay") << "startDelaySpin"
                                 << "defaults"
                                 << "start_delay_seconds"
                                 << " s";
    QTest::newRow("activity idle") << "activityIdleSpin"
                                   << "activity"
                                   << "idle_seconds"
                                   << " s";
    QTest::newRow("tty idle") << "ttyIdleSpin"
                              << "tty"
                              << "idle_seconds"
                              << " s";
    QTest::newRow("stop timeout") << "stopTimeoutSpin"
                                  << "process-*"
                                  << "stop_timeout_seconds"
                                  << " s";
    QTest::newRow("command timeout") << "commandTimeoutSpin"
                                     << "process-*"
                                     << "command_timeout_seconds"
                                     << " s";
    QTest::newRow("temperature") << "maxTemperatureSpin"
                                 << "defaults"
                                 << "max_temperature_c"
                                 << " °C";
    QTest::newRow("graphics percent") << "graphicsBusyPercent"
                                      << "gpu-*"
                                      << "graphics_busy_percent"
                                      << " %";
    QTest::newRow("busy memory") << "busyMemoryMib"
                                 << "gpu-*"
                                 << "busy_memory_mib"
                                 << " MiB";
}

void TestSettingsDialog::spinBoxesTakeTheKeyRanges()
{
    QFETCH(QString, spin);
    QFETCH(QString, section);
    QFETCH(QString, key);
    QFETCH(QString, suffix);
    SettingsDialog dialog(m_path);
    auto *box = child<QSpinBox>(dialog, spin);
    QVERIFY(box);
    const ConfigRange range = ConfigKeys::row(section, key).range;
    QCOMPARE(box->minimum(), int(range.min));
    QCOMPARE(box->maximum(), int(range.max));
    QCOMPARE(box->suffix(), suffix);
}

// A gpu_mon user finds each field by the key they know: its tooltip names it.
void TestSettingsDialog::tooltipsNameTheKeys_data()
{
    QTest::addColumn<QString>("field");
    QTest::addColumn<QString>("key");
    QTest::newRow("interval") << "intervalSpin"
                              << "[defaults] interval_seconds";
    QTest::newRow("start delay") << "startDelaySpin"
                                 << "[defaults] start_delay_seconds";
    QTest::newRow("notify") << "notifyFailure"
                            << "[defaults] notify";
    QTest::newRow("ignore_programs") << "ignoreList"
                                     << "[gpu-…] ignore_programs";
    QTest::newRow("busy_when") << "busyWhen"
                               << "[gpu-…] busy_when";
    QTest::newRow("tty whitelist") << "whitelistEdit"
                                   << "[tty] whitelist";
    QTest::newRow("tty idle") << "ttyIdleSpin"
                              << "[tty] idle_seconds";
    QTest::newRow("tty enabled") << "ttyEnabledCheck"
                                 << "[tty] enabled";
    QTest::newRow("schedule") << "scheduleEdit"
                              << "[schedule] run";
    QTest::newRow("pause while active") << "pauseWhileActiveCheck"
                                        << "[activity] pause_while_active";
    QTest::newRow("on battery") << "onBatteryCombo"
                                << "[defaults] on_battery";
    QTest::newRow("temperature") << "maxTemperatureSpin"
                                 << "[defaults] max_temperature_c";
    QTest::newRow("cmd") << "cmdEdit"
                         << "[process-…] cmd";
    QTest::newRow("user") << "userEdit"
                          << "[process-…] user";
    QTest::newRow("gpus") << "workloadGpus"
                          << "[process-…] gpus";
    QTest::newRow("stop timeout") << "stopTimeoutSpin"
                                  << "[process-…] stop_timeout_seconds";
    QTest::newRow("env") << "envTable"
                         << "[process-…] env";
}

void TestSettingsDialog::tooltipsNameTheKeys()
{
    QFETCH(QString, field);
    QFETCH(QString, key);
    SettingsDialog dialog(m_path);
    auto *widget = child<QWidget>(dialog, field);
    QVERIFY(widget);
    QVERIFY2(widget->toolTip().contains(QStringLiteral("In the configuration file: ") + key),
             qPrintable(widget->toolTip()));
}

// "Show as file…" shows, read-only and in a fixed-width font, the very bytes that saving then writes.
void TestSettingsDialog::showAsFileIsWhatSaveWrites()
{
    writeAll(m_path, commented);
    SettingsDialog dialog(m_path);
    dialog.setMonitorState(gpus01());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    typeInto(fieldEdit(dialog, QStringLiteral("startDelaySpin")), QStringLiteral("25"));
    openTab(dialog, SettingsDialog::WorkloadsPage);
    addFromTemplate(dialog, QStringLiteral("custom"));
    typeInto(child<QLineEdit>(dialog, QStringLiteral("cmdEdit")), QStringLiteral("true"));

    auto *showAsFile = child<QPushButton>(dialog, QStringLiteral("showAsFileButton"));
    QVERIFY(showAsFile);
    QTest::mouseClick(showAsFile, Qt::LeftButton);
    auto *view = dialog.findChild<QDialog *>(QStringLiteral("showAsFileView"));
    QVERIFY(view);
    QVERIFY(QTest::qWaitForWindowExposed(view));
    auto *text = child<QPlainTextEdit>(*view, QStringLiteral("showAsFileText"));
    QVERIFY(text->isReadOnly());
    QVERIFY(QFontInfo(text->font()).fixedPitch());
    const QString shown = text->toPlainText();
    QVERIFY2(shown.contains(QStringLiteral("start_delay_seconds: 25")), qPrintable(shown));
    QVERIFY(shown.contains(QStringLiteral("# idlegpu config, written by hand"))); // the rest as it is
    QCOMPARE(readAll(m_path), commented);                                         // showing writes nothing
    view->close();

    QTest::mouseClick(dialogButton(dialog, QDialogButtonBox::Ok), Qt::LeftButton);
    QVERIFY(!dialog.isVisible());
    QCOMPARE(QString::fromUtf8(readAll(m_path)), shown);
}

// Qt's icons on a dialog's buttons (a red dot on Cancel) where GNOME has none: never, whatever the style says.
void TestSettingsDialog::noIconsOnDialogButtons()
{
    class IconStyle : public QProxyStyle
    {
    public:
        int styleHint(StyleHint hint, const QStyleOption *option, const QWidget *widget,
                      QStyleHintReturn *returnData) const override
        {
            if (hint == SH_DialogButtonBox_ButtonsHaveIcons)
                return 1;
            return QProxyStyle::styleHint(hint, option, widget, returnData);
        }
    };
    QStyle *previous = QApplication::style();
    const QString previousName = previous->name();
    QApplication::setStyle(new IconStyle);
    const auto restore = qScopeGuard([&previousName] { QApplication::setStyle(previousName); });
    QVERIFY(QApplication::style()->styleHint(QStyle::SH_DialogButtonBox_ButtonsHaveIcons));

    for (const bool firstStart : {false, true}) {
        const QString path = firstStart ? m_dir->filePath(QStringLiteral("new/idlegpu.conf")) : m_path;
        SettingsDialog dialog(path);
        const QList<QAbstractButton *> buttons = child<QDialogButtonBox>(dialog, QStringLiteral("buttons"))->buttons();
        QVERIFY(buttons.size() >= 3);
        for (QAbstractButton *button : buttons)
            QVERIFY2(button->icon().isNull(), qPrintable(button->text()));
    }
}

// Every list says what it would hold and what applies while it is empty; without a GPU group the page says which
// rules apply to every GPU instead of showing a greyed form.
void TestSettingsDialog::emptyListsSayWhatApplies()
{
    writeAll(m_path, "[defaults]\ninterval_seconds = 10\n");
    SettingsDialog dialog(m_path);
    dialog.setMonitorState(gpus01());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));

    openTab(dialog, SettingsDialog::GroupsPage);
    QVERIFY(child<QLabel>(dialog, QStringLiteral("groupListEmpty"))->isVisible());
    auto *noGroup = child<QLabel>(dialog, QStringLiteral("noGroupText"));
    QVERIFY(noGroup->isVisible());
    QVERIFY2(noGroup->text().startsWith(QStringLiteral("No GPU groups: the same rules apply to every GPU.")),
             qPrintable(noGroup->text()));
    QVERIFY(noGroup->text().contains(QStringLiteral("nvidia-smi")));
    QVERIFY(!child<QWidget>(dialog, QStringLiteral("busyWhen"))->isVisible()); // no greyed form
    QTest::mouseClick(child<QPushButton>(dialog, QStringLiteral("addGroupButton")), Qt::LeftButton);
    QVERIFY(!noGroup->isVisible());
    QVERIFY(child<QWidget>(dialog, QStringLiteral("busyWhen"))->isVisible());
    QVERIFY(!child<QLabel>(dialog, QStringLiteral("ignoreListEmpty"))->isVisible()); // a new group ignores nvidia-smi
    auto *ignoreList = child<QListWidget>(dialog, QStringLiteral("ignoreList"));
    ignoreList->setCurrentRow(0);
    QTest::mouseClick(child<QPushButton>(dialog, QStringLiteral("removeIgnoreButton")), Qt::LeftButton);
    QVERIFY(child<QLabel>(dialog, QStringLiteral("ignoreListEmpty"))->isVisible());
    QVERIFY(child<QLabel>(dialog, QStringLiteral("ignoreListEmpty"))->text().startsWith(QStringLiteral("None given")));

    openTab(dialog, SettingsDialog::WorkloadsPage);
    auto *noWorkload = child<QLabel>(dialog, QStringLiteral("workloadListEmpty"));
    QVERIFY(noWorkload->isVisible());
    QVERIFY(noWorkload->text().startsWith(QStringLiteral("No workloads yet.")));
    addFromTemplate(dialog, QStringLiteral("custom"));
    QVERIFY(!noWorkload->isVisible());
    QVERIFY(child<QLabel>(dialog, QStringLiteral("envTableEmpty"))->isVisible());
    QTest::mouseClick(child<QPushButton>(dialog, QStringLiteral("addEnvButton")), Qt::LeftButton);
    QVERIFY(!child<QLabel>(dialog, QStringLiteral("envTableEmpty"))->isVisible());
}

// Battery and heat are where a user looks for them: a page of their own, not "User activity".
void TestSettingsDialog::batteryAndHeatOnTheirOwnPage()
{
    SettingsDialog dialog(m_path);
    auto *pages = child<QTabWidget>(dialog, QStringLiteral("pages"));
    QCOMPARE(pages->tabText(SettingsDialog::PowerPage), QStringLiteral("Power and heat"));
    QWidget *power = pages->widget(SettingsDialog::PowerPage);
    QWidget *activity = pages->widget(SettingsDialog::ActivityPage);
    for (const QString &name : {QStringLiteral("onBatteryCombo"), QStringLiteral("maxTemperatureSpin")}) {
        QVERIFY(power->findChild<QWidget *>(name));
        QVERIFY(!activity->findChild<QWidget *>(name));
    }
}

// Titles in one case beside "idlegpu status"; the problems summary in a sentence.
void TestSettingsDialog::plainWordsInTitleAndSummary()
{
    SettingsDialog dialog(m_path);
    dialog.setMonitorState(gpus01());
    dialog.show();
    QVERIFY(QTest::qWaitForWindowExposed(&dialog));
    QCOMPARE(dialog.windowTitle(), QStringLiteral("idlegpu settings"));
    openTab(dialog, SettingsDialog::WorkloadsPage);
    selectRow(child<QListWidget>(dialog, QStringLiteral("workloadList")), 1);
    typeInto(child<QLineEdit>(dialog, QStringLiteral("nameEdit")), QString());
    auto *summary = child<QLabel>(dialog, QStringLiteral("problemSummary"));
    QCOMPARE(summary->text(),
             QStringLiteral("One problem keeps the settings from being saved, on the Workloads page: Enter a name."));
    typeInto(child<QLineEdit>(dialog, QStringLiteral("dirEdit")), QStringLiteral("/no/such/folder"));
    QVERIFY2(summary->text().startsWith(QStringLiteral("2 problems keep the settings from being saved. The first, on "
                                                       "the Workloads page: ")),
             qPrintable(summary->text()));
}

QTEST_MAIN(TestSettingsDialog)
#include "tst_settingsdialog.moc"
