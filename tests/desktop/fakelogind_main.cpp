// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The desktop suite's logind (tests/desktop/lib.sh): tests/fakelogind.h as a program, on the private "system" bus
// at DBUS_SYSTEM_BUS_ADDRESS, with one local session of the caller's uid, active and in use (IdleHint false), so
// that idlegpu's pause_while_active weighs the desktop's idle time against a session logind knows.
//
// Usage: fake_logind [SESSION_TYPE]   x11 (default) or wayland; the session's id is $XDG_SESSION_ID, else "1".
// Prints "ready" once it owns org.freedesktop.login1; runs until killed.
#include "fakelogind.h"

#include <QCoreApplication>

#include <stdio.h>
#include <unistd.h>

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    const QString address = qEnvironmentVariable("DBUS_SYSTEM_BUS_ADDRESS");
    if (address.isEmpty()) {
        fprintf(stderr, "fake_logind: DBUS_SYSTEM_BUS_ADDRESS is not set\n");
        return 2;
    }
    const QString type = argc > 1 ? QString::fromLocal8Bit(argv[1]) : QStringLiteral("x11");
    const QString sessionId = qEnvironmentVariableIsEmpty("XDG_SESSION_ID") ? QStringLiteral("1")
                                                                            : qEnvironmentVariable("XDG_SESSION_ID");
    FakeLogind logind;
    QString why;
    if (!logind.start(address, &why)) {
        fprintf(stderr, "fake_logind: %s\n", qPrintable(why));
        return 1;
    }
    logind.addSession(sessionId, ::getuid(), FakeLogind::localSession(type));
    printf("ready: session %s of uid %u, type %s\n", qPrintable(sessionId), ::getuid(), qPrintable(type));
    fflush(stdout);
    return QCoreApplication::exec();
}
