// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// DesktopNotificationSink against a fake notification server on a private session bus: the Notify call's
// arguments, a notification replacing the last one of its kind, and the tray balloon where no server takes the
// message (none there, one that refuses, one that does not answer, no bus at all); the application's icon as
// image-data in every notification; "Show" and "Pause for 1 hour" where the server offers actions.
#include "fakenotificationserver.h"
#include "privatebus.h"
#include "recordingsink.h"
#include "tray/desktopnotificationsink.h"

#include <QSignalSpy>
#include <QtTest>

namespace {

constexpr int kTimeoutMs = 5000;

QList<ConfigDiagnostic> rejected()
{
    return {{ConfigDiagnostic::Error, QStringLiteral("/c.conf"), 9, QStringLiteral("[process-x] has no cmd")}};
}

} // namespace

class TestDesktopNotificationSink : public QObject
{
    Q_OBJECT

private:
    PrivateBus m_bus;
    QDBusConnection m_app{QString()}; // idlegpu's side of the bus
    std::unique_ptr<FakeNotificationServer> m_server;

    bool startServer()
    {
        m_server = std::make_unique<FakeNotificationServer>();
        QString why;
        if (m_server->start(m_bus.address(), &why))
            return true;
        qWarning("%s", qPrintable(why));
        return false;
    }

private Q_SLOTS:
    void initTestCase()
    {
        QString why;
        if (!m_bus.start(&why))
            QSKIP(qPrintable(why));
        m_app = QDBusConnection::connectToBus(m_bus.address(), QStringLiteral("idlegpu-side"));
        QVERIFY(m_app.isConnected());
    }
    void cleanup()
    {
        if (m_server)
            m_server->stop();
        m_server.reset();
    }

    // A preemption as the Notifier words it, then its summary, which replaces it; a rejected configuration is
    // another kind: a notification of its own, critical, until dismissed.
    void preemptionGoesToTheServer()
    {
        QVERIFY(startServer());
        RecordingSink balloons;
        DesktopNotificationSink sink(&balloons, m_app);
        QTRY_COMPARE_WITH_TIMEOUT(sink.server(), DesktopNotificationSink::Server::Present, kTimeoutMs);
        FakeClock clock;
        Notifier notifier(&sink, &clock);

        notifier.notifyPreemption(preemption(0));
        QTRY_COMPARE_WITH_TIMEOUT(m_server->calls().size(), 1, kTimeoutMs);
        const FakeNotificationServer::Call first = m_server->calls().constFirst();
        QCOMPARE(first.appName, QStringLiteral("idlegpu"));
        QCOMPARE(first.replacesId, 0u);
        QCOMPARE(first.appIcon, QStringLiteral("idlegpu"));
        QCOMPARE(first.summary, QStringLiteral("Workload stopped"));
        QCOMPARE(first.body, QStringLiteral("python3 (alice) took GPU 0: stopped miner"));
        QCOMPARE(first.actions, QStringList()); // this server offers none
        QCOMPARE(first.hints.keys(), QStringList({QStringLiteral("desktop-entry"), QStringLiteral("image-data"),
                                                  QStringLiteral("urgency")}));
        // The icon's pixels, whatever the icon theme holds: GNOME Shell drew a broken image for a name it lacked.
        QCOMPARE(first.imageSignature, QStringLiteral("(iiibiiay)"));
        QCOMPARE(first.imageWidth, DesktopNotificationSink::kImageSize);
        QCOMPARE(first.imageHeight, DesktopNotificationSink::kImageSize);
        QCOMPARE(first.imageChannels, 4);
        QCOMPARE(first.imageBytes,
                 qsizetype(DesktopNotificationSink::kImageSize * DesktopNotificationSink::kImageSize * 4));
        QCOMPARE(first.hints.value(QStringLiteral("desktop-entry")).toString(), QStringLiteral("idlegpu"));
        // The spec's urgency is a byte: a server that reads it strictly ignores an int.
        QCOMPARE(first.hints.value(QStringLiteral("urgency")).metaType(), QMetaType::fromType<uchar>());
        QCOMPARE(first.hints.value(QStringLiteral("urgency")).value<uchar>(), uchar(1));
        QCOMPARE(first.expireTimeout, 10'000);
        QTRY_COMPARE_WITH_TIMEOUT(sink.lastNotificationId(NotificationKind::Preemption), first.id, kTimeoutMs);

        notifier.notifyPreemption(preemption(1)); // held for the summary
        clock.advance(Notifier::kWindowMs);
        notifier.flushDue();
        QTRY_COMPARE_WITH_TIMEOUT(m_server->calls().size(), 2, kTimeoutMs);
        const FakeNotificationServer::Call summary = m_server->calls().at(1);
        QCOMPARE(summary.body, QStringLiteral("1 more preemption"));
        QCOMPARE(summary.replacesId, first.id);

        notifier.notifyConfigRejected(rejected());
        QTRY_COMPARE_WITH_TIMEOUT(m_server->calls().size(), 3, kTimeoutMs);
        const FakeNotificationServer::Call config = m_server->calls().at(2);
        QCOMPARE(config.summary, QStringLiteral("Configuration not applied"));
        QCOMPARE(config.replacesId, 0u);
        QCOMPARE(config.hints.value(QStringLiteral("urgency")).value<uchar>(), uchar(2));
        QCOMPARE(config.expireTimeout, 0);
        QVERIFY(config.id != first.id);
        QVERIFY(balloons.messages.isEmpty());
    }

    // A server that reads the body as markup gets "<" and "&" escaped: a config error quotes the file as it is.
    void bodyEscapedForMarkup_data()
    {
        QTest::addColumn<QStringList>("capabilities");
        QTest::addColumn<QString>("body");
        QTest::newRow("plain text") << QStringList{QStringLiteral("body")} << QStringLiteral("cmd = a <b> & c");
        QTest::newRow("markup") << QStringList{QStringLiteral("body"), QStringLiteral("body-markup")}
                                << QStringLiteral("cmd = a &lt;b&gt; &amp; c");
    }
    void bodyEscapedForMarkup()
    {
        QFETCH(QStringList, capabilities);
        QFETCH(QString, body);
        QVERIFY(startServer());
        m_server->setCapabilities(capabilities);
        RecordingSink balloons;
        DesktopNotificationSink sink(&balloons, m_app);
        QTRY_COMPARE_WITH_TIMEOUT(sink.server(), DesktopNotificationSink::Server::Present, kTimeoutMs);
        QTRY_VERIFY_WITH_TIMEOUT(sink.bodyMarkup().has_value(), kTimeoutMs); // asked once the server is known
        sink.showMessage(NotificationKind::ConfigError, QStringLiteral("Configuration not applied"),
                         QStringLiteral("cmd = a <b> & c"), QSystemTrayIcon::Critical);
        QTRY_COMPARE_WITH_TIMEOUT(m_server->calls().size(), 1, kTimeoutMs);
        QCOMPARE(m_server->calls().constFirst().body, body);
        QCOMPARE(m_server->calls().constFirst().summary, QStringLiteral("Configuration not applied")); // plain text
    }

    void withoutServerTheBalloonShowsIt()
    {
        RecordingSink balloons;
        DesktopNotificationSink sink(&balloons, m_app);
        QTRY_COMPARE_WITH_TIMEOUT(sink.server(), DesktopNotificationSink::Server::Absent, kTimeoutMs);
        sink.showMessage(NotificationKind::Failure, QStringLiteral("Workload failing"), QStringLiteral("miner failed"),
                         QSystemTrayIcon::Warning);
        QCOMPARE(balloons.messages.size(), 1); // at once: nothing asked of the bus
        QCOMPARE(balloons.messages.at(0).kind, NotificationKind::Failure);
        QCOMPARE(balloons.messages.at(0).title, QStringLiteral("Workload failing"));
        QCOMPARE(balloons.messages.at(0).body, QStringLiteral("miner failed"));
        QCOMPARE(balloons.messages.at(0).icon, QSystemTrayIcon::Warning);
    }

    // The server comes with the desktop and may go (a crash, a restart): the sink follows it.
    void serverComesAndGoes()
    {
        RecordingSink balloons;
        DesktopNotificationSink sink(&balloons, m_app);
        QTRY_COMPARE_WITH_TIMEOUT(sink.server(), DesktopNotificationSink::Server::Absent, kTimeoutMs);

        QVERIFY(startServer());
        QTRY_COMPARE_WITH_TIMEOUT(sink.server(), DesktopNotificationSink::Server::Present, kTimeoutMs);
        sink.showMessage(NotificationKind::Preemption, QStringLiteral("t"), QStringLiteral("to the server"),
                         QSystemTrayIcon::Information);
        QTRY_COMPARE_WITH_TIMEOUT(m_server->calls().size(), 1, kTimeoutMs);
        QCOMPARE(m_server->lastSender(), m_app.baseService());

        m_server->disappear();
        QTRY_COMPARE_WITH_TIMEOUT(sink.server(), DesktopNotificationSink::Server::Absent, kTimeoutMs);
        sink.showMessage(NotificationKind::Preemption, QStringLiteral("t"), QStringLiteral("to the balloon"),
                         QSystemTrayIcon::Information);
        QCOMPARE(balloons.messages.size(), 1);
        QCOMPARE(balloons.messages.at(0).body, QStringLiteral("to the balloon"));
        QCOMPARE(m_server->calls().size(), 1);
    }

    void serverThatRefusesLeavesItToTheBalloon_data()
    {
        QTest::addColumn<int>("answer");
        QTest::newRow("an error") << int(FakeNotificationServer::Answer::Error);
        QTest::newRow("no answer") << int(FakeNotificationServer::Answer::Silence);
    }
    void serverThatRefusesLeavesItToTheBalloon()
    {
        QFETCH(int, answer);
        QVERIFY(startServer());
        m_server->setAnswer(FakeNotificationServer::Answer(answer));
        RecordingSink balloons;
        DesktopNotificationSink sink(&balloons, m_app);
        sink.setCallTimeoutMs(300);
        QTRY_COMPARE_WITH_TIMEOUT(sink.server(), DesktopNotificationSink::Server::Present, kTimeoutMs);

        sink.showMessage(NotificationKind::ConfigError, QStringLiteral("Configuration not applied"),
                         QStringLiteral("broken"), QSystemTrayIcon::Critical);
        QVERIFY(balloons.messages.isEmpty()); // showMessage returned before any answer
        QTRY_COMPARE_WITH_TIMEOUT(balloons.messages.size(), 1, kTimeoutMs);
        QCOMPARE(balloons.messages.at(0).body, QStringLiteral("broken"));
        QCOMPARE(balloons.messages.at(0).icon, QSystemTrayIcon::Critical);
        QCOMPARE(m_server->calls().size(), 1);
        QCOMPARE(sink.lastNotificationId(NotificationKind::ConfigError), 0u); // nothing to replace next time
    }

    // Where the theme lacks the icon, no name goes (it would draw a broken image): the image-data carries it.
    void iconWithoutItsName()
    {
        QVERIFY(startServer());
        RecordingSink balloons;
        DesktopNotificationSink sink(&balloons, m_app);
        sink.setAppIconName(QString());
        QTRY_COMPARE_WITH_TIMEOUT(sink.server(), DesktopNotificationSink::Server::Present, kTimeoutMs);
        sink.showMessage(NotificationKind::Failure, QStringLiteral("t"), QStringLiteral("b"), QSystemTrayIcon::Warning);
        QTRY_COMPARE_WITH_TIMEOUT(m_server->calls().size(), 1, kTimeoutMs);
        QCOMPARE(m_server->calls().constFirst().appIcon, QString());
        QCOMPARE(m_server->calls().constFirst().imageWidth, DesktopNotificationSink::kImageSize);
    }

    // Actions only where GetCapabilities lists "actions" (asked once, when the server appears).
    void actionsWhereTheServerOffersThem_data()
    {
        QTest::addColumn<QStringList>("capabilities");
        QTest::addColumn<int>("kind");
        QTest::addColumn<QStringList>("actions");
        const QStringList show{QStringLiteral("default"), QStringLiteral("Show"), QStringLiteral("show"),
                               QStringLiteral("Show")};
        const QStringList pause{QStringLiteral("pause-1h"), QStringLiteral("Pause for 1 hour")};
        QTest::newRow("no actions") << QStringList{QStringLiteral("body")} << int(NotificationKind::Preemption)
                                    << QStringList();
        QTest::newRow("preemption") << QStringList{QStringLiteral("body"), QStringLiteral("actions")}
                                    << int(NotificationKind::Preemption) << show + pause;
        QTest::newRow("failure") << QStringList{QStringLiteral("actions")} << int(NotificationKind::Failure)
                                 << show + pause;
        QTest::newRow("config error") << QStringList{QStringLiteral("actions")} << int(NotificationKind::ConfigError)
                                      << show;
        QTest::newRow("pause click") << QStringList{QStringLiteral("actions")} << int(NotificationKind::Pause) << show;
    }
    // A message given before the server's capabilities are known (the first preemption right after the start)
    // waits for them and carries its actions; it is sent once.
    void aMessageBeforeTheAnswerWaitsForIt()
    {
        QVERIFY(startServer());
        m_server->setCapabilities({QStringLiteral("actions")});
        RecordingSink balloons;
        DesktopNotificationSink sink(&balloons, m_app);
        sink.showMessage(NotificationKind::Preemption, QStringLiteral("t"), QStringLiteral("b"),
                         QSystemTrayIcon::Information); // before any answer: nothing is known yet
        QVERIFY(!sink.actions().has_value());
        QTRY_COMPARE_WITH_TIMEOUT(m_server->calls().size(), 1, kTimeoutMs);
        QCOMPARE(m_server->calls().constFirst().actions, DesktopNotificationSink::actionsFor(NotificationKind::Preemption));
        QTest::qWait(100);
        QCOMPARE(m_server->calls().size(), 1);
        QVERIFY(balloons.messages.isEmpty());
    }

    void actionsWhereTheServerOffersThem()
    {
        QFETCH(QStringList, capabilities);
        QFETCH(int, kind);
        QFETCH(QStringList, actions);
        QVERIFY(startServer());
        m_server->setCapabilities(capabilities);
        RecordingSink balloons;
        DesktopNotificationSink sink(&balloons, m_app);
        QTRY_VERIFY_WITH_TIMEOUT(sink.actions().has_value(), kTimeoutMs);
        QCOMPARE(*sink.actions(), capabilities.contains(QStringLiteral("actions")));
        sink.showMessage(NotificationKind(kind), QStringLiteral("t"), QStringLiteral("b"),
                         QSystemTrayIcon::Information);
        QTRY_COMPARE_WITH_TIMEOUT(m_server->calls().size(), 1, kTimeoutMs);
        QCOMPARE(m_server->calls().constFirst().actions, actions);
    }

    // The server's ActionInvoked for one of idlegpu's notifications: "Show" and a click on it ask for the status
    // window, "Pause for 1 hour" for the pause; another application's id, or a closed one, asks for nothing.
    void actionInvokedAsksTheTray()
    {
        QVERIFY(startServer());
        m_server->setCapabilities({QStringLiteral("body"), QStringLiteral("actions")});
        RecordingSink balloons;
        DesktopNotificationSink sink(&balloons, m_app);
        QTRY_VERIFY_WITH_TIMEOUT(sink.actions().value_or(false), kTimeoutMs);
        QSignalSpy show(&sink, &DesktopNotificationSink::showStatusRequested);
        QSignalSpy pause(&sink, &DesktopNotificationSink::pauseAllForRequested);
        sink.showMessage(NotificationKind::Preemption, QStringLiteral("t"), QStringLiteral("b"),
                         QSystemTrayIcon::Information);
        QTRY_VERIFY_WITH_TIMEOUT(sink.lastNotificationId(NotificationKind::Preemption) != 0, kTimeoutMs);
        const uint id = sink.lastNotificationId(NotificationKind::Preemption);

        QVERIFY(m_server->invokeAction(id + 100, QStringLiteral("show"))); // not ours
        QVERIFY(m_server->invokeAction(id, QStringLiteral("pause-1h")));
        QTRY_COMPARE_WITH_TIMEOUT(pause.size(), 1, kTimeoutMs);
        QCOMPARE(pause.at(0).at(0).toLongLong(), 3'600'000);
        QCOMPARE(show.size(), 0);
        QVERIFY(m_server->invokeAction(id, QStringLiteral("show")));
        QVERIFY(m_server->invokeAction(id, QStringLiteral("default")));
        QTRY_COMPARE_WITH_TIMEOUT(show.size(), 2, kTimeoutMs);

        // Closed: its actions are gone, and the next message is a new notification.
        QVERIFY(m_server->close(id));
        QTRY_COMPARE_WITH_TIMEOUT(sink.lastNotificationId(NotificationKind::Preemption), 0u, kTimeoutMs);
        QVERIFY(m_server->invokeAction(id, QStringLiteral("show")));
        sink.showMessage(NotificationKind::Preemption, QStringLiteral("t"), QStringLiteral("again"),
                         QSystemTrayIcon::Information);
        QTRY_COMPARE_WITH_TIMEOUT(m_server->calls().size(), 2, kTimeoutMs);
        QCOMPARE(m_server->calls().at(1).replacesId, 0u);
        QCOMPARE(show.size(), 2);
        QCOMPARE(pause.size(), 1);
    }

    // A session without a bus (a bare X session, a test): the balloon, at once.
    void noBusNoCall()
    {
        const QDBusConnection none =
            QDBusConnection::connectToBus(QStringLiteral("unix:path=/nonexistent/bus"), QStringLiteral("no-bus"));
        QVERIFY(!none.isConnected());
        RecordingSink balloons;
        DesktopNotificationSink sink(&balloons, none);
        QCOMPARE(sink.server(), DesktopNotificationSink::Server::Absent);
        sink.showMessage(NotificationKind::Preemption, QStringLiteral("t"), QStringLiteral("b"),
                         QSystemTrayIcon::Information);
        QCOMPARE(balloons.messages.size(), 1);
        QDBusConnection::disconnectFromBus(QStringLiteral("no-bus"));
    }
};

QTEST_MAIN(TestDesktopNotificationSink)
#include "tst_desktopnotificationsink.moc"
