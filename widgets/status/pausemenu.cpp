// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "status/pausemenu.h"

#include <QTimeZone>

namespace {
constexpr qint64 kMinuteMs = 60'000;
}

PauseMenu::PauseMenu(QWidget *parent) : QMenu(parent)
{
    const struct
    {
        const char *objectName;
        QString text;
        qint64 ms;
    } choices[] = {
        {"pause30Minutes", tr("For 30 minutes"), 30 * kMinuteMs},
        {"pause1Hour", tr("For 1 hour"), 60 * kMinuteMs},
        {"pause4Hours", tr("For 4 hours"), 240 * kMinuteMs},
    };
    for (const auto &choice : choices) {
        QAction *action = addAction(choice.text);
        action->setObjectName(QLatin1String(choice.objectName));
        const qint64 ms = choice.ms;
        connect(action, &QAction::triggered, this, [this, ms] { Q_EMIT chosen(ms); });
    }
    m_morning = addAction(QString());
    m_morning->setObjectName(QStringLiteral("pauseUntilMorning"));
    connect(m_morning, &QAction::triggered, this,
            [this] { Q_EMIT chosen(msUntilMorning(m_wallNow.isValid() ? m_wallNow : QDateTime::currentDateTime())); });
    setNow(QDateTime::currentDateTime());
}

void PauseMenu::setNow(const QDateTime &wallNow)
{
    m_wallNow = wallNow;
    const bool today = wallNow.time().hour() < kMorningHour;
    const QString morning = QTime(kMorningHour, 0).toString(QStringLiteral("HH:mm"));
    m_morning->setText(today ? tr("Until %1 today").arg(morning) : tr("Until %1 tomorrow").arg(morning));
}

qint64 PauseMenu::msUntilMorning(const QDateTime &wallNow)
{
    QDateTime morning(wallNow.date(), QTime(kMorningHour, 0), wallNow.timeZone());
    if (morning <= wallNow)
        morning = QDateTime(wallNow.date().addDays(1), QTime(kMorningHour, 0), wallNow.timeZone());
    return wallNow.msecsTo(morning);
}
