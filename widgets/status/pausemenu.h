// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The "Pause for…" menu of the status window, for all workloads or one: 30 minutes, 1 hour, 4 hours, or until the
// next morning at 08:00. Its choices are fixed, so that it can stay open while the window refreshes every second.
#include <QDateTime>
#include <QMenu>

class PauseMenu : public QMenu
{
    Q_OBJECT
public:
    static constexpr int kMorningHour = 8; // "until 08:00": when a workday begins

    explicit PauseMenu(QWidget *parent = nullptr);

    // Tells the menu the time now, for the morning's choice: its words ("Until 08:00 tomorrow") and its length.
    void setNow(const QDateTime &wallNow);

    // Returns how long from `wallNow` to the next 08:00 (today's, while it is still ahead).
    static qint64 msUntilMorning(const QDateTime &wallNow);

Q_SIGNALS:
    void chosen(qint64 ms);

private:
    QAction *m_morning;
    QDateTime m_wallNow;
};
