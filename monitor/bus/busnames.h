// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The names, errors and limits of idlegpu's D-Bus interface (docs/dbus.md), shared by the service and its clients.
// The `1` in each name is the interface's version: an incompatible change gets new names beside these.
#include <QLatin1StringView>
#include <QtGlobal>

namespace BusNames {

inline constexpr QLatin1StringView service{"io.github.idlegpu.Idlegpu1"};
inline constexpr QLatin1StringView objectPath{"/io/github/idlegpu/Idlegpu1"};
inline constexpr QLatin1StringView interface{"io.github.idlegpu.Idlegpu1"};
inline constexpr int interfaceVersion = 1;

// The polkit actions (resources/io.github.idlegpu.policy). Reading the state needs none.
inline constexpr QLatin1StringView pauseAction{"io.github.idlegpu.pause"};
inline constexpr QLatin1StringView configureAction{"io.github.idlegpu.configure"};

// The errors a method may reply with, besides the bus's own InvalidArgs and UnknownMethod.
namespace Error {
inline constexpr QLatin1StringView notAuthorized{"io.github.idlegpu.Idlegpu1.Error.NotAuthorized"};
inline constexpr QLatin1StringView cancelled{"io.github.idlegpu.Idlegpu1.Error.Cancelled"};
inline constexpr QLatin1StringView interactionRequired{"io.github.idlegpu.Idlegpu1.Error.InteractionRequired"};
inline constexpr QLatin1StringView unknownWorkload{"io.github.idlegpu.Idlegpu1.Error.UnknownWorkload"};
inline constexpr QLatin1StringView invalidArgument{"io.github.idlegpu.Idlegpu1.Error.InvalidArgument"};
inline constexpr QLatin1StringView rateLimited{"io.github.idlegpu.Idlegpu1.Error.RateLimited"};
inline constexpr QLatin1StringView busy{"io.github.idlegpu.Idlegpu1.Error.Busy"};
inline constexpr QLatin1StringView conflict{"io.github.idlegpu.Idlegpu1.Error.Conflict"};
inline constexpr QLatin1StringView invalidConfig{"io.github.idlegpu.Idlegpu1.Error.InvalidConfig"};
inline constexpr QLatin1StringView authorityUnavailable{"io.github.idlegpu.Idlegpu1.Error.AuthorityUnavailable"};
inline constexpr QLatin1StringView failed{"io.github.idlegpu.Idlegpu1.Error.Failed"};
} // namespace Error

// The limits the service checks before doing any work.
namespace Limit {
inline constexpr int workloadIdBytes = 256;
inline constexpr quint64 pauseSeconds = 30ull * 24 * 3600;
inline constexpr int etagHexDigits = 64;
inline constexpr int configProblemLines = 64;
} // namespace Limit

// How long clients wait for a reply: a plain call, and one where polkit may ask the user for a password.
inline constexpr int callTimeoutMs = 25'000;
inline constexpr int interactiveCallTimeoutMs = 300'000;

// How often StateChanged may be emitted: at most once per this many milliseconds.
inline constexpr int stateSignalIntervalMs = 100;

} // namespace BusNames
