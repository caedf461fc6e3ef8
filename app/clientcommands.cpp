// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "clientcommands.h"

#include "base/duration.h"
#include "bus/busnames.h"
#include "bus/statejson.h"

#include <QCoreApplication>
#include <QDBusConnection>
#include <QDBusConnectionInterface>
#include <QDBusMessage>
#include <QDBusReply>
#include <QDateTime>
#include <QFile>
#include <QFileInfo>
#include <QJsonArray>
#include <QJsonDocument>
#include <QStandardPaths>
#include <QTextStream>

#include <functional>
#include <vector>

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

namespace ClientCommands {

namespace {

struct Cli
{
    Q_DECLARE_TR_FUNCTIONS(idlegpu)
};

void printErr(const QString &text)
{
    QTextStream(stderr) << text << Qt::endl;
}

void printOut(const QString &text)
{
    QTextStream(stdout) << text << Qt::endl;
}

QString busWords(Source source)
{
    return source == Source::System ? Cli::tr("the system bus") : Cli::tr("your session bus");
}

// The session bus without D-Bus's autolaunch: a `--status` must not start a bus (dbus-launch) as a side effect.
QString sessionBusAddress()
{
    const QString address = qEnvironmentVariable("DBUS_SESSION_BUS_ADDRESS");
    if (!address.isEmpty())
        return address;
    const QString runtime = qEnvironmentVariable("XDG_RUNTIME_DIR");
    if (!runtime.isEmpty() && QFileInfo::exists(runtime + QStringLiteral("/bus")))
        return QStringLiteral("unix:path=") + runtime + QStringLiteral("/bus");
    return QString();
}

// A connection to the bus of `source` where the service's name has the owner it must have: root on the system bus
// (the policy file lets no one else own it there, but a bus without it would), this user on the session bus.
std::optional<QDBusConnection> connectToService(Source source, QStringList *notes)
{
    const QString name = source == Source::System ? QStringLiteral("idlegpu-client-system")
                                                  : QStringLiteral("idlegpu-client-session");
    QDBusConnection connection(name);
    if (source == Source::System) {
        connection = QDBusConnection::connectToBus(QDBusConnection::SystemBus, name);
    } else {
        const QString address = sessionBusAddress();
        if (address.isEmpty())
            return std::nullopt;
        connection = QDBusConnection::connectToBus(address, name);
    }
    if (!connection.isConnected()) {
        QDBusConnection::disconnectFromBus(name);
        return std::nullopt;
    }
    const QDBusReply<bool> owned = connection.interface()->isServiceRegistered(BusNames::service);
    if (!owned.isValid() || !owned.value()) {
        QDBusConnection::disconnectFromBus(name);
        return std::nullopt;
    }
    const QDBusReply<uint> uid = connection.interface()->serviceUid(BusNames::service);
    const uint expected = source == Source::System ? 0 : ::geteuid();
    if (!uid.isValid() || uid.value() != expected) {
        notes->append(Cli::tr("Passed over the idlegpu service on %1: it runs as uid %2, not as %3.")
                          .arg(busWords(source), uid.isValid() ? QString::number(uid.value()) : QStringLiteral("?"))
                          .arg(expected));
        QDBusConnection::disconnectFromBus(name);
        return std::nullopt;
    }
    return connection;
}

QDBusMessage serviceCall(const QString &method)
{
    return QDBusMessage::createMethodCall(BusNames::service, BusNames::objectPath, BusNames::interface, method);
}

// GetState on `connection`: the JSON, or nothing with `*error` set.
std::optional<QJsonObject> getState(const QDBusConnection &connection, QString *error)
{
    const QDBusMessage reply = connection.call(serviceCall(QStringLiteral("GetState")), QDBus::Block,
                                               BusNames::callTimeoutMs);
    if (reply.type() == QDBusMessage::ErrorMessage) {
        *error = QStringLiteral("%1 (%2)").arg(reply.errorMessage(), reply.errorName());
        return std::nullopt;
    }
    const QList<QVariant> arguments = reply.arguments();
    if (reply.signature() != QLatin1String("ts") || arguments.size() != 2) {
        *error = Cli::tr("an answer of the signature \"%1\", not \"ts\"").arg(reply.signature());
        return std::nullopt;
    }
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(arguments.at(1).toString().toUtf8(), &parseError);
    if (parseError.error != QJsonParseError::NoError || !document.isObject()) {
        *error = Cli::tr("JSON that does not read: %1").arg(parseError.errorString());
        return std::nullopt;
    }
    return document.object();
}

// A service's name, as the user sees it: "the idlegpu service on the system bus".
QString serviceWords(Source source)
{
    return Cli::tr("the idlegpu service on %1").arg(busWords(source));
}

// The terminal's Ctrl-C and a SIGTERM end a one-shot client at once: idlegpu blocks them for its signalfd, which no
// event loop reads while a call blocks (up to 300 s while polkit waits for a password).
void endOnTerminalSignals()
{
    sigset_t set;
    sigemptyset(&set);
    for (const int signal : {SIGINT, SIGTERM, SIGHUP})
        sigaddset(&set, signal);
    pthread_sigmask(SIG_UNBLOCK, &set, nullptr);
}

// polkit's text agent for this process, started as systemctl starts it: where stdin is a terminal and pkttyagent is
// installed, it asks on the terminal when polkit wants a password (an SSH session has no desktop agent; polkit looks
// for an agent of the calling process before one of its session). --fallback: it takes the place of no agent already
// registered. Gone with this object.
class TextAgent
{
public:
    TextAgent() = default;
    TextAgent(const TextAgent &) = delete;
    TextAgent &operator=(const TextAgent &) = delete;
    ~TextAgent()
    {
        if (m_pid <= 0)
            return;
        ::kill(m_pid, SIGTERM);
        while (::waitpid(m_pid, nullptr, 0) < 0 && errno == EINTR) {}
    }

    // Returns once the agent says it is registered (it closes the notify fd), or after a few seconds.
    void start()
    {
        const QString program = QStandardPaths::findExecutable(QStringLiteral("pkttyagent"));
        if (program.isEmpty())
            return;
        int notify[2];
        if (::pipe2(notify, O_CLOEXEC) != 0)
            return;
        // Everything the child needs, made before fork(): the child calls async-signal-safe functions only.
        const QList<QByteArray> words{QFile::encodeName(program),     "--process",
                                      QByteArray::number(::getpid()), "--notify-fd",
                                      QByteArray::number(notify[1]),  "--fallback"};
        std::vector<char *> argv;
        for (const QByteArray &word : words)
            argv.push_back(const_cast<char *>(word.constData()));
        argv.push_back(nullptr);
        sigset_t none;
        sigemptyset(&none);
        m_pid = ::fork();
        if (m_pid == 0) {
            ::fcntl(notify[1], F_SETFD, 0);             // the agent's end stays open across exec
            ::sigprocmask(SIG_SETMASK, &none, nullptr); // idlegpu's blocked signals are not the agent's
            ::execv(argv[0], argv.data());
            ::_exit(127);
        }
        ::close(notify[1]);
        if (m_pid > 0) {
            pollfd wait{notify[0], POLLIN, 0};
            while (::poll(&wait, 1, 5000) < 0 && errno == EINTR) {}
        }
        ::close(notify[0]);
    }

private:
    pid_t m_pid = -1;
};

// The service's refusal in plain words, for stderr.
QString describeError(const QDBusMessage &reply, Source source)
{
    const QString name = reply.errorName();
    const QString message = reply.errorMessage();
    if (name == BusNames::Error::notAuthorized)
        return Cli::tr("Not authorized: %1").arg(message);
    if (name == BusNames::Error::interactionRequired)
        return Cli::tr("Not authorized without a password, and idlegpu cannot ask for one here (%1). Run it on a "
                       "terminal, or ask the administrator for a polkit rule that allows it (README, \"System-wide\").")
            .arg(message);
    if (name == BusNames::Error::cancelled)
        return Cli::tr("Cancelled: the authentication was dismissed.");
    if (name == BusNames::Error::unknownWorkload)
        return Cli::tr("No such workload: %1").arg(message);
    if (name == BusNames::Error::rateLimited)
        return Cli::tr("Refused for now: your user sent the service too many calls (%1). Try again in a moment.")
            .arg(message);
    if (name == BusNames::Error::busy)
        return Cli::tr("The service is busy with other authorizations (%1). Try again in a moment.").arg(message);
    if (name == BusNames::Error::authorityUnavailable)
        return Cli::tr("polkit does not answer, so the service cannot tell whether you may (%1). Is polkitd installed "
                       "and running?")
            .arg(message);
    if (name == BusNames::Error::invalidArgument)
        return Cli::tr("The service refused the request: %1").arg(message);
    if (name == QLatin1String("org.freedesktop.DBus.Error.NoReply")
        || name == QLatin1String("org.freedesktop.DBus.Error.Timeout"))
        return Cli::tr("%1 did not answer in time.").arg(serviceWords(source));
    if (name == QLatin1String("org.freedesktop.DBus.Error.AccessDenied"))
        return Cli::tr("The bus did not let the call through: %1").arg(message);
    return Cli::tr("The call failed: %1 (%2)").arg(message, name);
}

bool serviceIsGone(const QDBusMessage &reply)
{
    return reply.errorName() == QLatin1String("org.freedesktop.DBus.Error.ServiceUnknown")
           || reply.errorName() == QLatin1String("org.freedesktop.DBus.Error.NameHasNoOwner");
}

QString howToStartOne()
{
    return Cli::tr("No idlegpu service answers, on the system bus or on your session bus. Start one: the system "
                   "service with `%1systemctl enable --now idlegpu`, or your own with `idlegpu --headless`.")
        .arg(::geteuid() == 0 ? QString() : QStringLiteral("sudo "));
}

struct Found
{
    Source source;
    QDBusConnection connection;
};

std::optional<Found> findService()
{
    QStringList notes;
    std::optional<Found> found;
    for (const Source source : {Source::System, Source::Session}) {
        if (std::optional<QDBusConnection> connection = connectToService(source, &notes)) {
            found = Found{source, *connection};
            break;
        }
    }
    for (const QString &note : std::as_const(notes))
        printErr(note);
    return found;
}

// Pause or Resume on the service found, with `arguments` after the workload id that `given` names. Returns an Exit.
int act(const QString &method, const QString &given, const QVariantList &moreArguments,
        const std::function<QString(Source, const QString &what)> &said)
{
    endOnTerminalSignals();
    std::optional<Found> found = findService();
    if (!found) {
        printErr(howToStartOne());
        return NoService;
    }
    // The service knows workloads by id; a person may name one by its name. Its state lists both.
    QString id;
    QString what = Cli::tr("every workload");
    if (!given.isEmpty()) {
        QString error;
        const std::optional<QJsonObject> state = getState(found->connection, &error);
        if (!state) {
            printErr(Cli::tr("%1 did not say which workloads it has: %2").arg(serviceWords(found->source), error));
            return Refused;
        }
        const WorkloadMatch match = matchWorkload(*state, given);
        if (!match.error.isEmpty()) {
            printErr(match.error);
            return Refused;
        }
        id = match.id;
        what = match.name.isEmpty() || match.name == id ? id : QStringLiteral("%1 [%2]").arg(match.name, id);
    }
    QDBusMessage call = serviceCall(method);
    call.setArguments(QVariantList{id} + moreArguments);
    // polkit may ask the person at the terminal, through the desktop's agent or pkttyagent; a script never waits.
    const bool interactive = ::isatty(STDIN_FILENO);
    call.setInteractiveAuthorizationAllowed(interactive);
    TextAgent agent;
    if (interactive && found->source == Source::System && ::geteuid() != 0) // polkit asks root nothing
        agent.start();
    const QDBusMessage reply = found->connection.call(
        call, QDBus::Block, interactive ? BusNames::interactiveCallTimeoutMs : BusNames::callTimeoutMs);
    if (reply.type() == QDBusMessage::ErrorMessage) {
        if (serviceIsGone(reply)) {
            printErr(howToStartOne());
            return NoService;
        }
        printErr(describeError(reply, found->source));
        return Refused;
    }
    printOut(said(found->source, what));
    return Done;
}

// "2026-12-03 17:00 UTC" from the ISO time a service gives, or the text as it came.
QString wallTime(const QString &iso)
{
    const QDateTime time = QDateTime::fromString(iso, Qt::ISODateWithMs);
    return time.isValid() ? time.toLocalTime().toString(QStringLiteral("yyyy-MM-dd hh:mm t")) : iso;
}

} // namespace

QString sourceName(Source source)
{
    return source == Source::System ? QStringLiteral("system") : QStringLiteral("session");
}

std::optional<ServiceState> askState(QStringList *notes)
{
    endOnTerminalSignals();
    for (const Source source : {Source::System, Source::Session}) {
        const std::optional<QDBusConnection> connection = connectToService(source, notes);
        if (!connection)
            continue;
        QString error;
        if (std::optional<QJsonObject> state = getState(*connection, &error))
            return ServiceState{source, *state};
        notes->append(Cli::tr("%1 did not give its state: %2").arg(serviceWords(source), error));
    }
    return std::nullopt;
}

QString localSourceLine(bool configGiven)
{
    return configGiven ? Cli::tr("From a look at this computer with the configuration given (a running idlegpu "
                                 "service has its own).")
                       : Cli::tr("From a look at this computer: no idlegpu service answers.");
}

// The service's JSON (docs/dbus.md) as lines for a terminal: where it comes from, the pause, each GPU and its
// holders, each workload and what it does.
QString formatText(const ServiceState &answer)
{
    const QJsonObject &state = answer.state;
    QString out;
    QTextStream s(&out);
    s << Cli::tr("From %1.").arg(serviceWords(answer.source)) << '\n';
    s << "Config: " << state.value(QStringLiteral("config")).toString() << '\n';
    const QJsonValue pause = state.value(QStringLiteral("pause"));
    if (pause.isObject() && pause[QStringLiteral("all")].toBool()) {
        const QString until = pause[QStringLiteral("until")].toString();
        s << (until.isEmpty() ? Cli::tr("Paused: every workload, until resumed")
                              : Cli::tr("Paused: every workload, until %1").arg(wallTime(until)))
          << '\n';
    }
    const QJsonArray gpus = state.value(QStringLiteral("gpus")).toArray();
    if (gpus.isEmpty())
        s << "No GPU found under " << state.value(QStringLiteral("device_root")).toString() << ".\n";
    for (const QJsonValue &gpu : gpus) {
        s << "GPU " << gpu[QStringLiteral("index")].toInt();
        if (const QString name = gpu[QStringLiteral("name")].toString(); !name.isEmpty())
            s << " (" << name << ')';
        s << ": " << gpu[QStringLiteral("state")].toString();
        if (const QString reason = gpu[QStringLiteral("reason")].toString(); !reason.isEmpty())
            s << ", " << reason;
        s << '\n';
        for (const QJsonValue &holder : gpu[QStringLiteral("holders")].toArray()) {
            const QString kind = !holder[QStringLiteral("foreign")].toBool(true) ? QStringLiteral("ignored")
                                 : holder[QStringLiteral("makes_busy")].toBool(true)
                                     ? QStringLiteral("held by")
                                     : QStringLiteral("open, not busy:");
            s << "    " << kind << ' ';
            // A holder the caller may not see comes without pid, user and comm (hidepid): counted, not named.
            if (!holder[QStringLiteral("pid")].isDouble()) {
                s << StateJson::unseenHolderWords() << '\n';
                continue;
            }
            s << "pid " << holder[QStringLiteral("pid")].toInteger() << ' '
              << holder[QStringLiteral("comm")].toString();
            if (const QString user = holder[QStringLiteral("user")].toString(); !user.isEmpty())
                s << " (" << user << ')';
            if (const QString why = holder[QStringLiteral("why")].toString(); !why.isEmpty())
                s << " \u2014 " << why;
            s << '\n';
        }
    }
    for (const QJsonValue &workload : state.value(QStringLiteral("workloads")).toArray()) {
        const QString id = workload[QStringLiteral("id")].toString();
        s << "Workload " << workload[QStringLiteral("name")].toString() << " [" << id << "] on GPUs "
          << workload[QStringLiteral("gpus")].toString();
        if (const QString user = workload[QStringLiteral("user")].toString(); !user.isEmpty())
            s << " as user " << user;
        const QJsonValue runtime = workload[QStringLiteral("runtime")];
        QString doing = runtime[QStringLiteral("state")].toString();
        if (runtime[QStringLiteral("pid")].toInteger() > 0)
            doing += QStringLiteral(" (pid %1)").arg(runtime[QStringLiteral("pid")].toInteger());
        const QString reason = workload[QStringLiteral("reason")].toString();
        if (!reason.isEmpty())
            doing = doing.isEmpty() ? reason : doing + QStringLiteral(", ") + reason;
        s << ": " << (doing.isEmpty() ? QStringLiteral("would run") : doing);
        // {"workloads": {"process-miner": {"until": ISO time or null}}}: paused on its own, for a while or not.
        if (const QJsonValue own = pause[QStringLiteral("workloads")][id]; own.isObject()) {
            const QString until = own[QStringLiteral("until")].toString();
            s << ", "
              << (until.isEmpty() ? Cli::tr("paused until resumed") : Cli::tr("paused until %1").arg(wallTime(until)));
        }
        s << '\n';
    }
    if (const QJsonValue ledger = state.value(QStringLiteral("ledger")); ledger.isObject())
        s << "Idle GPUs' work: "
          << QString::number(ledger[QStringLiteral("today")][QStringLiteral("gpu_hours")].toDouble(), 'f', 1)
          << " GPU-hours today, "
          << QString::number(ledger[QStringLiteral("total")][QStringLiteral("gpu_hours")].toDouble(), 'f', 1)
          << " in total since " << ledger[QStringLiteral("since")].toString().left(10) << '\n';
    return out;
}

WorkloadMatch matchWorkload(const QJsonObject &state, const QString &given)
{
    const QJsonArray workloads = state.value(QStringLiteral("workloads")).toArray();
    QStringList ids;
    QList<WorkloadMatch> byName;
    for (const QJsonValue &workload : workloads) {
        const WorkloadMatch candidate{workload[QStringLiteral("id")].toString(),
                                      workload[QStringLiteral("name")].toString(), QString()};
        if (candidate.id == given)
            return candidate;
        if (candidate.name == given)
            byName.append(candidate);
        ids.append(candidate.id);
    }
    if (byName.size() == 1)
        return byName.first();
    WorkloadMatch none;
    if (byName.size() > 1) {
        QStringList shared;
        for (const WorkloadMatch &match : std::as_const(byName))
            shared.append(match.id);
        none.error = Cli::tr("\"%1\" is the name of %2 workloads (%3): give the id.")
                         .arg(given)
                         .arg(byName.size())
                         .arg(shared.join(QStringLiteral(", ")));
    } else if (ids.isEmpty()) {
        none.error = Cli::tr("No workload \"%1\": the idlegpu service has no workloads.").arg(given);
    } else {
        none.error =
            Cli::tr("No workload \"%1\": the idlegpu service has %2.").arg(given, ids.join(QStringLiteral(", ")));
    }
    return none;
}

int pause(const QString &workload, std::optional<qint64> seconds)
{
    return act(
        QStringLiteral("Pause"), workload, QVariantList{QVariant::fromValue(quint64(seconds.value_or(0)))},
        [&](Source source, const QString &what) {
            return seconds
                       ? Cli::tr("Paused %1 of %2 for %3.").arg(what, serviceWords(source), formatDuration(*seconds))
                       : Cli::tr("Paused %1 of %2 until resumed.").arg(what, serviceWords(source));
        });
}

int resume(const QString &workload)
{
    return act(QStringLiteral("Resume"), workload, QVariantList(), [](Source source, const QString &what) {
        return Cli::tr("Resumed %1 of %2.").arg(what, serviceWords(source));
    });
}

} // namespace ClientCommands
