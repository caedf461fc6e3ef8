// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The name squatter: on the system bus only root may own io.github.idlegpu.Idlegpu1, so that no user can pose as the
// service that others' trays and `idlegpu --pause` trust; every user may call its interface, and nothing else of the
// process that owns it. Checked on a private bus with the system bus's default-deny policy and the package's own
// policy file (tests/privatesystembus.h), with `nobody` as the local user (setpriv) and dbus-send as the client.
// Needs root (to be nobody, and root); skips without it, or without dbus-daemon, dbus-send or setpriv.
#include "bus/busnames.h"
#include "fakeidlegpuservice.h"
#include "privatesystembus.h"

#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QSignalSpy>
#include <QtTest>

#include <unistd.h>

namespace {

struct Sent
{
    int exitCode = -1;
    QString out;
    QString err;
};

} // namespace

class TestSecBusName : public QObject
{
    Q_OBJECT

    QString m_dbusSend;
    QString m_setpriv;

    // dbus-send on the bus at `address`, as `nobody` (through setpriv) or as root.
    Sent dbusSend(const QString &address, bool asNobody, const QStringList &arguments)
    {
        QProcess process;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("DBUS_SYSTEM_BUS_ADDRESS"), address);
        process.setProcessEnvironment(env);
        QStringList command{m_dbusSend, QStringLiteral("--system"), QStringLiteral("--print-reply"),
                            QStringLiteral("--reply-timeout=10000")};
        command += arguments;
        if (asNobody)
            command = QStringList{m_setpriv, QStringLiteral("--reuid=nobody"), QStringLiteral("--regid=nogroup"),
                                  QStringLiteral("--clear-groups"), QStringLiteral("--")}
                      + command;
        QSignalSpy finished(&process, &QProcess::finished);
        process.start(command.takeFirst(), command);
        // A fake service may have to answer on this thread: wait in its event loop.
        if (!finished.wait(20000)) {
            process.kill();
            process.waitForFinished();
        }
        return {process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1,
                QString::fromUtf8(process.readAllStandardOutput()), QString::fromUtf8(process.readAllStandardError())};
    }

    // RequestName(io.github.idlegpu.Idlegpu1, DoNotQueue) through dbus-send.
    Sent requestName(const QString &address, bool asNobody)
    {
        return dbusSend(address, asNobody,
                        {QStringLiteral("--dest=org.freedesktop.DBus"), QStringLiteral("/org/freedesktop/DBus"),
                         QStringLiteral("org.freedesktop.DBus.RequestName"),
                         QStringLiteral("string:") + BusNames::service, QStringLiteral("uint32:4")});
    }

    // A call to the service's object, its interface and method `member` ("org.freedesktop.DBus.Peer.Ping").
    Sent callService(const QString &address, const QString &member, const QStringList &arguments = {})
    {
        return dbusSend(address, true,
                        QStringList{QStringLiteral("--dest=") + BusNames::service, BusNames::objectPath, member}
                            + arguments);
    }

private slots:
    void initTestCase()
    {
        if (::geteuid() != 0)
            QSKIP("not root: the test runs a client as nobody and owns the name as root");
        m_dbusSend = QStandardPaths::findExecutable(QStringLiteral("dbus-send"));
        m_setpriv = QStandardPaths::findExecutable(QStringLiteral("setpriv"));
        if (m_dbusSend.isEmpty() || m_setpriv.isEmpty())
            QSKIP("dbus-send (Debian: dbus-bin) or setpriv (util-linux) is not installed");
        if (QStandardPaths::findExecutable(QStringLiteral("dbus-daemon")).isEmpty())
            QSKIP("dbus-daemon is not installed (Debian: apt-get install dbus-daemon)");
        QVERIFY2(QFileInfo::exists(QStringLiteral(IDLEGPU_BUS_POLICY)), IDLEGPU_BUS_POLICY);
    }

    // Without the package's file the system policy lets no one own the name, root included: the file is what
    // grants it, to root alone.
    void nobodyOwnsWithoutThePolicyFile()
    {
        PrivateSystemBus bus;
        QString why;
        QVERIFY2(bus.start({}, &why), qPrintable(why));
        const Sent root = requestName(bus.address(), false);
        QVERIFY2(root.exitCode != 0 && root.err.contains(QStringLiteral("AccessDenied")),
                 qPrintable(root.out + root.err));
    }

    // With it, nobody's RequestName is refused by the bus (AccessDenied), root's makes root the owner.
    void onlyRootOwnsTheName()
    {
        PrivateSystemBus bus;
        QString why;
        QVERIFY2(bus.start({QStringLiteral(IDLEGPU_BUS_POLICY)}, &why), qPrintable(why));

        const Sent squatter = requestName(bus.address(), true);
        QVERIFY2(squatter.exitCode != 0, qPrintable(squatter.out));
        QVERIFY2(squatter.err.contains(QStringLiteral("org.freedesktop.DBus.Error.AccessDenied")),
                 qPrintable(squatter.err));

        const Sent root = requestName(bus.address(), false);
        QVERIFY2(root.exitCode == 0, qPrintable(root.err));
        QVERIFY2(root.out.contains(QStringLiteral("uint32 1")), qPrintable(root.out)); // PRIMARY_OWNER
    }

    // nobody reaches the service's interface, Introspectable and Peer; any other interface of the process that owns
    // the name (Properties here, which QtDBus answers for every object) the bus refuses before it gets there.
    void othersCallTheInterfaceOnly()
    {
        PrivateSystemBus bus;
        QString why;
        QVERIFY2(bus.start({QStringLiteral(IDLEGPU_BUS_POLICY)}, &why), qPrintable(why));
        FakeIdlegpuService service;
        QVERIFY2(service.start(bus.address(), QStringLiteral("service-as-root"), &why), qPrintable(why));
        service.setState(QJsonObject{{QStringLiteral("interface_version"), 1}});

        const Sent state = callService(bus.address(), BusNames::interface + QStringLiteral(".GetState"));
        QVERIFY2(state.exitCode == 0, qPrintable(state.err));
        QVERIFY2(state.out.contains(QStringLiteral("interface_version")), qPrintable(state.out));
        QCOMPARE(service.calls(QStringLiteral("GetState")).size(), 1);

        const Sent pause = callService(bus.address(), BusNames::interface + QStringLiteral(".Pause"),
                                       {QStringLiteral("string:"), QStringLiteral("uint64:60")});
        QVERIFY2(pause.exitCode == 0, qPrintable(pause.err)); // the bus lets it through; polkit is the service's
        QCOMPARE(service.calls(QStringLiteral("Pause")).size(), 1);

        const Sent introspect = callService(bus.address(),
                                            QStringLiteral("org.freedesktop.DBus.Introspectable.Introspect"));
        QVERIFY2(introspect.exitCode == 0, qPrintable(introspect.err));
        QVERIFY2(introspect.out.contains(BusNames::interface), qPrintable(introspect.out));

        const Sent ping = callService(bus.address(), QStringLiteral("org.freedesktop.DBus.Peer.Ping"));
        QVERIFY2(ping.exitCode == 0, qPrintable(ping.err));

        const int before = service.calls().size();
        for (const QStringList &call : {QStringList{QStringLiteral("org.freedesktop.DBus.Properties.GetAll"),
                                                    QStringLiteral("string:") + BusNames::interface},
                                        QStringList{QStringLiteral("io.github.idlegpu.Idlegpu1.Private.Pause"),
                                                    QStringLiteral("string:"), QStringLiteral("uint64:60")},
                                        QStringList{QStringLiteral("org.freedesktop.DBus.Peer.GetMachineId")}}) {
            // Peer.GetMachineId is of an allowed interface: only the first two are refused by the bus.
            const Sent refused = callService(bus.address(), call.first(), call.mid(1));
            if (call.first().startsWith(QStringLiteral("org.freedesktop.DBus.Peer"))) {
                QVERIFY2(refused.exitCode == 0, qPrintable(refused.err));
                continue;
            }
            QVERIFY2(refused.exitCode != 0, qPrintable(call.first() + QStringLiteral(": ") + refused.out));
            QVERIFY2(refused.err.contains(QStringLiteral("org.freedesktop.DBus.Error.AccessDenied")),
                     qPrintable(call.first() + QStringLiteral(": ") + refused.err));
        }
        QCOMPARE(service.calls().size(), before); // nothing refused reached the service
    }
};

QTEST_GUILESS_MAIN(TestSecBusName)
#include "tst_sec_busname.moc"
