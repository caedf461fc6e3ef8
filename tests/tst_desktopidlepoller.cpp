// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// DesktopIdlePoller against fake desktops (GNOME Mutter's IdleMonitor, KDE's ScreenSaver) on a private session bus.
#include "privatebus.h"
#include "tray/desktopidlepoller.h"

#include <QDBusConnection>
#include <QSignalSpy>
#include <QtTest>

#include <memory>

namespace {
constexpr int kTimeoutMs = 5000;
const QString kMutterService = QStringLiteral("org.gnome.Mutter.IdleMonitor");
const QString kMutterPath = QStringLiteral("/org/gnome/Mutter/IdleMonitor/Core");
const QString kKdeService = QStringLiteral("org.freedesktop.ScreenSaver");
const QString kKdePath = QStringLiteral("/ScreenSaver");
} // namespace

class FakeMutterIdleMonitor : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.gnome.Mutter.IdleMonitor")
public:
    qulonglong idleMs = 0;
public Q_SLOTS:
    qulonglong GetIdletime() { return idleMs; }
};

// An IdleMonitor that answers the wrong type.
class GarbageMutterIdleMonitor : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.gnome.Mutter.IdleMonitor")
public Q_SLOTS:
    QString GetIdletime() { return QStringLiteral("a while"); }
};

// Answers as Plasma 5.27's ksmserver does: the idle time in milliseconds (the freedesktop spec says seconds).
class FakeKdeScreenSaver : public QObject
{
    Q_OBJECT
    Q_CLASSINFO("D-Bus Interface", "org.freedesktop.ScreenSaver")
public:
    uint idleMs = 0;
    bool locked = false;
public Q_SLOTS:
    uint GetSessionIdleTime() { return idleMs; }
    bool GetActive() { return locked; }
};

class TestDesktopIdlePoller : public QObject
{
    Q_OBJECT

private:
    PrivateBus m_bus;
    QDBusConnection m_desktop{QString()};
    FakeClock m_clock{5'000'000};

    // Offers `object` as `service` at `path` on the fake desktop's connection.
    bool offer(const QString &service, const QString &path, QObject *object)
    {
        return m_desktop.registerObject(path, object, QDBusConnection::ExportAllSlots)
               && m_desktop.registerService(service);
    }
    void withdraw(const QString &service, const QString &path)
    {
        m_desktop.unregisterService(service);
        m_desktop.unregisterObject(path);
    }
    static DesktopIdleReport lastReport(const QSignalSpy &spy) { return spy.last().first().value<DesktopIdleReport>(); }

private Q_SLOTS:
    void initTestCase()
    {
        QString why;
        if (!m_bus.start(&why))
            QSKIP(qPrintable(why));
        qputenv("DBUS_SESSION_BUS_ADDRESS", m_bus.address().toUtf8());
        qputenv("XDG_SESSION_ID", "4");
        m_desktop = QDBusConnection::connectToBus(m_bus.address(), QStringLiteral("fake-desktop"));
        QVERIFY(m_desktop.isConnected());
    }
    void cleanup()
    {
        withdraw(kMutterService, kMutterPath);
        withdraw(kKdeService, kKdePath);
    }

    void gnomeAnswers()
    {
        FakeMutterIdleMonitor mutter;
        mutter.idleMs = 42'000;
        QVERIFY(offer(kMutterService, kMutterPath, &mutter));
        DesktopIdlePoller poller(&m_clock);
        QSignalSpy reported(&poller, &DesktopIdlePoller::reported);
        poller.setEnabled(true);
        QTRY_VERIFY_WITH_TIMEOUT(!reported.isEmpty(), kTimeoutMs);
        const DesktopIdleReport report = lastReport(reported);
        QVERIFY(report.answered);
        QCOMPARE(report.source, QStringLiteral("GNOME"));
        QCOMPARE(report.idleSinceMs, m_clock.nowMs() - 42'000);
        QVERIFY(!report.locked);
        QCOMPARE(report.sessionId, QStringLiteral("4"));
        QCOMPARE(report.uid, uint(::getuid()));
    }

    void kdeAnswersWithItsLock()
    {
        FakeKdeScreenSaver kde;
        kde.idleMs = 7250;
        kde.locked = true;
        QVERIFY(offer(kKdeService, kKdePath, &kde));
        DesktopIdlePoller poller(&m_clock);
        QSignalSpy reported(&poller, &DesktopIdlePoller::reported);
        poller.setEnabled(true);
        QTRY_VERIFY_WITH_TIMEOUT(!reported.isEmpty(), kTimeoutMs);
        const DesktopIdleReport report = lastReport(reported);
        QVERIFY(report.answered);
        QCOMPARE(report.source, QStringLiteral("KDE"));
        QCOMPARE(report.idleSinceMs, m_clock.nowMs() - 7250);
        QVERIFY(report.locked);
    }

    void garbageFromOneSourceFallsToTheNext()
    {
        GarbageMutterIdleMonitor mutter;
        FakeKdeScreenSaver kde;
        kde.idleMs = 3000;
        QVERIFY(offer(kMutterService, kMutterPath, &mutter));
        QVERIFY(offer(kKdeService, kKdePath, &kde));
        DesktopIdlePoller poller(&m_clock);
        QSignalSpy reported(&poller, &DesktopIdlePoller::reported);
        poller.setEnabled(true);
        QTRY_VERIFY_WITH_TIMEOUT(!reported.isEmpty(), kTimeoutMs);
        QCOMPARE(lastReport(reported).source, QStringLiteral("KDE"));
        QVERIFY(!lastReport(reported).locked);
    }

    // Without a desktop (and not on X11: tests run offscreen) nothing answers: logind's word alone.
    void nothingAnswers()
    {
        DesktopIdlePoller poller(&m_clock);
        QSignalSpy reported(&poller, &DesktopIdlePoller::reported);
        poller.setEnabled(true);
        QTRY_VERIFY_WITH_TIMEOUT(!reported.isEmpty(), kTimeoutMs);
        QVERIFY(!lastReport(reported).answered);
    }

    // The source that answered is asked again; once it is gone, the others are.
    void followsTheDesktopThatAnswers()
    {
        FakeMutterIdleMonitor mutter;
        mutter.idleMs = 1000;
        QVERIFY(offer(kMutterService, kMutterPath, &mutter));
        DesktopIdlePoller poller(&m_clock);
        QSignalSpy reported(&poller, &DesktopIdlePoller::reported);
        poller.setEnabled(true);
        QTRY_VERIFY_WITH_TIMEOUT(!reported.isEmpty(), kTimeoutMs);
        QCOMPARE(lastReport(reported).source, QStringLiteral("GNOME"));

        withdraw(kMutterService, kMutterPath);
        FakeKdeScreenSaver kde;
        kde.idleMs = 9000;
        QVERIFY(offer(kKdeService, kKdePath, &kde));
        reported.clear();
        poller.poll();
        QTRY_VERIFY_WITH_TIMEOUT(!reported.isEmpty(), kTimeoutMs);
        QCOMPARE(lastReport(reported).source, QStringLiteral("KDE"));
        QCOMPARE(lastReport(reported).idleSinceMs, m_clock.nowMs() - 9000);
    }

    // Off: one report that nothing answers, so that the monitor drops the last answer; then no more asking.
    void turnedOffReportsNothingAndStops()
    {
        FakeMutterIdleMonitor mutter;
        QVERIFY(offer(kMutterService, kMutterPath, &mutter));
        DesktopIdlePoller poller(&m_clock);
        QSignalSpy reported(&poller, &DesktopIdlePoller::reported);
        poller.setEnabled(true);
        QTRY_VERIFY_WITH_TIMEOUT(!reported.isEmpty(), kTimeoutMs);
        reported.clear();
        poller.setEnabled(false);
        QCOMPARE(reported.size(), 1);
        QVERIFY(!lastReport(reported).answered);
        QVERIFY(!poller.isEnabled());
    }
};

QTEST_GUILESS_MAIN(TestDesktopIdlePoller)
#include "tst_desktopidlepoller.moc"
