// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// ProcView: the options of the caller's /proc from its mountinfo, and whether they show it other users' processes.
#include "bus/procview.h"

#include <QtTest>

static QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

using ProcView::HidePid;
using ProcView::MountOptions;

class TestProcView : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void parse_data()
    {
        QTest::addColumn<QByteArray>("mountinfo");
        QTest::addColumn<bool>("found");
        QTest::addColumn<int>("hidePid");
        QTest::addColumn<int>("gid"); // -1: none

        const QByteArray root = "21 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n";
        QTest::newRow("plain /proc") << root + "22 21 0:21 / /proc rw,relatime shared:12 - proc proc rw\n"
                                     << true << 0 << -1;
        QTest::newRow("no optional fields")
            << QByteArray("22 27 0:21 / /proc rw,relatime - proc proc rw") << true << 0 << -1;
        QTest::newRow("hidepid=invisible, gid") << root
                                                       + "22 21 0:21 / /proc rw,nosuid shared:12 - proc proc "
                                                         "rw,gid=27,hidepid=invisible\n"
                                                << true << 2 << 27;
        QTest::newRow("hidepid=2 (old spelling)")
            << QByteArray("22 1 0:21 / /proc rw - proc proc rw,hidepid=2\n") << true << 2 << -1;
        QTest::newRow("hidepid=noaccess")
            << QByteArray("22 1 0:21 / /proc rw - proc proc rw,hidepid=noaccess\n") << true << 1 << -1;
        QTest::newRow("hidepid=1") << QByteArray("22 1 0:21 / /proc rw - proc proc rw,hidepid=1\n") << true << 1 << -1;
        QTest::newRow("hidepid=ptraceable")
            << QByteArray("22 1 0:21 / /proc rw - proc proc hidepid=ptraceable\n") << true << 4 << -1;
        QTest::newRow("hidepid=off") << QByteArray("22 1 0:21 / /proc rw - proc proc rw,hidepid=off,subset=pid\n")
                                     << true << 0 << -1;
        QTest::newRow("an unknown hidepid is the strictest")
            << QByteArray("22 1 0:21 / /proc rw - proc proc rw,hidepid=whatever\n") << true << 2 << -1;
        QTest::newRow("the last mount at /proc hides the first")
            << QByteArray("22 1 0:21 / /proc rw - proc proc rw\n"
                          "40 22 0:40 / /proc rw - proc proc rw,hidepid=invisible\n")
            << true << 2 << -1;
        QTest::newRow("a proc elsewhere does not count")
            << QByteArray("22 1 0:21 / /proc rw - proc proc rw,hidepid=2\n"
                          "50 1 0:50 / /srv/chroot/proc rw - proc proc rw\n")
            << true << 2 << -1;
        QTest::newRow("not proc at /proc") << QByteArray("22 1 0:21 / /proc rw - tmpfs tmpfs rw\n") << false << 0 << -1;
        QTest::newRow("no /proc at all") << root << false << 0 << -1;
        QTest::newRow("an escaped mount point is not /proc")
            << QByteArray("22 1 0:21 / /proc\\040x rw - proc proc rw\n") << false << 0 << -1;
        QTest::newRow("a bad gid is none")
            << QByteArray("22 1 0:21 / /proc rw - proc proc rw,gid=x,hidepid=2\n") << true << 2 << -1;
        QTest::newRow("a line cut short") << QByteArray("22 1 0:21 / /proc rw - proc") << false << 0 << -1;
        QTest::newRow("no separator") << QByteArray("22 1 0:21 / /proc rw shared:1 proc proc rw,hidepid=2 x y") << false
                                      << 0 << -1;
        QTest::newRow("empty") << QByteArray() << false << 0 << -1;
        QTest::newRow("garbage") << QByteArray("\0\n\n \\\\\\ - - - - - - -", 21) << false << 0 << -1;
    }
    void parse()
    {
        QFETCH(QByteArray, mountinfo);
        QFETCH(bool, found);
        QFETCH(int, hidePid);
        QFETCH(int, gid);
        const MountOptions options = ProcView::parseMountInfo(mountinfo);
        QCOMPARE(options.found, found);
        QCOMPARE(int(options.hidePid), hidePid);
        QCOMPARE(options.gid ? int(*options.gid) : -1, gid);
    }

    void seesOthers()
    {
        MountOptions open;
        open.found = true;
        QVERIFY(ProcView::seesOthers(open, 1000, {}));
        MountOptions hidden = open;
        hidden.hidePid = HidePid::Invisible;
        QVERIFY(!ProcView::seesOthers(hidden, 1000, {100}));
        QVERIFY(ProcView::seesOthers(hidden, 0, {})); // root may ptrace every process
        hidden.gid = 27u;
        QVERIFY(ProcView::seesOthers(hidden, 1000, {100, 27}));
        QVERIFY(!ProcView::seesOthers(hidden, 1000, {100}));
        hidden.hidePid = HidePid::NoAccess; // ps lists nothing of theirs either
        QVERIFY(!ProcView::seesOthers(hidden, 1000, {}));
        QVERIFY(!ProcView::seesOthers(MountOptions(), 1000, {})); // unknown: the strictest
    }

    // Our own mountinfo reads, and a process that is not there reads as nothing seen.
    void readsMountInfo()
    {
        const MountOptions own = ProcView::readMountInfo(QCoreApplication::applicationPid());
        QVERIFY(own.found);
        QVERIFY(!ProcView::readMountInfo(0).found);
        QTemporaryDir empty;
        QVERIFY(!ProcView::readMountInfo(1, empty.path()).found);
    }

    // The attack: a user's own PID namespace with a /proc of her own, without hidepid (unshare -Urpf --mount-proc).
    // That mount says nothing of what she sees of the machine: it reads as nothing seen.
    void ownPidNamespaceSeesNothing()
    {
        const QString unshare = QStandardPaths::findExecutable(QStringLiteral("unshare"));
        if (unshare.isEmpty())
            QSKIP("unshare (util-linux) is not installed");
        QProcess process;
        process.start(unshare, {QStringLiteral("-Urpf"), QStringLiteral("--mount-proc"), QStringLiteral("sleep"),
                                QStringLiteral("30")});
        if (!process.waitForStarted())
            QSKIP("unshare does not start");
        // unshare forks the process that is PID 1 of the new namespace: its child, in ours.
        const QString children = QStringLiteral("/proc/%1/task/%1/children").arg(process.processId());
        QByteArray inner;
        QTRY_VERIFY_WITH_TIMEOUT(
            !(inner = readAll(children).trimmed()).isEmpty() || process.state() != QProcess::Running, 5000);
        if (inner.isEmpty())
            QSKIP(qPrintable(QStringLiteral("no user and PID namespace here: %1")
                                 .arg(QString::fromLocal8Bit(process.readAllStandardError()))));
        const qint64 pid = inner.split(' ').value(0).toLongLong();
        // Its mountinfo has a proc at /proc, without hidepid, once its --mount-proc is done.
        QTRY_VERIFY_WITH_TIMEOUT(ProcView::parseMountInfo(readAll(QStringLiteral("/proc/%1/mountinfo").arg(pid))).found,
                                 5000);
        QVERIFY(!ProcView::readMountInfo(pid).found);
        process.kill();
        process.waitForFinished();
    }
};

QTEST_GUILESS_MAIN(TestProcView)
#include "tst_procview.moc"
