// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// "Open log" always shows something: the desktop's application where one takes the file, else idlegpu's own viewer
// with the log's end and its path to copy; a log that cannot be read says why there.
#include "tray/logviewer.h"

#include <QApplication>
#include <QClipboard>
#include <QLabel>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSignalSpy>
#include <QtTest>

#include <unistd.h>

namespace {

QString writeLog(const QTemporaryDir &dir, const QByteArray &contents)
{
    const QString path = dir.filePath(QStringLiteral("idlegpu.log"));
    QFile file(path);
    if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(contents) != contents.size())
        qFatal("cannot write the test log");
    return path;
}

// An opener as the desktop's without an application for .log files: it answers "not opened", now or later.
struct FakeOpener
{
    QList<QUrl> urls;
    std::function<void(bool)> pending;
    LogOpener::UrlOpener get()
    {
        return [this](const QUrl &url, const std::function<void(bool)> &done) {
            urls.append(url);
            pending = done;
        };
    }
};

} // namespace

class TestLogViewer : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void readTailKeepsTheEndFromALineStart();
    void unreadableLogSaysWhy();
    void noApplicationShowsTheViewer();
    void anApplicationThatOpensItShowsNoViewer();
    void viewerIsPlainAndKeyboardFriendly();
};

void TestLogViewer::readTailKeepsTheEndFromALineStart()
{
    QTemporaryDir dir;
    QByteArray contents;
    for (int i = 0; i < 20'000; ++i)
        contents += "2026-12-04 15:00:00 idlegpu.runner: line " + QByteArray::number(i) + '\n';
    QVERIFY(contents.size() > LogViewer::kTailBytes);
    const QString path = writeLog(dir, contents);
    QString why;
    bool cut = false;
    const QString tail = LogViewer::readTail(path, LogViewer::kTailBytes, &why, &cut);
    QVERIFY(why.isEmpty());
    QVERIFY(cut);
    QVERIFY(tail.size() <= LogViewer::kTailBytes);
    QVERIFY(tail.startsWith(QStringLiteral("2026-12-04 15:00:00 idlegpu.runner: line ")));
    QVERIFY(tail.endsWith(QStringLiteral("line 19999\n")));

    const QString small = LogViewer::readTail(writeLog(dir, "one line\n"), LogViewer::kTailBytes, &why, &cut);
    QCOMPARE(small, QStringLiteral("one line\n"));
    QVERIFY(!cut);
}

void TestLogViewer::unreadableLogSaysWhy()
{
    QTemporaryDir dir;
    QString why;
    LogViewer::readTail(dir.filePath(QStringLiteral("none.log")), 100, &why);
    QCOMPARE(why, QStringLiteral("The log does not exist yet: idlegpu creates it with its first message."));
    LogViewer::readTail(QString(), 100, &why);
    QCOMPARE(why, QStringLiteral("idlegpu writes no log file in this mode: its messages go to the system journal."));

    // Nothing to ask the desktop: the viewer at once, with the reason and the path.
    FakeOpener opener;
    LogOpener logOpener;
    logOpener.setUrlOpener(opener.get());
    const QString missing = dir.filePath(QStringLiteral("none.log"));
    logOpener.open(missing);
    QVERIFY(opener.urls.isEmpty());
    QVERIFY(logOpener.viewer() && logOpener.viewer()->isVisible());
    QCOMPARE(logOpener.viewer()->problem(),
             QStringLiteral("The log does not exist yet: idlegpu creates it with its first message."));
    QCOMPARE(logOpener.viewer()->findChild<QLabel *>(QStringLiteral("note"))->text(),
             QStringLiteral("The log does not exist yet: idlegpu creates it with its first message."));
    QCOMPARE(logOpener.viewer()->findChild<QLabel *>(QStringLiteral("path"))->text(), missing);

    if (::geteuid() == 0)
        QSKIP("root reads a file of mode 000");
    const QString path = writeLog(dir, "secret\n");
    QVERIFY(QFile::setPermissions(path, QFileDevice::Permissions()));
    LogViewer::readTail(path, 100, &why);
    QVERIFY2(why.startsWith(QStringLiteral("The log cannot be read: it belongs to ")), qPrintable(why));
    logOpener.open(path);
    QVERIFY(opener.urls.isEmpty());
    QVERIFY(logOpener.viewer()->problem().startsWith(QStringLiteral("The log cannot be read")));
}

// No application for .log files (xdg-open failed, or there is no xdg-open): the viewer.
void TestLogViewer::noApplicationShowsTheViewer()
{
    QTemporaryDir dir;
    const QString path = writeLog(dir, "first\nsecond: cannot connect to pool\n");
    FakeOpener opener;
    LogOpener logOpener;
    logOpener.setUrlOpener(opener.get());
    QSignalSpy shown(&logOpener, &LogOpener::viewerShown);
    logOpener.open(path);
    QCOMPARE(opener.urls, QList<QUrl>{QUrl::fromLocalFile(path)});
    QVERIFY(!logOpener.viewer()); // the desktop has not answered yet: nothing waits for it
    opener.pending(false);
    QCOMPARE(shown.size(), 1);
    LogViewer *viewer = logOpener.viewer();
    QVERIFY(viewer && viewer->isVisible());
    QCOMPARE(viewer->windowTitle(), QStringLiteral("idlegpu log"));
    QCOMPARE(viewer->text(), QStringLiteral("first\nsecond: cannot connect to pool\n"));
    QVERIFY(viewer->problem().isEmpty());

    // Opened again: the same window, with what was written since.
    QFile file(path);
    QVERIFY(file.open(QIODevice::Append));
    file.write("third\n");
    file.close();
    logOpener.open(path);
    opener.pending(false);
    QCOMPARE(logOpener.viewer(), viewer);
    QVERIFY(viewer->text().endsWith(QStringLiteral("third\n")));
}

void TestLogViewer::anApplicationThatOpensItShowsNoViewer()
{
    QTemporaryDir dir;
    const QString path = writeLog(dir, "x\n");
    FakeOpener opener;
    LogOpener logOpener;
    logOpener.setUrlOpener(opener.get());
    logOpener.open(path);
    opener.pending(true);
    QVERIFY(!logOpener.viewer());
}

// Monospace, read-only, its path one click from the clipboard, Esc closes it, no icons on its buttons.
void TestLogViewer::viewerIsPlainAndKeyboardFriendly()
{
    QTemporaryDir dir;
    const QString path = writeLog(dir, "x\n");
    LogViewer viewer(path);
    viewer.show();
    QVERIFY(QTest::qWaitForWindowExposed(&viewer));
    auto *text = viewer.findChild<QPlainTextEdit *>(QStringLiteral("log"));
    QVERIFY(text->isReadOnly());
    QVERIFY(QFontInfo(text->font()).fixedPitch());
    auto *copy = viewer.findChild<QPushButton *>(QStringLiteral("copyPath"));
    QCOMPARE(copy->text(), QStringLiteral("Copy path"));
    QVERIFY(copy->icon().isNull());
    copy->click();
    QCOMPARE(QGuiApplication::clipboard()->text(), path);
    QCOMPARE(copy->text(), QStringLiteral("Path copied"));
    QVERIFY(viewer.findChild<QPushButton *>(QStringLiteral("close"))->icon().isNull());
    QTest::keyClick(&viewer, Qt::Key_Escape);
    QVERIFY(!viewer.isVisible());
}

QTEST_MAIN(TestLogViewer)
#include "tst_logviewer.moc"
