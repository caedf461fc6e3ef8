// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// idlegpu-slurm-guard, the small program that the build's links idlegpu-slurm-prolog and idlegpu-slurm-health name
// (app/slurmguard.h): it maps no GUI library (ldd lists no libQt6Gui, Widgets or DBus: slurmd starts it at every job),
// and run through its links with slurmd's environment it says what idlegpu --slurm-prolog and --slurm-health say:
// the same exit status and the same lines on stderr, over a heartbeat in a runtime folder of the test's own (no
// heartbeat, the job's GPU lent, held for its owner, in use by a process idlegpu did not count, idlegpu stopped). The
// Slurm clients are the machine's, over an empty slurm.conf, which each refuses at once (or absent: "no scontrol in").
#include "base/clock.h"
#include "slurm/guardfile.h"
#include "testsupport.h"

#include <QDir>
#include <QFileInfo>
#include <QProcess>
#include <QTemporaryDir>
#include <QTest>

#include <unistd.h>

using namespace TestSupport;

namespace {

const QString kBin = QFileInfo(QStringLiteral(IDLEGPU_BINARY)).path();

struct HookRun
{
    int exitCode = -1;
    QString errors; // its stderr
};

} // namespace

class TestSlurmGuardProgram : public QObject
{
    Q_OBJECT

    // slurmd's environment for lab job 12 on GPU 0 of node ws0, and the heartbeat's folder.
    QProcessEnvironment slurmdEnvironment(const QTemporaryDir &dir) const
    {
        QProcessEnvironment environment;
        environment.insert(QStringLiteral("RUNTIME_DIRECTORY"), dir.filePath(QStringLiteral("run")));
        environment.insert(QStringLiteral("SLURMD_NODENAME"), QStringLiteral("ws0"));
        environment.insert(QStringLiteral("SLURM_JOB_ID"), QStringLiteral("12"));
        environment.insert(QStringLiteral("SLURM_JOB_PARTITION"), QStringLiteral("scavenger"));
        environment.insert(QStringLiteral("SLURM_JOB_GPUS"), QStringLiteral("0"));
        environment.insert(QStringLiteral("SLURM_CONF"), writeFile(dir.filePath(QStringLiteral("slurm.conf")), ""));
        environment.insert(QStringLiteral("LANG"), QStringLiteral("C.UTF-8"));
        return environment;
    }
    static HookRun runHook(const QString &program, const QStringList &arguments, const QProcessEnvironment &environment)
    {
        QProcess process;
        process.setProcessEnvironment(environment);
        process.setStandardInputFile(QProcess::nullDevice());
        process.start(program, arguments);
        if (!process.waitForFinished(60'000) || process.exitStatus() != QProcess::NormalExit)
            return {};
        return {process.exitCode(), QString::fromUtf8(process.readAllStandardError())};
    }

private Q_SLOTS:
    void linksNameTheSmallProgram()
    {
        for (const char *link : {"/idlegpu-slurm-prolog", "/idlegpu-slurm-health"}) {
            const QFileInfo info(kBin + QLatin1String(link));
            QVERIFY2(info.isSymLink(), qPrintable(info.filePath()));
            QCOMPARE(info.symLinkTarget(), kBin + QStringLiteral("/idlegpu-slurm-guard"));
        }
    }

    void mapsNoGuiLibrary_data()
    {
        QTest::addColumn<QString>("program");
        QTest::newRow("idlegpu-slurm-guard") << kBin + QStringLiteral("/idlegpu-slurm-guard");
        QTest::newRow("idlegpu-slurm-prolog") << kBin + QStringLiteral("/idlegpu-slurm-prolog");
        QTest::newRow("idlegpu-slurm-health") << kBin + QStringLiteral("/idlegpu-slurm-health");
    }

    void mapsNoGuiLibrary()
    {
        QFETCH(QString, program);
        QProcess ldd;
        ldd.start(QStringLiteral("ldd"), {program});
        QVERIFY(ldd.waitForFinished());
        QCOMPARE(ldd.exitCode(), 0);
        const QString libraries = QString::fromUtf8(ldd.readAllStandardOutput());
        QVERIFY2(libraries.contains(QLatin1String("libQt6Core.so")), qPrintable(libraries));
        for (const char *gui : {"libQt6Gui", "libQt6Widgets", "libQt6DBus"})
            QVERIFY2(!libraries.contains(QLatin1String(gui)), qPrintable(libraries));
    }

    void sameAsIdlegpu_data()
    {
        QTest::addColumn<QString>("heartbeat");
        QTest::addColumn<int>("prologStatus"); // as root; as another user no heartbeat is trusted: 1, 0
        QTest::addColumn<QString>("prologSays");
        QTest::addColumn<QString>("healthSays");
        const QString notRunning = QStringLiteral("idlegpu: not running on ws0 (");
        QTest::newRow("no heartbeat") << "none" << 1 << notRunning + QStringLiteral("no ")
                                      << notRunning + QStringLiteral("no ");
        QTest::newRow("the job's GPU lent") << "lent" << 0 << QString() << QString();
        // Slurm answers neither the requeue nor the cancel (its empty slurm.conf): drained.
        QTest::newRow("held for its owner")
            << "held" << 1 << QStringLiteral("idlegpu: GPU 0 of ws0 is held for its owner") << QString();
        QTest::newRow("in use by a process idlegpu did not count")
            << "used" << 1 << QStringLiteral("idlegpu: GPU 0 of ws0 is in use by pid ") << QString();
        QTest::newRow("idlegpu stopped") << "stopped" << 1 << notRunning + QStringLiteral("it stopped at ")
                                         << notRunning + QStringLiteral("it stopped at ");
    }

    void sameAsIdlegpu()
    {
        QFETCH(QString, heartbeat);
        QFETCH(int, prologStatus);
        QFETCH(QString, prologSays);
        QFETCH(QString, healthSays);
        QTemporaryDir dir;
        QVERIFY(dir.isValid());
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("run")));
        const QProcessEnvironment environment = slurmdEnvironment(dir);
        FakeDevRoot dev(2);
        std::unique_ptr<NodeHolder> holder;
        if (heartbeat == QLatin1String("used")) {
            holder = std::make_unique<NodeHolder>(dev.computeJob(0), QStringLiteral("python3"));
            QVERIFY(holder->waitUntilOpen());
        }
        const auto writeHeartbeat = [&] {
            if (heartbeat == QLatin1String("none"))
                return;
            SlurmGuard::Heartbeat written = SlurmGuard::selfHeartbeat();
            written.node = QStringLiteral("ws0");
            written.partition = QStringLiteral("owner");
            written.gpus = {{0, dev.node(0), heartbeat != QLatin1String("held"), {}}, {1, dev.node(1), true, {}}};
            written.monotonicMs = SystemClock::instance()->nowMs();
            written.writtenAt = QStringLiteral("2026-12-04T06:00:00.000Z");
            written.stopped = heartbeat == QLatin1String("stopped");
            QVERIFY(SlurmGuard::GuardFile(dir.filePath(QStringLiteral("run"))).write(written));
        };
        const bool root = ::geteuid() == 0;
        for (const bool prolog : {true, false}) {
            const QString option = prolog ? QStringLiteral("--slurm-prolog") : QStringLiteral("--slurm-health");
            const QString link = kBin
                                 + (prolog ? QStringLiteral("/idlegpu-slurm-prolog")
                                           : QStringLiteral("/idlegpu-slurm-health"));
            writeHeartbeat(); // current for each pair of runs: a run of idlegpu may take a few hundred ms
            const HookRun big = runHook(QStringLiteral(IDLEGPU_BINARY), {option}, environment);
            writeHeartbeat();
            const HookRun small = runHook(link, {}, environment);
            qInfo("%s: exit %d, %s", qPrintable(option), small.exitCode, qPrintable(small.errors.trimmed()));
            QCOMPARE(small.exitCode, big.exitCode);
            QCOMPARE(small.errors, big.errors);
            if (!root) {
                QCOMPARE(small.exitCode, prolog ? 1 : 0);
                QVERIFY2(small.errors.startsWith(QLatin1String("idlegpu: not running on ws0 (")),
                         qPrintable(small.errors));
                continue;
            }
            QCOMPARE(small.exitCode, prolog ? prologStatus : 0);
            const QString says = prolog ? prologSays : healthSays;
            if (says.isEmpty())
                QCOMPARE(small.errors, QString());
            else
                QVERIFY2(small.errors.startsWith(says), qPrintable(small.errors));
        }
    }

    // Called by another name and without an option it names its usage; with one it serves that hook.
    void usage()
    {
        const HookRun none = runHook(kBin + QStringLiteral("/idlegpu-slurm-guard"), {}, QProcessEnvironment());
        QCOMPARE(none.exitCode, 2);
        QVERIFY2(none.errors.startsWith(QLatin1String("Usage: idlegpu-slurm-guard --slurm-prolog | --slurm-health")),
                 qPrintable(none.errors));
        QTemporaryDir dir;
        QVERIFY(QDir(dir.path()).mkdir(QStringLiteral("run")));
        const QProcessEnvironment environment = slurmdEnvironment(dir);
        const HookRun health = runHook(kBin + QStringLiteral("/idlegpu-slurm-guard"),
                                       {QStringLiteral("--slurm-health")}, environment);
        QCOMPARE(health.exitCode, 0);
        QVERIFY2(health.errors.startsWith(QLatin1String("idlegpu: not running on ws0 (no ")),
                 qPrintable(health.errors));
    }
};

QTEST_GUILESS_MAIN(TestSlurmGuardProgram)
#include "tst_it_slurmguardprogram.moc"
