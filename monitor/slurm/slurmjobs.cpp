// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "slurm/slurmjobs.h"

// Why JSON (`squeue --json`, `sinfo --json`: Slurm 22.05's openapi/v0.0.38 serializer), never the text listings:
// `scontrol show job` prints a job's name, comment, work folder and command as they are, so a lab user's comment
// holding a newline or "JobId=4 JobName=idlegpu-hold-gpu1 Partition=owner" could pose as a line or fields of Slurm's
// own, and a process named "p Reason=x State=IDLE" in a drain reason as the node's fields. A job of squeue's JSON reads
//   {"job_id": 3, "name": "multi", "user_id": 1001, "user_name": "bob", "job_state": "RUNNING",
//    "partition": "scavenger", "nodes": "ws[1,3]", "required_nodes": "ws[1,3]",
//    "gres_detail": ["gpu:gpu0:0(IDX:),gpu:gpu1:1(IDX:1)", "gpu:gpu0:1(IDX:0),gpu:gpu1:0(IDX:)"],
//    "job_resources": {"allocated_nodes": [{"nodename": "ws1", ...}, {"nodename": "ws3", ...}], ...}, ...}
// (gres_detail: one entry per node of the job, in the order of job_resources' allocated_nodes; every GRES type of
// the node is listed, those the job has none of with count 0 and an empty IDX). Measured on the 2-core test machine:
// `squeue --json` 15 ms a call, `scontrol show job -d --oneliner` 7 ms; about 3.5 KB a job.

#include "base/printablename.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QRegularExpression>

#include <cmath>

namespace Slurm {

namespace {

constexpr int kMaxIndices = 1024;
const QString kHoldPrefix = QStringLiteral("idlegpu-hold-gpu");

// "gpu:gpu1:1(IDX:1)", "gpu:2(IDX:0-1)", "gpu:gpu1:0(IDX:)"; an entry without (IDX:...) has no indices.
std::optional<GresUse> parseGresEntry(QStringView entry)
{
    GresUse use;
    QStringView head = entry;
    const qsizetype open = entry.indexOf(QLatin1String("(IDX:"));
    if (open >= 0) {
        head = entry.left(open);
        QStringView rest = entry.mid(open + 5);
        const qsizetype close = rest.indexOf(QLatin1Char(')'));
        use.idx = parseIndexList(close >= 0 ? rest.left(close) : rest);
    }
    const QList<QStringView> parts = head.split(QLatin1Char(':'));
    if (parts.isEmpty() || parts.first().isEmpty() || parts.size() > 3)
        return std::nullopt;
    use.name = parts.first().toString();
    bool ok = true;
    if (parts.size() == 3) {
        use.type = parts.at(1).toString();
        use.count = parts.at(2).toInt(&ok);
    } else if (parts.size() == 2) {
        use.count = parts.at(1).toInt(&ok); // "gpu:2"; "gpu:gpu1" (no count) is not a listing's form
    } else {
        use.count = 1;
    }
    if (!ok || use.count < 0)
        return std::nullopt;
    return use;
}

// The parts of `text` between the commas outside `open`...`close`: "a(1,2),b" -> "a(1,2)", "b".
QList<QStringView> splitOutsideBrackets(QStringView text, QChar open, QChar close)
{
    QList<QStringView> parts;
    int depth = 0;
    qsizetype start = 0;
    for (qsizetype i = 0; i <= text.size(); ++i) {
        const QChar c = i < text.size() ? text.at(i) : QLatin1Char(',');
        if (c == open)
            ++depth;
        else if (c == close)
            depth = qMax(0, depth - 1);
        else if (c == QLatin1Char(',') && depth == 0) {
            parts.append(text.mid(start, i - start));
            start = i + 1;
        }
    }
    return parts;
}

// The entries of "GRES=a,b": commas inside IDX lists ("IDX:0,2") do not split.
QList<GresUse> parseGres(QStringView text)
{
    QList<GresUse> result;
    for (QStringView entry : splitOutsideBrackets(text, QLatin1Char('('), QLatin1Char(')')))
        if (const auto use = parseGresEntry(entry))
            result.append(*use);
    return result;
}

// A JSON number that is a whole number in [low, high], else nullopt. Slurm's ids and uids are below 2^32, which a
// double holds exactly.
std::optional<qint64> wholeNumber(const QJsonValue &value, qint64 low, qint64 high)
{
    if (!value.isDouble())
        return std::nullopt;
    const double number = value.toDouble();
    if (!(number >= double(low) && number <= double(high)) || std::floor(number) != number)
        return std::nullopt;
    return qint64(number);
}

// The top-level object of a listing, with its list `key`; nullopt and *error where there is none.
std::optional<QJsonArray> listOf(const QByteArray &json, QLatin1String key, QString *error)
{
    const auto failed = [error](const QString &why) {
        if (error)
            *error = why;
        return std::nullopt;
    };
    if (json.size() > kMaxListingBytes)
        return failed(QStringLiteral("%1 bytes, over the %2 MiB idlegpu reads")
                          .arg(json.size())
                          .arg(kMaxListingBytes >> 20));
    QJsonParseError parseError;
    const QJsonDocument document = QJsonDocument::fromJson(json, &parseError);
    if (parseError.error != QJsonParseError::NoError)
        return failed(QStringLiteral("not JSON: %1 at byte %2").arg(parseError.errorString()).arg(parseError.offset));
    const QJsonValue list = document.object().value(key);
    if (!list.isArray())
        return failed(QStringLiteral("no list \"%1\"").arg(key));
    return list.toArray();
}

Job jobOf(const QJsonObject &object)
{
    Job job;
    job.id = wholeNumber(object.value(QLatin1String("job_id")), 1, qint64(1) << 53).value_or(0);
    job.name = printableName(object.value(QLatin1String("name")).toString());
    job.uid = wholeNumber(object.value(QLatin1String("user_id")), 0, 0xffffffffLL).value_or(-1);
    job.user = printableName(object.value(QLatin1String("user_name")).toString());
    job.state = object.value(QLatin1String("job_state")).toString();
    job.partition = object.value(QLatin1String("partition")).toString();
    job.nodeList = object.value(QLatin1String("nodes")).toString();
    job.reqNodeList = object.value(QLatin1String("required_nodes")).toString();
    // gres_detail[i] is the GRES on the i-th of job_resources' allocated_nodes.
    const QJsonArray details = object.value(QLatin1String("gres_detail")).toArray();
    const QJsonArray allocated =
        object.value(QLatin1String("job_resources")).toObject().value(QLatin1String("allocated_nodes")).toArray();
    for (qsizetype i = 0; i < details.size(); ++i) {
        QString nodes;
        if (allocated.size() == details.size())
            nodes = allocated.at(i).toObject().value(QLatin1String("nodename")).toString();
        else if (details.size() == 1)
            nodes = job.nodeList;
        if (!nodes.isEmpty() && details.at(i).isString())
            job.gresByNodes.append({nodes, parseGres(details.at(i).toString())});
    }
    return job;
}

// "ws[0-3,7]" -> does it name host? One name with at most one bracket group.
bool nameMatches(QStringView pattern, const QString &host)
{
    const qsizetype open = pattern.indexOf(QLatin1Char('['));
    if (open < 0)
        return pattern == host;
    const qsizetype close = pattern.indexOf(QLatin1Char(']'), open);
    if (close < 0)
        return false;
    const QStringView prefix = pattern.left(open);
    const QStringView suffix = pattern.mid(close + 1);
    if (!host.startsWith(prefix) || !QStringView(host).mid(prefix.size()).endsWith(suffix)
        || host.size() <= prefix.size() + suffix.size())
        return false;
    const QStringView number = QStringView(host).mid(prefix.size(), host.size() - prefix.size() - suffix.size());
    bool ok = false;
    const qint64 value = number.toLongLong(&ok);
    if (!ok || number.startsWith(QLatin1Char('+')) || number.startsWith(QLatin1Char('-')))
        return false;
    const QList<QStringView> ranges = pattern.mid(open + 1, close - open - 1).split(QLatin1Char(','));
    for (QStringView range : ranges) {
        const qsizetype dash = range.indexOf(QLatin1Char('-'));
        const QStringView low = dash < 0 ? range : range.left(dash);
        const QStringView high = dash < 0 ? range : range.mid(dash + 1);
        bool lowOk = false, highOk = false;
        const qint64 from = low.toLongLong(&lowOk), to = high.toLongLong(&highOk);
        if (!lowOk || !highOk || value < from || value > to)
            continue;
        // "ws[01-10]" names ws01, not ws1: a padded range keeps its width.
        if (low.size() > 1 && low.startsWith(QLatin1Char('0')) && number.size() != low.size())
            continue;
        if (!(low.size() > 1 && low.startsWith(QLatin1Char('0'))) && number.size() > 1
            && number.startsWith(QLatin1Char('0')))
            continue;
        return true;
    }
    return false;
}

} // namespace

bool Job::isActive() const
{
    return state == QLatin1String("PENDING") || state == QLatin1String("REQUEUED") || holdsResources();
}

bool Job::holdsResources() const
{
    return state == QLatin1String("RUNNING") || state == QLatin1String("CONFIGURING")
           || state == QLatin1String("SUSPENDED") || state == QLatin1String("COMPLETING")
           || state == QLatin1String("RESIZING") || state == QLatin1String("SIGNALING")
           || state == QLatin1String("STAGE_OUT");
}

QList<GresUse> Job::gresOn(const QString &node) const
{
    for (const NodeGres &group : gresByNodes)
        if (hostListContains(group.nodes, node))
            return group.gres;
    return {};
}

std::optional<QList<Job>> parseJobsJson(const QByteArray &json, QString *error)
{
    const std::optional<QJsonArray> list = listOf(json, QLatin1String("jobs"), error);
    if (!list)
        return std::nullopt;
    QList<Job> jobs;
    for (const QJsonValue &value : *list) {
        Job job = jobOf(value.toObject());
        if (job.id > 0)
            jobs.append(job);
    }
    return jobs;
}

bool NodeState::drained() const
{
    return flags.contains(QLatin1String("DRAIN"));
}

std::optional<NodeState> parseNodeJson(const QByteArray &json, const QString &node, QString *error)
{
    const std::optional<QJsonArray> list = listOf(json, QLatin1String("nodes"), error);
    if (!list)
        return std::nullopt;
    for (const QJsonValue &value : *list) {
        const QJsonObject object = value.toObject();
        if (object.value(QLatin1String("name")).toString() != node)
            continue;
        NodeState result;
        result.state = object.value(QLatin1String("state")).toString();
        if (result.state.isEmpty())
            break;
        for (const QJsonValue &flag : object.value(QLatin1String("state_flags")).toArray())
            if (flag.isString())
                result.flags.append(flag.toString());
        result.reason = object.value(QLatin1String("reason")).toString();
        return result;
    }
    if (error)
        *error = QStringLiteral("no node %1 with a state").arg(printableName(node));
    return std::nullopt;
}

QList<int> parseIndexList(QStringView text)
{
    QList<int> result;
    const QList<QStringView> parts = text.split(QLatin1Char(','), Qt::SkipEmptyParts);
    for (QStringView part : parts) {
        const qsizetype dash = part.indexOf(QLatin1Char('-'));
        bool lowOk = false, highOk = false;
        const int low = (dash < 0 ? part : part.left(dash)).toInt(&lowOk);
        const int high = (dash < 0 ? part : part.mid(dash + 1)).toInt(&highOk);
        if (!lowOk || !highOk || low < 0 || high < low)
            continue;
        for (int i = low; i <= high && result.size() < kMaxIndices; ++i)
            result.append(i);
    }
    return result;
}

bool hostListContains(QStringView hostList, const QString &host)
{
    if (host.isEmpty())
        return false;
    for (QStringView name : splitOutsideBrackets(hostList, QLatin1Char('['), QLatin1Char(']')))
        if (nameMatches(name.trimmed(), host))
            return true;
    return false;
}

QString holdJobName(int gpu)
{
    return kHoldPrefix + QString::number(gpu);
}

int gpuOfHoldName(const QString &name)
{
    if (!name.startsWith(kHoldPrefix))
        return -1;
    const QStringView digits = QStringView(name).mid(kHoldPrefix.size());
    bool ok = false;
    const int gpu = digits.toInt(&ok);
    return ok && gpu >= 0 && !digits.startsWith(QLatin1Char('+')) && QString::number(gpu) == digits ? gpu : -1;
}

// Only root may run jobs in the hold partition (AllowGroups=root), but the uid check does not rest on that.
bool isHoldOnNode(const Job &job, const SlurmConfig &slurm)
{
    if (job.uid != 0 || job.partition != slurm.partition || gpuOfHoldName(job.name) < 0 || !job.isActive())
        return false;
    // A hold asks for its node by name (salloc -w): pending, that is the node it will have.
    return hostListContains(job.holdsResources() ? job.nodeList : job.reqNodeList, slurm.node);
}

// A job uses GPU N where its GRES on this node has type slurm.gresTypeOf(N), or, untyped, where its IDX is N's position
// in `gresOrder` (as --print-slurm-conf writes them). Holds are as isHoldOnNode().
NodeView viewOfNode(const QList<Job> &jobs, const SlurmConfig &slurm, const QList<int> &gresOrder)
{
    NodeView view;
    // gpu%d -> ^gpu(\d+)$: the GPU a type names.
    QStringList parts = slurm.gresType.split(QLatin1String("%d"));
    for (QString &part : parts)
        part = QRegularExpression::escape(part);
    const QString pattern = parts.join(QLatin1String("(\\d+)"));
    const QRegularExpression typePattern(QLatin1Char('^') + pattern + QLatin1Char('$'));
    for (const Job &job : jobs) {
        if (!job.isActive())
            continue;
        if (isHoldOnNode(job, slurm)) {
            view.holds[gpuOfHoldName(job.name)].append(job);
            continue;
        }
        if (!job.holdsResources() || !hostListContains(job.nodeList, slurm.node))
            continue;
        for (const GresUse &use : job.gresOn(slurm.node)) {
            if (use.name != QLatin1String("gpu") || use.count <= 0)
                continue;
            QList<int> gpus;
            const QRegularExpressionMatch match = typePattern.match(use.type);
            if (!use.type.isEmpty() && match.hasMatch())
                gpus.append(match.captured(1).toInt());
            else
                for (int position : use.idx)
                    if (position < gresOrder.size())
                        gpus.append(gresOrder.at(position));
            for (int gpu : std::as_const(gpus))
                if (!view.labJobs[gpu].contains(job))
                    view.labJobs[gpu].append(job);
        }
    }
    return view;
}

// The job to keep: the one whose id salloc printed, else one that has the GPU already (running) over one still pending,
// else the oldest (lowest id).
qsizetype holdToKeep(const QList<Job> &holds, qint64 placedId)
{
    qsizetype best = -1;
    const auto rank = [placedId](const Job &job) { return std::pair(placedId != 0 && job.id == placedId, job.holdsResources()); };
    for (qsizetype i = 0; i < holds.size(); ++i) {
        if (best < 0 || rank(holds.at(i)) > rank(holds.at(best))
            || (rank(holds.at(i)) == rank(holds.at(best)) && holds.at(i).id < holds.at(best).id))
            best = i;
    }
    return best;
}

} // namespace Slurm
