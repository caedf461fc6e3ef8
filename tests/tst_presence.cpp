// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// Presence::combine: what logind's sessions and the tray's desktop say, in one UserPresence. A table.
#include "conditions/presence.h"

#include <QTest>

Q_DECLARE_METATYPE(std::optional<QList<LogindSession>>)
Q_DECLARE_METATYPE(DesktopIdleReport)
Q_DECLARE_METATYPE(UserPresence::State)

namespace {

constexpr uint kAlice = 1000;
constexpr uint kBob = 1001;

struct SessionBuilder
{
    LogindSession session;

    SessionBuilder(const QString &id, uint uid, const QString &type)
    {
        session.id = id;
        session.uid = uid;
        session.type = type;
        session.sessionClass = QStringLiteral("user");
    }
    SessionBuilder &idleSince(qint64 ms)
    {
        session.idle = true;
        session.idleSinceMs = ms;
        return *this;
    }
    SessionBuilder &locked()
    {
        session.locked = true;
        return *this;
    }
    SessionBuilder &remote()
    {
        session.remote = true;
        return *this;
    }
    SessionBuilder &inBackground()
    {
        session.active = false;
        return *this;
    }
    SessionBuilder &sessionClass(const QString &name)
    {
        session.sessionClass = name;
        return *this;
    }
    operator LogindSession() const { return session; }
};

SessionBuilder x11(const QString &id, uint uid = kAlice)
{
    return SessionBuilder(id, uid, QStringLiteral("x11"));
}
SessionBuilder wayland(const QString &id, uint uid = kAlice)
{
    return SessionBuilder(id, uid, QStringLiteral("wayland"));
}
SessionBuilder tty(const QString &id, uint uid = kAlice)
{
    return SessionBuilder(id, uid, QStringLiteral("tty"));
}

DesktopIdleReport desktop(const QString &source, qint64 idleSinceMs, const QString &sessionId = QString(),
                          uint uid = kAlice, bool locked = false)
{
    DesktopIdleReport report;
    report.answered = true;
    report.source = source;
    report.idleSinceMs = idleSinceMs;
    report.sessionId = sessionId;
    report.uid = uid;
    report.locked = locked;
    return report;
}

using Sessions = std::optional<QList<LogindSession>>;
using State = UserPresence::State;

} // namespace

class TestPresence : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void combine_data()
    {
        QTest::addColumn<Sessions>("logind");
        QTest::addColumn<DesktopIdleReport>("desktop");
        QTest::addColumn<State>("state");
        QTest::addColumn<qint64>("idleSinceMs"); // checked for Idle only
        QTest::addColumn<QString>("source");

        const DesktopIdleReport none;
        const QString logind = QStringLiteral("logind");
        const QString kde = QStringLiteral("KDE");
        const QString gnome = QStringLiteral("GNOME");

        // No source answers: unknown, which the policy counts as present.
        QTest::newRow("nothing answers") << Sessions() << none << State::Unknown << qint64(0) << QString();

        // logind alone.
        QTest::newRow("no session at all") << Sessions(QList<LogindSession>{}) << none << State::NoLocalSession
                                           << qint64(0) << logind;
        QTest::newRow("only an ssh session, typing")
            << Sessions({tty(QStringLiteral("5")).remote()}) << none << State::NoLocalSession << qint64(0) << logind;
        QTest::newRow("only the display manager's greeter")
            << Sessions({x11(QStringLiteral("c1"), 113).sessionClass(QStringLiteral("greeter"))}) << none
            << State::NoLocalSession << qint64(0) << logind;
        QTest::newRow("cron's background session does not count")
            << Sessions({SessionBuilder(QStringLiteral("9"), kAlice, QStringLiteral("unspecified"))
                             .sessionClass(QStringLiteral("background"))})
            << none << State::NoLocalSession << qint64(0) << logind;
        QTest::newRow("local desktop, in use") << Sessions({x11(QStringLiteral("2"))}) << none << State::Active
                                               << qint64(0) << logind;
        QTest::newRow("local desktop, idle") << Sessions({wayland(QStringLiteral("2")).idleSince(100)}) << none
                                             << State::Idle << qint64(100) << logind;
        QTest::newRow("local desktop, locked while in use")
            << Sessions({x11(QStringLiteral("2")).locked()}) << none << State::Locked << qint64(0) << logind;
        QTest::newRow("local desktop, locked and idle")
            << Sessions({x11(QStringLiteral("2")).locked().idleSince(100)}) << none << State::Locked << qint64(0)
            << logind;
        QTest::newRow("ssh session in use beside an idle desktop")
            << Sessions({x11(QStringLiteral("2")).idleSince(100), tty(QStringLiteral("5")).remote()}) << none
            << State::Idle << qint64(100) << logind;
        QTest::newRow("two desktops: one locked, one in use")
            << Sessions({x11(QStringLiteral("2")).locked(), x11(QStringLiteral("3"), kBob)}) << none << State::Active
            << qint64(0) << logind;
        QTest::newRow("two desktops: one locked, one idle")
            << Sessions({x11(QStringLiteral("2")).locked(), x11(QStringLiteral("3"), kBob).idleSince(200)}) << none
            << State::Idle << qint64(200) << logind;
        QTest::newRow("two desktops, both locked")
            << Sessions({x11(QStringLiteral("2")).locked(), wayland(QStringLiteral("3"), kBob).locked()}) << none
            << State::Locked << qint64(0) << logind;
        QTest::newRow("two idle sessions: the later input counts")
            << Sessions({x11(QStringLiteral("2")).idleSince(100), tty(QStringLiteral("4")).idleSince(400)}) << none
            << State::Idle << qint64(400) << logind;
        QTest::newRow("desktop locked, an idle text console beside it")
            << Sessions({x11(QStringLiteral("2")).locked(), tty(QStringLiteral("4")).idleSince(300)}) << none
            << State::Locked << qint64(0) << logind;
        QTest::newRow("desktop locked, someone typing on a text console")
            << Sessions({x11(QStringLiteral("2")).locked(), tty(QStringLiteral("4"))}) << none << State::Active
            << qint64(0) << logind;
        QTest::newRow("text console only, idle") << Sessions({tty(QStringLiteral("4")).idleSince(50)}) << none
                                                 << State::Idle << qint64(50) << logind;
        QTest::newRow("the seat shows another session: switched away from")
            << Sessions({x11(QStringLiteral("2")).inBackground()}) << none << State::Locked << qint64(0) << logind;
        QTest::newRow("switched from alice to bob, bob in use")
            << Sessions({x11(QStringLiteral("2")).inBackground(), x11(QStringLiteral("3"), kBob)}) << none
            << State::Active << qint64(0) << logind;

        // The tray's desktop refines its own session.
        QTest::newRow("KDE: logind says in use (no IdleHint), KDE says idle")
            << Sessions({x11(QStringLiteral("2"))}) << desktop(kde, 500, QStringLiteral("2")) << State::Idle
            << qint64(500) << kde;
        QTest::newRow("KDE: matched by uid where XDG_SESSION_ID is unknown")
            << Sessions({x11(QStringLiteral("2"))}) << desktop(kde, 500) << State::Idle << qint64(500) << kde;
        QTest::newRow("KDE: input just now") << Sessions({x11(QStringLiteral("2"))})
                                             << desktop(kde, 900, QStringLiteral("2")) << State::Idle << qint64(900)
                                             << kde;
        QTest::newRow("KDE: locked, logind has no LockedHint")
            << Sessions({x11(QStringLiteral("2"))}) << desktop(kde, 500, QStringLiteral("2"), kAlice, true)
            << State::Locked << qint64(0) << kde;
        QTest::newRow("logind's lock stands though the desktop says not")
            << Sessions({x11(QStringLiteral("2")).locked()}) << desktop(kde, 500, QStringLiteral("2")) << State::Locked
            << qint64(0) << kde;
        QTest::newRow("GNOME: the real last input, not logind's late IdleSinceHint")
            << Sessions({wayland(QStringLiteral("2")).idleSince(100)}) << desktop(gnome, 40, QStringLiteral("2"))
            << State::Idle << qint64(40) << gnome;
        QTest::newRow("desktop idle, another local session in use")
            << Sessions({x11(QStringLiteral("2")), tty(QStringLiteral("4"))}) << desktop(kde, 500, QStringLiteral("2"))
            << State::Active << qint64(0) << logind;
        QTest::newRow("desktop of a remote session does not count")
            << Sessions({x11(QStringLiteral("7")).remote()}) << desktop(kde, 900, QStringLiteral("7"))
            << State::NoLocalSession << qint64(0) << logind;
        QTest::newRow("desktop of a session logind does not list: judged beside the others")
            << Sessions({tty(QStringLiteral("4"), kBob).idleSince(10)}) << desktop(gnome, 600, QStringLiteral("99"))
            << State::Idle << qint64(600) << gnome;
        QTest::newRow("desktop alone (logind silent)")
            << Sessions() << desktop(gnome, 700) << State::Idle << qint64(700) << gnome;
        QTest::newRow("desktop alone, locked") << Sessions() << desktop(kde, 700, QString(), kAlice, true)
                                               << State::Locked << qint64(0) << kde;
        QTest::newRow("no desktop answer: logind alone")
            << Sessions({x11(QStringLiteral("2"))}) << DesktopIdleReport() << State::Active << qint64(0) << logind;
    }

    void combine()
    {
        QFETCH(Sessions, logind);
        QFETCH(DesktopIdleReport, desktop);
        QFETCH(State, state);
        QFETCH(qint64, idleSinceMs);
        QFETCH(QString, source);
        const UserPresence presence = Presence::combine(logind, desktop);
        QCOMPARE(Presence::stateName(presence.state), Presence::stateName(state));
        if (state == State::Idle)
            QCOMPARE(presence.idleSinceMs, idleSinceMs);
        QCOMPARE(presence.source, source);
    }

    void describesInWords()
    {
        UserPresence idle;
        idle.state = State::Idle;
        idle.idleSinceMs = 1000;
        idle.source = QStringLiteral("logind");
        QCOMPARE(Presence::describe(idle, 413'500), QStringLiteral("idle for 412 s (logind)"));
        QCOMPARE(Presence::describe(UserPresence(), 0), QStringLiteral("unknown: no source answers (counts as present)"));
    }
};

QTEST_APPLESS_MAIN(TestPresence)
#include "tst_presence.moc"
