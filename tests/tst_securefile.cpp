// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// SecureFile: the StrictModes rule on real files, links, FIFOs and folders. Ownership by another user is made with
// chown to an unused uid, which needs root; those rows skip without it.
#include "config/securefile.h"

#include <QDir>
#include <QFile>
#include <QTemporaryDir>
#include <QTest>

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

namespace {

constexpr uid_t kStranger = 54321; // no account needed: chown takes any uid

QByteArray encoded(const QString &path)
{
    return QFile::encodeName(path);
}

void writeText(const QString &path, const QByteArray &text, mode_t mode = 0644)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    file.write(text);
    file.close();
    QCOMPARE(::chmod(encoded(path).constData(), mode), 0);
}

QByteArray readBack(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

} // namespace

class TestSecureFile : public QObject
{
    Q_OBJECT

private slots:
    void init()
    {
        m_dir.reset(new QTemporaryDir);
        QVERIFY(m_dir->isValid());
        m_self = ::geteuid();
    }

    void opensATrustedFileAndReadsIt()
    {
        const QString path = m_dir->filePath(QStringLiteral("a.conf"));
        writeText(path, "[defaults]\n");
        SecureFile::Opened opened = SecureFile::openTrustedFile(path, m_self);
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QCOMPARE(opened.path, path);
        QString error;
        QCOMPARE(SecureFile::readAll(opened.fd.get(), 1024, &error).value_or("<failed>"), QByteArray("[defaults]\n"));
        QVERIFY(!SecureFile::readAll(opened.fd.get(), 4, &error));
        QVERIFY(error.contains(QLatin1String("larger")));
    }

    void followsALinkInATrustedFolder()
    {
        const QString target = m_dir->filePath(QStringLiteral("real.conf"));
        writeText(target, "x=1\n");
        const QString link = m_dir->filePath(QStringLiteral("sub/link.conf"));
        QVERIFY(QDir().mkpath(m_dir->filePath(QStringLiteral("sub"))));
        QVERIFY(QFile::link(QStringLiteral("../real.conf"), link));
        SecureFile::Opened opened = SecureFile::openTrustedFile(link, m_self);
        QVERIFY2(opened.ok(), qPrintable(opened.error));
        QCOMPARE(opened.path, target);
    }

    void refusesWhatOthersCanWrite_data()
    {
        QTest::addColumn<QString>("what");
        QTest::newRow("file writable by all") << "file";
        QTest::newRow("folder writable by all") << "folder";
        QTest::newRow("folder of another user") << "strange folder";
        QTest::newRow("file of another user") << "strange file";
        QTest::newRow("link in another user's folder") << "strange link";
    }

    void refusesWhatOthersCanWrite()
    {
        QFETCH(QString, what);
        if (what.startsWith(QLatin1String("strange")) && ::geteuid() != 0)
            QSKIP("giving a file to another uid needs root");
        const QString folder = m_dir->filePath(QStringLiteral("f"));
        QVERIFY(QDir().mkpath(folder));
        const QString file = folder + QStringLiteral("/a.conf");
        writeText(file, "x=1\n");
        QString path = file;
        QString blamed = file;
        if (what == QLatin1String("file")) {
            QCOMPARE(::chmod(encoded(file).constData(), 0666), 0);
        } else if (what == QLatin1String("folder")) {
            QCOMPARE(::chmod(encoded(folder).constData(), 0777), 0);
            blamed = folder;
        } else if (what == QLatin1String("strange folder")) {
            QCOMPARE(::chown(encoded(folder).constData(), kStranger, kStranger), 0);
            blamed = folder;
        } else if (what == QLatin1String("strange file")) {
            QCOMPARE(::chown(encoded(file).constData(), kStranger, kStranger), 0);
        } else { // the stranger's folder holds a link to our good file: the stranger could swap it at any time
            const QString theirs = m_dir->filePath(QStringLiteral("theirs"));
            QVERIFY(QDir().mkpath(theirs));
            QVERIFY(QFile::link(file, theirs + QStringLiteral("/link.conf")));
            QCOMPARE(::chown(encoded(theirs).constData(), kStranger, kStranger), 0);
            path = theirs + QStringLiteral("/link.conf");
            blamed = theirs;
        }
        const SecureFile::Opened opened = SecureFile::openTrustedFile(path, m_self);
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error.startsWith(blamed + QLatin1Char(' ')), qPrintable(opened.error));
        QVERIFY(opened.untrusted);
    }

    void stickyFolderIsTrustedButNotItsStrangers()
    {
        const QString sticky = m_dir->filePath(QStringLiteral("tmp"));
        QVERIFY(QDir().mkpath(sticky));
        QCOMPARE(::chmod(encoded(sticky).constData(), 01777), 0);
        const QString mine = sticky + QStringLiteral("/mine.conf");
        writeText(mine, "x=1\n");
        QVERIFY(SecureFile::openTrustedFile(mine, m_self).ok());
        if (::geteuid() != 0)
            return;
        QCOMPARE(::chown(encoded(mine).constData(), kStranger, kStranger), 0);
        QVERIFY(!SecureFile::openTrustedFile(mine, m_self).ok());
    }

    // The kernel's protected_symlinks rule, kept whatever fs.protected_symlinks says: in a sticky folder every user
    // may write (/tmp), a link is followed only when it is root's or the user's idlegpu runs as. A stranger's link
    // there, as the file or as a folder on the way, is refused naming the link; ours is followed.
    void stickyFolderFollowsOnlyTrustedLinks_data()
    {
        QTest::addColumn<bool>("strangers");
        QTest::addColumn<QString>("via"); // the file itself, a folder on the way, the file's place for a replace
        QTest::newRow("our link to a file") << false << "file";
        QTest::newRow("our link to a folder") << false << "folder";
        QTest::newRow("our link in the file's place") << false << "place";
        QTest::newRow("a stranger's link to a file") << true << "file";
        QTest::newRow("a stranger's link to a folder") << true << "folder";
        QTest::newRow("a stranger's link in the file's place") << true << "place";
    }
    void stickyFolderFollowsOnlyTrustedLinks()
    {
        QFETCH(bool, strangers);
        QFETCH(QString, via);
        if (strangers && ::geteuid() != 0)
            QSKIP("giving a link to another uid needs root");
        const QString sticky = m_dir->filePath(QStringLiteral("tmp"));
        QVERIFY(QDir().mkpath(sticky));
        QCOMPARE(::chmod(encoded(sticky).constData(), 01777), 0);
        const QString privateFolder = m_dir->filePath(QStringLiteral("private"));
        QVERIFY(QDir().mkpath(privateFolder));
        QCOMPARE(::chmod(encoded(privateFolder).constData(), 0700), 0);
        const QString secret = privateFolder + QStringLiteral("/secret.conf");
        writeText(secret, "secret=1\n", 0600);
        const QString link = sticky + QStringLiteral("/link");
        QVERIFY(QFile::link(via == QLatin1String("folder") ? privateFolder : secret, link));
        if (strangers)
            QCOMPARE(::lchown(encoded(link).constData(), kStranger, kStranger), 0);

        SecureFile::Opened opened;
        QString name;
        if (via == QLatin1String("file"))
            opened = SecureFile::openTrustedFile(link, m_self);
        else if (via == QLatin1String("folder"))
            opened = SecureFile::openTrustedFolder(link, m_self);
        else
            opened = SecureFile::openTrustedFolderOf(link, m_self, &name);
        if (!strangers) {
            QVERIFY2(opened.ok(), qPrintable(opened.error));
            QCOMPARE(opened.path, via == QLatin1String("file") ? secret : privateFolder);
            if (via == QLatin1String("place"))
                QCOMPARE(name, QStringLiteral("secret.conf"));
            return;
        }
        QVERIFY(!opened.ok());
        QVERIFY(opened.untrusted);
        QVERIFY2(opened.error.startsWith(link + QLatin1Char(' ')), qPrintable(opened.error));
        QVERIFY2(opened.error.contains(QStringLiteral("uid %1").arg(kStranger)), qPrintable(opened.error));
        QVERIFY2(opened.error.contains(QLatin1String("sticky")), qPrintable(opened.error));

        // The same link one folder deeper, under a folder of ours: refused all the same.
        const QString deeper = sticky + QStringLiteral("/ours");
        QVERIFY(QDir().mkpath(deeper));
        QCOMPARE(::rename(encoded(link).constData(), encoded(deeper + QStringLiteral("/link")).constData()), 0);
        QVERIFY(SecureFile::openTrustedFolder(deeper, m_self).ok());
        QCOMPARE(::chmod(encoded(deeper).constData(), 01777), 0);
        QVERIFY(!SecureFile::openTrustedFile(deeper + QStringLiteral("/link/secret.conf"), m_self).ok());
        QVERIFY(!SecureFile::openTrustedFile(deeper + QStringLiteral("/link"), m_self).ok());
    }

    // protected_regular's concern, for a replace: in a sticky folder others may write, a stranger's file in the
    // file's place is theirs, not replaced; and a file with a second hard link there may be anybody's file, not read.
    void stickyFolderKeepsStrangersFiles()
    {
        if (::geteuid() != 0)
            QSKIP("giving a file to another uid needs root");
        const QString sticky = m_dir->filePath(QStringLiteral("tmp"));
        QVERIFY(QDir().mkpath(sticky));
        QCOMPARE(::chmod(encoded(sticky).constData(), 01777), 0);
        const QString theirs = sticky + QStringLiteral("/idlegpu.prom");
        writeText(theirs, "theirs", 0666);
        QCOMPARE(::chown(encoded(theirs).constData(), kStranger, kStranger), 0);
        const SecureFile::Opened folder = SecureFile::openTrustedFolder(sticky, m_self);
        QVERIFY2(folder.ok(), qPrintable(folder.error));
        QString error;
        QVERIFY(!SecureFile::replaceFileAt(folder.fd.get(), QStringLiteral("idlegpu.prom"), "ours", 0644, true,
                                           &error));
        QVERIFY2(error.contains(QStringLiteral("uid %1").arg(kStranger)), qPrintable(error));
        QCOMPARE(readBack(theirs), QByteArray("theirs"));
        QCOMPARE(QDir(sticky).entryList(QDir::Files | QDir::Hidden).size(), 1); // no temporary left

        const QString ours = m_dir->filePath(QStringLiteral("ours.conf"));
        writeText(ours, "x=1\n", 0600);
        const QString alias = sticky + QStringLiteral("/alias.conf");
        QCOMPARE(::link(encoded(ours).constData(), encoded(alias).constData()), 0);
        const SecureFile::Opened opened = SecureFile::openTrustedFile(alias, m_self);
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error.startsWith(alias + QLatin1Char(' ')) && opened.error.contains(QLatin1String("hard link")),
                 qPrintable(opened.error));
        QVERIFY(SecureFile::openTrustedFile(ours, m_self).ok()); // in a folder only we can write: ours
    }

    // A FIFO is refused at once: nothing waits for a writer that never comes.
    void refusesAFifoWithoutBlocking()
    {
        const QString fifo = m_dir->filePath(QStringLiteral("fifo.conf"));
        QCOMPARE(::mkfifo(encoded(fifo).constData(), 0600), 0);
        const SecureFile::Opened opened = SecureFile::openTrustedFile(fifo, m_self);
        QVERIFY(!opened.ok());
        QVERIFY2(opened.error.contains(QLatin1String("not a regular file")), qPrintable(opened.error));
        QVERIFY(!opened.untrusted); // unusable, not a question of who may change it
    }

    void openTrustedFolderWantsAFolder()
    {
        QVERIFY(SecureFile::openTrustedFolder(m_dir->path(), m_self).ok());
        const QString file = m_dir->filePath(QStringLiteral("plain"));
        writeText(file, "");
        QVERIFY(!SecureFile::openTrustedFolder(file, m_self).ok());
        QVERIFY(!SecureFile::openTrustedFile(m_dir->path(), m_self).ok());
    }

    void replaceKeepsModeAndWritesWhole()
    {
        const QString path = m_dir->filePath(QStringLiteral("out"));
        writeText(path, "old", 0640);
        SecureFile::Opened folder = SecureFile::openTrustedFolder(m_dir->path(), m_self);
        QVERIFY(folder.ok());
        QString error;
        QVERIFY2(SecureFile::replaceFileAt(folder.fd.get(), QStringLiteral("out"), "new contents", 0600, true, &error),
                 qPrintable(error));
        QCOMPARE(readBack(path), QByteArray("new contents"));
        struct stat st{};
        QCOMPARE(::stat(encoded(path).constData(), &st), 0);
        QCOMPARE(st.st_mode & 07777, mode_t(0640));
        QVERIFY(SecureFile::replaceFileAt(folder.fd.get(), QStringLiteral("fresh"), "x", 0600, true, &error));
        QCOMPARE(::stat(encoded(m_dir->filePath(QStringLiteral("fresh"))).constData(), &st), 0);
        QCOMPARE(st.st_mode & 07777, mode_t(0600));
        QCOMPARE(QDir(m_dir->path()).entryList(QDir::Files | QDir::Hidden).size(), 2); // no temporary left
    }

    // A link or FIFO where the file should be is neither followed nor replaced.
    void replaceRefusesWhatIsNotAFile_data()
    {
        QTest::addColumn<bool>("fifo");
        QTest::newRow("link") << false;
        QTest::newRow("fifo") << true;
    }

    void replaceRefusesWhatIsNotAFile()
    {
        QFETCH(bool, fifo);
        const QString secret = m_dir->filePath(QStringLiteral("secret"));
        writeText(secret, "secret", 0600);
        const QString path = m_dir->filePath(QStringLiteral("out.prom"));
        if (fifo)
            QCOMPARE(::mkfifo(encoded(path).constData(), 0600), 0);
        else
            QVERIFY(QFile::link(secret, path));
        SecureFile::Opened folder = SecureFile::openTrustedFolder(m_dir->path(), m_self);
        QString error;
        QVERIFY(!SecureFile::replaceFileAt(folder.fd.get(), QStringLiteral("out.prom"), "metrics", 0644, false, &error));
        QVERIFY2(error.contains(QLatin1String("not a regular file")), qPrintable(error));
        QCOMPARE(readBack(secret), QByteArray("secret"));
        struct stat st{};
        QCOMPARE(::lstat(encoded(path).constData(), &st), 0);
        QVERIFY(fifo ? S_ISFIFO(st.st_mode) : S_ISLNK(st.st_mode));
    }

private:
    std::unique_ptr<QTemporaryDir> m_dir;
    uid_t m_self = 0;
};

QTEST_GUILESS_MAIN(TestSecureFile)
#include "tst_securefile.moc"
