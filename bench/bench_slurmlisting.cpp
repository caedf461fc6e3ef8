// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// What reading Slurm's job listing costs idlegpu's monitor thread: `squeue --json` of N jobs (copies of the jobs of a
// real Slurm 22.05.8 listing, tests/data/slurm/forged-comments.squeue.json, with their own ids), parsed
// (Slurm::parseJobsJson) and seen from one node (Slurm::viewOfNode), as SlurmLender does every 10 s.
//
//   bench_slurmlisting [--sample FILE] [--rounds N]
//
// Prints, per N, the listing's size and the median (min, max) time of each step; the last row is a listing of
// jobs whose name and comment are as long as Slurm takes (1 KiB each), up to Slurm::kMaxListingBytes. Never a
// pass/fail.
#include "slurm/slurmjobs.h"

#include <QElapsedTimer>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <algorithm>
#include <cstdio>
#include <vector>

namespace {

struct Timing
{
    double median = 0, min = 0, max = 0;
};

Timing timingOf(std::vector<double> values)
{
    std::sort(values.begin(), values.end());
    return {values[values.size() / 2], values.front(), values.back()};
}

QByteArray listingOf(const QJsonArray &sample, int jobs, bool longText)
{
    QJsonArray list;
    for (int i = 0; i < jobs; ++i) {
        QJsonObject job = sample.at(i % sample.size()).toObject();
        job.insert(QStringLiteral("job_id"), 1000 + i);
        if (longText) {
            job.insert(QStringLiteral("name"), QString(1024, QLatin1Char('n')));
            job.insert(QStringLiteral("comment"), QString(1024, QLatin1Char('c')));
        }
        list.append(job);
    }
    return QJsonDocument(QJsonObject{{QStringLiteral("jobs"), list}}).toJson(QJsonDocument::Compact);
}

void run(const QByteArray &listing, int jobs, int rounds, const char *what)
{
    SlurmConfig slurm;
    slurm.node = QStringLiteral("ws0");
    std::vector<double> parse, view;
    qsizetype parsed = 0;
    for (int round = 0; round < rounds; ++round) {
        QElapsedTimer timer;
        timer.start();
        const std::optional<QList<Slurm::Job>> result = Slurm::parseJobsJson(listing);
        parse.push_back(timer.nsecsElapsed() / 1e6);
        timer.restart();
        if (result) {
            parsed = result->size();
            Slurm::viewOfNode(*result, slurm, {0, 1});
        }
        view.push_back(timer.nsecsElapsed() / 1e6);
    }
    const Timing p = timingOf(parse), v = timingOf(view);
    std::printf("%-26s %6d jobs %9.2f MiB  parse %8.2f ms (%.2f-%.2f)  view %6.2f ms (%.2f-%.2f)%s\n", what, jobs,
                listing.size() / 1048576.0, p.median, p.min, p.max, v.median, v.min, v.max,
                parsed == jobs ? "" : "  (refused)");
}

} // namespace

int main(int argc, char **argv)
{
    QString sample = QStringLiteral(IDLEGPU_SLURM_SAMPLE);
    int rounds = 7;
    for (int i = 1; i + 1 < argc; i += 2) {
        if (qstrcmp(argv[i], "--sample") == 0)
            sample = QString::fromLocal8Bit(argv[i + 1]);
        else if (qstrcmp(argv[i], "--rounds") == 0)
            rounds = qMax(1, atoi(argv[i + 1]));
    }
    QFile file(sample);
    if (!file.open(QIODevice::ReadOnly)) {
        std::fprintf(stderr, "cannot read %s\n", qPrintable(sample));
        return 2;
    }
    const QJsonArray jobs = QJsonDocument::fromJson(file.readAll()).object().value(QStringLiteral("jobs")).toArray();
    if (jobs.isEmpty()) {
        std::fprintf(stderr, "no jobs in %s\n", qPrintable(sample));
        return 2;
    }
    std::printf("squeue --json parsed and viewed from one node, %d rounds (bound: %lld MiB)\n", rounds,
                qlonglong(Slurm::kMaxListingBytes >> 20));
    for (int count : {10, 100, 1000, 3000, 9000})
        run(listingOf(jobs, count, false), count, rounds, "real jobs");
    const int longJobs = int(Slurm::kMaxListingBytes / (listingOf(jobs, 100, true).size() / 100));
    run(listingOf(jobs, longJobs, true), longJobs, rounds, "1 KiB names and comments");
    return 0;
}
