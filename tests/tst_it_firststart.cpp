// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// A new user's first start, without a config file: the monitor watches the GPUs with no workloads and waits for the
// file (its folder missing too); the tray says "not set up" and its "Set up…" opens the welcome page, whose save
// writes the file that the monitor then runs; `--status` works without a file and `--headless` says how to make one.
#include "monitorhost.h"
#include "run/processrunner.h"
#include "settings/settingsdialog.h"
#include "settings/workloadtemplates.h"
#include "status/statuswindow.h"
#include "testsupport.h"
#include "tray/trayapplication.h"
#include "tray/traycontroller.h"
#include "widgettestsupport.h"

#include <QCheckBox>
#include <QComboBox>
#include <QDialogButtonBox>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QProcess>
#include <QPushButton>
#include <QSpinBox>
#include <QSignalSpy>
#include <QTabWidget>
#include <QTableWidget>
#include <QTemporaryDir>
#include <QtTest>

using namespace TestSupport;

namespace {

template<typename T>
T *child(const QWidget *parent, const QString &name)
{
    T *widget = parent->findChild<T *>(name);
    if (!widget)
        qWarning("no child %s", qPrintable(name));
    return widget;
}

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

} // namespace

class TestFirstStart : public QObject
{
    Q_OBJECT

private:
    // The binary as a user without any config file runs it: a home of its own, no gpu_mon.conf either.
    Run runIdlegpu(const QStringList &arguments)
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_home->path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home->filePath(QStringLiteral(".config")));
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_home->path());
        process.setProcessEnvironment(env);
        process.start(QStringLiteral(IDLEGPU_BINARY), arguments);
        if (!process.waitForFinished(15000)) {
            process.kill();
            process.waitForFinished();
        }
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
    }
    QString defaultConfigPath() const { return m_home->filePath(QStringLiteral(".config/idlegpu/idlegpu.conf")); }

    std::unique_ptr<QTemporaryDir> m_home;

private Q_SLOTS:
    void initTestCase()
    {
        // The tray keeps its pause and "Start at login" under these: never the real ones.
        static QTemporaryDir state;
        qputenv("XDG_STATE_HOME", QFile::encodeName(state.filePath(QStringLiteral("state"))));
        qputenv("XDG_CONFIG_HOME", QFile::encodeName(state.filePath(QStringLiteral("config"))));
    }
    void init()
    {
        m_home = std::make_unique<QTemporaryDir>();
        QVERIFY(m_home->isValid());
    }

    // No file, and not its folder either: the monitor starts, shows the GPUs and their holders, runs nothing; a
    // file written later (folders and all, as the settings dialog does) is applied and its workload runs.
    void monitorWaitsForTheFirstFile()
    {
        FakeDevRoot dev(2);
        NodeHolder job(dev.computeJob(1), QStringLiteral("python3"));
        QVERIFY(job.waitUntilOpen());
        const QString path = m_home->filePath(QStringLiteral("config/idlegpu/idlegpu.conf"));

        ProcessRunner runner;
        Monitor monitor(path, &runner);
        Config placeholder;
        placeholder.deviceRoot = dev.path();
        monitor.acceptMissingConfig(placeholder);
        QVERIFY(monitor.start());
        MonitorState state = monitor.state();
        QVERIFY(state.notSetUp);
        QVERIFY(state.config.workloads.isEmpty());
        QVERIFY(state.configProblems.isEmpty()); // a state, not an error
        QCOMPARE(state.snapshot.devices.indices(), (QList<int>{0, 1}));
        QVERIFY(std::any_of(state.snapshot.holders.cbegin(), state.snapshot.holders.cend(),
                            [&job](const Holder &h) { return h.pid == job.pid(); }));

        QString error;
        QVERIFY2(replaceIniFile(path,
                                QStringLiteral("[defaults]\nstart_delay_seconds = 0\ndevice_root = %1\n\n"
                                               "[process-first]\ncmd = sleep 1000\ngpus = 0\nstop_timeout_seconds = 2\n")
                                    .arg(dev.path())
                                    .toUtf8(),
                                &error),
                 qPrintable(error));
        QTRY_COMPARE_WITH_TIMEOUT(runner.runtimes().value(QStringLiteral("process-first")).state,
                                  WorkloadRuntime::Running, 10000);
        state = monitor.state();
        QVERIFY(!state.notSetUp);
        QCOMPARE(state.config.workloads.size(), 1);
        QVERIFY(shutDownMonitor(monitor));
    }

    // Without acceptMissingConfig() (headless, an explicit --config) a missing file stays an error.
    void missingFileIsAnErrorOtherwise()
    {
        ProcessRunner runner;
        Monitor monitor(m_home->filePath(QStringLiteral("nowhere.conf")), &runner);
        QVERIFY(!monitor.start());
        QVERIFY(!monitor.state().notSetUp);
        QVERIFY(!monitor.state().configProblems.isEmpty());
    }

    // The tray's first start through to a running workload: the "not set up" state, "Set up…", the welcome page
    // listing the GPUs, a template saved there, and the tray leaving the state by itself once the workload runs.
    void trayFirstStartToRunningWorkload()
    {
        FakeDevRoot dev(2);
        NodeHolder job(dev.computeJob(1), QStringLiteral("python3"));
        QVERIFY(job.waitUntilOpen());
        const QString path = defaultConfigPath();
        const QString devRoot = dev.path();
        MonitorHost host(path, [path, devRoot] {
            MonitorParts parts;
            parts.runner = std::make_unique<ProcessRunner>();
            parts.monitor = std::make_unique<Monitor>(path, parts.runner.get());
            Config placeholder;
            placeholder.deviceRoot = devRoot;
            parts.monitor->acceptMissingConfig(placeholder);
            return parts;
        });
        TrayApplication tray(&host, m_home->filePath(QStringLiteral("idlegpu.log")));
        QSignalSpy started(&host, &MonitorHost::started);
        host.start();
        QVERIFY(started.wait(10000));
        QCOMPARE(started.at(0).at(0).toBool(), true);

        TrayController *controller = tray.controller();
        QTRY_COMPARE_WITH_TIMEOUT(controller->overallState(), OverallState::NotSetUp, 5000);
        QVERIFY2(controller->toolTip().startsWith(QStringLiteral("idlegpu — Not set up yet\n")),
                 qPrintable(controller->toolTip()));
        QCOMPARE(controller->menu()->actions().value(0)->text(), QStringLiteral("idlegpu is not set up yet"));
        QAction *setUp = findAction(controller->menu(), QStringLiteral("setUp"));
        QVERIFY(setUp);
        setUp->trigger();

        SettingsDialog *dialog = tray.settingsDialog();
        QVERIFY(dialog);
        QVERIFY(QTest::qWaitForWindowExposed(dialog));
        QCOMPARE(child<QTabWidget>(dialog, QStringLiteral("pages"))->currentWidget()->objectName(),
                 QStringLiteral("welcomePage"));
        auto *gpus = child<QTableWidget>(dialog, QStringLiteral("welcomeGpuTable"));
        QTRY_COMPARE_WITH_TIMEOUT(gpus->rowCount(), 2, 5000);
        QTRY_VERIFY_WITH_TIMEOUT(gpus->item(1, 2)->text().contains(QStringLiteral("python3")), 5000);
        QCOMPARE(gpus->item(0, 2)->text(), QStringLiteral("free"));

        // No wait before the start: the General page's start delay, then the test template on GPU 0, saved.
        child<QSpinBox>(dialog, QStringLiteral("startDelaySpin"))->setValue(0);
        auto *templates = child<QComboBox>(dialog, QStringLiteral("welcomeTemplateCombo"));
        const int test = templates->findData(QStringLiteral("test"));
        templates->setCurrentIndex(test);
        Q_EMIT templates->activated(test);
        auto *all = child<QCheckBox>(dialog, QStringLiteral("welcomeGpusAll"));
        QTest::mouseClick(all, Qt::LeftButton, {}, QPoint(5, all->height() / 2));
        auto *gpu0 = child<QCheckBox>(dialog, QStringLiteral("welcomeGpusGpu0"));
        QTest::mouseClick(gpu0, Qt::LeftButton, {}, QPoint(5, gpu0->height() / 2));
        const QString folder = QCoreApplication::applicationDirPath() + QStringLiteral("/../test-artifacts");
        QDir().mkpath(folder);
        QCoreApplication::processEvents(); // the GPU boxes made by the picker show at the next turn of the loop
        dialog->grab().save(folder + QStringLiteral("/firststart-welcome.png"));
        // The one commit button of a first start: the dialog's own, "Save and start".
        auto *save = child<QDialogButtonBox>(dialog, QStringLiteral("buttons"))->button(QDialogButtonBox::Ok);
        QCOMPARE(save->text(), QStringLiteral("Save and start"));
        QVERIFY(save->isEnabled());
        QTest::mouseClick(save, Qt::LeftButton);
        QVERIFY(QFile::exists(path));
        // It stays to say what happens next, and the status window opens beside it.
        QVERIFY(child<QLabel>(dialog, QStringLiteral("welcomeSavedText"))->isVisibleTo(dialog));
        QTRY_VERIFY(tray.statusWindow()->isVisible());

        // The monitor takes the new file up by itself and starts the workload; the tray leaves the set-up state.
        const QString id = QStringLiteral("process-idlegpu-test");
        QTRY_COMPARE_WITH_TIMEOUT(host.state().runtimes.value(id).state, WorkloadRuntime::Running, 15000);
        QVERIFY(!host.state().notSetUp);
        QCOMPARE(host.state().config.workloads.size(), 1);
        QCOMPARE(host.state().config.workloads.at(0).gpus, GpuSelection::of({0}));
        QTRY_COMPARE_WITH_TIMEOUT(controller->overallState(), OverallState::Running, 5000);
        QVERIFY(!findAction(controller->menu(), QStringLiteral("setUp")));
        QVERIFY(findAction(controller->menu(), QStringLiteral("pauseAll")));
        const qint64 workloadPid = host.state().runtimes.value(id).pid;
        QVERIFY(workloadPid > 0);

        QSignalSpy finished(&host, &MonitorHost::shutdownFinished);
        host.shutdown();
        QVERIFY(finished.wait(15000));
        QTRY_VERIFY_WITH_TIMEOUT(!processAlive(workloadPid), 5000);
    }

    // `--status` and `--status --json` without a file: the GPUs, no workloads, how to add one; exit 0.
    void statusWithoutConfig()
    {
        Run text = runIdlegpu({QStringLiteral("--status")});
        QVERIFY2(text.exitCode == 0, qPrintable(text.err));
        QVERIFY2(text.out.contains(QStringLiteral("Config: %1 (does not exist: idlegpu is not set up yet)")
                                       .arg(defaultConfigPath())),
                 qPrintable(text.out));
        QVERIFY2(text.out.contains(QStringLiteral("No workloads configured.")), qPrintable(text.out));
        QVERIFY2(text.out.contains(QStringLiteral("idlegpu --settings")), qPrintable(text.out));
        QVERIFY2(text.out.contains(QStringLiteral("cp ")) && text.out.contains(QStringLiteral("idlegpu.conf.example")),
                 qPrintable(text.out));
        QVERIFY(!QFile::exists(defaultConfigPath())); // looking creates nothing

        Run json = runIdlegpu({QStringLiteral("--status"), QStringLiteral("--json")});
        QVERIFY2(json.exitCode == 0, qPrintable(json.err));
        QJsonParseError parseError;
        const QJsonObject object = QJsonDocument::fromJson(json.out.toUtf8(), &parseError).object();
        QVERIFY2(parseError.error == QJsonParseError::NoError, qPrintable(json.out));
        QCOMPARE(object.value(QStringLiteral("configured")).toBool(true), false);
        QCOMPARE(object.value(QStringLiteral("config")).toString(), defaultConfigPath());
        QVERIFY(object.value(QStringLiteral("gpus")).isArray());
        QVERIFY(object.value(QStringLiteral("workloads")).toArray().isEmpty());
        QCOMPARE(object.value(QStringLiteral("device_root")).toString(), QStringLiteral("/dev"));

        // A file named with --config that does not exist stays an error.
        const Run missing = runIdlegpu({QStringLiteral("--status"), QStringLiteral("--config"),
                                        m_home->filePath(QStringLiteral("missing.conf"))});
        QCOMPARE(missing.exitCode, 1);
    }

    // Headless, nobody would see a set-up state: it says how to make the file and exits 1; so does --check-config.
    void headlessAndCheckConfigWithoutConfig()
    {
        const Run headless = runIdlegpu({QStringLiteral("--headless")});
        QCOMPARE(headless.exitCode, 1);
        QVERIFY2(headless.err.contains(QStringLiteral("idlegpu is not set up yet: %1 does not exist.")
                                           .arg(defaultConfigPath())),
                 qPrintable(headless.err));
        for (const QString &hint : {QStringLiteral("idlegpu --settings"), QStringLiteral("idlegpu.conf.example"),
                                    QStringLiteral("mkdir -p ") + QFileInfo(defaultConfigPath()).absolutePath()})
            QVERIFY2(headless.err.contains(hint), qPrintable(hint + QStringLiteral(" missing from: ") + headless.err));

        const Run check = runIdlegpu({QStringLiteral("--check-config")});
        QCOMPARE(check.exitCode, 1);
        QVERIFY2(check.err.contains(QStringLiteral("No configuration file: %1 does not exist").arg(defaultConfigPath())),
                 qPrintable(check.err));
        QVERIFY2(check.err.contains(QStringLiteral("idlegpu --settings")), qPrintable(check.err));
        QVERIFY(!QFile::exists(defaultConfigPath()));
    }
};

QTEST_MAIN(TestFirstStart)
#include "tst_it_firststart.moc"
