// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// For the tests of the notifications: a NotificationSink that records what it is given, and a preemption as the
// monitor reports it.
#include "tray/notifier.h"

struct RecordedMessage
{
    NotificationKind kind;
    QString title;
    QString body;
    QSystemTrayIcon::MessageIcon icon;
};

class RecordingSink : public NotificationSink
{
public:
    void showMessage(NotificationKind kind, const QString &title, const QString &body,
                     QSystemTrayIcon::MessageIcon icon) override
    {
        messages.append({kind, title, body, icon});
    }
    QStringList bodies() const
    {
        QStringList result;
        for (const RecordedMessage &m : messages)
            result.append(m.body);
        return result;
    }
    QList<RecordedMessage> messages;
};

// The miner on `gpu` stopped for alice's python3 (pid 4242).
inline PreemptionEvent preemption(int gpu = 0)
{
    PreemptionEvent event;
    event.workloadId = QStringLiteral("process-miner");
    event.workloadName = QStringLiteral("miner");
    event.gpu = gpu;
    event.culprit.comm = QStringLiteral("python3");
    event.culprit.user = QStringLiteral("alice");
    event.culprit.pid = 4242;
    return event;
}
