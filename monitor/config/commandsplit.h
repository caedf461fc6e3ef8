// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
#include <QList>
#include <QPair>
#include <QString>
#include <QStringList>

#include <optional>

// Splits a command line into words the way a POSIX shell does (single and double quotes, backslash
// escapes), without running a shell and without expanding variables, globs or ~. Returns nullopt and sets
// *error on an unterminated quote or a trailing backslash.
std::optional<QStringList> splitCommand(const QString &command, QString *error);

// Parses the value of an env= key: words as splitCommand() splits them, each of the form KEY=VALUE with KEY a valid
// variable name. Returns nullopt and sets *error otherwise.
std::optional<QList<QPair<QString, QString>>> parseEnvAssignments(const QString &text, QString *error);
