// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// Attacks of a local user on the config of a root idlegpu: a config reached through a folder the user controls
// (a link swapped with renameat2(RENAME_EXCHANGE) in time with the reloads), a config read half-written, and a
// continuation line that hides a user= key. Each runs for real as root, against a user made for the test.
#include "config/config.h"
#include "monitor.h"
#include "run/processrunner.h"
#include "testsupport.h"

#include <QProcess>
#include <QSignalSpy>
#include <QTemporaryDir>
#include <QtTest>

#include <fcntl.h>
#include <grp.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <linux/fs.h>

using namespace TestSupport;

namespace {

QByteArray encoded(const QString &path)
{
    return QFile::encodeName(path);
}

// What a config of the test holds before its workloads: the fake GPUs, and a start as soon as a GPU is free.
QByteArray defaultsFor(const FakeDevRoot &dev)
{
    return defaultsSection(dev.path()).toUtf8();
}

QString diagnosticsText(const QList<ConfigDiagnostic> &diagnostics)
{
    QStringList lines;
    for (const ConfigDiagnostic &diagnostic : diagnostics)
        lines.append(diagnostic.toString());
    return lines.join(QLatin1Char('\n'));
}

// A process of `uid` that swaps the entries `a` and `b` of a folder with renameat2(RENAME_EXCHANGE) as fast as it
// can, until it is killed: the user's side of the race against a check by path followed by an open by path.
class LinkSwapper
{
public:
    LinkSwapper(const QString &a, const QString &b, uid_t uid, gid_t gid)
    {
        const QByteArray first = encoded(a), second = encoded(b);
        m_pid = ::fork();
        if (m_pid == 0) { // only system calls from here: the parent has threads
            ::prctl(PR_SET_PDEATHSIG, SIGKILL);
            if (::setgroups(0, nullptr) != 0 || ::setresgid(gid, gid, gid) != 0 || ::setresuid(uid, uid, uid) != 0)
                ::_exit(3);
            for (;;)
                ::syscall(SYS_renameat2, AT_FDCWD, first.constData(), AT_FDCWD, second.constData(), RENAME_EXCHANGE);
        }
    }
    ~LinkSwapper() { stop(); }
    bool started() const { return m_pid > 0; }
    void stop()
    {
        if (m_pid <= 0)
            return;
        ::kill(m_pid, SIGKILL);
        ::waitpid(m_pid, nullptr, 0);
        m_pid = -1;
    }

private:
    pid_t m_pid = -1;
};

} // namespace

class TestSecurityConfig : public QObject
{
    Q_OBJECT

private:
    QString binary() const { return QStringLiteral(IDLEGPU_BINARY); }

    // The real idlegpu with `arguments`, its lock and ledger in the test's folder; its exit code (-1 when it was
    // still running after timeoutMs and was killed) and what it printed.
    int runIdlegpu(const QStringList &arguments, QByteArray *output, int timeoutMs = 15000)
    {
        QProcess process;
        process.setProgram(binary());
        process.setArguments(arguments);
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.insert(QStringLiteral("XDG_RUNTIME_DIR"), m_root->path());
        env.insert(QStringLiteral("XDG_STATE_HOME"), m_root->path());
        process.setProcessEnvironment(env);
        process.setProcessChannelMode(QProcess::MergedChannels);
        process.start();
        if (!process.waitForFinished(timeoutMs)) {
            process.kill();
            process.waitForFinished(5000);
            *output = process.readAll();
            return -1;
        }
        *output = process.readAll();
        return process.exitStatus() == QProcess::NormalExit ? process.exitCode() : -1;
    }

    // The lines a workload wrote with `id -u` into `path`, as uids.
    static QList<int> uidsIn(const QString &path)
    {
        QFile file(path);
        QList<int> uids;
        if (!file.open(QIODevice::ReadOnly))
            return uids;
        for (const QByteArray &line : file.readAll().split('\n'))
            if (!line.trimmed().isEmpty())
                uids.append(line.trimmed().toInt());
        return uids;
    }

    std::unique_ptr<QTemporaryDir> m_root; // root's own folder (0700): root's good config lives here
    std::unique_ptr<FakeDevRoot> m_dev;

private Q_SLOTS:
    void init()
    {
        m_root = std::make_unique<QTemporaryDir>();
        QVERIFY(m_root->isValid());
        m_dev = std::make_unique<FakeDevRoot>(1);
    }
    void cleanup()
    {
        m_dev.reset();
        m_root.reset();
    }

    // Item 2: root's good config reached through a link in the user's folder is refused, naming that folder, by
    // --check-config, --status and a Monitor alike: the user could point the link anywhere at any moment.
    void linkInAUsersFolderIsRefused()
    {
        const TemporaryUser alice;
        if (!alice.valid())
            QSKIP(qPrintable(alice.skipReason()));
        const QString good = writeFile(m_root->filePath(QStringLiteral("good.conf")), defaultsFor(*m_dev));
        const QString link = alice.home() + QStringLiteral("/idlegpu.conf");
        QCOMPARE(alice.run(QStringLiteral("ln -s '%1' '%2'").arg(good, link)), 0);

        QByteArray output;
        QCOMPARE(runIdlegpu({QStringLiteral("--check-config"), QStringLiteral("--config"), link}, &output), 1);
        QVERIFY2(output.contains("refused: " + encoded(alice.home()) + ' '), output.constData());
        QCOMPARE(runIdlegpu({QStringLiteral("--status"), QStringLiteral("--config"), link}, &output), 1);
        QVERIFY2(output.contains("refused: " + encoded(alice.home()) + ' '), output.constData());

        ProcessRunner runner;
        Monitor monitor(link, &runner);
        QVERIFY(!monitor.start());
        const QString problems = diagnosticsText(monitor.state().configProblems);
        QVERIFY2(problems.contains(QStringLiteral("refused: ") + alice.home() + QLatin1Char(' ')), qPrintable(problems));
    }

    // Round 2, item 7: alice's link in a sticky folder every user can write (as /tmp), to one of root's private
    // files, given to root's --check-config. fs.protected_symlinks may be 0 (it is in many containers): idlegpu keeps
    // the kernel's rule itself and refuses the link, naming it and its owner, before it reads the file. Links there
    // of root's (the folder's owner) or, for alice's own idlegpu, of hers still work.
    void strangersLinkInAStickyFolderIsRefused()
    {
        const TemporaryUser alice;
        if (!alice.valid())
            QSKIP(qPrintable(alice.skipReason()));
        QCOMPARE(::chmod(encoded(m_root->path()).constData(), 0755), 0); // alice can reach the sticky folder
        const QString sticky = m_root->filePath(QStringLiteral("tmp"));
        QVERIFY(QDir().mkpath(sticky));
        QCOMPARE(::chmod(encoded(sticky).constData(), 01777), 0);
        const QString privateFolder = m_root->filePath(QStringLiteral("private"));
        QVERIFY(QDir().mkpath(privateFolder));
        QCOMPARE(::chmod(encoded(privateFolder).constData(), 0700), 0);
        const QString secret = writeFile(privateFolder + QStringLiteral("/secret"),
                                         defaultsFor(*m_dev) + "[process-private]\ncmd=/root/secret-token-4711\n");
        QCOMPARE(::chmod(encoded(secret).constData(), 0600), 0);

        const QString link = sticky + QStringLiteral("/x.conf");
        QCOMPARE(alice.run(QStringLiteral("ln -s '%1' '%2'").arg(secret, link)), 0);
        QByteArray output;
        QCOMPARE(runIdlegpu({QStringLiteral("--check-config"), QStringLiteral("--config"), link}, &output), 1);
        QVERIFY2(output.contains("refused: " + encoded(link) + ' '), output.constData());
        QVERIFY2(output.contains(alice.name().toUtf8()), output.constData());
        QVERIFY2(!output.contains("secret-token") && !output.contains("process-private"), output.constData());

        // A folder on the way: alice's link to root's private folder.
        const QString folderLink = sticky + QStringLiteral("/dir");
        QCOMPARE(alice.run(QStringLiteral("ln -s '%1' '%2'").arg(privateFolder, folderLink)), 0);
        QCOMPARE(runIdlegpu({QStringLiteral("--check-config"), QStringLiteral("--config"),
                             folderLink + QStringLiteral("/secret")},
                            &output),
                 1);
        QVERIFY2(output.contains("refused: " + encoded(folderLink) + ' '), output.constData());

        // root's own link there is followed: only root could have made it, and nobody else can remove it.
        const QString rootsLink = sticky + QStringLiteral("/root.conf");
        QVERIFY(QFile::link(secret, rootsLink));
        QCOMPARE(runIdlegpu({QStringLiteral("--check-config"), QStringLiteral("--config"), rootsLink}, &output), 0);

        // alice's idlegpu follows her own link there to her own config.
        const QString hers = QDir(alice.home()).filePath(QStringLiteral("idlegpu.conf"));
        const QString herLink = sticky + QStringLiteral("/alice.conf");
        QCOMPARE(alice.run(QStringLiteral("printf '[defaults]\\ninterval_seconds=60\\n' > '%1' && chmod 0600 '%1' && "
                                          "ln -s '%1' '%2'")
                               .arg(hers, herLink)),
                 0);
        QCOMPARE(alice.run(QStringLiteral("XDG_RUNTIME_DIR=\"$HOME\" XDG_STATE_HOME=\"$HOME\" '%1' --check-config "
                                          "--config '%2'")
                               .arg(binary(), herLink),
                           &output),
                 0);
    }

    // Item 2: root's own file in a folder every user can write (not sticky): anyone could replace it. The service
    // refuses to run, as it refuses a file others can write.
    void fileInAFolderOthersCanWriteIsRefused()
    {
        const TemporaryUser alice;
        if (!alice.valid())
            QSKIP(qPrintable(alice.skipReason()));
        const QString shared = m_root->filePath(QStringLiteral("shared"));
        QVERIFY(QDir().mkpath(shared));
        QCOMPARE(::chmod(encoded(shared).constData(), 0777), 0);
        QCOMPARE(::chmod(encoded(m_root->path()).constData(), 0755), 0); // alice can reach the folder
        const QString config = writeFile(shared + QStringLiteral("/idlegpu.conf"), defaultsFor(*m_dev));
        // What alice can do there: swap the file for hers (not done; the folder's mode alone is the refusal).
        QCOMPARE(alice.run(QStringLiteral("test -w '%1'").arg(shared)), 0);

        QByteArray output;
        const int code = runIdlegpu({QStringLiteral("--headless"), QStringLiteral("--config"), config}, &output, 10000);
        QVERIFY2(code == 1, output.constData()); // -1: it ran with the config
        QVERIFY2(output.contains("refused: " + encoded(shared) + " is writable by every user (mode 0777)"),
                 output.constData());
        QVERIFY2(output.contains("cannot start with this configuration"), output.constData());
    }

    // Item 2, the attack as it was run: alice's link to root's config swapped with her own config by
    // renameat2(RENAME_EXCHANGE) while the root monitor reads the file again and again. A check by path and an open
    // by path see different files now and then; alice's workload (it would make a file, as root) must never run.
    void swappedLinkNeverRunsTheUsersConfig()
    {
        const TemporaryUser alice;
        if (!alice.valid())
            QSKIP(qPrintable(alice.skipReason()));
        const QString good = writeFile(m_root->filePath(QStringLiteral("good.conf")), defaultsFor(*m_dev));
        const QString marker = alice.home() + QStringLiteral("/ran-as-root");
        const QString folder = alice.home() + QStringLiteral("/cfg");
        const QByteArray evil = defaultsFor(*m_dev)
                                + QStringLiteral("[process-evil]\ncmd=touch %1\ngpus=0\n").arg(marker).toUtf8();
        QCOMPARE(alice.run(QStringLiteral("mkdir '%1' && printf '%s' '%2' > evil.conf && ln -s '%3' '%1/idlegpu.conf' "
                                          "&& ln -s \"$HOME/evil.conf\" '%1/other'")
                               .arg(folder, QString::fromUtf8(evil), good)),
                 0);
        const QString link = folder + QStringLiteral("/idlegpu.conf");

        ProcessRunner runner;
        Monitor monitor(link, &runner);
        const bool started = monitor.start(); // the link names root's file at this moment
        QLoggingCategory::setFilterRules(QStringLiteral("idlegpu.config.warning=false")); // a refusal per reload
        {
            LinkSwapper swapper(link, folder + QStringLiteral("/other"), uid_t(alice.uid()), gid_t(alice.gid()));
            QVERIFY(swapper.started());
            QElapsedTimer elapsed;
            elapsed.start();
            while (elapsed.elapsed() < 4000 && !QFileInfo::exists(marker)) {
                monitor.reloadConfig(); // as a SIGHUP or an edit does
                if (monitor.state().config.workload(QStringLiteral("process-evil"))) {
                    // Alice's config is in force: give her workload its moment.
                    (void)QTest::qWaitFor([&] { return QFileInfo::exists(marker); }, 3000);
                    break;
                }
                QCoreApplication::processEvents();
            }
        }
        QLoggingCategory::setFilterRules(QString());
        const bool ranAlicesConfig = monitor.state().config.workload(QStringLiteral("process-evil")) != nullptr;
        QVERIFY(shutDownMonitor(monitor));
        QVERIFY2(!QFileInfo::exists(marker), "alice's workload ran as root");
        QVERIFY2(!ranAlicesConfig, "alice's config was applied");
        QVERIFY2(!started, "a config reached through alice's folder was used");
        const QString problems = diagnosticsText(monitor.state().configProblems);
        QVERIFY2(problems.contains(QStringLiteral("refused: ") + alice.home() + QLatin1Char(' ')), qPrintable(problems));
    }

    // Item 7: an edit in place written in two steps with a pause between them, the second holding `user = alice`.
    // The half file (a workload without user=, so as root) must never be applied; the whole one is, after the close.
    void halfWrittenConfigIsNeverApplied()
    {
        const TemporaryUser alice;
        if (!alice.valid())
            QSKIP(qPrintable(alice.skipReason()));
        const QString path = writeFile(m_root->filePath(QStringLiteral("idlegpu.conf")), defaultsFor(*m_dev));
        const QString marker = alice.home() + QStringLiteral("/uids");
        ProcessRunner runner;
        Monitor monitor(path, &runner);
        QVERIFY(monitor.start());
        QTest::qWait(500); // every event of the start handled

        const QByteArray firstHalf = defaultsFor(*m_dev)
                                     + QStringLiteral("[process-w]\ngpus=0\nstop_timeout_seconds=2\n"
                                                      "cmd=/bin/sh -c 'id -u >> %1; exec sleep 1000'\n")
                                           .arg(marker)
                                           .toUtf8();
        const QByteArray secondHalf = QStringLiteral("user = %1\n").arg(alice.name()).toUtf8();
        {
            QFile file(path);
            QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate)); // in place, as vim's backupcopy=yes
            QCOMPARE(file.write(firstHalf), firstHalf.size());
            QVERIFY(file.flush());
            QTest::qWait(1500); // the editor pauses; the monitor's events go on
            QVERIFY2(uidsIn(marker).isEmpty(), "the half file's workload ran (as root)");
            QCOMPARE(file.write(secondHalf), secondHalf.size());
        } // closed: now the file is whole
        QTRY_VERIFY_WITH_TIMEOUT(!uidsIn(marker).isEmpty(), 10000);
        QTest::qWait(500);
        const QList<int> uids = uidsIn(marker);
        QVERIFY(shutDownMonitor(monitor));
        QCOMPARE(uids, QList<int>{alice.uid()}); // once, as alice; never 0
        const WorkloadConfig *workload = monitor.state().config.workload(QStringLiteral("process-w"));
        QVERIFY(workload);
        QCOMPARE(workload->user, alice.name());
    }

    // Item 7: the two ways an editor saves are still applied: a write in place closed, and a file renamed over the
    // config (QSaveFile, vim's default, sed -i).
    void wholeWritesAreApplied()
    {
        const QString path = writeFile(m_root->filePath(QStringLiteral("idlegpu.conf")), defaultsFor(*m_dev));
        ProcessRunner runner;
        Monitor monitor(path, &runner);
        QVERIFY(monitor.start());

        writeFile(path, defaultsFor(*m_dev) + "[process-a]\ncmd=sleep 1000\ngpus=0\nenabled=false\n");
        QTRY_VERIFY_WITH_TIMEOUT(monitor.state().config.workload(QStringLiteral("process-a")), 5000);

        const QString temporary = m_root->filePath(QStringLiteral(".idlegpu.conf.new"));
        writeFile(temporary, defaultsFor(*m_dev) + "[process-b]\ncmd=sleep 1000\ngpus=0\nenabled=false\n");
        QCOMPARE(::rename(encoded(temporary).constData(), encoded(path).constData()), 0);
        QTRY_VERIFY_WITH_TIMEOUT(monitor.state().config.workload(QStringLiteral("process-b")), 5000);
        QVERIFY(!monitor.state().config.workload(QStringLiteral("process-a")));
        QVERIFY(shutDownMonitor(monitor));
    }

    // Item 12: a tab-indented `user = alice` after cmd= is, to configparser, more of the command. Taken so, the
    // workload would run as root with a warning; it is an error naming the line, and nothing runs.
    void indentedKnownKeyIsAnError()
    {
        const TemporaryUser alice;
        if (!alice.valid())
            QSKIP(qPrintable(alice.skipReason()));
        const QString marker = alice.home() + QStringLiteral("/uids");
        const QString path = writeFile(m_root->filePath(QStringLiteral("idlegpu.conf")),
                                       defaultsFor(*m_dev)
                                           + QStringLiteral("[process-w]\ngpus=0\ncmd=/bin/sh -c 'id -u >> %1; exec "
                                                            "sleep 1000'\n\tuser = %2\n")
                                                 .arg(marker, alice.name())
                                                 .toUtf8());
        const int line = 8; // of cmd=, after [defaults]'s 4 lines, a blank one, the header and gpus=
        const ConfigLoadResult result = ConfigLoader::load(path);
        QVERIFY2(!result.ok(), qPrintable(diagnosticsText(result.diagnostics)));
        const QString expected = QStringLiteral("%1:%2: error: 'user = %3' is indented, so it continues the value of cmd "
                                                "(line %4) instead of setting user in [process-w]")
                                     .arg(path)
                                     .arg(line + 1)
                                     .arg(alice.name())
                                     .arg(line);
        QVERIFY2(diagnosticsText(result.diagnostics).contains(expected), qPrintable(diagnosticsText(result.diagnostics)));

        ProcessRunner runner;
        Monitor monitor(path, &runner);
        QVERIFY(!monitor.start());
        QTest::qWait(500);
        QVERIFY2(uidsIn(marker).isEmpty(), "the workload ran");
    }
};

QTEST_GUILESS_MAIN(TestSecurityConfig)
#include "tst_sec_config.moc"
