// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// A caller that floods idlegpu's D-Bus service, for bench_preemption --flood: RATE calls a second on the bus at
// ADDRESS, half GetState and half Pause("", 60) without interactive authorization (refused by polkit, or
// RateLimited), while it is switched on: SIGUSR1 switches it on, SIGUSR2 off. It starts off and waits for the
// service's name. Each second it prints one line to stdout:
//   second <n> on_ms <ms switched on> sent <calls> answered <replies and errors> errors <error replies>
//   pending <unanswered> skipped <calls left out> limited <RateLimited or Busy errors>
// It never waits for a reply before sending the next call, but keeps at most 100 unanswered (dbus-daemon's system
// bus allows 128 per connection): a call it leaves out then is counted as "skipped" in the line's end.
//
//   busflooder ADDRESS RATE
#include "bus/busnames.h"

#include <QCoreApplication>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QDBusPendingCallWatcher>
#include <QElapsedTimer>
#include <QThread>
#include <QTimer>

#include <csignal>
#include <cstdio>

namespace {

volatile std::sig_atomic_t g_on = 0;

void switchOn(int)
{
    g_on = 1;
}
void switchOff(int)
{
    g_on = 0;
}

constexpr int kMaxPending = 100;
constexpr int kTickMs = 5;

} // namespace

int main(int argc, char **argv)
{
    QCoreApplication app(argc, argv);
    if (argc != 3 || atoi(argv[2]) < 1) {
        fprintf(stderr, "usage: busflooder ADDRESS RATE\n");
        return 2;
    }
    const QString address = QString::fromLocal8Bit(argv[1]);
    const int rate = atoi(argv[2]);
    std::signal(SIGUSR1, switchOn);
    std::signal(SIGUSR2, switchOff);

    QDBusConnection bus = QDBusConnection::connectToBus(address, QStringLiteral("flood"));
    if (!bus.isConnected()) {
        fprintf(stderr, "busflooder: cannot connect to %s: %s\n", argv[1], qPrintable(bus.lastError().message()));
        return 1;
    }
    for (int i = 0; i < 300 && !bus.interface()->isServiceRegistered(BusNames::service).value(); ++i)
        QThread::msleep(100);
    if (!bus.interface()->isServiceRegistered(BusNames::service).value()) {
        fprintf(stderr, "busflooder: no %s on the bus after 30 s\n", qPrintable(QString(BusNames::service)));
        return 1;
    }
    printf("ready\n");
    fflush(stdout);

    long long sent = 0, answered = 0, errors = 0, limited = 0, skipped = 0, second = 0, onMs = 0;
    int pending = 0;
    long long due = 0; // calls owed by the clock since the flood was switched on
    QElapsedTimer clock;
    clock.start();
    long long lastTickMs = 0, lastReportMs = 0;
    QTimer tick;
    QObject::connect(&tick, &QTimer::timeout, &app, [&] {
        const long long now = clock.elapsed();
        if (g_on) {
            due += (now - lastTickMs) * rate;
            onMs += now - lastTickMs;
        }
        lastTickMs = now;
        for (; g_on && due >= 1000; due -= 1000) {
            if (pending >= kMaxPending) {
                ++skipped;
                continue;
            }
            QDBusMessage call = QDBusMessage::createMethodCall(
                BusNames::service, BusNames::objectPath, BusNames::interface,
                sent % 2 ? QStringLiteral("Pause") : QStringLiteral("GetState"));
            if (sent % 2)
                call.setArguments({QString(), QVariant::fromValue(quint64(60))});
            call.setInteractiveAuthorizationAllowed(false);
            auto *watcher = new QDBusPendingCallWatcher(bus.asyncCall(call, BusNames::callTimeoutMs), &app);
            ++sent;
            ++pending;
            QObject::connect(watcher, &QDBusPendingCallWatcher::finished, &app, [&](QDBusPendingCallWatcher *w) {
                --pending;
                ++answered;
                if (w->isError()) {
                    ++errors;
                    const QString name = w->error().name();
                    if (name == BusNames::Error::rateLimited || name == BusNames::Error::busy)
                        ++limited;
                }
                w->deleteLater();
            });
        }
        if (!g_on)
            due = 0;
        if (now - lastReportMs >= 1000) {
            lastReportMs = now;
            printf("second %lld on_ms %lld sent %lld answered %lld errors %lld pending %d skipped %lld limited %lld\n",
                   second++, onMs, sent, answered, errors, pending, skipped, limited);
            fflush(stdout);
            sent = answered = errors = skipped = limited = onMs = 0;
        }
    });
    tick.start(kTickMs);
    return QCoreApplication::exec();
}
