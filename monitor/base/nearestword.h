// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
#include <QString>
#include <QStringList>

// Returns the word of `known` closest to `word` by edit distance (insertions, deletions, substitutions and swaps of
// two neighbours), for a "did you mean ...?" after a typo: `ignore_program` gives `ignore_programs`. Returns an empty
// string when none is close enough to be a typo of it (at most a third of the word's letters wrong, and no more than
// three) or when two are equally close.
QString nearestWord(const QString &word, const QStringList &known);

// Returns the number of edits that make `a` into `b` (optimal string alignment distance).
int editDistance(const QString &a, const QString &b);
