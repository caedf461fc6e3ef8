// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The files root's idlegpu writes, attacked by a local user or lost to a fault:
//  - the metrics textfile in a folder alice can write, where she left a link to a root 0600 file, a FIFO or a device
//    node; and a FIFO, link or device in a folder of root's own: nothing is followed or replaced, the refusal is said;
//  - a full disk (a small tmpfs, filled) under the ledger, the textfile and the settings save: the old file stays byte
//    for byte, a warning names the file and the errno text, and the next start reads the old ledger;
//  - the single-instance lock: what alice leaves at $TMPDIR/idlegpu-0 (a file, a link to a root 0600 file, a folder
//    of hers with a lock naming a process of hers called idlegpu) does not stop root's idlegpu nor chmod the link's
//    target; a symlinked alias of a running config is "already running"; a folder bob made in alice's place is
//    refused, not chmodded through;
//  - round 2: the textfile under alice's link in a sticky folder (as /tmp) writes nothing where the link points;
//    root's /run/idlegpu and lock are root's alone (0700, 0600), and alice's shared flock on a lock an older idlegpu
//    left (0644), or her try at the one a crash left, does not make root's next start "already running".
// Each needs root (a second user, mount, mknod) and skips with the reason where that is not given.
#include "config/config.h"
#include "config/inifile.h"
#include "ledger/ledgerstore.h"
#include "ledger/workledger.h"
#include "metrics/metricstextfile.h"
#include "testsupport.h"
#include "pausestore.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QProcess>
#include <QSysInfo>
#include <QTemporaryDir>
#include <QtTest>

#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>
#include <unistd.h>

using namespace TestSupport;

namespace {

QByteArray encoded(const QString &path)
{
    return QFile::encodeName(path);
}

// The status of `path` itself (a link is not followed); st_mode 0 when there is nothing.
struct stat statusOf(const QString &path)
{
    struct stat st{};
    if (::lstat(encoded(path).constData(), &st) != 0)
        st.st_mode = 0;
    return st;
}

// The permission bits of `path` itself (a link's own, where TestSupport::modeOf() follows it); 0 when there is nothing.
int modeOfItself(const QString &path)
{
    return int(statusOf(path).st_mode & 07777);
}

QByteArray contentsOf(const QString &path)
{
    QFile file(path);
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray("<unreadable>");
}

QString noSpaceText()
{
    return QString::fromLocal8Bit(strerror(ENOSPC));
}

QStringList g_messages;
QtMessageHandler g_previousHandler = nullptr;
void recordMessage(QtMsgType type, const QMessageLogContext &context, const QString &message)
{
    if (type == QtWarningMsg || type == QtCriticalMsg)
        g_messages.append(message);
    g_previousHandler(type, context, message);
}

// The warnings recorded so far that hold every one of `parts`.
QStringList warningsWith(const QStringList &parts)
{
    QStringList found;
    for (const QString &message : std::as_const(g_messages)) {
        bool all = true;
        for (const QString &part : parts)
            all = all && message.contains(part);
        if (all)
            found.append(message);
    }
    return found;
}

// Whether a process holds a flock on `path` (an exclusive one cannot be taken now).
bool lockedByAnother(const QString &path)
{
    const int fd = ::open(encoded(path).constData(), O_RDONLY | O_NOFOLLOW | O_CLOEXEC);
    if (fd < 0)
        return false;
    const bool locked = ::flock(fd, LOCK_EX | LOCK_NB) != 0 && errno == EWOULDBLOCK;
    ::close(fd);
    return locked;
}

// A small tmpfs mounted for one test (root only), unmounted when it goes.
class SmallTmpfs
{
public:
    explicit SmallTmpfs(const QString &path) : m_path(path)
    {
        if (::geteuid() != 0) {
            m_skipReason = QStringLiteral("needs root: a full disk is made by mounting a small tmpfs");
            return;
        }
        QDir().mkpath(path);
        QProcess mount;
        mount.setProcessChannelMode(QProcess::MergedChannels);
        mount.start(QStringLiteral("mount"), {QStringLiteral("-t"), QStringLiteral("tmpfs"), QStringLiteral("-o"),
                                              QStringLiteral("size=64k,mode=0755"), QStringLiteral("tmpfs"), path});
        if (!mount.waitForFinished(30000) || mount.exitStatus() != QProcess::NormalExit || mount.exitCode() != 0) {
            m_skipReason = QStringLiteral("cannot mount a tmpfs on %1: %2")
                               .arg(path, QString::fromLocal8Bit(mount.readAll()).trimmed());
            return;
        }
        m_mounted = true;
    }
    ~SmallTmpfs()
    {
        if (m_mounted)
            QProcess::execute(QStringLiteral("umount"), {QStringLiteral("-l"), m_path});
    }
    bool mounted() const { return m_mounted; }
    QString skipReason() const { return m_skipReason; }
    QString filePath(const QString &name) const { return QDir(m_path).filePath(name); }

    // Fills the file system with a file of its own; true once a write failed with ENOSPC.
    bool fill() const
    {
        const int fd = ::open(encoded(filePath(QStringLiteral("filler"))).constData(),
                              O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
        if (fd < 0)
            return false;
        const QByteArray block(4096, 'x');
        int error = 0;
        for (int i = 0; i < 100000 && error == 0; ++i)
            if (::write(fd, block.constData(), size_t(block.size())) < 0)
                error = errno;
        // Smaller writes take what is left of a partly used block.
        for (int i = 0; i < 4096 && error == ENOSPC; ++i)
            if (::write(fd, "x", 1) < 0 && errno != ENOSPC)
                error = errno;
        ::close(fd);
        return error == ENOSPC;
    }
    void empty() const { QFile::remove(filePath(QStringLiteral("filler"))); }

private:
    QString m_path;
    QString m_skipReason;
    bool m_mounted = false;
};

// A ledger with something in it: one preemption at `wallMs`.
QByteArray ledgerWithPreemption(WorkLedger *ledger, qint64 wallMs)
{
    PreemptionRecord record;
    record.wallMs = wallMs;
    record.gpu = 0;
    record.workloadName = QStringLiteral("miner");
    record.culpritProgram = QStringLiteral("python3");
    record.culpritUser = QStringLiteral("alice");
    record.culpritPid = 4242;
    ledger->addPreemption(record);
    return ledger->toJson();
}

} // namespace

class TestSecFiles : public QObject
{
    Q_OBJECT

private:
    QString binary() const { return QStringLiteral(IDLEGPU_BINARY); }

    // A folder others can enter (alice's attacks need a way to it), in the test's temporary folder.
    QString openFolder(const QString &name) const
    {
        const QString path = m_dir->filePath(name);
        if (!QDir().mkpath(path))
            return QString();
        ::chmod(encoded(path).constData(), 0755);
        return path;
    }

    // root's secret: a 0600 file alice's links point at.
    QString rootSecret() const
    {
        const QString path = writeFile(m_dir->filePath(QStringLiteral("secret/root-only")), "root's secret\n");
        ::chmod(encoded(path).constData(), 0600);
        return path;
    }

    // The config of the headless tests: one workload on the fake GPU 0.
    QString writeHeadlessConfig(const QString &path) const
    {
        const QString config =
            defaultsSection(m_dev->path()) + sleeperSection(QStringLiteral("miner"), QStringLiteral("0"));
        return writeFile(path, config.toUtf8());
    }

    // idlegpu --headless as supervisord starts it as root: no XDG_RUNTIME_DIR, the temp folder `tmpDir`.
    std::unique_ptr<QProcess> startHeadless(const QString &config, const QString &tmpDir) const
    {
        auto process = std::make_unique<QProcess>();
        process->setProgram(binary());
        process->setArguments({QStringLiteral("--headless"), QStringLiteral("--config"), config});
        QProcessEnvironment env = QProcessEnvironment::systemEnvironment();
        env.remove(QStringLiteral("XDG_RUNTIME_DIR"));
        env.remove(QStringLiteral("RUNTIME_DIRECTORY"));
        env.insert(QStringLiteral("TMPDIR"), tmpDir);
        env.insert(QStringLiteral("XDG_STATE_HOME"), m_dir->filePath(QStringLiteral("state")));
        process->setProcessEnvironment(env);
        process->setProcessChannelMode(QProcess::MergedChannels);
        process->start();
        return process;
    }
    // True once the process says it is monitoring; its output so far in *output.
    static bool awaitMonitoring(QProcess *process, QByteArray *output)
    {
        const bool started = QTest::qWaitFor(
            [&] {
                *output += process->readAll();
                return output->contains("monitoring with") || process->state() == QProcess::NotRunning;
            },
            15000);
        *output += process->readAll();
        return started && output->contains("monitoring with");
    }
    static void stop(QProcess *process)
    {
        if (process->state() == QProcess::NotRunning)
            return;
        process->terminate();
        if (!process->waitForFinished(20000)) {
            process->kill();
            process->waitForFinished(5000);
        }
    }

    std::unique_ptr<QTemporaryDir> m_dir;
    std::unique_ptr<FakeDevRoot> m_dev;

private slots:
    void initTestCase()
    {
        g_previousHandler = qInstallMessageHandler(recordMessage);
    }

    void init()
    {
        g_messages.clear();
        m_dir = std::make_unique<QTemporaryDir>();
        QVERIFY(m_dir->isValid());
        ::chmod(encoded(m_dir->path()).constData(), 0755);
        m_dev = std::make_unique<FakeDevRoot>(1);
    }

    void cleanup()
    {
        m_dev.reset();
        m_dir.reset();
    }

    // Item 3: `[metrics] textfile` in a folder alice owns, where she left something in the file's place. Nothing of
    // hers is followed or replaced; the config check and the write both say why.
    void textfileInAFolderAliceOwnsIsRefused_data()
    {
        QTest::addColumn<QString>("planted");
        QTest::newRow("link to root's 0600 file") << "link";
        QTest::newRow("FIFO") << "fifo";
        QTest::newRow("device node") << "device";
        QTest::newRow("nothing there") << "nothing";
    }
    void textfileInAFolderAliceOwnsIsRefused()
    {
        QFETCH(QString, planted);
        TemporaryUser alice;
        if (!alice.valid())
            QSKIP(qPrintable(alice.skipReason()));
        const QString secret = rootSecret();
        const QString folder = openFolder(QStringLiteral("alice-textfiles"));
        QCOMPARE(::chown(encoded(folder).constData(), uid_t(alice.uid()), gid_t(alice.gid())), 0);
        const QString prom = QDir(folder).filePath(QStringLiteral("idlegpu.prom"));
        if (planted == QLatin1String("link"))
            QCOMPARE(alice.run(QStringLiteral("ln -s '%1' '%2'").arg(secret, prom)), 0);
        else if (planted == QLatin1String("fifo"))
            QCOMPARE(alice.run(QStringLiteral("mkfifo '%1'").arg(prom)), 0);
        else if (planted == QLatin1String("device")
                 && ::mknod(encoded(prom).constData(), S_IFCHR | 0666, makedev(1, 3)) != 0)
            QSKIP(qPrintable(QStringLiteral("mknod: %1").arg(QString::fromLocal8Bit(strerror(errno)))));
        const struct stat before = statusOf(prom);

        // Checked with the config: a warning that names the file and its folder's owner; idlegpu still runs.
        const ConfigLoadResult result = ConfigLoader::parse(
            QStringLiteral("[defaults]\ndevice_root=%1\n\n[process-a]\ncmd=sleep 1000\n\n[metrics]\ntextfile = %2\n")
                .arg(m_dev->path(), prom)
                .toUtf8(),
            m_dir->filePath(QStringLiteral("idlegpu.conf")));
        QVERIFY(result.ok());
        bool said = false;
        for (const ConfigDiagnostic &diagnostic : result.diagnostics)
            said = said
                   || (diagnostic.message.contains(QLatin1String("textfile")) && diagnostic.message.contains(folder)
                       && diagnostic.message.contains(alice.name()));
        QVERIFY2(said, "the config check says nothing of the textfile's folder");

        // Written: refused, with a warning naming the file and why.
        MetricsTextFile writer([] { return QByteArray("# idlegpu\nidlegpu_up 1\n"); });
        writer.setPath(prom);
        QVERIFY(!writer.writeNow());
        const QStringList warned = warningsWith({QStringLiteral("cannot write the metrics to"), prom});
        QCOMPARE(warned.size(), 1);
        QVERIFY2(warned.first().contains(alice.name()), qPrintable(warned.first()));

        const struct stat after = statusOf(prom);
        QCOMPARE(after.st_mode, before.st_mode);
        QCOMPARE(after.st_ino, before.st_ino);
        QCOMPARE(contentsOf(secret), QByteArray("root's secret\n"));
        QCOMPARE(modeOfItself(secret), 0600);
        QVERIFY(QDir(folder).entryList(QDir::AllEntries | QDir::Hidden | QDir::System | QDir::NoDotAndDotDot).size()
                <= 1); // no temporary file left behind
    }

    // Round 2, item 7: `[metrics] textfile` under a link in a sticky folder every user can write (as /tmp). alice's
    // link to a folder only root may enter is not followed (fs.protected_symlinks may be 0: idlegpu keeps the rule
    // itself): nothing is written there, and the config check and the write name the link. root's link is followed.
    void textfileUnderALinkInAStickyFolder_data()
    {
        QTest::addColumn<bool>("alicesLink");
        QTest::newRow("alice's link: refused") << true;
        QTest::newRow("root's link: followed") << false;
    }
    void textfileUnderALinkInAStickyFolder()
    {
        QFETCH(bool, alicesLink);
        TemporaryUser alice;
        if (!alice.valid())
            QSKIP(qPrintable(alice.skipReason()));
        const QString sticky = openFolder(QStringLiteral("tmp"));
        QCOMPARE(::chmod(encoded(sticky).constData(), 01777), 0); // as /tmp
        const QString rootOnly = m_dir->filePath(QStringLiteral("root-only"));
        QVERIFY(QDir().mkpath(rootOnly));
        QCOMPARE(::chmod(encoded(rootOnly).constData(), 0700), 0);
        const QString link = QDir(sticky).filePath(QStringLiteral("metrics"));
        if (alicesLink)
            QCOMPARE(alice.run(QStringLiteral("ln -s '%1' '%2'").arg(rootOnly, link)), 0);
        else
            QVERIFY(QFile::link(rootOnly, link));
        const QString prom = QDir(link).filePath(QStringLiteral("idlegpu.prom"));

        const ConfigLoadResult result = ConfigLoader::parse(
            QStringLiteral("[defaults]\ndevice_root=%1\n\n[process-a]\ncmd=sleep 1000\n\n[metrics]\ntextfile = %2\n")
                .arg(m_dev->path(), prom)
                .toUtf8(),
            m_dir->filePath(QStringLiteral("idlegpu.conf")));
        QVERIFY(result.ok());
        bool said = false;
        for (const ConfigDiagnostic &diagnostic : result.diagnostics)
            said = said || (diagnostic.message.contains(QLatin1String("textfile")) && diagnostic.message.contains(link)
                            && diagnostic.message.contains(alice.name()));
        QCOMPARE(said, alicesLink);

        MetricsTextFile writer([] { return QByteArray("# idlegpu\nidlegpu_up 1\n"); });
        writer.setPath(prom);
        const QStringList inRootOnly = QDir(rootOnly).entryList(QDir::AllEntries | QDir::Hidden | QDir::System
                                                                | QDir::NoDotAndDotDot);
        QCOMPARE(writer.writeNow(), !alicesLink);
        const QStringList after = QDir(rootOnly).entryList(QDir::AllEntries | QDir::Hidden | QDir::System
                                                           | QDir::NoDotAndDotDot);
        if (alicesLink) {
            QCOMPARE(after, inRootOnly);
            const QStringList warned = warningsWith({QStringLiteral("cannot write the metrics to"), prom, link});
            QVERIFY2(warned.size() == 1, qPrintable(g_messages.join(QLatin1Char('\n'))));
            QVERIFY2(warned.first().contains(alice.name()), qPrintable(warned.first()));
        } else {
            QCOMPARE(after, QStringList{QStringLiteral("idlegpu.prom")});
            QCOMPARE(contentsOf(QDir(rootOnly).filePath(QStringLiteral("idlegpu.prom"))),
                     QByteArray("# idlegpu\nidlegpu_up 1\n"));
        }
    }

    // Item 3, the mechanism: in a folder of root's own, what is not a regular file is not replaced (a FIFO or a
    // device) nor followed (a link); a regular file is written 0644.
    void textfileNeverReplacesANonRegularFile_data()
    {
        QTest::addColumn<QString>("planted");
        QTest::newRow("link to root's 0600 file") << "link";
        QTest::newRow("FIFO") << "fifo";
        QTest::newRow("device node") << "device";
    }
    void textfileNeverReplacesANonRegularFile()
    {
        QFETCH(QString, planted);
        if (::geteuid() != 0)
            QSKIP("needs root: a device node is made with mknod, the folder is root's");
        const QString secret = rootSecret();
        const QString folder = openFolder(QStringLiteral("node-exporter"));
        const QString prom = QDir(folder).filePath(QStringLiteral("idlegpu.prom"));
        if (planted == QLatin1String("link"))
            QVERIFY(QFile::link(secret, prom));
        else if (planted == QLatin1String("fifo"))
            QCOMPARE(::mkfifo(encoded(prom).constData(), 0644), 0);
        else if (::mknod(encoded(prom).constData(), S_IFCHR | 0666, makedev(1, 3)) != 0)
            QSKIP(qPrintable(QStringLiteral("mknod: %1").arg(QString::fromLocal8Bit(strerror(errno)))));
        const struct stat before = statusOf(prom);

        MetricsTextFile writer([] { return QByteArray("# idlegpu\nidlegpu_up 1\n"); });
        writer.setPath(prom);
        QVERIFY(!writer.writeNow());
        QCOMPARE(warningsWith({QStringLiteral("cannot write the metrics to"), prom}).size(), 1);
        const struct stat after = statusOf(prom);
        QCOMPARE(after.st_mode, before.st_mode);
        QCOMPARE(after.st_ino, before.st_ino);
        QCOMPARE(contentsOf(secret), QByteArray("root's secret\n"));
        QCOMPARE(modeOfItself(secret), 0600);

        // The same writer in the same folder, once the thing is gone: a regular file node_exporter can read.
        QVERIFY(QFile::remove(prom));
        QVERIFY(writer.writeNow());
        QCOMPARE(contentsOf(prom), QByteArray("# idlegpu\nidlegpu_up 1\n"));
        QCOMPARE(modeOfItself(prom), 0644);
    }

    // Item 5: the disk under the state folder fills while idlegpu runs. The save fails with a warning that names the
    // file and says why, the old ledger stays byte for byte, and the next start reads it (nothing set aside as .bad).
    void ledgerKeepsItsOldFileOnAFullDisk()
    {
        SmallTmpfs disk(m_dir->filePath(QStringLiteral("state")));
        if (!disk.mounted())
            QSKIP(qPrintable(disk.skipReason()));
        const QString path = disk.filePath(QStringLiteral("idlegpu/ledger.json"));
        QByteArray saved;
        {
            LedgerStore store(path);
            WorkLedger ledger;
            QVERIFY(store.open(&ledger));
            ledgerWithPreemption(&ledger, QDateTime::currentMSecsSinceEpoch() - 60'000);
            QVERIFY(store.save(ledger));
            saved = contentsOf(path);
            QVERIFY(saved.size() > 100);

            QVERIFY(disk.fill());
            ledgerWithPreemption(&ledger, QDateTime::currentMSecsSinceEpoch());
            QVERIFY(!store.save(ledger));
            QCOMPARE(contentsOf(path), saved);
            const QStringList warned = warningsWith({path, noSpaceText()});
            QVERIFY2(warned.size() == 1, qPrintable(g_messages.join(QLatin1Char('\n'))));
        }
        disk.empty();

        LedgerStore next(path);
        WorkLedger reread;
        QVERIFY(next.open(&reread));
        QVERIFY(!QFileInfo::exists(path + QStringLiteral(".bad")));
        QCOMPARE(reread.summary().recentPreemptions.size(), 1);
        QCOMPARE(contentsOf(path), saved);
    }

    // Item 5: the textfile on a full disk keeps its last metrics; the failed write is warned about, naming the file.
    void textfileKeepsItsOldFileOnAFullDisk()
    {
        SmallTmpfs disk(m_dir->filePath(QStringLiteral("node-exporter")));
        if (!disk.mounted())
            QSKIP(qPrintable(disk.skipReason()));
        const QString prom = disk.filePath(QStringLiteral("idlegpu.prom"));
        int writes = 0;
        MetricsTextFile writer(
            [&writes] { return QByteArray("# idlegpu\nidlegpu_writes ") + QByteArray::number(++writes) + '\n'; });
        writer.setPath(prom);
        QVERIFY(writer.writeNow());
        const QByteArray saved = contentsOf(prom);
        QCOMPARE(saved, QByteArray("# idlegpu\nidlegpu_writes 1\n"));

        QVERIFY(disk.fill());
        QVERIFY(!writer.writeNow());
        QCOMPARE(contentsOf(prom), saved);
        QCOMPARE(modeOfItself(prom), 0644);
        const QStringList warned = warningsWith({QStringLiteral("cannot write the metrics to"), prom, noSpaceText()});
        QVERIFY2(warned.size() == 1, qPrintable(g_messages.join(QLatin1Char('\n'))));
    }

    // Item 5: the settings dialog's save (replaceIniFile) on a full disk: false with an error that names the file and
    // says why (the dialog shows it), the config as it was.
    void settingsSaveKeepsItsOldFileOnAFullDisk()
    {
        SmallTmpfs disk(m_dir->filePath(QStringLiteral("config")));
        if (!disk.mounted())
            QSKIP(qPrintable(disk.skipReason()));
        const QString path = disk.filePath(QStringLiteral("idlegpu.conf"));
        const QByteArray saved = "[defaults]\ninterval_seconds=10\n\n[process-miner]\ncmd=miner --pool a:1\n";
        writeFile(path, saved);
        QCOMPARE(::chmod(encoded(path).constData(), 0640), 0);

        QVERIFY(disk.fill());
        QString error;
        QVERIFY(!replaceIniFile(path, QByteArray(saved).replace("10", "30") + QByteArray(2000, '#') + '\n', &error));
        QVERIFY2(error.contains(QLatin1String("idlegpu.conf")) && error.contains(noSpaceText()), qPrintable(error));
        QCOMPARE(contentsOf(path), saved);
        QCOMPARE(modeOfItself(path), 0640);
    }

    // Item 5: the tray's saved pause on a full disk: the old pause stays, the error names the file and says why.
    void pauseSaveKeepsItsOldFileOnAFullDisk()
    {
        SmallTmpfs disk(m_dir->filePath(QStringLiteral("state")));
        if (!disk.mounted())
            QSKIP(qPrintable(disk.skipReason()));
        const QDateTime wallNow(QDate(2026, 11, 5), QTime(14, 0), Qt::UTC);
        PauseStore store(disk.filePath(QStringLiteral("idlegpu/state.ini")));
        PauseState pause;
        pause.workloads = {QStringLiteral("process-miner")};
        QVERIFY2(store.save(pause, 1'000, wallNow), qPrintable(store.errorString()));
        const QByteArray saved = contentsOf(store.filePath());

        QVERIFY(disk.fill());
        pause.all = true;
        pause.workloads = {QStringLiteral("process-miner"), QStringLiteral("process-boinc")};
        QVERIFY(!store.save(pause, 1'000, wallNow));
        QVERIFY2(store.errorString().contains(store.filePath()) && store.errorString().contains(noSpaceText()),
                 qPrintable(store.errorString()));
        QCOMPARE(contentsOf(store.filePath()), saved);
        QCOMPARE(PauseStore(store.filePath()).load(1'000, wallNow).workloads,
                 QSet<QString>{QStringLiteral("process-miner")});
    }

    // Item 9: without XDG_RUNTIME_DIR, what alice left where idlegpu's temp-folder lock used to be does not keep
    // root's idlegpu from starting, and no link there makes root chmod its target.
    void rootLockIgnoresWhatAliceLeftInTmp_data()
    {
        QTest::addColumn<QString>("planted");
        QTest::newRow("a file") << "file";
        QTest::newRow("a link to root's 0600 file") << "link";
        QTest::newRow("a folder of hers with a lock naming her idlegpu") << "lock";
    }
    void rootLockIgnoresWhatAliceLeftInTmp()
    {
        QFETCH(QString, planted);
        TemporaryUser alice;
        if (!alice.valid())
            QSKIP(qPrintable(alice.skipReason()));
        const QString tmp = openFolder(QStringLiteral("tmp"));
        QCOMPARE(::chmod(encoded(tmp).constData(), 01777), 0); // as /tmp
        const QString secret = rootSecret();
        const QString config = writeHeadlessConfig(m_dir->filePath(QStringLiteral("idlegpu.conf")));
        const QString place = QDir(tmp).filePath(QStringLiteral("idlegpu-0"));
        if (planted == QLatin1String("file")) {
            QCOMPARE(alice.run(QStringLiteral("echo 1 > '%1'").arg(place)), 0);
        } else if (planted == QLatin1String("link")) {
            QCOMPARE(alice.run(QStringLiteral("ln -s '%1' '%2'").arg(secret, place)), 0);
        } else {
            // Her program called idlegpu, and the lock QLockFile would write for it at the name root's lock had.
            QByteArray pid;
            QCOMPARE(alice.run(QStringLiteral("cp /bin/sleep \"$HOME/idlegpu\" && { \"$HOME/idlegpu\" 300 "
                                              ">/dev/null 2>&1 & echo $!; }"),
                               &pid),
                     0);
            QVERIFY(pid.trimmed().toLongLong() > 0);
            const QByteArray key = QFileInfo(config).absoluteFilePath().toUtf8();
            const QString hash =
                QString::fromLatin1(QCryptographicHash::hash(key, QCryptographicHash::Sha256).toHex().left(16));
            const QByteArray lock = pid.trimmed() + "\nidlegpu\n" + QSysInfo::machineHostName().toUtf8() + "\n";
            QCOMPARE(alice.run(QStringLiteral("mkdir -m 0755 '%1' && printf '%2' > '%1/idlegpu-%3.lock'")
                                   .arg(place, QString::fromUtf8(lock).replace(QLatin1Char('\n'), QLatin1String("\\n")),
                                        hash)),
                     0);
        }

        auto idlegpu = startHeadless(config, tmp);
        QByteArray output;
        const bool started = awaitMonitoring(idlegpu.get(), &output);
        stop(idlegpu.get());
        QVERIFY2(started, output.constData());
        QVERIFY(!output.contains("already running"));
        QCOMPARE(contentsOf(secret), QByteArray("root's secret\n"));
        QCOMPARE(modeOfItself(secret), 0600);
    }

    // Round 2, item 8: root's idlegpu outside the system unit (supervisord, a shell) keeps its lock in /run/idlegpu,
    // which must be root's alone: a user who could open the lock could hold a shared flock on it after a crash, and
    // root's next start would say "already running" (pid long dead) and exit 2, which no service manager restarts.
    //  - "older version": /run/idlegpu 0755 and a lock 0644 as idlegpu used to leave them, alice holding a shared
    //    flock on it: the folder is narrowed to 0700 and the lock replaced, and root's idlegpu runs;
    //  - "crash": the lock a killed idlegpu left (0600 in a 0700 folder) cannot be opened by alice, and the next start
    //    runs.
    void rootLockIsRootsAloneAndAUserCannotHoldIt_data()
    {
        QTest::addColumn<bool>("olderVersion");
        QTest::newRow("left by an older version, alice holding it") << true;
        QTest::newRow("left by a crash") << false;
    }
    void rootLockIsRootsAloneAndAUserCannotHoldIt()
    {
        QFETCH(bool, olderVersion);
        TemporaryUser alice;
        if (!alice.valid())
            QSKIP(qPrintable(alice.skipReason()));
        const QString runtime = QStringLiteral("/run/idlegpu");
        const QString tmp = openFolder(QStringLiteral("tmp"));
        const QString config = writeHeadlessConfig(m_dir->filePath(QStringLiteral("idlegpu.conf")));
        struct stat configStatus{};
        QCOMPARE(::stat(encoded(config).constData(), &configStatus), 0);
        const QString lock = QDir(runtime).filePath(QStringLiteral("idlegpu-%1-%2.lock")
                                                         .arg(quint64(configStatus.st_dev), 0, 16)
                                                         .arg(quint64(configStatus.st_ino)));
        const auto aliceCanOpen = [&] { return alice.run(QStringLiteral("exec 3<'%1'").arg(lock)) == 0; };
        // alice's shared flock on the lock, held in the background by flock(1) (which runs sleep while it holds it).
        const auto aliceHolds = [&] {
            QByteArray pid;
            alice.run(QStringLiteral("flock -s '%1' sleep 300 >/dev/null 2>&1 & echo $!").arg(lock), &pid);
            const qint64 flock = pid.trimmed().toLongLong();
            return QTest::qWaitFor([&] { return lockedByAnother(lock) || !processAlive(flock); }, 5000)
                   && processAlive(flock);
        };

        QByteArray output;
        std::function<void()> checkCrashed = [] {}; // after the restart, which is what the attack is after
        if (olderVersion) {
            QDir().mkpath(runtime);
            QCOMPARE(::chmod(encoded(runtime).constData(), 0755), 0);
            QProcess gone;
            gone.start(QStringLiteral("true"));
            QVERIFY(gone.waitForStarted());
            const qint64 deadPid = gone.processId();
            QVERIFY(gone.waitForFinished());
            writeFile(lock, QByteArray::number(deadPid) + '\n');
            QCOMPARE(::chmod(encoded(lock).constData(), 0644), 0);
            QVERIFY2(aliceHolds(), "alice cannot hold the older version's lock: the test's premise is gone");
        } else {
            auto first = startHeadless(config, tmp);
            const bool started = awaitMonitoring(first.get(), &output);
            const int runtimeMode = modeOfItself(runtime), lockMode = modeOfItself(lock);
            const bool openWhileRunning = aliceCanOpen();
            first->kill(); // a crash: the lock stays behind
            first->waitForFinished(10000);
            QVERIFY2(started, output.constData());
            QVERIFY(QFile::exists(lock));
            const bool openAfterCrash = aliceCanOpen();
            alice.run(QStringLiteral("flock -s '%1' sleep 300 >/dev/null 2>&1 &").arg(lock)); // she tries all the same
            checkCrashed = [=] {
                QVERIFY2(!openWhileRunning, "alice can open root's running idlegpu's lock");
                QVERIFY2(!openAfterCrash, "alice can open the lock a crashed idlegpu left");
                QCOMPARE(runtimeMode, 0700);
                QCOMPARE(lockMode, 0600);
            };
        }

        auto idlegpu = startHeadless(config, tmp);
        output.clear();
        const bool started = awaitMonitoring(idlegpu.get(), &output);
        const int lockMode = modeOfItself(lock);
        stop(idlegpu.get());
        QVERIFY2(started, output.constData());
        QVERIFY2(!output.contains("already running"), output.constData());
        checkCrashed();
        QCOMPARE(modeOfItself(runtime), 0700);
        QCOMPARE(lockMode, 0600);
    }

    // Item 9: the lock is the config's, not its path's: an alias of a running config through a symbolic link is
    // "already running" (exit code 2, the owner's pid), not a second monitor running the same workloads.
    void symlinkedAliasOfARunningConfigIsAlreadyRunning()
    {
        if (::geteuid() != 0)
            QSKIP("needs root: root's lock folder is /run/idlegpu");
        const QString tmp = openFolder(QStringLiteral("tmp"));
        const QString config = writeHeadlessConfig(m_dir->filePath(QStringLiteral("idlegpu.conf")));
        const QString alias = m_dir->filePath(QStringLiteral("alias.conf"));
        QVERIFY(QFile::link(config, alias));

        auto first = startHeadless(config, tmp);
        QByteArray output;
        const bool started = awaitMonitoring(first.get(), &output);
        if (!started)
            stop(first.get());
        QVERIFY2(started, output.constData());

        const qint64 firstPid = first->processId();
        auto second = startHeadless(alias, tmp);
        const bool finished = second->waitForFinished(15000);
        const QByteArray secondOutput = second->readAll();
        stop(second.get());
        stop(first.get());
        QVERIFY2(finished, "a second idlegpu runs the same config through its alias");
        QCOMPARE(second->exitCode(), 2);
        QVERIFY2(secondOutput.contains("already running"), secondOutput.constData());
        QVERIFY2(secondOutput.contains(QByteArray("(pid ") + QByteArray::number(firstPid) + ')'),
                 secondOutput.constData());
    }

    // Item 9, a user's idlegpu: bob made the temp folder alice's idlegpu would make, as a link to a file of hers.
    // Her idlegpu refuses it with a message naming it, and never chmods through it.
    void userLockRefusesAFolderSomeoneElseMade()
    {
        TemporaryUser alice;
        if (!alice.valid())
            QSKIP(qPrintable(alice.skipReason()));
        TemporaryUser bob;
        if (!bob.valid())
            QSKIP(qPrintable(bob.skipReason()));
        const QString tmp = openFolder(QStringLiteral("tmp"));
        QCOMPARE(::chmod(encoded(tmp).constData(), 01777), 0);
        const QString hers = QDir(alice.home()).filePath(QStringLiteral("notes.txt"));
        QCOMPARE(alice.run(QStringLiteral("echo mine > '%1' && chmod 0644 '%1'").arg(hers)), 0);
        const QString place = QDir(tmp).filePath(QStringLiteral("idlegpu-%1").arg(alice.uid()));
        QCOMPARE(bob.run(QStringLiteral("ln -s '%1' '%2'").arg(hers, place)), 0);
        const QString config = QDir(alice.home()).filePath(QStringLiteral("idlegpu.conf"));
        QCOMPARE(alice.run(QStringLiteral("printf '[defaults]\\ninterval_seconds=60\\n\\n[process-a]\\n"
                                          "cmd=sleep 1000\\n' > '%1' && chmod 0600 '%1'")
                               .arg(config)),
                 0);

        QByteArray output;
        const int code = alice.run(QStringLiteral("env -u XDG_RUNTIME_DIR -u RUNTIME_DIRECTORY TMPDIR='%1' "
                                                  "XDG_STATE_HOME=\"$HOME/state\" timeout 20 '%2' --headless --config "
                                                  "'%3'")
                                       .arg(tmp, binary(), config),
                                   &output);
        QCOMPARE(modeOfItself(hers), 0644);
        QVERIFY2(code != 124 && code != 0, output.constData()); // refused at once, not run
        QVERIFY2(output.contains(encoded(place)), output.constData());
        QVERIFY2(!output.contains("already running"), output.constData());
    }
};

QTEST_GUILESS_MAIN(TestSecFiles)
#include "tst_sec_files.moc"
