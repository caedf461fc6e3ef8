// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// "Open log": the desktop's application for the file where there is one, and else a small window of idlegpu's own with
// the log's last part (read-only, monospace) and its path to copy. A log that cannot be read says why in that window:
// the menu item always shows something.
#include <QDialog>
#include <QPointer>
#include <QUrl>

#include <functional>

class QLabel;
class QPlainTextEdit;
class QPushButton;

class LogViewer : public QDialog
{
    Q_OBJECT
public:
    // How much of the log's end is shown: a day of a busy workload's lines, read in a blink.
    static constexpr qint64 kTailBytes = 256 * 1024;

    explicit LogViewer(const QString &path, QWidget *parent = nullptr);

    // Reads the log's end again.
    void reload();
    QString path() const { return m_path; }
    QString text() const;                         // what the viewer shows of the log
    QString problem() const { return m_problem; } // why the log could not be read; empty when it was

    // Returns the last `maxBytes` of the file at `path`, from the start of a line. Sets `why` (plain words) when the
    // file cannot be read, and `cut` when its start was left out.
    static QString readTail(const QString &path, qint64 maxBytes, QString *why, bool *cut = nullptr);

private:
    QString m_path;
    QString m_problem;
    QLabel *m_note;
    QPlainTextEdit *m_text;
    QPushButton *m_copyPath;
};

class LogOpener : public QObject
{
    Q_OBJECT
public:
    // Opens `url` in the desktop's application and calls `done` with whether one took it, later or at once.
    using UrlOpener = std::function<void(const QUrl &url, const std::function<void(bool opened)> &done)>;

    explicit LogOpener(QObject *parent = nullptr);
    ~LogOpener() override;

    // Tests put an opener that fails in place of the desktop's.
    void setUrlOpener(const UrlOpener &opener) { m_urlOpener = opener; }
    // Opens the log at `path`: in the desktop's application, else (none there, none for .log files, the file not
    // readable) in the viewer.
    void open(const QString &path);
    LogViewer *viewer() const { return m_viewer; }

    // The desktop's opener: xdg-open, whose exit status says whether an application took the file (QDesktopServices
    // starts it detached and reports only that it started); where there is no xdg-open, none (the viewer).
    static UrlOpener desktopOpener();

Q_SIGNALS:
    void viewerShown();

private:
    void showViewer(const QString &path);

    UrlOpener m_urlOpener;
    QPointer<LogViewer> m_viewer; // one window, raised when opened again
};
