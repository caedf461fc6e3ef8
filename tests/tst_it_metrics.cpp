// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// [metrics] textfile end to end: the real monitor and runner on fake device nodes, a real workload and a real foreign
// opener. The file appears readable by others (0644, node_exporter's user), follows the preemption within the writer's
// throttle, leaves no temporary file behind, reads with Prometheus's own parser (python3-prometheus-client, Debian's)
// and says idlegpu_up 0 once idlegpu stops; a folder that is missing is warned about once and written once it exists;
// a reload that moves the file removes the old one and leaves the workload running.
#include "metrics/metricstextfile.h"
#include "monitorfixture.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QStandardPaths>
#include <QtTest>

using namespace TestSupport;

namespace {
QStringList g_messages;
QtMessageHandler g_previousHandler = nullptr;
void recordMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    g_messages.append(message);
    g_previousHandler(type, context, message);
}

QStringList linesOf(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    return QString::fromUtf8(file.readAll()).split(QLatin1Char('\n'));
}

// Debian's python3 first: python3-prometheus-client installs there, and a python3 earlier on PATH (pyenv, a venv)
// may not see it. Empty when none has the module.
QString pythonWithPrometheusClient()
{
    QStringList candidates{QStringLiteral("/usr/bin/python3")};
    const QString onPath = QStandardPaths::findExecutable(QStringLiteral("python3"));
    if (!onPath.isEmpty())
        candidates.append(onPath);
    for (const QString &python : std::as_const(candidates)) {
        if (!QFileInfo(python).isExecutable())
            continue;
        QProcess probe;
        probe.start(python, {QStringLiteral("-c"), QStringLiteral("import prometheus_client.parser")});
        if (probe.waitForFinished(10000) && probe.exitStatus() == QProcess::NormalExit && probe.exitCode() == 0)
            return python;
    }
    return QString();
}

// Each family as Prometheus's parser reads it ("name type", a counter's name without _total), then the samples the
// test looks at.
constexpr auto kParseScript = R"(import sys
from prometheus_client.parser import text_string_to_metric_families
with open(sys.argv[1]) as f:
    text = f.read()
for family in text_string_to_metric_families(text):
    print("family", family.name, family.type)
    for s in family.samples:
        if s.name in ("idlegpu_gpu_busy", "idlegpu_preemptions_total", "idlegpu_preemption_latency_seconds_count"):
            print("sample", s.name, s.labels.get("gpu", "-"), s.value)
)";
} // namespace

class TestMetricsIntegration : public QObject, private MonitorFixture
{
    Q_OBJECT

private:
    static constexpr auto kWorkload = "process-0";

    QString promFolder() const { return m_dir->filePath(QStringLiteral("node-exporter")); }
    QString promPath(const QString &name = QStringLiteral("idlegpu.prom")) const
    {
        return QDir(promFolder()).filePath(name);
    }
    QString writeTextfileConfig(const QString &textfile)
    {
        return writeConfig(defaults(0)
                           + QStringLiteral("[process-0]\nname=miner\ncmd=sleep 1000\ngpus=0\n"
                                            "stop_timeout_seconds=2\n\n[metrics]\ntextfile = %1\n")
                                 .arg(textfile));
    }
    // One workload on GPU 0; interval_seconds = 60, so that only node events (not the poll) can answer within a test.
    void startMonitor(const QString &textfile)
    {
        makeMonitor(writeTextfileConfig(textfile));
        QVERIFY(m_monitor->start());
        QTRY_COMPARE_WITH_TIMEOUT(state(), WorkloadRuntime::Running, 10000);
    }
    WorkloadRuntime::State state() const { return stateOf(QLatin1String(kWorkload)); }
    // What the folder holds besides the file: a temporary file left by a write that was not atomic.
    QStringList folderEntries() const
    {
        return QDir(promFolder()).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot);
    }

private Q_SLOTS:
    void initTestCase() { g_previousHandler = qInstallMessageHandler(recordMessage); }
    void cleanupTestCase() { qInstallMessageHandler(g_previousHandler); }
    void init()
    {
        setUpMonitorFixture(2);
        g_messages.clear();
    }
    void cleanup() { QVERIFY(tearDownMonitorFixture()); }

    void fileFollowsAPreemptionAndParses()
    {
        QVERIFY(QDir().mkpath(promFolder()));
        startMonitor(promPath());
        const QString running = QStringLiteral("idlegpu_workload_running{gpu=\"0\",device=\"nvidia0\",workload=\"process-0\"} 1");
        QTRY_VERIFY_WITH_TIMEOUT(linesOf(promPath()).contains(running), 5000);
        QCOMPARE(modeOf(promPath()), 0644);
        QVERIFY(linesOf(promPath()).contains(QStringLiteral("idlegpu_gpu_busy{gpu=\"0\",device=\"nvidia0\"} 0")));
        QVERIFY(linesOf(promPath()).contains(QStringLiteral("idlegpu_up 1")));

        NodeHolder job(m_dev->computeJob(0), QStringLiteral("python3"));
        QTRY_COMPARE_WITH_TIMEOUT(m_preempted->count(), 1, 5000);
        // Written within the throttle of the change (250 ms); the workload's stop takes a scan or two more.
        QTRY_VERIFY_WITH_TIMEOUT(linesOf(promPath()).contains(QStringLiteral("idlegpu_gpu_busy{gpu=\"0\",device=\"nvidia0\"} 1")),
                                 2000);
        QStringList lines = linesOf(promPath());
        QVERIFY2(lines.contains(QStringLiteral("idlegpu_preemptions_total{gpu=\"0\",device=\"nvidia0\"} 1")),
                 qPrintable(lines.join(QLatin1Char('\n'))));
        QVERIFY(lines.contains(QStringLiteral("idlegpu_preemptions_total{gpu=\"1\",device=\"nvidia1\"} 0")));
        // The open's event stopped it: its time is in the histogram.
        QVERIFY(lines.contains(QStringLiteral("idlegpu_preemption_latency_seconds_count 1")));
        QTRY_VERIFY_WITH_TIMEOUT(
            linesOf(promPath()).contains(QStringLiteral("idlegpu_workload_running{gpu=\"0\",device=\"nvidia0\",workload=\"process-0\"} 0")),
            5000);
        QCOMPARE(folderEntries(), QStringList{QStringLiteral("idlegpu.prom")});
        QCOMPARE(modeOf(promPath()), 0644); // still, after the file was replaced

        const QString python = pythonWithPrometheusClient();
        if (python.isEmpty())
            QSKIP("python3 with prometheus_client is missing (apt-get install python3-prometheus-client): the file "
                  "was checked, but not by Prometheus's parser");
        QProcess parse;
        parse.start(python, {QStringLiteral("-c"), QLatin1String(kParseScript), promPath()});
        QVERIFY(parse.waitForFinished(20000));
        const QString err = QString::fromUtf8(parse.readAllStandardError());
        QVERIFY2(parse.exitCode() == 0, qPrintable(err));
        const QStringList out = QString::fromUtf8(parse.readAllStandardOutput()).split(QLatin1Char('\n'));
        for (const char *expected : {"family idlegpu_up gauge", "family idlegpu_info gauge",
                                     "family idlegpu_last_update_timestamp_seconds gauge", "family idlegpu_paused gauge",
                                     "family idlegpu_gpu_busy gauge", "family idlegpu_gpu_lent gauge",
                                     "family idlegpu_workload_info gauge", "family idlegpu_workload_running gauge",
                                     "family idlegpu_workload_consecutive_failures gauge",
                                     "family idlegpu_workload_seconds counter",
                                     "family idlegpu_workload_energy_joules counter",
                                     "family idlegpu_preemptions counter",
                                     "family idlegpu_preemption_latency_seconds histogram",
                                     "sample idlegpu_gpu_busy 0 1.0", "sample idlegpu_gpu_busy 1 0.0",
                                     "sample idlegpu_preemptions_total 0 1.0",
                                     "sample idlegpu_preemption_latency_seconds_count - 1.0"})
            QVERIFY2(out.contains(QLatin1String(expected)),
                     qPrintable(QStringLiteral("%1 not in:\n%2").arg(QLatin1String(expected), out.join(QLatin1Char('\n')))));
        job.kill();

        // The last file: idlegpu is down, nothing runs, the counters stay.
        QVERIFY(stopMonitor());
        lines = linesOf(promPath());
        QVERIFY(lines.contains(QStringLiteral("idlegpu_up 0")));
        QVERIFY(lines.contains(QStringLiteral("idlegpu_preemptions_total{gpu=\"0\",device=\"nvidia0\"} 1")));
        QVERIFY(lines.contains(QStringLiteral("idlegpu_workload_running{gpu=\"0\",device=\"nvidia0\",workload=\"process-0\"} 0")));
        QCOMPARE(folderEntries(), QStringList{QStringLiteral("idlegpu.prom")});
    }

    // node_exporter not installed yet: a warning in the config's diagnostics, one warning of the writer, workloads run;
    // the next write after the folder appears succeeds.
    void missingFolderIsWarnedOnceAndRetried()
    {
        startMonitor(promPath());
        QStringList problems;
        for (const ConfigDiagnostic &problem : m_monitor->state().configProblems)
            problems.append(problem.toString());
        QVERIFY2(problems.filter(QStringLiteral(":13: warning: textfile: the folder ")).size() == 1,
                 qPrintable(problems.join(QLatin1Char('\n'))));
        QTRY_COMPARE_WITH_TIMEOUT(g_messages.filter(QStringLiteral("cannot write the metrics to ")).size(), 1, 5000);
        for (int i = 0; i < 3; ++i) { // written again at each change: failing again, silently
            m_monitor->rescan();
            QTest::qWait(MetricsTextFile::kThrottleMs + 50);
        }
        QCOMPARE(g_messages.filter(QStringLiteral("cannot write the metrics to ")).size(), 1);
        QVERIFY(g_messages.filter(QStringLiteral("cannot write the metrics to ")).first().contains(promPath()));

        QVERIFY(QDir().mkpath(promFolder()));
        m_monitor->rescan();
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(promPath()), 2000);
        QTRY_COMPARE_WITH_TIMEOUT(g_messages.filter(QStringLiteral("writing the metrics to ")).size(), 1, 2000);
        QCOMPARE(state(), WorkloadRuntime::Running);
    }

    // A reload with another path: the old file goes (node_exporter would serve it forever), the new one comes, the
    // workload keeps running.
    void reloadMovesTheFile()
    {
        QVERIFY(QDir().mkpath(promFolder()));
        startMonitor(promPath());
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(promPath()), 5000);
        const qint64 pid = m_runner->runtimes().value(QLatin1String(kWorkload)).pid;
        writeTextfileConfig(promPath(QStringLiteral("moved.prom")));
        m_monitor->reloadConfig();
        QTRY_VERIFY_WITH_TIMEOUT(QFileInfo::exists(promPath(QStringLiteral("moved.prom"))), 5000);
        QTRY_VERIFY_WITH_TIMEOUT(!QFileInfo::exists(promPath()), 2000);
        QCOMPARE(folderEntries(), QStringList{QStringLiteral("moved.prom")});
        QCOMPARE(state(), WorkloadRuntime::Running);
        QCOMPARE(m_runner->runtimes().value(QLatin1String(kWorkload)).pid, pid);
    }
};

QTEST_GUILESS_MAIN(TestMetricsIntegration)
#include "tst_it_metrics.moc"
