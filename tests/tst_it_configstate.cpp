// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// Two configurations, each run by the real binary (idlegpu --headless --config, as root under CI), with one state
// folder ($XDG_STATE_HOME, as /var/lib/idlegpu is root's): each keeps its own pause and its own ledger
// (ConfigStateFolder), so a pause kept for one never holds the other back, and one's history never shows in the
// other's ledger or --status.
#include "testsupport.h"

#include <QDirIterator>
#include <QProcess>
#include <QTemporaryDir>
#include <QtTest>

#include <signal.h>

using namespace TestSupport;

class TestConfigState : public QObject
{
    Q_OBJECT

private:
    QTemporaryDir m_dir;
    std::unique_ptr<FakeDevRoot> m_dev;

    QString statePath() const { return m_dir.filePath(QStringLiteral("state")); }
    QString pidPath(const QString &workload) const { return m_dir.filePath(workload + QStringLiteral(".pid")); }

    // The config `<workload>.conf`: the workload [process-<workload>] on `gpu`, which writes its pid when it runs.
    QString writeConfig(const QString &workload, int gpu) const
    {
        const QString body = defaultsSection(m_dev->path())
                             + QStringLiteral("[process-%1]\ncmd=sh -c 'echo $$ > %2; exec sleep 1000'\ngpus=%3\n"
                                              "stop_timeout_seconds=2\n")
                                   .arg(workload, pidPath(workload))
                                   .arg(gpu);
        return writeFile(m_dir.filePath(workload + QStringLiteral(".conf")), body.toUtf8());
    }

    QProcessEnvironment environment() const
    {
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_STATE_HOME"), statePath());
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_dir.filePath(QStringLiteral("run")));
        env.insert(QStringLiteral("RUNTIME_DIRECTORY"), m_dir.filePath(QStringLiteral("run"))); // root's lock
        env.insert(QStringLiteral("IDLEGPU_BUS"), QStringLiteral("none"));
        env.remove(QStringLiteral("STATE_DIRECTORY"));
        return env;
    }

    std::unique_ptr<QProcess> start(const QStringList &arguments) const
    {
        auto process = std::make_unique<QProcess>();
        process->setProcessEnvironment(environment());
        process->setProcessChannelMode(QProcess::MergedChannels);
        process->start(QStringLiteral(IDLEGPU_BINARY), arguments);
        return process;
    }

    // Ends an idlegpu as systemd does and returns its output; it must exit 0.
    static QByteArray stop(QProcess &idlegpu)
    {
        ::kill(pid_t(idlegpu.processId()), SIGTERM);
        const bool finished = idlegpu.waitForFinished(15000);
        const QByteArray output = idlegpu.readAll();
        if (!finished || idlegpu.exitStatus() != QProcess::NormalExit || idlegpu.exitCode() != 0)
            qWarning("idlegpu did not end cleanly: %s", output.constData());
        return output;
    }

    // Every file named `name` under the state folder, sorted.
    QStringList filesNamed(const QString &name) const
    {
        QStringList found;
        QDirIterator it(statePath(), {name}, QDir::Files | QDir::Hidden, QDirIterator::Subdirectories);
        while (it.hasNext())
            found.append(it.next());
        found.sort();
        return found;
    }

    bool runs(const QString &workload) const
    {
        const qint64 pid = pidFromFile(pidPath(workload));
        return pid > 0 && processAlive(pid);
    }

private Q_SLOTS:
    void initTestCase()
    {
        QVERIFY(m_dir.isValid());
        QVERIFY(QDir().mkpath(m_dir.filePath(QStringLiteral("run"))));
        QFile::setPermissions(m_dir.filePath(QStringLiteral("run")),
                              QFileDevice::ReadOwner | QFileDevice::WriteOwner | QFileDevice::ExeOwner);
        m_dev = std::make_unique<FakeDevRoot>(2);
    }

    // A's pause, kept in its state, holds A back and not B; each ledger has its own workload's time only, and
    // --status --config B shows B's.
    void pauseAndLedgerStayWithTheirConfig()
    {
        const QString alpha = writeConfig(QStringLiteral("alpha"), 0);
        const QString beta = writeConfig(QStringLiteral("beta"), 1);

        // A runs its workload a moment and keeps its ledger.
        {
            auto a = start({QStringLiteral("--headless"), QStringLiteral("--config"), alpha});
            QVERIFY2(QTest::qWaitFor([&] { return runs(QStringLiteral("alpha")); }, 10000), a->readAll().constData());
            QTest::qWait(300); // the workload's time in the ledger
            stop(*a);
        }
        const QStringList afterA = filesNamed(QStringLiteral("ledger.json"));
        QCOMPARE(afterA.size(), 1);
        const QString alphaFolder = QFileInfo(afterA.first()).absolutePath();
        QVERIFY2(readFileOrEmpty(afterA.first()).contains("alpha"), readFileOrEmpty(afterA.first()).constData());

        // A's pause, as A saves it when paused until resumed.
        const QString alphaPause = writeFile(alphaFolder + QStringLiteral("/state.ini"), "[pause]\nall=true\n");
        QFile::setPermissions(alphaPause, QFileDevice::ReadOwner | QFileDevice::WriteOwner);

        // B is not paused by A's pause, and starts a ledger of its own.
        {
            auto b = start({QStringLiteral("--headless"), QStringLiteral("--config"), beta});
            const bool started = QTest::qWaitFor([&] { return runs(QStringLiteral("beta")); }, 10000);
            const QByteArray output = started ? stop(*b) : (stop(*b), b->readAll());
            QVERIFY2(started, qPrintable(QStringLiteral("B's workload did not start (paused by A's pause?): ")
                                         + QString::fromUtf8(output)));
        }
        const QStringList ledgers = filesNamed(QStringLiteral("ledger.json"));
        QCOMPARE(ledgers.size(), 2);
        const QString betaLedger = ledgers.at(ledgers.at(0) == afterA.first() ? 1 : 0);
        QVERIFY(QFileInfo(betaLedger).absolutePath() != alphaFolder);
        const QByteArray betaHistory = readFileOrEmpty(betaLedger);
        QVERIFY2(betaHistory.contains("beta") && !betaHistory.contains("alpha"), betaHistory.constData());
        QVERIFY(!readFileOrEmpty(afterA.first()).contains("beta"));
        QCOMPARE(readFileOrEmpty(alphaPause), QByteArray("[pause]\nall=true\n")); // B left A's pause alone

        // B's folder is private and says whose it is.
        const QString betaFolder = QFileInfo(betaLedger).absolutePath();
        QCOMPARE(modeOf(betaFolder), 0700);
        QCOMPARE(readFileOrEmpty(betaFolder + QStringLiteral("/config-path")).trimmed(),
                 QFileInfo(beta).canonicalFilePath().toUtf8());

        // A, started again, keeps its own pause.
        {
            QFile::remove(pidPath(QStringLiteral("alpha")));
            auto a = start({QStringLiteral("--headless"), QStringLiteral("--config"), alpha});
            QVERIFY(a->waitForStarted());
            QVERIFY2(!QTest::qWaitFor([&] { return runs(QStringLiteral("alpha")); }, 3000),
                     "A's workload started although A's pause was kept");
            stop(*a);
        }

        // --status of B (its own look) reads B's ledger, not A's.
        auto status = start({QStringLiteral("--status"), QStringLiteral("--json"), QStringLiteral("--config"), beta});
        QVERIFY(status->waitForFinished(15000));
        const QByteArray json = status->readAll();
        QCOMPARE(status->exitCode(), 0);
        QVERIFY2(json.contains("\"beta\"") && !json.contains("alpha"), json.constData());
    }
};

QTEST_GUILESS_MAIN(TestConfigState)
#include "tst_it_configstate.moc"
