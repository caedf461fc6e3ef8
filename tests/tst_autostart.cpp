// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The files the tray keeps: the autostart entry (XDG autostart, Hidden=true honoured) and the saved pause.
#include "testsupport.h"
#include "tray/autostart.h"
#include "pausestore.h"

#include <QFile>
#include <QProcess>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QtTest>

using TestSupport::modeOf;

namespace {

QByteArray readAll(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
}

void writeAll(const QString &path, const QByteArray &contents)
{
    QDir().mkpath(QFileInfo(path).absolutePath());
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(contents);
}

const QByteArray kUserEntry = "# my own entry\n"
                              "[Desktop Entry]\n"
                              "Type=Application\n"
                              "Name=GPU idler\n"
                              "Exec=/opt/idlegpu/bin/idlegpu --config /srv/idle.conf\n"
                              "Hidden=true\n"
                              "X-KDE-autostart-after=panel\n"
                              "\n"
                              "[Desktop Action Other]\n"
                              "Hidden=true\n";

const QDateTime kWallNow(QDate(2026, 11, 5), QTime(14, 0), Qt::UTC);

} // namespace

class TestAutostart : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void cleanup();

    void pathHonoursXdgConfigHome();
    void enableWritesOurEntryDisableRemovesIt();
    void turnedOffEntries_data();
    void turnedOffEntries();
    void enablingAUserFileKeepsItsLines();
    void disablingAnEditedFileHidesIt();
    void garbageDoesNotCrash();
    void earlierBuildsEntryIsRemoved();
    void entryPassesDesktopFileValidate();
    void sessionsStartTheEntryAndSkipItWhenOff();

    void pauseRoundTripAcrossARestart();
    void pauseThatEndedWhileAwayIsGone();
    void pauseUntilResumedByHand();
    void workloadPausedForAWhile();
    void pauseFileIsPrivate();
    void pauseFromBrokenFiles_data();
    void pauseFromBrokenFiles();
    void pauseFromFileOfEarlierVersions();

private:
    QTemporaryDir *m_dir = nullptr;
    QByteArray m_savedConfigHome;
};

void TestAutostart::init()
{
    m_dir = new QTemporaryDir;
    QVERIFY(m_dir->isValid());
    m_savedConfigHome = qgetenv("XDG_CONFIG_HOME");
    qputenv("XDG_CONFIG_HOME", m_dir->filePath(QStringLiteral("config")).toUtf8());
}

void TestAutostart::cleanup()
{
    qputenv("XDG_CONFIG_HOME", m_savedConfigHome);
    delete m_dir;
    m_dir = nullptr;
}

void TestAutostart::pathHonoursXdgConfigHome()
{
    QCOMPARE(Autostart::filePath(), m_dir->filePath(QStringLiteral("config/autostart/idlegpu.desktop")));
    qputenv("XDG_CONFIG_HOME", "relative/ignored"); // the spec: only absolute paths count
    QCOMPARE(Autostart::filePath(), QDir::homePath() + QStringLiteral("/.config/autostart/idlegpu.desktop"));
}

void TestAutostart::enableWritesOurEntryDisableRemovesIt()
{
    Autostart autostart(QStringLiteral("/usr/bin/idlegpu"));
    QVERIFY(!autostart.isEnabled());
    QVERIFY(autostart.setEnabled(false)); // nothing to do

    QVERIFY2(autostart.setEnabled(true), qPrintable(autostart.errorString()));
    QVERIFY(autostart.isEnabled());
    const QByteArray written = readAll(Autostart::filePath());
    QCOMPARE(written, autostart.desktopEntry());
    QVERIFY(written.startsWith("[Desktop Entry]\n"));
    QVERIFY(written.contains("\nExec=/usr/bin/idlegpu\n"));
    QVERIFY(written.contains("\nTryExec=/usr/bin/idlegpu\n"));
    QVERIFY(written.contains("\nStartupNotify=false\n")); // no window: no busy cursor at login
    QVERIFY(written.contains("\nType=Application\n"));

    QVERIFY(autostart.setEnabled(false));
    QVERIFY(!QFile::exists(Autostart::filePath()));
    QVERIFY(!autostart.isEnabled());
}

void TestAutostart::turnedOffEntries_data()
{
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<bool>("enabled");
    QTest::newRow("plain") << QByteArray("[Desktop Entry]\nExec=idlegpu\n") << true;
    QTest::newRow("Hidden=true") << QByteArray("[Desktop Entry]\nExec=idlegpu\nHidden=true\n") << false;
    QTest::newRow("Hidden = True, spaced") << QByteArray("[Desktop Entry]\nHidden = True\n") << false;
    QTest::newRow("Hidden=false") << QByteArray("[Desktop Entry]\nHidden=false\n") << true;
    QTest::newRow("GNOME switch off") << QByteArray("[Desktop Entry]\nX-GNOME-Autostart-enabled=false\n") << false;
    QTest::newRow("Hidden in another group") << QByteArray("[Desktop Entry]\nExec=x\n[Desktop Action A]\nHidden=true\n")
                                             << true;
    QTest::newRow("the user's example") << kUserEntry << false;
}

void TestAutostart::turnedOffEntries()
{
    QFETCH(QByteArray, contents);
    QFETCH(bool, enabled);
    writeAll(Autostart::filePath(), contents);
    QCOMPARE(Autostart(QStringLiteral("idlegpu")).isEnabled(), enabled);
}

void TestAutostart::enablingAUserFileKeepsItsLines()
{
    writeAll(Autostart::filePath(), kUserEntry + "X-GNOME-Autostart-enabled=false\n");
    Autostart autostart(QStringLiteral("/usr/bin/idlegpu"));
    QVERIFY(!autostart.isEnabled());
    QVERIFY(autostart.setEnabled(true));
    QVERIFY(autostart.isEnabled());
    QCOMPARE(readAll(Autostart::filePath()), QByteArray("# my own entry\n"
                                                        "[Desktop Entry]\n"
                                                        "Type=Application\n"
                                                        "Name=GPU idler\n"
                                                        "Exec=/opt/idlegpu/bin/idlegpu --config /srv/idle.conf\n"
                                                        "X-KDE-autostart-after=panel\n"
                                                        "\n"
                                                        "[Desktop Action Other]\n"
                                                        "Hidden=true\n"
                                                        "X-GNOME-Autostart-enabled=false\n"));
}

void TestAutostart::disablingAnEditedFileHidesIt()
{
    Autostart autostart(QStringLiteral("/usr/bin/idlegpu"));
    QVERIFY(autostart.setEnabled(true));
    const QByteArray edited = autostart.desktopEntry() + "X-My-Note=keep me\n";
    writeAll(Autostart::filePath(), edited);

    QVERIFY(autostart.setEnabled(false));
    QVERIFY(!autostart.isEnabled());
    const QByteArray after = readAll(Autostart::filePath());
    QVERIFY(after.startsWith("[Desktop Entry]\nHidden=true\n"));
    QVERIFY(after.contains("X-My-Note=keep me\n"));
    QVERIFY(after.contains("Exec=/usr/bin/idlegpu\n"));

    // And back: the user's note survives the round trip.
    QVERIFY(autostart.setEnabled(true));
    QVERIFY(autostart.isEnabled());
    QCOMPARE(readAll(Autostart::filePath()), edited);
}

void TestAutostart::garbageDoesNotCrash()
{
    QByteArray garbage(300 * 1024, '\0');
    for (int i = 0; i < garbage.size(); ++i)
        garbage[i] = char((i * 7919) & 0xff);
    writeAll(Autostart::filePath(), garbage);
    Autostart autostart(QStringLiteral("idlegpu"));
    autostart.isEnabled();
    QVERIFY(autostart.setEnabled(false)); // not ours: it is kept, switched off
    QVERIFY(!autostart.isEnabled());
    QVERIFY(QFile::exists(Autostart::filePath()));
}

void TestAutostart::earlierBuildsEntryIsRemoved()
{
    writeAll(Autostart::filePath(), "[Desktop Entry]\n"
                                    "Type=Application\n"
                                    "Name=idlegpu\n"
                                    "Comment=Run idle workloads on GPUs nobody uses\n"
                                    "Comment[zh_CN]=在无人使用的 GPU 上运行空闲任务\n"
                                    "Comment[zh_TW]=在無人使用的 GPU 上執行閒置工作\n"
                                    "Exec=/usr/bin/idlegpu\n"
                                    "Icon=idlegpu\n"
                                    "Terminal=false\n"
                                    "X-GNOME-Autostart-enabled=true\n");
    Autostart autostart(QStringLiteral("/usr/bin/idlegpu"));
    QVERIFY(autostart.isEnabled());
    QVERIFY(autostart.setEnabled(false));
    QVERIFY(!QFile::exists(Autostart::filePath()));
}

// The entry as freedesktop's own validator reads it: one a desktop session accepts.
void TestAutostart::entryPassesDesktopFileValidate()
{
    const QString validator = QStandardPaths::findExecutable(QStringLiteral("desktop-file-validate"));
    if (validator.isEmpty())
        QFAIL("desktop-file-validate is missing; scripts/test installs it (desktop-file-utils)");
    for (const QString &program : {QStringLiteral("/usr/bin/idlegpu"), QStringLiteral("/opt/my tools/idlegpu")}) {
        Autostart autostart(program);
        QVERIFY(autostart.setEnabled(true));
        QProcess validate;
        validate.start(validator, {Autostart::filePath()});
        QVERIFY(validate.waitForFinished(30'000));
        const QByteArray said = validate.readAllStandardOutput() + validate.readAllStandardError();
        QVERIFY2(validate.exitCode() == 0 && said.isEmpty(), said.constData()); // not even a hint
        QVERIFY(autostart.setEnabled(false));
    }
}

// GNOME 43 and Plasma 5.27 start their autostart entries through systemd's generator: run it on our entry.
void TestAutostart::sessionsStartTheEntryAndSkipItWhenOff()
{
    const QString generator = QStringLiteral("/usr/lib/systemd/user-generators/systemd-xdg-autostart-generator");
    if (!QFileInfo(generator).isExecutable())
        QFAIL("systemd-xdg-autostart-generator is missing; scripts/test installs it (systemd)");
    const QString program = QCoreApplication::applicationFilePath(); // a file that exists, for TryExec
    const auto generatedService = [&](const QString &tag) -> QByteArray {
        const QString out = m_dir->filePath(QStringLiteral("generated-") + tag);
        QDir().mkpath(out);
        QProcess run;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_CONFIG_HOME"), m_dir->filePath(QStringLiteral("config")));
        env.insert(QStringLiteral("XDG_CONFIG_DIRS"), m_dir->filePath(QStringLiteral("no-system-entries")));
        run.setProcessEnvironment(env);
        run.start(generator, {out, out, out});
        if (!run.waitForFinished(30'000) || run.exitCode() != 0)
            return "generator failed: " + run.readAllStandardError();
        return readAll(out + QStringLiteral("/app-idlegpu@autostart.service"));
    };

    Autostart autostart(program);
    QVERIFY(autostart.setEnabled(true));
    const QByteArray service = generatedService(QStringLiteral("on"));
    QVERIFY2(service.contains("\nExecStart=:" + program.toUtf8() + "\n"), service.constData());

    QVERIFY(autostart.setEnabled(false));
    QCOMPARE(generatedService(QStringLiteral("off")), QByteArray());

    // Switched off in a file the user edited: kept, with Hidden=true, and the session skips it.
    QVERIFY(autostart.setEnabled(true));
    writeAll(Autostart::filePath(), autostart.desktopEntry() + "X-My-Note=keep me\n");
    QVERIFY(autostart.setEnabled(false));
    QVERIFY(QFile::exists(Autostart::filePath()));
    QCOMPARE(generatedService(QStringLiteral("hidden")), QByteArray());

    // The program removed: skipped rather than failing at every login (systemd tests Exec=; sessions without it,
    // gnome-session's and xfce4-session's own launchers, test TryExec=).
    QFile::remove(Autostart::filePath());
    QVERIFY(Autostart(m_dir->filePath(QStringLiteral("removed/idlegpu"))).setEnabled(true));
    QCOMPARE(generatedService(QStringLiteral("removed")), QByteArray());
}

void TestAutostart::pauseRoundTripAcrossARestart()
{
    PauseStore store(m_dir->filePath(QStringLiteral("state/idlegpu/state.ini")));
    PauseState pause;
    pause.all = true;
    pause.allUntilMs = 5'000'000 + 3'600'000; // an hour from now
    pause.workloads = {QStringLiteral("process-miner"), QStringLiteral("process-a,b=c%d")};
    QVERIFY2(store.save(pause, 5'000'000, kWallNow), qPrintable(store.errorString()));
    QVERIFY(readAll(store.filePath()).contains("until=2026-11-05T15:00:00.000Z"));

    // After a reboot the monotonic clock starts again from near zero; 20 minutes have passed on the wall.
    const PauseState loaded = PauseStore(store.filePath()).load(70'000, kWallNow.addSecs(20 * 60));
    QVERIFY(loaded.all);
    QCOMPARE(loaded.allUntilMs, 70'000 + 40 * 60'000);
    QCOMPARE(loaded.workloads, pause.workloads);
}

void TestAutostart::pauseThatEndedWhileAwayIsGone()
{
    PauseStore store(m_dir->filePath(QStringLiteral("state.ini")));
    PauseState pause;
    pause.all = true;
    pause.allUntilMs = 1'000 + 3'600'000;
    pause.workloads = {QStringLiteral("process-miner")};
    QVERIFY(store.save(pause, 1'000, kWallNow));
    const PauseState loaded = store.load(1'000, kWallNow.addSecs(2 * 3600));
    QVERIFY(!loaded.all);
    QCOMPARE(loaded.allUntilMs, 0);
    QCOMPARE(loaded.workloads, pause.workloads); // pausing one workload has no end time

    // Saved when already over: not paused either.
    QVERIFY(store.save(pause, pause.allUntilMs + 1, kWallNow));
    QVERIFY(!store.load(0, kWallNow).all);
}

// A workload paused for a while keeps its end across a restart (workloads_until); one whose end passed is resumed.
void TestAutostart::workloadPausedForAWhile()
{
    PauseStore store(m_dir->filePath(QStringLiteral("state.ini")));
    PauseState pause;
    pause.workloads = {QStringLiteral("process-miner"), QStringLiteral("process-a b,c"),
                       QStringLiteral("process-boinc")};
    pause.workloadUntilMs.insert(QStringLiteral("process-miner"), 1'000 + 3'600'000);
    pause.workloadUntilMs.insert(QStringLiteral("process-a b,c"), 1'000 + 60'000);
    QVERIFY2(store.save(pause, 1'000, kWallNow), qPrintable(store.errorString()));
    QVERIFY(readAll(store.filePath()).contains("process-miner 2026-11-05T15:00:00.000Z"));

    const PauseState loaded = store.load(500, kWallNow.addSecs(30 * 60));
    QCOMPARE(loaded.workloadUntilMs.value(QStringLiteral("process-miner")), 500 + 30 * 60'000);
    QVERIFY(!loaded.workloads.contains(QStringLiteral("process-a b,c"))); // its minute passed
    QVERIFY(loaded.workloads.contains(QStringLiteral("process-boinc")));  // until resumed
    QVERIFY(!loaded.workloadUntilMs.contains(QStringLiteral("process-boinc")));
    QVERIFY(loaded.workloadPausedAt(QStringLiteral("process-miner"), 500 + 29 * 60'000));
    QVERIFY(!loaded.workloadPausedAt(QStringLiteral("process-miner"), 500 + 30 * 60'000));

    PauseState expiring = loaded;
    QVERIFY(expiring.expireAt(500 + 30 * 60'000));
    QVERIFY(!expiring.workloads.contains(QStringLiteral("process-miner")));
    QVERIFY(expiring.workloads.contains(QStringLiteral("process-boinc")));
    QVERIFY(!expiring.expireAt(500 + 30 * 60'000));
}

void TestAutostart::pauseUntilResumedByHand()
{
    PauseStore store(m_dir->filePath(QStringLiteral("state.ini")));
    PauseState pause;
    pause.all = true;
    QVERIFY(store.save(pause, 1'000, kWallNow));
    const PauseState loaded = store.load(99, kWallNow.addDays(30));
    QVERIFY(loaded.all);
    QCOMPARE(loaded.allUntilMs, 0);
    QVERIFY(loaded.workloads.isEmpty());

    QVERIFY(store.save(PauseState(), 1'000, kWallNow));
    QVERIFY(!store.load(99, kWallNow).all);
}

void TestAutostart::pauseFileIsPrivate()
{
    const QString path = m_dir->filePath(QStringLiteral("state/idlegpu/state.ini"));
    writeAll(path, "[pause]\nall=false\n");
    QFile::setPermissions(path, QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ReadGroup
                                    | QFileDevice::ReadOther);
    PauseStore store(path);
    QVERIFY(store.save(PauseState(), 0, kWallNow));
    QCOMPARE(modeOf(path), 0600);

    const QString fresh = m_dir->filePath(QStringLiteral("new/idlegpu/state.ini"));
    QVERIFY(PauseStore(fresh).save(PauseState(), 0, kWallNow));
    QCOMPARE(modeOf(fresh), 0600);
    QCOMPARE(modeOf(QFileInfo(fresh).absolutePath()), 0700);
}

void TestAutostart::pauseFromBrokenFiles_data()
{
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<bool>("all");
    QTest::addColumn<qint64>("untilMs");
    QTest::newRow("empty") << QByteArray() << false << qint64(0);
    QTest::newRow("binary") << QByteArray("\x00\xff\x13[pause\x00]=\n=\n", 14) << false << qint64(0);
    QTest::newRow("no section") << QByteArray("all=true\n") << false << qint64(0);
    QTest::newRow("bad date: until resumed") << QByteArray("[pause]\nall=true\nuntil=tomorrow\n") << true << qint64(0);
    QTest::newRow("unknown keys skipped") << QByteArray("[pause]\ncolour=red\nall=true\n[other]\nall=false\n")
                                          << true << qint64(0);
    QTest::newRow("too big") << (QByteArray("[pause]\nall=true\n") + QByteArray(100 * 1024, ';')) << false
                             << qint64(0);
}

void TestAutostart::pauseFromBrokenFiles()
{
    QFETCH(QByteArray, contents);
    QFETCH(bool, all);
    QFETCH(qint64, untilMs);
    const QString path = m_dir->filePath(QStringLiteral("state.ini"));
    writeAll(path, contents);
    const PauseState loaded = PauseStore(path).load(1'000, kWallNow);
    QCOMPARE(loaded.all, all);
    QCOMPARE(loaded.allUntilMs, untilMs);
}

// Files written before the store used QSettings: no spaces after the commas, a comment line.
void TestAutostart::pauseFromFileOfEarlierVersions()
{
    const QString path = m_dir->filePath(QStringLiteral("state.ini"));
    writeAll(path, "; idlegpu's pause\n[pause]\nall=true\nuntil=2026-11-05T15:00:00.000Z\n"
                   "workloads=process-a%2Cb%3Dc%25d,process-miner\n");
    const PauseState loaded = PauseStore(path).load(1'000, kWallNow);
    QVERIFY(loaded.all);
    QCOMPARE(loaded.allUntilMs, 1'000 + 3'600'000);
    QCOMPARE(loaded.workloads, (QSet<QString>{QStringLiteral("process-a,b=c%d"), QStringLiteral("process-miner")}));

    writeAll(path, "[pause]\nall=false\nworkloads=process-miner\n");
    const PauseState one = PauseStore(path).load(1'000, kWallNow);
    QVERIFY(!one.all);
    QCOMPARE(one.workloads, QSet<QString>{QStringLiteral("process-miner")});
}

QTEST_MAIN(TestAutostart)
#include "tst_autostart.moc"
