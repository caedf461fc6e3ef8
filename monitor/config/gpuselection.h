// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
#include <QList>
#include <QString>
#include <QStringList>

#include <algorithm>
#include <optional>

// A set of GPUs as gpu_mon's `gpus=` key writes it: ALL, or a comma-separated list of GPU indices ("0", "0,2").
struct GpuSelection
{
    bool all = true;
    QList<int> indices; // sorted and unique when !all

    static GpuSelection allGpus() { return {}; }
    static GpuSelection of(QList<int> gpus)
    {
        std::sort(gpus.begin(), gpus.end());
        gpus.erase(std::unique(gpus.begin(), gpus.end()), gpus.end());
        return {false, gpus};
    }

    // Parses "ALL" (any case) or "0, 1,3". Returns nullopt and sets *error (untranslated words for the
    // FILE:LINE message) on an empty list, a non-number, a negative number or an index above 255.
    static std::optional<GpuSelection> parse(const QString &text, QString *error)
    {
        const QString trimmed = text.trimmed();
        if (trimmed.compare(QLatin1String("all"), Qt::CaseInsensitive) == 0)
            return allGpus();
        QList<int> gpus;
        const QStringList parts = trimmed.split(QLatin1Char(','));
        for (const QString &part : parts) {
            bool ok = false;
            const QString item = part.trimmed();
            const int gpu = item.toInt(&ok, 10);
            if (item.isEmpty() || !ok || gpu < 0 || gpu > 255 || item.startsWith(QLatin1Char('+'))) {
                if (error)
                    *error = QStringLiteral("'%1' is not a GPU list: write ALL or GPU indices separated by commas, "
                                            "like 0,1")
                                 .arg(text);
                return std::nullopt;
            }
            gpus.append(gpu);
        }
        return of(gpus);
    }

    bool contains(int gpu) const { return all || indices.contains(gpu); }

    // Returns the GPUs that this selection means on a machine where the `present` GPUs exist.
    QList<int> resolve(const QList<int> &present) const
    {
        if (all)
            return present;
        return indices;
    }

    QString toString() const
    {
        if (all)
            return QStringLiteral("ALL");
        QStringList parts;
        for (int gpu : indices)
            parts.append(QString::number(gpu));
        return parts.join(QLatin1Char(','));
    }

    bool operator==(const GpuSelection &other) const
    {
        return all == other.all && (all || indices == other.indices);
    }
};
