// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The words of the holds, written once: of the rules that can hold every workload back at once (HoldReason's Paused
// to TerminalUser) and of a GPU that is too hot (TooHot).
#include "model/decision.h"

#include <QDateTime>
#include <QStringList>

#include <optional>

namespace HoldWords {

// The language of the words.
enum class Language {
    English,    // the source text, for the log, --status and the decision's own words
    Translated, // QCoreApplication::translate() with the installed translators, for the GUI
};

// The facts that the words of a hold name besides its reason.
struct Facts
{
    HoldReason reason = HoldReason::None;
    QDateTime endsAt;  // for OutsideSchedule, the local time the schedule allows runs again; invalid means never
    QStringList users; // for TerminalUser, the users active on a terminal; empty when unnamed
};

// Returns whether `reason` is one of the rules that can hold every workload at once, which have words here.
bool holdsEveryone(HoldReason reason);

// Returns the words of a hold ("outside the schedule until Mon 18:00"), with English dates in the C locale and
// translated ones in the user's. Empty for a reason that holds one workload at a time, which the policy words itself.
QString of(const Facts &facts, Language language);

// Returns the words of the decision's hold (Decision::hold, holdEndsAt, activeUsers); empty when none holds.
QString ofDecision(const Decision &decision, Language language);

// Returns the words for a GPU that is too hot (max_temperature_c), with its reading where known: "too hot (87 °C):
// runs again below 81 °C". The caller names the GPU.
QString tooHot(std::optional<int> celsius, int runsAgainBelowCelsius, Language language);

} // namespace HoldWords
