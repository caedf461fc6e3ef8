// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The "Start at login" setting, kept as $XDG_CONFIG_HOME/autostart/idlegpu.desktop (by default in
// ~/.config/autostart), as the XDG autostart spec says.
// A file that the user edited keeps the user's lines whether the setting is turned on or off.
#include <QCoreApplication>
#include <QString>

class Autostart
{
    Q_DECLARE_TR_FUNCTIONS(Autostart)
public:
    // `programPath` is the executable that the entry starts; empty means this one.
    explicit Autostart(const QString &programPath = QString());

    static QString filePath();
    // Returns the file that idlegpu writes, byte for byte.
    QByteArray desktopEntry() const;

    bool isEnabled() const;
    // Turns the setting on or off; returns false, with errorString() set, when the file cannot be written or removed.
    bool setEnabled(bool enabled);
    QString errorString() const { return m_error; }

private:
    static QByteArray entryHead(); // the lines before Exec=
    bool isOurEntry(const QByteArray &contents) const;
    bool write(const QByteArray &contents);

    QString m_programPath;
    QString m_error;
};
