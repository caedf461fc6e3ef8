// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The "Start at login" setting, kept as $XDG_CONFIG_HOME/autostart/idlegpu.desktop (by default in
// ~/.config/autostart), as the XDG autostart spec says.
//
// Enabled means the file exists and neither Hidden=true nor X-GNOME-Autostart-enabled=false is set in it.
// Enabling writes our file, or, when the user has one, keeps every line of theirs and only drops Hidden= and
// X-GNOME-Autostart-enabled=false. Disabling removes the file when it is exactly what we write; a file the user
// edited is kept and gets Hidden=true, so their changes survive a round of unchecking and checking.
#include <QCoreApplication>
#include <QString>

class Autostart
{
    Q_DECLARE_TR_FUNCTIONS(Autostart)
public:
    // `programPath`: the executable the entry starts; empty means this one.
    explicit Autostart(const QString &programPath = QString());

    static QString filePath();
    // The file we write, byte for byte.
    QByteArray desktopEntry() const;

    bool isEnabled() const;
    // False with errorString() when the file cannot be written or removed.
    bool setEnabled(bool enabled);
    QString errorString() const { return m_error; }

private:
    static QByteArray entryHead(); // the lines before Exec=
    bool isOurEntry(const QByteArray &contents) const;
    bool write(const QByteArray &contents);

    QString m_programPath;
    QString m_error;
};
