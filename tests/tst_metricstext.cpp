// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// MetricsText::render over MonitorState values: the exact lines of each family (dcgm-exporter's GPU labels, the
// workload id, base units, the histogram's cumulative buckets), HELP and TYPE once per family before its samples,
// label values escaped; formatValue's numbers.
#include "metrics/metricstext.h"

#include <QRegularExpression>
#include <QSet>
#include <QTest>

#include <cmath>
#include <limits>

namespace {

constexpr qint64 kNowMs = 1'000'000;
constexpr qint64 kWallMs = 1'767'614'400'123; // 2026-01-05 12:00:00.123 UTC

GpuStatus gpuStatus(int index, GpuState state)
{
    GpuStatus gpu;
    gpu.index = index;
    gpu.state = state;
    return gpu;
}

// Two NVIDIA GPUs present, both idle; a backend named GPU 0 only.
MonitorState twoGpus()
{
    MonitorState state;
    state.decision.gpus = {gpuStatus(0, GpuState::Idle), gpuStatus(1, GpuState::Idle)};
    for (int i = 0; i < 2; ++i) {
        GpuDevice device;
        device.index = i;
        device.path = QStringLiteral("/dev/nvidia%1").arg(i);
        state.snapshot.devices.gpus.append(device);
    }
    GpuInfo info;
    info.index = 0;
    info.uuid = QStringLiteral("GPU-8f0c1a2b");
    info.name = QStringLiteral("NVIDIA H200");
    state.gpuMetrics.gpus.insert(0, info);
    return state;
}

WorkloadConfig workload(const QString &id, const QString &name, const QList<int> &gpus = {})
{
    WorkloadConfig config;
    config.id = id;
    config.name = name;
    config.cmd = QStringLiteral("miner");
    config.gpus = gpus.isEmpty() ? GpuSelection() : GpuSelection::of(gpus);
    return config;
}

WorkloadRuntime running(const QString &id, const QList<int> &gpus)
{
    WorkloadRuntime runtime;
    runtime.id = id;
    runtime.state = WorkloadRuntime::Running;
    runtime.gpus = gpus;
    return runtime;
}

const QString kGpu0 = QStringLiteral("gpu=\"0\",UUID=\"GPU-8f0c1a2b\",device=\"nvidia0\",modelName=\"NVIDIA H200\"");
const QString kGpu1 = QStringLiteral("gpu=\"1\",device=\"nvidia1\"");

QStringList renderedLines(const MonitorState &state, bool up = true)
{
    MetricsText::Moment moment;
    moment.nowMs = kNowMs;
    moment.nowWallMs = kWallMs;
    moment.up = up;
    moment.version = QStringLiteral("9.9.9");
    const QByteArray text = MetricsText::render(state, moment);
    return QString::fromUtf8(text).split(QLatin1Char('\n'));
}

} // namespace

class TestMetricsText : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void renders_data()
    {
        QTest::addColumn<MonitorState>("state");
        QTest::addColumn<bool>("up");
        QTest::addColumn<QStringList>("present"); // exact lines
        QTest::addColumn<QStringList>("absent");  // no line starts with these

        QTest::newRow("before the first scan")
            << MonitorState() << true
            << QStringList{"idlegpu_up 1", "idlegpu_info{version=\"9.9.9\"} 1",
                           "idlegpu_last_update_timestamp_seconds 1767614400.123", "idlegpu_paused 0",
                           "idlegpu_preemption_latency_seconds_bucket{le=\"+Inf\"} 0",
                           "idlegpu_preemption_latency_seconds_sum 0", "idlegpu_preemption_latency_seconds_count 0"}
            << QStringList{"idlegpu_gpu_busy{", "idlegpu_workload_running{", "idlegpu_preemptions_total{"};

        QTest::newRow("the last file") << MonitorState() << false << QStringList{"idlegpu_up 0"}
                                       << QStringList{"idlegpu_up 1"};

        {
            MonitorState state = twoGpus();
            state.decision.gpus[0].state = GpuState::Busy;
            QTest::newRow("a foreign job on GPU 0; dcgm-exporter's labels where known")
                << state << true
                << QStringList{"idlegpu_gpu_busy{" + kGpu0 + "} 1", "idlegpu_gpu_busy{" + kGpu1 + "} 0",
                               "idlegpu_gpu_lent{" + kGpu0 + "} 0", "idlegpu_preemptions_total{" + kGpu1 + "} 0"}
                << QStringList{"idlegpu_workload_energy_joules_total{"};
        }
        {
            MonitorState state = twoGpus();
            state.decision.gpus[1].state = GpuState::RunningWorkload;
            state.config.workloads = {workload(QStringLiteral("process-0"), QStringLiteral("miner")),
                                      workload(QStringLiteral("process-1"), QStringLiteral("boinc"), {0})};
            WorkloadConfig disabled = workload(QStringLiteral("process-2"), QStringLiteral("off"));
            disabled.enabled = false;
            state.config.workloads.append(disabled);
            state.runtimes.insert(QStringLiteral("process-0"), running(QStringLiteral("process-0"), {1}));
            state.ledger.workloadMs[1][QStringLiteral("process-0")] = 90'500;
            QTest::newRow("a workload on GPU 1, one that may run on GPU 0 only, a disabled one")
                << state << true
                << QStringList{"idlegpu_workload_running{" + kGpu0 + ",workload=\"process-0\"} 0",
                               "idlegpu_workload_running{" + kGpu1 + ",workload=\"process-0\"} 1",
                               "idlegpu_workload_running{" + kGpu0 + ",workload=\"process-1\"} 0",
                               "idlegpu_workload_seconds_total{" + kGpu1 + ",workload=\"process-0\"} 90.5",
                               "idlegpu_workload_seconds_total{" + kGpu0 + ",workload=\"process-0\"} 0",
                               "idlegpu_workload_info{workload=\"process-0\",name=\"miner\",kind=\"process\"} 1",
                               "idlegpu_workload_info{workload=\"process-1\",name=\"boinc\",kind=\"process\"} 1"}
                << QStringList{"idlegpu_workload_running{" + kGpu1 + ",workload=\"process-1\"}",
                               "idlegpu_workload_info{workload=\"process-2\"",
                               "idlegpu_workload_running{" + kGpu0 + ",workload=\"process-2\"}"};
        }
        {
            MonitorState state = twoGpus();
            state.config.workloads = {workload(QStringLiteral("process-0"), QStringLiteral("miner")),
                                      workload(QStringLiteral("process-1"), QStringLiteral("boinc"), {0})};
            WorkloadConfig disabled = workload(QStringLiteral("process-2"), QStringLiteral("off"));
            disabled.enabled = false;
            state.config.workloads.append(disabled);
            WorkloadRuntime failing;
            failing.id = QStringLiteral("process-0");
            failing.state = WorkloadRuntime::BackingOff;
            failing.consecutiveFailures = 3;
            state.runtimes.insert(failing.id, failing);
            QTest::newRow("failures in a row: one per enabled workload, 0 for one never run")
                << state << true
                << QStringList{"idlegpu_workload_consecutive_failures{workload=\"process-0\"} 3",
                               "idlegpu_workload_consecutive_failures{workload=\"process-1\"} 0"}
                << QStringList{"idlegpu_workload_consecutive_failures{workload=\"process-2\"}"};
        }
        {
            MonitorState state = twoGpus();
            state.config.workloads = {workload(QStringLiteral("process-x"), QStringLiteral("say \"hi\" \\ now\nthen"))};
            state.gpuMetrics.gpus[0].name = QStringLiteral("Card \"Pro\"");
            QTest::newRow("label values escaped")
                << state << true
                << QStringList{"idlegpu_workload_info{workload=\"process-x\",name=\"say \\\"hi\\\" \\\\ now\\nthen\","
                               "kind=\"process\"} 1",
                               "idlegpu_gpu_busy{gpu=\"0\",UUID=\"GPU-8f0c1a2b\",device=\"nvidia0\","
                               "modelName=\"Card \\\"Pro\\\"\"} 0"}
                << QStringList{};
        }
        {
            MonitorState state = twoGpus();
            state.config.slurm.enabled = true;
            state.config = state.config.withGpuWorkloads({0, 1});
            state.runtimes.insert(QStringLiteral("slurm-gpu0"), running(QStringLiteral("slurm-gpu0"), {0}));
            WorkloadRuntime held;
            held.id = QStringLiteral("slurm-gpu1");
            held.gpus = {1};
            state.runtimes.insert(held.id, held);
            QTest::newRow("Slurm mode: GPU 0 lent, GPU 1 held for the owner")
                << state << true
                << QStringList{"idlegpu_gpu_lent{" + kGpu0 + "} 1", "idlegpu_gpu_lent{" + kGpu1 + "} 0",
                               "idlegpu_workload_running{" + kGpu0 + ",workload=\"slurm-gpu0\"} 1",
                               "idlegpu_workload_info{workload=\"slurm-gpu0\",name=\"lent to the lab (GPU 0)\","
                               "kind=\"slurm\"} 1"}
                << QStringList{"idlegpu_workload_running{" + kGpu1 + ",workload=\"slurm-gpu0\"}"};
        }
        {
            MonitorState state = twoGpus();
            state.config.workloads = {workload(QStringLiteral("slurm-gpu0"), QStringLiteral("a look-alike"), {0})};
            state.runtimes.insert(QStringLiteral("slurm-gpu0"), running(QStringLiteral("slurm-gpu0"), {0}));
            QTest::newRow("Slurm mode off: nothing is lent") << state << true
                                                             << QStringList{"idlegpu_gpu_lent{" + kGpu0 + "} 0"}
                                                             << QStringList{"idlegpu_gpu_lent{" + kGpu0 + "} 1"};
        }
        {
            MonitorState state = twoGpus();
            state.ledger.byGpu[0].total.preemptions = 4;
            state.ledger.openToStop.add(0.8);
            state.ledger.openToStop.add(3);
            state.ledger.openToStop.add(250);
            QTest::newRow("preemptions and their open-to-stop times, in seconds")
                << state << true
                << QStringList{"idlegpu_preemptions_total{" + kGpu0 + "} 4",
                               "idlegpu_preemption_latency_seconds_bucket{le=\"0.001\"} 1",
                               "idlegpu_preemption_latency_seconds_bucket{le=\"0.002\"} 1",
                               "idlegpu_preemption_latency_seconds_bucket{le=\"0.005\"} 2",
                               "idlegpu_preemption_latency_seconds_bucket{le=\"0.2\"} 2",
                               "idlegpu_preemption_latency_seconds_bucket{le=\"0.5\"} 3",
                               "idlegpu_preemption_latency_seconds_bucket{le=\"10\"} 3",
                               "idlegpu_preemption_latency_seconds_bucket{le=\"+Inf\"} 3",
                               "idlegpu_preemption_latency_seconds_sum 0.2538",
                               "idlegpu_preemption_latency_seconds_count 3"}
                << QStringList{};
        }
        {
            MonitorState state = twoGpus();
            state.ledger.byGpu[0].total.energyJoules = 1234.5;
            state.ledger.byGpu[1].total.workloadMs = 1000;
            QTest::newRow("energy where a backend measures it")
                << state << true << QStringList{"idlegpu_workload_energy_joules_total{" + kGpu0 + "} 1234.5"}
                << QStringList{"idlegpu_workload_energy_joules_total{" + kGpu1};
        }
        {
            MonitorState state;
            state.pause.all = true;
            QTest::newRow("paused by hand") << state << true << QStringList{"idlegpu_paused 1"} << QStringList{};
            state.pause.allUntilMs = kNowMs - 1;
            QTest::newRow("a pause that has ended") << state << true << QStringList{"idlegpu_paused 0"}
                                                    << QStringList{};
        }
    }
    void renders()
    {
        QFETCH(MonitorState, state);
        QFETCH(bool, up);
        QFETCH(QStringList, present);
        QFETCH(QStringList, absent);
        const QStringList lines = renderedLines(state, up);
        const QString all = lines.join(QLatin1Char('\n'));
        for (const QString &line : std::as_const(present))
            QVERIFY2(lines.contains(line), qPrintable(QStringLiteral("missing: %1\nin:\n%2").arg(line, all)));
        for (const QString &prefix : std::as_const(absent))
            for (const QString &line : lines)
                QVERIFY2(!line.startsWith(prefix), qPrintable(QStringLiteral("unexpected: %1").arg(line)));
    }

    // The format's rules, over a state with every family: # HELP and # TYPE once per family, first; each sample's name
    // is its family's (a histogram's with _bucket, _sum, _count); counters end in _total; the text ends in a newline.
    void wellFormed()
    {
        MonitorState state = twoGpus();
        state.config.workloads = {workload(QStringLiteral("process-0"), QStringLiteral("miner"))};
        state.ledger.byGpu[0].total.energyJoules = 1;
        MetricsText::Moment moment;
        const QByteArray text = MetricsText::render(state, moment);
        QVERIFY(text.endsWith('\n'));
        QStringList lines = QString::fromUtf8(text).split(QLatin1Char('\n'));
        lines.removeLast();
        QSet<QString> families;
        QString family;
        QString type;
        const QRegularExpression sample(QStringLiteral("^([a-z_]+)(\\{[^}]*\\})? (\\S+)$"));
        for (qsizetype i = 0; i < lines.size(); ++i) {
            const QString &line = lines.at(i);
            if (line.startsWith(QLatin1String("# HELP "))) {
                family = line.section(QLatin1Char(' '), 2, 2);
                QVERIFY2(!families.contains(family), qPrintable(family));
                families.insert(family);
                QVERIFY(i + 1 < lines.size());
                const QString typeLine = lines.at(++i);
                QVERIFY2(typeLine.startsWith(QStringLiteral("# TYPE %1 ").arg(family)), qPrintable(typeLine));
                type = typeLine.section(QLatin1Char(' '), 3, 3);
                QVERIFY2((QStringList{"gauge", "counter", "histogram"}.contains(type)), qPrintable(typeLine));
                QCOMPARE(type == QLatin1String("counter"), family.endsWith(QLatin1String("_total")));
                continue;
            }
            const QRegularExpressionMatch match = sample.match(line);
            QVERIFY2(match.hasMatch(), qPrintable(line));
            const QString name = match.captured(1);
            if (type == QLatin1String("histogram"))
                QVERIFY2(name == family + QLatin1String("_bucket") || name == family + QLatin1String("_sum")
                             || name == family + QLatin1String("_count"),
                         qPrintable(line));
            else
                QCOMPARE(name, family);
        }
        const QStringList expected{"idlegpu_up",
                                   "idlegpu_info",
                                   "idlegpu_last_update_timestamp_seconds",
                                   "idlegpu_paused",
                                   "idlegpu_gpu_busy",
                                   "idlegpu_gpu_lent",
                                   "idlegpu_workload_info",
                                   "idlegpu_workload_running",
                                   "idlegpu_workload_consecutive_failures",
                                   "idlegpu_workload_seconds_total",
                                   "idlegpu_workload_energy_joules_total",
                                   "idlegpu_preemptions_total",
                                   "idlegpu_preemption_latency_seconds"};
        QCOMPARE(families, QSet<QString>(expected.cbegin(), expected.cend()));
    }

    void formatValue_data()
    {
        QTest::addColumn<double>("value");
        QTest::addColumn<QByteArray>("text");
        QTest::newRow("zero") << 0.0 << QByteArray("0");
        QTest::newRow("integer") << 42.0 << QByteArray("42");
        QTest::newRow("negative") << -3.0 << QByteArray("-3");
        QTest::newRow("fraction") << 90.5 << QByteArray("90.5");
        QTest::newRow("a millisecond") << 0.001 << QByteArray("0.001");
        QTest::newRow("a sum of tenths") << 0.1 + 0.2 << QByteArray("0.30000000000000004");
        QTest::newRow("a timestamp") << 1767614400.123 << QByteArray("1767614400.123");
        QTest::newRow("a small time") << 0.0000025 << QByteArray("0.0000025");
        QTest::newRow("NaN") << std::nan("") << QByteArray("NaN");
        QTest::newRow("+Inf") << std::numeric_limits<double>::infinity() << QByteArray("+Inf");
        QTest::newRow("-Inf") << -std::numeric_limits<double>::infinity() << QByteArray("-Inf");
    }
    void formatValue()
    {
        QFETCH(double, value);
        QFETCH(QByteArray, text);
        QCOMPARE(MetricsText::formatValue(value), text);
    }

    void escapesLabelValues()
    {
        QCOMPARE(MetricsText::escapeLabelValue(QStringLiteral("plain é")), QStringLiteral("plain é"));
        QCOMPARE(MetricsText::escapeLabelValue(QStringLiteral("a\\b\"c\nd")), QStringLiteral("a\\\\b\\\"c\\nd"));
    }
};

QTEST_GUILESS_MAIN(TestMetricsText)
#include "tst_metricstext.moc"
