// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "tray/desktopidlepoller.h"

// Sources, in this order, the first that answers kept until it fails (X11 only until a desktop answers):
//   GNOME  org.gnome.Mutter.IdleMonitor /org/gnome/Mutter/IdleMonitor/Core GetIdletime (ms)
//   KDE    org.freedesktop.ScreenSaver /ScreenSaver GetSessionIdleTime (ms, where the spec says s; X11 only) and
//          GetActive (locked)
//   X11    XScreenSaverQueryInfo of libXss.so.1, loaded when first needed, on the xcb platform only
// Polled every kPollMs while enabled, each D-Bus call asynchronous with a timeout. Polling faster as the idle time
// nears idle_seconds would gain nothing: the monitor gets the moment of the last input and wakes at the away time
// itself; the poll only has to notice that input came again.

#include "tray/traylogging.h"
#include "tray/x11display.h"

#include <QDBusConnection>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QTimer>

#include <dlfcn.h>
#include <unistd.h>

namespace {

// Longer than any real idle time (a year): larger answers are garbage.
constexpr qint64 kMaxIdleMs = 365LL * 24 * 3600 * 1000;

const QString kGnomeLabel = QStringLiteral("GNOME");
const QString kKdeLabel = QStringLiteral("KDE");
const QString kX11Label = QStringLiteral("X11");

// libXss, declared here (nothing to build against): XScreenSaverInfo as <X11/extensions/scrnsaver.h> has it.
struct XScreenSaverInfo
{
    unsigned long window;
    int state;
    int kind;
    unsigned long tilOrSince;
    unsigned long idle; // ms since the last input
    unsigned long eventMask;
};

class XScreenSaverLibrary
{
public:
    static const XScreenSaverLibrary &instance()
    {
        static const XScreenSaverLibrary library;
        return library;
    }
    // The idle time of the X server's user, or -1 where it cannot be asked.
    qint64 idleMs(void *display) const
    {
        if (!m_queryInfo || !display)
            return -1;
        // Without the extension on the server, the query is an X error, which ends the application.
        int eventBase = 0;
        int errorBase = 0;
        if (!m_queryExtension(display, &eventBase, &errorBase))
            return -1;
        XScreenSaverInfo info{};
        if (!m_queryInfo(display, m_defaultRootWindow(display), &info))
            return -1;
        return qint64(info.idle);
    }

private:
    XScreenSaverLibrary()
    {
        void *xss = dlopen("libXss.so.1", RTLD_LAZY | RTLD_LOCAL);
        // Qt's xcb platform has loaded Xlib: the process has it.
        void *x11 = loadedXlib();
        if (!xss || !x11) {
            qCInfo(lcTray, "no libXss.so.1 or Xlib: X11's idle time is not asked");
            return;
        }
        m_queryExtension = reinterpret_cast<QueryExtension>(dlsym(xss, "XScreenSaverQueryExtension"));
        m_defaultRootWindow = reinterpret_cast<DefaultRootWindow>(dlsym(x11, "XDefaultRootWindow"));
        m_queryInfo = reinterpret_cast<QueryInfo>(dlsym(xss, "XScreenSaverQueryInfo"));
        if (!m_queryExtension || !m_defaultRootWindow)
            m_queryInfo = nullptr;
    }
    using QueryExtension = int (*)(void *display, int *eventBase, int *errorBase);
    using DefaultRootWindow = unsigned long (*)(void *display);
    using QueryInfo = int (*)(void *display, unsigned long drawable, XScreenSaverInfo *info);
    QueryExtension m_queryExtension = nullptr;
    DefaultRootWindow m_defaultRootWindow = nullptr;
    QueryInfo m_queryInfo = nullptr;
};

} // namespace

DesktopIdlePoller::DesktopIdlePoller(const Clock *clock, QObject *parent)
    : QObject(parent), m_clock(clock), m_timer(new QTimer(this))
{
    m_timer->setInterval(kPollMs);
    connect(m_timer, &QTimer::timeout, this, &DesktopIdlePoller::poll);
}

DesktopIdlePoller::~DesktopIdlePoller() = default;

bool DesktopIdlePoller::isEnabled() const
{
    return m_timer->isActive();
}

void DesktopIdlePoller::setEnabled(bool enabled)
{
    if (enabled == isEnabled())
        return;
    if (enabled) {
        m_timer->start();
        poll();
        return;
    }
    m_timer->stop();
    ++m_generation;
    m_inFlight = false;
    Q_EMIT reported(DesktopIdleReport());
}

void DesktopIdlePoller::poll()
{
    if (m_inFlight)
        return; // a call still waits for its answer (or its timeout)
    m_inFlight = true;
    ask(m_source);
}

void DesktopIdlePoller::ask(Source source)
{
    switch (source) {
    case Source::Gnome: askGnome(); return;
    case Source::Kde: askKde(); return;
    case Source::X11: askX11(); return;
    case Source::None: break;
    }
    // Nothing answered: logind's word alone. Start from the first source again next time (a desktop that starts late).
    m_inFlight = false;
    m_source = Source::Gnome;
    if (m_answering != Source::None)
        qCInfo(lcTray, "no desktop tells its idle time any more: logind's word alone");
    m_answering = Source::None;
    DesktopIdleReport report;
    report.sessionId = qEnvironmentVariable("XDG_SESSION_ID");
    report.uid = ::getuid();
    Q_EMIT reported(report);
}

void DesktopIdlePoller::asyncCall(const QDBusMessage &call, std::function<void(const QDBusMessage &)> onReply)
{
    QDBusConnection bus = QDBusConnection::sessionBus();
    if (!bus.isConnected()) {
        onReply(QDBusMessage::createError(QStringLiteral("org.freedesktop.DBus.Error.Disconnected"),
                                          QStringLiteral("no session bus")));
        return;
    }
    auto *watcher = new QDBusPendingCallWatcher(bus.asyncCall(call, kCallTimeoutMs), this);
    connect(watcher, &QDBusPendingCallWatcher::finished, this,
            [this, watcher, generation = m_generation, onReply = std::move(onReply)] {
                watcher->deleteLater();
                if (generation == m_generation)
                    onReply(watcher->reply());
            });
}

void DesktopIdlePoller::askGnome()
{
    const QDBusMessage call = QDBusMessage::createMethodCall(
        QStringLiteral("org.gnome.Mutter.IdleMonitor"), QStringLiteral("/org/gnome/Mutter/IdleMonitor/Core"),
        QStringLiteral("org.gnome.Mutter.IdleMonitor"), QStringLiteral("GetIdletime"));
    asyncCall(call, [this](const QDBusMessage &reply) {
        if (reply.type() == QDBusMessage::ReplyMessage && reply.signature() == QLatin1String("t"))
            answer(Source::Gnome, qint64(qMin<qulonglong>(reply.arguments().at(0).toULongLong(), kMaxIdleMs)),
                   false); // GNOME Shell's lock sets logind's LockedHint
        else
            failed(Source::Gnome);
    });
}

void DesktopIdlePoller::askKde()
{
    const QDBusMessage call = QDBusMessage::createMethodCall(
        QStringLiteral("org.freedesktop.ScreenSaver"), QStringLiteral("/ScreenSaver"),
        QStringLiteral("org.freedesktop.ScreenSaver"), QStringLiteral("GetSessionIdleTime"));
    asyncCall(call, [this](const QDBusMessage &reply) {
        // Milliseconds, although the freedesktop spec says seconds: KDE answers KIdleTime's ms (Plasma 5.27's
        // ksmserver: +3106 over 3 s). On Wayland KWin answers an error ("not supported"): logind's word alone then.
        if (reply.type() == QDBusMessage::ReplyMessage && reply.signature() == QLatin1String("u"))
            askKdeLock(qMin<qint64>(qint64(reply.arguments().at(0).toUInt()), kMaxIdleMs));
        else
            failed(Source::Kde);
    });
}

void DesktopIdlePoller::askKdeLock(qint64 idleMs)
{
    const QDBusMessage call = QDBusMessage::createMethodCall(
        QStringLiteral("org.freedesktop.ScreenSaver"), QStringLiteral("/ScreenSaver"),
        QStringLiteral("org.freedesktop.ScreenSaver"), QStringLiteral("GetActive"));
    asyncCall(call, [this, idleMs](const QDBusMessage &reply) {
        // No answer on the lock: the idle time still counts, and logind's LockedHint still tells a lock.
        const bool locked = reply.type() == QDBusMessage::ReplyMessage && reply.signature() == QLatin1String("b")
                            && reply.arguments().at(0).toBool();
        answer(Source::Kde, idleMs, locked);
    });
}

void DesktopIdlePoller::askX11()
{
    // A round trip to the local X server, as every X client makes: no D-Bus, nothing to wait for asynchronously.
    void *display = x11Display();
    const qint64 idleMs = display ? XScreenSaverLibrary::instance().idleMs(display) : -1;
    if (idleMs >= 0)
        answer(Source::X11, qMin(idleMs, kMaxIdleMs), false);
    else
        failed(Source::X11);
}

void DesktopIdlePoller::answer(Source source, qint64 idleMs, bool locked)
{
    const QString label = source == Source::Gnome ? kGnomeLabel : source == Source::Kde ? kKdeLabel : kX11Label;
    if (source != m_answering)
        qCInfo(lcTray, "the desktop's idle time comes from %s", qPrintable(label));
    m_inFlight = false;
    // The desktop's own interface outranks X11's count of input, which knows no lock: idlegpu started at login before
    // the shell got X11's answer first, and asks GNOME and KDE again at each poll (absent, they fail at once).
    m_source = source == Source::X11 ? Source::Gnome : source;
    m_answering = source;
    DesktopIdleReport report;
    report.answered = true;
    report.source = label;
    report.idleSinceMs = m_clock->nowMs() - idleMs;
    report.locked = locked;
    report.sessionId = qEnvironmentVariable("XDG_SESSION_ID");
    report.uid = ::getuid();
    Q_EMIT reported(report);
}

void DesktopIdlePoller::failed(Source source)
{
    switch (source) {
    case Source::Gnome: ask(Source::Kde); return;
    case Source::Kde: ask(Source::X11); return;
    case Source::X11:
    case Source::None: ask(Source::None); return;
    }
}
