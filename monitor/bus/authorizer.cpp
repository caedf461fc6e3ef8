// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "bus/authorizer.h"

#include <QDBusArgument>
#include <QDBusMessage>
#include <QDBusMetaType>
#include <QDBusPendingCallWatcher>
#include <QDBusPendingReply>
#include <QVariantMap>

namespace {
const QString kPolkitService = QStringLiteral("org.freedesktop.PolicyKit1");
const QString kPolkitPath = QStringLiteral("/org/freedesktop/PolicyKit1/Authority");
const QString kPolkitInterface = QStringLiteral("org.freedesktop.PolicyKit1.Authority");
constexpr uint kAllowUserInteraction = 1;

using StringMap = QMap<QString, QString>;

// polkit's AuthorizationResult (bba{ss}): is_authorized, is_challenge, details.
struct PolkitResult
{
    bool authorized = false;
    bool challenge = false;
    StringMap details;
};

bool readResult(const QDBusMessage &reply, PolkitResult *result)
{
    if (reply.arguments().size() != 1 || reply.signature() != QLatin1String("(bba{ss})"))
        return false;
    const QDBusArgument argument = reply.arguments().constFirst().value<QDBusArgument>();
    argument.beginStructure();
    argument >> result->authorized >> result->challenge >> result->details;
    argument.endStructure();
    return true;
}
} // namespace

PolkitAuthorizer::PolkitAuthorizer(const QDBusConnection &connection, QObject *parent)
    : Authorizer(parent), m_connection(connection)
{
    qDBusRegisterMetaType<StringMap>();
}

int PolkitAuthorizer::pendingOf(uint uid) const
{
    int count = 0;
    for (const Pending &pending : m_pending)
        count += pending.uid == uid ? 1 : 0;
    return count;
}

void PolkitAuthorizer::check(const BusCaller &caller, const QString &action, const StringMap &details, bool interactive,
                             Done done)
{
    const QString id = QStringLiteral("idlegpu-%1").arg(m_nextId++);
    QDBusMessage call = QDBusMessage::createMethodCall(kPolkitService, kPolkitPath, kPolkitInterface,
                                                       QStringLiteral("CheckAuthorization"));
    QDBusArgument subject;
    subject.beginStructure();
    subject << QStringLiteral("system-bus-name") << QVariantMap{{QStringLiteral("name"), caller.name}};
    subject.endStructure();
    call << QVariant::fromValue(subject) << action << QVariant::fromValue(details)
         << uint(interactive ? kAllowUserInteraction : 0) << id;
    auto *watcher = new QDBusPendingCallWatcher(
        m_connection.asyncCall(call, interactive ? kInteractiveTimeoutMs : kTimeoutMs), this);
    m_pending.insert(id, Pending{caller.name, caller.uid, watcher, std::move(done)});
    connect(watcher, &QDBusPendingCallWatcher::finished, this, [this, id](QDBusPendingCallWatcher *finished) {
        finished->deleteLater();
        const auto it = m_pending.find(id);
        if (it == m_pending.end())
            return; // cancelled
        const Done callback = std::move(it->done);
        m_pending.erase(it);
        const QDBusMessage reply = finished->reply();
        Answer answer;
        PolkitResult result;
        if (reply.type() == QDBusMessage::ErrorMessage) {
            answer.verdict = Verdict::Unavailable;
            answer.reason = QStringLiteral("polkit does not answer: %1").arg(reply.errorMessage());
        } else if (!readResult(reply, &result)) {
            answer.verdict = Verdict::Unavailable;
            answer.reason =
                QStringLiteral("polkit answered with %1, not an authorization result").arg(reply.signature());
        } else if (result.authorized) {
            answer.verdict = Verdict::Yes;
        } else if (result.details.value(QStringLiteral("polkit.dismissed")) == QLatin1String("true")) {
            answer.verdict = Verdict::Dismissed;
            answer.reason = QStringLiteral("the authentication dialog was dismissed");
        } else if (result.challenge) {
            answer.verdict = Verdict::Challenge;
            answer.reason = QStringLiteral("authentication is required, and the call did not allow interaction");
        } else {
            answer.verdict = Verdict::No;
            answer.reason = QStringLiteral("not authorized");
        }
        callback(answer);
    });
}

void PolkitAuthorizer::cancelFor(const QString &callerName)
{
    for (auto it = m_pending.begin(); it != m_pending.end();) {
        if (it->callerName != callerName) {
            ++it;
            continue;
        }
        QDBusMessage cancel = QDBusMessage::createMethodCall(kPolkitService, kPolkitPath, kPolkitInterface,
                                                             QStringLiteral("CancelCheckAuthorization"));
        cancel << it.key();
        cancel.setAutoStartService(false);
        m_connection.asyncCall(cancel); // its answer does not matter
        it->watcher->deleteLater();
        it = m_pending.erase(it);
    }
}

void SameUserAuthorizer::check(const BusCaller &caller, const QString &, const QMap<QString, QString> &, bool,
                               Done done)
{
    Answer answer;
    if (caller.uid == m_serviceUid || caller.uid == 0) {
        answer.verdict = Verdict::Yes;
    } else {
        answer.verdict = Verdict::No;
        answer.reason = QStringLiteral("only uid %1, who runs this idlegpu, may do this").arg(m_serviceUid);
    }
    done(answer);
}
