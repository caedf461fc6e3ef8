// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The rows of the keys that join a workstation to a fleet: [slurm] (its GPUs lent to a lab's queue) and [metrics]
// (what it does, for Prometheus).
#include "config/keyrows.h"

#include "config/securefile.h"

#include <QDir>
#include <QFileInfo>

namespace {

// A word Slurm takes as one name (a node, a partition, a GRES type): no white space, ',', ':', '=' or parentheses.
bool isSlurmName(const QString &text)
{
    if (text.isEmpty())
        return false;
    for (const QChar c : text)
        if (c.isSpace() || c == QLatin1Char(',') || c == QLatin1Char(':') || c == QLatin1Char('=')
            || c == QLatin1Char('(') || c == QLatin1Char(')'))
            return false;
    return true;
}

// A Slurm name into the field; `what` says what it names, for the error.
bool readSlurmName(const KeyRow &row, KeyReading &reading, QString *name, const char *what)
{
    const IniDocument::Entry *entry = reading.entry(row);
    if (!entry)
        return false;
    const QString text = entry->value.trimmed();
    if (!isSlurmName(text)) {
        reading.error(entry->line, QStringLiteral("%1: '%2' is not %3 (one word, without spaces, ',', ':', '=' or "
                                                  "parentheses)")
                                       .arg(entry->key, entry->value, QLatin1String(what)));
        return false;
    }
    *name = text;
    return true;
}

void readNode(const KeyRow &row, KeyReading &reading)
{
    readSlurmName(row, reading, &reading.target().config->slurm.node, "a Slurm node name");
}

void readPartition(const KeyRow &row, KeyReading &reading)
{
    readSlurmName(row, reading, &reading.target().config->slurm.partition, "a Slurm partition name");
}

void readGresType(const KeyRow &row, KeyReading &reading)
{
    SlurmConfig &slurm = reading.target().config->slurm;
    readSlurmName(row, reading, &slurm.gresType, "a GRES type");
    if (const IniDocument::Entry *entry = reading.entry(row); entry && slurm.gresType.count(QLatin1String("%d")) != 1)
        reading.error(entry->line, QStringLiteral("gres_type: '%1' must hold %d once, where the GPU index goes (one GRES "
                                                  "type per GPU: gpu%d gives gpu0, gpu1...)")
                                       .arg(entry->value));
}

constexpr KeyRow slurmRows[] = {
    KeyRows::boolean<&Config::slurm, &SlurmConfig::enabled>("slurm", "enabled"),
    KeyRows::custom("slurm", "node", readNode, KeyRows::text<&Config::slurm, &SlurmConfig::node>())
        .withDefaultNote("the short host name"),
    KeyRows::custom("slurm", "partition", readPartition, KeyRows::text<&Config::slurm, &SlurmConfig::partition>()),
    KeyRows::custom("slurm", "gres_type", readGresType, KeyRows::text<&Config::slurm, &SlurmConfig::gresType>()),
    KeyRows::seconds<&Config::slurm, &SlurmConfig::stopTimeoutSeconds>("slurm", "stop_timeout_seconds", {1, 3600}),
};

// The textfile's checks that need no other key; those against device_root and the config's folder come once every
// section is read (ConfigReader::checkMetricsFolder()).
void readTextfile(const KeyRow &row, KeyReading &reading)
{
    const IniDocument::Entry *entry = reading.entry(row);
    if (!entry)
        return;
    const QString path = entry->value.trimmed();
    if (path.isEmpty())
        return; // off, as without the key
    if (!QDir::isAbsolutePath(path)) {
        reading.error(entry->line,
                      QStringLiteral("textfile: '%1' is not an absolute path (it must start with /)").arg(path));
        return;
    }
    const QFileInfo file(QDir::cleanPath(path));
    if (file.isDir()) {
        reading.error(entry->line, QStringLiteral("textfile: %1 is a folder; name the file in it (idlegpu.prom)")
                                       .arg(file.filePath()));
        return;
    }
    reading.target().config->metrics.textfile = file.filePath();
    reading.state().textfileLine = entry->line;
    // Not fatal: node_exporter may be installed later; the writer tries again at each write.
    if (!QFileInfo(file.absolutePath()).isDir())
        reading.warning(entry->line, QStringLiteral("textfile: the folder %1 does not exist (yet); no metrics are "
                                                    "written until it does (Debian's prometheus-node-exporter makes "
                                                    "/var/lib/prometheus/node-exporter)")
                                         .arg(file.absolutePath()));
    else if (const SecureFile::Opened folder = SecureFile::openTrustedFolder(file.absolutePath(),
                                                                             reading.users().effectiveUid);
             !folder.ok())
        reading.warning(entry->line, QStringLiteral("textfile: %1; no metrics are written to %2 while other users can "
                                                    "change its folder (node_exporter's "
                                                    "/var/lib/prometheus/node-exporter is root's)")
                                         .arg(folder.error, file.filePath()));
    else if (!file.fileName().endsWith(QLatin1String(".prom")))
        reading.warning(entry->line, QStringLiteral("textfile: node_exporter's textfile collector reads only files "
                                                    "whose name ends in .prom; %1 would be ignored")
                                         .arg(file.fileName()));
}

constexpr KeyRow metricsRows[] = {
    KeyRows::custom("metrics", "textfile", readTextfile, KeyRows::text<&Config::metrics, &MetricsConfig::textfile>())
        .withEmptyText("(none)"),
};

} // namespace

namespace KeyLists {
std::span<const KeyRow> slurm()
{
    return slurmRows;
}
std::span<const KeyRow> metrics()
{
    return metricsRows;
}
} // namespace KeyLists
