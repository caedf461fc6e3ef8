// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The monitor under attack by what other users' processes can do to its inputs: a flood of opens that overflows the
// inotify queue while another user's job holds a GPU unseen; process names with control characters that would forge
// log lines and colour the terminal of `--status`; a monitor that stood still (SIGSTOP) reporting the open-to-stop
// time; a wall clock set forward and back under the ledger; a storm of device nodes removed and made anew. Real
// processes, real /proc and inotify on fake device nodes, a real ProcessRunner.
#include "devices/devicescanner.h"
#include "devices/nodewatcher.h"
#include "base/printablename.h"
#include "ledger/workledger.h"
#include "monitorfixture.h"

#include <QDir>
#include <QElapsedTimer>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>
#include <QMutex>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QThread>
#include <QScopeGuard>
#include <QtTest>

#include <fcntl.h>
#include <unistd.h>

using namespace TestSupport;

namespace {

// What the monitor logged (category idlegpu.*), for the tests that read its log lines.
QMutex g_logMutex;
QStringList g_log;
QtMessageHandler g_previousHandler = nullptr;

void recordMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (context.category && QByteArray(context.category).startsWith("idlegpu.")) {
        const QMutexLocker locker(&g_logMutex);
        g_log.append(message);
    }
    if (g_previousHandler)
        g_previousHandler(type, context, message);
}

QStringList loggedSoFar()
{
    const QMutexLocker locker(&g_logMutex);
    return g_log;
}

bool logged(const QString &part)
{
    const QStringList lines = loggedSoFar();
    return std::any_of(lines.cbegin(), lines.cend(), [&](const QString &line) { return line.contains(part); });
}

void clearLog()
{
    const QMutexLocker locker(&g_logMutex);
    g_log.clear();
}

int maxQueuedEvents()
{
    QFile file(QStringLiteral("/proc/sys/fs/inotify/max_queued_events"));
    return file.open(QIODevice::ReadOnly) ? file.readAll().trimmed().toInt() : 0;
}

} // namespace

class TestSecMonitor : public QObject, private MonitorFixture
{
    Q_OBJECT

private:
    // -1 while the decision has no such GPU.
    int gpuState(int gpu) const
    {
        const GpuStatus *status = m_monitor->state().decision.gpu(gpu);
        return status ? int(status->state) : -1;
    }

    std::unique_ptr<FakeClock> m_clock; // outlives the monitor that reads it
    std::unique_ptr<FakeProc> m_proc;

private Q_SLOTS:
    void initTestCase() { g_previousHandler = qInstallMessageHandler(recordMessage); }
    void cleanupTestCase() { qInstallMessageHandler(g_previousHandler); }

    void init()
    {
        setUpMonitorFixture(2);
        clearLog();
    }
    void cleanup()
    {
        QVERIFY(tearDownMonitorFixture());
        m_clock.reset();
        m_proc.reset();
    }

    // Item 8. A non-root idlegpu knows another user's job on GPU 0 only from the node's open event (its fds are not
    // readable). A third user floods opens of nvidiactl until the inotify queue overflows: the counts are lost, and
    // the GPU must stay busy until a scan shows it free, not be handed back to the workload at once.
    void overflowKeepsAnUnseenHoldersGpuBusy()
    {
        // /proc as a non-root idlegpu sees it: another user's process whose fds cannot be read. A fake proc root stands
        // in (these tests run as root, which reads every process); every real process is unseen there.
        m_proc = std::make_unique<FakeProc>();
        FakeProc &proc = *m_proc;
        FakeProc::Process other;
        other.pid = 4000;
        other.sid = 4000;
        other.comm = "bash";
        proc.add(other);
        QVERIFY(QDir(proc.pidDir(4000) + QStringLiteral("/fd")).removeRecursively());
        writeFile(proc.pidDir(4000) + QStringLiteral("/fd"), QByteArray()); // not a folder: unreadable

        m_clock = std::make_unique<FakeClock>();
        FakeClock &clock = *m_clock;
        const QString path = writeConfig(defaults(10) + sleeperSection(QStringLiteral("0"), QStringLiteral("0"))
                                         + sleeperSection(QStringLiteral("1"), QStringLiteral("1")));
        MonitorPaths paths;
        paths.procRoot = proc.path();
        makeMonitor(path, paths, &clock);
        m_monitor->setInferHiddenHolders(true);
        QVERIFY(m_monitor->start());

        // Bob's job opens GPU 0: the event is seen, the fd is not.
        QFile bobsJob(m_dev->node(0));
        QVERIFY(bobsJob.open(QIODevice::ReadOnly));
        QTRY_COMPARE_WITH_TIMEOUT(gpuState(0), int(GpuState::Busy), 5000);
        clock.advance(11'000);
        m_monitor->rescan();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-1")), WorkloadRuntime::Running, 5000);
        QCOMPARE(stateOf(QStringLiteral("process-0")), WorkloadRuntime::Stopped);

        // Carol's flood, while the monitor's thread is busy elsewhere: more events than the queue holds.
        const int queueLimit = maxQueuedEvents();
        if (queueLimit <= 0 || queueLimit > 4'000'000)
            QSKIP("fs.inotify.max_queued_events is unreadable or too large to overflow in a test");
        for (int i = 0; i < queueLimit / 2 + 64; ++i) {
            const int fd = ::open(QFile::encodeName(m_dev->ctl()).constData(), O_RDONLY | O_CLOEXEC);
            QVERIFY(fd >= 0);
            ::close(fd);
        }
        QTRY_VERIFY_WITH_TIMEOUT(logged(QStringLiteral("inotify queue overflowed")), 5000);

        // Calm for many start delays: GPU 0 stays bob's.
        for (int i = 0; i < 3; ++i) {
            clock.advance(11'000);
            m_monitor->rescan();
            QTest::qWait(150);
        }
        QVERIFY2(stateOf(QStringLiteral("process-0")) != WorkloadRuntime::Running,
                 "the workload was started on a GPU another user's job holds, after an inotify overflow");
        QCOMPARE(gpuState(0), int(GpuState::Busy));

        // Bob's job ends and a scan sees every process (the other user's is gone): GPU 0 is free from then on, and
        // after start_delay_seconds the workload starts there.
        bobsJob.close();
        QVERIFY(QDir(proc.pidDir(4000)).removeRecursively());
        m_monitor->rescan();
        QTRY_VERIFY_WITH_TIMEOUT(gpuState(0) != int(GpuState::Busy), 5000);
        QCOMPARE(stateOf(QStringLiteral("process-0")), WorkloadRuntime::Stopped); // not before the start delay
        clock.advance(11'000);
        m_monitor->rescan();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-0")), WorkloadRuntime::Running, 5000);
    }

    // Item 10. A process named with a newline and an escape sequence (the file name it runs from sets comm, argv[0]
    // and exe; prctl(PR_SET_NAME) sets comm alike) opens a GPU while a workload runs: the log lines that name it and
    // `idlegpu --status` must show the name escaped, never the raw bytes.
    void controlCharactersInNamesAreEscaped()
    {
        const QString path = writeConfig(defaults(0) + sleeperSection(QStringLiteral("0"), QStringLiteral("0")));
        makeMonitor(path);
        QSignalSpy preempted(m_monitor.get(), &Monitor::preempted);
        QVERIFY(m_monitor->start());
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-0")), WorkloadRuntime::Running, 5000);

        const QString forgedName = QStringLiteral("x\nFAKE\x1b[31m");
        const QString escapedName = QStringLiteral("x\\nFAKE\\x1b[31m");
        QTemporaryDir bin;
        const QString program = bin.filePath(forgedName);
        QVERIFY(QFile::copy(QStringLiteral(IDLEGPU_TEST_HOLDOPEN), program));
        QVERIFY(QFile::setPermissions(program, QFile::ReadOwner | QFile::ExeOwner | QFile::ReadOther | QFile::ExeOther));
        QProcess job;
        const auto stopJob = qScopeGuard([&] {
            job.kill();
            job.waitForFinished(5000);
        });
        job.setProgram(program);
        job.setArguments(m_dev->computeJob(0));
        job.start();
        QVERIFY(job.waitForStarted(5000));

        QTRY_VERIFY_WITH_TIMEOUT(preempted.count() >= 1, 5000);
        const QStringList lines = loggedSoFar();
        bool named = false;
        for (const QString &line : lines) {
            if (!line.contains(QLatin1String("FAKE")))
                continue;
            named = named || line.contains(escapedName);
            QVERIFY2(!line.contains(QLatin1Char('\n')) && !line.contains(QChar(0x1b)),
                     qPrintable(QStringLiteral("a raw control character in the log line: %1")
                                    .arg(QString::fromLatin1(line.toUtf8().toPercentEncoding(" :()/,")))));
        }
        QVERIFY2(named, "no log line named the process (the preemption's)");

        const auto event = preempted.first().first().value<PreemptionEvent>();
        QCOMPARE(event.culprit.pid, job.processId());
        QCOMPARE(event.culprit.comm, escapedName);
        QVERIFY(event.culprit.exe.endsWith(escapedName));
        QVERIFY(event.culprit.argv0.endsWith(escapedName));
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-0")), WorkloadRuntime::Stopped, 5000);

        // --status of the real binary, as text and as JSON.
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_dir->path());
        for (const bool json : {false, true}) {
            QProcess status;
            status.setProcessEnvironment(env);
            QStringList arguments{QStringLiteral("--status"), QStringLiteral("--config"), path};
            if (json)
                arguments.append(QStringLiteral("--json"));
            status.start(QStringLiteral(IDLEGPU_BINARY), arguments);
            QVERIFY(status.waitForFinished(10000));
            const QByteArray out = status.readAllStandardOutput();
            QVERIFY2(status.exitCode() == 0, status.readAllStandardError().constData());
            QVERIFY2(!out.contains('\x1b'), out.constData());
            QVERIFY2(!out.contains("x\nFAKE"), out.constData());
            if (!json) {
                QVERIFY2(out.contains(escapedName.toUtf8()), out.constData());
                continue;
            }
            bool found = false;
            const QJsonArray gpus = QJsonDocument::fromJson(out).object().value(QStringLiteral("gpus")).toArray();
            for (const QJsonValue &gpu : gpus) {
                const QJsonArray holders = gpu.toObject().value(QStringLiteral("holders")).toArray();
                for (const QJsonValue &holder : holders)
                    if (holder.toObject().value(QStringLiteral("pid")).toInteger() == job.processId()) {
                        found = true;
                        QCOMPARE(holder.toObject().value(QStringLiteral("comm")).toString(), escapedName);
                        QVERIFY(holder.toObject().value(QStringLiteral("exe")).toString().endsWith(escapedName));
                    }
            }
            QVERIFY2(found, out.constData());
        }
    }

    void printableNameEscapes_data()
    {
        QTest::addColumn<QString>("name");
        QTest::addColumn<QString>("printed");
        QTest::newRow("plain") << QStringLiteral("python3") << QStringLiteral("python3");
        QTest::newRow("spaces and unicode") << QStringLiteral("my job \u00e9t\u00e9") << QStringLiteral("my job \u00e9t\u00e9");
        QTest::newRow("newline, escape") << QStringLiteral("x\nFAKE\x1b[31m") << QStringLiteral("x\\nFAKE\\x1b[31m");
        QTest::newRow("tab, CR, DEL") << QStringLiteral("a\tb\rc\x7f") << QStringLiteral("a\\tb\\rc\\x7f");
        QTest::newRow("backslash is doubled") << QStringLiteral("a\\nb") << QStringLiteral("a\\\\nb");
        QTest::newRow("C1 CSI") << QStringLiteral("a\u009b31m") << QStringLiteral("a\\x9b31m");
        QTest::newRow("bidi override") << QStringLiteral("gpu\u202eexe.sh") << QStringLiteral("gpu\\u202eexe.sh");
        QTest::newRow("line separator") << QStringLiteral("a\u2028b") << QStringLiteral("a\\u2028b");
    }
    void printableNameEscapes()
    {
        QFETCH(QString, name);
        QFETCH(QString, printed);
        QCOMPARE(printableName(name), printed);
    }

    // A ledger written before names were escaped where they are read may hold one raw: it is escaped when read, once.
    void ledgerFromBeforeHoldsNoRawName()
    {
        FakeClock clock;
        WorkLedger written(&clock);
        PreemptionRecord record;
        record.gpu = 0;
        record.culpritProgram = QStringLiteral("x\nFAKE\x1b[31m");
        record.culpritUser = QStringLiteral("bob");
        written.addPreemption(record);
        WorkLedger read(&clock);
        QString error;
        QVERIFY2(read.restore(written.toJson(), &error), qPrintable(error));
        QCOMPARE(read.summary().recentPreemptions.first().culpritProgram, QStringLiteral("x\\nFAKE\\x1b[31m"));
        WorkLedger readAgain(&clock);
        QVERIFY2(readAgain.restore(read.toJson(), &error), qPrintable(error));
        QCOMPARE(readAgain.summary().recentPreemptions.first().culpritProgram, QStringLiteral("x\\nFAKE\\x1b[31m"));
        QCOMPARE(readAgain.summary().recentPreemptions.first().culpritUser, QStringLiteral("bob"));
    }

    // Item 14 (a). While idlegpu stood still (SIGSTOP; here its thread blocked, which is the same to it) a job opened
    // the GPU; the open's event is read once it runs again. The open-to-stop time must count the stall, not the
    // microseconds after the read.
    void stallCountsInTheOpenToStopTime()
    {
        const QString path = writeConfig(defaults(0) + sleeperSection(QStringLiteral("0"), QStringLiteral("0")));
        makeMonitor(path);
        QSignalSpy preempted(m_monitor.get(), &Monitor::preempted);
        QVERIFY(m_monitor->start());
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-0")), WorkloadRuntime::Running, 5000);
        QTest::qWait(300);

        QElapsedTimer sinceStalled;
        sinceStalled.start();
        NodeHolder job(m_dev->computeJob(0));
        QVERIFY(job.waitUntilOpen());
        QElapsedTimer sinceOpen;
        sinceOpen.start();
        QThread::msleep(3000);
        const qint64 unreadMs = sinceOpen.elapsed();

        QTRY_VERIFY_WITH_TIMEOUT(preempted.count() >= 1, 5000);
        const auto event = preempted.first().first().value<PreemptionEvent>();
        QCOMPARE(event.culprit.pid, job.pid());
        QVERIFY(event.openToStopMs.has_value());
        QVERIFY2(*event.openToStopMs >= double(unreadMs),
                 qPrintable(QStringLiteral("reported %1 ms from the open to the stop; the open waited %2 ms unread")
                                .arg(*event.openToStopMs)
                                .arg(unreadMs)));
        const qint64 atMostMs = sinceStalled.elapsed() + Monitor::kHeartbeatMs + Monitor::kHeartbeatLateMs;
        QVERIFY2(*event.openToStopMs <= double(atMostMs),
                 qPrintable(QStringLiteral("reported %1 ms, more than the %2 ms it can have been")
                                .arg(*event.openToStopMs)
                                .arg(atMostMs)));
    }

    // Item 14 (b). The wall clock set two days ahead, then back: the time counted meanwhile (by the monotonic clock)
    // stays counted, but no day and no stretch of the timeline may lie in the future, where it would be counted for a
    // day not yet come and hold the timeline still until then.
    void wallClockSetBackLeavesNothingInTheFuture()
    {
        constexpr qint64 kHour = 3'600'000;
        FakeClock clock;
        const QDateTime start(QDate(2026, 1, 5), QTime(12, 0));
        clock.setLocalNow(start);
        WorkLedger ledger(&clock);
        ledger.setActivity({{0, GpuActivity::Workload}}, {{0, {QStringLiteral("w")}}});
        clock.advance(kHour);
        ledger.advance();
        clock.setLocalNow(start.addDays(2).addSecs(3600)); // set forward
        clock.advance(kHour);
        ledger.advance();
        clock.setLocalNow(start.addSecs(2 * 3600)); // and back to the true time
        clock.advance(kHour);
        ledger.advance();
        ledger.setActivity({{0, GpuActivity::Workload}}, {{0, {QStringLiteral("w")}}});

        const QDateTime now = clock.localNow();
        QCOMPARE(now, start.addSecs(3 * 3600));
        const QJsonObject json = QJsonDocument::fromJson(ledger.toJson()).object();
        const QStringList days = json.value(QStringLiteral("days")).toObject().keys();
        for (const QString &day : days)
            QVERIFY2(QDate::fromString(day, Qt::ISODate) <= now.date(), qPrintable(QStringLiteral("a day in the future: ") + day));
        const LedgerSummary summary = ledger.summary();
        QCOMPARE(summary.all.total.workloadMs, 3 * kHour);
        QCOMPARE(summary.all.today.workloadMs, 3 * kHour); // the hour counted ahead is today's
        const QList<ActivitySegment> timeline = summary.lastDay.value(0);
        QVERIFY(!timeline.isEmpty());
        for (const ActivitySegment &segment : timeline)
            QVERIFY2(segment.toWallMs <= now.toMSecsSinceEpoch(), "a timeline segment in the future");
        QCOMPARE(timeline.last().toWallMs, now.toMSecsSinceEpoch()); // drawn up to now again
        QCOMPARE(timeline.last().activity, GpuActivity::Workload);

        PreemptionRecord record;
        record.gpu = 0;
        record.wallMs = now.addDays(3).toMSecsSinceEpoch(); // a time from the clock ahead
        ledger.addPreemption(record);
        QVERIFY(ledger.summary().recentPreemptions.first().wallMs <= now.toMSecsSinceEpoch());
    }

    // Item 14 (c). A storm of device nodes removed and made anew under a gpus = ALL workload. Once it ends with every
    // GPU present and free, the workload runs again, the monitor's GPUs are those in the folder (as --status has them),
    // and every node is watched again: a node that vanished between the device scan and its watch used to stay
    // unwatched, and a job that opened it was noticed by the poll only (here a minute later).
    void nodeStormLeavesEveryGpuWatched()
    {
        const QString path = writeConfig(defaults(1) + sleeperSection(QStringLiteral("all"), QStringLiteral("ALL"))
                                         + QStringLiteral("[gpu-all]\ngpus=ALL\nbusy_when=opened\n\n"));
        makeMonitor(path);
        QSignalSpy preempted(m_monitor.get(), &Monitor::preempted);
        QVERIFY(m_monitor->start());
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-all")), WorkloadRuntime::Running, 5000);
        const auto watcher = m_monitor->findChild<NodeWatcher *>();
        QVERIFY(watcher);

        for (int round = 0; round < 400; ++round) {
            m_dev->removeGpu(round % 2);
            m_dev->addGpu(2);
            m_dev->removeGpu(2);
            m_dev->addGpu(round % 2);
            if (round % 25 == 0)
                QTest::qWait(1); // the monitor answers some of it as it comes
        }
        // The storm's worst moment, held still: nvidia1 is listed while it names nothing (a link to a node not made
        // yet), so its watch fails; then the node appears, and nothing about the GPU list changes.
        const QString target = m_dev->path() + QStringLiteral("/.node1");
        clearLog();
        QVERIFY(QFile::remove(m_dev->node(1)));
        QVERIFY(QFile::link(target, m_dev->node(1)));
        QTRY_VERIFY_WITH_TIMEOUT(logged(QStringLiteral("cannot watch ") + m_dev->node(1)), 5000);
        QTest::qWait(300);
        writeFile(target, QByteArray());
        QVERIFY(QFile::setPermissions(target, QFile::ReadOwner | QFile::WriteOwner | QFile::ReadOther | QFile::WriteOther));
        // Following the link the first time sets its access time, which the folder's watch reports; later opens
        // through it (relatime) change nothing in the folder, so only the node's own watch can tell of them.
        QVERIFY(QFileInfo::exists(m_dev->node(1)));
        QTest::qWait(300);

        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-all")), WorkloadRuntime::Running, 10000);
        const DeviceNodes inFolder = scanDevices(m_dev->path());
        QCOMPARE(inFolder.indices(), (QList<int>{0, 1}));
        QTRY_COMPARE_WITH_TIMEOUT(m_monitor->state().snapshot.devices.indices(), inFolder.indices(), 5000);

        // A job opens GPU 1 alone: the open's event must stop the workload, not the poll a minute later.
        preempted.clear();
        NodeHolder job({m_dev->node(1)});
        QVERIFY(job.waitUntilOpen());
        QTRY_VERIFY_WITH_TIMEOUT(preempted.count() >= 1, 3000);
        QCOMPARE(preempted.first().first().value<PreemptionEvent>().gpu, 1);
        QVERIFY(watcher->watchesAll());
        job.kill();
        QTRY_COMPARE_WITH_TIMEOUT(stateOf(QStringLiteral("process-all")), WorkloadRuntime::Running, 10000);
    }
};

QTEST_GUILESS_MAIN(TestSecMonitor)
#include "tst_sec_monitor.moc"
