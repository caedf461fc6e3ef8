// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "base/nearestword.h"

#include <QList>

#include <algorithm>

int editDistance(const QString &a, const QString &b)
{
    // Three rows of the table suffice: a swap looks two rows back.
    const qsizetype columns = b.size() + 1;
    QList<int> before(columns), previous(columns), current(columns);
    for (qsizetype j = 0; j < columns; ++j)
        previous[j] = int(j);
    for (qsizetype i = 1; i <= a.size(); ++i) {
        current[0] = int(i);
        for (qsizetype j = 1; j < columns; ++j) {
            const int cost = a.at(i - 1) == b.at(j - 1) ? 0 : 1;
            current[j] = std::min({previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost});
            if (i > 1 && j > 1 && a.at(i - 1) == b.at(j - 2) && a.at(i - 2) == b.at(j - 1))
                current[j] = std::min(current[j], before[j - 2] + 1);
        }
        std::swap(before, previous);
        std::swap(previous, current);
    }
    return previous[columns - 1];
}

QString nearestWord(const QString &word, const QStringList &known)
{
    const int allowed = int(std::clamp<qsizetype>(word.size() / 3, 1, 3));
    QString nearest;
    int best = allowed + 1;
    bool tie = false;
    for (const QString &candidate : known) {
        const int distance = editDistance(word.toLower(), candidate.toLower());
        if (distance == 0 || distance > allowed)
            continue;
        if (distance < best) {
            best = distance;
            nearest = candidate;
            tie = false;
        } else if (distance == best && candidate != nearest) {
            tie = true;
        }
    }
    return tie ? QString() : nearest;
}
