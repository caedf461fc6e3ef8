// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The folder of a configuration's state (ConfigStateFolder) for a root idlegpu:
//  - the system unit's config keeps the state folder itself; any other config gets configs/<id>/, 0700, root's, with
//    config-path naming the config; two configs get two folders, two paths to one file one folder;
//  - a state folder in a place every user can write (a sticky folder such as /tmp, as $STATE_DIRECTORY or
//    $XDG_STATE_HOME may name): what alice plants at configs/, at the config's folder or at the state folder itself (a
//    link to a folder of hers, a folder of hers, a file) is refused, never followed, and nothing lands in her folder;
//    a configs/ folder of root's that others can write is refused too.
// Needs root and a second user; skips with the reason where they are not given.
#include "config/configstatefolder.h"
#include "scopedenv.h"
#include "testsupport.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <sys/stat.h>
#include <unistd.h>

using namespace TestSupport;

class TestSecStateFolder : public QObject
{
    Q_OBJECT

private:
    std::unique_ptr<QTemporaryDir> m_dir;

    // A folder every user can write and only an entry's owner can remove, as /tmp.
    QString stickyFolder(const QString &name) const
    {
        const QString path = m_dir->filePath(name);
        QDir().mkpath(path);
        ::chmod(QFile::encodeName(path).constData(), 01777);
        return path;
    }
    QString config(const QString &name) const
    {
        return writeFile(m_dir->filePath(QStringLiteral("configs-of-root/") + name), "[defaults]\n");
    }

private Q_SLOTS:
    void init()
    {
        if (::geteuid() != 0)
            QSKIP("needs root: the state folder of a root idlegpu");
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        ::chmod(QFile::encodeName(m_dir->path()).constData(), 0755); // alice needs a way in
    }

    void eachConfigItsOwnPrivateFolder()
    {
        const QString base = stickyFolder(QStringLiteral("state"));
        const ScopedEnv state("STATE_DIRECTORY", QFile::encodeName(base));
        QCOMPARE(ConfigStateFolder::pathFor(QStringLiteral("/etc/idlegpu/idlegpu.conf")), base);

        const QString a = config(QStringLiteral("a.conf"));
        const QString b = config(QStringLiteral("b.conf"));
        const SecureFile::Opened first = ConfigStateFolder::prepare(a);
        const SecureFile::Opened second = ConfigStateFolder::prepare(b);
        QVERIFY2(first.ok(), qPrintable(first.error));
        QVERIFY2(second.ok(), qPrintable(second.error));
        QVERIFY(first.path != second.path);
        QCOMPARE(first.path, ConfigStateFolder::pathFor(a));
        QVERIFY(first.path.startsWith(base + QStringLiteral("/configs/")));
        for (const QString &folder : {base + QStringLiteral("/configs"), first.path, second.path}) {
            const QFileInfo info(folder);
            QVERIFY2(info.isDir() && !info.isSymLink() && info.ownerId() == 0, qPrintable(folder));
            QCOMPARE(modeOf(folder), 0700);
        }
        QCOMPARE(readFileOrEmpty(first.path + QStringLiteral("/config-path")),
                 QFileInfo(a).canonicalFilePath().toUtf8() + '\n');
        QCOMPARE(modeOf(first.path + QStringLiteral("/config-path")), 0600);

        // Another path to the same file: the same state.
        const QString alias = m_dir->filePath(QStringLiteral("alias.conf"));
        QVERIFY(QFile::link(a, alias));
        QCOMPARE(ConfigStateFolder::pathFor(alias), first.path);
    }

    void plantedThingsRefused_data()
    {
        QTest::addColumn<QString>("variable"); // what names the state folder
        QTest::addColumn<QString>("plant"); // alice's (or root's) shell lines; $S the state folder, $A alice's folder,
                                            // $C the config's folder
        QTest::addColumn<bool>("asAlice");
        QTest::addColumn<QString>("refusal");
        QTest::newRow("alice's link at configs")
            << "STATE_DIRECTORY"
            << "ln -s \"$A\" \"$S/configs\"" << true << "a link or a file is in its place";
        QTest::newRow("alice's folder at configs") << "STATE_DIRECTORY"
                                                   << "mkdir -m 777 \"$S/configs\"" << true << "its owner is uid";
        QTest::newRow("alice's file at configs")
            << "STATE_DIRECTORY"
            << "touch \"$S/configs\"" << true << "a link or a file is in its place";
        QTest::newRow("alice's link at the config's folder")
            << "STATE_DIRECTORY"
            << "mkdir -m 700 \"$S/configs\" && ln -s \"$A\" \"$C\" && chown -h nobody \"$C\"" << false
            << "a link or a file is in its place";
        QTest::newRow("root's configs open to all")
            << "STATE_DIRECTORY"
            << "mkdir -m 777 \"$S/configs\"" << false << "others may have put things in it";
        QTest::newRow("alice's link at the state folder") << "XDG_STATE_HOME"
                                                          << "ln -s \"$A\" \"$S/idlegpu\"" << true << "";
    }
    void plantedThingsRefused()
    {
        QFETCH(QString, variable);
        QFETCH(QString, plant);
        QFETCH(bool, asAlice);
        QFETCH(QString, refusal);
        TemporaryUser alice;
        if (!alice.valid())
            QSKIP(qPrintable(alice.skipReason()));
        const QString shared = stickyFolder(QStringLiteral("shared"));
        const QString aliceFolder = alice.home() + QStringLiteral("/catch");
        QCOMPARE(alice.run(QStringLiteral("mkdir -m 777 '%1'").arg(aliceFolder)), 0);
        const ScopedEnv unsetState("STATE_DIRECTORY", QByteArray());
        const ScopedEnv state(qPrintable(variable), QFile::encodeName(shared));
        const QString configPath = config(QStringLiteral("other.conf"));
        const QString configFolder = ConfigStateFolder::pathFor(configPath);

        const QString script = QStringLiteral("S='%1' A='%2' C='%3'; %4").arg(shared, aliceFolder, configFolder, plant);
        if (asAlice)
            QCOMPARE(alice.run(script), 0);
        else
            QCOMPARE(QProcess::execute(QStringLiteral("sh"), {QStringLiteral("-c"), script}), 0);

        const SecureFile::Opened opened = ConfigStateFolder::prepare(configPath);
        QVERIFY2(!opened.ok(), qPrintable(QStringLiteral("prepared %1").arg(opened.path)));
        QVERIFY2(opened.error.contains(refusal), qPrintable(opened.error));
        QVERIFY2(QDir(aliceFolder).entryList(QDir::AllEntries | QDir::NoDotAndDotDot | QDir::Hidden).isEmpty(),
                 "something was made in alice's folder");
        QCOMPARE(modeOf(aliceFolder), 0777); // nothing chmodded through her link
        QCOMPARE(QFileInfo(aliceFolder).ownerId(), uint(alice.uid()));
    }
};

QTEST_GUILESS_MAIN(TestSecStateFolder)
#include "tst_sec_statefolder.moc"
