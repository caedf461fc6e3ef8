// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// TrayHostWatcher: the choice of when to make the tray icon, as a table, and the watcher following a fake
// StatusNotifierWatcher on a private session bus as it comes, gets its host and goes, with an XEmbed tray that the
// test switches on and off.
#include "fakestatusnotifierwatcher.h"
#include "privatebus.h"
#include "tray/trayhostwatcher.h"

#include <QSignalSpy>
#include <QtTest>

using Step = TrayHostWatcher::Step;
using Trays = TrayHostWatcher::Trays;

namespace {

constexpr int kTimeoutMs = 10'000;
// From the host's registration to trayReady: one signal and one Get on a local bus. A 1 s timer instead of the
// signal would miss it now and then; polling at the 2 s of the old tray poll, most of the time.
constexpr qint64 kReactionMs = 1000;

} // namespace

class TestTrayHostWatcher : public QObject
{
    Q_OBJECT

private:
    PrivateBus m_bus;
    QDBusConnection m_connection{QString()}; // the watcher under test's session bus
    FakeStatusNotifierWatcher m_fake;
    bool m_xembed = false; // what the probe says: an XEmbed tray is there

    TrayHostWatcher::XEmbedProbe xembedProbe()
    {
        return [this] { return m_xembed; };
    }
    void startFake(bool withHost)
    {
        QString why;
        QVERIFY2(m_fake.start(m_bus.address(), &why, withHost), qPrintable(why));
    }
    static Step readyStep(const QSignalSpy &spy) { return spy.constFirst().constFirst().value<Step>(); }

private Q_SLOTS:
    void initTestCase()
    {
        qRegisterMetaType<Step>();
        QString why;
        QVERIFY2(m_bus.start(&why), qPrintable(why));
        m_connection = QDBusConnection::connectToBus(m_bus.address(), QStringLiteral("idlegpu"));
        QVERIFY(m_connection.isConnected());
    }
    void cleanup()
    {
        m_fake.stop();
        m_xembed = false;
    }

    // `trays` names what is there: "watcher", "host", "xembed".
    void decide_data()
    {
        QTest::addColumn<QString>("trays");
        QTest::addColumn<bool>("xcb");
        QTest::addColumn<qint64>("xembedAloneMs");
        QTest::addColumn<qint64>("waitedMs");
        QTest::addColumn<Step>("expected");
        const qint64 late = TrayHostWatcher::kTrayWaitMs;
        const qint64 grace = TrayHostWatcher::kGraceMs;
        QTest::newRow("nothing yet, X11") << "" << true << -1LL << 0LL << Step::WaitForAnyTray;
        QTest::newRow("nothing yet, Wayland") << "" << false << -1LL << 0LL << Step::WaitForStatusNotifier;
        QTest::newRow("watcher and host") << "watcher host" << true << -1LL << 0LL << Step::StatusNotifierItem;
        QTest::newRow("and on Wayland") << "watcher host" << false << -1LL << 0LL << Step::StatusNotifierItem;
        QTest::newRow("host beats XEmbed") << "watcher host xembed" << true << -1LL << late << Step::StatusNotifierItem;
        QTest::newRow("watcher, no host") << "watcher" << true << -1LL << 0LL << Step::WaitForHost;
        QTest::newRow("no host, Wayland") << "watcher" << false << -1LL << late << Step::WaitForHost;
        // Plasma with xembedsniproxy: kded5's watcher and the proxy's XEmbed tray before plasmashell's host.
        QTest::newRow("no host yet, XEmbed") << "watcher xembed" << true << -1LL << late - 1 << Step::WaitForHost;
        QTest::newRow("host never came") << "watcher xembed" << true << -1LL << late << Step::XEmbed;
        QTest::newRow("never, no XEmbed") << "watcher" << true << -1LL << late << Step::WaitForHost;
        // GNOME on X11, XFCE: the XEmbed selection a fraction of a second before the watcher.
        QTest::newRow("XEmbed: the grace") << "xembed" << true << 0LL << 0LL << Step::WaitForWatcher;
        QTest::newRow("grace almost over") << "xembed" << true << grace - 1 << late << Step::WaitForWatcher;
        QTest::newRow("grace over") << "xembed" << true << grace << grace << Step::XEmbed;
        QTest::newRow("XEmbed off X11") << "xembed" << false << grace << late << Step::WaitForStatusNotifier;
        QTest::newRow("long wait, nothing") << "" << true << -1LL << late << Step::WaitForAnyTray;
    }
    void decide()
    {
        QFETCH(QString, trays);
        QFETCH(bool, xcb);
        QFETCH(qint64, xembedAloneMs);
        QFETCH(qint64, waitedMs);
        QFETCH(Step, expected);
        const QStringList there = trays.split(QLatin1Char(' '), Qt::SkipEmptyParts);
        Trays seen;
        seen.watcher = there.contains(QLatin1String("watcher"));
        seen.host = there.contains(QLatin1String("host"));
        seen.xembed = there.contains(QLatin1String("xembed"));
        QCOMPARE(TrayHostWatcher::decide(seen, xcb, xembedAloneMs, waitedMs), expected);
    }

    // The watcher and its host are there before: the icon at once, without waiting for anything else.
    void hostBeforeStart()
    {
        startFake(true);
        TrayHostWatcher watcher(m_connection, xembedProbe());
        QSignalSpy ready(&watcher, &TrayHostWatcher::trayReady);
        watcher.start();
        QTRY_COMPARE_WITH_TIMEOUT(ready.size(), 1, kTimeoutMs);
        QCOMPARE(readyStep(ready), Step::StatusNotifierItem);
    }

    // idlegpu at login before the panel: nothing, then the watcher with its host.
    void watcherAndHostAfterStart()
    {
        TrayHostWatcher watcher(m_connection, xembedProbe());
        QSignalSpy ready(&watcher, &TrayHostWatcher::trayReady);
        watcher.start();
        QTRY_COMPARE_WITH_TIMEOUT(watcher.step(), Step::WaitForAnyTray, kTimeoutMs);
        QTest::qWait(300);
        QVERIFY(ready.isEmpty());
        startFake(true);
        QTRY_COMPARE_WITH_TIMEOUT(ready.size(), 1, kTimeoutMs);
        QCOMPARE(readyStep(ready), Step::StatusNotifierItem);
    }

    // Plasma: kded5's watcher seconds before plasmashell's host. The icon waits for the host and comes at its signal.
    void hostAfterWatcher()
    {
        startFake(false);
        TrayHostWatcher watcher(m_connection, xembedProbe());
        QSignalSpy ready(&watcher, &TrayHostWatcher::trayReady);
        watcher.start();
        QTRY_COMPARE_WITH_TIMEOUT(watcher.step(), Step::WaitForHost, kTimeoutMs);
        QVERIFY(watcher.trays().watcher);
        QTest::qWait(500);
        QVERIFY(ready.isEmpty());
        const int readsBefore = m_fake.hostReads();
        const qint64 hostMs = m_fake.registerHost();
        QTRY_COMPARE_WITH_TIMEOUT(ready.size(), 1, kTimeoutMs);
        const qint64 reactionMs = FakeStatusNotifierWatcher::nowMs() - hostMs;
        qInfo("trayReady %lld ms after the host registered", reactionMs);
        QVERIFY2(reactionMs < kReactionMs, qPrintable(QStringLiteral("%1 ms").arg(reactionMs)));
        QCOMPARE(readyStep(ready), Step::StatusNotifierItem);
        // The watcher's own signal is believed: no second round trip to a shell busy starting up.
        QCOMPARE(m_fake.hostReads(), readsBefore);
    }

    // Plasma 5.27: kded5 owns the watcher at once, answers nothing while it starts (the Get times out), then says
    // it has a host, without ever sending StatusNotifierHostRegistered. The host is asked again until it answers.
    void hostAskedAgainAfterErrors()
    {
        startFake(false);
        m_fake.failHostReads({QStringLiteral("org.freedesktop.DBus.Error.NoReply"),
                              QStringLiteral("org.freedesktop.DBus.Error.Failed")});
        m_fake.registerHostSilently();
        TrayHostWatcher watcher(m_connection, xembedProbe());
        QSignalSpy ready(&watcher, &TrayHostWatcher::trayReady);
        watcher.start();
        QTRY_COMPARE_WITH_TIMEOUT(ready.size(), 1, kTimeoutMs);
        QCOMPARE(readyStep(ready), Step::StatusNotifierItem);
        QCOMPARE(m_fake.hostReads(), 3);
    }

    // Anyone on the bus can send the watcher's signal: from another sender it is checked, and the host that is not
    // there keeps the icon waiting (a QSystemTrayIcon made now would be XEmbed for good).
    void strangersHostSignalIsChecked()
    {
        startFake(false);
        TrayHostWatcher watcher(m_connection, xembedProbe());
        QSignalSpy ready(&watcher, &TrayHostWatcher::trayReady);
        watcher.start();
        QTRY_COMPARE_WITH_TIMEOUT(watcher.step(), Step::WaitForHost, kTimeoutMs);
        const int readsBefore = m_fake.hostReads();
        QDBusConnection stranger = QDBusConnection::connectToBus(m_bus.address(), QStringLiteral("stranger"));
        QVERIFY(stranger.send(QDBusMessage::createSignal(QStringLiteral("/StatusNotifierWatcher"),
                                                         QStringLiteral("org.kde.StatusNotifierWatcher"),
                                                         QStringLiteral("StatusNotifierHostRegistered"))));
        QTRY_VERIFY_WITH_TIMEOUT(m_fake.hostReads() > readsBefore, kTimeoutMs);
        QTest::qWait(300);
        QVERIFY(ready.isEmpty());
        QCOMPARE(watcher.step(), Step::WaitForHost);
        QDBusConnection::disconnectFromBus(QStringLiteral("stranger"));
    }

    // An XEmbed tray alone: the icon after the grace, through XEmbed.
    void xembedAfterTheGrace()
    {
        m_xembed = true;
        TrayHostWatcher watcher(m_connection, xembedProbe());
        watcher.setGraceMs(600);
        QSignalSpy ready(&watcher, &TrayHostWatcher::trayReady);
        QElapsedTimer elapsed;
        elapsed.start();
        watcher.start();
        QTRY_COMPARE_WITH_TIMEOUT(ready.size(), 1, kTimeoutMs);
        QCOMPARE(readyStep(ready), Step::XEmbed);
        QVERIFY2(elapsed.elapsed() >= 600, qPrintable(QStringLiteral("after %1 ms").arg(elapsed.elapsed())));
    }

    // GNOME on X11, XFCE: the XEmbed selection first, the watcher a moment later, then the host: a
    // StatusNotifierItem, however long the host takes.
    void watcherWithinTheGrace()
    {
        TrayHostWatcher watcher(m_connection, xembedProbe());
        watcher.setGraceMs(600);
        QSignalSpy ready(&watcher, &TrayHostWatcher::trayReady);
        watcher.start();
        QTRY_COMPARE_WITH_TIMEOUT(watcher.step(), Step::WaitForAnyTray, kTimeoutMs);
        m_xembed = true;
        QTRY_COMPARE_WITH_TIMEOUT(watcher.step(), Step::WaitForWatcher, kTimeoutMs);
        startFake(false);
        QTRY_COMPARE_WITH_TIMEOUT(watcher.step(), Step::WaitForHost, kTimeoutMs);
        QTest::qWait(1000); // past the grace
        QVERIFY(ready.isEmpty());
        m_fake.registerHost();
        QTRY_COMPARE_WITH_TIMEOUT(ready.size(), 1, kTimeoutMs);
        QCOMPARE(readyStep(ready), Step::StatusNotifierItem);
    }

    // A watcher that goes again before its host came: back to waiting for any tray; the next one is asked afresh.
    void watcherGoesAway()
    {
        startFake(false);
        TrayHostWatcher watcher(m_connection, xembedProbe());
        QSignalSpy ready(&watcher, &TrayHostWatcher::trayReady);
        watcher.start();
        QTRY_COMPARE_WITH_TIMEOUT(watcher.step(), Step::WaitForHost, kTimeoutMs);
        m_fake.stop();
        QTRY_COMPARE_WITH_TIMEOUT(watcher.step(), Step::WaitForAnyTray, kTimeoutMs);
        QVERIFY(!watcher.trays().watcher);
        startFake(true);
        QTRY_COMPARE_WITH_TIMEOUT(ready.size(), 1, kTimeoutMs);
        QCOMPARE(readyStep(ready), Step::StatusNotifierItem);
    }

    // Not on xcb (Wayland): no XEmbed to fall back to; the long wait is said once and waiting goes on.
    void withoutXEmbedOnlyTheStatusNotifier()
    {
        TrayHostWatcher watcher(m_connection, TrayHostWatcher::XEmbedProbe());
        watcher.setTrayWaitMs(500);
        QSignalSpy ready(&watcher, &TrayHostWatcher::trayReady);
        QSignalSpy late(&watcher, &TrayHostWatcher::trayLate);
        watcher.start();
        QTRY_COMPARE_WITH_TIMEOUT(watcher.step(), Step::WaitForStatusNotifier, kTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(late.size(), 1, kTimeoutMs);
        QTest::qWait(300);
        QCOMPARE(late.size(), 1);
        QVERIFY(ready.isEmpty());
        startFake(true);
        QTRY_COMPARE_WITH_TIMEOUT(ready.size(), 1, kTimeoutMs);
        QCOMPARE(readyStep(ready), Step::StatusNotifierItem);
    }

    // A watcher whose host has not come after the long wait gives way to an XEmbed tray.
    void hostThatNeverComesGivesWayToXEmbed()
    {
        m_xembed = true;
        startFake(false);
        TrayHostWatcher watcher(m_connection, xembedProbe());
        watcher.setTrayWaitMs(800);
        QSignalSpy ready(&watcher, &TrayHostWatcher::trayReady);
        QSignalSpy late(&watcher, &TrayHostWatcher::trayLate);
        watcher.start();
        QTRY_COMPARE_WITH_TIMEOUT(watcher.step(), Step::WaitForHost, kTimeoutMs);
        QTRY_COMPARE_WITH_TIMEOUT(ready.size(), 1, kTimeoutMs);
        QCOMPARE(readyStep(ready), Step::XEmbed);
        QVERIFY(late.isEmpty()); // the icon came instead of the status window
    }
};

QTEST_GUILESS_MAIN(TestTrayHostWatcher)
#include "tst_trayhostwatcher.moc"
