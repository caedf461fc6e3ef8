// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The D-Bus service (docs/dbus.md) on a private bus, with a fake polkit: every method and error, the limits, malformed
// and oversized arguments, a caller that leaves while polkit is asked, the coalesced StateChanged, the broadcast and
// the addressed Preempted, a flood. The service runs on its own thread (BusServiceHost) as in idlegpu; the test plays
// the monitor (setState, notifyPreempted) and the callers, each on a connection of its own. The fake polkit lives on
// the test's thread, so every call here is asynchronous.
#include "base/clock.h"
#include "bus/busnames.h"
#include "bus/busservice.h"
#include "busservicehost.h"
#include "fakepolkit.h"
#include "fullledger.h"
#include "privatebus.h"

#include <QCryptographicHash>
#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QElapsedTimer>
#include <QJsonDocument>
#include <QJsonObject>
#include <QtTest>

#include <algorithm>
#include <memory>

#include <unistd.h>

namespace {

constexpr int kTimeoutMs = 10'000;
const QString kMiner = QStringLiteral("process-miner");

// What the service asked of the monitor, received on the test's thread.
class Requests : public QObject
{
    Q_OBJECT
public:
    QList<std::pair<QString, qint64>> pauses;
    QStringList resumes;
};

// The signals a client received.
class Signals : public QObject
{
    Q_OBJECT
public:
    QList<std::pair<qint64, quint64>> stateChanged; // (received at, ns of the test's clock; generation)
    QList<QVariantMap> preempted;
    QElapsedTimer clock;
Q_SIGNALS:
    void arrived();
public Q_SLOTS:
    void onStateChanged(qulonglong generation)
    {
        stateChanged.append({clock.nsecsElapsed(), generation});
        Q_EMIT arrived();
    }
    void onPreempted(uint, const QString &, const QVariantMap &holder, double) { preempted.append(holder); }
};

MonitorState stateWithMiner()
{
    MonitorState state;
    WorkloadConfig miner;
    miner.id = kMiner;
    miner.name = QStringLiteral("miner");
    miner.cmd = QStringLiteral("miner");
    miner.gpus.all = true;
    state.config.workloads = {miner};
    return state;
}

} // namespace

class TestBusService : public QObject
{
    Q_OBJECT

private:
    PrivateBus m_bus;
    std::unique_ptr<FakePolkit> m_polkit;
    std::unique_ptr<BusServiceHost> m_host;
    QTemporaryDir m_dir;
    Requests m_requests;
    QDBusConnection m_client{QString()};
    int m_clients = 0;

    QString configPath() const { return m_dir.filePath(QStringLiteral("idlegpu.conf")); }

    QDBusConnection newClient()
    {
        const QString name = QStringLiteral("client-%1").arg(++m_clients);
        return QDBusConnection::connectToBus(m_bus.address(), name);
    }

    static QDBusMessage message(const QString &method, const QList<QVariant> &arguments = {}, bool interactive = false)
    {
        QDBusMessage call = QDBusMessage::createMethodCall(BusNames::service, BusNames::objectPath, BusNames::interface,
                                                           method);
        call.setArguments(arguments);
        call.setInteractiveAuthorizationAllowed(interactive);
        return call;
    }
    // Calls and waits with the event loop running (the fake polkit answers on this thread).
    static QDBusMessage call(const QDBusConnection &client, const QDBusMessage &message)
    {
        QDBusPendingCallWatcher watcher(client.asyncCall(message, kTimeoutMs));
        if (!watcher.isFinished()) {
            QSignalSpy finished(&watcher, &QDBusPendingCallWatcher::finished);
            finished.wait(kTimeoutMs + 1000);
        }
        return watcher.reply();
    }
    QDBusMessage call(const QString &method, const QList<QVariant> &arguments = {}, bool interactive = false)
    {
        return call(m_client, message(method, arguments, interactive));
    }
    void setState(const MonitorState &state)
    {
        BusService *service = m_host->service();
        QMetaObject::invokeMethod(
            service, [service, state] { service->setState(state); }, Qt::QueuedConnection);
    }
    quint64 generation()
    {
        quint64 value = 0;
        BusService *service = m_host->service();
        QMetaObject::invokeMethod(
            service, [service, &value] { value = service->generation(); }, Qt::BlockingQueuedConnection);
        return value;
    }
    // The service as idlegpu makes it, but for its act rate: most tests here act more often than a user may.
    void startHost(const QString &procRoot = QStringLiteral("/proc"), bool userLimits = false)
    {
        m_host.reset();
        BusServiceHost::Options options;
        options.address = m_bus.address();
        options.usePolkit = true;
        options.configPath = configPath();
        options.procRoot = procRoot;
        if (!userLimits)
            options.actsPerSecond = options.actBurst = 10'000;
        m_host = std::make_unique<BusServiceHost>(options);
        QString detail;
        QCOMPARE(m_host->start(&detail), BusServiceHost::Result::Published);
        connect(m_host->service(), &BusService::pauseRequested, &m_requests,
                [this](const QString &workload, qint64 untilMs) {
                    m_requests.pauses.append({workload, untilMs});
                });
        connect(m_host->service(), &BusService::resumeRequested, &m_requests,
                [this](const QString &workload) { m_requests.resumes.append(workload); });
        setState(stateWithMiner());
    }

private Q_SLOTS:
    void initTestCase()
    {
        QString why;
        if (!m_bus.start(&why))
            QSKIP(qPrintable(why));
        m_polkit = std::make_unique<FakePolkit>();
        QVERIFY(m_polkit->start(m_bus.address()));
        QVERIFY(m_dir.isValid());
        startHost();
        m_client = newClient();
        QVERIFY(m_client.isConnected());
    }
    void init()
    {
        m_polkit->answer = FakePolkit::Answer::Yes;
        m_polkit->checks.clear();
        m_polkit->cancelled.clear();
        m_requests.pauses.clear();
        m_requests.resumes.clear();
    }

    void getState()
    {
        const QDBusMessage reply = call(QStringLiteral("GetState"));
        QCOMPARE(reply.type(), QDBusMessage::ReplyMessage);
        QCOMPARE(reply.signature(), QStringLiteral("ts"));
        QCOMPARE(reply.arguments().at(0).toULongLong(), generation());
        const QJsonObject json = QJsonDocument::fromJson(reply.arguments().at(1).toString().toUtf8()).object();
        QCOMPARE(json.value(QStringLiteral("interface_version")).toInt(), 1);
        QCOMPARE(json.value(QStringLiteral("workloads")).toArray().at(0).toObject().value(QStringLiteral("id")),
                 QJsonValue(kMiner));
        QVERIFY(m_polkit->checks.isEmpty()); // reading asks nobody
    }

    void introspect()
    {
        const QDBusMessage reply = call(
            m_client, QDBusMessage::createMethodCall(BusNames::service, BusNames::objectPath,
                                                     QStringLiteral("org.freedesktop.DBus.Introspectable"),
                                                     QStringLiteral("Introspect")));
        QCOMPARE(reply.type(), QDBusMessage::ReplyMessage);
        const QString xml = reply.arguments().value(0).toString();
        for (const char *member :
             {"GetState", "Pause", "Resume", "GetConfig", "SetConfig", "StateChanged", "Preempted"})
            QVERIFY2(xml.contains(QStringLiteral("name=\"%1\"").arg(QLatin1String(member))), member);
    }

    // An authorized pause reaches the monitor with its end; polkit was asked with the caller's bus name.
    void pauseAndResume()
    {
        QElapsedTimer clock;
        const qint64 before = SystemClock::instance()->nowMs();
        QCOMPARE(call(QStringLiteral("Pause"), {kMiner, QVariant::fromValue(qulonglong(3600))}).type(),
                 QDBusMessage::ReplyMessage);
        QCOMPARE(m_polkit->checks.size(), 1);
        const FakePolkit::Check check = m_polkit->checks.first();
        QCOMPARE(check.subjectKind, QStringLiteral("system-bus-name"));
        QCOMPARE(check.subjectName, m_client.baseService());
        QCOMPARE(check.action, QString(BusNames::pauseAction));
        QCOMPARE(check.details.value(QStringLiteral("workload")), kMiner);
        QCOMPARE(check.details.value(QStringLiteral("seconds")), QStringLiteral("3600"));
        QCOMPARE(check.flags, 0u); // the call did not allow interaction
        QTRY_COMPARE(m_requests.pauses.size(), 1);
        QCOMPARE(m_requests.pauses.first().first, kMiner);
        const qint64 until = m_requests.pauses.first().second;
        QVERIFY2(until >= before + 3'600'000 && until <= SystemClock::instance()->nowMs() + 3'600'000,
                 qPrintable(QString::number(until - before)));

        QCOMPARE(call(QStringLiteral("Pause"), {QString(), QVariant::fromValue(qulonglong(0))}, true).type(),
                 QDBusMessage::ReplyMessage);
        QCOMPARE(m_polkit->checks.last().flags, 1u); // AllowUserInteraction, as the caller allowed
        QTRY_COMPARE(m_requests.pauses.size(), 2);
        QCOMPARE(m_requests.pauses.last(), std::make_pair(QString(), qint64(0)));

        QCOMPARE(call(QStringLiteral("Resume"), {QString()}).type(), QDBusMessage::ReplyMessage);
        QCOMPARE(call(QStringLiteral("Resume"), {kMiner}).type(), QDBusMessage::ReplyMessage);
        QTRY_COMPARE(m_requests.resumes, QStringList({QString(), kMiner}));
        QCOMPARE(m_polkit->checks.last().action, QString(BusNames::pauseAction));
    }

    // Each polkit answer, as the caller gets it; nothing reaches the monitor.
    void refusals_data()
    {
        QTest::addColumn<int>("answer");
        QTest::addColumn<bool>("interactive");
        QTest::addColumn<QString>("error");
        QTest::newRow("no") << int(FakePolkit::Answer::No) << false << QString(BusNames::Error::notAuthorized);
        QTest::newRow("challenge, no interaction")
            << int(FakePolkit::Answer::Challenge) << false << QString(BusNames::Error::interactionRequired);
        QTest::newRow("challenge, after interaction")
            << int(FakePolkit::Answer::Challenge) << true << QString(BusNames::Error::interactionRequired);
        QTest::newRow("dismissed") << int(FakePolkit::Answer::Dismissed) << true << QString(BusNames::Error::cancelled);
        QTest::newRow("polkit fails") << int(FakePolkit::Answer::Error) << false
                                      << QString(BusNames::Error::authorityUnavailable);
    }
    void refusals()
    {
        QFETCH(int, answer);
        QFETCH(bool, interactive);
        QFETCH(QString, error);
        m_polkit->answer = FakePolkit::Answer(answer);
        for (const QDBusMessage &reply :
             {call(QStringLiteral("Pause"), {kMiner, QVariant::fromValue(qulonglong(0))}, interactive),
              call(QStringLiteral("Resume"), {QString()}, interactive),
              call(QStringLiteral("GetConfig"), {}, interactive)}) {
            QCOMPARE(reply.type(), QDBusMessage::ErrorMessage);
            QCOMPARE(reply.errorName(), error);
            QVERIFY(!reply.errorMessage().isEmpty());
        }
        QCOMPARE(m_polkit->checks.size(), 3);
        QCOMPARE(m_polkit->checks.last().action, QString(BusNames::configureAction));
        QTest::qWait(50);
        QVERIFY(m_requests.pauses.isEmpty());
        QVERIFY(m_requests.resumes.isEmpty());
    }

    // Checked before any work: polkit is never asked.
    void badArguments_data()
    {
        QTest::addColumn<QString>("method");
        QTest::addColumn<QList<QVariant>>("arguments");
        QTest::addColumn<QString>("error");
        const QVariant zero = QVariant::fromValue(qulonglong(0));
        const QString invalidArgs = QStringLiteral("org.freedesktop.DBus.Error.InvalidArgs");
        QTest::newRow("workload id of 257 bytes") << "Pause" << QList<QVariant>{QString(257, QLatin1Char('a')), zero}
                                                  << QString(BusNames::Error::invalidArgument);
        QTest::newRow("workload id of 129 two-byte characters")
            << "Resume" << QList<QVariant>{QString(129, QChar(0xe9))} << QString(BusNames::Error::invalidArgument);
        QTest::newRow("a pause over 30 days")
            << "Pause" << QList<QVariant>{kMiner, QVariant::fromValue(qulonglong(30 * 24 * 3600 + 1))}
            << QString(BusNames::Error::invalidArgument);
        QTest::newRow("the largest pause")
            << "Pause" << QList<QVariant>{QStringLiteral("process-nope"), QVariant::fromValue(qulonglong(~0ull))}
            << QString(BusNames::Error::invalidArgument);
        QTest::newRow("unknown workload") << "Pause" << QList<QVariant>{QStringLiteral("process-nope"), zero}
                                          << QString(BusNames::Error::unknownWorkload);
        QTest::newRow("unknown workload, resume")
            << "Resume" << QList<QVariant>{QStringLiteral("process-nope")} << QString(BusNames::Error::unknownWorkload);
        QTest::newRow("Pause without seconds") << "Pause" << QList<QVariant>{kMiner} << invalidArgs;
        QTest::newRow("seconds as a signed number") << "Pause" << QList<QVariant>{kMiner, qlonglong(5)} << invalidArgs;
        QTest::newRow("one argument too many") << "Resume" << QList<QVariant>{kMiner, kMiner} << invalidArgs;
        QTest::newRow("GetState with an argument") << "GetState" << QList<QVariant>{1} << invalidArgs;
        QTest::newRow("unknown method") << "Explode" << QList<QVariant>{}
                                        << QStringLiteral("org.freedesktop.DBus.Error.UnknownMethod");
        QTest::newRow("etag not hex") << "SetConfig" << QList<QVariant>{QByteArray("x"), QString(64, QLatin1Char('g'))}
                                      << QString(BusNames::Error::invalidArgument);
        QTest::newRow("etag too short") << "SetConfig" << QList<QVariant>{QByteArray("x"), QStringLiteral("abc")}
                                        << QString(BusNames::Error::invalidArgument);
        QTest::newRow("config over 1 MiB")
            << "SetConfig" << QList<QVariant>{QByteArray(1024 * 1024 + 1, 'a'), QString(64, QLatin1Char('0'))}
            << QString(BusNames::Error::invalidArgument);
        QTest::newRow("SetConfig with a string")
            << "SetConfig" << QList<QVariant>{QStringLiteral("x"), QString()} << invalidArgs;
    }
    void badArguments()
    {
        QFETCH(QString, method);
        QFETCH(QList<QVariant>, arguments);
        QFETCH(QString, error);
        const QDBusMessage reply = call(method, arguments);
        QCOMPARE(reply.type(), QDBusMessage::ErrorMessage);
        QCOMPARE(reply.errorName(), error);
        QVERIFY(m_polkit->checks.isEmpty());
        QVERIFY(m_requests.pauses.isEmpty());
        QCOMPARE(call(QStringLiteral("GetState")).type(), QDBusMessage::ReplyMessage); // still serving
    }

    void config()
    {
        QFile::remove(configPath());
        // Not set up yet: no file, the etag of nothing.
        QDBusMessage reply = call(QStringLiteral("GetConfig"));
        QCOMPARE(reply.type(), QDBusMessage::ReplyMessage);
        QCOMPARE(reply.signature(), QStringLiteral("says"));
        QCOMPARE(reply.arguments().at(0).toString(), configPath());
        QVERIFY(reply.arguments().at(1).toByteArray().isEmpty());
        const QString emptyEtag = QString::fromLatin1(QCryptographicHash::hash({}, QCryptographicHash::Sha256).toHex());
        QCOMPARE(reply.arguments().at(2).toString(), emptyEtag);
        QCOMPARE(m_polkit->checks.last().action, QString(BusNames::configureAction));

        const QByteArray good = "# kept\n[defaults]\ninterval_seconds = 7\n";
        QCOMPARE(call(QStringLiteral("SetConfig"), {good, emptyEtag}).type(), QDBusMessage::ReplyMessage);
        QFile written(configPath());
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(written.readAll(), good);
        QCOMPARE(written.permissions() & (QFileDevice::ReadOther | QFileDevice::ReadGroup), QFileDevice::Permissions());
        written.close();

        reply = call(QStringLiteral("GetConfig"));
        QCOMPARE(reply.arguments().at(1).toByteArray(), good);
        const QString etag = reply.arguments().at(2).toString();
        QCOMPARE(etag, QString::fromLatin1(QCryptographicHash::hash(good, QCryptographicHash::Sha256).toHex()));

        // The etag of before: Conflict, nothing written.
        reply = call(QStringLiteral("SetConfig"), {QByteArray("[defaults]\n"), emptyEtag});
        QCOMPARE(reply.errorName(), QString(BusNames::Error::conflict));
        // The checks of --check-config, with FILE:LINE; nothing written.
        const QByteArray broken = "[defaults]\ninterval_seconds = banana\n";
        reply = call(QStringLiteral("SetConfig"), {broken, etag.toUpper()});
        QCOMPARE(reply.errorName(), QString(BusNames::Error::invalidConfig));
        QVERIFY2(reply.errorMessage().startsWith(configPath() + QStringLiteral(":2: error: ")),
                 qPrintable(reply.errorMessage()));
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(written.readAll(), good);
        written.close();
        // Refused by polkit: nothing written either.
        m_polkit->answer = FakePolkit::Answer::No;
        reply = call(QStringLiteral("SetConfig"), {QByteArray("[defaults]\n"), etag});
        QCOMPARE(reply.errorName(), QString(BusNames::Error::notAuthorized));
        QVERIFY(written.open(QIODevice::ReadOnly));
        QCOMPARE(written.readAll(), good);
    }

    // A caller that leaves while polkit is asked: the check is cancelled, nothing is done.
    void callerLeavesMidCheck()
    {
        m_polkit->answer = FakePolkit::Answer::Never;
        {
            QDBusConnection leaving = QDBusConnection::connectToBus(m_bus.address(), QStringLiteral("leaving"));
            leaving.asyncCall(message(QStringLiteral("Pause"), {kMiner, QVariant::fromValue(qulonglong(0))}));
            QTRY_COMPARE_WITH_TIMEOUT(m_polkit->checks.size(), 1, kTimeoutMs);
        }
        QDBusConnection::disconnectFromBus(QStringLiteral("leaving"));
        QTRY_COMPARE_WITH_TIMEOUT(m_polkit->cancelled, QStringList{m_polkit->checks.first().cancellationId},
                                  kTimeoutMs);
        m_polkit->answer = FakePolkit::Answer::Yes;
        // polkit answers late anyway: still nothing.
        for (const QDBusMessage &late : std::as_const(m_polkit->unanswered)) {
            QDBusArgument result;
            result.beginStructure();
            result << true << false << QMap<QString, QString>();
            result.endStructure();
            QDBusConnection::connectToBus(m_bus.address(), QStringLiteral("fake-polkit"))
                .send(late.createReply(QVariant::fromValue(result)));
        }
        m_polkit->unanswered.clear();
        QTest::qWait(200);
        QVERIFY(m_requests.pauses.isEmpty());
    }

    // At most 4 pending authorizations per user: the fifth is Busy at once.
    void busy()
    {
        m_polkit->answer = FakePolkit::Answer::Never;
        {
            QDBusConnection waiting = QDBusConnection::connectToBus(m_bus.address(), QStringLiteral("waiting"));
            for (int i = 0; i < 4; ++i)
                waiting.asyncCall(message(QStringLiteral("Resume"), {kMiner}));
            QTRY_COMPARE_WITH_TIMEOUT(m_polkit->checks.size(), 4, kTimeoutMs);
            const QDBusMessage fifth = call(QStringLiteral("Resume"), {kMiner});
            QCOMPARE(fifth.errorName(), QString(BusNames::Error::busy));
            QCOMPARE(m_polkit->checks.size(), 4);
        }
        QDBusConnection::disconnectFromBus(QStringLiteral("waiting"));
        QTRY_COMPARE_WITH_TIMEOUT(m_polkit->cancelled.size(), 4, kTimeoutMs);
        m_polkit->unanswered.clear();
        m_polkit->answer = FakePolkit::Answer::Yes;
        QCOMPARE(call(QStringLiteral("Resume"), {kMiner}).type(), QDBusMessage::ReplyMessage); // free again
    }

    // Leading edge after a quiet interval, then at most one per interval, the last with the newest generation. The
    // time from the monitor's change to the signal at a client is printed.
    void stateChangedIsCoalesced()
    {
        Signals received;
        QVERIFY(m_client.connect(BusNames::service, BusNames::objectPath, BusNames::interface,
                                 QStringLiteral("StateChanged"), &received, SLOT(onStateChanged(qulonglong))));
        QTest::qWait(300);
        QList<double> latencies;
        for (int round = 0; round < 10; ++round) {
            received.stateChanged.clear();
            QSignalSpy arrived(&received, &Signals::arrived); // a real event loop: QTRY's polls would add to it
            received.clock.start();
            setState(stateWithMiner());
            QVERIFY(arrived.wait(kTimeoutMs));
            QCOMPARE(received.stateChanged.size(), 1);
            latencies.append(received.stateChanged.first().first / 1e6);
            QTest::qWait(BusNames::stateSignalIntervalMs + 20);
        }
        std::sort(latencies.begin(), latencies.end());
        qInfo("monitor's change -> StateChanged at a client: median %.2f ms, max %.2f ms (10 changes)", latencies.at(5),
              latencies.last());

        received.stateChanged.clear();
        received.clock.start();
        for (int i = 0; i < 20; ++i)
            setState(stateWithMiner());
        const quint64 last = generation();
        QTest::qWait(3 * BusNames::stateSignalIntervalMs);
        QCOMPARE(received.stateChanged.size(), 2); // the first at once, the rest in one
        QVERIFY(received.stateChanged.at(0).first < BusNames::stateSignalIntervalMs * 1'000'000ll);
        QVERIFY(received.stateChanged.at(1).first >= (BusNames::stateSignalIntervalMs - 5) * 1'000'000ll);
        QCOMPARE(received.stateChanged.at(1).second, last);
        m_client.disconnect(BusNames::service, BusNames::objectPath, BusNames::interface,
                            QStringLiteral("StateChanged"), &received, SLOT(onStateChanged(qulonglong)));
    }

    void getStateTime()
    {
        QList<double> times;
        QElapsedTimer clock;
        for (int i = 0; i < 50; ++i) {
            if (i % 10 == 0)
                setState(stateWithMiner()); // a new JSON every tenth call
            clock.start();
            QCOMPARE(call(QStringLiteral("GetState")).type(), QDBusMessage::ReplyMessage);
            times.append(clock.nsecsElapsed() / 1e6);
        }
        std::sort(times.begin(), times.end());
        qInfo("GetState answer time: median %.2f ms, p90 %.2f ms, max %.2f ms (50 calls)", times.at(25), times.at(45),
              times.last());
    }

    // The same with the fullest ledger (tests/fullledger.h: 8 GPUs' timelines at the ledger's bound, 50
    // preemptions): what the answer weighs, and how long it takes, made afresh for each state and from the cache.
    void getStateTimeFullLedger()
    {
        MonitorState state = stateWithMiner();
        state.ledger = TestSupport::fullLedger(QDateTime::currentMSecsSinceEpoch(), 8);
        QList<double> fresh;
        QList<double> cached;
        qsizetype bytes = 0;
        QElapsedTimer clock;
        for (int i = 0; i < 50; ++i) {
            if (i % 10 == 0)
                setState(state); // a new JSON every tenth call
            clock.start();
            const QDBusMessage reply = call(QStringLiteral("GetState"));
            QCOMPARE(reply.type(), QDBusMessage::ReplyMessage);
            (i % 10 == 0 ? fresh : cached).append(clock.nsecsElapsed() / 1e6);
            bytes = reply.arguments().value(1).toString().toUtf8().size();
        }
        std::sort(fresh.begin(), fresh.end());
        std::sort(cached.begin(), cached.end());
        qInfo("GetState with the fullest ledger on 8 GPUs: %lld bytes; made afresh: median %.2f ms, max %.2f ms "
              "(5 calls); from the cache: median %.2f ms, p90 %.2f ms, max %.2f ms (45 calls)",
              qint64(bytes), fresh.at(2), fresh.last(), cached.at(22), cached.at(40), cached.last());
        QVERIFY(bytes < 256 * 1024);
    }

    // The broadcast copy for everyone; a copy addressed to each known connection of the holder's user.
    void preempted()
    {
        QDBusConnection other = newClient(); // never called: the service does not know it
        Signals atClient, atOther;
        for (auto [connection, receiver] : {std::pair{&m_client, &atClient}, std::pair{&other, &atOther}})
            QVERIFY(connection->connect(BusNames::service, BusNames::objectPath, BusNames::interface,
                                        QStringLiteral("Preempted"), receiver,
                                        SLOT(onPreempted(uint, QString, QVariantMap, double))));
        QCOMPARE(call(QStringLiteral("GetState")).type(), QDBusMessage::ReplyMessage); // known now
        PreemptionEvent event;
        event.workloadId = kMiner;
        event.gpu = 0;
        event.culprit.pid = 4242;
        event.culprit.uid = ::geteuid();
        event.culprit.user = QStringLiteral("me");
        event.culprit.comm = QStringLiteral("python3");
        event.openToStopMs = 2.5;
        BusService *service = m_host->service();
        QMetaObject::invokeMethod(service, [service, event] { service->notifyPreempted(event); });
        QTRY_COMPARE_WITH_TIMEOUT(atClient.preempted.size(), 2, kTimeoutMs); // broadcast + addressed
        QTest::qWait(200);
        QCOMPARE(atOther.preempted.size(), 1); // the broadcast only
        QCOMPARE(atClient.preempted.at(0).value(QStringLiteral("event")),
                 atClient.preempted.at(1).value(QStringLiteral("event")));
        for (const QVariantMap &holder : std::as_const(atClient.preempted)) {
            QCOMPARE(holder.value(QStringLiteral("pid")).toUInt(), 4242u);
            QCOMPARE(holder.value(QStringLiteral("comm")).toString(), QStringLiteral("python3"));
        }

        // Another user's process: nobody here gets an addressed copy.
        atClient.preempted.clear();
        atOther.preempted.clear();
        event.culprit.uid = ::geteuid() + 4321;
        QMetaObject::invokeMethod(service, [service, event] { service->notifyPreempted(event); });
        QTRY_COMPARE_WITH_TIMEOUT(atOther.preempted.size(), 1, kTimeoutMs);
        QTest::qWait(200);
        QCOMPARE(atClient.preempted.size(), 1);
        QDBusConnection::disconnectFromBus(other.name());
    }

    // Where the host's /proc hides other users' processes, the broadcast names nobody; the addressed copy still does.
    void preemptedUnderHidepid()
    {
        QTemporaryDir proc;
        QVERIFY(QDir().mkpath(proc.filePath(QStringLiteral("1"))));
        QFile mountinfo(proc.filePath(QStringLiteral("1/mountinfo")));
        QVERIFY(mountinfo.open(QIODevice::WriteOnly));
        mountinfo.write("22 1 0:21 / /proc rw - proc proc rw,hidepid=invisible\n");
        mountinfo.close();
        startHost(proc.path());
        Signals received;
        QVERIFY(m_client.connect(BusNames::service, BusNames::objectPath, BusNames::interface,
                                 QStringLiteral("Preempted"), &received,
                                 SLOT(onPreempted(uint, QString, QVariantMap, double))));
        QCOMPARE(call(QStringLiteral("GetState")).type(), QDBusMessage::ReplyMessage);
        PreemptionEvent event;
        event.workloadId = kMiner;
        event.culprit.pid = 4242;
        event.culprit.uid = ::geteuid();
        event.culprit.comm = QStringLiteral("python3");
        BusService *service = m_host->service();
        QMetaObject::invokeMethod(service, [service, event] { service->notifyPreempted(event); });
        QTRY_COMPARE_WITH_TIMEOUT(received.preempted.size(), 2, kTimeoutMs);
        const auto named = [](const QVariantMap &holder) { return holder.contains(QStringLiteral("pid")); };
        QCOMPARE(std::count_if(received.preempted.cbegin(), received.preempted.cend(), named), 1);
        for (const QVariantMap &holder : std::as_const(received.preempted))
            QVERIFY(holder.contains(QStringLiteral("event")));
        startHost();
    }

    // A caller that floods is refused at once, and another user's call is still answered meanwhile.
    void flood()
    {
        startHost(QStringLiteral("/proc"), true); // 5 acts a second, 10 at once
        QList<QDBusPendingCall> calls;
        for (int i = 0; i < 60; ++i)
            calls.append(
                m_client.asyncCall(message(QStringLiteral("Pause"), {kMiner, QVariant::fromValue(qulonglong(0))})));
        // Another user: nobody, through busctl, while the flood waits for its answers.
        QString nobodyAnswer;
        if (::geteuid() == 0) {
            // The bus's socket is in a private folder: let nobody reach it.
            const QString socket = m_bus.address().section(QLatin1Char('='), 1).section(QLatin1Char(','), 0, 0);
            QFile::setPermissions(QFileInfo(socket).absolutePath(), QFileDevice::ReadOwner | QFileDevice::WriteOwner
                                                                        | QFileDevice::ExeOwner | QFileDevice::ExeGroup
                                                                        | QFileDevice::ExeOther);
            QProcess busctl;
            busctl.start(QStringLiteral("setpriv"),
                         {QStringLiteral("--reuid=65534"), QStringLiteral("--regid=65534"),
                          QStringLiteral("--clear-groups"), QStringLiteral("busctl"),
                          QStringLiteral("--address=") + m_bus.address(), QStringLiteral("call"), BusNames::service,
                          BusNames::objectPath, BusNames::interface, QStringLiteral("GetState")});
            QTRY_VERIFY_WITH_TIMEOUT(busctl.state() == QProcess::NotRunning, kTimeoutMs);
            nobodyAnswer = QString::fromUtf8(busctl.readAllStandardOutput() + busctl.readAllStandardError());
        }
        QTRY_VERIFY_WITH_TIMEOUT(
            std::all_of(calls.cbegin(), calls.cend(), [](const QDBusPendingCall &c) { return c.isFinished(); }),
            kTimeoutMs);
        int limited = 0, done = 0, busy = 0;
        for (const QDBusPendingCall &c : std::as_const(calls)) {
            const QDBusMessage reply = c.reply();
            if (reply.type() == QDBusMessage::ReplyMessage)
                ++done;
            else if (reply.errorName() == BusNames::Error::rateLimited)
                ++limited;
            else if (reply.errorName() == BusNames::Error::busy)
                ++busy;
        }
        qInfo("60 pauses at once: %d done, %d busy, %d rate limited", done, busy, limited);
        QVERIFY2(done + busy <= 10, qPrintable(QString::number(done + busy))); // the burst
        QCOMPARE(done + busy + limited, 60);
        QVERIFY(m_polkit->checks.size() <= 10);
        if (::geteuid() == 0)
            QVERIFY2(nobodyAnswer.startsWith(QLatin1String("ts ")), qPrintable(nobodyAnswer));
        QCOMPARE(call(QStringLiteral("GetState")).type(), QDBusMessage::ReplyMessage);
        startHost();
    }

    // A second service on the same bus does not get the name.
    void secondService()
    {
        BusServiceHost::Options options;
        options.address = m_bus.address();
        options.configPath = configPath();
        BusServiceHost second(options);
        QString detail;
        QCOMPARE(second.start(&detail), BusServiceHost::Result::NameTaken);
        QVERIFY2(detail.contains(QStringLiteral("pid %1").arg(QCoreApplication::applicationPid())), qPrintable(detail));
        QCOMPARE(call(QStringLiteral("GetState")).type(), QDBusMessage::ReplyMessage); // the first still serves
    }

    void cleanupTestCase()
    {
        m_host.reset();
        QDBusConnection::disconnectFromBus(m_client.name());
        m_polkit.reset();
    }
};

QTEST_GUILESS_MAIN(TestBusService)
#include "tst_it_busservice.moc"
