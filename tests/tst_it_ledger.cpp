// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The ledger end to end: the real monitor and runner on fake device nodes with a ledger file. A workload runs and its
// GPU-time grows; a CUDA-like job's open preempts it, and the preemption comes with the time from reading that open to
// the stop (also in the log line) and the culprit; a job the scan finds without an open event has no such time; a
// monitor started again on the same file keeps the totals.
#include "config/configstatefolder.h"
#include "ledger/ledgerstore.h"
#include "ledger/workledger.h"
#include "scopedenv.h"
#include "monitorfixture.h"

#include <QFileInfo>
#include <QJsonDocument>
#include <QJsonObject>
#include <QProcess>
#include <QRegularExpression>
#include <QtTest>

using namespace TestSupport;

namespace {
// The monitor's log lines, for the preemption's.
QStringList g_messages;
QtMessageHandler g_previousHandler = nullptr;
void recordMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    g_messages.append(message);
    g_previousHandler(type, context, message);
}
} // namespace

class TestLedgerIntegration : public QObject, private MonitorFixture
{
    Q_OBJECT

private:
    static constexpr auto kWorkload = "process-0";

    // One workload on GPU 0; interval_seconds = 60, so that only node events (not the poll) can answer within a test.
    void startMonitor(const QString &procRoot = QStringLiteral("/proc"))
    {
        const QString config = writeConfig(
            defaults(0) + QStringLiteral("[process-0]\nname=miner\ncmd=sleep 1000\ngpus=0\nstop_timeout_seconds=2\n"));
        MonitorPaths paths;
        paths.procRoot = procRoot;
        paths.ledgerPath = ledgerPath();
        makeMonitor(config, paths);
        QVERIFY(m_monitor->start());
        QTRY_COMPARE_WITH_TIMEOUT(state(), WorkloadRuntime::Running, 10000);
        QTest::qWait(200); // every event of the start handled
    }
    QString ledgerPath() const { return m_dir->filePath(QStringLiteral("state/idlegpu/ledger.json")); }
    WorkloadRuntime::State state() const { return stateOf(QLatin1String(kWorkload)); }
    LedgerSummary ledger() const { return m_monitor->state().ledger; }
    // What GPU 0 did last by the ledger's timeline, after a decision (each counts the time up to it).
    GpuActivity lastActivityAfterRescan()
    {
        m_monitor->rescan();
        const QList<ActivitySegment> segments = ledger().lastDay.value(0);
        return segments.isEmpty() ? GpuActivity::Unwatched : segments.last().activity;
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

    void preemptionIsRecordedAndTotalsSurviveARestart()
    {
        startMonitor();
        // The workload's time since it started counts at each decision.
        QTRY_VERIFY_WITH_TIMEOUT((m_monitor->rescan(), ledger().byGpu.value(0).total.workloadMs > 0), 5000);
        QCOMPARE(lastActivityAfterRescan(), GpuActivity::Workload);

        NodeHolder job(m_dev->computeJob(0), QStringLiteral("python3"));
        QTRY_COMPARE_WITH_TIMEOUT(m_preempted->count(), 1, 5000);
        const auto event = m_preempted->first().first().value<PreemptionEvent>();
        QVERIFY2(event.openToStopMs.has_value(), "the open's event started the preemption: its time is known");
        QVERIFY(*event.openToStopMs > 0);

        const LedgerSummary summary = ledger();
        QCOMPARE(summary.recentPreemptions.size(), 1);
        const PreemptionRecord record = summary.recentPreemptions.first();
        QCOMPARE(record.gpu, 0);
        QCOMPARE(record.workloadName, QStringLiteral("miner"));
        QCOMPARE(record.culpritProgram, QStringLiteral("python3"));
        QCOMPARE(record.culpritPid, job.pid());
        QVERIFY(!record.culpritUser.isEmpty());
        QCOMPARE(record.openToStopMs, event.openToStopMs);
        QVERIFY(record.wallMs > 0);
        QCOMPARE(summary.byGpu.value(0).total.preemptions, 1);
        QCOMPARE(summary.all.today.preemptions, 1);
        const QRegularExpression logLine(QStringLiteral("^preempting miner: python3 .* opened GPU 0, stopped \\d+\\.\\d ms "
                                                        "after the open$"));
        QVERIFY2(!g_messages.filter(logLine).isEmpty(), qPrintable(g_messages.join(QLatin1Char('\n'))));

        QTRY_COMPARE_WITH_TIMEOUT(lastActivityAfterRescan(), GpuActivity::ForeignUse, 5000);
        const qint64 workloadMs = ledger().all.total.workloadMs;
        QVERIFY(workloadMs > 0);
        job.kill();

        QVERIFY(stopMonitor()); // writes the file
        QVERIFY(QFileInfo::exists(ledgerPath()));
        QCOMPARE(modeOf(ledgerPath()), 0600);
        QCOMPARE(modeOf(QFileInfo(ledgerPath()).absolutePath()), 0700);

        // What --status reads, and what a new monitor starts from.
        WorkLedger read;
        QString error;
        QCOMPARE(LedgerStore::read(ledgerPath(), &read, &error), LedgerStore::ReadResult::Loaded);
        QVERIFY(read.summary().all.total.workloadMs >= workloadMs);

        startMonitor();
        const LedgerSummary restarted = ledger();
        QVERIFY2(restarted.all.total.workloadMs >= workloadMs,
                 qPrintable(QStringLiteral("%1 < %2").arg(restarted.all.total.workloadMs).arg(workloadMs)));
        QCOMPARE(restarted.all.total.preemptions, 1);
        QCOMPARE(restarted.recentPreemptions.value(0).culpritPid, record.culpritPid);
        QCOMPARE(restarted.recentPreemptions.value(0).openToStopMs, record.openToStopMs);
        QCOMPARE(restarted.sinceWallMs, summary.sinceWallMs);
    }

    // A job the scan finds with no open event behind it (here: a fake proc root shows it, no node was opened): the
    // preemption has no open-to-stop time, and says so by its absence.
    void jobFoundWithoutAnOpenHasNoOpenToStopTime()
    {
        FakeProc proc;
        startMonitor(proc.path());
        FakeProc::Process job;
        job.pid = 4244;
        job.sid = 4244;
        job.comm = "python3";
        job.fds = m_dev->computeJob(0);
        proc.add(job);
        m_monitor->rescan();
        QTRY_COMPARE_WITH_TIMEOUT(m_preempted->count(), 1, 5000);
        const auto event = m_preempted->first().first().value<PreemptionEvent>();
        QCOMPARE(event.culprit.pid, 4244);
        QVERIFY(!event.openToStopMs.has_value());
        QCOMPARE(ledger().recentPreemptions.size(), 1);
        QVERIFY(!ledger().recentPreemptions.first().openToStopMs.has_value());
        const QRegularExpression logLine(QStringLiteral("^preempting miner: python3 .* opened GPU 0$"));
        QVERIFY2(!g_messages.filter(logLine).isEmpty(), qPrintable(g_messages.join(QLatin1Char('\n'))));
    }

    // `--status` reads what the running monitor wrote, without its lock; text and JSON.
    void statusReadsTheLedger()
    {
        FakeClock clock;
        clock.setLocalNow(QDateTime::currentDateTime().addSecs(-2 * 3600));
        WorkLedger written(&clock);
        const QString config = writeFile(
            m_dir->filePath(QStringLiteral("idlegpu.conf")),
            QStringLiteral("[defaults]\ndevice_root=%1\n\n[process-0]\ncmd=sleep 1000\n").arg(m_dev->path()).toUtf8());
        // The config's own state folder, where its idlegpu keeps its ledger (another --config keeps another).
        const ScopedEnv stateHome("XDG_STATE_HOME", QFile::encodeName(m_dir->path()));
        const ScopedEnv stateDirectory("STATE_DIRECTORY", QByteArray());
        const SecureFile::Opened stateFolder = ConfigStateFolder::prepare(config);
        QVERIFY2(stateFolder.ok(), qPrintable(stateFolder.error));
        const QString path = LedgerStore::pathIn(stateFolder.path);
        LedgerStore store(path);
        QVERIFY(store.open(&written));
        written.setActivity({{0, GpuActivity::Workload}, {1, GpuActivity::Workload}});
        clock.advance(90 * 60'000); // 1.5 h on each of two GPUs
        PreemptionRecord record;
        record.gpu = 1;
        written.addPreemption(record);
        written.stopWatching();
        QVERIFY(store.save(written));

        const auto runStatus = [&](const QStringList &extra) {
            QProcess status;
            QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
            env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_dir->path());
            env.insert(QStringLiteral("XDG_STATE_HOME"), m_dir->path());
            status.setProcessEnvironment(env);
            status.start(QStringLiteral(IDLEGPU_BINARY),
                         QStringList{QStringLiteral("--status"), QStringLiteral("--config"), config} + extra);
            status.waitForFinished(10000);
            return status.readAllStandardOutput();
        };
        const QString text = QString::fromUtf8(runStatus({}));
        // Today and this week depend on when the test runs (midnight may fall in those 1.5 h); the total does not.
        const QRegularExpression line(
            QStringLiteral("^Idle GPUs' work: \\d+\\.\\d GPU-hours today, \\d+\\.\\d this week, "
                           "3\\.0 in total since \\d{4}-\\d\\d-\\d\\d; 1 preemption$"),
            QRegularExpression::MultilineOption);
        QVERIFY2(line.match(text).hasMatch(), qPrintable(text));
        const QJsonObject json = QJsonDocument::fromJson(runStatus({QStringLiteral("--json")})).object();
        const QJsonObject ledger = json.value(QStringLiteral("ledger")).toObject();
        QCOMPARE(ledger.value(QStringLiteral("total")).toObject().value(QStringLiteral("gpu_hours")).toDouble(), 3.0);
        QCOMPARE(ledger.value(QStringLiteral("total")).toObject().value(QStringLiteral("preemptions")).toInt(), 1);
        QVERIFY(!ledger.value(QStringLiteral("since")).toString().isEmpty());
        QVERIFY(QFileInfo::exists(path)); // only read
    }
};

QTEST_GUILESS_MAIN(TestLedgerIntegration)
#include "tst_it_ledger.moc"
