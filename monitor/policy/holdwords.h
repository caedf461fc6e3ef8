// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The words of the rules that can hold every workload back at once (HoldReason's Paused to TerminalUser) and of a GPU
// too hot (TooHot), written once. The policy puts them in its decision in English, which the log and --status print;
// the tray and the status window show their translation (context "HoldWords" in translations/).
#include "model/decision.h"

#include <QDateTime>
#include <QStringList>

#include <optional>

namespace HoldWords {

enum class Language {
    English,    // the source text: the log, --status, the decision's own words
    Translated, // QCoreApplication::translate() with the installed translators: the GUI
};

// What the words of a hold name besides its reason.
struct Facts
{
    HoldReason reason = HoldReason::None;
    QDateTime endsAt;  // OutsideSchedule: when the schedule lets workloads run again (local); invalid: never
    QStringList users; // TerminalUser: who is active on a terminal; empty: unnamed
};

// Whether `reason` is one of the rules that can hold every workload at once, which have words here.
bool holdsEveryone(HoldReason reason);

// "paused", "outside the schedule until Mon 18:00", "the computer runs on battery", "you are at the computer",
// "user alice is active on a terminal". Empty for a reason that holds one workload at a time (the policy words
// those itself, with their GPU and holder). English dates use the C locale, translated ones the user's.
QString of(const Facts &facts, Language language);

// The words of the decision's hold (Decision::hold, holdEndsAt, activeUsers); empty when none holds.
QString ofDecision(const Decision &decision, Language language);

// A GPU too hot (max_temperature_c), with its reading where known: "too hot (87 °C): runs again below 81 °C".
// The policy says which GPU ("GPU 0 is ..."), the GUI's line of a GPU puts them after "idle — ".
QString tooHot(std::optional<int> celsius, int runsAgainBelowCelsius, Language language);

} // namespace HoldWords
