// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// `idlegpu --status --json` and a running Monitor look at the same fake tree (two GPUs as plain files, a CUDA-like
// job holding one, a workload and a graphics client on the other) and must say the same of each GPU: its state
// and its holders, with each holder's kind and why it counts or not. --status is the monitor's one-shot look
// (Monitor::lookOnce): both take their snapshot from SnapshotCollector and decide with Policy::decide; the report
// names states with Policy::gpuStateName and explains holders with Policy::explainHolder.
#include "monitor.h"
#include "run/processrunner.h"
#include "testsupport.h"

#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

using namespace TestSupport;

namespace {
// What one report says of one holder of a GPU.
struct HolderView
{
    qint64 pid = 0;
    QString comm;
    QString user;
    bool hidden = false;
    bool foreign = false;
    bool makesBusy = false;
    QString client; // Policy::clientKindName
    QString why;
    bool operator==(const HolderView &) const = default;
};

QString describe(const QList<HolderView> &holders)
{
    QStringList parts;
    for (const HolderView &h : holders)
        parts.append(QStringLiteral("%1 %2 (%3)%4%5%6 [%7: %8]")
                         .arg(h.pid)
                         .arg(h.comm, h.user, h.hidden ? QStringLiteral(" hidden") : QString(),
                              h.foreign ? QStringLiteral(" foreign") : QString(),
                              h.makesBusy ? QStringLiteral(" busy") : QString(), h.client, h.why));
    return parts.join(QStringLiteral(", "));
}

HolderView view(const Holder &holder, int gpu, const Config &config, bool foreign, bool makesBusy)
{
    const Policy::HolderVerdict verdict = Policy::judgeHolder(holder, gpu, config.busyRuleFor(gpu));
    return {holder.pid, holder.comm, holder.user, holder.hidden, foreign, makesBusy,
            Policy::clientKindName(verdict.kind), verdict.why};
}

QList<HolderView> holdersOf(const GpuStatus &gpu, const Config &config)
{
    QList<HolderView> holders;
    for (const Holder &holder : gpu.foreignHolders)
        holders.append(view(holder, gpu.index, config, true, true));
    for (const IgnoredHolder &ignored : gpu.ignoredHolders) {
        HolderView holder = view(ignored.holder, gpu.index, config, false, false);
        holder.why = Policy::explainHolder(ignored, gpu.index).why;
        holders.append(holder);
    }
    for (const Holder &holder : gpu.openOnlyHolders)
        holders.append(view(holder, gpu.index, config, true, false));
    return holders;
}

QList<HolderView> holdersOf(const QJsonObject &gpu)
{
    QList<HolderView> holders;
    for (const QJsonValue &value : gpu.value(QStringLiteral("holders")).toArray()) {
        const QJsonObject holder = value.toObject();
        holders.append({holder.value(QStringLiteral("pid")).toInteger(), holder.value(QStringLiteral("comm")).toString(),
                        holder.value(QStringLiteral("user")).toString(), holder.value(QStringLiteral("hidden")).toBool(),
                        holder.value(QStringLiteral("foreign")).toBool(),
                        holder.value(QStringLiteral("makes_busy")).toBool(), holder.value(QStringLiteral("client")).toString(),
                        holder.value(QStringLiteral("why")).toString()});
    }
    return holders;
}
} // namespace

class TestStatusAgreement : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void statusJsonAgreesWithMonitor()
    {
        QTemporaryDir dir;
        FakeDevRoot dev(2);
        // start_delay_seconds = 0: --status tells what would run as if every delay had passed; the monitor then
        // runs it at once, so both have the same thing to say.
        const QString config = writeFile(
            dir.filePath(QStringLiteral("idlegpu.conf")),
            (defaultsSection(dev.path()) + sleeperSection(QStringLiteral("miner"), QStringLiteral("0"))).toUtf8());
        NodeHolder job(dev.computeJob(1), QStringLiteral("python3"));
        QVERIFY(job.waitUntilOpen());
        // A browser on the workload's GPU: listed, but it does not stop the workload (busy_when = auto).
        NodeHolder browser(dev.graphicsClient(0), QStringLiteral("firefox"));
        QVERIFY(browser.waitUntilOpen());

        ProcessRunner runner;
        Monitor monitor(config, &runner);
        QVERIFY(monitor.start());
        QTRY_COMPARE_WITH_TIMEOUT(runner.runtimes().value(QStringLiteral("process-miner")).state,
                                  WorkloadRuntime::Running, 10000);
        monitor.rescan();
        const MonitorState state = monitor.state();

        QProcess status;
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), dir.path());
        status.setProcessEnvironment(env);
        status.start(QStringLiteral(IDLEGPU_BINARY),
                     {QStringLiteral("--status"), QStringLiteral("--json"), QStringLiteral("--config"), config});
        QVERIFY(status.waitForFinished(10000));
        QVERIFY2(status.exitCode() == 0, status.readAllStandardError().constData());
        const QJsonObject json = QJsonDocument::fromJson(status.readAllStandardOutput()).object();
        const QJsonArray gpus = json.value(QStringLiteral("gpus")).toArray();

        QCOMPARE(gpus.size(), state.decision.gpus.size());
        QCOMPARE(gpus.size(), 2);
        for (const GpuStatus &gpu : state.decision.gpus) {
            QJsonObject reported;
            for (const QJsonValue &value : gpus)
                if (value.toObject().value(QStringLiteral("index")).toInt() == gpu.index)
                    reported = value.toObject();
            QVERIFY2(!reported.isEmpty(), qPrintable(QStringLiteral("GPU %1 missing from --status").arg(gpu.index)));
            QCOMPARE(reported.value(QStringLiteral("state")).toString(), Policy::gpuStateName(gpu.state));
            QCOMPARE(reported.value(QStringLiteral("busy")).toBool(), gpu.state == GpuState::Busy);
            QCOMPARE(reported.value(QStringLiteral("workload")).toString(), gpu.workloadId);
            const QList<HolderView> fromStatus = holdersOf(reported);
            const QList<HolderView> fromMonitor = holdersOf(gpu, state.config);
            QVERIFY2(fromStatus == fromMonitor,
                     qPrintable(QStringLiteral("GPU %1: --status: %2; monitor: %3")
                                    .arg(gpu.index)
                                    .arg(describe(fromStatus), describe(fromMonitor))));
        }
        // And what they agree on is what the tree holds.
        QCOMPARE(Policy::gpuStateName(state.decision.gpu(0)->state), QStringLiteral("running"));
        QCOMPARE(Policy::gpuStateName(state.decision.gpu(1)->state), QStringLiteral("busy"));
        QCOMPARE(state.decision.gpu(1)->foreignHolders.value(0).pid, job.pid());
        const Policy::HolderVerdict jobVerdict =
            Policy::judgeHolder(state.decision.gpu(1)->foreignHolders.value(0), 1, state.config.busyRuleFor(1));
        QCOMPARE(jobVerdict.kind, Policy::ClientKind::Compute);
        QCOMPARE(state.decision.gpu(0)->openOnlyHolders.value(0).pid, browser.pid());
        const Policy::HolderVerdict browserVerdict =
            Policy::judgeHolder(state.decision.gpu(0)->openOnlyHolders.value(0), 0, state.config.busyRuleFor(0));
        QCOMPARE(browserVerdict.kind, Policy::ClientKind::Graphics);
        QVERIFY(!browserVerdict.makesBusy);

        QVERIFY(shutDownMonitor(monitor));
    }
};

QTEST_GUILESS_MAIN(TestStatusAgreement)
#include "tst_it_statusagreement.moc"
