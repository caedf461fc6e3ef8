// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The command line as a client of the running idlegpu (docs/dbus.md): `idlegpu --status` asks the service before it
// looks for itself, `--pause [WORKLOAD] [--for DURATION]` and `--resume [WORKLOAD]` ask it to act. The system bus's
// service (the root unit) comes first, then the one on the user's session bus. These are one-shot commands: they
// block on each call, within the timeouts of bus/busnames.h.
#include <QJsonObject>
#include <QString>
#include <QStringList>

#include <optional>

namespace ClientCommands {

// The exit status of --pause and --resume.
enum Exit {
    Done = 0,
    Refused = 1,   // the service or polkit said no, or the call failed: the reason is on stderr
    Usage = 2,     // options that do not go together, a bad duration
    NoService = 3, // no idlegpu service answers, on either bus
};

enum class Source { System, Session };

// "system" or "session", as `--status --json` names it in "source".
QString sourceName(Source source);

// What a service answered to GetState.
struct ServiceState
{
    Source source = Source::System;
    QJsonObject state; // its JSON, without "source"
};

// Returns the state of the first service that answers, the system bus's, then the session bus's; nothing where none
// does. A service passed over though its name has an owner (not root's on the system bus, another user's on the
// session bus, an error reply) adds a line to `*notes` saying why.
std::optional<ServiceState> askState(QStringList *notes);

// Returns the text report of a service's state, the first line saying where it comes from.
QString formatText(const ServiceState &answer);

// The first line of the text report of `idlegpu --status` when it looked for itself (no service answered, or
// --config named a file of its own).
QString localSourceLine(bool configGiven);

// Which workload `given` names among the state's "workloads": the one whose id it is, else the only one whose name it
// is. On no match, or a name that several share, `error` says so and lists the ids.
struct WorkloadMatch
{
    QString id;
    QString name;
    QString error;
};
WorkloadMatch matchWorkload(const QJsonObject &state, const QString &given);

// `idlegpu --pause [WORKLOAD] [--for SECONDS]`: an empty workload pauses every one; no seconds: until resumed.
// Prints what was done on stdout, or why not on stderr; returns an Exit.
int pause(const QString &workload, std::optional<qint64> seconds);
// `idlegpu --resume [WORKLOAD]`: an empty workload ends the pause of all and of each.
int resume(const QString &workload);

} // namespace ClientCommands
