// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// LaunchPlan::make, without starting anything: what the reaper is told, where it starts, and why a workload
// cannot start. Who idlegpu runs as is injected, so the user switch is checked whoever runs the tests.
#include "run/launchplan.h"

#include <QCoreApplication>
#include <QTemporaryDir>
#include <QtTest>

namespace {

// Any executable file serves as the reaper: the plan only checks that it can be run.
const QString kReaper = QStringLiteral("/bin/sh");

UserLookup rootWithAlice(const QString &aliceHome)
{
    UserLookup users;
    users.effectiveUid = 0;
    users.find = [aliceHome](const QString &nameOrUid) -> std::optional<UserAccount> {
        if (nameOrUid == QLatin1String("alice") || nameOrUid == QLatin1String("1000"))
            return UserAccount{QStringLiteral("alice"), 1000, 1000, aliceHome, QStringLiteral("/bin/bash")};
        if (nameOrUid == QLatin1String("root") || nameOrUid == QLatin1String("0"))
            return UserAccount{QStringLiteral("root"), 0, 0, QStringLiteral("/root"), QStringLiteral("/bin/sh")};
        return std::nullopt;
    };
    return users;
}

WorkloadConfig workload(const QStringList &argv, const QString &dir, const QString &user = QString())
{
    WorkloadConfig config;
    config.id = QStringLiteral("process-w");
    config.name = QStringLiteral("w");
    config.cmd = argv.join(QLatin1Char(' '));
    config.argv = argv;
    config.dir = dir;
    config.user = user;
    config.stopTimeoutSeconds = 7;
    return config;
}

} // namespace

class TestLaunchPlan : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    // Another user's workload: the reaper starts in "/", switches to the user and only then enters the folder.
    void anotherUserEntersTheFolderAfterTheSwitch()
    {
        QTemporaryDir dir;
        const LaunchPlan plan = LaunchPlan::make(workload({"sh", "-c", "pwd"}, dir.path(), "alice"), {1}, false,
                                                 {kReaper, {}, {}, rootWithAlice(QStringLiteral("/home/alice"))});
        QVERIFY2(plan.ready(), qPrintable(plan.error()));
        QCOMPARE(plan.program, kReaper);
        QCOMPARE(plan.arguments,
                 (QStringList{"--parent", QString::number(QCoreApplication::applicationPid()), "--grace-ms", "7000",
                              "--priority", "idle", "--user", "alice", "--dir", dir.path(), "--",
                              QStandardPaths::findExecutable(QStringLiteral("sh")), "-c", "pwd"}));
        QCOMPARE(plan.reaperFolder, QStringLiteral("/"));
        QCOMPARE(plan.workingFolder, dir.path());
        QVERIFY(plan.switchTo);
        QCOMPARE(plan.switchTo->name, QStringLiteral("alice"));
        QCOMPARE(plan.environment.value(QStringLiteral("HOME")), QStringLiteral("/home/alice"));
        QCOMPARE(plan.environment.value(QStringLiteral("CUDA_VISIBLE_DEVICES")), QStringLiteral("1"));
    }

    // The user idlegpu runs as: no switch, the reaper starts in the folder (the home folder when none is given).
    void ownUserStartsInTheFolder()
    {
        QTemporaryDir dir;
        UserLookup me = rootWithAlice(dir.path());
        me.effectiveUid = 1000;
        const LaunchPlan plan = LaunchPlan::make(workload({"true"}, QString(), "alice"), {}, true,
                                                 {kReaper, {}, {}, me});
        QVERIFY2(plan.ready(), qPrintable(plan.error()));
        QVERIFY(!plan.switchTo);
        QVERIFY(!plan.arguments.contains(QStringLiteral("--user")));
        QVERIFY(!plan.arguments.contains(QStringLiteral("--dir")));
        QCOMPARE(plan.reaperFolder, dir.path());
        QVERIFY(!plan.environment.contains(QStringLiteral("CUDA_VISIBLE_DEVICES"))); // gpus=ALL
    }

    // [process-*] priority reaches the reaper, which sets it in the workload (tst_reaper reads it back).
    void priorityIsPassedToTheReaper_data()
    {
        QTest::addColumn<int>("priority");
        QTest::addColumn<QString>("argument");
        QTest::newRow("idle") << int(WorkloadPriority::Idle) << "idle";
        QTest::newRow("low") << int(WorkloadPriority::Low) << "low";
        QTest::newRow("normal") << int(WorkloadPriority::Normal) << "normal";
    }

    void priorityIsPassedToTheReaper()
    {
        QFETCH(int, priority);
        QFETCH(QString, argument);
        QTemporaryDir dir;
        WorkloadConfig config = workload({"true"}, dir.path(), QStringLiteral("alice"));
        config.priority = WorkloadPriority(priority);
        const LaunchPlan plan = LaunchPlan::make(config, {0}, false, {kReaper, {}, {}, rootWithAlice(dir.path())});
        QVERIFY2(plan.ready(), qPrintable(plan.error()));
        const qsizetype at = plan.arguments.indexOf(QStringLiteral("--priority"));
        QVERIFY(at >= 0);
        QVERIFY(at < plan.arguments.indexOf(QStringLiteral("--"))); // the reaper's option, not the workload's
        QCOMPARE(plan.arguments.value(at + 1), argument);
    }

    void cannotStart_data()
    {
        QTest::addColumn<QStringList>("argv");
        QTest::addColumn<QString>("dir");
        QTest::addColumn<QString>("user");
        QTest::addColumn<QString>("refusal");
        QTest::addColumn<QString>("reaper");
        QTest::addColumn<int>("problem");
        QTest::addColumn<QString>("error");
        QTest::newRow("no command") << QStringList{} << "TMP" << "alice" << "" << kReaper << int(LaunchPlan::NoCommand)
                                    << "no command given (cmd= is empty)";
        QTest::newRow("refused") << QStringList{"true"} << "TMP" << "alice" << "no user" << kReaper
                                 << int(LaunchPlan::Refused) << "refused: no user";
        QTest::newRow("unknown user") << QStringList{"true"} << "TMP" << "mallory" << "" << kReaper
                                      << int(LaunchPlan::UserRejected) << "user: there is no user named 'mallory'";
        QTest::newRow("no folder") << QStringList{"true"} << "TMP/missing" << "alice" << "" << kReaper
                                   << int(LaunchPlan::NoFolder) << "working folder does not exist: TMP/missing";
        QTest::newRow("not found") << QStringList{"idlegpu-no-such-command"} << "TMP" << "alice" << "" << kReaper
                                   << int(LaunchPlan::NotFound) << "command not found: idlegpu-no-such-command";
        QTest::newRow("not executable") << QStringList{"./plain-file"} << "TMP" << "alice" << "" << kReaper
                                        << int(LaunchPlan::NotExecutable) << "command not found: ./plain-file";
        QTest::newRow("no reaper") << QStringList{"true"} << "TMP" << "alice" << "" << "TMP/no-reaper"
                                   << int(LaunchPlan::NoReaper) << "idlegpu-reaper not found at TMP/no-reaper";
    }

    void cannotStart()
    {
        QFETCH(QStringList, argv);
        QFETCH(QString, dir);
        QFETCH(QString, user);
        QFETCH(QString, refusal);
        QFETCH(QString, reaper);
        QFETCH(int, problem);
        QFETCH(QString, error);
        QTemporaryDir tmp;
        for (QString *text : {&dir, &reaper, &error})
            text->replace(QStringLiteral("TMP"), tmp.path());
        QFile plain(tmp.filePath(QStringLiteral("plain-file")));
        QVERIFY(plain.open(QIODevice::WriteOnly));
        plain.close();

        WorkloadConfig config = workload(argv, dir, user);
        config.refusal = refusal;
        const LaunchPlan plan = LaunchPlan::make(config, {0}, false, {reaper, {}, {}, rootWithAlice(tmp.path())});
        QCOMPARE(int(plan.problem), problem);
        QVERIFY(!plan.ready());
        QVERIFY2(plan.error().startsWith(error), qPrintable(plan.error()));
        QVERIFY(plan.arguments.isEmpty());
    }
};

QTEST_GUILESS_MAIN(TestLaunchPlan)
#include "tst_launchplan.moc"
