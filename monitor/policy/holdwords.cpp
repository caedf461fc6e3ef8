// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "policy/holdwords.h"

// The policy puts these words in its decision in English, which the log and --status print; the tray and the status
// window show their translation (context "HoldWords" in translations/).

#include <QCoreApplication>
#include <QLocale>

namespace {

constexpr const char *kContext = "HoldWords";

QString say(const char *source, HoldWords::Language language)
{
    if (language == HoldWords::Language::English)
        return QString::fromUtf8(source);
    return QCoreApplication::translate(kContext, source);
}

QLocale localeOf(HoldWords::Language language)
{
    return language == HoldWords::Language::English ? QLocale::c() : QLocale();
}

using Language = HoldWords::Language;
using Facts = HoldWords::Facts;

QString paused(const Facts &, Language language)
{
    return say(QT_TRANSLATE_NOOP("HoldWords", "paused"), language);
}

QString outsideSchedule(const Facts &facts, Language language)
{
    if (!facts.endsAt.isValid())
        return say(QT_TRANSLATE_NOOP("HoldWords", "outside the schedule"), language);
    return say(QT_TRANSLATE_NOOP("HoldWords", "outside the schedule until %1"), language)
        .arg(localeOf(language).toString(facts.endsAt, QStringLiteral("ddd HH:mm")));
}

QString onBattery(const Facts &, Language language)
{
    return say(QT_TRANSLATE_NOOP("HoldWords", "the computer runs on battery"), language);
}

QString ownerPresent(const Facts &, Language language)
{
    return say(QT_TRANSLATE_NOOP("HoldWords", "you are at the computer"), language);
}

QString terminalUser(const Facts &facts, Language language)
{
    if (facts.users.isEmpty())
        return say(QT_TRANSLATE_NOOP("HoldWords", "a user is active on a terminal"), language);
    if (facts.users.size() == 1)
        return say(QT_TRANSLATE_NOOP("HoldWords", "user %1 is active on a terminal"), language)
            .arg(facts.users.first());
    return say(QT_TRANSLATE_NOOP("HoldWords", "users %1 are active on a terminal"), language)
        .arg(facts.users.join(say(QT_TRANSLATE_NOOP("HoldWords", ", "), language)));
}

// One rule that can hold every workload, with its words.
struct Row
{
    HoldReason reason;
    QString (*words)(const Facts &, Language);
};

// In HoldReason's order, which is their precedence.
constexpr Row kRows[] = {
    {HoldReason::Paused, paused},
    {HoldReason::OutsideSchedule, outsideSchedule},
    {HoldReason::OnBattery, onBattery},
    {HoldReason::OwnerPresent, ownerPresent},
    {HoldReason::TerminalUser, terminalUser},
};

constexpr bool rowsInDeclaredOrder()
{
    int expected = int(kRows[0].reason);
    for (const Row &row : kRows)
        if (int(row.reason) != expected++)
            return false;
    return true;
}
static_assert(rowsInDeclaredOrder(), "kRows must follow HoldReason's order, without a gap");

const Row *rowOf(HoldReason reason)
{
    for (const Row &row : kRows)
        if (row.reason == reason)
            return &row;
    return nullptr;
}

} // namespace

namespace HoldWords {

bool holdsEveryone(HoldReason reason)
{
    return rowOf(reason) != nullptr;
}

QString of(const Facts &facts, Language language)
{
    const Row *row = rowOf(facts.reason);
    return row ? row->words(facts, language) : QString();
}

QString ofDecision(const Decision &decision, Language language)
{
    return of({decision.hold, decision.holdEndsAt, decision.activeUsers}, language);
}

// The policy names the GPU before these words ("GPU 0 is ..."); the GUI's line of a GPU puts them after "idle — ".
QString tooHot(std::optional<int> celsius, int runsAgainBelowCelsius, Language language)
{
    if (!celsius)
        return say(QT_TRANSLATE_NOOP("HoldWords", "too hot: runs again below %1 °C"), language)
            .arg(runsAgainBelowCelsius);
    return say(QT_TRANSLATE_NOOP("HoldWords", "too hot (%1 °C): runs again below %2 °C"), language)
        .arg(*celsius)
        .arg(runsAgainBelowCelsius);
}

} // namespace HoldWords
