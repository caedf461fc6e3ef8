// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The sink that shows messages as desktop notifications through org.freedesktop.Notifications on the session bus, or
// through the tray icon's balloon where no server takes them. A notification replaces the previous one of its kind, and
// nothing waits on the bus.
#include "tray/notifier.h"

#include <QDBusConnection>
#include <QHash>
#include <QObject>

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

private:
    void setServer(Server server);
    void askCapabilities();

    NotificationSink *m_fallback;
    QDBusConnection m_bus;
    QDBusServiceWatcher *m_watcher = nullptr;
    Server m_server = Server::Unknown;
    QHash<int, uint> m_lastIds; // by kind: the server's id of the last notification of that kind
    bool m_failing = false;     // a call failed since the last success: said once in the log
    std::optional<bool> m_bodyMarkup;
    int m_callTimeoutMs = kCallTimeoutMs;
};
