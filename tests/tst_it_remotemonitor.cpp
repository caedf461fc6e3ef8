// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// RemoteMonitor against a stand-in service (tests/scriptedidlegpuservice.h) on a private bus: the state and its changes,
// the acts with interactive authorization and their refusals, the service killed and restarted (followed, and said
// while away, by the tray too), and a preemption told once, in the holder's own words where they are sent.
#include "base/clock.h"
#include "bus/busnames.h"
#include "bus/remotemonitor.h"
#include "bus/servicefinder.h"
#include "scriptedidlegpuservice.h"
#include "privatebus.h"
#include "bus/statejson.h"
#include "settings/settingsdialog.h"
#include "tray/trayapplication.h"
#include "tray/traycontroller.h"
#include "testsupport.h"
#include "widgettestsupport.h"

#include <QDBusConnection>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QSignalSpy>
#include <QSpinBox>
#include <QtTest>

#include <unistd.h>

namespace {

QJsonObject toJson(const MonitorState &state)
{
    return StateJson::toJson(state);
}

// Two GPUs, GPU 1 busy with alice's python3; the miner runs on GPU 0.
MonitorState fixtureState()
{
    MonitorState state;
    state.config.filePath = QStringLiteral("/etc/idlegpu/idlegpu.conf");
    state.config.deviceRoot = QStringLiteral("/dev");
    WorkloadConfig miner;
    miner.id = QStringLiteral("process-miner");
    miner.name = QStringLiteral("miner");
    miner.cmd = QStringLiteral("miner --pool a:1");
    state.config.workloads.append(miner);
    for (int i = 0; i < 2; ++i) {
        state.snapshot.devices.gpus.append({i, QStringLiteral("/dev/nvidia%1").arg(i)});
        GpuStatus gpu;
        gpu.index = i;
        state.decision.gpus.append(gpu);
    }
    state.decision.gpus[0].state = GpuState::RunningWorkload;
    state.decision.gpus[0].workloadId = miner.id;
    Holder python;
    python.pid = 4242;
    python.uid = 1000;
    python.user = QStringLiteral("alice");
    python.comm = QStringLiteral("python3");
    python.gpus = {1};
    state.decision.gpus[1].state = GpuState::Busy;
    state.decision.gpus[1].foreignHolders = {python};
    return state;
}

} // namespace

class TestRemoteMonitor : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QString why;
        if (!m_bus.start(&why))
            QSKIP(qPrintable(why));
        qputenv("XDG_STATE_HOME", m_home.path().toUtf8());
    }

    void init()
    {
        QString why;
        m_service = std::make_unique<ScriptedIdlegpuService>();
        QVERIFY2(m_service->start(m_bus.address(), &why), qPrintable(why));
        m_service->setState(toJson(fixtureState()));
        m_client = QDBusConnection::connectToBus(m_bus.address(), QStringLiteral("client-%1").arg(++m_clients));
        QVERIFY(m_client.isConnected());
    }

    void cleanup()
    {
        m_service.reset();
        QDBusConnection::disconnectFromBus(m_client.name());
    }

    void showsTheServicesState()
    {
        RemoteMonitor remote(m_client);
        QVERIFY(!remote.isAvailable());
        QSignalSpy states(&remote, &MonitorLink::stateChanged);
        remote.start();
        QVERIFY(states.wait(5000));
        QVERIFY(remote.isAvailable());
        QVERIFY(!remote.isLocal());
        QCOMPARE(remote.configPath(), QStringLiteral("/etc/idlegpu/idlegpu.conf"));
        const MonitorState &state = remote.state();
        QCOMPARE(state.decision.gpus.size(), 2);
        QCOMPARE(state.decision.gpus.at(0).state, GpuState::RunningWorkload);
        QCOMPARE(state.decision.gpus.at(1).foreignHolders.value(0).describe(),
                 QStringLiteral("python3 (alice, pid 4242)"));
        QCOMPARE(state.config.workloads.value(0).name, QStringLiteral("miner"));

        // A change: StateChanged, then GetState.
        MonitorState changed = fixtureState();
        changed.decision.gpus[1].state = GpuState::Idle;
        changed.decision.gpus[1].foreignHolders.clear();
        m_service->setState(toJson(changed));
        QTRY_COMPARE_WITH_TIMEOUT(remote.state().decision.gpus.at(1).state, GpuState::Idle, 5000);
    }

    void actsAskWithInteractiveAuthorization()
    {
        RemoteMonitor remote(m_client);
        QSignalSpy states(&remote, &MonitorLink::stateChanged);
        remote.start();
        QVERIFY(states.wait(5000));
        m_service->calls.clear();
        remote.setPausedAll(true);
        remote.pauseAllFor(3'600'000);
        remote.setWorkloadPaused(QStringLiteral("process-miner"), true);
        remote.pauseWorkloadFor(QStringLiteral("process-miner"), 3'600'000);
        remote.setWorkloadPaused(QStringLiteral("process-miner"), false);
        remote.setPausedAll(false);
        const auto acts = [this] {
            QStringList result;
            for (const ScriptedIdlegpuService::Call &call : std::as_const(m_service->calls))
                if (call.member != QLatin1String("GetState")) {
                    QStringList words{call.member};
                    for (const QVariant &argument : call.arguments)
                        words.append(argument.toString());
                    words.append(call.interactive ? QStringLiteral("interactive") : QStringLiteral("quiet"));
                    result.append(words.join(QLatin1Char(' ')));
                }
            return result;
        };
        QTRY_COMPARE_WITH_TIMEOUT(acts().size(), 6, 5000);
        QCOMPARE(acts(), QStringList({QStringLiteral("Pause  0 interactive"), QStringLiteral("Pause  3600 interactive"),
                                      QStringLiteral("Pause process-miner 0 interactive"),
                                      QStringLiteral("Pause process-miner 3600 interactive"),
                                      QStringLiteral("Resume process-miner interactive"),
                                      QStringLiteral("Resume  interactive")}));
        // Granted: the service's new state comes back by itself.
        QTRY_VERIFY_WITH_TIMEOUT(!remote.state().pause.all, 5000);
    }

    void refusalIsReported()
    {
        RemoteMonitor remote(m_client);
        QSignalSpy states(&remote, &MonitorLink::stateChanged);
        remote.start();
        QVERIFY(states.wait(5000));
        QSignalSpy refused(&remote, &MonitorLink::requestRefused);
        m_service->refuseActs(BusNames::Error::notAuthorized, QStringLiteral("not authorized"));
        remote.setPausedAll(true);
        QVERIFY(refused.wait(5000));
        QCOMPARE(refused.at(0).at(0).value<MonitorLink::Request>(), MonitorLink::Request::PauseAll);
        QCOMPARE(refused.at(0).at(1).toString(), QStringLiteral("not authorized"));

        m_service->refuseActs(BusNames::Error::cancelled, QStringLiteral("dismissed"));
        remote.setWorkloadPaused(QStringLiteral("process-miner"), true);
        QVERIFY(refused.wait(5000));
        QCOMPARE(refused.at(1).at(0).value<MonitorLink::Request>(), MonitorLink::Request::PauseWorkload);
        QCOMPARE(refused.at(1).at(1).toString(), QStringLiteral("the authentication was cancelled"));

        remote.pauseWorkloadFor(QStringLiteral("process-miner"), 3'600'000);
        QVERIFY(refused.wait(5000));
        QCOMPARE(refused.at(2).at(0).value<MonitorLink::Request>(), MonitorLink::Request::PauseWorkloadFor);
    }

    // A workload paused for a while: the tray learns until when, and its menu says it.
    void timedWorkloadPauseShowsItsEnd()
    {
        MonitorState state = fixtureState();
        const qint64 until = SystemClock::instance()->nowMs() + 3'600'000;
        state.pause.workloads.insert(QStringLiteral("process-miner"));
        state.pause.workloadUntilMs.insert(QStringLiteral("process-miner"), until);
        m_service->setState(toJson(state));
        RemoteMonitor remote(m_client);
        TrayApplication tray(&remote, QString());
        QSignalSpy states(&remote, &MonitorLink::stateChanged);
        remote.start();
        QVERIFY(states.wait(5000));
        QVERIFY(
            remote.state().pause.workloadPausedAt(QStringLiteral("process-miner"), SystemClock::instance()->nowMs()));
        QCOMPARE(remote.state().pause.workloadUntilMs.value(QStringLiteral("process-miner")), until);
        QAction *miner = TestSupport::findAction(tray.controller()->menu(), QStringLiteral("pauseWorkload"),
                                                 QStringLiteral("process-miner"));
        QVERIFY(miner && miner->isChecked());
        QVERIFY2(miner->text().startsWith(QStringLiteral("Pause miner (paused until ")), qPrintable(miner->text()));
    }

    // The service killed and started again: the tray says "not running" meanwhile, and shows it again at once.
    void followsTheServiceAcrossARestart()
    {
        RemoteMonitor remote(m_client);
        TrayApplication tray(&remote, QString());
        QSignalSpy states(&remote, &MonitorLink::stateChanged);
        remote.start();
        QVERIFY(states.wait(5000));
        QVERIFY(tray.controller()->isAvailable());

        QSignalSpy availability(&remote, &MonitorLink::availabilityChanged);
        m_service->stop();
        QVERIFY(availability.wait(5000));
        QCOMPARE(availability.last().at(0).toBool(), false);
        QCOMPARE(tray.controller()->toolTip(), QStringLiteral("idlegpu — The idlegpu service is not running"));
        QCOMPARE(tray.controller()->menu()->actions().value(0)->text(),
                 QStringLiteral("The idlegpu service is not running"));

        QSignalSpy attached(&remote, &RemoteMonitor::attached);
        QElapsedTimer restart;
        restart.start();
        QString why;
        QVERIFY2(m_service->start(m_bus.address(), &why), qPrintable(why));
        QVERIFY(attached.wait(5000));
        const qint64 fromStart = restart.elapsed();
        qInfo("service restarted: state shown %lld ms after the name's new owner, %lld ms after the restart",
              remote.lastAttachMs(), fromStart);
        QVERIFY(remote.isAvailable());
        QVERIFY(tray.controller()->isAvailable());
        QVERIFY2(tray.controller()->toolTip().startsWith(QStringLiteral("idlegpu — ")), qPrintable(tray.controller()->toolTip()));
        QVERIFY(!tray.controller()->toolTip().contains(QStringLiteral("not running")));
        QVERIFY2(fromStart < 5000, "the tray must follow a restarted service (the issue wants < 1 s)");
    }

    void notRunningAtStart()
    {
        m_service->stop();
        RemoteMonitor remote(m_client);
        QSignalSpy refused(&remote, &MonitorLink::requestRefused);
        remote.start();
        QTest::qWait(200);
        QVERIFY(!remote.isAvailable());
        QCOMPARE(remote.unavailableReason(), QStringLiteral("The idlegpu service is not running"));
        remote.setPausedAll(true); // refused at once, not sent
        QCOMPARE(refused.count(), 1);
        QCOMPARE(refused.at(0).at(1).toString(), QStringLiteral("The idlegpu service is not running"));

        // It appears: shown.
        QSignalSpy attached(&remote, &RemoteMonitor::attached);
        QString why;
        QVERIFY2(m_service->start(m_bus.address(), &why), qPrintable(why));
        QVERIFY(attached.wait(5000));
        QVERIFY(remote.isAvailable());
    }

    // The broadcast copy without the holder, then the copy for the holder's user: one notice, with the uid.
    void preemptionToldOnceInTheBestWords()
    {
        RemoteMonitor remote(m_client);
        QSignalSpy states(&remote, &MonitorLink::stateChanged);
        remote.start();
        QVERIFY(states.wait(5000));
        QSignalSpy preempted(&remote, &MonitorLink::preempted);

        // Anyone may send a signal with the service's path and interface: only the name's owner is heard.
        {
            QDBusConnection impostor = QDBusConnection::connectToBus(m_bus.address(), QStringLiteral("impostor"));
            QDBusMessage fake = QDBusMessage::createSignal(BusNames::objectPath, BusNames::interface,
                                                           QStringLiteral("Preempted"));
            fake << 0u << QStringLiteral("process-miner")
                 << QVariantMap{{QStringLiteral("event"), qulonglong(6)}, {QStringLiteral("uid"), 1000u}} << 1.0;
            QVERIFY(impostor.send(fake));
            QTest::qWait(300);
            QCOMPARE(preempted.count(), 0);
        }
        QDBusConnection::disconnectFromBus(QStringLiteral("impostor"));

        m_service->preempt(0, QStringLiteral("process-miner"), {{QStringLiteral("event"), qulonglong(7)}}, 4.2);
        m_service->preempt(0, QStringLiteral("process-miner"),
                           {{QStringLiteral("event"), qulonglong(7)}, {QStringLiteral("pid"), 4242u},
                            {QStringLiteral("uid"), 1000u}, {QStringLiteral("user"), QStringLiteral("alice")},
                            {QStringLiteral("comm"), QStringLiteral("python3")}},
                           4.2, m_client.baseService());
        QVERIFY(preempted.wait(5000));
        QTest::qWait(300); // past the wait for a better copy
        QCOMPARE(preempted.count(), 1);
        const auto event = preempted.at(0).at(0).value<PreemptionEvent>();
        QCOMPARE(event.gpu, 0);
        QCOMPARE(event.workloadName, QStringLiteral("miner"));
        QCOMPARE(event.culprit.uid, 1000u);
        QCOMPARE(event.culprit.comm, QStringLiteral("python3"));
        QVERIFY(event.openToStopMs && qFuzzyCompare(*event.openToStopMs, 4.2));

        // Only the broadcast, with nothing of the holder (hidepid): told after the short wait, as a hidden holder.
        m_service->preempt(1, QStringLiteral("process-miner"), {{QStringLiteral("event"), qulonglong(8)}}, -1);
        QVERIFY(preempted.wait(5000));
        const auto hidden = preempted.at(1).at(0).value<PreemptionEvent>();
        QVERIFY(hidden.culprit.hidden);
        QVERIFY(!hidden.openToStopMs);
    }

    // Discovery: the system bus first, then the session bus; an owner that runs as the wrong user is ignored.
    void finderAsksSystemThenSession()
    {
        PrivateBus systemBus;
        QString why;
        QVERIFY2(systemBus.start(&why), qPrintable(why));
        const QDBusConnection system = QDBusConnection::connectToBus(systemBus.address(), QStringLiteral("finder-system"));
        const uint me = ::getuid();
        const auto find = [&](uint systemUid) {
            ServiceFinder finder(system, m_client, systemUid, me);
            QSignalSpy finished(&finder, &ServiceFinder::finished);
            finder.start();
            if (finished.isEmpty())
                finished.wait(5000);
            return finder.where();
        };
        QCOMPARE(find(me), ServiceFinder::Where::Session); // the fake on m_bus plays this user's own service

        ScriptedIdlegpuService systemService;
        QVERIFY2(systemService.start(systemBus.address(), &why), qPrintable(why));
        QCOMPARE(find(me), ServiceFinder::Where::System);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression(QStringLiteral("system bus: .* runs as uid .*: ignored")));
        QCOMPARE(find(me + 1), ServiceFinder::Where::Session);

        m_service->stop();
        systemService.stop();
        QCOMPARE(find(me), ServiceFinder::Where::None);
        QDBusConnection::disconnectFromBus(QStringLiteral("finder-system"));
    }

    // The real tray finds the service on its session bus and shows it: no monitor of its own, no workload started.
    void trayFindsTheServiceAndStartsNoMonitor()
    {
        QTemporaryDir dir;
        QFile config(dir.filePath(QStringLiteral("idlegpu.conf")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write("[defaults]\ndevice_root = " + dir.path().toUtf8() + "\n\n[process-own]\ncmd = sleep 1000\n");
        config.close();
        m_service->calls.clear();

        QProcess tray;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), m_bus.address());
        env.insert(QStringLiteral("DBUS_SYSTEM_BUS_ADDRESS"), QStringLiteral("unix:path=") + dir.filePath(QStringLiteral("no-bus")));
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_STATE_HOME"), dir.filePath(QStringLiteral("state")));
        env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("idlegpu.*.info=true"));
        tray.setProcessEnvironment(env);
        tray.setProcessChannelMode(QProcess::MergedChannels);
        QElapsedTimer started;
        started.start();
        tray.start(QStringLiteral(IDLEGPU_BINARY), {QStringLiteral("--config"), config.fileName()});
        QVERIFY(tray.waitForStarted(5000));
        QByteArray output;
        // In steps of 5 ms, not QTRY's 50: the time is a figure the issue asks for.
        while (!(output += tray.readAll()).contains("showing the idlegpu service (")
               && tray.state() != QProcess::NotRunning && started.elapsed() < 15000)
            QTest::qWait(5);
        qInfo("the tray showed the service %lld ms after it started", started.elapsed());
        QVERIFY2(output.contains("showing the idlegpu service on the session bus"), output.constData());
        QVERIFY2(!output.contains("in the tray with"), output.constData()); // its own monitor's first line
        bool asked = false;
        for (const ScriptedIdlegpuService::Call &call : std::as_const(m_service->calls))
            asked = asked || call.member == QLatin1String("GetState");
        QVERIFY(asked);
        tray.terminate();
        QVERIFY(tray.waitForFinished(10000));
    }

    // A system service that starts while the tray runs its own monitor: the monitor stops its workload, and the tray
    // shows the service (never two monitors on one machine).
    void trayHandsOverToASystemServiceThatStartsLater()
    {
        if (::getuid() != 0)
            QSKIP("the system service's owner must be root, and the stand-in runs as whoever runs the test");
        m_service->stop(); // no session service
        PrivateBus systemBus;
        QString why;
        QVERIFY2(systemBus.start(&why), qPrintable(why));
        TestSupport::FakeDevRoot dev(1);
        QTemporaryDir dir;
        const QString pidFile = dir.filePath(QStringLiteral("workload.pid"));
        QFile config(dir.filePath(QStringLiteral("idlegpu.conf")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write("[defaults]\ndevice_root = " + dev.path().toUtf8() + "\nstart_delay_seconds = 0\n\n"
                     "[process-own]\ncmd = sh -c 'echo $$ > " + pidFile.toUtf8() + "; exec sleep 1000'\n");
        config.close();

        QProcess tray;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), m_bus.address());
        env.insert(QStringLiteral("DBUS_SYSTEM_BUS_ADDRESS"), systemBus.address());
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_STATE_HOME"), dir.filePath(QStringLiteral("state")));
        env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("idlegpu.*.info=true"));
        tray.setProcessEnvironment(env);
        tray.setProcessChannelMode(QProcess::MergedChannels);
        tray.start(QStringLiteral(IDLEGPU_BINARY), {QStringLiteral("--config"), config.fileName()});
        QVERIFY(tray.waitForStarted(5000));
        QByteArray output;
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo(pidFile).size() > 0, 15000);
        QFile pidText(pidFile);
        QVERIFY(pidText.open(QIODevice::ReadOnly));
        const qint64 workloadPid = pidText.readAll().trimmed().toLongLong();
        QVERIFY(TestSupport::processAlive(workloadPid));

        ScriptedIdlegpuService systemService;
        QVERIFY2(systemService.start(systemBus.address(), &why), qPrintable(why));
        QTRY_VERIFY_WITH_TIMEOUT((output += tray.readAll()).contains("the tray shows the idlegpu system service now")
                                     || tray.state() == QProcess::NotRunning,
                                 20000);
        QVERIFY2(output.contains("stopping this tray's monitor"), output.constData());
        QVERIFY(!TestSupport::processAlive(workloadPid));
        QTRY_VERIFY_WITH_TIMEOUT(std::any_of(systemService.calls.cbegin(), systemService.calls.cend(),
                                             [](const ScriptedIdlegpuService::Call &call) {
                                                 return call.member == QLatin1String("GetState");
                                             }),
                                 5000);
        QCOMPARE(tray.state(), QProcess::Running);
        tray.terminate();
        QVERIFY(tray.waitForFinished(10000));
    }

    // Settings… on a service's tray: the file loaded through the service, the edit saved through it with the etag of
    // the load (comments kept), a broken file refused with FILE:LINE, a file changed meanwhile said so.
    void settingsEditTheServicesFile()
    {
        m_service->config = "# the service's file\n[defaults]\n# a minute\nstart_delay_seconds = 60\n";
        RemoteMonitor remote(m_client);
        TrayApplication tray(&remote, QString());
        QSignalSpy states(&remote, &MonitorLink::stateChanged);
        remote.start();
        QVERIFY(states.wait(5000));
        QAction *settings = TestSupport::findAction(tray.controller()->menu(), QStringLiteral("settings"));
        QVERIFY(settings && settings->isEnabled());
        settings->trigger();
        QTRY_VERIFY_WITH_TIMEOUT(tray.settingsDialog(), 5000);
        SettingsDialog *dialog = tray.settingsDialog();
        QVERIFY(std::any_of(m_service->calls.cbegin(), m_service->calls.cend(), [](const ScriptedIdlegpuService::Call &c) {
            return c.member == QLatin1String("GetConfig") && c.interactive;
        }));
        auto *delay = dialog->findChild<QSpinBox *>(QStringLiteral("startDelaySpin"));
        QVERIFY(delay);
        QVERIFY2(delay->value() == 60, qPrintable(dialog->findChild<QLabel *>(QStringLiteral("fileProblems"))->text()));

        // Refused as broken: the lines show, nothing changes.
        m_service->invalid = QStringLiteral("/etc/idlegpu/idlegpu.conf:3: error: start_delay_seconds is out of range");
        delay->setValue(7);
        QSignalSpy saved(&remote, &MonitorLink::configSaveFinished);
        QVERIFY(!dialog->apply());
        QVERIFY(saved.wait(5000));
        auto *problems = dialog->findChild<QLabel *>(QStringLiteral("fileProblems"));
        QVERIFY2(problems->text().contains(QStringLiteral("/etc/idlegpu/idlegpu.conf:3: error:")), qPrintable(problems->text()));
        QVERIFY(m_service->config.contains("= 60"));

        // Saved: the edited bytes, comments kept, with the load's etag.
        m_service->invalid.clear();
        QSignalSpy written(dialog, &SettingsDialog::configSaved);
        dialog->apply();
        QVERIFY(written.wait(5000));
        QCOMPARE(m_service->config, QByteArray("# the service's file\n[defaults]\n# a minute\nstart_delay_seconds = 7\n"));

        // Changed by someone else meanwhile: the save is refused and the dialog says to load it again.
        m_service->config += "\n";
        delay->setValue(8);
        dialog->apply();
        QVERIFY(saved.wait(5000));
        auto *summary = dialog->findChild<QLabel *>(QStringLiteral("problemSummary"));
        QVERIFY2(summary->text().contains(QStringLiteral("changed meanwhile")), qPrintable(summary->text()));
        dialog->reject();
    }

    // A refused GetConfig: said in the menu, no dialog.
    void settingsRefused()
    {
        RemoteMonitor remote(m_client);
        TrayApplication tray(&remote, QString());
        QSignalSpy states(&remote, &MonitorLink::stateChanged);
        remote.start();
        QVERIFY(states.wait(5000));
        m_service->refuseActs(BusNames::Error::notAuthorized, QStringLiteral("not authorized"));
        QSignalSpy refused(&remote, &MonitorLink::requestRefused);
        tray.showSettingsDialog();
        QVERIFY(refused.wait(5000));
        QVERIFY(!tray.settingsDialog());
        QCOMPARE(tray.controller()->refusal(), QStringLiteral("Settings refused: not authorized"));
    }

private:
    PrivateBus m_bus;
    QTemporaryDir m_home;
    std::unique_ptr<ScriptedIdlegpuService> m_service;
    QDBusConnection m_client{QString()};
    int m_clients = 0;
};

QTEST_MAIN(TestRemoteMonitor)
#include "tst_it_remotemonitor.moc"
