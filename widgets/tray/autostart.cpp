// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "tray/autostart.h"

// Enabled means the file exists and neither Hidden=true nor X-GNOME-Autostart-enabled=false is set in it.
// Enabling writes our file, or, when the user has one, keeps every line of theirs and only drops Hidden= and
// X-GNOME-Autostart-enabled=false. Disabling removes the file when it is exactly what we write; a file the user
// edited is kept and gets Hidden=true, so their changes survive a round of unchecking and checking.

#include "config/securefile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>

#include <unistd.h>

namespace {

// A desktop entry is a few hundred bytes; a bigger file is read no further (we treat it as the user's).
constexpr qint64 kMaxFileBytes = 256 * 1024;

QByteArray readFile(const QString &path, bool *exists)
{
    QFile file(path);
    *exists = file.exists();
    if (!file.open(QIODevice::ReadOnly))
        return QByteArray();
    return file.read(kMaxFileBytes);
}

// The key of a "Key=Value" line (trimmed), or empty.
QByteArray keyOf(const QByteArray &line)
{
    const int equals = line.indexOf('=');
    return equals > 0 ? line.left(equals).trimmed() : QByteArray();
}

QByteArray valueOf(const QByteArray &line)
{
    return line.mid(line.indexOf('=') + 1).trimmed();
}

// Calls `visit` for each line with whether it lies in the [Desktop Entry] group.
template<typename Visit>
void forEachLine(const QByteArray &contents, Visit visit)
{
    bool inMainGroup = false;
    const QList<QByteArray> lines = contents.split('\n');
    for (const QByteArray &line : lines) {
        const QByteArray trimmed = line.trimmed();
        if (trimmed.startsWith('['))
            inMainGroup = trimmed == "[Desktop Entry]";
        visit(line, inMainGroup && !trimmed.startsWith('['));
    }
}

bool isTurnedOff(const QByteArray &line)
{
    const QByteArray key = keyOf(line);
    const QByteArray value = valueOf(line).toLower();
    return (key == "Hidden" && value == "true") || (key == "X-GNOME-Autostart-enabled" && value == "false");
}

QString quoteExec(const QString &path)
{
    // The desktop entry spec: arguments with reserved characters are double-quoted, with \ " ` $ escaped.
    static const QString reserved = QStringLiteral(" \t\n\"'\\><~|&;$*?#()`");
    bool needsQuotes = false;
    for (QChar c : path)
        needsQuotes = needsQuotes || reserved.contains(c);
    if (!needsQuotes)
        return path;
    QString escaped;
    for (QChar c : path) {
        if (c == QLatin1Char('"') || c == QLatin1Char('`') || c == QLatin1Char('$') || c == QLatin1Char('\\'))
            escaped += QLatin1Char('\\');
        escaped += c;
    }
    return QLatin1Char('"') + escaped + QLatin1Char('"');
}

} // namespace

Autostart::Autostart(const QString &programPath)
    : m_programPath(programPath.isEmpty() ? QCoreApplication::applicationFilePath() : programPath)
{
}

QString Autostart::filePath()
{
    QString configHome = qEnvironmentVariable("XDG_CONFIG_HOME");
    if (configHome.isEmpty() || !QDir::isAbsolutePath(configHome))
        configHome = QDir::homePath() + QStringLiteral("/.config");
    return configHome + QStringLiteral("/autostart/idlegpu.desktop");
}

QByteArray Autostart::desktopEntry() const
{
    // TryExec: once the program is gone (the package removed), sessions skip the entry rather than fail on it.
    // A value holds no escapes; a path that would need them goes without.
    const bool plainPath = !m_programPath.contains(QLatin1Char('\\')) && !m_programPath.contains(QLatin1Char('\n'));
    return entryHead()
           + "Exec=" + quoteExec(m_programPath).toUtf8() + "\n"
           + (plainPath ? "TryExec=" + m_programPath.toUtf8() + "\n" : QByteArray())
           + "Icon=idlegpu\n"
             "Terminal=false\n"
             // No window comes up: a startup notification would leave the busy cursor spinning until it times out.
             "StartupNotify=false\n"
             "X-GNOME-Autostart-enabled=true\n"
             // Plasma without systemd: phase 2 starts after the desktop and its panel are up.
             "X-KDE-autostart-phase=2\n";
}

QByteArray Autostart::entryHead()
{
    return "[Desktop Entry]\n"
           "Type=Application\n"
           "Name=idlegpu\n"
           // Not tr(): the file must not depend on the locale it was written in (disabling compares it).
           "Comment=Run idle workloads on GPUs nobody uses\n"
           "Comment[zh_CN]=在无人使用的 GPU 上运行空闲任务\n"
           "Comment[zh_TW]=在無人使用的 GPU 上執行閒置工作\n";
}

bool Autostart::isOurEntry(const QByteArray &contents) const
{
    // What earlier builds wrote (without TryExec and the lines after Terminal=) is ours too: disabling removes it.
    const QByteArray earlier = entryHead() + "Exec=" + quoteExec(m_programPath).toUtf8()
                               + "\nIcon=idlegpu\nTerminal=false\nX-GNOME-Autostart-enabled=true\n";
    return contents == desktopEntry() || contents == earlier;
}

bool Autostart::isEnabled() const
{
    bool exists = false;
    const QByteArray contents = readFile(filePath(), &exists);
    if (!exists)
        return false;
    bool turnedOff = false;
    forEachLine(contents, [&turnedOff](const QByteArray &line, bool inMainGroup) {
        turnedOff = turnedOff || (inMainGroup && isTurnedOff(line));
    });
    return !turnedOff;
}

bool Autostart::setEnabled(bool enabled)
{
    m_error.clear();
    bool exists = false;
    const QByteArray contents = readFile(filePath(), &exists);

    if (enabled) {
        if (!exists)
            return write(desktopEntry());
        // The user's file: keep it, only take out what turns it off.
        QByteArray kept;
        forEachLine(contents, [&kept](const QByteArray &line, bool inMainGroup) {
            if (!(inMainGroup && isTurnedOff(line)))
                kept += line + '\n';
        });
        kept.chop(1); // split() gave one line more than there were newlines
        return kept == contents || write(kept);
    }

    if (!exists)
        return true;
    if (isOurEntry(contents)) {
        if (!QFile::remove(filePath())) {
            m_error = tr("Cannot remove %1").arg(filePath());
            return false;
        }
        return true;
    }
    // Edited by the user: switch it off but keep it.
    QByteArray edited;
    bool hiddenWritten = false;
    forEachLine(contents, [&edited, &hiddenWritten](const QByteArray &line, bool inMainGroup) {
        if (inMainGroup && keyOf(line) == "Hidden")
            return; // replaced below
        edited += line + '\n';
        if (!hiddenWritten && line.trimmed() == "[Desktop Entry]") {
            edited += "Hidden=true\n";
            hiddenWritten = true;
        }
    });
    edited.chop(1);
    if (!hiddenWritten)
        edited = "[Desktop Entry]\nHidden=true\n" + edited;
    return write(edited);
}

bool Autostart::write(const QByteArray &contents)
{
    const QString path = filePath();
    if (!QDir().mkpath(QFileInfo(path).absolutePath())) {
        m_error = tr("Cannot create the folder %1").arg(QFileInfo(path).absolutePath());
        return false;
    }
    // Replaced in one rename in a folder only this user (or root) can change, never through a link; a failed write (a
    // full disk) keeps the old entry.
    const SecureFile::Opened folder = SecureFile::openTrustedFolder(QFileInfo(path).absolutePath(), ::geteuid());
    QString error = folder.error;
    if (!folder.ok()
        || !SecureFile::replaceFileAt(folder.fd.get(), QFileInfo(path).fileName(), contents, 0644, true, &error)) {
        m_error = tr("Cannot write %1: %2").arg(path, error);
        return false;
    }
    return true;
}
