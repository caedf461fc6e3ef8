// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "bus/busservice.h"

// A call's way, all of it on the bus thread (QtDBus posts each call to the object's thread); nothing here waits:
//
//   handleMessage ─ member, signature, argument limits ──────────────── InvalidArgs / InvalidArgument / UnknownWorkload
//        │
//   CallerRegistry::lookup (GetConnectionCredentials, async, once per name)
//        │
//   per-uid rate bucket (reads, acts) ─────────────────────────────── RateLimited
//        │ GetState: the JSON of the caller's view, cached per state ► reply
//   Authorizer (polkit CheckAuthorization, async; pending caps) ───── Busy / NotAuthorized / Cancelled /
//        │                                                              InteractionRequired / AuthorityUnavailable
//   act: pauseRequested/resumeRequested (queued to the monitor's thread), or the config file ► reply
//
// A caller that leaves while polkit is asked has its check cancelled (CancelCheckAuthorization) and gets nothing.

#include "base/clock.h"
#include "bus/busnames.h"
#include "interfacefile.h"
#include "bus/procview.h"
#include "config/config.h"
#include "config/inifile.h"

#include <QCryptographicHash>
#include <QDBusMetaType>
#include <QFileInfo>
#include <QJsonDocument>
#include <QTimer>
#include <QVariantMap>

namespace {

const QString kInvalidArgs = QStringLiteral("org.freedesktop.DBus.Error.InvalidArgs");
const QString kUnknownMethod = QStringLiteral("org.freedesktop.DBus.Error.UnknownMethod");

// The <interface> element of resources/io.github.idlegpu.Idlegpu1.xml, for Introspect: the package's own file,
// compiled in (monitor/bus/CMakeLists.txt), so that the two cannot differ.
QString interfaceXml()
{
    const QString file = QString::fromUtf8(kInterfaceFile);
    const qsizetype begin = file.indexOf(QLatin1String("  <interface "));
    const QLatin1String end("</interface>\n");
    return file.mid(begin, file.indexOf(end, begin) + end.size() - begin);
}

QString etagOf(const QByteArray &contents)
{
    return QString::fromLatin1(QCryptographicHash::hash(contents, QCryptographicHash::Sha256).toHex());
}

bool isEtag(const QString &text)
{
    if (text.size() != BusNames::Limit::etagHexDigits)
        return false;
    for (const QChar c : text)
        if (!((c >= QLatin1Char('0') && c <= QLatin1Char('9')) || (c >= QLatin1Char('a') && c <= QLatin1Char('f'))
              || (c >= QLatin1Char('A') && c <= QLatin1Char('F'))))
            return false;
    return true;
}

// The config file as it is now: empty where there is none yet (not set up). False with *error when it cannot be read.
bool readConfig(const QString &path, QByteArray *contents, QString *error)
{
    if (!QFileInfo::exists(path)) {
        contents->clear();
        return true;
    }
    std::optional<QByteArray> read = readIniFile(path, error);
    if (!read)
        return false;
    *contents = std::move(*read);
    return true;
}

} // namespace

BusService::BusService(const QDBusConnection &connection, const Options &options,
                       std::unique_ptr<Authorizer> authorizer, QObject *parent)
    : QDBusVirtualObject(parent), m_connection(connection), m_options(options), m_authorizer(std::move(authorizer)),
      m_callers(new CallerRegistry(connection, options.serviceUid, options.procRoot, this)),
      m_reads(options.readsPerSecond, options.readBurst), m_acts(options.actsPerSecond, options.actBurst),
      m_stateTimer(new QTimer(this))
{
    m_clock.start();
    m_authorizer->setParent(nullptr);
    connect(m_callers, &CallerRegistry::vanished, m_authorizer.get(), &Authorizer::cancelFor);
    m_stateTimer->setSingleShot(true);
    connect(m_stateTimer, &QTimer::timeout, this, &BusService::emitStateChanged);
    // What every local user may see of a process: a user of no group on the host's /proc (pid 1's mounts).
    m_broadcastView.uid = uint(-2);
    m_broadcastView.serviceUid = options.serviceUid;
    m_broadcastView.seesOthers = ProcView::seesOthers(ProcView::readMountInfo(1, options.procRoot), m_broadcastView.uid,
                                                      {});
}

BusService::~BusService()
{
    if (m_registered)
        m_connection.unregisterObject(BusNames::objectPath);
}

bool BusService::registerOn()
{
    m_registered = m_connection.registerVirtualObject(BusNames::objectPath, this, QDBusConnection::SingleNode);
    return m_registered;
}

QString BusService::introspect(const QString &) const
{
    static const QString xml = interfaceXml();
    return xml;
}

void BusService::reply(const QDBusMessage &message, const QList<QVariant> &arguments)
{
    QDBusMessage answer = message.createReply(arguments);
    m_connection.send(answer);
}

void BusService::replyError(const QDBusMessage &message, const QString &name, const QString &text)
{
    m_connection.send(message.createErrorReply(name, text));
}

bool BusService::handleMessage(const QDBusMessage &message, const QDBusConnection &)
{
    if (message.type() != QDBusMessage::MethodCallMessage)
        return false;
    const QString interface = message.interface();
    const QString member = message.member();
    if (interface == QLatin1String("org.freedesktop.DBus.Introspectable") && member == QLatin1String("Introspect")
        && message.signature().isEmpty()) {
        reply(message, {QStringLiteral("<!DOCTYPE node PUBLIC \"-//freedesktop//DTD D-BUS Object Introspection "
                                       "1.0//EN\"\n \"http://www.freedesktop.org/standards/dbus/1.0/introspect.dtd\">\n"
                                       "<node>\n%1</node>\n")
                            .arg(introspect(message.path()))});
        return true;
    }
    struct Known
    {
        const char *name;
        const char *signature;
        Method method;
    };
    static constexpr Known kMethods[] = {{"GetState", "", Method::GetState},
                                         {"Pause", "st", Method::Pause},
                                         {"Resume", "s", Method::Resume},
                                         {"GetConfig", "", Method::GetConfig},
                                         {"SetConfig", "ays", Method::SetConfig}};
    const Known *known = nullptr;
    if (interface.isEmpty() || interface == BusNames::interface)
        for (const Known &candidate : kMethods)
            if (member == QLatin1String(candidate.name))
                known = &candidate;
    if (!known) {
        replyError(message, kUnknownMethod,
                   QStringLiteral("%1 has no method %2.%3")
                       .arg(BusNames::objectPath, interface.isEmpty() ? QStringLiteral("?") : interface, member));
        return true;
    }
    if (message.signature() != QLatin1String(known->signature)) {
        replyError(message, kInvalidArgs,
                   QStringLiteral("%1 takes (%2), not (%3)")
                       .arg(member, QLatin1String(known->signature), message.signature()));
        return true;
    }

    // The limits, before any work.
    const QList<QVariant> arguments = message.arguments();
    if (known->method == Method::Pause || known->method == Method::Resume) {
        const QString workload = arguments.at(0).toString();
        if (workload.toUtf8().size() > BusNames::Limit::workloadIdBytes) {
            replyError(message, BusNames::Error::invalidArgument,
                       QStringLiteral("a workload id has at most %1 bytes").arg(BusNames::Limit::workloadIdBytes));
            return true;
        }
        if (known->method == Method::Pause && arguments.at(1).toULongLong() > BusNames::Limit::pauseSeconds) {
            replyError(message, BusNames::Error::invalidArgument,
                       QStringLiteral("a pause lasts at most %1 seconds (30 days)").arg(BusNames::Limit::pauseSeconds));
            return true;
        }
        if (!workload.isEmpty() && !m_state.config.workload(workload)) {
            replyError(message, BusNames::Error::unknownWorkload,
                       QStringLiteral("no workload has the id \"%1\"").arg(workload));
            return true;
        }
    } else if (known->method == Method::SetConfig) {
        if (arguments.at(0).toByteArray().size() > IniDocument::maxFileSize) {
            replyError(message, BusNames::Error::invalidArgument,
                       QStringLiteral("a configuration has at most %1 bytes").arg(IniDocument::maxFileSize));
            return true;
        }
        if (!isEtag(arguments.at(1).toString())) {
            replyError(message, BusNames::Error::invalidArgument,
                       QStringLiteral("an etag is %1 hex digits").arg(BusNames::Limit::etagHexDigits));
            return true;
        }
    }

    const Method method = known->method;
    m_callers->lookup(message.service(), [this, method, message](const BusCaller *caller) {
        if (!caller) {
            replyError(message, BusNames::Error::rateLimited,
                       QStringLiteral("the bus does not say who calls (too many calls at once?)"));
            return;
        }
        serve(method, message, *caller);
    });
    return true;
}

void BusService::serve(Method method, const QDBusMessage &message, const BusCaller &caller)
{
    const qint64 now = m_clock.elapsed();
    if (method == Method::GetState) {
        if (caller.uid != 0 && !m_reads.take(caller.uid, now)) {
            replyError(message, BusNames::Error::rateLimited,
                       QStringLiteral("too many calls from uid %1; try again in a second").arg(caller.uid));
            return;
        }
        reply(message, {QVariant::fromValue(qulonglong(m_generation)), stateJsonFor(caller.view)});
        return;
    }
    if (!m_acts.take(caller.uid, now)) {
        replyError(message, BusNames::Error::rateLimited,
                   QStringLiteral("too many requests from uid %1; try again in a second").arg(caller.uid));
        return;
    }
    const QList<QVariant> arguments = message.arguments();
    switch (method) {
    case Method::GetState: break;
    case Method::Pause: {
        const QString workload = arguments.at(0).toString();
        const qulonglong seconds = arguments.at(1).toULongLong();
        const QMap<QString, QString> details{{QStringLiteral("workload"), workload},
                                             {QStringLiteral("seconds"), QString::number(seconds)}};
        authorizeThen(message, caller, BusNames::pauseAction, details, [this, message, workload, seconds] {
            const qint64 untilMs = seconds == 0 ? 0 : SystemClock::instance()->nowMs() + qint64(seconds) * 1000;
            Q_EMIT pauseRequested(workload, untilMs);
            reply(message);
        });
        return;
    }
    case Method::Resume: {
        const QString workload = arguments.at(0).toString();
        authorizeThen(message, caller, BusNames::pauseAction, {{QStringLiteral("workload"), workload}},
                      [this, message, workload] {
                          Q_EMIT resumeRequested(workload);
                          reply(message);
                      });
        return;
    }
    case Method::GetConfig:
        authorizeThen(message, caller, BusNames::configureAction, {}, [this, message] { getConfig(message); });
        return;
    case Method::SetConfig: {
        const QByteArray contents = arguments.at(0).toByteArray();
        const QString etag = arguments.at(1).toString().toLower();
        authorizeThen(message, caller, BusNames::configureAction, {},
                      [this, message, contents, etag] { setConfig(message, contents, etag); });
        return;
    }
    }
}

void BusService::authorizeThen(const QDBusMessage &message, const BusCaller &caller, const QString &action,
                               const QMap<QString, QString> &details, std::function<void()> act)
{
    if (m_authorizer->pendingOf(caller.uid) >= m_options.pendingPerUid
        || m_authorizer->pending() >= m_options.pendingInAll) {
        replyError(message, BusNames::Error::busy,
                   QStringLiteral("too many authorizations are pending; try again when they are answered"));
        return;
    }
    m_authorizer->check(caller, action, details, message.isInteractiveAuthorizationAllowed(),
                        [this, message, act = std::move(act)](const Authorizer::Answer &answer) {
                            switch (answer.verdict) {
                            case Authorizer::Verdict::Yes: act(); return;
                            case Authorizer::Verdict::No:
                                replyError(message, BusNames::Error::notAuthorized,
                                           answer.reason.isEmpty() ? QStringLiteral("not authorized") : answer.reason);
                                return;
                            case Authorizer::Verdict::Challenge:
                                replyError(message, BusNames::Error::interactionRequired, answer.reason);
                                return;
                            case Authorizer::Verdict::Dismissed:
                                replyError(message, BusNames::Error::cancelled, answer.reason);
                                return;
                            case Authorizer::Verdict::Unavailable:
                                replyError(message, BusNames::Error::authorityUnavailable, answer.reason);
                                return;
                            }
                        });
}

void BusService::getConfig(const QDBusMessage &message)
{
    QByteArray contents;
    QString error;
    if (!readConfig(m_options.configPath, &contents, &error)) {
        replyError(message, BusNames::Error::failed, error);
        return;
    }
    reply(message, {m_options.configPath, contents, etagOf(contents)});
}

void BusService::setConfig(const QDBusMessage &message, const QByteArray &contents, const QString &etag)
{
    const QString &path = m_options.configPath;
    QByteArray current;
    QString error;
    if (!readConfig(path, &current, &error)) {
        replyError(message, BusNames::Error::failed, error);
        return;
    }
    if (etagOf(current) != etag) {
        replyError(message, BusNames::Error::conflict,
                   QStringLiteral("%1 changed since it was read; load it again").arg(path));
        return;
    }
    // The checks of --check-config: an error, or a workload that would be refused, fails it.
    const ConfigLoadResult checked = ConfigLoader::parse(contents, path);
    if (!checked.ok() || !checked.refusedWorkloads().isEmpty()) {
        QStringList lines;
        for (const ConfigDiagnostic &problem : checked.diagnostics)
            if (problem.severity == ConfigDiagnostic::Error && lines.size() < BusNames::Limit::configProblemLines)
                lines.append(problem.toString());
        replyError(message, BusNames::Error::invalidConfig, lines.join(QLatin1Char('\n')));
        return;
    }
    if (!replaceIniFile(path, contents, &error)) {
        replyError(message, BusNames::Error::failed, error);
        return;
    }
    reply(message);
}

QString BusService::stateJsonFor(const StateJson::View &view)
{
    for (const auto &[cachedView, json] : std::as_const(m_jsonCache))
        if (cachedView == view)
            return json;
    const QString json = QString::fromUtf8(
        QJsonDocument(StateJson::toJson(m_state, view, StateJson::Now::system())).toJson(QJsonDocument::Compact));
    if (m_jsonCache.size() >= 64)
        m_jsonCache.removeFirst();
    m_jsonCache.append({view, json});
    return json;
}

void BusService::setState(const MonitorState &state)
{
    m_state = state;
    m_haveState = true;
    ++m_generation;
    m_jsonCache.clear();
    if (m_stateTimer->isActive())
        return; // the trailing signal carries this generation
    const qint64 sinceLast = m_clock.elapsed() - m_lastStateSignalMs;
    if (sinceLast >= m_options.stateIntervalMs)
        emitStateChanged();
    else
        m_stateTimer->start(int(m_options.stateIntervalMs - sinceLast));
}

void BusService::emitStateChanged()
{
    m_lastStateSignalMs = m_clock.elapsed();
    QDBusMessage signal = QDBusMessage::createSignal(BusNames::objectPath, BusNames::interface,
                                                     QStringLiteral("StateChanged"));
    signal << QVariant::fromValue(qulonglong(m_generation));
    m_connection.send(signal);
}

void BusService::notifyPreempted(const PreemptionEvent &event)
{
    const qulonglong id = ++m_preemptionEvents;
    const Holder &culprit = event.culprit;
    const bool known = !(culprit.hidden && culprit.pid == 0);
    QVariantMap full{{QStringLiteral("event"), QVariant::fromValue(id)}};
    if (known) {
        full.insert(QStringLiteral("pid"), QVariant::fromValue(uint(culprit.pid)));
        if (culprit.uid != uint(-1))
            full.insert(QStringLiteral("uid"), QVariant::fromValue(culprit.uid));
        full.insert(QStringLiteral("user"), culprit.user);
        full.insert(QStringLiteral("comm"), culprit.comm);
    }
    const double ms = event.openToStopMs ? *event.openToStopMs : -1.0;
    const auto send = [&](QDBusMessage signal, const QVariantMap &holder) {
        signal << QVariant::fromValue(uint(std::max(event.gpu, 0))) << event.workloadId << holder << ms;
        m_connection.send(signal);
    };
    const QVariantMap broadcast = m_broadcastView.seesOthers
                                      ? full
                                      : QVariantMap{{QStringLiteral("event"), QVariant::fromValue(id)}};
    send(QDBusMessage::createSignal(BusNames::objectPath, BusNames::interface, QStringLiteral("Preempted")), broadcast);
    if (!known || culprit.uid == uint(-1))
        return;
    for (const QString &name : m_callers->namesOfUid(culprit.uid))
        send(QDBusMessage::createTargetedSignal(name, BusNames::objectPath, BusNames::interface,
                                                QStringLiteral("Preempted")),
             full);
}
