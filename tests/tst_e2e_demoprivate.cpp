// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// idlegpu --demo leaves nothing behind, as root too: the real binary in the tray of a fake panel (a private session bus
// with a fake StatusNotifierWatcher, a private X display, as tst_e2e_sni), paused with a click (Activate) and ended,
// writes nothing but its own temporary folder, which it removes: no pause, ledger, log or lock in the XDG folders, in
// the runtime folder or, for root, in /var/lib/idlegpu (the state folder of every root idlegpu). Before, it kept its
// log there and took a lock in root's runtime folder.
//
// Needs dbus-daemon and Xvfb: missing, they fail the test rather than skip it, as tst_e2e_sni does.
#include "fakestatusnotifierwatcher.h"
#include "privatebus.h"
#include "testsupport.h"
#include "virtualdisplay.h"

#include <QDBusMessage>
#include <QDirIterator>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace TestSupport;

namespace {

constexpr int kTimeoutMs = 15'000;
constexpr int kWorkloadStartMs = 45'000; // the demo's start_delay_seconds (5) and a loaded CI machine

// What is under `root`, each entry with its type, size and modification time (a log appended to, a lock made and
// removed again change a folder's); "missing" where there is nothing. `scratch`, a folder whose entries may come and
// go (the demo's own under TMPDIR), is listed without its time.
QStringList snapshot(const QString &root, const QString &scratch = QString())
{
    QStringList entries;
    const auto describe = [&](const QString &path) {
        struct stat st
        {};
        if (::lstat(QFile::encodeName(path).constData(), &st) != 0)
            return QStringLiteral("%1 missing").arg(path);
        const QString what = QStringLiteral("%1 mode %2 size %3").arg(path).arg(st.st_mode, 0, 8).arg(st.st_size);
        return path == scratch ? what
                               : what + QStringLiteral(" mtime %1.%2").arg(st.st_mtim.tv_sec).arg(st.st_mtim.tv_nsec);
    };
    entries.append(describe(root));
    QDirIterator it(root, QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden | QDir::System,
                    QDirIterator::Subdirectories);
    while (it.hasNext())
        entries.append(describe(it.next()));
    entries.sort();
    return entries;
}

// The pid of a descendant of `ancestor` whose command line is `command` (its words joined by spaces, the program's
// folder left out); 0 when none.
qint64 descendantRunning(qint64 ancestor, const QByteArray &command)
{
    const QStringList pids = QDir(QStringLiteral("/proc")).entryList({QStringLiteral("[0-9]*")}, QDir::Dirs);
    for (const QString &pid : pids) {
        QByteArray line = readFileOrEmpty(QStringLiteral("/proc/%1/cmdline").arg(pid));
        line.replace('\0', ' ');
        line = line.trimmed();
        if (line != command && !line.endsWith('/' + command)) // the program as the reaper runs it: its full path
            continue;
        for (qint64 at = pid.toLongLong(); at > 1;) {
            if (at == ancestor)
                return pid.toLongLong();
            const QByteArray stat = readFileOrEmpty(QStringLiteral("/proc/%1/stat").arg(at));
            at = stat.mid(stat.lastIndexOf(')') + 2).split(' ').value(1).toLongLong(); // the ppid, after the state
        }
    }
    return 0;
}

} // namespace

class TestE2eDemoPrivate : public QObject
{
    Q_OBJECT

private:
    PrivateBus m_bus;
    VirtualDisplay m_display;
    FakeStatusNotifierWatcher m_watcher;
    QTemporaryDir m_home;
    QTemporaryDir m_output; // the demo's stdout and stderr, apart from what is watched

    QByteArray said() const { return readFileOrEmpty(m_output.filePath(QStringLiteral("demo.out"))).right(3000); }

private Q_SLOTS:
    void initTestCase()
    {
        QString why;
        QVERIFY2(m_bus.start(&why), qPrintable(why));
        QVERIFY2(m_display.start(&why), qPrintable(why));
        QVERIFY2(m_watcher.start(m_bus.address(), &why), qPrintable(why));
        QVERIFY(m_home.isValid() && m_output.isValid());
    }

    void demoPausedAndEndedLeavesNothing()
    {
        QProcessEnvironment env = trayUnderTestEnvironment(m_home.path(), m_display.display(), m_bus.address());
        QVERIFY(!env.isEmpty());
        const QString runtime = m_home.filePath(QStringLiteral("run"));
        QVERIFY(QDir().mkpath(runtime));
        QFile::setPermissions(runtime, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        env.insert(QStringLiteral("RUNTIME_DIRECTORY"), runtime); // root's lock folder
        env.remove(QStringLiteral("STATE_DIRECTORY"));
        // As root, the state folder of every root idlegpu: /var/lib/idlegpu, as `sudo idlegpu --demo` finds it.
        const QString rootState = QStringLiteral("/var/lib/idlegpu");
        if (::geteuid() == 0)
            env.remove(QStringLiteral("XDG_STATE_HOME"));
        const QString tmp = env.value(QStringLiteral("TMPDIR"));
        const QStringList homeBefore = snapshot(m_home.path(), tmp);
        const QStringList rootStateBefore = snapshot(rootState);

        QProcess demo;
        QVERIFY2(
            startIdlegpuBinary(demo, env, {QStringLiteral("--demo")}, m_output.filePath(QStringLiteral("demo.out"))),
            qPrintable(demo.errorString()));
        QTRY_VERIFY2_WITH_TIMEOUT(!m_watcher.registrations().isEmpty(), said().constData(), kTimeoutMs);
        const QString item = m_watcher.registrations().constFirst().sender;
        qint64 workload = 0;
        QTRY_VERIFY2_WITH_TIMEOUT((workload = descendantRunning(demo.processId(), "sleep 86400")) > 0,
                                  said().constData(), kWorkloadStartMs);

        // While it runs: its log is in its own folder under TMPDIR, and nothing holds a lock in the runtime folder.
        const QStringList demoFolders = QDir(tmp).entryList({QStringLiteral("idlegpu-*")}, QDir::Dirs);
        QCOMPARE(demoFolders.size(), 1);
        const QString demoFolder = tmp + QLatin1Char('/') + demoFolders.first();
        QTRY_VERIFY_WITH_TIMEOUT(!readFileOrEmpty(demoFolder + QStringLiteral("/idlegpu.log")).isEmpty(), kTimeoutMs);
        QCOMPARE(QDir(runtime).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden), QStringList());

        // A click on the tray pauses the demo, as the user did.
        const QDBusConnection panel = QDBusConnection::connectToBus(m_bus.address(), QStringLiteral("demo-panel"));
        QDBusMessage activate = QDBusMessage::createMethodCall(item, QStringLiteral("/StatusNotifierItem"),
                                                               QStringLiteral("org.kde.StatusNotifierItem"),
                                                               QStringLiteral("Activate"));
        activate.setArguments({0, 0});
        QCOMPARE(panel.call(activate, QDBus::Block, kTimeoutMs).type(), QDBusMessage::ReplyMessage);
        QTRY_VERIFY2_WITH_TIMEOUT(!processAlive(workload), "the demo's workload still runs after the click",
                                  kTimeoutMs);
        QDBusConnection::disconnectFromBus(QStringLiteral("demo-panel"));

        terminateAndWait(demo);
        QCOMPARE(demo.exitStatus(), QProcess::NormalExit);
        QCOMPARE(demo.exitCode(), 0);
        QVERIFY2(!QFileInfo::exists(demoFolder), "the demo's folder is left behind");
        QCOMPARE(snapshot(m_home.path(), tmp), homeBefore);
        QCOMPARE(snapshot(rootState), rootStateBefore);
    }
};

QTEST_GUILESS_MAIN(TestE2eDemoPrivate)
#include "tst_e2e_demoprivate.moc"
