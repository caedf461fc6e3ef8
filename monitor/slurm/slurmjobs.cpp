// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "slurm/slurmjobs.h"

#include "base/printablename.h"

#include <QRegularExpression>

namespace Slurm {

namespace {

constexpr int kMaxIndices = 1024;
const QString kHoldPrefix = QStringLiteral("idlegpu-hold-gpu");

// A key of scontrol's listing: letters, digits and a few signs ("AllocNode:Sid", "CPUs/Task", "ReqB:S:C:T"), starting
// with a letter. Anything else before a '=' is part of a value ("Command=/bin/x --a=b").
bool isKey(QStringView word)
{
    if (word.isEmpty() || !word.front().isLetter())
        return false;
    for (const QChar c : word)
        if (!(c.isLetterOrNumber() || c == QLatin1Char('_') || c == QLatin1Char(':') || c == QLatin1Char('/')))
            return false;
    return true;
}

// "(null)" and "" are no value.
QString valueOf(const QString &text)
{
    return text == QLatin1String("(null)") ? QString() : text;
}

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

// The KEY=VALUE fields of one line of scontrol's --oneliner listing, in order.
QList<QPair<QString, QString>> fieldsOf(QStringView line)
{
    const QList<QStringView> words = line.split(QLatin1Char(' '), Qt::SkipEmptyParts);
    QList<QPair<QString, QString>> fields;
    for (QStringView word : words) {
        const qsizetype eq = word.indexOf(QLatin1Char('='));
        if (eq > 0 && isKey(word.left(eq)))
            fields.append({word.left(eq).toString(), word.mid(eq + 1).toString()});
        else if (!fields.isEmpty())
            fields.last().second += QLatin1Char(' ') + word.toString();
    }
    return fields;
}

Job parseLine(QStringView line)
{
    Job job;
    const QList<QPair<QString, QString>> fields = fieldsOf(line);
    for (const auto &[key, value] : fields) {
        if (key == QLatin1String("JobId")) {
            if (job.id == 0) // a heterogeneous job's components repeat it
                job.id = value.toLongLong();
        } else if (key == QLatin1String("JobName")) {
            job.name = printableName(value);
        } else if (key == QLatin1String("UserId")) {
            job.user = printableName(value.left(value.indexOf(QLatin1Char('('))));
        } else if (key == QLatin1String("JobState")) {
            job.state = value;
        } else if (key == QLatin1String("Partition")) {
            job.partition = value;
        } else if (key == QLatin1String("NodeList")) {
            job.nodeList = valueOf(value);
        } else if (key == QLatin1String("ReqNodeList")) {
            job.reqNodeList = valueOf(value);
        } else if (key == QLatin1String("Nodes")) {
            job.gresByNodes.append({value, {}});
        } else if (key == QLatin1String("GRES") && !job.gresByNodes.isEmpty()) {
            job.gresByNodes.last().gres = parseGres(value);
        }
    }
    if (job.id <= 0)
        job.id = 0;
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

QList<Job> parseShowJobs(const QByteArray &text)
{
    QList<Job> jobs;
    const QString all = QString::fromUtf8(text);
    const QList<QStringView> lines = QStringView(all).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (QStringView line : lines) {
        Job job = parseLine(line);
        if (job.id > 0)
            jobs.append(job);
    }
    return jobs;
}

bool NodeState::drained() const
{
    return state.contains(QLatin1String("DRAIN"));
}

std::optional<NodeState> parseShowNode(const QByteArray &text, const QString &node)
{
    const QString all = QString::fromUtf8(text);
    const QList<QStringView> lines = QStringView(all).split(QLatin1Char('\n'), Qt::SkipEmptyParts);
    for (QStringView line : lines) {
        NodeState result;
        bool named = false, stated = false;
        for (const auto &[key, value] : fieldsOf(line)) {
            if (key == QLatin1String("NodeName"))
                named = value == node;
            else if (key == QLatin1String("State")) {
                result.state = value;
                stated = true;
            } else if (key == QLatin1String("Reason")) {
                // "maintenance [root@2026-12-02T06:10:00]": who set it and when come last.
                static const QRegularExpression setBy(QStringLiteral(" \\[[^\\]]*@[^\\]]*\\]$"));
                result.reason = valueOf(value);
                result.reason.remove(setBy);
            }
        }
        if (named && stated)
            return result;
    }
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
        const bool onNode = hostListContains(job.nodeList, slurm.node);
        const int holdGpu = gpuOfHoldName(job.name);
        if (holdGpu >= 0 && job.partition == slurm.partition
            && (onNode || (job.nodeList.isEmpty() && hostListContains(job.reqNodeList, slurm.node)))) {
            view.holds[holdGpu].append(job);
            continue;
        }
        if (!onNode || !job.holdsResources())
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

} // namespace Slurm
