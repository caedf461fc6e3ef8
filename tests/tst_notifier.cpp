// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// Notifier: the messages, coalescing per kind within 10 s (fake clock, no sleeping), the per-kind switches, bodies that
// fit a banner and the answer to a click on the icon.
#include "recordingsink.h"
#include "tray/notifier.h"

#include <QtTest>

namespace {

WorkloadRuntime failure(int consecutiveFailures, const QString &id = QStringLiteral("process-miner"))
{
    WorkloadRuntime runtime;
    runtime.id = id;
    runtime.state = WorkloadRuntime::BackingOff;
    runtime.consecutiveFailures = consecutiveFailures;
    runtime.lastExit = QStringLiteral("exit code 3");
    return runtime;
}

QList<ConfigDiagnostic> rejected()
{
    return {{ConfigDiagnostic::Warning, QStringLiteral("/c.conf"), 1, QStringLiteral("unknown key")},
            {ConfigDiagnostic::Error, QStringLiteral("/c.conf"), 9, QStringLiteral("[process-x] has no cmd")}};
}

} // namespace

class TestNotifier : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void messagesSayWhatHappened();
    void preemptionsAreCoalescedWithinTheWindow();
    void aQuietWindowCloses();
    void aWindowThatEndedDoesNotSwallowTheNextMessage();
    void kindsHaveSeparateWindows();
    void failureNoticedOncePerStreak();
    void kindsCanBeSwitchedOff_data();
    void kindsCanBeSwitchedOff();
    void switchingOffDropsTheSummary();
    void failureSaysItsLastOutput();
    void bodiesFitABanner_data();
    void bodiesFitABanner();
    void pauseClickAnsweredAtOnce();
};

void TestNotifier::messagesSayWhatHappened()
{
    RecordingSink sink;
    FakeClock clock;
    Notifier notifier(&sink, &clock);
    notifier.notifyPreemption(preemption());
    notifier.notifyWorkloadFailed(QStringLiteral("miner"), failure(3));
    notifier.notifyConfigRejected(rejected());

    QCOMPARE(sink.messages.size(), 3);
    QCOMPARE(sink.messages.at(0).title, QStringLiteral("Workload stopped"));
    // Who took which GPU, and what stopped, first: GNOME's banner cut the old text at "python3 (root, pid 16…".
    QCOMPARE(sink.messages.at(0).body, QStringLiteral("python3 (alice) took GPU 0: stopped miner"));
    QCOMPARE(sink.messages.at(1).body, QStringLiteral("miner failed 3 times in a row (exit code 3)\n"
                                                      "idlegpu keeps retrying it, less and less often."));
    QCOMPARE(sink.messages.at(1).icon, QSystemTrayIcon::Warning);
    // The first error, not the warning before it; its line, not the file's path.
    QCOMPARE(sink.messages.at(2).body, QStringLiteral("Line 9: [process-x] has no cmd\n"
                                                      "The previous configuration stays in force."));
    QCOMPARE(sink.messages.at(2).icon, QSystemTrayIcon::Critical);
    QCOMPARE(sink.messages.at(0).kind, NotificationKind::Preemption);
    QCOMPARE(sink.messages.at(1).kind, NotificationKind::Failure);
    QCOMPARE(sink.messages.at(2).kind, NotificationKind::ConfigError);
}

void TestNotifier::preemptionsAreCoalescedWithinTheWindow()
{
    RecordingSink sink;
    FakeClock clock;
    Notifier notifier(&sink, &clock);

    notifier.notifyPreemption(preemption(0));
    for (int gpu = 1; gpu <= 3; ++gpu) {
        clock.advance(2'000);
        notifier.notifyPreemption(preemption(gpu));
    }
    QCOMPARE(sink.messages.size(), 1); // the rest wait for the window's end

    clock.advance(3'999); // 9.999 s after the first
    notifier.flushDue();
    QCOMPARE(sink.messages.size(), 1);

    clock.advance(1);
    notifier.flushDue();
    QCOMPARE(sink.bodies().last(), QStringLiteral("3 more preemptions"));

    // The summary opened a new window: one more in it becomes "1 more preemption" 10 s later.
    clock.advance(5'000);
    notifier.notifyPreemption(preemption(1));
    QCOMPARE(sink.messages.size(), 2);
    clock.advance(5'000);
    notifier.flushDue();
    QCOMPARE(sink.bodies(), QStringList({QStringLiteral("python3 (alice) took GPU 0: stopped miner"),
                                         QStringLiteral("3 more preemptions"), QStringLiteral("1 more preemption")}));
}

void TestNotifier::aQuietWindowCloses()
{
    RecordingSink sink;
    FakeClock clock;
    Notifier notifier(&sink, &clock);
    notifier.notifyPreemption(preemption(0));
    clock.advance(Notifier::kWindowMs);
    notifier.flushDue();
    QCOMPARE(sink.messages.size(), 1); // nothing held, no summary

    clock.advance(1);
    notifier.notifyPreemption(preemption(1));
    QCOMPARE(sink.messages.size(), 2);
    QVERIFY(sink.messages.last().body.contains(QStringLiteral("GPU 1")));
}

void TestNotifier::aWindowThatEndedDoesNotSwallowTheNextMessage()
{
    RecordingSink sink;
    FakeClock clock;
    Notifier notifier(&sink, &clock);
    notifier.notifyPreemption(preemption(0));
    clock.advance(Notifier::kWindowMs + 5'000); // the flush timer has not run (no event loop here)
    notifier.notifyPreemption(preemption(2));
    QCOMPARE(sink.messages.size(), 2);
    QVERIFY(sink.messages.last().body.contains(QStringLiteral("GPU 2")));
}

void TestNotifier::kindsHaveSeparateWindows()
{
    RecordingSink sink;
    FakeClock clock;
    Notifier notifier(&sink, &clock);
    notifier.notifyPreemption(preemption());
    notifier.notifyConfigRejected(rejected());
    notifier.notifyWorkloadFailed(QStringLiteral("miner"), failure(3));
    notifier.notifyConfigRejected(rejected());
    notifier.notifyConfigRejected(rejected());
    QCOMPARE(sink.messages.size(), 3);

    clock.advance(Notifier::kWindowMs);
    notifier.flushDue();
    QCOMPARE(sink.messages.size(), 4);
    QCOMPARE(sink.bodies().last(), QStringLiteral("2 more configuration errors"));
    QCOMPARE(sink.messages.last().kind, NotificationKind::ConfigError); // a summary replaces its own kind's message
}

void TestNotifier::failureNoticedOncePerStreak()
{
    RecordingSink sink;
    FakeClock clock;
    Notifier notifier(&sink, &clock);
    notifier.notifyWorkloadFailed(QStringLiteral("miner"), failure(1));
    notifier.notifyWorkloadFailed(QStringLiteral("miner"), failure(2));
    QCOMPARE(sink.messages.size(), 0);
    notifier.notifyWorkloadFailed(QStringLiteral("miner"), failure(3));
    QCOMPARE(sink.messages.size(), 1);

    clock.advance(60'000);
    notifier.flushDue();
    notifier.notifyWorkloadFailed(QStringLiteral("miner"), failure(4));
    notifier.notifyWorkloadFailed(QStringLiteral("miner"), failure(5));
    QCOMPARE(sink.messages.size(), 1); // the same streak

    // It ran cleanly (the count started over) and failed three times again.
    notifier.notifyWorkloadFailed(QStringLiteral("miner"), failure(1));
    notifier.notifyWorkloadFailed(QStringLiteral("miner"), failure(2));
    notifier.notifyWorkloadFailed(QStringLiteral("miner"), failure(3));
    QCOMPARE(sink.messages.size(), 2);

    // Another workload failing within the window is held for the summary.
    notifier.notifyWorkloadFailed(QStringLiteral("boinc"), failure(3, QStringLiteral("process-boinc")));
    clock.advance(Notifier::kWindowMs);
    notifier.flushDue();
    QCOMPARE(sink.bodies().last(), QStringLiteral("1 more workload failing"));
}

void TestNotifier::kindsCanBeSwitchedOff_data()
{
    QTest::addColumn<bool>("preemption");
    QTest::addColumn<bool>("failure");
    QTest::addColumn<bool>("configError");
    QTest::newRow("all on") << true << true << true;
    QTest::newRow("preemption off") << false << true << true;
    QTest::newRow("failure off") << true << false << true;
    QTest::newRow("config error off") << true << true << false;
    QTest::newRow("all off") << false << false << false;
}

void TestNotifier::kindsCanBeSwitchedOff()
{
    QFETCH(bool, preemption);
    QFETCH(bool, failure);
    QFETCH(bool, configError);
    RecordingSink sink;
    FakeClock clock;
    Notifier notifier(&sink, &clock);
    notifier.setSettings({preemption, failure, configError});

    notifier.notifyPreemption(::preemption());
    notifier.notifyWorkloadFailed(QStringLiteral("miner"), ::failure(3));
    notifier.notifyConfigRejected(rejected());

    QStringList titles;
    for (const RecordedMessage &m : std::as_const(sink.messages))
        titles.append(m.title);
    QCOMPARE(titles.contains(QStringLiteral("Workload stopped")), preemption);
    QCOMPARE(titles.contains(QStringLiteral("Workload failing")), failure);
    QCOMPARE(titles.contains(QStringLiteral("Configuration not applied")), configError);
    QCOMPARE(sink.messages.size(), int(preemption) + int(failure) + int(configError));
}

void TestNotifier::switchingOffDropsTheSummary()
{
    RecordingSink sink;
    FakeClock clock;
    Notifier notifier(&sink, &clock);
    notifier.notifyPreemption(preemption(0));
    notifier.notifyPreemption(preemption(1));
    notifier.setSettings({false, true, true});
    clock.advance(Notifier::kWindowMs);
    notifier.flushDue();
    QCOMPARE(sink.messages.size(), 1);
}

// The workload's own last words say why ("cannot connect to pool"), where the exit code does not.
void TestNotifier::failureSaysItsLastOutput()
{
    RecordingSink sink;
    FakeClock clock;
    Notifier notifier(&sink, &clock);
    WorkloadRuntime runtime = failure(3);
    runtime.lastOutput = {QStringLiteral("connecting to stratum+tcp://pool:3333"),
                          QStringLiteral("  cannot connect to pool  "), QStringLiteral(" ")};
    notifier.notifyWorkloadFailed(QStringLiteral("miner"), runtime);
    QCOMPARE(sink.messages.size(), 1);
    QCOMPARE(sink.messages.at(0).title, QStringLiteral("Workload failing"));
    QCOMPARE(sink.messages.at(0).body,
             QStringLiteral("miner failed 3 times in a row (exit code 3)\n“cannot connect to pool”"));
}

void TestNotifier::bodiesFitABanner_data()
{
    QTest::addColumn<int>("what");
    QTest::addColumn<QString>("start"); // the essential, which must survive the cut
    QTest::newRow("preemption") << 0 << QStringLiteral("python3 (a-very-long-user-name-from-ldap) took GPU 3: stopped");
    QTest::newRow("failure") << 1 << QStringLiteral("miner failed 7 times in a row (exit code 3)\n“");
    QTest::newRow("config error") << 2 << QStringLiteral("Line 12: cmd");
}

// GNOME Shell shows about two lines of ~50 characters: a long holder, workload or output is cut at the end, with "…".
void TestNotifier::bodiesFitABanner()
{
    QFETCH(int, what);
    QFETCH(QString, start);
    RecordingSink sink;
    FakeClock clock;
    Notifier notifier(&sink, &clock);
    const QString longName = QStringLiteral("folding-at-home-on-all-of-the-gpus-of-this-machine-and-the-next");
    if (what == 0) {
        PreemptionEvent event = preemption(3);
        event.culprit.user = QStringLiteral("a-very-long-user-name-from-ldap");
        event.workloadName = longName;
        notifier.notifyPreemption(event);
    } else if (what == 1) {
        WorkloadRuntime runtime = failure(7);
        runtime.lastOutput = {QStringLiteral("error: ") + QString(200, QLatin1Char('x')) + QStringLiteral(" end")};
        notifier.notifyWorkloadFailed(QStringLiteral("miner"), runtime);
    } else {
        notifier.notifyConfigRejected({{ConfigDiagnostic::Error, QStringLiteral("/home/alice/.config/idlegpu.conf"), 12,
                                        QStringLiteral("cmd = ") + longName + longName}});
    }
    QCOMPARE(sink.messages.size(), 1);
    const QString body = sink.messages.at(0).body;
    QVERIFY2(body.size() <= Notifier::kBodyMaxChars, qPrintable(body));
    QVERIFY2(body.count(QLatin1Char('\n')) < Notifier::kBodyMaxLines, qPrintable(body));
    QVERIFY2(body.startsWith(start), qPrintable(body));
    QVERIFY2(body.contains(QChar(0x2026)), qPrintable(body)); // says that it was cut
    if (what == 2)                                            // the line that says nothing changed stays whole
        QVERIFY(body.endsWith(QStringLiteral("\nThe previous configuration stays in force.")));
}

// A click and the click that undoes it both say so, at once: never held for a summary.
void TestNotifier::pauseClickAnsweredAtOnce()
{
    RecordingSink sink;
    FakeClock clock;
    Notifier notifier(&sink, &clock);
    NotifySettings none;
    none.preemption = none.failure = none.configError = false;
    notifier.setSettings(none); // an answer to the user is not a notice they switched off
    notifier.notifyPauseClicked(true);
    notifier.notifyPauseClicked(false);
    QCOMPARE(sink.messages.size(), 2);
    QCOMPARE(sink.messages.at(0).kind, NotificationKind::Pause);
    QCOMPARE(sink.messages.at(0).title, QStringLiteral("Paused all workloads"));
    QCOMPARE(sink.messages.at(0).body, QStringLiteral("Click the icon again to resume."));
    QCOMPARE(sink.messages.at(1).title, QStringLiteral("Resumed all workloads"));
    QCOMPARE(sink.messages.at(1).body, QStringLiteral("They start again on idle GPUs. Click the icon to pause."));
    clock.advance(Notifier::kWindowMs);
    notifier.flushDue();
    QCOMPARE(sink.messages.size(), 2); // no summary
}

QTEST_MAIN(TestNotifier)
#include "tst_notifier.moc"
