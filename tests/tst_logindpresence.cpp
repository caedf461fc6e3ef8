// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// LogindPresence against a fake logind on a private bus: what it reads, what it notices, how it fails.
#include "conditions/logindpresence.h"
#include "fakelogind.h"
#include "privatebus.h"

#include <QSignalSpy>
#include <QtTest>

#include <memory>

namespace {

// Counts the warnings of idlegpu.presence (the "no log spam" rule), passing every message on.
int g_presenceWarnings = 0;
QtMessageHandler g_previousHandler = nullptr;
void countPresenceWarnings(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type == QtWarningMsg && context.category && QLatin1String(context.category) == QLatin1String("idlegpu.presence"))
        ++g_presenceWarnings;
    g_previousHandler(type, context, message);
}

constexpr int kTimeoutMs = 5000;

} // namespace

class TestLogindPresence : public QObject
{
    Q_OBJECT

private:
    PrivateBus m_bus;
    // The fake answers on a thread of its own, as logind from its own process: readOnce() blocks this one.
    QThread m_fakeThread;
    std::unique_ptr<FakeLogind> m_logind;
    FakeClock m_clock{1'000'000'000};

    std::unique_ptr<LogindPresence> makePresence()
    {
        auto presence = std::make_unique<LogindPresence>(&m_clock);
        presence->setCallTimeoutMs(500);
        presence->start();
        return presence;
    }
    static UserPresence::State stateOf(const LogindPresence &presence) { return presence.presence().state; }

private Q_SLOTS:
    void initTestCase()
    {
        QString why;
        if (!m_bus.start(&why))
            QSKIP(qPrintable(why));
        // Before the first use of the system bus in this process.
        qputenv("DBUS_SYSTEM_BUS_ADDRESS", m_bus.address().toUtf8());
        g_previousHandler = qInstallMessageHandler(countPresenceWarnings);
        m_fakeThread.start();
    }
    void cleanupTestCase()
    {
        m_fakeThread.quit();
        m_fakeThread.wait();
    }
    void init()
    {
        m_logind = std::make_unique<FakeLogind>();
        m_logind->moveToThread(&m_fakeThread);
        FakeLogind *logind = m_logind.get();
        bool started = false;
        QString why;
        QMetaObject::invokeMethod(
            logind, [&] { started = logind->start(m_bus.address(), &why); }, Qt::BlockingQueuedConnection);
        QVERIFY2(started, qPrintable(why));
        g_presenceWarnings = 0;
    }
    void cleanup()
    {
        FakeLogind *logind = m_logind.release();
        QMetaObject::invokeMethod(
            logind,
            [logind] {
                logind->stop();
                delete logind;
            },
            Qt::BlockingQueuedConnection);
    }

    void readsTheLocalSessions()
    {
        m_logind->addSession(QStringLiteral("2"), 1000, FakeLogind::localSession(QStringLiteral("wayland")));
        QVariantMap ssh = FakeLogind::localSession(QStringLiteral("tty"));
        ssh.insert(QStringLiteral("Remote"), true);
        m_logind->addSession(QStringLiteral("5"), 1001, ssh);
        const auto presence = makePresence();
        QTRY_VERIFY_WITH_TIMEOUT(presence->sessions().has_value(), kTimeoutMs);
        QCOMPARE(presence->sessions()->size(), 2);
        const LogindSession local = presence->sessions()->at(0);
        QCOMPARE(local.id, QStringLiteral("2"));
        QCOMPARE(local.uid, 1000u);
        QCOMPARE(local.type, QStringLiteral("wayland"));
        QVERIFY(local.isLocalUser());
        QVERIFY(!presence->sessions()->at(1).isLocalUser());
        QCOMPARE(stateOf(*presence), UserPresence::State::Active);
        QCOMPARE(presence->presence().source, QStringLiteral("logind"));
    }

    // IdleSinceHintMonotonic is CLOCK_MONOTONIC µs; the monitor's Clock may be another (here a fake).
    void idleSinceIsOnTheMonitorsClock()
    {
        QVariantMap session = FakeLogind::localSession();
        session.insert(FakeLogind::idleFor(60'000)); // less than the test machine's uptime, surely
        m_logind->addSession(QStringLiteral("2"), 1000, session);
        const auto presence = makePresence();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(*presence), UserPresence::State::Idle, kTimeoutMs);
        const qint64 idleMs = m_clock.nowMs() - presence->presence().idleSinceMs;
        QVERIFY2(idleMs >= 60'000 && idleMs < 120'000, qPrintable(QString::number(idleMs)));
    }

    // Without IdleSinceHintMonotonic: IdleSinceHint, wall-clock µs.
    void idleSinceFromTheWallClock()
    {
        QVariantMap session = FakeLogind::localSession();
        session.remove(QStringLiteral("IdleSinceHintMonotonic"));
        session.insert(QStringLiteral("IdleHint"), true);
        session.insert(QStringLiteral("IdleSinceHint"),
                       qulonglong(QDateTime::currentMSecsSinceEpoch() - 120'000) * 1000);
        m_logind->addSession(QStringLiteral("2"), 1000, session);
        const auto presence = makePresence();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(*presence), UserPresence::State::Idle, kTimeoutMs);
        const qint64 idleMs = m_clock.nowMs() - presence->presence().idleSinceMs;
        QVERIFY2(idleMs >= 120'000 && idleMs < 180'000, qPrintable(QString::number(idleMs)));
    }

    // Idle without any IdleSinceHint: idle since first seen so, and that moment kept across reads.
    void idleWithoutASinceCountsFromFirstSight()
    {
        QVariantMap session = FakeLogind::localSession();
        session.remove(QStringLiteral("IdleSinceHintMonotonic"));
        session.remove(QStringLiteral("IdleSinceHint"));
        session.insert(QStringLiteral("IdleHint"), true);
        m_logind->addSession(QStringLiteral("2"), 1000, session);
        const auto presence = makePresence();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(*presence), UserPresence::State::Idle, kTimeoutMs);
        const qint64 firstSeen = presence->presence().idleSinceMs;
        QCOMPARE(firstSeen, m_clock.nowMs());
        m_clock.advance(60'000);
        const int calls = m_logind->listCalls();
        m_logind->changeSession(QStringLiteral("2"), {{QStringLiteral("Type"), QStringLiteral("wayland")}});
        QTRY_VERIFY_WITH_TIMEOUT(m_logind->listCalls() > calls
                                     && presence->sessions()->at(0).type == QStringLiteral("wayland"),
                                 kTimeoutMs);
        QCOMPARE(presence->presence().idleSinceMs, firstSeen);
    }

    void noticesPropertiesChanged()
    {
        m_logind->addSession(QStringLiteral("2"), 1000, FakeLogind::localSession());
        const auto presence = makePresence();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(*presence), UserPresence::State::Active, kTimeoutMs);
        QSignalSpy changed(presence.get(), &LogindPresence::changed);
        m_logind->changeSession(QStringLiteral("2"), {{QStringLiteral("LockedHint"), true}});
        QTRY_VERIFY_WITH_TIMEOUT(!changed.isEmpty(), kTimeoutMs);
        QCOMPARE(changed.last().first().value<UserPresence>().state, UserPresence::State::Locked);
        m_logind->changeSession(QStringLiteral("2"), {{QStringLiteral("LockedHint"), false}});
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(*presence), UserPresence::State::Active, kTimeoutMs);
        m_logind->changeSession(QStringLiteral("2"), FakeLogind::idleFor(1000));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(*presence), UserPresence::State::Idle, kTimeoutMs);
    }

    void noticesSessionsComingAndGoing()
    {
        const auto presence = makePresence();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(*presence), UserPresence::State::NoLocalSession, kTimeoutMs);
        m_logind->addSession(QStringLiteral("3"), 1000, FakeLogind::localSession());
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(*presence), UserPresence::State::Active, kTimeoutMs);
        m_logind->removeSession(QStringLiteral("3"));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(*presence), UserPresence::State::NoLocalSession, kTimeoutMs);
    }

    // Listed, then gone before its properties are read: skipped, not a failure of logind.
    void sessionVanishingMeanwhileIsSkipped()
    {
        m_logind->addSession(QStringLiteral("2"), 1000, FakeLogind::localSession());
        m_logind->addVanishedSession(QStringLiteral("8"));
        const auto presence = makePresence();
        QTRY_VERIFY_WITH_TIMEOUT(presence->sessions().has_value(), kTimeoutMs);
        QCOMPARE(presence->sessions()->size(), 1);
        QCOMPARE(g_presenceWarnings, 0);
    }

    void garbageIsUnknownWithOneLogLine()
    {
        m_logind->addSession(QStringLiteral("2"), 1000, FakeLogind::localSession());
        m_logind->setAnswer(FakeLogind::Answer::GarbageList);
        const auto presence = makePresence();
        QTRY_COMPARE_WITH_TIMEOUT(m_logind->listCalls(), 1, kTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(g_presenceWarnings, 1, kTimeoutMs);
        QVERIFY(!presence->sessions());
        QCOMPARE(stateOf(*presence), UserPresence::State::Unknown);
        // Asked again (a signal): still garbage, no second line.
        m_logind->changeSession(QStringLiteral("2"), {{QStringLiteral("LockedHint"), true}});
        QTRY_COMPARE_WITH_TIMEOUT(m_logind->listCalls(), 2, kTimeoutMs);
        QTest::qWait(100); // the second answer handled
        QCOMPARE(g_presenceWarnings, 1);
        // Sane again: read.
        m_logind->setAnswer(FakeLogind::Answer::Normally);
        m_logind->changeSession(QStringLiteral("2"), {{QStringLiteral("LockedHint"), false}});
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(*presence), UserPresence::State::Active, kTimeoutMs);
    }

    void propertyOfTheWrongTypeIsGarbage_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QVariant>("value"); // invalid: removed
        QTest::newRow("IdleHint a string") << QStringLiteral("IdleHint") << QVariant(QStringLiteral("no"));
        QTest::newRow("Remote an int") << QStringLiteral("Remote") << QVariant(0);
        QTest::newRow("LockedHint a string") << QStringLiteral("LockedHint") << QVariant(QStringLiteral("yes"));
        QTest::newRow("no Class") << QStringLiteral("Class") << QVariant();
        QTest::newRow("no IdleHint") << QStringLiteral("IdleHint") << QVariant();
    }
    void propertyOfTheWrongTypeIsGarbage()
    {
        QFETCH(QString, name);
        QFETCH(QVariant, value);
        QVariantMap session = FakeLogind::localSession();
        if (value.isValid())
            session.insert(name, value);
        else
            session.remove(name);
        m_logind->addSession(QStringLiteral("2"), 1000, session);
        const auto presence = makePresence();
        QTRY_COMPARE_WITH_TIMEOUT(g_presenceWarnings, 1, kTimeoutMs);
        QVERIFY(!presence->sessions());
    }

    void silenceTimesOut()
    {
        m_logind->addSession(QStringLiteral("2"), 1000, FakeLogind::localSession());
        const auto presence = makePresence();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(*presence), UserPresence::State::Active, kTimeoutMs);
        m_logind->setAnswer(FakeLogind::Answer::Silence);
        QSignalSpy changed(presence.get(), &LogindPresence::changed);
        m_logind->changeSession(QStringLiteral("2"), {{QStringLiteral("LockedHint"), true}});
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(*presence), UserPresence::State::Unknown, kTimeoutMs);
        QCOMPARE(changed.last().first().value<UserPresence>().state, UserPresence::State::Unknown);
        QCOMPARE(g_presenceWarnings, 1);
    }

    void logindGoingAwayAndBack()
    {
        m_logind->addSession(QStringLiteral("2"), 1000, FakeLogind::localSession());
        const auto presence = makePresence();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(*presence), UserPresence::State::Active, kTimeoutMs);
        m_logind->disappear();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(*presence), UserPresence::State::Unknown, kTimeoutMs);
        QVERIFY(m_logind->appear());
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(*presence), UserPresence::State::Active, kTimeoutMs);
    }

    void readOnceForStatus()
    {
        QVariantMap session = FakeLogind::localSession();
        session.insert(FakeLogind::idleFor(30'000));
        m_logind->addSession(QStringLiteral("2"), 1000, session);
        QString error;
        const auto sessions = LogindPresence::readOnce(&m_clock, 2000, &error);
        QVERIFY2(sessions.has_value(), qPrintable(error));
        QCOMPARE(sessions->size(), 1);
        QVERIFY(sessions->first().idle);

        m_logind->disappear();
        QVERIFY(!LogindPresence::readOnce(&m_clock, 2000, &error));
        QVERIFY2(error.contains(QStringLiteral("ServiceUnknown")), qPrintable(error));
    }
};

QTEST_GUILESS_MAIN(TestLogindPresence)
#include "tst_logindpresence.moc"
