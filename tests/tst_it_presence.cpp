// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// [activity] pause_while_active end to end: a real Monitor and ProcessRunner, a fake GPU, and a fake logind on a
// private bus that says whether someone sits at the computer.
#include "conditions/logindpresence.h"
#include "fakelogind.h"
#include "monitorfixture.h"
#include "privatebus.h"

#include <QtTest>

#include <memory>

using namespace TestSupport;

namespace {
constexpr int kTimeoutMs = 10'000;
const QString kWorkload = QStringLiteral("process-0");
const QString kSession = QStringLiteral("2");
} // namespace

class TestPresenceIntegration : public QObject, private MonitorFixture
{
    Q_OBJECT

private:
    PrivateBus m_bus;
    std::unique_ptr<FakeLogind> m_logind;

    QString config(bool pauseWhileActive, int idleSeconds = 300) const
    {
        return defaults(0)
               + QStringLiteral("[activity]\npause_while_active=%1\nidle_seconds=%2\n\n")
                     .arg(pauseWhileActive ? QStringLiteral("true") : QStringLiteral("false"))
                     .arg(idleSeconds)
               + sleeperSection(QStringLiteral("0"), QStringLiteral("0"));
    }
    void startMonitor(bool pauseWhileActive = true, int idleSeconds = 300)
    {
        makeMonitor(writeConfig(config(pauseWhileActive, idleSeconds)));
        QVERIFY(m_monitor->start());
    }
    WorkloadRuntime::State workloadState() const { return stateOf(kWorkload); }
    UserPresence::State presence() const { return m_monitor->state().snapshot.presence.state; }
    // The owner counts as present and the workload is held back for it.
    bool heldForTheOwner() const
    {
        const MonitorState state = m_monitor->state();
        return state.decision.hold == HoldReason::OwnerPresent && workloadState() == WorkloadRuntime::Stopped;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QString why;
        if (!m_bus.start(&why))
            QSKIP(qPrintable(why));
        qputenv("DBUS_SYSTEM_BUS_ADDRESS", m_bus.address().toUtf8());
    }
    void init()
    {
        m_logind = std::make_unique<FakeLogind>();
        QString why;
        QVERIFY2(m_logind->start(m_bus.address(), &why), qPrintable(why));
        setUpMonitorFixture(1);
    }
    void cleanup()
    {
        QVERIFY(tearDownMonitorFixture());
        m_logind->stop();
        m_logind.reset();
    }

    // The GPU is free and the start delay 0: only the owner at the computer keeps the workload back.
    void activeSessionHoldsTheWorkload()
    {
        m_logind->addSession(kSession, 1000, FakeLogind::localSession());
        startMonitor();
        QVERIFY(heldForTheOwner()); // before logind has answered: unknown, which counts as present
        QTRY_COMPARE_WITH_TIMEOUT(presence(), UserPresence::State::Active, kTimeoutMs);
        QVERIFY(heldForTheOwner());
        QCOMPARE(m_monitor->state().snapshot.presence.source, QStringLiteral("logind"));
    }

    void idleLongEnoughStartsAndInputStops()
    {
        m_logind->addSession(kSession, 1000, FakeLogind::localSession());
        startMonitor(true, 30); // short: the test machine may have booted less than 300 s ago
        QTRY_COMPARE_WITH_TIMEOUT(presence(), UserPresence::State::Active, kTimeoutMs);
        QVERIFY(heldForTheOwner());

        m_logind->changeSession(kSession, FakeLogind::idleFor(60 * 1000));
        QTRY_COMPARE_WITH_TIMEOUT(workloadState(), WorkloadRuntime::Running, kTimeoutMs);
        QCOMPARE(presence(), UserPresence::State::Idle);

        m_logind->changeSession(kSession, {{QStringLiteral("IdleHint"), false}});
        QTRY_COMPARE_WITH_TIMEOUT(workloadState(), WorkloadRuntime::Stopped, kTimeoutMs);
        QCOMPARE(m_monitor->state().decision.hold, HoldReason::OwnerPresent);
    }

    // Idle, not yet for idle_seconds: the monitor wakes when the owner counts as away, without a poll or a signal.
    void idleNotYetLongEnoughStartsOnTime()
    {
        QVariantMap session = FakeLogind::localSession();
        session.insert(FakeLogind::idleFor(0));
        m_logind->addSession(kSession, 1000, session);
        startMonitor(true, 2); // the fallback poll is 60 s: only the wake at idle_seconds can start it in time
        QTRY_COMPARE_WITH_TIMEOUT(presence(), UserPresence::State::Idle, kTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(workloadState(), WorkloadRuntime::Running, kTimeoutMs);
    }

    void lockedScreenStartsAtOnce()
    {
        m_logind->addSession(kSession, 1000, FakeLogind::localSession());
        startMonitor();
        QTRY_COMPARE_WITH_TIMEOUT(presence(), UserPresence::State::Active, kTimeoutMs);
        m_logind->changeSession(kSession, {{QStringLiteral("LockedHint"), true}});
        QTRY_COMPARE_WITH_TIMEOUT(workloadState(), WorkloadRuntime::Running, kTimeoutMs);
        QCOMPARE(presence(), UserPresence::State::Locked);
        m_logind->changeSession(kSession, {{QStringLiteral("LockedHint"), false}});
        QTRY_COMPARE_WITH_TIMEOUT(workloadState(), WorkloadRuntime::Stopped, kTimeoutMs);
    }

    void nobodyLoggedInLocally()
    {
        QVariantMap ssh = FakeLogind::localSession(QStringLiteral("tty"));
        ssh.insert(QStringLiteral("Remote"), true);
        m_logind->addSession(QStringLiteral("7"), 1000, ssh);
        startMonitor();
        QTRY_COMPARE_WITH_TIMEOUT(workloadState(), WorkloadRuntime::Running, kTimeoutMs);
        QCOMPARE(presence(), UserPresence::State::NoLocalSession);
        m_logind->addSession(kSession, 1000, FakeLogind::localSession()); // someone logs in at the machine
        QTRY_COMPARE_WITH_TIMEOUT(workloadState(), WorkloadRuntime::Stopped, kTimeoutMs);
    }

    // Unknown counts as present: logind gone, the workload stops.
    void logindGoneStops()
    {
        QVariantMap session = FakeLogind::localSession();
        session.insert(QStringLiteral("LockedHint"), true);
        m_logind->addSession(kSession, 1000, session);
        startMonitor();
        QTRY_COMPARE_WITH_TIMEOUT(workloadState(), WorkloadRuntime::Running, kTimeoutMs);
        m_logind->disappear();
        QTRY_COMPARE_WITH_TIMEOUT(presence(), UserPresence::State::Unknown, kTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(workloadState(), WorkloadRuntime::Stopped, kTimeoutMs);
        QVERIFY(m_logind->appear());
        QTRY_COMPARE_WITH_TIMEOUT(workloadState(), WorkloadRuntime::Running, kTimeoutMs);
    }

    // KDE never sets IdleHint: logind says "active" for ever; the desktop's idle time decides for its session.
    void desktopIdleTimeRefinesLogind()
    {
        m_logind->addSession(kSession, 1000, FakeLogind::localSession());
        startMonitor();
        QTRY_COMPARE_WITH_TIMEOUT(presence(), UserPresence::State::Active, kTimeoutMs);
        DesktopIdleReport kde;
        kde.answered = true;
        kde.source = QStringLiteral("KDE");
        kde.sessionId = kSession;
        kde.uid = 1000;
        kde.idleSinceMs = SystemClock::instance()->nowMs() - 1000 * 1000;
        m_monitor->setDesktopIdle(kde);
        QTRY_COMPARE_WITH_TIMEOUT(workloadState(), WorkloadRuntime::Running, kTimeoutMs);
        QCOMPARE(m_monitor->state().snapshot.presence.source, QStringLiteral("KDE"));

        kde.idleSinceMs = SystemClock::instance()->nowMs(); // a key pressed
        m_monitor->setDesktopIdle(kde);
        QTRY_COMPARE_WITH_TIMEOUT(workloadState(), WorkloadRuntime::Stopped, kTimeoutMs);

        kde.answered = false; // the desktop stops answering: logind's word again
        m_monitor->setDesktopIdle(kde);
        QCOMPARE(presence(), UserPresence::State::Active);
    }

    // Off: no logind connection at all, and the GPU alone decides.
    void turnedOffAsksNobody()
    {
        m_logind->addSession(kSession, 1000, FakeLogind::localSession());
        startMonitor();
        QTRY_COMPARE_WITH_TIMEOUT(presence(), UserPresence::State::Active, kTimeoutMs);
        QVERIFY(m_monitor->findChild<LogindPresence *>());

        writeConfig(config(false));
        m_monitor->reloadConfig();
        QVERIFY(!m_monitor->findChild<LogindPresence *>());
        QCOMPARE(presence(), UserPresence::State::Unknown);
        QTRY_COMPARE_WITH_TIMEOUT(workloadState(), WorkloadRuntime::Running, kTimeoutMs);
        const int calls = m_logind->listCalls();
        DesktopIdleReport ignored;
        ignored.answered = true;
        m_monitor->setDesktopIdle(ignored);
        QCOMPARE(presence(), UserPresence::State::Unknown);
        QCOMPARE(m_logind->listCalls(), calls);
    }
};

QTEST_GUILESS_MAIN(TestPresenceIntegration)
#include "tst_it_presence.moc"
