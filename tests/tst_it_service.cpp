// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// idlegpu under systemd's Type=notify and WatchdogSec=, with the test as the service manager: a Unix datagram socket
// of its own in NOTIFY_SOCKET. The ServiceNotifier alone (the environment, abstract sockets, a watchdog fed from a
// thread whose event loop the test blocks), then the real binary: READY=1 after its first scan, WATCHDOG=1 while it
// lives, none while it is stopped, STOPPING=1 on SIGTERM, and nothing of this in a workload's environment; and the
// system unit's capabilities, which must leave idlegpu able to do its job as root.
#include "servicenotifier.h"
#include "testsupport.h"

#include <QFile>
#include <QProcess>
#include <QSemaphore>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QThread>
#include <QtTest>

#include <cerrno>
#include <cstring>

#include <signal.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

using namespace TestSupport;

namespace {

// The service manager's end: a datagram socket bound to a path, or to an abstract name given as "@name".
class NotifyReceiver
{
public:
    explicit NotifyReceiver(const QByteArray &name) : m_name(name)
    {
        m_fd = ::socket(AF_UNIX, SOCK_DGRAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
        sockaddr_un address{};
        address.sun_family = AF_UNIX;
        std::memcpy(address.sun_path, name.constData(), size_t(name.size()));
        const bool abstract = name.startsWith('@');
        if (abstract)
            address.sun_path[0] = '\0';
        const auto length = socklen_t(offsetof(sockaddr_un, sun_path) + size_t(name.size()) + (abstract ? 0 : 1));
        m_bound = m_fd >= 0 && ::bind(m_fd, reinterpret_cast<const sockaddr *>(&address), length) == 0;
    }
    ~NotifyReceiver()
    {
        if (m_fd >= 0)
            ::close(m_fd);
    }
    bool bound() const { return m_bound; }
    QByteArray name() const { return m_name; }

    // Every datagram received since the last call, in order.
    QList<QByteArray> take()
    {
        QList<QByteArray> messages;
        char buffer[4096];
        for (;;) {
            const ssize_t n = ::recv(m_fd, buffer, sizeof buffer, 0);
            if (n < 0)
                break;
            messages.append(QByteArray(buffer, int(n)));
        }
        m_all += messages;
        return messages;
    }
    // Every datagram received so far.
    const QList<QByteArray> &all()
    {
        take();
        return m_all;
    }
    qsizetype count(const QByteArray &message)
    {
        qsizetype n = 0;
        for (const QByteArray &received : all())
            n += received.split('\n').count(message);
        return n;
    }
    QByteArray first(const QByteArray &prefix)
    {
        for (const QByteArray &received : all())
            if (received.startsWith(prefix))
                return received;
        return QByteArray();
    }

private:
    QByteArray m_name;
    int m_fd = -1;
    bool m_bound = false;
    QList<QByteArray> m_all;
};

qsizetype countIn(const QList<QByteArray> &messages, const QByteArray &message)
{
    qsizetype n = 0;
    for (const QByteArray &received : messages)
        n += received.split('\n').count(message);
    return n;
}

// The process state letter of /proc/<pid>/stat ('T' once SIGSTOP took effect).
char processState(qint64 pid)
{
    QFile stat(QStringLiteral("/proc/%1/stat").arg(pid));
    if (!stat.open(QIODevice::ReadOnly))
        return '?';
    const QByteArray text = stat.readAll();
    const qsizetype end = text.lastIndexOf(')');
    return end >= 0 && end + 2 < text.size() ? text.at(end + 2) : '?';
}

constexpr int kWatchdogUsec = 400'000; // pings every 200 ms
constexpr int kQuietMs = 1200;         // six ping periods

} // namespace

class TestService : public QObject
{
    Q_OBJECT

private:
    static void setNotifyEnvironment(const QByteArray &socket, const QByteArray &usec, const QByteArray &pid)
    {
        qputenv("NOTIFY_SOCKET", socket);
        if (usec.isNull())
            qunsetenv("WATCHDOG_USEC");
        else
            qputenv("WATCHDOG_USEC", usec);
        if (pid.isNull())
            qunsetenv("WATCHDOG_PID");
        else
            qputenv("WATCHDOG_PID", pid);
    }

    std::unique_ptr<QProcess> startHeadless(const QStringList &arguments, const QTemporaryDir &dir,
                                            const NotifyReceiver &receiver)
    {
        auto process = std::make_unique<QProcess>();
        process->setProgram(QStringLiteral(IDLEGPU_BINARY));
        process->setArguments(arguments);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), dir.path()); // its single-instance lock
        env.insert(QStringLiteral("XDG_STATE_HOME"), dir.path());  // its ledger
        env.insert(QStringLiteral("NOTIFY_SOCKET"), QString::fromLocal8Bit(receiver.name()));
        env.insert(QStringLiteral("WATCHDOG_USEC"), QString::number(kWatchdogUsec));
        env.remove(QStringLiteral("WATCHDOG_PID")); // systemd sets it only where the pid is known in advance
        process->setProcessEnvironment(env);
        process->setProcessChannelMode(QProcess::MergedChannels);
        process->start();
        return process;
    }

private Q_SLOTS:
    void init()
    {
        qunsetenv("NOTIFY_SOCKET");
        qunsetenv("WATCHDOG_USEC");
        qunsetenv("WATCHDOG_PID");
    }

    void withoutNotifySocketNothingIsSent()
    {
        const ServiceNotifier notifier = ServiceNotifier::fromEnvironment();
        QVERIFY(!notifier.active());
        QCOMPARE(notifier.watchdogTimeout().count(), 0);
        QVERIFY(!notifier.notify("READY=1"));
    }

    void takesTheEnvironmentAndSends_data()
    {
        QTest::addColumn<bool>("abstract");
        QTest::newRow("path") << false;
        QTest::newRow("abstract") << true;
    }
    void takesTheEnvironmentAndSends()
    {
        QFETCH(bool, abstract);
        QTemporaryDir dir;
        const QByteArray name = abstract ? QByteArray("@idlegpu-test-notify-") + QByteArray::number(::getpid())
                                         : dir.filePath(QStringLiteral("notify")).toLocal8Bit();
        NotifyReceiver receiver(name);
        QVERIFY(receiver.bound());
        setNotifyEnvironment(name, "400000", QByteArray::number(::getpid()));

        const ServiceNotifier notifier = ServiceNotifier::fromEnvironment();
        QVERIFY(notifier.active());
        QCOMPARE(notifier.watchdogTimeout(), std::chrono::microseconds(400'000));
        // Gone from the environment: neither the reaper nor a workload inherits them.
        QVERIFY(!qEnvironmentVariableIsSet("NOTIFY_SOCKET"));
        QVERIFY(!qEnvironmentVariableIsSet("WATCHDOG_USEC"));
        QVERIFY(!qEnvironmentVariableIsSet("WATCHDOG_PID"));

        notifier.ready(QStringLiteral("2 GPU(s)\nsecond line"));
        notifier.setStatus(QStringLiteral("busy"));
        notifier.stopping();
        QTRY_COMPARE_WITH_TIMEOUT(receiver.all().size(), 3, 2000);
        QCOMPARE(receiver.all().at(0), QByteArray("READY=1\nSTATUS=2 GPU(s) second line"));
        QCOMPARE(receiver.all().at(1), QByteArray("STATUS=busy"));
        QVERIFY(receiver.all().at(2).startsWith("STOPPING=1\n"));
    }

    void watchdogForAnotherProcessOrBadValuesIsIgnored()
    {
        QTemporaryDir dir;
        const QByteArray name = dir.filePath(QStringLiteral("notify")).toLocal8Bit();
        setNotifyEnvironment(name, "400000", QByteArray::number(::getpid() + 1));
        QCOMPARE(ServiceNotifier::fromEnvironment().watchdogTimeout().count(), 0);
        setNotifyEnvironment(name, "soon", QByteArray());
        QCOMPARE(ServiceNotifier::fromEnvironment().watchdogTimeout().count(), 0);
        setNotifyEnvironment(name, "400000", QByteArray());
        QCOMPARE(ServiceNotifier::fromEnvironment().watchdogTimeout(), std::chrono::microseconds(400'000));
        setNotifyEnvironment("relative/notify", "400000", QByteArray());
        QVERIFY(!ServiceNotifier::fromEnvironment().active());
    }

    // The pings come from the event loop of the thread they are fed from (the monitor's): blocked, it sends none;
    // released, it pings again.
    void watchdogStopsWhileItsThreadIsBlocked()
    {
        QTemporaryDir dir;
        const QByteArray name = dir.filePath(QStringLiteral("notify")).toLocal8Bit();
        NotifyReceiver receiver(name);
        QVERIFY(receiver.bound());
        setNotifyEnvironment(name, QByteArray::number(kWatchdogUsec), QByteArray());
        const ServiceNotifier notifier = ServiceNotifier::fromEnvironment();

        QThread monitorThread;
        auto *monitorSide = new QObject;
        monitorSide->moveToThread(&monitorThread);
        connect(&monitorThread, &QThread::finished, monitorSide, &QObject::deleteLater);
        monitorThread.start();
        notifier.feedWatchdogFrom(monitorSide);
        QTRY_VERIFY_WITH_TIMEOUT(receiver.count("WATCHDOG=1") >= 3, 5000);

        QSemaphore blocked, release;
        QMetaObject::invokeMethod(monitorSide, [&] {
            blocked.release();
            release.acquire(); // a hung monitor: its event loop does not run
        });
        QVERIFY(blocked.tryAcquire(1, 5000));
        receiver.take();
        QTest::qWait(kQuietMs);
        QCOMPARE(countIn(receiver.take(), "WATCHDOG=1"), 0);

        release.release();
        const qsizetype before = receiver.count("WATCHDOG=1");
        QTRY_VERIFY_WITH_TIMEOUT(receiver.count("WATCHDOG=1") >= before + 2, 5000);
        monitorThread.quit();
        monitorThread.wait();
    }

    // The binary as systemd runs it: READY=1 once the first scan is done, pings while it lives, STOPPING=1 on SIGTERM.
    void headlessTellsTheServiceManager()
    {
        QTemporaryDir dir;
        FakeDevRoot dev(1);
        NotifyReceiver receiver(dir.filePath(QStringLiteral("notify")).toLocal8Bit());
        QVERIFY(receiver.bound());
        const QString environmentFile = dir.filePath(QStringLiteral("workload.env"));
        const QString config = writeFile(
            dir.filePath(QStringLiteral("idlegpu.conf")),
            (defaultsSection(dev.path())
             + QStringLiteral("[process-sleeper]\ncmd=sh -c 'env > %1.tmp && mv %1.tmp %1; exec sleep 1000'\ngpus=0\n")
                   .arg(environmentFile))
                .toUtf8());
        QFile::setPermissions(config, QFileDevice::ReadOwner | QFileDevice::WriteOwner);

        auto idlegpu = startHeadless({QStringLiteral("--headless"), QStringLiteral("--config"), config}, dir, receiver);
        QVERIFY(idlegpu->waitForStarted());
        const qint64 pid = idlegpu->processId();

        // Ready after the first scan: its status already counts the GPU.
        QTRY_VERIFY_WITH_TIMEOUT(!receiver.first("READY=1").isEmpty(), 10000);
        QVERIFY2(receiver.first("READY=1").contains("STATUS=1 GPU: "), receiver.first("READY=1").constData());
        QTRY_VERIFY_WITH_TIMEOUT(receiver.count("WATCHDOG=1") >= 3, 5000);

        // The workload runs without systemd's variables.
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(environmentFile), 10000);
        QFile environment(environmentFile);
        QVERIFY(environment.open(QIODevice::ReadOnly));
        const QByteArray workloadEnvironment = environment.readAll();
        QVERIFY2(workloadEnvironment.contains("PATH="), workloadEnvironment.constData());
        QVERIFY2(!workloadEnvironment.contains("NOTIFY_SOCKET="), workloadEnvironment.constData());
        QVERIFY2(!workloadEnvironment.contains("WATCHDOG_USEC="), workloadEnvironment.constData());

        // Stopped (as a hung process is), it sends nothing; continued, it pings again.
        QCOMPARE(::kill(pid_t(pid), SIGSTOP), 0);
        QTRY_COMPARE_WITH_TIMEOUT(processState(pid), 'T', 5000);
        receiver.take();
        QTest::qWait(kQuietMs);
        QCOMPARE(countIn(receiver.take(), "WATCHDOG=1"), 0);
        QCOMPARE(::kill(pid_t(pid), SIGCONT), 0);
        const qsizetype before = receiver.count("WATCHDOG=1");
        QTRY_VERIFY_WITH_TIMEOUT(receiver.count("WATCHDOG=1") >= before + 2, 5000);

        QCOMPARE(::kill(pid_t(pid), SIGTERM), 0);
        QTRY_VERIFY_WITH_TIMEOUT(receiver.count("STOPPING=1") == 1, 5000);
        // It may have exited already, seen by the event loop that the wait for STOPPING=1 ran.
        QVERIFY(idlegpu->state() == QProcess::NotRunning || idlegpu->waitForFinished(15000));
        QVERIFY2(idlegpu->exitStatus() == QProcess::NormalExit && idlegpu->exitCode() == 0,
                 idlegpu->readAll().constData());
        QCOMPARE(receiver.count("READY=1"), 1);
    }

    // The system unit's CapabilityBoundingSet (read from resources/idlegpu-system.service.in) and NoNewPrivileges,
    // applied with setpriv as systemd applies them to a root service: idlegpu still starts a workload as its user,
    // sees another user's job open the GPU (that user's /proc/<pid>/fd) and stops the workload.
    void unitCapabilitiesSufficeForTheJob()
    {
        TemporaryUser worker;
        if (!worker.valid())
            QSKIP(qPrintable(worker.skipReason()));
        TemporaryUser owner;
        if (!owner.valid())
            QSKIP(qPrintable(owner.skipReason()));
        const QString setpriv = QStandardPaths::findExecutable(QStringLiteral("setpriv"));
        if (setpriv.isEmpty())
            QSKIP("setpriv (util-linux) is not installed");

        QFile unit(QStringLiteral(IDLEGPU_TEST_DATA "/../../resources/idlegpu-system.service.in"));
        QVERIFY(unit.open(QIODevice::ReadOnly));
        QStringList bounding{QStringLiteral("-all")};
        for (const QByteArray &line : unit.readAll().split('\n'))
            if (line.startsWith("CapabilityBoundingSet="))
                for (const QByteArray &capability : line.mid(int(qstrlen("CapabilityBoundingSet="))).split(' '))
                    if (capability.startsWith("CAP_"))
                        bounding.append(QStringLiteral("+") + QString::fromLatin1(capability.mid(4)).toLower());
        QVERIFY2(bounding.size() > 1, "the unit names its capabilities");

        QTemporaryDir dir;
        FakeDevRoot dev(1);
        // The GPU nodes must be reachable by the job's user.
        QFile::setPermissions(dev.path(), QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner
                                              | QFileDevice::ReadOther | QFileDevice::ExeOther);
        const QString config = writeFile(
            dir.filePath(QStringLiteral("idlegpu.conf")),
            (defaultsSection(dev.path())
             + QStringLiteral("[process-sleeper]\nuser=%1\ngpus=0\n"
                              "cmd=sh -c 'id -u > \"$HOME/uid.tmp\" && echo $$ > \"$HOME/pid.tmp\" && "
                              "mv \"$HOME/uid.tmp\" \"$HOME/uid\" && mv \"$HOME/pid.tmp\" \"$HOME/pid\"; "
                              "exec sleep 1000'\n")
                   .arg(worker.name()))
                .toUtf8());
        QFile::setPermissions(config, QFileDevice::ReadOwner | QFileDevice::WriteOwner);

        QProcess idlegpu;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), dir.path());
        env.insert(QStringLiteral("XDG_STATE_HOME"), dir.path());
        idlegpu.setProcessEnvironment(env);
        idlegpu.setProcessChannelMode(QProcess::MergedChannels);
        idlegpu.start(setpriv, {QStringLiteral("--bounding-set=") + bounding.join(QLatin1Char(',')),
                                QStringLiteral("--inh-caps=-all"), QStringLiteral("--no-new-privs"), QStringLiteral("--"),
                                QStringLiteral(IDLEGPU_BINARY), QStringLiteral("--headless"), QStringLiteral("--config"),
                                config});
        QVERIFY(idlegpu.waitForStarted());

        const auto readNumber = [](const QString &path) {
            QFile file(path);
            return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed().toLongLong() : -1;
        };
        const QString uidFile = worker.home() + QStringLiteral("/uid");
        QTRY_VERIFY_WITH_TIMEOUT(QFile::exists(worker.home() + QStringLiteral("/pid")), 10000);
        QCOMPARE(readNumber(uidFile), qint64(worker.uid()));
        const qint64 workload = readNumber(worker.home() + QStringLiteral("/pid"));
        QVERIFY(processAlive(workload));

        // The owner's job opens the GPU: only CAP_SYS_PTRACE with CAP_DAC_READ_SEARCH let root see it, only CAP_KILL
        // lets root stop the workload of another user.
        QProcess job;
        job.start(setpriv, {QStringLiteral("--reuid=%1").arg(owner.uid()), QStringLiteral("--regid=%1").arg(owner.gid()),
                            QStringLiteral("--clear-groups"), QStringLiteral("--"), QStringLiteral(IDLEGPU_TEST_HOLDOPEN),
                            dev.ctl(), dev.uvm(), dev.node(0)});
        QVERIFY(job.waitForStarted());
        QTRY_VERIFY2_WITH_TIMEOUT(!processAlive(workload), "the workload was not stopped for the owner's job", 10000);
        job.kill();
        job.waitForFinished();

        ::kill(pid_t(idlegpu.processId()), SIGTERM);
        QVERIFY(idlegpu.waitForFinished(15000));
        const QByteArray log = idlegpu.readAll();
        QVERIFY2(idlegpu.exitStatus() == QProcess::NormalExit && idlegpu.exitCode() == 0, log.constData());
    }

    // A system unit whose /etc/idlegpu/idlegpu.conf is missing fails at once, names the file and never says ready
    // (exit status 1, which the unit's RestartPreventExitStatus keeps from restarting).
    void missingConfigFailsWithoutReady()
    {
        QTemporaryDir dir;
        NotifyReceiver receiver(dir.filePath(QStringLiteral("notify")).toLocal8Bit());
        QVERIFY(receiver.bound());
        const QString missing = dir.filePath(QStringLiteral("etc/idlegpu/idlegpu.conf"));
        auto idlegpu = startHeadless({QStringLiteral("--headless"), QStringLiteral("--config"), missing}, dir, receiver);
        QVERIFY(idlegpu->waitForFinished(15000));
        const QByteArray output = idlegpu->readAll();
        QCOMPARE(idlegpu->exitCode(), 1);
        QVERIFY2(output.contains(missing.toLocal8Bit()), output.constData());
        QCOMPARE(receiver.count("READY=1"), 0);
    }
};

QTEST_GUILESS_MAIN(TestService)
#include "tst_it_service.moc"
