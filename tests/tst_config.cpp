// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// ConfigLoader: gpu_mon's files into the typed Config, every problem as FILE:LINE, and which file to use.
#include "config/config.h"
#include "config/workloadchecks.h"
#include "scopedenv.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRandomGenerator>
#include <QRegularExpression>
#include <QTemporaryDir>
#include <QTest>

#include <algorithm>

#include <pwd.h>
#include <sys/stat.h>
#include <unistd.h>

using TestSupport::ScopedEnv;

namespace {

const QString testFile = QStringLiteral("test.conf");

QStringList describe(const ConfigLoadResult &result)
{
    QStringList lines;
    for (const ConfigDiagnostic &diagnostic : result.diagnostics)
        lines.append(diagnostic.toString());
    return lines;
}

// What a root idlegpu says of a workload that names no user, on the line of its section (gpu_mon's example files).
QString runsAsRootWarning(const QString &file, int line, const QString &section)
{
    return QStringLiteral("%1:%2: warning: [%3] runs as root, as gpu_mon ran it: add `user = NAME` to run it as "
                          "that user")
        .arg(file)
        .arg(line)
        .arg(section);
}

// A config file refused for who may change it, `reason` naming the file or folder at fault.
QString refusedMessage(const QString &path, const QString &reason)
{
    return path + QStringLiteral(": error: refused: %1 (only root and the user idlegpu runs as may be able to change "
                                 "its config: the file and every folder above it)")
                      .arg(reason);
}

bool writeFile(const QString &path, const QByteArray &contents)
{
    QFile file(path);
    return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(contents) == contents.size();
}

// Accounts of a made-up machine: root, alice (1000) and bob (1001); idlegpu runs as `effectiveUid`.
UserLookup fakeUsers(uint effectiveUid)
{
    UserLookup lookup;
    lookup.effectiveUid = effectiveUid;
    lookup.find = [](const QString &nameOrUid) -> std::optional<UserAccount> {
        const QList<UserAccount> accounts{
            {QStringLiteral("root"), 0, 0, QStringLiteral("/root"), QStringLiteral("/bin/bash")},
            {QStringLiteral("alice"), 1000, 1000, QStringLiteral("/home/alice"), QStringLiteral("/bin/bash")},
            {QStringLiteral("bob"), 1001, 1001, QStringLiteral("/home/bob"), QStringLiteral("/bin/sh")}};
        for (const UserAccount &account : accounts)
            if (account.name == nameOrUid || QString::number(account.uid) == nameOrUid)
                return account;
        return std::nullopt;
    };
    return lookup;
}

// idlegpu run by a plain user (alice), for the tests of what is not about user=: their workloads name none, which
// a root idlegpu (CI runs as root) would warn about (see workloadUser and gpuMonExamplesAsRoot for that).
UserLookup notRoot()
{
    return fakeUsers(1000);
}

} // namespace

class TestConfig : public QObject
{
    Q_OBJECT

private slots:
    void loadsGpuMonExampleAll();
    void loadsGpuMonExamplePerGpu();
    void gpuMonExamplesAsRoot_data();
    void gpuMonExamplesAsRoot();
    void loadsIdlegpuKeys();
    void readsValuesVerbatim();
    void acceptsGpuMonSectionPrefixes();
    void acceptsWhatConfigparserAccepts_data();
    void acceptsWhatConfigparserAccepts();
    void reportsProblems_data();
    void reportsProblems();
    void reportsUnreadableFiles();
    void reportsFileWithoutReadPermission();
    void refusesFileOthersCanWrite_data();
    void refusesFileOthersCanWrite();
    void refusesFileOfAnotherUser();
    void expandsHomeInDirAndLog();
    void workloadUser_data();
    void workloadUser();
    void expandsHomeOfWorkloadUser();
    void disabledWorkloadUserCheckedOnceEnabled();
    void builtinIgnoreList_data();
    void builtinIgnoreList();
    void busyRule_data();
    void busyRule();
    void readsDesktopKeys();
    void metricsTextfileOutsideWatchedFolders();
    void readsControlCommands();
    void readsVendors_data();
    void readsVendors();
    void readsNotify_data();
    void readsNotify();
    void doesNotBlockOnFifo();
    void seesRewriteWithinSameTick();
    void readsWithoutTemporaryFile();
    void survivesGarbage();
    void capsDiagnostics();
    void diagnosticsInFileOrder();
    void suggestsNearestKey_data();
    void suggestsNearestKey();
    void sortsProblemsByFileThenLine();
    void workloadChecks_data();
    void workloadChecks();
    void workloadChecksPermissionsOfItsUser();
    void locatesOverride();
    void locatesNewFileFirst();
    void locatesLegacyFile();
    void locatesWithoutXdgConfigHome();

private:
    QTemporaryDir m_dir;
};

void TestConfig::loadsGpuMonExampleAll()
{
    const QString path = QStringLiteral(IDLEGPU_TEST_DATA "/gpu_mon_example_all.conf");
    const ConfigLoadResult result = ConfigLoader::load(path);
    // As root (CI) the workload runs as root, as gpu_mon ran it, and the loader says so (see gpuMonExamplesAsRoot).
    QCOMPARE(describe(result), ::geteuid() == 0 ? QStringList{runsAsRootWarning(path, 13, "process-all")}
                                                : QStringList{});
    QVERIFY(result.ok());
    QVERIFY(result.refusedWorkloads().isEmpty());
    const Config &config = result.config;
    QCOMPARE(config.filePath, path);
    QCOMPARE(config.intervalSeconds, 10);
    QCOMPARE(config.startDelaySeconds, 10);
    QCOMPARE(config.deviceRoot, QStringLiteral("/dev"));

    QCOMPARE(config.gpuGroups.size(), 1);
    const GpuGroupConfig &group = config.gpuGroups.first();
    QCOMPARE(group.id, QStringLiteral("gpu-all"));
    QCOMPARE(group.gpus, GpuSelection::allGpus());
    QCOMPARE(group.ignorePrograms, QStringList{"nvidia-smi"});
    QCOMPARE(group.line, 6);
    QCOMPARE(config.ignoredProgramsFor(3), QStringList{"nvidia-smi"});

    QCOMPARE(config.workloads.size(), 1);
    const WorkloadConfig &workload = config.workloads.first();
    QCOMPARE(workload.id, QStringLiteral("process-all"));
    QCOMPARE(workload.name, QStringLiteral("all"));
    QCOMPARE(workload.cmd, QStringLiteral("miner-run"));
    QCOMPARE(workload.argv, QStringList{"miner-run"});
    QCOMPARE(workload.dir, QStringLiteral("/tmp"));
    QCOMPARE(workload.gpus, GpuSelection::allGpus());
    QCOMPARE(workload.log, QStringLiteral("/dev/null"));
    QCOMPARE(workload.envText, QString());
    QVERIFY(workload.env.isEmpty());
    QCOMPARE(workload.stopTimeoutSeconds, 10);
    QVERIFY(workload.enabled);
    QCOMPARE(workload.line, 13);

    QVERIFY(config.tty.enabled);
    QCOMPARE(config.tty.whitelist, (QStringList{"user1", "user2"}));
    QCOMPARE(config.tty.idleSeconds, 300);
}

void TestConfig::loadsGpuMonExamplePerGpu()
{
    const QString path = QStringLiteral(IDLEGPU_TEST_DATA "/gpu_mon_example_per_gpu.conf");
    const ConfigLoadResult result = ConfigLoader::load(path);
    const QStringList asRoot{runsAsRootWarning(path, 13, "process-0"), runsAsRootWarning(path, 22, "process-1")};
    QCOMPARE(describe(result), ::geteuid() == 0 ? asRoot : QStringList{});
    QVERIFY(result.ok());
    QVERIFY(result.refusedWorkloads().isEmpty());
    const Config &config = result.config;
    QCOMPARE(config.workloads.size(), 2);
    const WorkloadConfig &first = config.workloads.at(0);
    const WorkloadConfig &second = config.workloads.at(1);
    QCOMPARE(first.id, QStringLiteral("process-0"));
    QCOMPARE(first.name, QStringLiteral("0"));
    QCOMPARE(first.gpus, GpuSelection::of({0}));
    QCOMPARE(first.line, 13);
    QCOMPARE(second.id, QStringLiteral("process-1"));
    QCOMPARE(second.name, QStringLiteral("1"));
    QCOMPARE(second.cmd, QStringLiteral("miner-run")); // the two trailing spaces are gone, as in configparser
    QCOMPARE(second.argv, QStringList{"miner-run"});
    QCOMPARE(second.gpus, GpuSelection::of({1}));
    QCOMPARE(second.log, QStringLiteral("/dev/null"));
    QCOMPARE(second.line, 22);
    QVERIFY(config.tty.enabled);
    QCOMPARE(config.tty.idleSeconds, 300);
}

// gpu_mon ran as root under supervisord (fuser needs root to see other users' jobs): its files, which name no
// user, must load unchanged for a root idlegpu, their workloads run as root with a warning that says how to drop
// root, tagged so that the tray's tooltip can say it too. Whoever runs the test: who idlegpu runs as is injected.
void TestConfig::gpuMonExamplesAsRoot_data()
{
    QTest::addColumn<QString>("file");
    QTest::addColumn<QStringList>("sections");
    QTest::addColumn<QList<int>>("lines");
    QTest::newRow("all") << "gpu_mon_example_all.conf" << QStringList{"process-all"} << QList<int>{13};
    QTest::newRow("per gpu") << "gpu_mon_example_per_gpu.conf" << QStringList{"process-0", "process-1"}
                             << QList<int>{13, 22};
}

void TestConfig::gpuMonExamplesAsRoot()
{
    QFETCH(QString, file);
    QFETCH(QStringList, sections);
    QFETCH(QList<int>, lines);
    QFile example(QStringLiteral(IDLEGPU_TEST_DATA "/") + file);
    QVERIFY(example.open(QIODevice::ReadOnly));
    const QByteArray contents = example.readAll();
    const ConfigLoadResult result = ConfigLoader::parse(contents, file, fakeUsers(0));
    QStringList expected;
    for (qsizetype i = 0; i < sections.size(); ++i)
        expected.append(runsAsRootWarning(file, lines.at(i), sections.at(i)));
    QCOMPARE(describe(result), expected);
    QVERIFY(result.ok());
    QVERIFY(result.refusedWorkloads().isEmpty());
    QCOMPARE(result.config.workloads.size(), sections.size());
    for (qsizetype i = 0; i < sections.size(); ++i) {
        QCOMPARE(result.diagnostics.at(i).severity, ConfigDiagnostic::Warning);
        QCOMPARE(result.diagnostics.at(i).rootWorkload, sections.at(i));
        QVERIFY(result.config.workloads.at(i).refusal.isEmpty());
        QCOMPARE(result.config.workloads.at(i).user, QString());
        QCOMPARE(result.config.workloads.at(i).dir, QStringLiteral("/tmp")); // as written
    }
    // And for a plain user nothing to say: the workloads run as that user.
    QCOMPARE(describe(ConfigLoader::parse(contents, file, fakeUsers(1000))), QStringList());
}

void TestConfig::loadsIdlegpuKeys()
{
    const ConfigLoadResult result = ConfigLoader::load(QStringLiteral(IDLEGPU_TEST_DATA "/config_full.conf"), notRoot());
    QCOMPARE(describe(result), QStringList{});
    const Config &config = result.config;
    QCOMPARE(config.intervalSeconds, 5);
    QCOMPARE(config.startDelaySeconds, 0);
    QCOMPARE(config.deviceRoot, QStringLiteral("/run/fake-dev"));

    QCOMPARE(config.gpuGroups.size(), 2);
    QCOMPARE(config.gpuGroups.at(0).gpus, GpuSelection::of({0, 2}));
    QCOMPARE(config.gpuGroups.at(0).ignorePrograms, (QStringList{"nvidia-smi", "nvtop", "Xorg"}));
    QCOMPARE(config.ignoredProgramsFor(1), QStringList{"Xorg"});
    QCOMPARE(config.ignoredProgramsFor(2), (QStringList{"nvidia-smi", "nvtop", "Xorg"}));

    QCOMPARE(config.workloads.size(), 2);
    const WorkloadConfig &miner = config.workloads.at(0);
    QCOMPARE(miner.id, QStringLiteral("process-miner"));
    QCOMPARE(miner.name, QStringLiteral("Miner (pool A)"));
    QCOMPARE(miner.dir, QStringLiteral("/opt/miner"));
    QCOMPARE(miner.cmd, QStringLiteral("miner --pool \"stratum+tcp://a:3333\" -u wallet.worker\n--intensity 20%"));
    QCOMPARE(miner.argv, (QStringList{"miner", "--pool", "stratum+tcp://a:3333", "-u", "wallet.worker", "--intensity",
                                      "20%"}));
    QCOMPARE(miner.gpus, GpuSelection::of({0, 2}));
    QCOMPARE(miner.log, QStringLiteral("/var/log/miner.log"));
    QCOMPARE(miner.env, (QList<QPair<QString, QString>>{{"CUDA_DEVICE_ORDER", "PCI_BUS_ID"},
                                                        {"GPU_FORCE_64BIT_PTR", "1"},
                                                        {"MSG", "hello world"}}));
    QCOMPARE(miner.stopTimeoutSeconds, 30);
    QVERIFY(miner.enabled);
    const WorkloadConfig &boinc = config.workloads.at(1);
    QCOMPARE(boinc.name, QStringLiteral("boinc"));
    QCOMPARE(boinc.dir, QString());
    QCOMPARE(boinc.gpus, GpuSelection::allGpus());
    QVERIFY(!boinc.enabled);
    QVERIFY(config.workload(QStringLiteral("process-boinc")) == &boinc);

    QVERIFY(config.tty.enabled);
    QCOMPARE(config.tty.whitelist, (QStringList{"alice", "bob"}));
    QCOMPARE(config.tty.idleSeconds, 0);
}

void TestConfig::readsValuesVerbatim()
{
    // What Qt's own IniFormat mangles into a list with the quotes gone.
    const ConfigLoadResult result = ConfigLoader::parse(
        "[process-x]\ncmd=miner --pool \"a:1\" -u x,y\ndir=\\\\server\\share\nlog=/tmp/100%;a.log\n", testFile, notRoot());
    QCOMPARE(describe(result), QStringList{});
    const WorkloadConfig &workload = result.config.workloads.first();
    QCOMPARE(workload.cmd, QStringLiteral("miner --pool \"a:1\" -u x,y"));
    QCOMPARE(workload.argv, (QStringList{"miner", "--pool", "a:1", "-u", "x,y"}));
    QCOMPARE(workload.dir, QStringLiteral("\\\\server\\share"));
    QCOMPARE(workload.log, QStringLiteral("/tmp/100%;a.log"));
}

void TestConfig::acceptsGpuMonSectionPrefixes()
{
    // gpu_mon matched sections with startswith('gpu') and startswith('process').
    const ConfigLoadResult result = ConfigLoader::parse(
        "[gpu0]\ngpus=0\n[GPUs]\n[process1]\ncmd=a\n[process-]\ncmd=b\n[process-x]\ncmd=c\n", testFile, notRoot());
    QCOMPARE(describe(result), QStringList{});
    QCOMPARE(result.config.gpuGroups.size(), 2);
    QCOMPARE(result.config.gpuGroups.at(0).id, QStringLiteral("gpu0"));
    QCOMPARE(result.config.gpuGroups.at(0).gpus, GpuSelection::of({0}));
    QCOMPARE(result.config.gpuGroups.at(1).id, QStringLiteral("gpus"));
    QStringList names;
    for (const WorkloadConfig &workload : result.config.workloads)
        names.append(workload.id + QLatin1Char(':') + workload.name);
    QCOMPARE(names, (QStringList{"process1:process1", "process-:process-", "process-x:x"}));
}

void TestConfig::acceptsWhatConfigparserAccepts_data()
{
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<int>("intervalSeconds");
    QTest::addColumn<bool>("ttyEnabled");

    QTest::newRow("plus sign") << QByteArray("[defaults]\ninterval_seconds=+5\n") << 5 << false;
    QTest::newRow("leading zeros") << QByteArray("[defaults]\ninterval_seconds=007\n") << 7 << false;
    QTest::newRow("largest") << QByteArray("[defaults]\ninterval_seconds=3600\n") << 3600 << false;
    QTest::newRow("section and key case") << QByteArray("[DEFAULTS]\nInterval_Seconds: 20\n[TTY]\nENABLED=TRUE\n") << 20
                                          << true;
    QTest::newRow("yes") << QByteArray("[tty]\nenabled=Yes\n") << 10 << true;
    QTest::newRow("on") << QByteArray("[tty]\nenabled=ON\n") << 10 << true;
    QTest::newRow("1") << QByteArray("[tty]\nenabled=1\n") << 10 << true;
    QTest::newRow("false") << QByteArray("[tty]\nenabled=False\n") << 10 << false;
    QTest::newRow("no") << QByteArray("[tty]\nenabled=no\n") << 10 << false;
    QTest::newRow("off") << QByteArray("[tty]\nenabled=off\n") << 10 << false;
    QTest::newRow("0") << QByteArray("[tty]\nenabled=0\n") << 10 << false;
    QTest::newRow("empty file") << QByteArray() << 10 << false;
    QTest::newRow("only comments") << QByteArray("; nothing\n# here\n") << 10 << false;
}

void TestConfig::acceptsWhatConfigparserAccepts()
{
    QFETCH(QByteArray, contents);
    QFETCH(int, intervalSeconds);
    QFETCH(bool, ttyEnabled);
    const ConfigLoadResult result = ConfigLoader::parse(contents, testFile);
    QCOMPARE(describe(result), QStringList{});
    QVERIFY(result.ok());
    QCOMPARE(result.config.intervalSeconds, intervalSeconds);
    QCOMPARE(result.config.tty.enabled, ttyEnabled);
}

void TestConfig::reportsProblems_data()
{
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<QStringList>("diagnostics");
    QTest::addColumn<bool>("ok");

    const auto notANumber = [](int line, const char *key, const char *text, int min, int max) {
        return QStringLiteral("test.conf:%1: error: %2: '%3' is not a whole number of seconds (%4 to %5)")
            .arg(line)
            .arg(QLatin1String(key), QString::fromUtf8(text))
            .arg(min)
            .arg(max);
    };
    const auto outOfRange = [](int line, const char *key, const char *text, int min, int max) {
        return QStringLiteral("test.conf:%1: error: %2: '%3' is out of range (%4 to %5 seconds)")
            .arg(line)
            .arg(QLatin1String(key), QString::fromUtf8(text))
            .arg(min)
            .arg(max);
    };

    QTest::newRow("interval: words") << QByteArray("[defaults]\ninterval_seconds=ten\n")
                                     << QStringList{notANumber(2, "interval_seconds", "ten", 1, 3600)} << false;
    QTest::newRow("interval: decimal") << QByteArray("[defaults]\ninterval_seconds=5.0\n")
                                       << QStringList{notANumber(2, "interval_seconds", "5.0", 1, 3600)} << false;
    QTest::newRow("interval: underscore") << QByteArray("[defaults]\ninterval_seconds=1_0\n")
                                          << QStringList{notANumber(2, "interval_seconds", "1_0", 1, 3600)} << false;
    QTest::newRow("interval: hex") << QByteArray("[defaults]\ninterval_seconds=0x10\n")
                                   << QStringList{notANumber(2, "interval_seconds", "0x10", 1, 3600)} << false;
    QTest::newRow("interval: empty") << QByteArray("[defaults]\ninterval_seconds=\n")
                                     << QStringList{notANumber(2, "interval_seconds", "", 1, 3600)} << false;
    QTest::newRow("interval: sign only") << QByteArray("[defaults]\ninterval_seconds=+\n")
                                         << QStringList{notANumber(2, "interval_seconds", "+", 1, 3600)} << false;
    QTest::newRow("interval: 0") << QByteArray("[defaults]\ninterval_seconds=0\n")
                                 << QStringList{outOfRange(2, "interval_seconds", "0", 1, 3600)} << false;
    QTest::newRow("interval: negative") << QByteArray("[defaults]\ninterval_seconds=-5\n")
                                        << QStringList{outOfRange(2, "interval_seconds", "-5", 1, 3600)} << false;
    QTest::newRow("interval: 3601") << QByteArray("[defaults]\ninterval_seconds=3601\n")
                                    << QStringList{outOfRange(2, "interval_seconds", "3601", 1, 3600)} << false;
    QTest::newRow("interval: huge")
        << QByteArray("[defaults]\ninterval_seconds=99999999999999999999999\n")
        << QStringList{outOfRange(2, "interval_seconds", "99999999999999999999999", 1, 3600)} << false;
    QTest::newRow("start delay: 86401")
        << QByteArray("[defaults]\nstart_delay_seconds=86401\n")
        << QStringList{outOfRange(2, "start_delay_seconds", "86401", 0, 86400)} << false;
    QTest::newRow("device_root relative")
        << QByteArray("[defaults]\ndevice_root=dev\n")
        << QStringList{"test.conf:2: error: device_root: 'dev' is not an absolute path (it must start with /)"}
        << false;
    QTest::newRow("gpus") << QByteArray("[gpu-x]\ngpus=0,one\n")
                          << QStringList{"test.conf:2: error: gpus: '0,one' is not a GPU list: write ALL or GPU "
                                         "indices separated by commas, like 0,1"}
                          << false;
    QTest::newRow("busy_when") << QByteArray("[gpu-x]\ngpus=0\nbusy_when=compute\n")
                               << QStringList{"test.conf:3: error: busy_when: 'compute' is not auto (compute clients "
                                              "make the GPU busy, graphics clients only while they use it much), "
                                              "opened (any program that opens the GPU makes it busy), computes (one "
                                              "that computes on it) or memory (one that uses busy_memory_mib of its "
                                              "memory)"}
                               << false;
    QTest::newRow("graphics_busy_percent over 100")
        << QByteArray("[gpu-x]\ngraphics_busy_percent=101\n")
        << QStringList{"test.conf:2: error: graphics_busy_percent: '101' is not a whole number of percent (1 to 100)"}
        << false;
    QTest::newRow("on_battery") << QByteArray("[defaults]\non_battery=stop\n")
                                << QStringList{"test.conf:2: error: on_battery: 'stop' is neither pause (stop every "
                                               "workload while the computer runs on battery) nor run"}
                                << false;
    QTest::newRow("max_temperature_c")
        << QByteArray("[defaults]\nmax_temperature_c=hot\n")
        << QStringList{"test.conf:2: error: max_temperature_c: 'hot' is not a whole number of degrees Celsius (0 to "
                       "150; 0 means off)"}
        << false;
    QTest::newRow("priority") << QByteArray("[process-a]\ncmd=x\npriority=high\n")
                              << QStringList{"test.conf:3: error: priority: 'high' is not idle (CPU time nobody else "
                                             "wants), low (nice 10) or normal"}
                              << false;
    QTest::newRow("pause_while_active")
        << QByteArray("[activity]\npause_while_active=maybe\nidle_seconds=-1\n")
        << QStringList{"test.conf:2: error: pause_while_active: 'maybe' is neither true nor false (also accepted: "
                       "yes/no, on/off, 1/0)",
                       "test.conf:3: error: idle_seconds: '-1' is out of range (0 to 31536000 seconds)"}
        << false;
    QTest::newRow("schedule: a bad day")
        << QByteArray("[schedule]\nrun = Mon-Fri 18:00-08:00, Sunday, Frei\n")
        << QStringList{"test.conf:2: error: run: 'Frei' in 'Frei' is not a day or a range of days (Mon..Sun, like "
                       "Mon-Fri)"}
        << false;
    QTest::newRow("schedule: a bad time")
        << QByteArray("[schedule]\nrun = Sat 25:00-26:00\n")
        << QStringList{"test.conf:2: error: run: '25:00-26:00' in 'Sat 25:00-26:00' is not a time range HH:MM-HH:MM "
                       "(00:00 to 24:00)"}
        << false;
    QTest::newRow("schedule: empty range")
        << QByteArray("[schedule]\nrun = 08:00-08:00\n")
        << QStringList{"test.conf:2: error: run: '08:00-08:00' in '08:00-08:00' is empty: its start and end are the "
                       "same"}
        << false;
    QTest::newRow("schedule: too many words")
        << QByteArray("[schedule]\nrun = Mon 08:00-09:00 Tue\n")
        << QStringList{"test.conf:2: error: run: 'Mon 08:00-09:00 Tue' is not a rule: write DAYS, HH:MM-HH:MM or "
                       "DAYS HH:MM-HH:MM"}
        << false;
    QTest::newRow("busy_memory_mib: zero")
        << QByteArray("[gpu-x]\nbusy_when=memory\nbusy_memory_mib=0\n")
        << QStringList{"test.conf:3: error: busy_memory_mib: '0' is not a whole number of MiB (1 to 16777216)"} << false;
    QTest::newRow("busy_memory_mib: words")
        << QByteArray("[gpu-x]\nbusy_when=memory\nbusy_memory_mib=1 GiB\n")
        << QStringList{"test.conf:3: error: busy_memory_mib: '1 GiB' is not a whole number of MiB (1 to 16777216)"}
        << false;
    QTest::newRow("busy_memory_mib without busy_when = memory: kept, unused")
        << QByteArray("[gpu-x]\nbusy_when=opened\nbusy_memory_mib=512\n") << QStringList{} << true;
    QTest::newRow("workload gpus") << QByteArray("[process-x]\ncmd=a\ngpus=\n")
                                   << QStringList{"test.conf:3: error: gpus: '' is not a GPU list: write ALL or GPU "
                                                  "indices separated by commas, like 0,1"}
                                   << false;
    QTest::newRow("no cmd") << QByteArray("; a workload\n[process-x]\ndir=/tmp\n")
                            << QStringList{"test.conf:2: error: [process-x] has no cmd=: nothing to run (or "
                                           "start_cmd= and stop_cmd= to control a service)"}
                            << false;
    QTest::newRow("control: start_cmd without stop_cmd")
        << QByteArray("[process-boinc]\nstart_cmd=boinccmd --set_gpu_mode auto 0\n")
        << QStringList{"test.conf:2: error: [process-boinc] has start_cmd= but no stop_cmd=: a service is lent with "
                       "start_cmd= and taken back with stop_cmd=, both are needed"}
        << false;
    QTest::newRow("control: stop_cmd without start_cmd")
        << QByteArray("[process-boinc]\n\nstop_cmd=boinccmd --set_gpu_mode never 0\n")
        << QStringList{"test.conf:3: error: [process-boinc] has stop_cmd= but no start_cmd=: a service is lent with "
                       "start_cmd= and taken back with stop_cmd=, both are needed"}
        << false;
    QTest::newRow("control: with cmd")
        << QByteArray("[process-boinc]\ncmd=boinc\nstart_cmd=a\nstop_cmd=b\n")
        << QStringList{"test.conf:3: error: [process-boinc] has cmd= (line 2) and start_cmd=: a workload either runs a "
                       "command (cmd=) or controls a service (start_cmd= and stop_cmd=), not both"}
        << false;
    QTest::newRow("control: empty stop_cmd")
        << QByteArray("[process-boinc]\nstart_cmd=a\nstop_cmd=\n")
        << QStringList{"test.conf:3: error: stop_cmd is empty: nothing to run"} << false;
    QTest::newRow("control: unbalanced quote")
        << QByteArray("[process-boinc]\nstart_cmd=a 'b\nstop_cmd=b\n")
        << QStringList{"test.conf:2: error: start_cmd: unterminated single quote: the ' at column 3 is never closed"} << false;
    QTest::newRow("control: shell operator")
        << QByteArray("[process-boinc]\nstart_cmd=a > /tmp/x\nstop_cmd=b\n")
        << QStringList{"test.conf:2: warning: start_cmd: '>' is passed to the program as an argument: idlegpu runs no "
                       "shell (write start_cmd=sh -c '...' for pipes and redirections)"}
        << true;
    QTest::newRow("control: command_timeout_seconds zero")
        << QByteArray("[process-boinc]\nstart_cmd=a\nstop_cmd=b\ncommand_timeout_seconds=0\n")
        << QStringList{"test.conf:4: error: command_timeout_seconds: '0' is out of range (1 to 3600 seconds)"} << false;
    QTest::newRow("command_timeout_seconds with cmd")
        << QByteArray("[process-x]\ncmd=a\ncommand_timeout_seconds=5\n")
        << QStringList{"test.conf:3: warning: command_timeout_seconds is ignored without start_cmd= and stop_cmd="}
        << true;
    QTest::newRow("control: complete") << QByteArray("[process-boinc]\nstart_cmd=a\nstop_cmd=b\n"
                                                     "command_timeout_seconds=60\nservice_programs=boinc, boinc-client\n")
                                       << QStringList{} << true;
    QTest::newRow("empty cmd") << QByteArray("[process-x]\ncmd=\n")
                               << QStringList{"test.conf:2: error: cmd is empty: nothing to run"} << false;
    QTest::newRow("cmd of a comment") << QByteArray("[process-x]\ncmd=# nothing\n")
                                      << QStringList{"test.conf:2: error: cmd is empty: nothing to run"} << false;
    QTest::newRow("cmd with empty program")
        << QByteArray("[process-x]\ncmd='' x\n") << QStringList{"test.conf:2: error: cmd: the program name is empty"}
        << false;
    QTest::newRow("cmd unterminated") << QByteArray("[process-x]\ncmd=miner 'abc\n")
                                      << QStringList{"test.conf:2: error: cmd: unterminated single quote: the ' at "
                                                     "column 7 is never closed"}
                                      << false;
    QTest::newRow("cmd with shell operator")
        << QByteArray("[process-x]\ncmd=miner > /tmp/log\n")
        << QStringList{"test.conf:2: warning: cmd: '>' is passed to the program as an argument: idlegpu runs no shell "
                       "(write cmd=sh -c '...' for pipes and redirections)"}
        << true;
    QTest::newRow("env") << QByteArray("[process-x]\ncmd=a\nenv=A=1 B\n")
                         << QStringList{"test.conf:3: error: env: 'B' is not of the form KEY=VALUE"} << false;
    QTest::newRow("stop timeout") << QByteArray("[process-x]\ncmd=a\nstop_timeout_seconds=0\n")
                                  << QStringList{outOfRange(3, "stop_timeout_seconds", "0", 1, 3600)} << false;
    QTest::newRow("workload enabled") << QByteArray("[process-x]\ncmd=a\nenabled=maybe\n")
                                      << QStringList{"test.conf:3: error: enabled: 'maybe' is neither true nor false "
                                                     "(also accepted: yes/no, on/off, 1/0)"}
                                      << false;
    QTest::newRow("tty enabled") << QByteArray("[tty]\nenabled=y\n")
                                 << QStringList{"test.conf:2: error: enabled: 'y' is neither true nor false (also "
                                                "accepted: yes/no, on/off, 1/0)"}
                                 << false;
    QTest::newRow("tty idle") << QByteArray("[tty]\nidle_seconds=31536001\n")
                              << QStringList{outOfRange(2, "idle_seconds", "31536001", 0, 31536000)} << false;
    QTest::newRow("empty name") << QByteArray("[process-x]\ncmd=a\nname= \n")
                                << QStringList{"test.conf:3: error: name is empty"} << false;
    QTest::newRow("same name= twice")
        << QByteArray("[process-a]\ncmd=x\nname=miner\n\n[process-b]\ncmd=y\nname=miner\n")
        << QStringList{"test.conf:7: error: [process-b] has the name 'miner' of [process-a] (line 1): names must "
                       "differ"}
        << false;
    QTest::newRow("same name= twice, with a percent sign")
        << QByteArray("[process-a]\ncmd=x\nname=miner %4\n\n[process-b]\ncmd=y\nname=miner %4\n")
        << QStringList{"test.conf:7: error: [process-b] has the name 'miner %4' of [process-a] (line 1): names must "
                       "differ"}
        << false;
    QTest::newRow("name= equal to a default name")
        << QByteArray("[process-a]\ncmd=x\nname=b\n[process-b]\ncmd=y\n")
        << QStringList{"test.conf:4: error: [process-b] has the name 'b' of [process-a] (line 1): names must differ"}
        << false;
    QTest::newRow("overlapping GPU lists are fine")
        << QByteArray("[process-a]\ncmd=x\ngpus=0,1\n[process-b]\ncmd=y\ngpus=1\n") << QStringList{} << true;
    QTest::newRow("unknown section and keys")
        << QByteArray("[defaults]\ninterval=5\n[extra]\nx=1\n[process-a]\ncmd=x\ncommand=y\n")
        << QStringList{"test.conf:2: warning: unknown key 'interval' in [defaults] ignored",
                       "test.conf:3: warning: unknown section [extra] ignored: idlegpu reads [defaults], [gpu-*], "
                       "[process-*], [tty], [activity], [schedule], [slurm] and [metrics]",
                       "test.conf:7: warning: unknown key 'command' in [process-a] ignored"}
        << true;
    QTest::newRow("metrics textfile") << QByteArray("[metrics]\ntextfile = /tmp/idlegpu.prom\n") << QStringList{}
                                      << true;
    QTest::newRow("metrics textfile not absolute")
        << QByteArray("[metrics]\ntextfile = idlegpu.prom\n")
        << QStringList{"test.conf:2: error: textfile: 'idlegpu.prom' is not an absolute path (it must start with /)"}
        << false;
    QTest::newRow("metrics textfile is a folder")
        << QByteArray("[metrics]\ntextfile = /tmp/\n")
        << QStringList{"test.conf:2: error: textfile: /tmp is a folder; name the file in it (idlegpu.prom)"} << false;
    QTest::newRow("metrics textfile in a missing folder")
        << QByteArray("\n[metrics]\ntextfile = /nonexistent-idlegpu/idlegpu.prom\n")
        << QStringList{"test.conf:3: warning: textfile: the folder /nonexistent-idlegpu does not exist (yet); no "
                       "metrics are written until it does (Debian's prometheus-node-exporter makes "
                       "/var/lib/prometheus/node-exporter)"}
        << true;
    QTest::newRow("metrics textfile not .prom")
        << QByteArray("[metrics]\ntextfile = /tmp/idlegpu.txt\n")
        << QStringList{"test.conf:2: warning: textfile: node_exporter's textfile collector reads only files whose "
                       "name ends in .prom; idlegpu.txt would be ignored"}
        << true;
    QTest::newRow("DEFAULT section")
        << QByteArray("[DEFAULT]\ndir=/tmp\n")
        << QStringList{"test.conf:1: warning: section [default] ignored: configparser would give its keys to every "
                       "section, idlegpu does not"}
        << true;
    QTest::newRow("section with slash")
        << QByteArray("[process-a/b]\ncmd=x\n")
        << QStringList{"test.conf:1: error: section name [process-a/b] must not contain '/'"} << false;
    QTest::newRow("syntax problems")
        << QByteArray("interval_seconds=5\n[defaults]\ninterval_seconds=5\nInterval_Seconds=6\nnonsense\n")
        << QStringList{"test.conf:1: error: 'interval_seconds=5' comes before any [section] header",
                       "test.conf:4: error: duplicate key 'interval_seconds' in [defaults] (first at line 3)",
                       "test.conf:5: error: 'nonsense' is neither a [section] header nor a key = value line"}
        << false;
    QTest::newRow("duplicate section") << QByteArray("[tty]\nenabled=1\n[Tty]\nenabled=0\n")
                                       << QStringList{"test.conf:3: error: duplicate section [tty] (first at line 1)"}
                                       << false;
    QTest::newRow("binary") << QByteArray("[defaults]\n\xFF\xFE\x00\x01\n", 15)
                            << QStringList{"test.conf:2: error: binary or not UTF-8 text"} << false;
    // configparser takes an indented line for more of the value above it: one that reads as a key of the section
    // would silently not set it (user= under cmd= would leave the workload running as root).
    QTest::newRow("indented known key")
        << QByteArray("[process-x]\ncmd=a\n\tuser = bob\n[tty]\nwhitelist = a,\n  enabled: yes\n")
        << QStringList{"test.conf:3: error: 'user = bob' is indented, so it continues the value of cmd (line 2) instead "
                       "of setting user in [process-x]: write it without indentation",
                       "test.conf:6: error: 'enabled: yes' is indented, so it continues the value of whitelist (line 5) "
                       "instead of setting enabled in [tty]: write it without indentation"}
        << false;
    QTest::newRow("indented words that are no key of the section")
        << QByteArray("[process-x]\ncmd=a\n  --user=bob\n  b=1\n  interval_seconds=5\n") << QStringList{} << true;
    QTest::newRow("several errors, each with its line")
        << QByteArray("[defaults]\ninterval_seconds=x\n[process-0]\ncmd=\"\ngpus=-1\n")
        << QStringList{notANumber(2, "interval_seconds", "x", 1, 3600),
                       "test.conf:4: error: cmd: unterminated double quote: the \" at column 1 is never closed",
                       "test.conf:5: error: gpus: '-1' is not a GPU list: write ALL or GPU indices separated by "
                       "commas, like 0,1"}
        << false;
}

void TestConfig::reportsProblems()
{
    QFETCH(QByteArray, contents);
    QFETCH(QStringList, diagnostics);
    QFETCH(bool, ok);
    const ConfigLoadResult result = ConfigLoader::parse(contents, testFile, notRoot());
    QCOMPARE(describe(result), diagnostics);
    QCOMPARE(result.ok(), ok);
}

void TestConfig::reportsUnreadableFiles()
{
    const QString missing = m_dir.filePath(QStringLiteral("missing.conf"));
    ConfigLoadResult result = ConfigLoader::load(missing);
    QCOMPARE(describe(result),
             QStringList{missing + ": error: cannot read this file: cannot open " + missing + ": No such file or directory"});
    QVERIFY(!result.ok());

    result = ConfigLoader::load(m_dir.path());
    QCOMPARE(describe(result),
             QStringList{m_dir.path() + ": error: cannot read this file: " + m_dir.path() + " is a folder, not a file"});

    result = ConfigLoader::load(QStringLiteral("/dev/zero"));
    QCOMPARE(describe(result), QStringList{"/dev/zero: error: cannot read this file: /dev/zero is not a regular file"});

    const QString huge = m_dir.filePath(QStringLiteral("huge.conf"));
    QVERIFY(writeFile(huge, "[defaults]\n" + QByteArray(2 * 1024 * 1024, ';')));
    result = ConfigLoader::load(huge);
    QCOMPARE(describe(result),
             QStringList{huge + ": error: cannot read this file: it is larger than 1 MiB: not a config file"});
}

void TestConfig::reportsFileWithoutReadPermission()
{
    if (::geteuid() == 0)
        QSKIP("root reads files whatever their mode");
    const QString locked = m_dir.filePath(QStringLiteral("locked.conf"));
    QVERIFY(writeFile(locked, "[defaults]\n"));
    QCOMPARE(::chmod(QFile::encodeName(locked).constData(), 0), 0);
    const ConfigLoadResult result = ConfigLoader::load(locked);
    QCOMPARE(describe(result), QStringList{locked + ": error: cannot read this file: cannot open " + locked
                                           + ": Permission denied"});
}

void TestConfig::refusesFileOthersCanWrite_data()
{
    QTest::addColumn<int>("mode");
    QTest::addColumn<int>("group"); // given to the file (as root); -1: the group it was made with
    QTest::addColumn<QString>("refusal"); // the reason after the path; empty: not refused
    QTest::newRow("0600") << 0600 << -1 << QString();
    QTest::newRow("0644") << 0644 << -1 << QString();
    QTest::newRow("0400") << 0400 << -1 << QString();
    // sshd's StrictModes: a group nobody else can be in may write (root's own group).
    QTest::newRow("group-writable 0664, root's group") << 0664 << 0 << QString();
    QTest::newRow("group-writable 0664, a group of others") << 0664 << 65534
                                                             << "is writable by the group 65534 (mode 0664)";
    QTest::newRow("world-writable 0646") << 0646 << -1 << "is writable by every user (mode 0646)";
    QTest::newRow("0666") << 0666 << -1 << "is writable by every user (mode 0666)";
}

void TestConfig::refusesFileOthersCanWrite()
{
    QFETCH(int, mode);
    QFETCH(int, group);
    QFETCH(QString, refusal);
    if (group >= 0 && ::geteuid() != 0)
        QSKIP("only root can give a file to any group");
    const QString path = m_dir.filePath(QStringLiteral("shared.conf"));
    QVERIFY(writeFile(path, "[process-x]\ncmd=sleep 1\n"));
    QCOMPARE(::chmod(QFile::encodeName(path).constData(), mode_t(mode)), 0);
    if (group >= 0)
        QCOMPARE(::chown(QFile::encodeName(path).constData(), uid_t(-1), gid_t(group)), 0);
    const ConfigLoadResult result = ConfigLoader::load(path);
    QCOMPARE(result.ok(), refusal.isEmpty());
    if (!refusal.isEmpty())
        QCOMPARE(describe(result), QStringList{refusedMessage(path, path + QLatin1Char(' ') + refusal)});
    QFile::remove(path);
}

void TestConfig::builtinIgnoreList_data()
{
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<QStringList>("gpu0");
    QTest::addColumn<QStringList>("gpu1");
    const QStringList builtin = builtinIgnoredPrograms();
    QTest::newRow("no group: built-in") << QByteArray("[defaults]\n") << builtin << builtin;
    QTest::newRow("a group without the key: built-in") << QByteArray("[gpu-all]\ngpus=ALL\n") << builtin << builtin;
    QTest::newRow("a list replaces it (gpu_mon's files)")
        << QByteArray("[gpu-all]\ngpus=ALL\nignore_programs=nvidia-smi\n") << QStringList{"nvidia-smi"}
        << QStringList{"nvidia-smi"};
    QTest::newRow("@builtin extends it")
        << QByteArray("[gpu-all]\ngpus=ALL\nignore_programs=@builtin, blender\n") << builtin + QStringList{"blender"}
        << builtin + QStringList{"blender"};
    QTest::newRow("an empty list ignores nothing") << QByteArray("[gpu-all]\ngpus=ALL\nignore_programs=\n")
                                                    << QStringList{} << QStringList{};
    QTest::newRow("a group of GPU 1 only leaves GPU 0 the built-in list")
        << QByteArray("[gpu-1]\ngpus=1\nignore_programs=blender\n") << builtin << QStringList{"blender"};
}

void TestConfig::builtinIgnoreList()
{
    QFETCH(QByteArray, contents);
    QFETCH(QStringList, gpu0);
    QFETCH(QStringList, gpu1);
    const ConfigLoadResult result = ConfigLoader::parse(contents, QStringLiteral("test.conf"));
    QVERIFY(result.ok());
    QCOMPARE(result.config.ignoredProgramsFor(0), gpu0);
    QCOMPARE(result.config.ignoredProgramsFor(1), gpu1);
    QVERIFY(builtinIgnoredPrograms().contains(QStringLiteral("Xorg")));
    QVERIFY(builtinIgnoredPrograms().contains(QStringLiteral("nvidia-persistenced")));
}

void TestConfig::busyRule_data()
{
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<int>("gpu");
    QTest::addColumn<bool>("opened");
    QTest::addColumn<bool>("computes");
    QTest::addColumn<qint64>("memoryBytes");
    QTest::addColumn<bool>("byClientKind");
    QTest::addColumn<int>("graphicsPercent");
    QTest::addColumn<qint64>("graphicsMemoryBytes");
    constexpr qint64 mib = 1024 * 1024;
    QTest::newRow("no group: auto") << QByteArray("[defaults]\n") << 0 << false << false << qint64(0) << true << 30
                                    << 1024 * mib;
    QTest::newRow("a group without the key: auto")
        << QByteArray("[gpu-all]\ngpus=ALL\nignore_programs=\n") << 0 << false << false << qint64(0) << true << 30
        << 1024 * mib;
    QTest::newRow("auto, thresholds given")
        << QByteArray("[gpu-all]\nbusy_when=auto\ngraphics_busy_percent=50\nbusy_memory_mib=300\n") << 0 << false
        << false << qint64(0) << true << 50 << 300 * mib;
    QTest::newRow("auto by default, thresholds given")
        << QByteArray("[gpu-all]\ngraphics_busy_percent=10\n") << 0 << false << false << qint64(0) << true << 10
        << 1024 * mib;
    QTest::newRow("auto: the lowest thresholds")
        << QByteArray("[gpu-a]\ngraphics_busy_percent=50\n[gpu-b]\ngpus=0\nbusy_when=auto\nbusy_memory_mib=64\n")
        << 0 << false << false << qint64(0) << true << 30 << 64 * mib;
    QTest::newRow("auto beside opened")
        << QByteArray("[gpu-a]\nbusy_when=auto\n[gpu-b]\ngpus=0\nbusy_when=opened\n") << 0 << true << false
        << qint64(0) << true << 30 << 1024 * mib;
    const auto notAuto = [](QTestData &row) -> QTestData & { return row << false << 30 << qint64(1024) * 1024 * 1024; };
    notAuto(QTest::newRow("computes") << QByteArray("[gpu-all]\nbusy_when=computes\n") << 1 << false << true << qint64(0));
    notAuto(QTest::newRow("case and spaces") << QByteArray("[gpu-all]\nbusy_when =  Computes \n") << 1 << false << true
                                             << qint64(0));
    notAuto(QTest::newRow("memory, default threshold")
            << QByteArray("[gpu-all]\nbusy_when=memory\n") << 0 << false << false
            << GpuGroupConfig::kDefaultBusyMemoryMib * mib);
    notAuto(QTest::newRow("memory 1024") << QByteArray("[gpu-all]\nbusy_when=memory\nbusy_memory_mib=1024\n") << 0
                                         << false << false << 1024 * mib);
    QTest::newRow("a group of GPU 1 leaves GPU 0 auto")
        << QByteArray("[gpu-1]\ngpus=1\nbusy_when=computes\n") << 0 << false << false << qint64(0) << true << 30
        << 1024 * mib;
    notAuto(QTest::newRow("groups add up: computes or memory")
            << QByteArray("[gpu-a]\nbusy_when=computes\n[gpu-b]\ngpus=0\nbusy_when=memory\nbusy_memory_mib=100\n")
            << 0 << false << true << 100 * mib);
    notAuto(QTest::newRow("the smallest threshold")
            << QByteArray("[gpu-a]\nbusy_when=memory\nbusy_memory_mib=300\n[gpu-b]\nbusy_when=memory\n"
                          "busy_memory_mib=200\n")
            << 0 << false << false << 200 * mib);
    notAuto(QTest::newRow("opened in one group wins")
            << QByteArray("[gpu-a]\nbusy_when=computes\n[gpu-b]\ngpus=0\nbusy_when=opened\n") << 0 << true << true
            << qint64(0));
}

void TestConfig::busyRule()
{
    QFETCH(QByteArray, contents);
    QFETCH(int, gpu);
    QFETCH(bool, opened);
    QFETCH(bool, computes);
    QFETCH(qint64, memoryBytes);
    const ConfigLoadResult result = ConfigLoader::parse(contents, QStringLiteral("test.conf"));
    QVERIFY2(result.ok(), qPrintable(describe(result).join(QLatin1Char('\n'))));
    const BusyRule rule = result.config.busyRuleFor(gpu);
    QCOMPARE(rule.opened, opened);
    QCOMPARE(rule.computes, computes);
    QCOMPARE(rule.memoryThresholdBytes, memoryBytes);
    QFETCH(bool, byClientKind);
    QFETCH(int, graphicsPercent);
    QFETCH(qint64, graphicsMemoryBytes);
    QCOMPARE(rule.byClientKind, byClientKind);
    QCOMPARE(rule.graphicsBusyPercent, graphicsPercent);
    QCOMPARE(rule.graphicsMemoryBytes, graphicsMemoryBytes);
}

void TestConfig::readsDesktopKeys()
{
    const ConfigLoadResult result = ConfigLoader::parse(
        "[defaults]\non_battery = run\nmax_temperature_c = 83\n"
        "[activity]\npause_while_active = yes\nidle_seconds = 120\n"
        "[schedule]\nrun = Mon-Fri 18:00-08:00, Sat, Sun\n"
        "[process-a]\ncmd = miner\npriority = low\n[process-b]\ncmd = folding\n",
        QStringLiteral("test.conf"));
    QVERIFY2(result.ok(), qPrintable(describe(result).join(QLatin1Char('\n'))));
    const Config &config = result.config;
    QCOMPARE(config.onBattery, OnBattery::Run);
    QCOMPARE(config.maxTemperatureC, 83);
    QVERIFY(config.activity.pauseWhileActive);
    QCOMPARE(config.activity.idleSeconds, 120);
    QCOMPARE(config.schedule.rules().size(), 3);
    QCOMPARE(config.workloads.at(0).priority, WorkloadPriority::Low);
    QCOMPARE(config.workloads.at(1).priority, WorkloadPriority::Idle); // the default

    const Config defaults = ConfigLoader::parse("[defaults]\n", QStringLiteral("test.conf")).config;
    QCOMPARE(defaults.onBattery, OnBattery::Pause);
    QCOMPARE(defaults.maxTemperatureC, 0);
    QVERIFY(!defaults.activity.pauseWhileActive);
    QCOMPARE(defaults.activity.idleSeconds, 300);
    QVERIFY(defaults.schedule.always());

    // A changed schedule, priority or presence setting is a change (a reload applies it).
    Config other = config;
    QVERIFY(config.settings() == other.settings());
    other.workloads[0].priority = WorkloadPriority::Normal;
    QVERIFY(config.settings() != other.settings());
    other = config;
    other.schedule = Schedule();
    QVERIFY(config.settings() != other.settings());
    other = config;
    other.metrics.textfile = QStringLiteral("/tmp/idlegpu.prom");
    QVERIFY(config.settings() != other.settings());
}

// The monitor answers each change in the config file's folder and in device_root with a reload or a scan, which
// writes the textfile again: a textfile there would loop.
void TestConfig::metricsTextfileOutsideWatchedFolders()
{
    const auto errorsOf = [](const QByteArray &text) {
        QStringList errors;
        for (const ConfigDiagnostic &d : ConfigLoader::parse(text, QStringLiteral("/etc/idlegpu/idlegpu.conf")).diagnostics)
            if (d.severity == ConfigDiagnostic::Error)
                errors.append(d.toString());
        return errors;
    };
    QCOMPARE(errorsOf("[metrics]\ntextfile = /etc/idlegpu/idlegpu.prom\n"),
             QStringList{"/etc/idlegpu/idlegpu.conf:2: error: textfile: /etc/idlegpu/idlegpu.prom is in the folder of "
                         "the config file, which idlegpu watches for edits: each write would make it read the file "
                         "again; choose another folder (/var/lib/prometheus/node-exporter)"});
    // device_root after [metrics]: checked once the whole file is read.
    QCOMPARE(errorsOf("[metrics]\ntextfile = /tmp/fake-dev/dri/idlegpu.prom\n[defaults]\ndevice_root = /tmp/fake-dev\n"),
             QStringList{"/etc/idlegpu/idlegpu.conf:2: error: textfile: /tmp/fake-dev/dri/idlegpu.prom is in "
                         "device_root, which idlegpu watches for GPUs; choose another folder "
                         "(/var/lib/prometheus/node-exporter)"});
    QCOMPARE(errorsOf("[metrics]\ntextfile = /tmp/idlegpu.prom\n"), QStringList());
}

void TestConfig::readsVendors_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<QList<GpuVendor>>("vendors");
    QTest::addColumn<QString>("error"); // empty: none
    using V = GpuVendor;
    QTest::newRow("absent: auto") << QByteArray() << QList<V>{} << QString();
    QTest::newRow("auto") << QByteArray("auto") << QList<V>{} << QString();
    QTest::newRow("one") << QByteArray("amd") << QList<V>{V::Amd} << QString();
    QTest::newRow("list, case, repeat") << QByteArray("NVIDIA, intel,nvidia") << QList<V>{V::Nvidia, V::Intel}
                                        << QString();
    QTest::newRow("unknown") << QByteArray("nvidia, matrox") << QList<V>{}
                             << "test.conf:2: error: vendors: 'matrox' is not a GPU vendor: write auto, or a comma "
                                "list of nvidia, amd, intel";
    QTest::newRow("auto among others") << QByteArray("auto, amd") << QList<V>{}
                                       << "test.conf:2: error: vendors: 'auto' is not a GPU vendor: write auto, or a "
                                          "comma list of nvidia, amd, intel";
    QTest::newRow("empty") << QByteArray(" ") << QList<V>{}
                           << "test.conf:2: error: vendors is empty: write auto, or a comma list of nvidia, amd, intel";
}

void TestConfig::readsVendors()
{
    QFETCH(QByteArray, value);
    QFETCH(QList<GpuVendor>, vendors);
    QFETCH(QString, error);
    const QByteArray text = value.isNull() ? QByteArray("[defaults]\n") : "[defaults]\nvendors = " + value + "\n";
    const ConfigLoadResult result = ConfigLoader::parse(text, QStringLiteral("test.conf"));
    QCOMPARE(describe(result), error.isEmpty() ? QStringList() : QStringList{error});
    QCOMPARE(result.config.vendors, vendors);
}

void TestConfig::expandsHomeInDirAndLog()
{
    const ConfigLoadResult result = ConfigLoader::parse(
        "[process-a]\ncmd=sleep 1\ndir=~/work\nlog=~/logs/a.log\n[process-b]\ncmd=sleep 1\ndir=~\nlog=/x/~/b.log\n",
        QStringLiteral("test.conf"));
    QVERIFY(result.ok());
    QCOMPARE(result.config.workloads.at(0).dir, QDir::homePath() + QStringLiteral("/work"));
    QCOMPARE(result.config.workloads.at(0).log, QDir::homePath() + QStringLiteral("/logs/a.log"));
    QCOMPARE(result.config.workloads.at(1).dir, QDir::homePath());
    QCOMPARE(result.config.workloads.at(1).log, QStringLiteral("/x/~/b.log"));
}

void TestConfig::workloadUser_data()
{
    // [process-a] carries the line under test (on line 3); [process-b] always names alice and must load anyway.
    QTest::addColumn<uint>("effectiveUid");
    QTest::addColumn<QByteArray>("userLine");
    QTest::addColumn<QString>("user");       // WorkloadConfig::user
    QTest::addColumn<QString>("diagnostic"); // the one diagnostic expected; empty: none
    QTest::addColumn<bool>("refused");
    QTest::addColumn<bool>("rootByDefault"); // runs as root because it names no user: tagged for the tooltip

    // gpu_mon's files name no user and ran as root under supervisord: they run so, said with the way out.
    const QString noUser = QStringLiteral("test.conf:1: warning: [process-a] runs as root, as gpu_mon ran it: add "
                                          "`user = NAME` to run it as that user");
    QTest::newRow("root, no user=: runs as root, warned") << 0u << QByteArray() << QString() << noUser << false
                                                          << true;
    QTest::newRow("root, blank user=: runs as root, warned")
        << 0u << QByteArray("user =   ") << QString()
        << QString(noUser).replace(QStringLiteral(":1:"), QStringLiteral(":3:")) << false << true;
    QTest::newRow("root, a user") << 0u << QByteArray("user = alice") << "alice" << QString() << false << false;
    QTest::newRow("root, a uid") << 0u << QByteArray("user = 1001") << "1001" << QString() << false << false;
    QTest::newRow("root, user = root: warned") << 0u << QByteArray("user = root") << "root"
                                               << "test.conf:3: warning: user = root: this workload runs as root, "
                                                  "with every privilege"
                                               << false << false;
    QTest::newRow("root, unknown user") << 0u << QByteArray("user = mallory") << "mallory"
                                        << "test.conf:3: error: [process-a] will not run: user: there is no user "
                                           "named 'mallory'"
                                        << true << false;
    QTest::newRow("root, unknown uid") << 0u << QByteArray("user = 4242") << "4242"
                                       << "test.conf:3: error: [process-a] will not run: user: no account has uid "
                                          "4242"
                                       << true << false;
    QTest::newRow("alice, no user=") << 1000u << QByteArray() << QString() << QString() << false << false;
    QTest::newRow("alice, herself") << 1000u << QByteArray("user = alice") << "alice" << QString() << false << false;
    QTest::newRow("alice, her uid") << 1000u << QByteArray("user=1000") << "1000" << QString() << false << false;
    QTest::newRow("alice, someone else") << 1000u << QByteArray("user = bob") << "bob"
                                         << "test.conf:3: error: [process-a] will not run: user: cannot run as bob "
                                            "(uid 1001): idlegpu runs as uid 1000, and only root can start programs "
                                            "as another user"
                                         << true << false;
    QTest::newRow("alice, root") << 1000u << QByteArray("user = root") << "root"
                                 << "test.conf:3: error: [process-a] will not run: user: cannot run as root (uid 0): "
                                    "idlegpu runs as uid 1000, and only root can start programs as another user"
                                 << true << false;
}

void TestConfig::workloadUser()
{
    QFETCH(uint, effectiveUid);
    QFETCH(QByteArray, userLine);
    QFETCH(QString, user);
    QFETCH(QString, diagnostic);
    QFETCH(bool, refused);
    QFETCH(bool, rootByDefault);
    // [process-b] names bob for root and alice for alice: allowed either way.
    const QByteArray other = effectiveUid == 0 ? "bob" : "alice";
    const QByteArray contents = "[process-a]\ncmd=sleep 1\n" + userLine + "\n[process-b]\ncmd=sleep 2\nuser=" + other + "\n";
    const ConfigLoadResult result = ConfigLoader::parse(contents, testFile, fakeUsers(effectiveUid));

    QCOMPARE(describe(result), diagnostic.isEmpty() ? QStringList() : QStringList{diagnostic});
    QVERIFY(result.ok()); // a refusal keeps that workload from running, not the file from being used
    QCOMPARE(result.config.workloads.size(), 2);
    const WorkloadConfig &a = result.config.workloads.at(0);
    QCOMPARE(a.user, user);
    QCOMPARE(!a.refusal.isEmpty(), refused);
    QCOMPARE(result.refusedWorkloads().size(), refused ? 1 : 0);
    if (refused)
        QCOMPARE(result.refusedWorkloads().first().refusedWorkload, QStringLiteral("process-a"));
    QVERIFY(result.config.workloads.at(1).refusal.isEmpty());
    QCOMPARE(result.config.workloads.at(1).user, QString::fromLatin1(other));
    QCOMPARE(!result.diagnostics.isEmpty() && result.diagnostics.first().rootWorkload == QLatin1String("process-a"),
             rootByDefault);
    QCOMPARE(result.diagnostics.isEmpty() ? QString() : result.diagnostics.first().refusedWorkload,
             refused ? QStringLiteral("process-a") : QString());

    // The same check, as the settings dialog and the runner make it.
    const WorkloadUserCheck check = checkWorkloadUser(user, fakeUsers(effectiveUid));
    QCOMPARE(!check.error.isEmpty(), refused);
    QCOMPARE(check.rootByDefault, rootByDefault);
}

void TestConfig::expandsHomeOfWorkloadUser()
{
    const ConfigLoadResult result = ConfigLoader::parse(
        "[process-a]\ncmd=sleep 1\nuser=alice\ndir=~/work\nlog=~/a.log\n"
        "[process-b]\ncmd=sleep 1\nlog=~/b.log\nuser=bob\n",
        testFile, fakeUsers(0));
    QVERIFY(result.ok());
    QCOMPARE(result.config.workloads.at(0).dir, QStringLiteral("/home/alice/work"));
    QCOMPARE(result.config.workloads.at(0).log, QStringLiteral("/home/alice/a.log"));
    QCOMPARE(result.config.workloads.at(1).log, QStringLiteral("/home/bob/b.log")); // user= after log= counts too
    // A change of user is a change of settings: a running workload restarts as the new user.
    WorkloadConfig changed = result.config.workloads.at(0);
    changed.user = QStringLiteral("bob");
    QVERIFY(changed.settings() != result.config.workloads.at(0).settings());
}

void TestConfig::disabledWorkloadUserCheckedOnceEnabled()
{
    const QByteArray disabled = "[process-a]\ncmd=sleep 1\nuser=mallory\nenabled=false\n"
                                "[process-b]\ncmd=sleep 1\nenabled=false\nlog=~/b.log\nuser=alice\n";
    ConfigLoadResult result = ConfigLoader::parse(disabled, testFile, fakeUsers(0));
    QCOMPARE(describe(result), QStringList());
    QVERIFY(result.config.workloads.at(0).refusal.isEmpty());
    QCOMPARE(result.config.workloads.at(1).log, QStringLiteral("/home/alice/b.log"));
    result = ConfigLoader::parse(QByteArray(disabled).replace("enabled=false", "enabled=true"), testFile, fakeUsers(0));
    QCOMPARE(describe(result), QStringList{QStringLiteral("test.conf:3: error: [process-a] will not run: user: there "
                                                          "is no user named 'mallory'")});
}

void TestConfig::readsNotify_data()
{
    QTest::addColumn<QByteArray>("value");
    QTest::addColumn<bool>("ok");
    QTest::addColumn<bool>("preemption");
    QTest::addColumn<bool>("failure");
    QTest::addColumn<bool>("configError");
    QTest::newRow("absent: all") << QByteArray() << true << true << true << true;
    QTest::newRow("all") << QByteArray("all") << true << true << true << true;
    QTest::newRow("none") << QByteArray("none") << true << false << false << false;
    QTest::newRow("empty: none") << QByteArray("") << true << false << false << false;
    QTest::newRow("one kind") << QByteArray("preemption") << true << true << false << false;
    QTest::newRow("two kinds, spaces, case") << QByteArray(" Failure , config ") << true << false << true << true;
    QTest::newRow("unknown kind") << QByteArray("preemption,sms") << false << true << true << true;
}

void TestConfig::readsNotify()
{
    QFETCH(QByteArray, value);
    QFETCH(bool, ok);
    QFETCH(bool, preemption);
    QFETCH(bool, failure);
    QFETCH(bool, configError);
    QByteArray contents = "[defaults]\n";
    if (!value.isNull())
        contents += "notify = " + value + "\n";
    const ConfigLoadResult result = ConfigLoader::parse(contents, QStringLiteral("test.conf"));
    QCOMPARE(result.ok(), ok);
    if (!ok) {
        QCOMPARE(describe(result), QStringList{QStringLiteral("test.conf:2: error: notify: 'sms' is not a kind of "
                                                              "notification: write all, none, or a comma list of "
                                                              "preemption, failure, config")});
        return;
    }
    QCOMPARE(result.config.notify.preemption, preemption);
    QCOMPARE(result.config.notify.failure, failure);
    QCOMPARE(result.config.notify.configError, configError);
}

void TestConfig::readsControlCommands()
{
    const ConfigLoadResult result = ConfigLoader::parse(
        "[process-boinc]\nstart_cmd=boinccmd --set_gpu_mode auto 0\nstop_cmd = boinccmd --set_gpu_mode 'never' 0\n"
        "command_timeout_seconds=45\nservice_programs=boinc, boinc-client,,\ngpus=1\n"
        "[process-miner]\ncmd=miner\n",
        testFile);
    QVERIFY2(result.ok(), qPrintable(describe(result).join(QLatin1Char('\n'))));
    const WorkloadConfig *boinc = result.config.workload(QStringLiteral("process-boinc"));
    QVERIFY(boinc);
    QCOMPARE(boinc->kind(), WorkloadKind::ControlCommands);
    QCOMPARE(boinc->startCmd, QStringLiteral("boinccmd --set_gpu_mode auto 0"));
    QCOMPARE(boinc->startArgv, (QStringList{"boinccmd", "--set_gpu_mode", "auto", "0"}));
    QCOMPARE(boinc->stopArgv, (QStringList{"boinccmd", "--set_gpu_mode", "never", "0"}));
    QVERIFY(boinc->cmd.isEmpty() && boinc->argv.isEmpty());
    QCOMPARE(boinc->commandTimeoutSeconds, 45);
    QCOMPARE(boinc->servicePrograms, (QStringList{"boinc", "boinc-client"}));
    const WorkloadConfig *miner = result.config.workload(QStringLiteral("process-miner"));
    QCOMPARE(miner->kind(), WorkloadKind::Process);
    QCOMPARE(miner->commandTimeoutSeconds, 30); // the default

    // Only on the GPUs of the workload that names them.
    QCOMPARE(result.config.serviceProgramsFor(1).size(), 2);
    QCOMPARE(result.config.serviceProgramsFor(1).first(), (QPair<QString, QString>{"boinc", "process-boinc"}));
    QVERIFY(result.config.serviceProgramsFor(0).isEmpty());

    // A changed command is a changed workload (a lent service is taken back and lent again).
    WorkloadConfig changed = *boinc;
    changed.stopCmd = QStringLiteral("boinccmd --set_gpu_mode never 60");
    QVERIFY(changed.settings() != boinc->settings());
    changed = *boinc;
    changed.commandTimeoutSeconds = 10;
    QVERIFY(changed.settings() != boinc->settings());
}

void TestConfig::refusesFileOfAnotherUser()
{
    if (::geteuid() != 0)
        QSKIP("only root can give a file to another user");
    const QString path = m_dir.filePath(QStringLiteral("theirs.conf"));
    QVERIFY(writeFile(path, "[process-x]\ncmd=sleep 1\n"));
    QCOMPARE(::chown(QFile::encodeName(path).constData(), 65534, 65534), 0);
    const ConfigLoadResult result = ConfigLoader::load(path);
    const passwd *nobody = ::getpwuid(65534);
    QCOMPARE(describe(result), QStringList{refusedMessage(path, QStringLiteral("%1 is owned by %2, not by root")
                                                                    .arg(path, nobody ? QString::fromLocal8Bit(nobody->pw_name)
                                                                                      : QStringLiteral("uid 65534")))});
}

void TestConfig::doesNotBlockOnFifo()
{
    const QString fifo = m_dir.filePath(QStringLiteral("fifo.conf"));
    QCOMPARE(::mkfifo(QFile::encodeName(fifo).constData(), 0600), 0);
    const ConfigLoadResult result = ConfigLoader::load(fifo); // would hang here if it opened the FIFO blocking
    QCOMPARE(describe(result), QStringList{fifo + ": error: cannot read this file: " + fifo + " is not a regular file"});
}

void TestConfig::seesRewriteWithinSameTick()
{
    // A rewrite of the same size within one clock tick must be seen: no cache by path, size and modification
    // time (as QSettings keeps) stands between the file and the config.
    const QString path = m_dir.filePath(QStringLiteral("rewritten.conf"));
    for (int round = 1; round <= 9; ++round) {
        QVERIFY(writeFile(path, QStringLiteral("[defaults]\ninterval_seconds=%1\n").arg(round).toUtf8()));
        const ConfigLoadResult result = ConfigLoader::load(path);
        QCOMPARE(describe(result), QStringList{});
        QCOMPARE(result.config.intervalSeconds, round);
    }
}

// The file is parsed once, from the bytes read: no copy of it is written anywhere, so a full or broken temporary
// folder does not make a valid config unreadable. (TMPDIR names a file: nothing can be created there, even by
// root, who may write in any folder.)
void TestConfig::readsWithoutTemporaryFile()
{
    const QString path = m_dir.filePath(QStringLiteral("no-temp.conf"));
    QVERIFY(writeFile(path, "[defaults]\ninterval_seconds=7\n\n[process-a]\ncmd=miner --pool \"a:1\" -u x,y\n"));
    const QString notAFolder = m_dir.filePath(QStringLiteral("tmp-is-a-file"));
    QVERIFY(writeFile(notAFolder, QByteArray()));
    const ScopedEnv tmpdir("TMPDIR", QFile::encodeName(notAFolder));
    QCOMPARE(QDir::tempPath(), QFileInfo(notAFolder).canonicalFilePath());
    const ConfigLoadResult result = ConfigLoader::load(path, notRoot());
    QCOMPARE(describe(result), QStringList{});
    QCOMPARE(result.config.intervalSeconds, 7);
    QCOMPARE(result.config.workloads.size(), 1);
    QCOMPARE(result.config.workloads.at(0).cmd, QStringLiteral("miner --pool \"a:1\" -u x,y"));
}

void TestConfig::survivesGarbage()
{
    QRandomGenerator random(20261105); // fixed seed: a failure can be replayed
    const QByteArray alphabet("[]=:;#\n\r\t ab-\\\"'%\x00\xC3\xA9\xFF", 22);
    const QByteArray example = [] {
        QFile file(QStringLiteral(IDLEGPU_TEST_DATA "/gpu_mon_example_all.conf"));
        return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
    }();
    QVERIFY(!example.isEmpty());
    for (int round = 0; round < 300; ++round) {
        QByteArray contents;
        if (round % 2 == 0) {
            const int size = random.bounded(400);
            for (int i = 0; i < size; ++i)
                contents.append(alphabet.at(random.bounded(int(alphabet.size()))));
        } else {
            // The example with a few bytes changed.
            contents = example;
            for (int flips = random.bounded(1, 6); flips > 0; --flips)
                contents[random.bounded(int(contents.size()))] = alphabet.at(random.bounded(int(alphabet.size())));
        }
        const ConfigLoadResult result = ConfigLoader::parse(contents, testFile);
        for (const ConfigDiagnostic &diagnostic : result.diagnostics) {
            QVERIFY(!diagnostic.message.isEmpty());
            QVERIFY(diagnostic.line >= 0 && diagnostic.line <= contents.count('\n') + contents.count('\r') + 1);
        }
        if (result.ok())
            QVERIFY(result.config.intervalSeconds >= 1 && result.config.intervalSeconds <= 3600);
    }
}

void TestConfig::capsDiagnostics()
{
    QByteArray garbage;
    for (int i = 0; i < 5000; ++i)
        garbage += "[defaults]\nnonsense\n";
    ConfigLoadResult result = ConfigLoader::parse(garbage, testFile);
    QVERIFY(!result.ok());
    QCOMPARE(result.diagnostics.size(), 101);
    QCOMPARE(result.diagnostics.last().toString(), QStringLiteral("test.conf: error: 9899 more problems not shown"));

    QByteArray unknownKeys("[defaults]\n");
    for (int i = 0; i < 300; ++i)
        unknownKeys += "k" + QByteArray::number(i) + "=1\n";
    unknownKeys += "interval_seconds=0\n";
    result = ConfigLoader::parse(unknownKeys, testFile);
    QVERIFY2(!result.ok(), "an error past the cap must still count");
    QCOMPARE(result.diagnostics.size(), 201);
    QCOMPARE(result.diagnostics.last().toString(),
             QStringLiteral("test.conf: error: 1 more error and 100 more warnings not shown"));
}

// The reader goes by the key table's rows; a user fixes a file from the top: the messages come in the file's order.
void TestConfig::diagnosticsInFileOrder()
{
    const ConfigLoadResult result = ConfigLoader::parse("[defaults]\n"
                                                        "max_temperature_c = 400\n"
                                                        "interval_seconds = soon\n"
                                                        "bogus = 1\n"
                                                        "[process-x]\n"
                                                        "gpus = 0,x\n"
                                                        "cmd = sleep 1\n"
                                                        "user = nobody\n",
                                                        testFile);
    QList<int> lines;
    for (const ConfigDiagnostic &diagnostic : result.diagnostics)
        lines.append(diagnostic.line);
    // Who runs the test decides whether user= adds a message of its own: the others are fixed.
    for (int line : {2, 3, 4, 6})
        QVERIFY2(lines.contains(line), qPrintable(QStringLiteral("no message about line %1").arg(line)));
    QVERIFY2(std::is_sorted(lines.begin(), lines.end()), qPrintable(QDebug::toString(lines)));
}

// A typo gets the nearest key of its section where one is close; a misspelt ignore_programs says what it costs.
void TestConfig::suggestsNearestKey_data()
{
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<QString>("expected");
    QTest::newRow("ignore_programs, the group's list lost")
        << QByteArray("[gpu-all]\ngpus = ALL\nignore_program = nvtop, blender\n")
        << "test.conf:3: warning: unknown key 'ignore_program' in [gpu-all] ignored: did you mean ignore_programs? "
           "Without it, the built-in ignore list applies to this group's GPUs, not the programs this line names";
    QTest::newRow("ignore_programs given as well")
        << QByteArray("[gpu-0]\ngpus = 0\nignore_programs = nvtop\nignroe_programs = blender\n")
        << "test.conf:4: warning: unknown key 'ignroe_programs' in [gpu-0] ignored: did you mean ignore_programs?";
    QTest::newRow("a workload's key") << QByteArray("[process-a]\ncmd = x\ngpu = 0\n")
                                      << "test.conf:3: warning: unknown key 'gpu' in [process-a] ignored: did you mean "
                                         "gpus?";
    QTest::newRow("of its own section only") << QByteArray("[defaults]\nwhitelist = alice\n")
                                             << "test.conf:2: warning: unknown key 'whitelist' in [defaults] ignored";
    QTest::newRow("nothing close") << QByteArray("[defaults]\ncolour = blue\n")
                                   << "test.conf:2: warning: unknown key 'colour' in [defaults] ignored";
}

void TestConfig::suggestsNearestKey()
{
    QFETCH(QByteArray, contents);
    QFETCH(QString, expected);
    QCOMPARE(describe(ConfigLoader::parse(contents, testFile, notRoot())), QStringList{expected});
}

// Problems from the reader and from WorkloadChecks, merged: by file, then by line, a whole file's last.
void TestConfig::sortsProblemsByFileThenLine()
{
    QList<ConfigDiagnostic> problems{{ConfigDiagnostic::Warning, QStringLiteral("b.conf"), 3, QStringLiteral("b3")},
                                     {ConfigDiagnostic::Error, QStringLiteral("a.conf"), 0, QStringLiteral("a0")},
                                     {ConfigDiagnostic::Warning, QStringLiteral("a.conf"), 12, QStringLiteral("a12")},
                                     {ConfigDiagnostic::Error, QStringLiteral("a.conf"), 2, QStringLiteral("a2")},
                                     {ConfigDiagnostic::Warning, QStringLiteral("b.conf"), 1, QStringLiteral("b1")}};
    sortProblemsByLine(&problems);
    QStringList order;
    for (const ConfigDiagnostic &problem : problems)
        order.append(problem.message);
    QCOMPARE(order, (QStringList{"a2", "a12", "a0", "b1", "b3"}));
}

// What this machine says of a workload, as the dialog and --check-config both ask it: a program not found is a
// warning; what fails the start for sure is an error, on the line of its key.
void TestConfig::workloadChecks_data()
{
    QTest::addColumn<QString>("section");      // DIR: a folder of the test's own
    QTest::addColumn<QStringList>("expected"); // "line severity kind subject"

    QTest::newRow("fine") << "cmd = sh -c true\ndir = DIR\nlog = DIR/w.log\n" << QStringList{};
    QTest::newRow("program not in PATH") << "cmd = no-such-program-4711 --x\n"
                                         << QStringList{"2 warning ProgramNotInPath no-such-program-4711"};
    QTest::newRow("program on its own PATH") << "cmd = own-program\nenv = PATH=DIR/bin\n" << QStringList{};
    QTest::newRow("its own PATH without it") << "cmd = sh -c true\nenv = PATH=DIR/bin\n"
                                             << QStringList{"2 warning ProgramNotInPath sh"};
    QTest::newRow("program path missing") << "cmd = /no/such/program\n"
                                          << QStringList{"2 warning ProgramNotFound /no/such/program"};
    QTest::newRow("program not executable") << "cmd = DIR/not-a-program\n"
                                            << QStringList{"2 error NotExecutable DIR/not-a-program"};
    QTest::newRow("relative to its folder") << "dir = DIR/bin\ncmd = ./own-program\n" << QStringList{};
    QTest::newRow("folder missing") << "cmd = sh -c true\ndir = /no/such/folder\n"
                                    << QStringList{"3 error NoFolder /no/such/folder"};
    QTest::newRow("log folder missing") << "cmd = sh -c true\nlog = /no/such/folder/w.log\n"
                                        << QStringList{"3 error NoLogFolder /no/such/folder"};
    QTest::newRow("log is a folder") << "cmd = sh -c true\nlog = DIR\n" << QStringList{"3 error LogIsFolder DIR"};
    QTest::newRow("disabled: looked at once enabled")
        << "cmd = /no/such/program\ndir = /no/such/folder\nenabled = false\n"
        << QStringList{};
    QTest::newRow("both commands of a service")
        << "start_cmd = no-such-start\nstop_cmd = DIR/not-a-program\n"
        << QStringList{"2 warning ProgramNotInPath no-such-start", "3 error NotExecutable DIR/not-a-program"};
}

void TestConfig::workloadChecks()
{
    QFETCH(QString, section);
    QFETCH(QStringList, expected);
    QTemporaryDir dir;
    QVERIFY(QDir(dir.path()).mkpath(QStringLiteral("bin")));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("bin/own-program")), "#!/bin/sh\n"));
    QVERIFY(QFile::setPermissions(dir.filePath(QStringLiteral("bin/own-program")),
                                  QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    QVERIFY(writeFile(dir.filePath(QStringLiteral("not-a-program")), "data\n"));
    section.replace(QStringLiteral("DIR"), dir.path());
    expected.replaceInStrings(QStringLiteral("DIR"), dir.path());

    const IniDocument file = IniDocument::parse(QStringLiteral("[process-w]\n%1").arg(section).toUtf8());
    const ConfigLoadResult result = ConfigLoader::read(file, testFile, fakeUsers(1000));
    QCOMPARE(result.config.workloads.size(), 1);
    QStringList found;
    const QMetaEnum kinds = QMetaEnum::fromType<WorkloadProblem::Kind>();
    for (const WorkloadProblem &problem :
         WorkloadChecks::machineProblems(result.config.workloads.first(), fakeUsers(1000), &file)) {
        found.append(QStringLiteral("%1 %2 %3 %4")
                         .arg(problem.line)
                         .arg(problem.severity == ConfigDiagnostic::Error ? "error" : "warning")
                         .arg(QLatin1String(kinds.valueToKey(problem.kind)))
                         .arg(problem.subject));
        QVERIFY2(problem.message.startsWith(QStringLiteral("[process-w] %1: ").arg(problem.key)),
                 qPrintable(problem.message));
    }
    QCOMPARE(found, expected);
}

// As root for another user: that user's permissions, not root's, and the login PATH, not idlegpu's.
void TestConfig::workloadChecksPermissionsOfItsUser()
{
    QTemporaryDir dir;
    const QString program = dir.filePath(QStringLiteral("owners-only"));
    QVERIFY(writeFile(program, "#!/bin/sh\n"));
    QVERIFY(QFile::setPermissions(program, QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner));
    QVERIFY(QFile::setPermissions(dir.path(), QFile::ReadOwner | QFile::WriteOwner | QFile::ExeOwner | QFile::ExeGroup
                                                  | QFile::ExeOther));
    const QFileInfo owner(program);
    const uint other = owner.ownerId() == 4242 ? 4243 : 4242;
    UserLookup users;
    users.effectiveUid = 0;
    users.find = [other](const QString &name) -> std::optional<UserAccount> {
        if (name != QLatin1String("carol"))
            return std::nullopt;
        return UserAccount{QStringLiteral("carol"), other, other, QStringLiteral("/"), QStringLiteral("/bin/sh")};
    };
    const ConfigLoadResult result = ConfigLoader::parse(
        QStringLiteral("[process-w]\nuser = carol\ncmd = %1\nlog = %2/w.log\n").arg(program, dir.path()).toUtf8(),
        testFile, users);
    QList<WorkloadProblem::Kind> kinds;
    for (const WorkloadProblem &problem : WorkloadChecks::machineProblems(result.config.workloads.first(), users))
        kinds.append(problem.kind);
    QCOMPARE(kinds, (QList<WorkloadProblem::Kind>{WorkloadProblem::NotExecutable, WorkloadProblem::LogFolderClosed}));
    // idlegpu's own user may run it and write there: what the dialog checked before, for whoever ran it.
    QVERIFY(WorkloadChecks::userMayAccess(program, X_OK));
    QVERIFY(WorkloadChecks::userMayAccess(dir.path(), W_OK | X_OK));
}

void TestConfig::locatesOverride()
{
    const ConfigLoader::Location location = ConfigLoader::locate(m_dir.filePath(QStringLiteral("given.conf")));
    QCOMPARE(location.path, m_dir.filePath(QStringLiteral("given.conf")));
    QVERIFY(!location.usedLegacy);

    QVERIFY(QDir::setCurrent(m_dir.path()));
    QCOMPARE(ConfigLoader::locate(QStringLiteral("relative.conf")).path,
             m_dir.filePath(QStringLiteral("relative.conf")));
}

void TestConfig::locatesNewFileFirst()
{
    QTemporaryDir home;
    QTemporaryDir xdg;
    const ScopedEnv homeEnv("HOME", QFile::encodeName(home.path()));
    const ScopedEnv xdgEnv("XDG_CONFIG_HOME", QFile::encodeName(xdg.path()));
    const QString current = xdg.filePath(QStringLiteral("idlegpu/idlegpu.conf"));
    const QString legacy = xdg.filePath(QStringLiteral("gpu_mon.conf"));

    // Neither exists: the new one, to be created.
    ConfigLoader::Location location = ConfigLoader::locate(QString());
    QCOMPARE(location.path, current);
    QVERIFY(!location.usedLegacy);

    QVERIFY(QDir(xdg.path()).mkpath(QStringLiteral("idlegpu")));
    QVERIFY(writeFile(current, "[defaults]\n"));
    QVERIFY(writeFile(legacy, "[defaults]\n"));
    location = ConfigLoader::locate(QString());
    QCOMPARE(location.path, current);
    QVERIFY(!location.usedLegacy);
}

void TestConfig::locatesLegacyFile()
{
    QTemporaryDir xdg;
    const ScopedEnv xdgEnv("XDG_CONFIG_HOME", QFile::encodeName(xdg.path()));
    const QString legacy = xdg.filePath(QStringLiteral("gpu_mon.conf"));
    QVERIFY(writeFile(legacy, "[defaults]\n"));
    QTest::ignoreMessage(QtInfoMsg, QRegularExpression(QStringLiteral("^Using gpu_mon's config file ")
                                                       + QRegularExpression::escape(legacy)));
    const ConfigLoader::Location location = ConfigLoader::locate(QString());
    QCOMPARE(location.path, legacy);
    QVERIFY(location.usedLegacy);
}

void TestConfig::locatesWithoutXdgConfigHome()
{
    QTemporaryDir home;
    const ScopedEnv homeEnv("HOME", QFile::encodeName(home.path()));
    {
        const ScopedEnv xdgEnv("XDG_CONFIG_HOME", QByteArray());
        QCOMPARE(ConfigLoader::locate(QString()).path, home.filePath(QStringLiteral(".config/idlegpu/idlegpu.conf")));
    }
    {
        // A relative XDG_CONFIG_HOME is invalid by the spec and ignored.
        const ScopedEnv xdgEnv("XDG_CONFIG_HOME", "relative/config");
        QCOMPARE(ConfigLoader::locate(QString()).path, home.filePath(QStringLiteral(".config/idlegpu/idlegpu.conf")));
    }
    const QString legacy = home.filePath(QStringLiteral(".config/gpu_mon.conf"));
    QVERIFY(QDir(home.path()).mkpath(QStringLiteral(".config")));
    QVERIFY(writeFile(legacy, "[defaults]\n"));
    const ScopedEnv xdgEnv("XDG_CONFIG_HOME", QByteArray());
    QTest::ignoreMessage(QtInfoMsg, QRegularExpression(QStringLiteral("^Using gpu_mon's config file ")));
    const ConfigLoader::Location location = ConfigLoader::locate(QString());
    QCOMPARE(location.path, legacy);
    QVERIFY(location.usedLegacy);
}

QTEST_GUILESS_MAIN(TestConfig)
#include "tst_config.moc"
