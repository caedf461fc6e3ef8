// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The tests of ConfigFileWatcher where the config is reached through links: a link retargeted as `ln -sfn` or a
// deployment tool does it (a new link renamed over the old one), at the config's own name, in a chain of links, or at
// a folder on the way. After the retarget, an edit of the new target must bring changed().
#include "config/configwatcher.h"
#include "testsupport.h"

#include <cstdio>

using TestSupport::writeFile;

namespace {

// How long a test waits for changed() that should come, and listens for one that should not.
constexpr int kEventWaitMs = 5000;
constexpr int kQuietMs = 300;

// Points `link` at `target` as `ln -sfn` does it atomically: a new link beside it, renamed over it.
bool retarget(const QString &link, const QString &target)
{
    const QString fresh = link + QStringLiteral(".new");
    return QFile::link(target, fresh)
           && std::rename(QFile::encodeName(fresh).constData(), QFile::encodeName(link).constData()) == 0;
}

} // namespace

class TestConfigWatcher : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void init();
    void editOfThePlainFileIsSeen();
    void retargetedConfigLinkIsFollowed();
    void retargetedLinkInAChainIsFollowed();
    void retargetedFolderLinkOnTheWayIsFollowed();
    void retargetedFolderLinkInTheTargetIsFollowed();
    void linkLoopEndsTheWalk();

private:
    // Returns the folder `name` in the test's folder, made with its config.ini.
    QString configFolder(const QString &name);
    // Waits until changed() has come and the events that came with it are read, then forgets them.
    bool settled();
    // Watches `config`, points `link` at `target`, then edits `edited`, the file the config names now: that edit must
    // bring changed().
    void retargetThenEdit(const QString &config, const QString &link, const QString &target, const QString &edited);

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<ConfigFileWatcher> m_watcher;
    std::unique_ptr<QSignalSpy> m_changed;
};

void TestConfigWatcher::init()
{
    m_dir = std::make_unique<QTemporaryDir>();
    QVERIFY(m_dir->isValid());
    m_changed.reset(); // before the watcher it listens to
    m_watcher = std::make_unique<ConfigFileWatcher>();
    m_changed = std::make_unique<QSignalSpy>(m_watcher.get(), &ConfigFileWatcher::changed);
}

QString TestConfigWatcher::configFolder(const QString &name)
{
    const QString folder = m_dir->filePath(name);
    writeFile(folder + QStringLiteral("/config.ini"), "[defaults]\n");
    return folder;
}

bool TestConfigWatcher::settled()
{
    if (m_changed->isEmpty() && !m_changed->wait(kEventWaitMs))
        return false;
    QTest::qWait(kQuietMs); // the rest of the events of the same step
    m_changed->clear();
    return true;
}

void TestConfigWatcher::retargetThenEdit(const QString &config, const QString &link, const QString &target,
                                         const QString &edited)
{
    m_watcher->watch(config);
    QVERIFY(retarget(link, target));
    QVERIFY(settled());
    writeFile(edited, "[defaults]\ninterval_seconds = 5\n");
    QVERIFY(m_changed->wait(kEventWaitMs));
}

void TestConfigWatcher::editOfThePlainFileIsSeen()
{
    const QString config = configFolder(QStringLiteral("etc")) + QStringLiteral("/config.ini");
    m_watcher->watch(config);
    writeFile(config, "[defaults]\ninterval_seconds = 5\n");
    QVERIFY(m_changed->wait(kEventWaitMs));
}

void TestConfigWatcher::retargetedConfigLinkIsFollowed()
{
    const QString first = configFolder(QStringLiteral("first")) + QStringLiteral("/config.ini");
    const QString second = configFolder(QStringLiteral("second")) + QStringLiteral("/config.ini");
    const QString config = m_dir->filePath(QStringLiteral("idlegpu.conf"));
    QVERIFY(QFile::link(first, config));
    retargetThenEdit(config, config, second, second);
    if (QTest::currentTestFailed())
        return;
    QVERIFY(settled());
    writeFile(first, "[defaults]\ninterval_seconds = 7\n"); // no longer the config
    QTest::qWait(kQuietMs);
    QCOMPARE(m_changed->size(), 0);
}

void TestConfigWatcher::retargetedLinkInAChainIsFollowed()
{
    // idlegpu.conf -> links/current.conf -> first/config.ini; then links/current.conf -> second/config.ini.
    const QString first = configFolder(QStringLiteral("first")) + QStringLiteral("/config.ini");
    const QString second = configFolder(QStringLiteral("second")) + QStringLiteral("/config.ini");
    QVERIFY(QDir(m_dir->path()).mkdir(QStringLiteral("links")));
    const QString middle = m_dir->filePath(QStringLiteral("links/current.conf"));
    QVERIFY(QFile::link(first, middle));
    const QString config = m_dir->filePath(QStringLiteral("idlegpu.conf"));
    QVERIFY(QFile::link(middle, config));
    retargetThenEdit(config, middle, second, second);
}

void TestConfigWatcher::retargetedFolderLinkOnTheWayIsFollowed()
{
    // The config's own folder is a link: etc -> first; then etc -> second.
    const QString first = configFolder(QStringLiteral("first"));
    const QString second = configFolder(QStringLiteral("second"));
    const QString folderLink = m_dir->filePath(QStringLiteral("etc"));
    QVERIFY(QFile::link(first, folderLink));
    const QString config = folderLink + QStringLiteral("/config.ini");
    retargetThenEdit(config, folderLink, second, second + QStringLiteral("/config.ini"));
}

void TestConfigWatcher::retargetedFolderLinkInTheTargetIsFollowed()
{
    // idlegpu.conf -> deploy/current/config.ini with deploy/current -> v1; then deploy/current -> v2.
    const QString v1 = configFolder(QStringLiteral("deploy/v1"));
    const QString v2 = configFolder(QStringLiteral("deploy/v2"));
    const QString current = m_dir->filePath(QStringLiteral("deploy/current"));
    QVERIFY(QFile::link(v1, current));
    const QString config = m_dir->filePath(QStringLiteral("idlegpu.conf"));
    QVERIFY(QFile::link(current + QStringLiteral("/config.ini"), config));
    retargetThenEdit(config, current, v2, v2 + QStringLiteral("/config.ini"));
}

// A hostile loop of links (idlegpu.conf -> a.conf -> idlegpu.conf): watch() returns, since the walk stops after
// kMaxLinks links, and a.conf made a real file, ending the loop, is seen.
void TestConfigWatcher::linkLoopEndsTheWalk()
{
    const QString config = m_dir->filePath(QStringLiteral("idlegpu.conf"));
    const QString other = m_dir->filePath(QStringLiteral("a.conf"));
    QVERIFY(QFile::link(other, config));
    QVERIFY(QFile::link(config, other));
    m_watcher->watch(config);
    QVERIFY(QFile::remove(other));
    writeFile(other, "[defaults]\n");
    QVERIFY(m_changed->wait(kEventWaitMs));
}

QTEST_GUILESS_MAIN(TestConfigWatcher)
#include "tst_configwatcher.moc"
