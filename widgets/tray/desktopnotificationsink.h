// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The sink that shows messages as desktop notifications through org.freedesktop.Notifications on the session bus, or
// through the tray icon's balloon where no server takes them. A notification replaces the previous one of its kind, and
// nothing waits on the bus. Each carries the application's icon as pixels (image-data), since a theme without
// "idlegpu" (a build not installed, a user's own prefix) makes GNOME Shell draw a broken image for the icon's name; and,
// where the server offers actions, "Show" (the status window) and "Pause for 1 hour".
#include "tray/notifier.h"

#include <QDBusConnection>
#include <QHash>
#include <QObject>
#include <QSet>
#include <QVariantMap>

#include <optional>

class QDBusServiceWatcher;

class DesktopNotificationSink final : public QObject, public NotificationSink
{
    Q_OBJECT
public:
    static constexpr int kCallTimeoutMs = 5000;
    // How long a preemption or a failure stays on screen: Notifier's window, after which its summary replaces it.
    // A rejected configuration stays until dismissed (0), since it stays wrong until the user fixes it.
    static constexpr int kExpireMs = int(Notifier::kWindowMs);
    static constexpr const char *kService = "org.freedesktop.Notifications";
    static constexpr const char *kPath = "/org/freedesktop/Notifications";
    static constexpr const char *kAppName = "idlegpu";
    static constexpr const char *kAppIcon = "idlegpu";     // the icon installed in hicolor (resources/)
    static constexpr const char *kDesktopEntry = "idlegpu"; // resources/idlegpu.desktop, without .desktop
    static constexpr int kImageSize = 64;                   // the image-data's pixels: GNOME shows it at 48
    // The keys of the actions; "default" is a click on the notification itself.
    static constexpr const char *kActionDefault = "default";
    static constexpr const char *kActionShow = "show";
    static constexpr const char *kActionPauseForAnHour = "pause-1h";
    static constexpr qint64 kPauseForMs = 3'600'000;

    enum class Server { Unknown, Present, Absent };

    // `fallback` (not owned) shows what the server cannot; `bus` is the session bus, a private one in tests.
    DesktopNotificationSink(NotificationSink *fallback, const QDBusConnection &bus, QObject *parent = nullptr);

    void showMessage(NotificationKind kind, const QString &title, const QString &body,
                     QSystemTrayIcon::MessageIcon icon) override;

    // Whether a server owns the name, as last heard from the bus. Unknown until the bus answers; meanwhile
    // messages are tried on the server.
    Server server() const { return m_server; }
    // The server's id of the last notification of `kind`, which the next one of that kind replaces; 0 for none.
    uint lastNotificationId(NotificationKind kind) const { return m_lastIds.value(int(kind)); }
    void setCallTimeoutMs(int ms) { m_callTimeoutMs = ms; } // tests of a server that does not answer
    // Whether the server reads the body as markup (most do: "<" and "&" from a config file are escaped then);
    // empty until it said.
    std::optional<bool> bodyMarkup() const { return m_bodyMarkup; }
    // Whether the server shows actions (its capabilities include "actions"); empty until it said.
    std::optional<bool> actions() const { return m_actions; }
    // Sets the name of the icon sent as app_icon; empty sends none, as where the icon theme lacks it (the image-data
    // hint carries the picture in every case).
    void setAppIconName(const QString &name) { m_appIconName = name; }

    // Returns the hints of a message: urgency, desktop entry and the application's icon as image-data.
    static QVariantMap hints(QSystemTrayIcon::MessageIcon icon);
    // Returns the actions (key, label pairs, as Notify takes them) of a message of `kind`.
    static QStringList actionsFor(NotificationKind kind);

Q_SIGNALS:
    // The user chose "Show" or clicked a notification of idlegpu's.
    void showStatusRequested();
    // The user chose "Pause for 1 hour".
    void pauseAllForRequested(qint64 ms);

private Q_SLOTS:
    void onActionInvoked(uint id, const QString &key);
    void onNotificationClosed(uint id, uint reason);

private:
    void setServer(Server server);
    void askCapabilities();
    // Whether the server's presence or capabilities are being asked: a message waits for the answer, so that the
    // first one carries its actions too.
    bool learningServer() const { return m_askingOwner || m_askingCapabilities; }
    void sendWaitingMessages();

    // A message that waits for the server's answer.
    struct WaitingMessage
    {
        NotificationKind kind;
        QString title;
        QString body;
        QSystemTrayIcon::MessageIcon icon;
    };
    static constexpr qsizetype kMaxWaitingMessages = 16;

    NotificationSink *m_fallback;
    QDBusConnection m_bus;
    QDBusServiceWatcher *m_watcher = nullptr;
    Server m_server = Server::Unknown;
    QHash<int, uint> m_lastIds; // by kind: the server's id of the last notification of that kind
    QSet<uint> m_shownIds;      // the ids of idlegpu's notifications not closed yet: whose actions count
    bool m_failing = false;     // a call failed since the last success: said once in the log
    std::optional<bool> m_bodyMarkup;
    std::optional<bool> m_actions;
    bool m_askingOwner = false;
    bool m_askingCapabilities = false;
    QList<WaitingMessage> m_waiting;
    QString m_appIconName = QLatin1String(kAppIcon);
    int m_callTimeoutMs = kCallTimeoutMs;
};
