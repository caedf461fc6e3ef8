// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// How the tray starts (app/traymode.cpp, monitor/bus/servicefinder.h), in the application's own event loop:
//  - the wait for an enabled idlegpu.service that is on its way, asked of a stand-in systemd (tests/fakesystemd.h) on a
//    private system-like bus (tests/privatesystembus.h): waited for only where the unit is enabled and activating, or
//    inactive while the machine still starts; no wait for a failed, masked, disabled or absent unit, nor without systemd;
//  - the real tray: a system service that comes within the wait makes it a client (no monitor of its own); one that
//    does not come leaves it its own monitor after the wait;
//  - the real tray where this user's own idlegpu holds the config's lock and publishes on the session bus late, and
//    answers GetState late: the tray shows it, rather than exit with "already running".
#include "bus/busnames.h"
#include "bus/servicefinder.h"
#include "fakesystemd.h"
#include "privatebus.h"
#include "privatesystembus.h"
#include "scriptedidlegpuservice.h"
#include "singleinstance.h"
#include "testsupport.h"

#include <QDBusConnection>
#include <QSignalSpy>
#include <QtTest>

#include <unistd.h>

namespace {

constexpr int kTestWaitMs = 1500; // the finder's wait for the unit in the in-process cases (the tray's is 10 s)

// What the tray says when the state of a service is shown (RemoteMonitor), and when its own monitor is up.
constexpr char kShowing[] = "showing the idlegpu service (";
constexpr char kOwnMonitor[] = "in the tray with";

// The real tray, its output gathered as it comes.
class TrayProcess
{
public:
    TrayProcess(const QProcessEnvironment &env, const QString &config)
    {
        m_process.setProcessEnvironment(env);
        m_process.setProcessChannelMode(QProcess::MergedChannels);
        QObject::connect(&m_process, &QProcess::readyRead, [this] { m_output += m_process.readAll(); });
        m_started.start();
        m_process.start(QStringLiteral(IDLEGPU_BINARY), {QStringLiteral("--config"), config});
    }
    ~TrayProcess()
    {
        if (m_process.state() != QProcess::NotRunning) {
            m_process.terminate();
            if (!m_process.waitForFinished(10000))
                m_process.kill();
            m_process.waitForFinished(5000);
        }
    }
    // Waits until the output says `text` or the tray ends; returns whether it said it.
    bool waitFor(const char *text, int timeoutMs)
    {
        QElapsedTimer timer;
        timer.start();
        while (!m_output.contains(text) && m_process.state() != QProcess::NotRunning && timer.elapsed() < timeoutMs)
            QTest::qWait(5);
        m_output += m_process.readAll();
        return m_output.contains(text);
    }
    qint64 sinceStart() const { return m_started.elapsed(); }
    QByteArray output() const { return m_output; }
    QProcess &process() { return m_process; }

private:
    QProcess m_process;
    QByteArray m_output;
    QElapsedTimer m_started;
};

} // namespace

class TestTrayStart : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase()
    {
        QString why;
        if (!m_sessionBus.start(&why))
            QSKIP(qPrintable(why));
        // The system-like bus lets the stand-ins own systemd's and idlegpu's names (the real system.d files let only
        // root own them).
        QFile policy(m_dir.filePath(QStringLiteral("idlegpu-test.conf")));
        QVERIFY(policy.open(QIODevice::WriteOnly));
        policy.write(
            "<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-BUS Bus Configuration 1.0//EN\"\n"
            " \"http://www.freedesktop.org/standards/dbus/1.0/busconfig.dtd\">\n"
            "<busconfig><policy context=\"default\">\n"
            " <allow own=\"org.freedesktop.systemd1\"/><allow send_destination=\"org.freedesktop.systemd1\"/>\n"
            " <allow own=\"io.github.idlegpu.Idlegpu1\"/><allow send_destination=\"io.github.idlegpu.Idlegpu1\"/>\n"
            "</policy></busconfig>\n");
        policy.close();
        QVERIFY2(m_systemBus.start({policy.fileName()}, &why), qPrintable(why));
        m_system = QDBusConnection::connectToBus(m_systemBus.address(), QStringLiteral("test-system"));
        m_session = QDBusConnection::connectToBus(m_sessionBus.address(), QStringLiteral("test-session"));
        QVERIFY(m_system.isConnected() && m_session.isConnected());

        QFile config(m_dir.filePath(QStringLiteral("idlegpu.conf")));
        QVERIFY(config.open(QIODevice::WriteOnly));
        config.write("[defaults]\ndevice_root = " + m_dir.path().toUtf8() + "\n\n[process-own]\ncmd = sleep 1000\n");
        m_config = config.fileName();
    }

    void cleanup() { m_systemd.reset(); }

    // Which units are waited for, and which cost no wait.
    void finderWaitsOnlyForAUnitOnItsWay_data()
    {
        QTest::addColumn<bool>("systemd");
        QTest::addColumn<QString>("unitFileState"); // empty: no such unit
        QTest::addColumn<QString>("activeState");
        QTest::addColumn<QString>("systemState");
        QTest::addColumn<bool>("waits");
        QTest::newRow("activating") << true << "enabled"
                                    << "activating"
                                    << "running" << true;
        QTest::newRow("enabled-runtime, activating") << true << "enabled-runtime"
                                                     << "activating"
                                                     << "running" << true;
        QTest::newRow("inactive, system starting") << true << "enabled"
                                                   << "inactive"
                                                   << "starting" << true;
        QTest::newRow("inactive, system initializing") << true << "enabled"
                                                       << "inactive"
                                                       << "initializing" << true;
        QTest::newRow("inactive, system running") << true << "enabled"
                                                  << "inactive"
                                                  << "running" << false;
        QTest::newRow("inactive, system degraded") << true << "enabled"
                                                   << "inactive"
                                                   << "degraded" << false;
        QTest::newRow("failed") << true << "enabled"
                                << "failed"
                                << "starting" << false;
        QTest::newRow("active without the name") << true << "enabled"
                                                 << "active"
                                                 << "running" << false;
        QTest::newRow("masked") << true << "masked"
                                << "inactive"
                                << "starting" << false;
        QTest::newRow("disabled") << true << "disabled"
                                  << "activating"
                                  << "starting" << false;
        QTest::newRow("absent") << true << ""
                                << ""
                                << "starting" << false;
        QTest::newRow("no systemd") << false << ""
                                    << ""
                                    << "" << false;
    }
    void finderWaitsOnlyForAUnitOnItsWay()
    {
        QFETCH(bool, systemd);
        QFETCH(QString, unitFileState);
        QFETCH(QString, activeState);
        QFETCH(QString, systemState);
        QFETCH(bool, waits);
        startSystemd(systemd, unitFileState, activeState, systemState);

        ServiceFinder finder(m_system, m_session, ::getuid(), ::getuid());
        finder.waitForSystemUnit(QStringLiteral("idlegpu.service"), kTestWaitMs);
        QSignalSpy waiting(&finder, &ServiceFinder::waitingForUnit);
        QSignalSpy finished(&finder, &ServiceFinder::finished);
        QElapsedTimer timer;
        timer.start();
        finder.start();
        QVERIFY(finished.wait(kTestWaitMs + 5000));
        const qint64 ms = timer.elapsed();
        qInfo("%s: answered None after %lld ms (%s)", QTest::currentDataTag(), ms, qPrintable(finder.unitVerdict()));
        QCOMPARE(finder.where(), ServiceFinder::Where::None);
        QCOMPARE(waiting.count(), waits ? 1 : 0);
        if (waits) {
            QVERIFY2(finder.waitedMs() >= kTestWaitMs - 50, qPrintable(QString::number(finder.waitedMs())));
            QVERIFY(ms >= kTestWaitMs - 50);
        } else {
            QCOMPARE(finder.waitedMs(), -1);
            QVERIFY2(ms < kTestWaitMs - 200, "a unit that is not on its way must cost no wait");
        }
        if (systemd && unitFileState.isEmpty())
            QVERIFY2(finder.unitVerdict().contains(QStringLiteral("not found")), qPrintable(finder.unitVerdict()));
    }

    // The service takes its name during the wait: the finder answers System at once.
    void finderTakesAServiceThatComesWithinTheWait()
    {
        startSystemd(true, QStringLiteral("enabled"), QStringLiteral("activating"), QStringLiteral("running"));
        ServiceFinder finder(m_system, m_session, ::getuid(), ::getuid());
        finder.waitForSystemUnit(QStringLiteral("idlegpu.service"), 10'000);
        QSignalSpy waiting(&finder, &ServiceFinder::waitingForUnit);
        QSignalSpy finished(&finder, &ServiceFinder::finished);
        finder.start();
        QVERIFY(waiting.wait(5000));
        ScriptedIdlegpuService service;
        QTest::qWait(300);
        QString why;
        QElapsedTimer sinceName;
        QVERIFY2(service.start(m_systemBus.address(), &why), qPrintable(why));
        sinceName.start();
        QVERIFY(finished.wait(5000));
        qInfo("the finder answered System %lld ms after the name appeared, having waited %lld ms", sinceName.elapsed(),
              finder.waitedMs());
        QCOMPARE(finder.where(), ServiceFinder::Where::System);
        QVERIFY(finder.waitedMs() >= 250 && finder.waitedMs() < 10'000);
    }

    // The real tray, systemd saying idlegpu.service is on its way, and the service taking its name during the wait:
    // the tray shows it, and runs no monitor of its own.
    void trayBecomesTheClientOfAServiceThatComesWithinTheWait()
    {
        if (::getuid() != 0)
            QSKIP("the system service's owner must be root, and the stand-in runs as whoever runs the test");
        startSystemd(true, QStringLiteral("enabled"), QStringLiteral("activating"), QStringLiteral("running"));
        TrayProcess tray(environment(), m_config);
        QVERIFY2(tray.waitFor("waiting up to 10 s for the idlegpu system service", 15000), tray.output().constData());
        QTest::qWait(500);
        ScriptedIdlegpuService service;
        QString why;
        QVERIFY2(service.start(m_systemBus.address(), &why), qPrintable(why));
        QElapsedTimer sinceName;
        sinceName.start();
        QVERIFY2(tray.waitFor(kShowing, 15000), tray.output().constData());
        qInfo("the tray showed the system service %lld ms after its name appeared (tray started %lld ms before)",
              sinceName.elapsed(), tray.sinceStart());
        QVERIFY2(tray.output().contains("showing the idlegpu service on the system bus"), tray.output().constData());
        QVERIFY2(!tray.output().contains(kOwnMonitor), tray.output().constData());
        QVERIFY2(!tray.output().contains("containment:"), tray.output().constData()); // a client runs no workloads
        QVERIFY(sinceName.elapsed() < 5000);
    }

    // The same, but the service does not come: the tray runs its own monitor once the wait is over.
    void trayRunsItsOwnMonitorAfterTheWait()
    {
        startSystemd(true, QStringLiteral("enabled"), QStringLiteral("activating"), QStringLiteral("running"));
        TrayProcess tray(environment(), m_config);
        QVERIFY2(tray.waitFor("waiting up to 10 s for the idlegpu system service", 15000), tray.output().constData());
        QElapsedTimer sinceWait;
        sinceWait.start();
        QVERIFY2(tray.waitFor(kOwnMonitor, 25000), tray.output().constData());
        qInfo("own monitor %lld ms after the wait began", sinceWait.elapsed());
        QVERIFY2(sinceWait.elapsed() >= 9000, "the tray must wait for a unit on its way");
        QVERIFY2(tray.output().contains("no service after waiting"), tray.output().constData());
        QCOMPARE(tray.process().state(), QProcess::Running);
    }

    // This user's own idlegpu holds the config's lock (the test plays it) and publishes on the session bus a moment
    // after the tray has looked, and answers GetState only after 2.5 s: the tray becomes its client.
    void trayShowsALateOwnServiceInsteadOfAlreadyRunning()
    {
        SingleInstance instance(m_config);
        QVERIFY(instance.acquire());
        ScriptedIdlegpuService service;
        service.stateDelayMs = 2500;
        TrayProcess tray(environment(), m_config);
        QString why;
        bool started = false;
        QTimer::singleShot(1000, this, [&] { started = service.start(m_sessionBus.address(), &why); });
        QVERIFY2(tray.waitFor(kShowing, 20000), tray.output().constData());
        QVERIFY2(started, qPrintable(why));
        qInfo("the tray showed the late service %lld ms after it started", tray.sinceStart());
        QVERIFY2(tray.output().contains("showing the idlegpu service on the session bus"), tray.output().constData());
        QVERIFY2(!tray.output().contains("already running"), tray.output().constData());
        QVERIFY2(!tray.output().contains(kOwnMonitor), tray.output().constData());
        QCOMPARE(tray.process().state(), QProcess::Running);
    }

private:
    void startSystemd(bool run, const QString &unitFileState, const QString &activeState, const QString &systemState)
    {
        if (!run)
            return;
        m_systemd = std::make_unique<FakeSystemd>();
        if (unitFileState.isEmpty())
            m_systemd->unit.clear();
        m_systemd->unitFileState = unitFileState;
        m_systemd->activeState = activeState;
        m_systemd->systemState = systemState;
        QString why;
        QVERIFY2(m_systemd->start(m_systemBus.address(), &why), qPrintable(why));
    }

    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), m_sessionBus.address());
        env.insert(QStringLiteral("DBUS_SYSTEM_BUS_ADDRESS"), m_systemBus.address());
        env.insert(QStringLiteral("QT_QPA_PLATFORM"), QStringLiteral("offscreen"));
        env.insert(QStringLiteral("XDG_STATE_HOME"), m_dir.filePath(QStringLiteral("state")));
        env.insert(QStringLiteral("QT_LOGGING_RULES"), QStringLiteral("idlegpu.*.info=true"));
        env.remove(QStringLiteral("IDLEGPU_BUS"));
        return env;
    }

    QTemporaryDir m_dir;
    PrivateBus m_sessionBus;
    PrivateSystemBus m_systemBus;
    QDBusConnection m_system{QString()};
    QDBusConnection m_session{QString()};
    std::unique_ptr<FakeSystemd> m_systemd;
    QString m_config;
};

QTEST_MAIN(TestTrayStart)
#include "tst_it_traystart.moc"
