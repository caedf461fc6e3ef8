// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "testsupport.h"
#include "config/useraccount.h"
#include "holders/ttyscanner.h"

#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

constexpr qint64 kNowMs = 1'800'000'000'000; // a fixed wall clock, milliseconds since the epoch

// Sets the access time of `path` to `ms` since the epoch.
bool setAccessTime(const QString &path, qint64 ms)
{
    timespec times[2];
    times[0].tv_sec = ms / 1000;
    times[0].tv_nsec = (ms % 1000) * 1'000'000;
    times[1].tv_sec = 0;
    times[1].tv_nsec = UTIME_OMIT;
    return ::utimensat(AT_FDCWD, QFile::encodeName(path).constData(), times, 0) == 0;
}

} // namespace

class TestTtyScanner : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void idleTimeIsNowMinusAccessTime_data();
    void idleTimeIsNowMinusAccessTime();
    void onlyNumberedTerminalsCount();
    void ownerIsReported();
    void missingFolderGivesNothing();
    void userNameOfKnownAndUnknownUids();
};

void TestTtyScanner::idleTimeIsNowMinusAccessTime_data()
{
    QTest::addColumn<qint64>("accessedMs");
    QTest::addColumn<qint64>("idleMs");
    QTest::newRow("just typed") << kNowMs << qint64(0);
    QTest::newRow("idle for 90.5 s") << kNowMs - 90'500 << qint64(90'500);
    QTest::newRow("idle for a day") << kNowMs - 86'400'000 << qint64(86'400'000);
    QTest::newRow("clock went back: never negative") << kNowMs + 5'000 << qint64(0);
}

void TestTtyScanner::idleTimeIsNowMinusAccessTime()
{
    QFETCH(qint64, accessedMs);
    QFETCH(qint64, idleMs);
    QTemporaryDir pts;
    const QString tty = TestSupport::writeFile(pts.filePath("3"), {});
    QVERIFY(setAccessTime(tty, accessedMs));
    const QList<TtySession> sessions = scanTtys(pts.path(), kNowMs);
    QCOMPARE(sessions.size(), 1);
    QCOMPARE(sessions.first().tty, tty);
    QCOMPARE(sessions.first().idleMs, idleMs);
}

void TestTtyScanner::onlyNumberedTerminalsCount()
{
    QTemporaryDir pts;
    for (const char *name : {"ptmx", "0", "12", "2", "x1", "1x", ".hidden", "-1"})
        TestSupport::writeFile(pts.filePath(name), {});
    const QList<TtySession> sessions = scanTtys(pts.path(), kNowMs);
    QStringList ttys;
    for (const TtySession &session : sessions)
        ttys.append(session.tty);
    QCOMPARE(ttys, (QStringList{pts.filePath("0"), pts.filePath("2"), pts.filePath("12")}));
}

void TestTtyScanner::ownerIsReported()
{
    QTemporaryDir pts;
    const QString mine = TestSupport::writeFile(pts.filePath("0"), {});
    const QString theirs = TestSupport::writeFile(pts.filePath("1"), {});
    const uint otherUid = 4242; // exists nowhere: its name is the number
    const bool canChown = ::geteuid() == 0;
    if (canChown)
        QCOMPARE(::chown(QFile::encodeName(theirs).constData(), otherUid, otherUid), 0);

    const QList<TtySession> sessions = scanTtys(pts.path(), kNowMs);
    QCOMPARE(sessions.size(), 2);
    QCOMPARE(sessions.at(0).tty, mine);
    QCOMPARE(sessions.at(0).uid, uint(::geteuid()));
    QCOMPARE(sessions.at(0).user, userName(::geteuid()));
    if (!canChown)
        QSKIP("giving a file to another user needs root");
    QCOMPARE(sessions.at(1).uid, otherUid);
    QCOMPARE(sessions.at(1).user, QStringLiteral("4242"));
}

void TestTtyScanner::missingFolderGivesNothing()
{
    QTemporaryDir root;
    QVERIFY(scanTtys(root.filePath("absent"), kNowMs).isEmpty());
}

void TestTtyScanner::userNameOfKnownAndUnknownUids()
{
    QCOMPARE(userName(0), QStringLiteral("root"));
    QCOMPARE(userName(3'999'999'999u), QStringLiteral("3999999999"));
    const passwd *me = ::getpwuid(::geteuid());
    QVERIFY(me);
    QCOMPARE(userName(::geteuid()), QString::fromLocal8Bit(me->pw_name));
    QCOMPARE(userName(::geteuid()), userName(::geteuid())); // cached answer is the same
}

QTEST_GUILESS_MAIN(TestTtyScanner)
#include "tst_ttyscanner.moc"
