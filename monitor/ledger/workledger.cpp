// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "ledger/workledger.h"

// Time is counted by the monotonic clock (a suspend or a step of the wall clock counts nothing) and placed on the
// wall clock, where the timeline and the local days live: a stretch nobody counted (idlegpu not running, the
// machine asleep) is Unwatched.

#include "base/printablename.h"
#include "model/decision.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

#include <cmath>
#include <limits>

namespace {

constexpr auto kFormat = "idlegpu-ledger";
constexpr int kVersion = 1;

// Bounds no real ledger reaches, so that a damaged or hostile file cannot pass for one.
constexpr qint64 kMaxWallMs = 4'102'444'800'000LL;      // 2100-01-01
constexpr qint64 kMaxDurationMs = kMaxWallMs;           // a GPU's workload time cannot exceed the epoch's span
constexpr qint64 kMaxPreemptions = 1'000'000'000; // per GPU and day, or in total
constexpr double kMaxJoules = 1e15;                     // 100 kW for 300 years
constexpr double kMaxOpenToStopMs = 1e9;
constexpr int kMaxGpuIndex = 4095;
constexpr qint64 kMaxPid = qint64(1) << 31;
constexpr int kMaxTextLength = 256;
constexpr int kMaxDays = 64;                 // we keep kDaysKept; a little slack for a file from another zone
constexpr int kMaxStoredPreemptions = 1000;  // we keep LedgerSummary::kRecentPreemptions
constexpr int kMaxWorkloadsPerGpu = 1024;    // a config with more sections than that is no config
// An energy counter that moved faster than this between two samples was reset or lies.
constexpr double kMaxWatts = 100'000;

QString activityName(GpuActivity activity)
{
    switch (activity) {
    case GpuActivity::Unwatched: return QStringLiteral("unwatched");
    case GpuActivity::Idle: return QStringLiteral("idle");
    case GpuActivity::Workload: return QStringLiteral("workload");
    case GpuActivity::ForeignUse: return QStringLiteral("foreign");
    }
    return QString();
}

std::optional<GpuActivity> activityFromName(const QString &name)
{
    for (GpuActivity activity : {GpuActivity::Unwatched, GpuActivity::Idle, GpuActivity::Workload,
                                 GpuActivity::ForeignUse})
        if (activityName(activity) == name)
            return activity;
    return std::nullopt;
}

// Reads a JSON document that should be a ledger; the first thing wrong ends it, named by its place in the file.
class Reader
{
public:
    QString error;

    bool integer(const QJsonValue &value, const QString &where, qint64 min, qint64 max, qint64 *out)
    {
        const double number = value.toDouble(std::nan(""));
        if (!value.isDouble() || !std::isfinite(number) || number != std::floor(number) || number < double(min)
            || number > double(max))
            return fail(QStringLiteral("%1: not a whole number in %2..%3").arg(where).arg(min).arg(max));
        *out = qint64(number);
        return true;
    }
    bool number(const QJsonValue &value, const QString &where, double max, double *out)
    {
        const double number = value.toDouble(std::nan(""));
        if (!value.isDouble() || !std::isfinite(number) || number < 0 || number > max)
            return fail(QStringLiteral("%1: not a number in 0..%2").arg(where).arg(max));
        *out = number;
        return true;
    }
    bool text(const QJsonValue &value, const QString &where, QString *out)
    {
        if (!value.isString() || value.toString().size() > kMaxTextLength)
            return fail(QStringLiteral("%1: not a text of at most %2 characters").arg(where).arg(kMaxTextLength));
        *out = value.toString();
        return true;
    }
    bool object(const QJsonValue &value, const QString &where, QJsonObject *out)
    {
        if (!value.isObject())
            return fail(QStringLiteral("%1: not an object").arg(where));
        *out = value.toObject();
        return true;
    }
    bool array(const QJsonValue &value, const QString &where, qsizetype maxSize, QJsonArray *out)
    {
        if (!value.isArray() || value.toArray().size() > maxSize)
            return fail(QStringLiteral("%1: not a list of at most %2 entries").arg(where).arg(maxSize));
        *out = value.toArray();
        return true;
    }
    bool gpuIndex(const QString &key, const QString &where, int *out)
    {
        bool ok = false;
        const int index = key.toInt(&ok);
        if (!ok || index < 0 || index > kMaxGpuIndex || QString::number(index) != key)
            return fail(QStringLiteral("%1: \"%2\" is not a GPU index").arg(where, key));
        *out = index;
        return true;
    }
    bool totals(const QJsonValue &value, const QString &where, WorkTotals *out)
    {
        QJsonObject object;
        qint64 preemptions = 0;
        if (!this->object(value, where, &object)
            || !integer(object.value(QStringLiteral("workload_ms")), where + QStringLiteral(".workload_ms"), 0,
                        kMaxDurationMs, &out->workloadMs)
            || !integer(object.value(QStringLiteral("preemptions")), where + QStringLiteral(".preemptions"), 0,
                        kMaxPreemptions, &preemptions))
            return false;
        out->preemptions = int(preemptions);
        // energy_j: the key of ledgers written before workTotalsToJson() wrote both files' totals.
        for (const QString &key : {QStringLiteral("energy_joules"), QStringLiteral("energy_j")}) {
            if (!object.contains(key))
                continue;
            double joules = 0;
            if (!number(object.value(key), where + QLatin1Char('.') + key, kMaxJoules, &joules))
                return false;
            out->energyJoules = joules;
            break;
        }
        return true;
    }

private:
    bool fail(const QString &why)
    {
        error = why;
        return false;
    }
};

} // namespace

WorkTotals &operator+=(WorkTotals &into, const WorkTotals &more)
{
    into.workloadMs += more.workloadMs;
    // Saturating: a file may hold a million preemptions on each of thousands of GPUs.
    into.preemptions = int(qMin<qint64>(std::numeric_limits<int>::max(), qint64(into.preemptions) + more.preemptions));
    if (more.energyJoules)
        into.energyJoules = into.energyJoules.value_or(0) + *more.energyJoules;
    return into;
}

WorkLedger::WorkLedger(const Clock *clock) : m_clock(clock) {}

QStringList WorkLedger::workloadsOn(int gpu, const QHash<QString, WorkloadRuntime> &runtimes)
{
    QStringList ids;
    for (const WorkloadRuntime &runtime : runtimes)
        if (runtime.occupiesGpus() && runtime.gpus.contains(gpu))
            ids.append(runtime.id);
    ids.sort(); // the hash's order is no order
    return ids;
}

GpuActivity WorkLedger::activityOf(const GpuStatus &gpu, const QHash<QString, WorkloadRuntime> &runtimes)
{
    if (gpu.state == GpuState::Busy)
        return GpuActivity::ForeignUse;
    for (const WorkloadRuntime &runtime : runtimes)
        if (runtime.occupiesGpus() && runtime.gpus.contains(gpu.index))
            return GpuActivity::Workload;
    return GpuActivity::Idle;
}

qint64 WorkLedger::wallNowMs() const
{
    return m_clock->localNow().toMSecsSinceEpoch();
}

// A workload's time counts for each of the workloads on the GPU.
void WorkLedger::setActivity(const QHash<int, GpuActivity> &activity, const QHash<int, QStringList> &workloads)
{
    advance();
    if (m_countedToMs < 0) {
        m_countedToMs = m_clock->nowMs();
        if (m_sinceWallMs == 0)
            m_sinceWallMs = wallNowMs();
    }
    for (auto it = activity.cbegin(); it != activity.cend(); ++it)
        if (it.key() >= 0 && it.key() <= kMaxGpuIndex) {
            GpuTrack &track = m_gpus[it.key()];
            track.activity = it.value();
            track.workloads = it.value() == GpuActivity::Workload ? workloads.value(it.key()) : QStringList();
        }
    for (auto it = m_gpus.begin(); it != m_gpus.end(); ++it)
        if (!activity.contains(it.key())) {
            it->activity = GpuActivity::Unwatched;
            it->workloads.clear();
        }
}

void WorkLedger::advance()
{
    if (m_countedToMs < 0)
        return;
    const qint64 nowMs = m_clock->nowMs();
    const QDateTime localNow = m_clock->localNow();
    const qint64 nowWallMs = localNow.toMSecsSinceEpoch();
    const qint64 elapsedMs = qMax<qint64>(0, nowMs - m_countedToMs);
    const qint64 fromWallMs = nowWallMs - elapsedMs;
    clampToNow(nowWallMs, localNow.date());
    for (auto it = m_gpus.begin(); it != m_gpus.end(); ++it) {
        GpuTrack &track = it.value();
        addSpan(track, fromWallMs, nowWallMs, track.activity);
        if (track.activity == GpuActivity::Workload && elapsedMs > 0) {
            addWorkloadTime(it.key(), fromWallMs, nowWallMs);
            track.workloadMsSinceSample += elapsedMs;
            for (const QString &id : std::as_const(track.workloads))
                m_workloadMs[it.key()][id] += elapsedMs;
        }
        trimTimeline(track, nowWallMs);
    }
    m_countedToMs = nowMs;
    dropOldDays(localNow.date());
}

void WorkLedger::stopWatching()
{
    advance();
    m_countedToMs = -1;
    for (GpuTrack &track : m_gpus) {
        track.activity = GpuActivity::Unwatched;
        track.workloads.clear();
        track.sampledAtMs = -1;
        track.workloadMsSinceSample = 0;
    }
}

// Adds [fromWallMs, toWallMs] under `activity` to the GPU's timeline: an uncounted gap before it is Unwatched, a
// stretch too short to draw takes the activity after it, and like neighbours merge.
void WorkLedger::addSpan(GpuTrack &track, qint64 fromWallMs, qint64 toWallMs, GpuActivity activity)
{
    QList<ActivitySegment> &segments = track.segments;
    if (segments.isEmpty()) {
        if (toWallMs > fromWallMs)
            segments.append({fromWallMs, toWallMs, activity});
        return;
    }
    if (fromWallMs - segments.last().toWallMs > kMinSegmentMs)
        addSpan(track, segments.last().toWallMs, fromWallMs, GpuActivity::Unwatched);
    ActivitySegment &last = segments.last();
    // Contiguous: the few milliseconds between the monotonic and the wall clock are no gap, and a wall clock set back
    // does not draw over what was drawn.
    fromWallMs = last.toWallMs;
    if (toWallMs <= fromWallMs)
        return;
    if (last.activity == activity) {
        last.toWallMs = toWallMs;
        return;
    }
    if (last.toWallMs - last.fromWallMs < kMinSegmentMs) {
        last.activity = activity;
        last.toWallMs = toWallMs;
        if (segments.size() >= 2 && segments.at(segments.size() - 2).activity == activity) {
            segments[segments.size() - 2].toWallMs = toWallMs;
            segments.removeLast();
        }
        return;
    }
    segments.append({fromWallMs, toWallMs, activity});
    if (segments.size() > kMaxSegmentsPerGpu) {
        ActivitySegment &first = segments.first();
        const ActivitySegment &second = segments.at(1);
        if (second.toWallMs - second.fromWallMs > first.toWallMs - first.fromWallMs)
            first.activity = second.activity;
        first.toWallMs = second.toWallMs;
        segments.removeAt(1);
    }
}

void WorkLedger::trimTimeline(GpuTrack &track, qint64 nowWallMs) const
{
    const qint64 cutoff = nowWallMs - LedgerSummary::kTimelineSpanMs;
    while (!track.segments.isEmpty() && track.segments.first().toWallMs <= cutoff)
        track.segments.removeFirst();
    if (!track.segments.isEmpty() && track.segments.first().fromWallMs < cutoff)
        track.segments.first().fromWallMs = cutoff;
}

// Adds the workload time on `gpu` in [fromWallMs, toWallMs], split at local midnights.
void WorkLedger::addWorkloadTime(int gpu, qint64 fromWallMs, qint64 toWallMs)
{
    while (fromWallMs < toWallMs) {
        const QDate day = QDateTime::fromMSecsSinceEpoch(fromWallMs).date();
        qint64 endMs = QDateTime(day.addDays(1), QTime(0, 0)).toMSecsSinceEpoch();
        if (endMs <= fromWallMs)
            endMs = toWallMs; // a zone whose midnight is odd: the rest counts for this day
        endMs = qMin(endMs, toWallMs);
        m_days[day][gpu].workloadMs += endMs - fromWallMs;
        m_totals[gpu].workloadMs += endMs - fromWallMs;
        fromWallMs = endMs;
    }
}

WorkTotals &WorkLedger::dayTotals(qint64 wallMs, int gpu)
{
    return m_days[QDateTime::fromMSecsSinceEpoch(wallMs).date()][gpu];
}

void WorkLedger::dropOldDays(const QDate &today)
{
    const QDate oldestKept = today.addDays(-(kDaysKept - 1));
    while (!m_days.isEmpty() && m_days.firstKey() < oldestKept)
        m_days.erase(m_days.begin());
}

// Repairs the ledger after the wall clock was set back, since nothing may lie after now. Days after today add to today
// (their time was counted by the monotonic clock, so it happened, just not then); segments and preemptions end at now.
void WorkLedger::clampToNow(qint64 nowWallMs, const QDate &today)
{
    while (!m_days.isEmpty() && m_days.lastKey() > today) {
        const QHash<int, WorkTotals> later = m_days.take(m_days.lastKey());
        for (auto it = later.cbegin(); it != later.cend(); ++it)
            m_days[today][it.key()] += it.value();
    }
    for (GpuTrack &track : m_gpus) {
        QList<ActivitySegment> &segments = track.segments;
        while (!segments.isEmpty() && segments.last().fromWallMs >= nowWallMs)
            segments.removeLast();
        if (!segments.isEmpty())
            segments.last().toWallMs = qMin(segments.last().toWallMs, nowWallMs);
    }
    for (PreemptionRecord &record : m_recent)
        record.wallMs = qMin(record.wallMs, nowWallMs);
    m_sinceWallMs = qMin(m_sinceWallMs, nowWallMs);
}

// The energy since the GPU's previous sample counts for the share of that time a workload ran on it (for power, the
// mean of the two samples).
void WorkLedger::addEnergySample(const QHash<int, GpuInfo> &gpus)
{
    advance();
    const qint64 nowMs = m_clock->nowMs();
    const qint64 nowWallMs = wallNowMs();
    for (const GpuInfo &info : gpus) {
        if (info.index < 0 || info.index > kMaxGpuIndex)
            continue;
        GpuTrack &track = m_gpus[info.index];
        if (!info.energyMillijoules && !info.powerMilliwatts) {
            track.sampledAtMs = -1;
            track.workloadMsSinceSample = 0;
            continue;
        }
        double joules = 0;
        const qint64 spanMs = nowMs - track.sampledAtMs;
        if (track.sampledAtMs >= 0 && track.workloadMsSinceSample > 0 && spanMs > 0) {
            const double workloadShare = qMin(1.0, double(track.workloadMsSinceSample) / double(spanMs));
            bool counted = false;
            if (info.energyMillijoules && track.energyMillijoules && *info.energyMillijoules >= *track.energyMillijoules) {
                const double counterJoules = double(*info.energyMillijoules - *track.energyMillijoules) / 1000.0;
                if (counterJoules <= kMaxWatts * double(spanMs) / 1000.0) {
                    joules = counterJoules * workloadShare;
                    counted = true;
                }
            }
            if (!counted && info.powerMilliwatts) {
                const double watts = track.powerMilliwatts ? (*track.powerMilliwatts + *info.powerMilliwatts) / 2000.0
                                                           : *info.powerMilliwatts / 1000.0;
                joules = watts * double(qMin(track.workloadMsSinceSample, spanMs)) / 1000.0;
            }
        }
        // Measured, if only to say 0 J: the energy is present from the first sample on.
        WorkTotals &today = dayTotals(nowWallMs, info.index);
        today.energyJoules = today.energyJoules.value_or(0) + joules;
        WorkTotals &total = m_totals[info.index];
        total.energyJoules = total.energyJoules.value_or(0) + joules;
        track.sampledAtMs = nowMs;
        track.energyMillijoules = info.energyMillijoules;
        track.powerMilliwatts = info.powerMilliwatts;
        track.workloadMsSinceSample = 0;
    }
}

void WorkLedger::addPreemption(PreemptionRecord record)
{
    if (record.wallMs <= 0 || record.wallMs > wallNowMs())
        record.wallMs = wallNowMs();
    if (record.gpu >= 0 && record.gpu <= kMaxGpuIndex) {
        ++dayTotals(record.wallMs, record.gpu).preemptions;
        ++m_totals[record.gpu].preemptions;
    }
    if (m_sinceWallMs == 0)
        m_sinceWallMs = record.wallMs;
    if (record.openToStopMs && std::isfinite(*record.openToStopMs) && *record.openToStopMs >= 0)
        m_openToStop.add(qMin(*record.openToStopMs, kMaxOpenToStopMs));
    m_recent.prepend(record);
    while (m_recent.size() > LedgerSummary::kRecentPreemptions)
        m_recent.removeLast();
}

// Returns the GPUs with totals or a timeline: those with totals first, in no particular order.
QList<int> WorkLedger::knownGpus() const
{
    QList<int> gpus = m_totals.keys();
    for (auto it = m_gpus.cbegin(); it != m_gpus.cend(); ++it)
        if (!gpus.contains(it.key()))
            gpus.append(it.key());
    return gpus;
}

LedgerSummary WorkLedger::summary() const
{
    LedgerSummary summary;
    summary.sinceWallMs = m_sinceWallMs;
    summary.recentPreemptions = m_recent;
    summary.workloadMs = m_workloadMs;
    summary.openToStop = m_openToStop;
    const QDateTime localNow = m_clock->localNow();
    const QDate today = localNow.date();
    const QDate monday = today.addDays(1 - today.dayOfWeek());

    const QList<int> gpus = knownGpus();
    for (int gpu : gpus) {
        WorkPeriods periods;
        periods.total = m_totals.value(gpu);
        for (auto day = m_days.cbegin(); day != m_days.cend(); ++day) {
            const auto totals = day->constFind(gpu);
            if (totals == day->cend() || day.key() > today)
                continue;
            if (day.key() == today)
                periods.today += *totals;
            if (day.key() >= monday)
                periods.week += *totals;
        }
        summary.byGpu.insert(gpu, periods);
        summary.all.today += periods.today;
        summary.all.week += periods.week;
        summary.all.total += periods.total;
    }

    const qint64 cutoff = localNow.toMSecsSinceEpoch() - LedgerSummary::kTimelineSpanMs;
    for (auto it = m_gpus.cbegin(); it != m_gpus.cend(); ++it) {
        QList<ActivitySegment> segments;
        bool watched = false;
        for (ActivitySegment segment : it->segments) {
            if (segment.toWallMs <= cutoff)
                continue;
            segment.fromWallMs = qMax(segment.fromWallMs, cutoff);
            watched = watched || segment.activity != GpuActivity::Unwatched;
            segments.append(segment);
        }
        if (watched)
            summary.lastDay.insert(it.key(), segments);
    }
    return summary;
}

QByteArray WorkLedger::toJson() const
{
    QJsonObject gpus;
    const QList<int> indices = knownGpus();
    for (int gpu : indices) {
        QJsonArray timeline;
        for (const ActivitySegment &segment : m_gpus.value(gpu).segments)
            timeline.append(QJsonArray{segment.fromWallMs, segment.toWallMs, activityName(segment.activity)});
        QJsonObject object{{QStringLiteral("total"), workTotalsToJson(m_totals.value(gpu))},
                           {QStringLiteral("timeline"), timeline}};
        const QHash<QString, qint64> byWorkload = m_workloadMs.value(gpu);
        if (!byWorkload.isEmpty()) {
            QJsonObject workloads;
            for (auto it = byWorkload.cbegin(); it != byWorkload.cend(); ++it)
                workloads.insert(it.key().left(kMaxTextLength), it.value());
            object.insert(QStringLiteral("workloads"), workloads);
        }
        gpus.insert(QString::number(gpu), object);
    }
    QJsonObject days;
    for (auto day = m_days.cbegin(); day != m_days.cend(); ++day) {
        QJsonObject byGpu;
        for (auto it = day->cbegin(); it != day->cend(); ++it)
            byGpu.insert(QString::number(it.key()), workTotalsToJson(it.value()));
        days.insert(day.key().toString(Qt::ISODate), byGpu);
    }
    QJsonArray preemptions;
    for (const PreemptionRecord &record : m_recent) {
        QJsonObject object{{QStringLiteral("wall_ms"), record.wallMs},
                           {QStringLiteral("gpu"), record.gpu},
                           {QStringLiteral("workload"), record.workloadName.left(kMaxTextLength)},
                           {QStringLiteral("program"), record.culpritProgram.left(kMaxTextLength)},
                           {QStringLiteral("user"), record.culpritUser.left(kMaxTextLength)},
                           {QStringLiteral("pid"), record.culpritPid}};
        if (record.openToStopMs)
            object.insert(QStringLiteral("open_to_stop_ms"), *record.openToStopMs);
        preemptions.append(object);
    }
    QJsonArray bounds;
    for (double bound : LatencyHistogram::kBoundsMs)
        bounds.append(bound);
    QJsonArray counts;
    for (qint64 count : m_openToStop.counts)
        counts.append(count);
    const QJsonObject openToStop{{QStringLiteral("bounds_ms"), bounds},
                                 {QStringLiteral("counts"), counts},
                                 {QStringLiteral("sum_ms"), m_openToStop.sumMs}};
    const QJsonObject root{{QStringLiteral("format"), QLatin1String(kFormat)},
                           {QStringLiteral("version"), kVersion},
                           {QStringLiteral("since_ms"), m_sinceWallMs},
                           {QStringLiteral("saved_ms"), wallNowMs()},
                           {QStringLiteral("gpus"), gpus},
                           {QStringLiteral("days"), days},
                           {QStringLiteral("preemptions"), preemptions},
                           {QStringLiteral("open_to_stop"), openToStop}};
    return QJsonDocument(root).toJson(QJsonDocument::Compact);
}

// No ledger: bad JSON, wrong types, values that no ledger holds.
bool WorkLedger::restore(const QByteArray &json, QString *error)
{
    Reader read;
    const auto failed = [&] {
        if (error)
            *error = read.error;
        return false;
    };
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError) {
        if (error)
            *error = QStringLiteral("not JSON (%1 at byte %2)").arg(parseError.errorString()).arg(parseError.offset);
        return false;
    }
    if (!document.isObject()) {
        if (error)
            *error = QStringLiteral("not a JSON object");
        return false;
    }
    const QJsonObject root = document.object();
    if (root.value(QStringLiteral("format")).toString() != QLatin1String(kFormat)) {
        if (error)
            *error = QStringLiteral("not an idlegpu ledger (\"format\" is not \"%1\")").arg(QLatin1String(kFormat));
        return false;
    }
    qint64 version = 0;
    if (!read.integer(root.value(QStringLiteral("version")), QStringLiteral("version"), kVersion, kVersion, &version))
        return failed();

    qint64 since = 0;
    if (!read.integer(root.value(QStringLiteral("since_ms")), QStringLiteral("since_ms"), 0, kMaxWallMs, &since))
        return failed();

    QMap<int, GpuTrack> tracks;
    QHash<int, WorkTotals> totals;
    QHash<int, QHash<QString, qint64>> workloadMs;
    QJsonObject gpus;
    if (!read.object(root.value(QStringLiteral("gpus")), QStringLiteral("gpus"), &gpus))
        return failed();
    if (gpus.size() > kMaxGpuIndex + 1) {
        if (error)
            *error = QStringLiteral("gpus: more GPUs than a machine has");
        return false;
    }
    for (auto it = gpus.constBegin(); it != gpus.constEnd(); ++it) {
        const QString where = QStringLiteral("gpus.") + it.key();
        int gpu = -1;
        QJsonObject object;
        QJsonArray timeline;
        if (!read.gpuIndex(it.key(), QStringLiteral("gpus"), &gpu) || !read.object(it.value(), where, &object)
            || !read.totals(object.value(QStringLiteral("total")), where + QStringLiteral(".total"), &totals[gpu])
            || !read.array(object.value(QStringLiteral("timeline")), where + QStringLiteral(".timeline"),
                           kMaxSegmentsPerGpu, &timeline))
            return failed();
        // Since the ledger kept it (absent in older files): each workload's time.
        if (object.contains(QStringLiteral("workloads"))) {
            QJsonObject workloads;
            if (!read.object(object.value(QStringLiteral("workloads")), where + QStringLiteral(".workloads"),
                             &workloads))
                return failed();
            if (workloads.size() > kMaxWorkloadsPerGpu) {
                if (error)
                    *error = QStringLiteral("%1.workloads: more than %2 workloads").arg(where).arg(kMaxWorkloadsPerGpu);
                return false;
            }
            for (auto w = workloads.constBegin(); w != workloads.constEnd(); ++w) {
                qint64 ms = 0;
                if (w.key().isEmpty() || w.key().size() > kMaxTextLength) {
                    if (error)
                        *error = QStringLiteral("%1.workloads: \"%2\" is not a workload id").arg(where, w.key().left(40));
                    return false;
                }
                if (!read.integer(w.value(), where + QStringLiteral(".workloads.") + w.key(), 0, kMaxDurationMs, &ms))
                    return failed();
                workloadMs[gpu].insert(w.key(), ms);
            }
        }
        GpuTrack &track = tracks[gpu];
        qint64 previousEnd = 0;
        for (qsizetype i = 0; i < timeline.size(); ++i) {
            const QString at = QStringLiteral("%1.timeline[%2]").arg(where).arg(i);
            QJsonArray triple;
            ActivitySegment segment;
            if (!read.array(timeline.at(i), at, 3, &triple)
                || !read.integer(triple.at(0), at + QStringLiteral("[0]"), previousEnd, kMaxWallMs, &segment.fromWallMs)
                || !read.integer(triple.at(1), at + QStringLiteral("[1]"), segment.fromWallMs, kMaxWallMs,
                                 &segment.toWallMs))
                return failed();
            const std::optional<GpuActivity> activity = activityFromName(triple.at(2).toString());
            if (!activity) {
                if (error)
                    *error = QStringLiteral("%1[2]: not an activity").arg(at);
                return false;
            }
            segment.activity = *activity;
            previousEnd = segment.toWallMs;
            track.segments.append(segment);
        }
    }

    QMap<QDate, QHash<int, WorkTotals>> days;
    QJsonObject dayObjects;
    if (!read.object(root.value(QStringLiteral("days")), QStringLiteral("days"), &dayObjects))
        return failed();
    if (dayObjects.size() > kMaxDays) {
        if (error)
            *error = QStringLiteral("days: more than %1 days").arg(kMaxDays);
        return false;
    }
    for (auto it = dayObjects.constBegin(); it != dayObjects.constEnd(); ++it) {
        const QDate day = QDate::fromString(it.key(), Qt::ISODate);
        const QString where = QStringLiteral("days.") + it.key();
        QJsonObject byGpu;
        if (!day.isValid() || day.year() < 2000 || day.year() > 2100) {
            if (error)
                *error = QStringLiteral("days: \"%1\" is not a date").arg(it.key());
            return false;
        }
        if (!read.object(it.value(), where, &byGpu))
            return failed();
        for (auto gpuIt = byGpu.constBegin(); gpuIt != byGpu.constEnd(); ++gpuIt) {
            int gpu = -1;
            if (!read.gpuIndex(gpuIt.key(), where, &gpu)
                || !read.totals(gpuIt.value(), where + QLatin1Char('.') + gpuIt.key(), &days[day][gpu]))
                return failed();
        }
    }

    QList<PreemptionRecord> recent;
    QJsonArray preemptions;
    if (!read.array(root.value(QStringLiteral("preemptions")), QStringLiteral("preemptions"), kMaxStoredPreemptions,
                    &preemptions))
        return failed();
    for (qsizetype i = 0; i < preemptions.size() && recent.size() < LedgerSummary::kRecentPreemptions; ++i) {
        const QString where = QStringLiteral("preemptions[%1]").arg(i);
        QJsonObject object;
        PreemptionRecord record;
        qint64 gpu = -1;
        if (!read.object(preemptions.at(i), where, &object)
            || !read.integer(object.value(QStringLiteral("wall_ms")), where + QStringLiteral(".wall_ms"), 0, kMaxWallMs,
                             &record.wallMs)
            || !read.integer(object.value(QStringLiteral("gpu")), where + QStringLiteral(".gpu"), -1, kMaxGpuIndex, &gpu)
            || !read.text(object.value(QStringLiteral("workload")), where + QStringLiteral(".workload"),
                          &record.workloadName)
            || !read.text(object.value(QStringLiteral("program")), where + QStringLiteral(".program"),
                          &record.culpritProgram)
            || !read.text(object.value(QStringLiteral("user")), where + QStringLiteral(".user"), &record.culpritUser)
            || !read.integer(object.value(QStringLiteral("pid")), where + QStringLiteral(".pid"), 0, kMaxPid,
                             &record.culpritPid))
            return failed();
        record.gpu = int(gpu);
        // Written before names were made printable where they are read: escape what such a file holds, once.
        for (QString *name : {&record.culpritProgram, &record.culpritUser})
            if (!isPrintableName(*name))
                *name = printableName(*name);
        if (object.contains(QStringLiteral("open_to_stop_ms"))) {
            double ms = 0;
            if (!read.number(object.value(QStringLiteral("open_to_stop_ms")), where + QStringLiteral(".open_to_stop_ms"),
                             kMaxOpenToStopMs, &ms))
                return failed();
            record.openToStopMs = ms;
        }
        recent.append(record);
    }

    // Since the ledger kept it (absent in older files). Counts kept under other bounds than ours are not ours to read:
    // the histogram starts afresh then.
    LatencyHistogram openToStop;
    if (root.contains(QStringLiteral("open_to_stop"))) {
        QJsonObject object;
        QJsonArray bounds;
        QJsonArray counts;
        constexpr qsizetype kBuckets = qsizetype(LatencyHistogram::kBoundsMs.size());
        if (!read.object(root.value(QStringLiteral("open_to_stop")), QStringLiteral("open_to_stop"), &object)
            || !read.array(object.value(QStringLiteral("bounds_ms")), QStringLiteral("open_to_stop.bounds_ms"), 64,
                           &bounds)
            || !read.array(object.value(QStringLiteral("counts")), QStringLiteral("open_to_stop.counts"), 65, &counts)
            || !read.number(object.value(QStringLiteral("sum_ms")), QStringLiteral("open_to_stop.sum_ms"),
                            kMaxOpenToStopMs * double(kMaxPreemptions), &openToStop.sumMs))
            return failed();
        bool sameBounds = bounds.size() == kBuckets && counts.size() == kBuckets + 1;
        for (qsizetype i = 0; sameBounds && i < kBuckets; ++i)
            sameBounds = bounds.at(i).toDouble(-1) == LatencyHistogram::kBoundsMs[std::size_t(i)];
        if (sameBounds) {
            for (qsizetype i = 0; i < counts.size(); ++i)
                if (!read.integer(counts.at(i), QStringLiteral("open_to_stop.counts[%1]").arg(i), 0, kMaxPreemptions,
                                  &openToStop.counts[std::size_t(i)]))
                    return failed();
        } else {
            openToStop = LatencyHistogram();
        }
    }

    m_gpus = tracks;
    m_totals = totals;
    m_workloadMs = workloadMs;
    m_openToStop = openToStop;
    m_days = days;
    m_recent = recent;
    m_sinceWallMs = since;
    m_countedToMs = -1; // every GPU Unwatched until the next setActivity
    const QDateTime localNow = m_clock->localNow();
    clampToNow(localNow.toMSecsSinceEpoch(), localNow.date()); // a file saved while the clock ran ahead
    dropOldDays(localNow.date());
    return true;
}

QJsonObject workTotalsToJson(const WorkTotals &totals)
{
    QJsonObject object{{QStringLiteral("workload_ms"), totals.workloadMs},
                       {QStringLiteral("preemptions"), totals.preemptions}};
    if (totals.energyJoules)
        object.insert(QStringLiteral("energy_joules"), *totals.energyJoules);
    return object;
}
