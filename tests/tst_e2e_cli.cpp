// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The command line as a client of the running idlegpu: the real binary with its system and session buses pointed at
// private buses, where a stand-in service (tests/fakeidlegpuservice.h) answers as docs/dbus.md says, or nothing does.
// `--status` takes the system bus's service first, then the session bus's, then looks for itself, and says which
// ("source"); `--pause`/`--resume` call the service with the workload's id, and exit 0 done, 1 refused (with the
// reason), 2 on a usage error (before any call), 3 when no service answers.
#include "fakeidlegpuservice.h"
#include "privatebus.h"
#include "privatesystembus.h"
#include "testsupport.h"

#include "config/config.h"
#include "settings/settingsdraft.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QElapsedTimer>
#include <QJsonObject>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QtTest>

#include <unistd.h>

namespace {

struct Run
{
    int exitCode = -1;
    QString out;
    QString err;
};

QJsonObject serviceState(const QString &config)
{
    const auto workload = [](const char *id, const char *name) {
        return QJsonObject{{QStringLiteral("id"), QLatin1String(id)},
                           {QStringLiteral("name"), QLatin1String(name)},
                           {QStringLiteral("gpus"), QStringLiteral("all")},
                           {QStringLiteral("runtime"), QJsonObject{{QStringLiteral("state"), QStringLiteral("running")},
                                                                   {QStringLiteral("pid"), 4242}}}};
    };
    return QJsonObject{
        {QStringLiteral("interface_version"), 1},
        {QStringLiteral("config"), config},
        {QStringLiteral("configured"), true},
        {QStringLiteral("device_root"), QStringLiteral("/dev")},
        {QStringLiteral("gpus"),
         QJsonArray{QJsonObject{
             {QStringLiteral("index"), 0},
             {QStringLiteral("state"), QStringLiteral("busy")},
             {QStringLiteral("reason"), QStringLiteral("held by 977 (python3)")},
             {QStringLiteral("holders"), QJsonArray{QJsonObject{{QStringLiteral("pid"), 977},
                                                                {QStringLiteral("comm"), QStringLiteral("python3")},
                                                                {QStringLiteral("user"), QStringLiteral("alice")},
                                                                {QStringLiteral("foreign"), true},
                                                                {QStringLiteral("makes_busy"), true}},
                                                    QJsonObject{{QStringLiteral("foreign"), true}, // hidepid: unseen
                                                                {QStringLiteral("makes_busy"), true}}}},
             {QStringLiteral("hidden_holders"), 1}}}},
        {QStringLiteral("workloads"), QJsonArray{workload("process-miner", "miner"), workload("process-boinc", "boinc"),
                                                 workload("process-fold", "twin"), workload("process-fold2", "twin")}},
        {QStringLiteral("pause"),
         QJsonObject{
             {QStringLiteral("all"), false},
             {QStringLiteral("until"), QJsonValue()},
             {QStringLiteral("workloads"),
              QJsonObject{{QStringLiteral("process-boinc"),
                           QJsonObject{{QStringLiteral("until"), QStringLiteral("2026-12-03T17:00:00Z")}}},
                          {QStringLiteral("process-fold"), QJsonObject{{QStringLiteral("until"), QJsonValue()}}}}}}}};
}

} // namespace

class TestE2eCli : public QObject
{
    Q_OBJECT

    PrivateBus m_system;
    PrivateBus m_session;
    QTemporaryDir m_home;
    bool m_root = ::geteuid() == 0;

    // The real binary with `arguments`, the system bus at `system` and the session bus at `session` (an address where
    // nothing listens: no bus at all), in a home of its own without a configuration file. Its stdin is not a terminal.
    QProcessEnvironment environment(bool withSystem, bool withSession)
    {
        const QString nowhere = QStringLiteral("unix:path=") + m_home.filePath(QStringLiteral("no-bus"));
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), m_home.path());
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_home.filePath(QStringLiteral(".config")));
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_home.path());
        env.insert(QStringLiteral("DBUS_SYSTEM_BUS_ADDRESS"), withSystem ? m_system.address() : nowhere);
        env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), withSession ? m_session.address() : nowhere);
        return env;
    }

    Run runIdlegpu(const QStringList &arguments, bool withSystem = true, bool withSession = true,
                   const QString &program = QStringLiteral(IDLEGPU_BINARY))
    {
        QProcess process;
        process.setProcessEnvironment(environment(withSystem, withSession));
        process.setStandardInputFile(QProcess::nullDevice());
        QSignalSpy finished(&process, &QProcess::finished);
        process.start(program, arguments);
        // The stand-ins answer on this thread: wait in its event loop.
        if (!finished.wait(40000)) {
            process.kill();
            process.waitForFinished();
        }
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
    }

    static QJsonObject jsonOf(const Run &run)
    {
        QJsonParseError error;
        const QJsonDocument document = QJsonDocument::fromJson(run.out.toUtf8(), &error);
        return error.error == QJsonParseError::NoError ? document.object() : QJsonObject();
    }

private slots:
    void initTestCase()
    {
        QString why;
        if (!m_system.start(&why) || !m_session.start(&why))
            QSKIP(qPrintable(why));
        QVERIFY(m_home.isValid());
    }

    // No service on either bus: --status looks for itself and says so; --pause and --resume say how to start one.
    void noService()
    {
        Run json = runIdlegpu({QStringLiteral("--status"), QStringLiteral("--json")});
        QVERIFY2(json.exitCode == 0, qPrintable(json.err));
        QCOMPARE(jsonOf(json).value(QStringLiteral("source")).toString(), QStringLiteral("local"));
        QVERIFY(jsonOf(json).value(QStringLiteral("gpus")).isArray());

        const Run text = runIdlegpu({QStringLiteral("--status")}, false, false);
        QVERIFY2(text.exitCode == 0, qPrintable(text.err));
        QVERIFY2(text.out.startsWith(QStringLiteral("From a look at this computer: no idlegpu service answers.\n")),
                 qPrintable(text.out));

        for (const QStringList &arguments : {QStringList{QStringLiteral("--pause")},
                                             QStringList{QStringLiteral("--resume"), QStringLiteral("miner")}}) {
            const Run act = runIdlegpu(arguments);
            QCOMPARE(act.exitCode, 3);
            QVERIFY2(act.err.contains(QStringLiteral("systemctl enable --now idlegpu"))
                         && act.err.contains(QStringLiteral("idlegpu --headless")),
                     qPrintable(act.err));
            QVERIFY(act.out.isEmpty());
        }
    }

    // A service on the session bus only: --status shows it; --config names a file of its own and looks for itself.
    void sessionService()
    {
        FakeIdlegpuService service;
        QString why;
        QVERIFY2(service.start(m_session.address(), QStringLiteral("fake-session"), &why), qPrintable(why));
        service.setState(serviceState(QStringLiteral("/home/u/.config/idlegpu/idlegpu.conf")));

        const Run json = runIdlegpu({QStringLiteral("--status"), QStringLiteral("--json")});
        QVERIFY2(json.exitCode == 0, qPrintable(json.err));
        const QJsonObject object = jsonOf(json);
        QCOMPARE(object.value(QStringLiteral("source")).toString(), QStringLiteral("session"));
        QCOMPARE(object.value(QStringLiteral("interface_version")).toInt(), 1);
        QCOMPARE(object.value(QStringLiteral("workloads")).toArray().size(), 4);

        const Run text = runIdlegpu({QStringLiteral("--status")});
        QVERIFY2(text.exitCode == 0, qPrintable(text.err));
        QVERIFY2(text.out.startsWith(QStringLiteral("From the idlegpu service on your session bus.\n")),
                 qPrintable(text.out));
        QVERIFY2(text.out.contains(QStringLiteral("GPU 0: busy, held by 977 (python3)\n    held by pid 977 python3 "
                                                  "(alice)\n    held by a process of another user\n")),
                 qPrintable(text.out));
        QVERIFY2(text.out.contains(QStringLiteral("Workload miner [process-miner] on GPUs all: running (pid 4242)\n")),
                 qPrintable(text.out));
        QVERIFY2(text.out.contains(QStringLiteral("Workload boinc [process-boinc] on GPUs all: running (pid 4242), "
                                                  "paused until 2026-12-03 17:00 UTC\n")),
                 qPrintable(text.out));
        QVERIFY2(text.out.contains(QStringLiteral("Workload twin [process-fold] on GPUs all: running (pid 4242), "
                                                  "paused until resumed\n")),
                 qPrintable(text.out));

        const QString config = m_home.filePath(QStringLiteral("own.conf"));
        TestSupport::writeFile(config, "[defaults]\n");
        const Run own = runIdlegpu(
            {QStringLiteral("--status"), QStringLiteral("--json"), QStringLiteral("-c"), config});
        QVERIFY2(own.exitCode == 0, qPrintable(own.err));
        QCOMPARE(jsonOf(own).value(QStringLiteral("source")).toString(), QStringLiteral("local"));
        QCOMPARE(jsonOf(own).value(QStringLiteral("config")).toString(), config);
        const Run ownText = runIdlegpu({QStringLiteral("--status"), QStringLiteral("-c"), config});
        QVERIFY2(ownText.out.startsWith(QStringLiteral("From a look at this computer with the configuration given")),
                 qPrintable(ownText.out));
    }

    // A service on each bus: the system bus's comes first when root owns it; one that another user owns there is
    // passed over, with a word on stderr, for the session bus's.
    void systemServiceFirst()
    {
        FakeIdlegpuService system;
        FakeIdlegpuService session;
        QString why;
        QVERIFY2(system.start(m_system.address(), QStringLiteral("fake-system"), &why), qPrintable(why));
        QVERIFY2(session.start(m_session.address(), QStringLiteral("fake-session"), &why), qPrintable(why));
        system.setState(serviceState(QStringLiteral("/etc/idlegpu/idlegpu.conf")));
        session.setState(serviceState(QStringLiteral("/home/u/.config/idlegpu/idlegpu.conf")));

        const Run json = runIdlegpu({QStringLiteral("--status"), QStringLiteral("--json")});
        QVERIFY2(json.exitCode == 0, qPrintable(json.err));
        if (!m_root) {
            QCOMPARE(jsonOf(json).value(QStringLiteral("source")).toString(), QStringLiteral("session"));
            QVERIFY2(json.err.contains(QStringLiteral("Passed over the idlegpu service on the system bus: it runs as "
                                                      "uid %1, not as 0")
                                           .arg(::geteuid())),
                     qPrintable(json.err));
            QSKIP("not root: the system bus's service here is not root's, so it is passed over (checked)");
        }
        QCOMPARE(jsonOf(json).value(QStringLiteral("source")).toString(), QStringLiteral("system"));
        QCOMPARE(jsonOf(json).value(QStringLiteral("config")).toString(), QStringLiteral("/etc/idlegpu/idlegpu.conf"));
        const Run text = runIdlegpu({QStringLiteral("--status")});
        QVERIFY2(text.out.startsWith(QStringLiteral("From the idlegpu service on the system bus.\nConfig: "
                                                    "/etc/idlegpu/idlegpu.conf\n")),
                 qPrintable(text.out));

        // --pause goes to the system bus's service too, and nothing to the session bus's.
        const Run paused = runIdlegpu({QStringLiteral("--pause")});
        QVERIFY2(paused.exitCode == 0, qPrintable(paused.err));
        QCOMPARE(system.calls(QStringLiteral("Pause")).size(), 1);
        QVERIFY(session.calls(QStringLiteral("Pause")).isEmpty());
        QVERIFY2(paused.out.contains(QStringLiteral("Paused every workload of the idlegpu service on the system bus "
                                                    "until resumed.")),
                 qPrintable(paused.out));
    }

    // Pause and Resume with the workload's id, found from its id or its name; --for in seconds; no interaction
    // without a terminal.
    void pauseAndResume()
    {
        FakeIdlegpuService service;
        QString why;
        QVERIFY2(service.start(m_session.address(), QStringLiteral("fake-session"), &why), qPrintable(why));
        service.setState(serviceState(QString()));

        struct Case
        {
            QStringList arguments;
            QString member;
            QVariantList expected;
            QString said;
        };
        const QList<Case> cases{
            {{QStringLiteral("--pause")},
             QStringLiteral("Pause"),
             {QString(), quint64(0)},
             QStringLiteral("Paused every workload of the idlegpu service on your session bus until resumed.")},
            {{QStringLiteral("--pause"), QStringLiteral("miner"), QStringLiteral("--for"), QStringLiteral("1h30m")},
             QStringLiteral("Pause"),
             {QStringLiteral("process-miner"), quint64(5400)},
             QStringLiteral("Paused miner [process-miner] of the idlegpu service on your session bus for 1h30m.")},
            {{QStringLiteral("--for"), QStringLiteral("90s"), QStringLiteral("--pause"),
              QStringLiteral("process-boinc")},
             QStringLiteral("Pause"),
             {QStringLiteral("process-boinc"), quint64(90)},
             QStringLiteral("Paused boinc [process-boinc] of the idlegpu service on your session bus for 1m30s.")},
            {{QStringLiteral("--pause"), QStringLiteral("process-fold"), QStringLiteral("--for"),
              QStringLiteral("30d")},
             QStringLiteral("Pause"),
             {QStringLiteral("process-fold"), quint64(2'592'000)},
             QStringLiteral("for 30d.")},
            {{QStringLiteral("--resume")},
             QStringLiteral("Resume"),
             {QString()},
             QStringLiteral("Resumed every workload of the idlegpu service on your session bus.")},
            {{QStringLiteral("--resume"), QStringLiteral("boinc")},
             QStringLiteral("Resume"),
             {QStringLiteral("process-boinc")},
             QStringLiteral("Resumed boinc [process-boinc] of the idlegpu service on your session bus.")},
        };
        for (const Case &c : cases) {
            service.clearCalls();
            const Run run = runIdlegpu(c.arguments, false, true);
            const QString what = c.arguments.join(QLatin1Char(' '));
            QVERIFY2(run.exitCode == 0, qPrintable(what + QStringLiteral(": ") + run.err));
            QVERIFY2(run.out.contains(c.said), qPrintable(what + QStringLiteral(": ") + run.out));
            const QList<FakeIdlegpuService::Call> acts = service.calls(c.member);
            QVERIFY2(acts.size() == 1, qPrintable(what));
            QCOMPARE(acts.first().arguments, c.expected);
            QVERIFY(!acts.first().interactive);
        }
    }

    // On a terminal the call allows interactive authorization (polkit may ask for a password there); for the system
    // bus's service a user's idlegpu starts polkit's text agent first (root's needs none), which would find no polkit
    // on the private bus and leave at once. Under script(1), which gives it a terminal.
    void interactiveOnATerminal()
    {
        const QString script = QStandardPaths::findExecutable(QStringLiteral("script"));
        if (script.isEmpty())
            QSKIP("script (util-linux) is not installed");
        FakeIdlegpuService service;
        QString why;
        const QString address = m_root ? m_system.address() : m_session.address();
        QVERIFY2(service.start(address, QStringLiteral("fake-service"), &why), qPrintable(why));
        service.setState(serviceState(QString()));
        QElapsedTimer clock;
        clock.start();
        const Run run = runIdlegpu({QStringLiteral("-qec"), QStringLiteral(IDLEGPU_BINARY " --pause miner --for 1h"),
                                    QStringLiteral("/dev/null")},
                                   m_root, !m_root, script);
        QVERIFY2(run.exitCode == 0, qPrintable(run.out + run.err));
        const QList<FakeIdlegpuService::Call> acts = service.calls(QStringLiteral("Pause"));
        QCOMPARE(acts.size(), 1);
        QVERIFY(acts.first().interactive);
        QCOMPARE(acts.first().arguments, (QVariantList{QStringLiteral("process-miner"), quint64(3600)}));
        QVERIFY2(clock.elapsed() < 10000, qPrintable(QString::number(clock.elapsed())));
    }

    // A user at a terminal, root's service on a system-like bus (the package's policy file): idlegpu starts polkit's
    // text agent for itself before the call, which finds no polkit on the private bus, says so on the terminal and
    // leaves; the call goes on, interactive. As root (to be nobody), with pkttyagent installed.
    void userOnATerminalStartsTheTextAgent()
    {
        const QString script = QStandardPaths::findExecutable(QStringLiteral("script"));
        const QString setpriv = QStandardPaths::findExecutable(QStringLiteral("setpriv"));
        if (!m_root || script.isEmpty() || setpriv.isEmpty()
            || QStandardPaths::findExecutable(QStringLiteral("pkttyagent")).isEmpty())
            QSKIP("needs root, script and setpriv (util-linux) and pkttyagent (polkitd)");
        PrivateSystemBus bus;
        QString why;
        QVERIFY2(bus.start({QStringLiteral(IDLEGPU_BUS_POLICY)}, &why), qPrintable(why));
        FakeIdlegpuService service;
        QVERIFY2(service.start(bus.address(), QStringLiteral("root-service"), &why), qPrintable(why));
        service.setState(serviceState(QString()));

        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("HOME"), QStringLiteral("/"));
        env.remove(QStringLiteral("XDG_RUNTIME_DIR"));
        env.insert(QStringLiteral("DBUS_SYSTEM_BUS_ADDRESS"), bus.address());
        env.insert(QStringLiteral("DBUS_SESSION_BUS_ADDRESS"), QStringLiteral("unix:path=/nonexistent/bus"));
        process.setProcessEnvironment(env);
        process.setStandardInputFile(QProcess::nullDevice());
        QSignalSpy finished(&process, &QProcess::finished);
        process.start(setpriv, {QStringLiteral("--reuid=nobody"), QStringLiteral("--regid=nogroup"),
                                QStringLiteral("--clear-groups"), QStringLiteral("--"), script, QStringLiteral("-qec"),
                                QStringLiteral(IDLEGPU_BINARY " --resume boinc"), QStringLiteral("/dev/null")});
        QVERIFY(finished.wait(40000));
        const QString output = QString::fromUtf8(process.readAllStandardOutput() + process.readAllStandardError());
        QVERIFY2(process.exitCode() == 0, qPrintable(output));
        QVERIFY2(output.contains(QStringLiteral("authentication agent")), qPrintable(output)); // pkttyagent's words
        QVERIFY2(output.contains(QStringLiteral("Resumed boinc [process-boinc] of the idlegpu service on the system "
                                                "bus.")),
                 qPrintable(output));
        const QList<FakeIdlegpuService::Call> acts = service.calls(QStringLiteral("Resume"));
        QCOMPARE(acts.size(), 1);
        QVERIFY(acts.first().interactive);
    }

    // The service's refusal: exit 1 with its reason in plain words, nothing on stdout.
    void refused()
    {
        FakeIdlegpuService service;
        QString why;
        QVERIFY2(service.start(m_session.address(), QStringLiteral("fake-session"), &why), qPrintable(why));
        service.setState(serviceState(QString()));
        struct Case
        {
            QLatin1StringView error;
            QString message;
            QString said;
        };
        const QList<Case> cases{
            {BusNames::Error::notAuthorized, QStringLiteral("Authentication is required"),
             QStringLiteral("Not authorized: Authentication is required")},
            {BusNames::Error::interactionRequired, QStringLiteral("a password is needed"),
             QStringLiteral("Run it on a terminal")},
            {BusNames::Error::cancelled, QStringLiteral("dismissed"), QStringLiteral("Cancelled")},
            {BusNames::Error::rateLimited, QStringLiteral("5 per second"), QStringLiteral("too many calls")},
            {BusNames::Error::authorityUnavailable, QStringLiteral("no polkitd"),
             QStringLiteral("Is polkitd installed and running?")},
            {BusNames::Error::unknownWorkload, QStringLiteral("no workload process-boinc"),
             QStringLiteral("No such workload: no workload process-boinc")},
        };
        for (const Case &c : cases) {
            service.setActError(c.error, c.message);
            for (const QStringList &arguments : {QStringList{QStringLiteral("--pause"), QStringLiteral("boinc")},
                                                 QStringList{QStringLiteral("--resume")}}) {
                const Run run = runIdlegpu(arguments);
                const QString what = arguments.join(QLatin1Char(' ')) + QStringLiteral(" (") + c.error + ')';
                QVERIFY2(run.exitCode == 1, qPrintable(what + QStringLiteral(": ") + QString::number(run.exitCode)));
                QVERIFY2(run.err.contains(c.said), qPrintable(what + QStringLiteral(": ") + run.err));
                QVERIFY2(run.out.isEmpty(), qPrintable(run.out));
            }
        }
    }

    // A workload the service does not have, or a name that two share: exit 1, the ids listed, no call made.
    void unknownWorkload()
    {
        FakeIdlegpuService service;
        QString why;
        QVERIFY2(service.start(m_session.address(), QStringLiteral("fake-session"), &why), qPrintable(why));
        service.setState(serviceState(QString()));

        const Run unknown = runIdlegpu({QStringLiteral("--pause"), QStringLiteral("nosuch")});
        QCOMPARE(unknown.exitCode, 1);
        QVERIFY2(unknown.err.contains(QStringLiteral("No workload \"nosuch\": the idlegpu service has process-miner, "
                                                     "process-boinc, process-fold, process-fold2.")),
                 qPrintable(unknown.err));
        const Run twin = runIdlegpu({QStringLiteral("--resume"), QStringLiteral("twin")});
        QCOMPARE(twin.exitCode, 1);
        QVERIFY2(twin.err.contains(QStringLiteral("\"twin\" is the name of 2 workloads (process-fold, process-fold2): "
                                                  "give the id.")),
                 qPrintable(twin.err));
        // A section-less id is a name, never half an id: "fold" names nothing here.
        QCOMPARE(runIdlegpu({QStringLiteral("--pause"), QStringLiteral("fold")}).exitCode, 1);
        QVERIFY(service.calls(QStringLiteral("Pause")).isEmpty());
        QVERIFY(service.calls(QStringLiteral("Resume")).isEmpty());
    }

    // The real service: idlegpu --headless with a workload on a fake GPU publishes on the private session bus
    // (IDLEGPU_BUS=session); --status reads its state, --pause and --resume change it, by the workload's name or id.
    void realService()
    {
        QTemporaryDir dir;
        TestSupport::FakeDevRoot dev(1);
        const QString config = TestSupport::writeFile(
            dir.filePath(QStringLiteral("idlegpu.conf")),
            (TestSupport::defaultsSection(dev.path())
             + TestSupport::sleeperSection(QStringLiteral("miner"), QStringLiteral("0")))
                .toUtf8());
        QProcessEnvironment env = environment(false, true);
        env.insert(QStringLiteral("IDLEGPU_BUS"), QStringLiteral("session"));
        env.insert(QStringLiteral("XDG_STATE_HOME"), dir.filePath(QStringLiteral("state")));
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), dir.path());
        QProcess service;
        QVERIFY2(TestSupport::startIdlegpuBinary(service, env,
                                                 {QStringLiteral("--headless"), QStringLiteral("--config"), config},
                                                 dir.filePath(QStringLiteral("service.log"))),
                 qPrintable(service.errorString()));
        const auto log = [&] {
            return QString::fromUtf8(TestSupport::readFileOrEmpty(dir.filePath(QStringLiteral("service.log"))));
        };
        QDBusConnection bus = QDBusConnection::connectToBus(m_session.address(), QStringLiteral("watch-real"));
        QVERIFY2(
            QTest::qWaitFor([&] { return bus.interface()->isServiceRegistered(BusNames::service).value(); }, 15000),
            qPrintable(log()));

        const auto miner = [&](const Run &run) {
            for (const QJsonValue &workload : jsonOf(run).value(QStringLiteral("workloads")).toArray())
                if (workload[QStringLiteral("id")].toString() == QLatin1String("process-miner"))
                    return workload.toObject();
            return QJsonObject();
        };
        const Run before = runIdlegpu({QStringLiteral("--status"), QStringLiteral("--json")}, false, true);
        QVERIFY2(before.exitCode == 0, qPrintable(before.err));
        QCOMPARE(jsonOf(before).value(QStringLiteral("source")).toString(), QStringLiteral("session"));
        QCOMPARE(jsonOf(before).value(QStringLiteral("interface_version")).toInt(), 1);
        QCOMPARE(jsonOf(before).value(QStringLiteral("config")).toString(), config);
        QCOMPARE(miner(before).value(QStringLiteral("paused")).toBool(true), false);

        const Run paused = runIdlegpu(
            {QStringLiteral("--pause"), QStringLiteral("miner"), QStringLiteral("--for"), QStringLiteral("1h")}, false,
            true);
        QVERIFY2(paused.exitCode == 0, qPrintable(paused.err + log()));
        QVERIFY2(paused.out.contains(QStringLiteral("Paused miner [process-miner]")), qPrintable(paused.out));
        Run during;
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         during = runIdlegpu({QStringLiteral("--status"), QStringLiteral("--json")}, false, true);
                         return miner(during).value(QStringLiteral("paused")).toBool();
                     },
                     5000),
                 qPrintable(during.out));
        const QJsonValue until = jsonOf(during).value(QStringLiteral(
            "pause"))[QStringLiteral("workloads")][QStringLiteral("process-miner")][QStringLiteral("until")];
        QVERIFY2(until.isString(), qPrintable(during.out)); // an hour from now, not open-ended
        const Run text = runIdlegpu({QStringLiteral("--status")}, false, true);
        QVERIFY2(text.out.startsWith(QStringLiteral("From the idlegpu service on your session bus.\n")),
                 qPrintable(text.out));
        QVERIFY2(text.out.contains(QStringLiteral("Workload miner [process-miner]"))
                     && text.out.contains(QStringLiteral("paused until 2")),
                 qPrintable(text.out));

        QCOMPARE(runIdlegpu({QStringLiteral("--resume"), QStringLiteral("process-nosuch")}, false, true).exitCode, 1);
        const Run resumed = runIdlegpu({QStringLiteral("--resume")}, false, true);
        QVERIFY2(resumed.exitCode == 0, qPrintable(resumed.err));
        Run after;
        QVERIFY2(QTest::qWaitFor(
                     [&] {
                         after = runIdlegpu({QStringLiteral("--status"), QStringLiteral("--json")}, false, true);
                         return !miner(after).value(QStringLiteral("paused")).toBool(true);
                     },
                     5000),
                 qPrintable(after.out));

        TestSupport::terminateAndWait(service);
        QDBusConnection::disconnectFromBus(QStringLiteral("watch-real"));
        QCOMPARE(runIdlegpu({QStringLiteral("--pause")}, false, true).exitCode, 3); // gone with it
    }

    // Options that do not go together, a duration that does not read: exit 2 with the reason, before any call.
    void usageErrors_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("said");
        QTest::newRow("--for without --pause") << QStringList{"--for", "1h"} << "--for goes with --pause.";
        QTest::newRow("--for with --resume") << QStringList{"--resume", "--for", "1h"} << "--for goes with --pause.";
        QTest::newRow("--for with --status") << QStringList{"--status", "--for", "1h"} << "--for goes with --pause.";
        QTest::newRow("a bad duration") << QStringList{"--pause", "--for", "5x"} << "\"5x\" is not a duration";
        QTest::newRow("a bare number") << QStringList{"--pause", "--for", "90"} << "\"90\" is not a duration";
        QTest::newRow("over 30 days") << QStringList{"--pause", "--for", "31d"} << "at most 30 days";
        QTest::newRow("two workloads") << QStringList{"--pause", "miner", "boinc"} << "Name one workload";
        QTest::newRow("a workload with --status") << QStringList{"--status", "miner"} << "Unexpected argument: miner";
        QTest::newRow("--pause and --resume") << QStringList{"--pause", "--resume"} << "Choose one of";
        QTest::newRow("--json with --pause") << QStringList{"--pause", "--json"} << "--json goes with --status.";
        QTest::newRow("--config with --pause") << QStringList{"--pause", "-c", "/x.conf"} << "leave out --config";
        QTest::newRow("an id too long") << QStringList{"--resume", QString(257, QLatin1Char('a'))}
                                        << "at most 256 bytes";
    }
    void usageErrors()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, said);
        FakeIdlegpuService service;
        QString why;
        QVERIFY2(service.start(m_session.address(), QStringLiteral("fake-session"), &why), qPrintable(why));
        service.setState(serviceState(QString()));
        const Run run = runIdlegpu(arguments);
        QCOMPARE(run.exitCode, 2);
        QVERIFY2(run.err.contains(said), qPrintable(run.err));
        QVERIFY(service.calls().isEmpty());
    }

    // GNU's words for an option that does not parse, on stderr, with exit status 2 and nothing on stdout.
    void unknownOptionIsGnuStyle_data()
    {
        QTest::addColumn<QStringList>("arguments");
        QTest::addColumn<QString>("said");
        QTest::newRow("a misspelt option") << QStringList{"--stauts"}
                                           << "idlegpu: unrecognized option '--stauts'\n"
                                              "Did you mean '--status'?\n"
                                              "Try 'idlegpu --help' for more information.\n";
        QTest::newRow("nothing near") << QStringList{"--status", "--frobnicate"}
                                      << "idlegpu: unrecognized option '--frobnicate'\n"
                                         "Try 'idlegpu --help' for more information.\n";
        QTest::newRow("a letter") << QStringList{"-x"}
                                  << "idlegpu: invalid option -- 'x'\n"
                                     "Try 'idlegpu --help' for more information.\n";
        QTest::newRow("no value") << QStringList{"--check-config", "--config"}
                                  << "idlegpu: option '--config' requires an argument\n"
                                     "Try 'idlegpu --help' for more information.\n";
    }
    void unknownOptionIsGnuStyle()
    {
        QFETCH(QStringList, arguments);
        QFETCH(QString, said);
        const Run run = runIdlegpu(arguments, false, false);
        QCOMPARE(run.exitCode, 2);
        QCOMPARE(run.err, said);
        QCOMPARE(run.out, QString());
    }

    // --help names the program as a user types it, lists idlegpu's options with --help and --version last, and none
    // of Qt's own.
    void helpText()
    {
        const Run run = runIdlegpu({QStringLiteral("--help")}, false, false);
        QCOMPARE(run.exitCode, 0);
        QVERIFY2(run.out.startsWith(QStringLiteral("Usage: idlegpu [options] [WORKLOAD]\n")), qPrintable(run.out));
        QVERIFY2(!run.out.contains(QStringLiteral(IDLEGPU_BINARY)), qPrintable(run.out));
        QVERIFY2(!run.out.contains(QStringLiteral("help-all")), qPrintable(run.out));
        const qsizetype status = run.out.indexOf(QStringLiteral("  --status "));
        const qsizetype help = run.out.indexOf(QStringLiteral("  -h, --help "));
        const qsizetype version = run.out.indexOf(QStringLiteral("  -v, --version "));
        QVERIFY2(status > 0 && help > status && version > help, qPrintable(run.out));
        QVERIFY2(run.out.contains(QStringLiteral("Print this help and exit.")), qPrintable(run.out));

        const Run versionRun = runIdlegpu({QStringLiteral("--version")}, false, false);
        QCOMPARE(versionRun.exitCode, 0);
        QCOMPARE(versionRun.out, QStringLiteral("idlegpu %1\n").arg(QStringLiteral(IDLEGPU_VERSION)));
    }

    // One checker, one verdict: --check-config and the settings dialog's check (DraftRules::validate) on the same
    // workload. A program not found is a warning in both (exit 0, saving allowed); a folder that does not exist is
    // an error in both.
    void checkConfigAgreesWithTheDialog_data()
    {
        QTest::addColumn<QString>("keys");
        QTest::addColumn<QString>("field");
        QTest::addColumn<bool>("error");
        QTest::addColumn<QString>("printed");
        QTest::addColumn<QString>("shown");
        QTest::newRow("program not found")
            << "cmd = no-such-program-4711 --pool x\n"
            << "cmd" << false
            << ":3: warning: [process-miner] cmd: the program no-such-program-4711 is not found in the workload's PATH"
            << "The program “no-such-program-4711” is not found in the workload's PATH";
        QTest::newRow("folder missing") << "cmd = sh -c true\ndir = /no/such/folder\n"
                                        << "dir" << true
                                        << ":4: error: [process-miner] dir: the folder /no/such/folder does not exist"
                                        << "The folder “/no/such/folder” does not exist.";
        QTest::newRow("not executable") << "cmd = HOME/data.txt\n"
                                        << "cmd" << true
                                        << ":3: error: [process-miner] cmd: idlegpu's user may not run HOME/data.txt"
                                        << "“HOME/data.txt” is not a program the workload's user can run.";
    }
    void checkConfigAgreesWithTheDialog()
    {
        QFETCH(QString, keys);
        QFETCH(QString, field);
        QFETCH(bool, error);
        QFETCH(QString, printed);
        QFETCH(QString, shown);
        for (QString *text : {&keys, &printed, &shown})
            text->replace(QStringLiteral("HOME"), m_home.path());
        TestSupport::writeFile(m_home.filePath(QStringLiteral("data.txt")), "not a program\n");
        const QString user = userName(::geteuid());
        const QString config = TestSupport::writeFile(
            m_home.filePath(QStringLiteral("verdict.conf")),
            QStringLiteral("[process-miner]\nuser = %1\n%2").arg(user, keys).toUtf8());

        const Run check = runIdlegpu({QStringLiteral("--check-config"), QStringLiteral("--config"), config}, false,
                                     false);
        QCOMPARE(check.exitCode, error ? 1 : 0);
        QVERIFY2(check.err.contains(config + printed), qPrintable(check.err));

        const ConfigLoadResult loaded = ConfigLoader::load(config);
        QVERIFY(loaded.ok());
        const SettingsDraft draft = SettingsDraft::fromConfig(loaded.config);
        QList<SettingsProblem> problems;
        for (const SettingsProblem &problem : DraftRules::validate(draft, {0}))
            if (problem.field == field)
                problems.append(problem);
        QCOMPARE(problems.size(), 1);
        QCOMPARE(problems.first().severity, error ? SettingsProblem::Error : SettingsProblem::Warning);
        QVERIFY2(problems.first().message.contains(shown), qPrintable(problems.first().message));
    }

    // The reader's problems and the workload checks' come in one list, in the file's order; an unknown key names the
    // nearest known one.
    void checkConfigPrintsInLineOrder()
    {
        const QString config = TestSupport::writeFile(m_home.filePath(QStringLiteral("order.conf")),
                                                      "[process-miner]\n"
                                                      "gpu = 0\n"
                                                      "cmd = no-such-program-4711\n"
                                                      "dir = /no/such/folder\n"
                                                      "prioritty = idle\n"
                                                      "[gpu-all]\n"
                                                      "gpus = ALL\n"
                                                      "ignore_program = nvtop\n");
        const Run check = runIdlegpu({QStringLiteral("--check-config"), QStringLiteral("--config"), config}, false,
                                     false);
        QCOMPARE(check.exitCode, 1); // the folder
        QList<int> lines;
        static const QRegularExpression located(QStringLiteral("^.*order\\.conf:(\\d+): "));
        for (const QString &line : check.err.split(QLatin1Char('\n')))
            if (const QRegularExpressionMatch match = located.match(line); match.hasMatch())
                lines.append(match.captured(1).toInt());
        // As root the workload, naming no user, is also warned of on its section's line 1.
        lines.removeAll(1);
        QCOMPARE(lines, (QList<int>{2, 3, 4, 5, 8}));
        QVERIFY2(check.err.contains(config
                                    + QStringLiteral(":2: warning: unknown key 'gpu' in [process-miner] "
                                                     "ignored: did you mean gpus?")),
                 qPrintable(check.err));
        QVERIFY2(check.err.contains(config
                                    + QStringLiteral(":8: warning: unknown key 'ignore_program' in [gpu-all] "
                                                     "ignored: did you mean ignore_programs? Without it, the "
                                                     "built-in ignore list applies to this group's GPUs")),
                 qPrintable(check.err));
        QVERIFY2(check.err.contains(config + QStringLiteral(": one workload would not start")), qPrintable(check.err));
    }

    // A config with one bad line: --status shows the GPUs (of the file's device_root) and the problems; no
    // workload runs.
    void statusWithABadLineShowsTheGpus()
    {
        TestSupport::FakeDevRoot dev(2);
        const QString config = TestSupport::writeFile(
            m_home.filePath(QStringLiteral("bad.conf")),
            (TestSupport::defaultsSection(dev.path(), {.more = QStringLiteral("max_temperature_c = hot\n")})
             + QStringLiteral("[process-miner]\ncmd = sleep 100\n"))
                .toUtf8());
        const Run text = runIdlegpu({QStringLiteral("--status"), QStringLiteral("--config"), config}, false, false);
        QCOMPARE(text.exitCode, 1);
        QVERIFY2(text.out.contains(QStringLiteral("\nGPU 0: ")) && text.out.contains(QStringLiteral("\nGPU 1: ")),
                 qPrintable(text.out + text.err));
        QVERIFY2(text.out.contains(QStringLiteral("No workload runs: the configuration has errors")),
                 qPrintable(text.out));
        QVERIFY2(!text.out.contains(QStringLiteral("would run")), qPrintable(text.out));
        QVERIFY2(text.err.contains(QStringLiteral(": error: max_temperature_c")), qPrintable(text.err));
        QVERIFY2(text.err.contains(QStringLiteral("the configuration has errors, so no workload would run")),
                 qPrintable(text.err));

        const Run json = runIdlegpu(
            {QStringLiteral("--status"), QStringLiteral("--json"), QStringLiteral("--config"), config}, false, false);
        QCOMPARE(json.exitCode, 1);
        QCOMPARE(jsonOf(json).value(QStringLiteral("gpus")).toArray().size(), 2);
        QVERIFY(!jsonOf(json).value(QStringLiteral("config_problems")).toArray().isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestE2eCli)
#include "tst_e2e_cli.moc"
