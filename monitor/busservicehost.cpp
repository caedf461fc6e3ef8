// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "busservicehost.h"

//   monitor's thread                     bus thread (nice 5)                        dbus-daemon
//   Monitor::stateChanged ─ state() by value ─► BusService::setState ─ StateChanged (coalesced) ──►
//   Monitor::preempted ────── queued ─────────► BusService::notifyPreempted ─ Preempted ─────────►
//   setPausedAll/... ◄────── queued ────────── pauseRequested/resumeRequested ◄─ calls, polkit ───
//
// The monitor's side only posts events; it never waits for the bus thread. The connection is the bus thread's own
// (QDBusConnection::connectToBus), never the shared systemBus() that logind presence uses.

#include "base/logging.h"
#include "bus/authorizer.h"
#include "bus/busnames.h"
#include "bus/busservice.h"
#include "monitor.h"
#include "monitorhost.h"

#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QDBusReply>

#include <sys/resource.h>
#include <sys/syscall.h>
#include <unistd.h>

std::optional<BusServiceHost::Bus> BusServiceHost::busOfProcess()
{
    const QByteArray chosen = qgetenv("IDLEGPU_BUS");
    if (chosen == "system")
        return Bus::System;
    if (chosen == "session")
        return Bus::Session;
    if (chosen == "none")
        return std::nullopt;
    if (!chosen.isEmpty())
        qCWarning(lcMonitor, "IDLEGPU_BUS=%s is not system, session or none; ignored", chosen.constData());
    return ::geteuid() == 0 ? Bus::System : Bus::Session;
}

QString BusServiceHost::busName(Bus bus)
{
    return bus == Bus::System ? QStringLiteral("system bus") : QStringLiteral("session bus");
}

BusServiceHost::BusServiceHost(const Options &options, QObject *parent)
    : QObject(parent), m_options(options),
      m_connectionName(QStringLiteral("idlegpu-service-%1").arg(quintptr(this), 0, 16))
{
    m_thread.setObjectName(QStringLiteral("idlegpu-bus"));
    m_thread.start();
}

BusServiceHost::~BusServiceHost()
{
    BusService *service = m_service;
    const QString name = m_connectionName;
    // Unregister and leave on the bus thread, where the object lives; then end the thread.
    auto *context = new QObject;
    context->moveToThread(&m_thread);
    QMetaObject::invokeMethod(
        context,
        [service, name, context] {
            delete service;
            QDBusConnection::disconnectFromBus(name);
            delete context;
        },
        Qt::BlockingQueuedConnection);
    m_thread.quit();
    m_thread.wait();
}

BusServiceHost::Result BusServiceHost::start(QString *detail)
{
    Result result = Result::NoBus;
    auto *context = new QObject;
    context->moveToThread(&m_thread);
    QMetaObject::invokeMethod(
        context,
        [this, &result, detail, context] {
            delete context;
            // The bus thread is the service's, which must never take CPU from the monitor's thread.
            ::setpriority(PRIO_PROCESS, pid_t(::syscall(SYS_gettid)), 5);
            const QString where = m_options.address.isEmpty() ? busName(m_options.bus) : m_options.address;
            QDBusConnection connection = !m_options.address.isEmpty()
                                             ? QDBusConnection::connectToBus(m_options.address, m_connectionName)
                                             : QDBusConnection::connectToBus(m_options.bus == Bus::System
                                                                                 ? QDBusConnection::SystemBus
                                                                                 : QDBusConnection::SessionBus,
                                                                             m_connectionName);
            if (!connection.isConnected()) {
                *detail = QStringLiteral("cannot connect to the %1: %2").arg(where, connection.lastError().message());
                return;
            }
            BusService::Options options;
            options.serviceUid = ::geteuid();
            options.configPath = m_options.configPath;
            options.procRoot = m_options.procRoot;
            options.stateIntervalMs = BusNames::stateSignalIntervalMs;
            options.actsPerSecond = m_options.actsPerSecond;
            options.actBurst = m_options.actBurst;
            std::unique_ptr<Authorizer> authorizer;
            if (m_options.usePolkit)
                authorizer = std::make_unique<PolkitAuthorizer>(connection);
            else
                authorizer = std::make_unique<SameUserAuthorizer>(::geteuid());
            auto *service = new BusService(connection, options, std::move(authorizer));
            if (!service->registerOn()) {
                *detail = QStringLiteral("cannot export %1 on the %2").arg(BusNames::objectPath, where);
                delete service;
                return;
            }
            // DoNotQueue: a name another idlegpu owns is an answer at once, not a place in a queue.
            QDBusMessage request = QDBusMessage::createMethodCall(
                QStringLiteral("org.freedesktop.DBus"), QStringLiteral("/org/freedesktop/DBus"),
                QStringLiteral("org.freedesktop.DBus"), QStringLiteral("RequestName"));
            request << QString(BusNames::service) << uint(4); // DBUS_NAME_FLAG_DO_NOT_QUEUE
            const QDBusMessage answer = connection.call(request, QDBus::Block, BusNames::callTimeoutMs);
            if (answer.type() == QDBusMessage::ErrorMessage) {
                *detail = QStringLiteral("the %1 refuses idlegpu its name %2: %3")
                              .arg(where, BusNames::service, answer.errorMessage());
                delete service;
                return;
            }
            const uint code = answer.arguments().value(0).toUInt();
            if (code != 1 && code != 4) { // DBUS_REQUEST_NAME_REPLY_PRIMARY_OWNER, _ALREADY_OWNER
                const QDBusReply<uint> owner = connection.interface()->servicePid(BusNames::service);
                *detail = owner.isValid() ? QStringLiteral("it owns %1 on the %2 (pid %3)")
                                                .arg(BusNames::service, where)
                                                .arg(owner.value())
                                          : QStringLiteral("it owns %1 on the %2").arg(BusNames::service, where);
                result = Result::NameTaken;
                delete service;
                return;
            }
            m_service = service;
            result = Result::Published;
        },
        Qt::BlockingQueuedConnection);
    return result;
}

void BusServiceHost::attach(Monitor *monitor)
{
    BusService *service = m_service;
    const auto sendState = [monitor, service] {
        QMetaObject::invokeMethod(
            service, [service, state = monitor->state()] { service->setState(state); }, Qt::QueuedConnection);
    };
    connect(monitor, &Monitor::stateChanged, monitor, sendState);
    connect(monitor, &Monitor::preempted, service, &BusService::notifyPreempted, Qt::QueuedConnection);
    connect(service, &BusService::pauseRequested, monitor, [monitor](const QString &workload, qint64 untilMs) {
        if (workload.isEmpty())
            monitor->setPausedAll(true, untilMs);
        else
            monitor->setWorkloadPaused(workload, true, untilMs);
    });
    connect(service, &BusService::resumeRequested, monitor, [monitor](const QString &workload) {
        if (workload.isEmpty())
            monitor->resumeAll();
        else
            monitor->setWorkloadPaused(workload, false);
    });
    sendState();
}

void BusServiceHost::attach(MonitorHost *host)
{
    BusService *service = m_service;
    connect(host, &MonitorHost::stateChanged, service, &BusService::setState, Qt::QueuedConnection);
    connect(host, &MonitorHost::preempted, service, &BusService::notifyPreempted, Qt::QueuedConnection);
    connect(service, &BusService::pauseRequested, host, [host](const QString &workload, qint64 untilMs) {
        if (workload.isEmpty())
            host->setPausedAll(true, untilMs);
        else
            host->setWorkloadPaused(workload, true, untilMs);
    });
    connect(service, &BusService::resumeRequested, host, [host](const QString &workload) {
        if (workload.isEmpty())
            host->resumeAll();
        else
            host->setWorkloadPaused(workload, false);
    });
    QMetaObject::invokeMethod(
        service, [service, state = host->state()] { service->setState(state); }, Qt::QueuedConnection);
}
