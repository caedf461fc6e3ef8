// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "tray/logviewer.h"

#include "tray/traylogging.h"

#include <QClipboard>
#include <QDialogButtonBox>
#include <QFile>
#include <QFileInfo>
#include <QFontDatabase>
#include <QGuiApplication>
#include <QLabel>
#include <QPlainTextEdit>
#include <QProcess>
#include <QPushButton>
#include <QScrollBar>
#include <QStandardPaths>
#include <QVBoxLayout>

LogViewer::LogViewer(const QString &path, QWidget *parent)
    : QDialog(parent), m_path(path), m_note(new QLabel(this)), m_text(new QPlainTextEdit(this)),
      m_copyPath(new QPushButton(tr("Copy path"), this))
{
    setWindowTitle(tr("idlegpu log"));
    auto *pathLine = new QLabel(path.isEmpty() ? tr("No log file") : path, this);
    pathLine->setObjectName(QStringLiteral("path"));
    pathLine->setTextInteractionFlags(Qt::TextSelectableByMouse | Qt::TextSelectableByKeyboard);
    m_note->setObjectName(QStringLiteral("note"));
    m_note->setWordWrap(true);
    m_text->setObjectName(QStringLiteral("log"));
    m_text->setReadOnly(true);
    m_text->setTabChangesFocus(true); // Tab leaves the log for the buttons, as in any read-only view
    m_text->setLineWrapMode(QPlainTextEdit::NoWrap);
    m_text->setFont(QFontDatabase::systemFont(QFontDatabase::FixedFont));
    m_copyPath->setObjectName(QStringLiteral("copyPath"));
    m_copyPath->setEnabled(!path.isEmpty());
    connect(m_copyPath, &QPushButton::clicked, this, [this] {
        QGuiApplication::clipboard()->setText(m_path);
        m_copyPath->setText(tr("Path copied"));
    });
    // Text buttons only: the desktop's own dialogs show no icons on them.
    auto *buttons = new QDialogButtonBox(this);
    buttons->addButton(m_copyPath, QDialogButtonBox::ActionRole);
    QPushButton *reloadButton = buttons->addButton(tr("Reload"), QDialogButtonBox::ActionRole);
    reloadButton->setObjectName(QStringLiteral("reload"));
    QPushButton *close = buttons->addButton(tr("Close"), QDialogButtonBox::RejectRole);
    close->setObjectName(QStringLiteral("close"));
    close->setDefault(true);
    connect(reloadButton, &QPushButton::clicked, this, &LogViewer::reload);
    connect(buttons, &QDialogButtonBox::rejected, this, &QDialog::reject);

    auto *layout = new QVBoxLayout(this);
    layout->addWidget(pathLine);
    layout->addWidget(m_note);
    layout->addWidget(m_text, 1);
    layout->addWidget(buttons);
    resize(900, 540); // a terminal's width of lines, well inside 1280x800
    reload();
    m_text->setFocus(); // the keys scroll the log at once; Enter and Esc still close
}

QString LogViewer::text() const
{
    return m_text->toPlainText();
}

void LogViewer::reload()
{
    bool cut = false;
    const QString tail = readTail(m_path, kTailBytes, &m_problem, &cut);
    m_text->setPlainText(tail);
    m_text->setVisible(m_problem.isEmpty());
    if (!m_problem.isEmpty())
        m_note->setText(m_problem);
    else if (cut)
        m_note->setText(tr("The last %1 KiB of the log; an editor shows all of it.").arg(kTailBytes / 1024));
    else
        m_note->setText(tail.isEmpty() ? tr("The log is empty.") : QString());
    m_note->setVisible(!m_note->text().isEmpty());
    m_text->verticalScrollBar()->setValue(m_text->verticalScrollBar()->maximum()); // the newest lines
}

QString LogViewer::readTail(const QString &path, qint64 maxBytes, QString *why, bool *cut)
{
    why->clear();
    if (cut)
        *cut = false;
    if (path.isEmpty()) {
        *why = tr("idlegpu writes no log file in this mode: its messages go to the system journal.");
        return QString();
    }
    const QFileInfo info(path);
    if (!info.exists()) {
        *why = tr("The log does not exist yet: idlegpu creates it with its first message.");
        return QString();
    }
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *why = info.isReadable() ? tr("The log cannot be read: %1.").arg(file.errorString())
                                 : tr("The log cannot be read: it belongs to %1 and you may not read it.")
                                       .arg(info.owner().isEmpty() ? tr("another user") : info.owner());
        return QString();
    }
    const qint64 size = file.size();
    if (size > maxBytes) {
        file.seek(size - maxBytes);
        file.readLine(); // a partial line: start at the next one
        if (cut)
            *cut = true;
    }
    return QString::fromUtf8(file.read(maxBytes));
}

LogOpener::LogOpener(QObject *parent) : QObject(parent), m_urlOpener(desktopOpener()) {}

LogOpener::~LogOpener()
{
    delete m_viewer;
}

void LogOpener::open(const QString &path)
{
    const QFileInfo info(path);
    if (path.isEmpty() || !info.isFile() || !info.isReadable()) {
        showViewer(path); // it says why
        return;
    }
    const QPointer<LogOpener> self(this);
    m_urlOpener(QUrl::fromLocalFile(path), [self, path](bool opened) {
        if (opened || !self)
            return;
        qCInfo(lcTray, "no application opened %s; showing it in idlegpu's log viewer", qPrintable(path));
        self->showViewer(path);
    });
}

void LogOpener::showViewer(const QString &path)
{
    if (m_viewer && m_viewer->path() != path)
        delete m_viewer; // another monitor's log
    if (!m_viewer) {
        m_viewer = new LogViewer(path);
        m_viewer->setAttribute(Qt::WA_DeleteOnClose);
    } else {
        m_viewer->reload();
    }
    m_viewer->show();
    m_viewer->raise();
    m_viewer->activateWindow();
    Q_EMIT viewerShown();
}

LogOpener::UrlOpener LogOpener::desktopOpener()
{
    return [](const QUrl &url, const std::function<void(bool)> &done) {
        const QString xdgOpen = QStandardPaths::findExecutable(QStringLiteral("xdg-open"));
        // Without xdg-open, idlegpu's own viewer: QDesktopServices says it opened the file even where nothing
        // visible came of it (Plasma 5.27 without an editor, seen in the desktop suite).
        if (xdgOpen.isEmpty()) {
            done(false);
            return;
        }
        // No parent: the generic xdg-open runs an editor in the foreground, which must outlive the tray.
        auto *process = new QProcess;
        process->setStandardOutputFile(QProcess::nullDevice());
        process->setStandardErrorFile(QProcess::nullDevice());
        QObject::connect(process, &QProcess::finished, process, [process, done](int code, QProcess::ExitStatus status) {
            process->deleteLater();
            done(status == QProcess::NormalExit && code == 0);
        });
        QObject::connect(process, &QProcess::errorOccurred, process, [process, done](QProcess::ProcessError error) {
            if (error != QProcess::FailedToStart)
                return;
            process->deleteLater();
            done(false);
        });
        process->start(xdgOpen, {url.toLocalFile()});
    };
}

// Its moc output compiled here rather than in the library's shared mocs_compilation object.
#include "moc_logviewer.cpp"
