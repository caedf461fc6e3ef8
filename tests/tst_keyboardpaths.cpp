// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The keyboard paths of every window a user opens: the status window (a GPU, a running and a failing workload), the
// settings dialog on each of its pages and the first start's welcome page. Tab from the window's first focus reaches
// every control that takes Tab, Esc closes the window, Enter clicks the dialog's default button. The widget tree is
// walked, not listed: a control added later is checked without a line here. tests/desktop/ checks the same windows
// on the real GNOME and KDE.
#include "model/monitorstate.h"
#include "settings/settingsdialog.h"
#include "status/statuswindow.h"
#include "tray/logviewer.h"

#include <QAbstractButton>
#include <QFile>
#include <QApplication>
#include <QLabel>
#include <QMessageBox>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QRadioButton>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTimer>
#include <QVBoxLayout>
#include <QtTest>

#include <algorithm>
#include <functional>
#include <memory>

namespace {

constexpr qint64 kNowMs = 50'000'000;
const QDateTime kWallNow(QDate(2026, 11, 5), QTime(14, 0), Qt::UTC);

// One GPU running "miner"; "pool-client" exits with code 3 after printing why and waits to retry.
MonitorState gpuWithWorkloads()
{
    MonitorState state;
    WorkloadConfig miner;
    miner.id = QStringLiteral("process-miner");
    miner.name = QStringLiteral("miner");
    WorkloadConfig failing;
    failing.id = QStringLiteral("process-pool-client");
    failing.name = QStringLiteral("pool-client");
    state.config.workloads = {miner, failing};
    state.snapshot.takenAtMs = kNowMs;
    state.snapshot.devices.gpus = {{0, QStringLiteral("/dev/nvidia0")}};

    WorkloadRuntime running;
    running.id = miner.id;
    running.state = WorkloadRuntime::Running;
    running.pid = 4242;
    running.startedAtMs = kNowMs - 600'000;
    running.gpus = {0};
    state.runtimes.insert(running.id, running);
    WorkloadRuntime backingOff;
    backingOff.id = failing.id;
    backingOff.state = WorkloadRuntime::BackingOff;
    backingOff.retryAtMs = kNowMs + 30'000;
    backingOff.consecutiveFailures = 3;
    backingOff.lastExit = QStringLiteral("exit code 3");
    backingOff.lastOutput = {QStringLiteral("cannot connect to pool stratum+tcp://pool.example:3333")};
    state.runtimes.insert(backingOff.id, backingOff);

    GpuStatus gpu;
    gpu.index = 0;
    gpu.state = GpuState::RunningWorkload;
    gpu.workloadId = miner.id;
    state.decision.gpus = {gpu};
    return state;
}

// A file as a user who has set idlegpu up has it: a workload on the GPU, a group, activity rules.
const char kSetUpConfig[] = R"([defaults]
interval_seconds = 10
start_delay_seconds = 60

[gpu-all]
busy_when = opened

[process-miner]
cmd = miner --pool stratum+tcp://pool.example:3333 -u wallet
gpus = 0

[activity]
pause_while_active = true
idle_seconds = 300
)";

// What a user calls a control: its class, object name and text, as a failure names it.
QString describe(const QWidget *widget)
{
    QString text;
    if (const auto *button = qobject_cast<const QAbstractButton *>(widget))
        text = button->text();
    else if (const auto *label = qobject_cast<const QLabel *>(widget))
        text = label->text();
    QString name = QString::fromLatin1(widget->metaObject()->className());
    if (!widget->objectName().isEmpty())
        name += QLatin1Char('#') + widget->objectName();
    if (!text.isEmpty())
        name += QStringLiteral(" \"%1\"").arg(text);
    if (!widget->toolTip().isEmpty() && text.isEmpty())
        name += QStringLiteral(" (tooltip \"%1\")").arg(widget->toolTip().left(60));
    return name;
}

// The widget that takes the focus for `widget`: its focus proxy's, down the chain.
QWidget *focusTaker(QWidget *widget)
{
    while (widget && widget->focusProxy())
        widget = widget->focusProxy();
    return widget;
}

// Every control of `window` that Tab should reach: shown, enabled, with a focus policy that accepts Tab.
QList<QWidget *> tabTargets(QWidget *window)
{
    QList<QWidget *> targets;
    const QList<QWidget *> widgets = window->findChildren<QWidget *>();
    for (QWidget *widget : widgets) {
        QWidget *taker = focusTaker(widget);
        if (!taker || taker->window() != window || !taker->isVisible() || !taker->isEnabled()
            || !(taker->focusPolicy() & Qt::TabFocus) || targets.contains(taker))
            continue;
        targets.append(taker);
    }
    return targets;
}

// An auto-exclusive radio button is reached by Tab through the group's checked one, then by the arrow keys.
bool reachedThroughGroup(const QWidget *target, const QSet<QWidget *> &reached)
{
    const auto *radio = qobject_cast<const QRadioButton *>(target);
    if (!radio || !radio->autoExclusive() || !radio->parentWidget())
        return false;
    const QList<QRadioButton *> siblings = radio->parentWidget()->findChildren<QRadioButton *>(
        QString(), Qt::FindDirectChildrenOnly);
    return std::any_of(siblings.cbegin(), siblings.cend(),
                       [&](QRadioButton *sibling) { return sibling->autoExclusive() && reached.contains(sibling); });
}

// The window's push buttons that Enter would click: the default ones among those shown.
QList<QPushButton *> defaultButtons(QWidget *window)
{
    QList<QPushButton *> found;
    const QList<QPushButton *> buttons = window->findChildren<QPushButton *>();
    for (QPushButton *button : buttons)
        if (button->isDefault() && button->isVisible())
            found.append(button);
    return found;
}

// Answers a question that a window asks (a modal message box other than the window itself) by its discarding
// button, or by Esc where it has none; records the question's text. Runs from the event loop, so that it also
// answers a question opened with exec().
class QuestionAnswerer : public QObject
{
public:
    explicit QuestionAnswerer(QWidget *window) : m_window(window)
    {
        m_timer.setInterval(20);
        QObject::connect(&m_timer, &QTimer::timeout, this, [this] { answer(); });
        m_timer.start();
    }
    QStringList questions;

private:
    void answer()
    {
        auto *box = qobject_cast<QMessageBox *>(QApplication::activeModalWidget());
        if (!box || box == m_window || !box->isVisible())
            return;
        questions.append(box->text());
        for (QAbstractButton *button : box->buttons()) {
            if (box->buttonRole(button) == QMessageBox::DestructiveRole) {
                button->click();
                return;
            }
        }
        QTest::keyClick(box, Qt::Key_Escape);
    }

    QWidget *m_window;
    QTimer m_timer;
};

} // namespace

class TestKeyboardPaths : public QObject
{
    Q_OBJECT

private:
    // One window as a user opens it, on one page where it has several.
    struct WindowCase
    {
        QString name;
        std::function<std::unique_ptr<QWidget>()> open;
    };

    std::unique_ptr<QTemporaryDir> m_folder;
    QString m_setUpConfig;    // exists: the settings dialog of a set-up idlegpu
    QString m_notSetUpConfig; // never written but by a test that saves: the first start's dialog

    std::unique_ptr<QWidget> openStatus()
    {
        auto window = std::make_unique<StatusWindow>();
        window->applyState(gpuWithWorkloads(), kNowMs, kWallNow);
        return window;
    }

    std::unique_ptr<QWidget> openSettings(const QString &path, int page)
    {
        auto dialog = std::make_unique<SettingsDialog>(path);
        dialog->setMonitorState(gpuWithWorkloads());
        if (auto *pages = dialog->findChild<QTabWidget *>(QStringLiteral("pages")))
            pages->setCurrentIndex(page);
        return dialog;
    }

    // The status window; the settings dialog on each of its pages; the first start's dialog on its welcome page;
    // the log viewer.
    QList<WindowCase> windowCases()
    {
        QList<WindowCase> cases{{QStringLiteral("status window"), [this] { return openStatus(); }}};
        SettingsDialog probe(m_setUpConfig);
        const auto *pages = probe.findChild<QTabWidget *>(QStringLiteral("pages"));
        for (int page = 0; pages && page < pages->count(); ++page)
            cases.append({QStringLiteral("settings dialog, page \"%1\"").arg(pages->tabText(page).remove('&')),
                          [this, page] { return openSettings(m_setUpConfig, page); }});
        cases.append({QStringLiteral("first start"), [this] {
                          auto dialog = openSettings(m_notSetUpConfig, 0);
                          static_cast<SettingsDialog *>(dialog.get())->showWelcomePage();
                          return dialog;
                      }});
        // Open log where no application takes the file: the log viewer, on a log of a few lines.
        cases.append({QStringLiteral("log viewer"), [this] {
                          const QString log = m_folder->filePath(QStringLiteral("idlegpu.log"));
                          QFile file(log);
                          if (file.open(QIODevice::WriteOnly))
                              file.write("2026-12-04 12:00:00.000 idlegpu.monitor: started\n");
                          return std::unique_ptr<QWidget>(new LogViewer(log));
                      }});
        return cases;
    }

    // A row per window and page, for each check.
    void addWindowRows()
    {
        QTest::addColumn<int>("windowCase");
        const QList<WindowCase> cases = windowCases();
        for (int i = 0; i < cases.size(); ++i)
            QTest::newRow(qPrintable(cases.at(i).name)) << i;
    }

    // Shows `window` as the tray does and waits until it has the keyboard.
    static bool showActive(QWidget *window)
    {
        window->show();
        window->raise();
        window->activateWindow();
        return QTest::qWaitForWindowActive(window);
    }

    // Where a key goes: the focused control, or the window while none has the focus.
    static QWidget *keyTarget(QWidget *window)
    {
        QWidget *focus = QApplication::focusWidget();
        return focus && focus->window() == window ? focus : window;
    }

private Q_SLOTS:
    void initTestCase()
    {
        m_folder = std::make_unique<QTemporaryDir>();
        QVERIFY(m_folder->isValid());
        m_setUpConfig = m_folder->filePath(QStringLiteral("idlegpu.conf"));
        m_notSetUpConfig = m_folder->filePath(QStringLiteral("not-set-up/idlegpu.conf"));
        QFile file(m_setUpConfig);
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(kSetUpConfig);
        file.close();
        QVERIFY(file.setPermissions(QFile::ReadOwner | QFile::WriteOwner));
        QVERIFY(QDir().mkpath(QFileInfo(m_notSetUpConfig).path()));
    }

    void init() { QFile::remove(m_notSetUpConfig); }

    // The walk itself must be able to fail: a text box that keeps Tab for itself hides every control after it.
    void tabWalkFindsAControlBehindATabTrap()
    {
        QWidget window;
        auto *layout = new QVBoxLayout(&window);
        auto *first = new QPushButton(QStringLiteral("First"));
        auto *trap = new QPlainTextEdit; // inserts a tab: tabChangesFocus is off
        auto *after = new QPushButton(QStringLiteral("After"));
        after->setObjectName(QStringLiteral("after"));
        layout->addWidget(first);
        layout->addWidget(trap);
        layout->addWidget(after);
        QVERIFY(showActive(&window));
        first->setFocus();
        const QStringList missed = unreachedByTab(&window);
        QVERIFY2(missed.size() == 2 && missed.first() == QStringLiteral("QPushButton#after \"After\"")
                     && missed.last().endsWith(QStringLiteral("the focus is in QPlainTextEdit)")),
                 qPrintable(missed.join(QStringLiteral(", "))));
        trap->setTabChangesFocus(true);
        QCOMPARE(unreachedByTab(&window), QStringList());
    }

    void tabReachesEveryControl_data() { addWindowRows(); }
    void tabReachesEveryControl()
    {
        QFETCH(int, windowCase);
        std::unique_ptr<QWidget> window = windowCases().at(windowCase).open();
        QVERIFY(showActive(window.get()));
        const QStringList missed = unreachedByTab(window.get());
        QVERIFY2(missed.isEmpty(),
                 qPrintable(QStringLiteral("Tab never reaches ") + missed.join(QStringLiteral(", "))));
    }

    void escapeClosesTheWindow_data() { addWindowRows(); }
    void escapeClosesTheWindow()
    {
        QFETCH(int, windowCase);
        std::unique_ptr<QWidget> window = windowCases().at(windowCase).open();
        QVERIFY(showActive(window.get()));
        QuestionAnswerer answerer(window.get());
        QTest::keyClick(keyTarget(window.get()), Qt::Key_Escape);
        // Nothing was edited: nothing to lose, nothing to ask.
        QVERIFY2(answerer.questions.isEmpty(), qPrintable(QStringLiteral("Esc without edits asks: ")
                                                          + answerer.questions.join(QStringLiteral(" / "))));
        QVERIFY2(QTest::qWaitFor([&] { return !window->isVisible(); }, 2000), "Esc does not close the window");
    }

    // In a dialog one button is the default, and Enter from the first focus clicks it (a disabled one: nothing).
    void enterClicksTheDefaultButton_data() { addWindowRows(); }
    void enterClicksTheDefaultButton()
    {
        QFETCH(int, windowCase);
        std::unique_ptr<QWidget> window = windowCases().at(windowCase).open();
        if (!qobject_cast<QDialog *>(window.get()))
            QSKIP("not a dialog: Enter belongs to the focused control");
        QVERIFY(showActive(window.get()));
        const QList<QPushButton *> defaults = defaultButtons(window.get());
        QStringList names;
        for (const QPushButton *button : defaults)
            names.append(describe(button));
        QVERIFY2(defaults.size() == 1, qPrintable(QStringLiteral("%1 default buttons, Enter needs one: %2")
                                                      .arg(defaults.size())
                                                      .arg(names.join(QStringLiteral(", ")))));
        QPushButton *primary = defaults.first();
        QSignalSpy clicked(primary, &QAbstractButton::clicked);
        QuestionAnswerer answerer(window.get());
        const QString focus = describe(keyTarget(window.get()));
        QTest::keyClick(keyTarget(window.get()), Qt::Key_Return);
        QTest::qWait(50);
        if (primary->isEnabled())
            QVERIFY2(clicked.count() == 1, qPrintable(QStringLiteral("Enter (focus on %1) does not click the default "
                                                                     "button %2")
                                                          .arg(focus, names.first())));
        else
            QVERIFY2(window->isVisible(), qPrintable(QStringLiteral("Enter closes the window while its default "
                                                                    "button %1 is disabled")
                                                         .arg(names.first())));
    }

private:
    // Presses Tab from the window's first focus until every target has had the focus, or twice round the chain;
    // returns the targets never reached, as describe() names them.
    QStringList unreachedByTab(QWidget *window)
    {
        const QList<QWidget *> targets = tabTargets(window);
        QSet<QWidget *> reached;
        const auto allReached = [&] {
            return std::all_of(targets.cbegin(), targets.cend(),
                               [&](QWidget *target) { return reached.contains(target); });
        };
        if (QWidget *focus = QApplication::focusWidget())
            reached.insert(focus);
        // An item view moves between its cells first (tabKeyNavigation): room for that.
        const int presses = 4 * int(targets.size()) + 40;
        for (int i = 0; i < presses && !allReached(); ++i) {
            QTest::keyClick(keyTarget(window), Qt::Key_Tab);
            QCoreApplication::processEvents();
            if (QWidget *focus = QApplication::focusWidget())
                reached.insert(focus);
        }
        QStringList missed;
        for (QWidget *target : targets)
            if (!reached.contains(target) && !reachedThroughGroup(target, reached))
                missed.append(describe(target));
        // Where the walk ended: a control that keeps Tab for itself is the usual reason.
        if (!missed.isEmpty() && QApplication::focusWidget())
            missed.append(QStringLiteral("(after %1 presses of Tab the focus is in %2)")
                              .arg(presses)
                              .arg(describe(QApplication::focusWidget())));
        return missed;
    }
};

QTEST_MAIN(TestKeyboardPaths)
#include "tst_keyboardpaths.moc"
