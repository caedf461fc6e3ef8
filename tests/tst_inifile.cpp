// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// IniDocument and the QSettings format: reading as Python's configparser does (every expected value of the
// parse table was checked against configparser 3.11 by hand), and editing files in place through QSettings and
// through IniText (several edits, moved sections, one replace).
#include "config/inifile.h"

#include <QDir>
#include <QFile>
#include <QFileInfo>
#include <QRegularExpression>
#include <QSettings>
#include <QTemporaryDir>
#include <QTest>

#include <sys/stat.h>

namespace {

QByteArray readAll(const QString &path)
{
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly))
        return QByteArray("<cannot read>");
    return file.readAll();
}

void writeAll(const QString &path, const QByteArray &contents)
{
    QFile file(path);
    QVERIFY(file.open(QIODevice::WriteOnly | QIODevice::Truncate));
    QCOMPARE(file.write(contents), contents.size());
}

QByteArray exampleAll()
{
    return readAll(QStringLiteral(IDLEGPU_TEST_DATA "/gpu_mon_example_all.conf"));
}

// "LINE section/key=value" for each entry, in file order.
QStringList describeEntries(const IniDocument &doc)
{
    QStringList result;
    for (const IniDocument::Entry &entry : doc.entries)
        result.append(QStringLiteral("%1 %2/%3=%4").arg(entry.line).arg(entry.section, entry.key, entry.value));
    return result;
}

QStringList describeProblems(const IniDocument &doc)
{
    QStringList result;
    for (const IniDocument::Problem &problem : doc.problems)
        result.append(QStringLiteral("%1: %2").arg(problem.line).arg(problem.message));
    return result;
}

mode_t fileMode(const QString &path)
{
    struct stat info = {};
    if (::stat(QFile::encodeName(path).constData(), &info) != 0)
        return 0;
    return info.st_mode & 07777;
}

} // namespace

class TestIniFile : public QObject
{
    Q_OBJECT

private slots:
    void parses_data();
    void parses();
    void reportsProblems_data();
    void reportsProblems();
    void refusesHugeFiles();
    void readsSectionsWithLines();
    void readsThroughQSettingsVerbatim();

    void changesOneValueInPlace_data();
    void changesOneValueInPlace();
    void addsKeyAtEndOfItsSection();
    void removesKeyLine();
    void addsSectionAtEnd();
    void unchangedSyncKeepsBytes();
    void keepsMode_data();
    void keepsMode();
    void keepsFileOfComments();
    void writesMultiLineValues();
    void replacesMultiLineValue();
    void keepsLineEndingsAndBom();
    void createsNewFile();
    void editsThroughSymlink();
    void refusesUnwritableValues_data();
    void refusesUnwritableValues();
    void leavesBinaryFileAlone();
    void leavesBrokenLinesAlone();

    void editMovesSectionWithItsComments_data();
    void editMovesSectionWithItsComments();
    void editRemovesSections_data();
    void editRemovesSections();
    void editWritesNewSectionsInOrder();
    void unchangedEditKeepsBytes();
    void editRefusesWhatWouldNotReadBack_data();
    void editRefusesWhatWouldNotReadBack();
    void replaceIsOneAtomicRenameKeepingMode_data();
    void replaceIsOneAtomicRenameKeepingMode();
    void replaceCreatesPrivateFile();

private:
    QTemporaryDir m_dir;
    int m_fileCount = 0;
    // A fresh path per test: QSettings caches files by path.
    QString newPath() { return m_dir.filePath(QStringLiteral("test%1.conf").arg(++m_fileCount)); }
};

void TestIniFile::parses_data()
{
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<QStringList>("entries");

    QTest::newRow("empty file") << QByteArray() << QStringList{};
    QTest::newRow("comments and blank lines") << QByteArray("# top\n; top2\n[s]\n  ; indented comment\nk=v\n\n# more\n")
                                              << QStringList{"5 s/k=v"};
    QTest::newRow("spacing") << QByteArray("[s]\n  key   =   value  \nk2 :  v2\n")
                             << QStringList{"2 s/key=value", "3 s/k2=v2"};
    QTest::newRow("names lower-cased") << QByteArray("[Defaults]\nInterval_Seconds = 5\n")
                                       << QStringList{"2 defaults/interval_seconds=5"};
    QTest::newRow("first delimiter wins") << QByteArray("[s]\na = b: c\nurl: http://x=1\n")
                                          << QStringList{"2 s/a=b: c", "3 s/url=http://x=1"};
    QTest::newRow("quotes and commas verbatim") << QByteArray("[s]\ncmd=miner --pool \"a:1\" -u x,y\nq='x'\n")
                                                << QStringList{"2 s/cmd=miner --pool \"a:1\" -u x,y", "3 s/q='x'"};
    QTest::newRow("backslashes verbatim") << QByteArray("[s]\ndir=\\\\server\\share\n")
                                          << QStringList{"2 s/dir=\\\\server\\share"};
    QTest::newRow("no interpolation, no inline comments")
        << QByteArray("[s]\npct=100%\nref=%(x)s\nsemi=a ; b\nhash=a # b\n")
        << QStringList{"2 s/pct=100%", "3 s/ref=%(x)s", "4 s/semi=a ; b", "5 s/hash=a # b"};
    QTest::newRow("non-ASCII") << QByteArray("[s]\nname=Grafikkarte ü 名前\n")
                               << QStringList{QString::fromUtf8("2 s/name=Grafikkarte ü 名前")};
    QTest::newRow("no-break spaces stripped like Python") << QByteArray("[s]\nk =\xC2\xA0v\xC2\xA0\n")
                                                          << QStringList{"2 s/k=v"};
    QTest::newRow("empty values") << QByteArray("[s]\nk =\nk2:\n") << QStringList{"2 s/k=", "3 s/k2="};
    QTest::newRow("continuation") << QByteArray("[s]\ncmd = a\n  b\n\tc\nnext=1\n")
                                  << QStringList{"2 s/cmd=a\nb\nc", "5 s/next=1"};
    QTest::newRow("blank lines inside a value") << QByteArray("[s]\nk = a\n\n  b\n\n\nn=1\n")
                                                << QStringList{"2 s/k=a\n\nb", "7 s/n=1"};
    QTest::newRow("comment inside a value") << QByteArray("[s]\nk = a\n; c\n  b\n") << QStringList{"2 s/k=a\nb"};
    QTest::newRow("continuation of an empty value") << QByteArray("[s]\nk =\n  b\n") << QStringList{"2 s/k=\nb"};
    QTest::newRow("header: text after ] ignored, last ] closes")
        << QByteArray("[s] ; c\nk=1\n[a]b]\nk=2\n[ t ]\nk=3\n")
        << QStringList{"2 s/k=1", "4 a]b/k=2", "6  t /k=3"};
    QTest::newRow("indented keys") << QByteArray("[s]\n  a = 1\n  b = 2\nc = 3\n   d\n")
                                   << QStringList{"2 s/a=1", "3 s/b=2", "4 s/c=3\nd"};
    QTest::newRow("indented header continues a value") << QByteArray("[s]\na = 1\n  [t]\n")
                                                       << QStringList{"2 s/a=1\n[t]"};
    QTest::newRow("CRLF") << QByteArray("[s]\r\nk = v\r\nj=2\r\n") << QStringList{"2 s/k=v", "3 s/j=2"};
    QTest::newRow("lone CR ends a line") << QByteArray("[s]\rk=1\r\nj=2\n") << QStringList{"2 s/k=1", "3 s/j=2"};
    QTest::newRow("no final newline") << QByteArray("[s]\nk=v") << QStringList{"2 s/k=v"};
    QTest::newRow("UTF-8 BOM skipped") << QByteArray("\xEF\xBB\xBF[s]\nk=v\n") << QStringList{"2 s/k=v"};
}

void TestIniFile::parses()
{
    QFETCH(QByteArray, contents);
    QFETCH(QStringList, entries);
    const IniDocument doc = IniDocument::parse(contents);
    QCOMPARE(describeProblems(doc), QStringList{});
    QCOMPARE(describeEntries(doc), entries);
}

void TestIniFile::reportsProblems_data()
{
    QTest::addColumn<QByteArray>("contents");
    QTest::addColumn<QStringList>("problems");
    QTest::addColumn<QStringList>("entries");

    QTest::newRow("key before any section")
        << QByteArray("key=1\n[s]\nk=2\n") << QStringList{"1: 'key=1' comes before any [section] header"}
        << QStringList{"3 s/k=2"};
    QTest::newRow("no delimiter") << QByteArray("[s]\njunk\nk=2\n")
                                  << QStringList{"2: 'junk' is neither a [section] header nor a key = value line"}
                                  << QStringList{"3 s/k=2"};
    QTest::newRow("empty brackets") << QByteArray("[s]\n[]\n")
                                    << QStringList{"2: '[]' is neither a [section] header nor a key = value line"}
                                    << QStringList{};
    QTest::newRow("empty key") << QByteArray("[s]\n= v\n") << QStringList{"2: '= v' has no key before the ="}
                               << QStringList{};
    QTest::newRow("duplicate section, other case")
        << QByteArray("[s]\na=1\n\n[S]\nb=2\n") << QStringList{"4: duplicate section [s] (first at line 1)"}
        << QStringList{"2 s/a=1"};
    QTest::newRow("duplicate key, other case")
        << QByteArray("[s]\na=1\nA=2\n") << QStringList{"3: duplicate key 'a' in [s] (first at line 2)"}
        << QStringList{"2 s/a=1"};
    QTest::newRow("bad line keeps the value open, as in configparser")
        << QByteArray("[s]\na=1\nbad\n  more\n")
        << QStringList{"3: 'bad' is neither a [section] header nor a key = value line"} << QStringList{"2 s/a=1\nmore"};
    QTest::newRow("blank line before a bad line stays in the value")
        << QByteArray("[s]\na=1\n\nbad\n  more\n")
        << QStringList{"4: 'bad' is neither a [section] header nor a key = value line"}
        << QStringList{"2 s/a=1\n\nmore"};
    QTest::newRow("several problems") << QByteArray("x\n[s]\ny\n[s]\n")
                                      << QStringList{"1: 'x' comes before any [section] header",
                                                     "3: 'y' is neither a [section] header nor a key = value line",
                                                     "4: duplicate section [s] (first at line 2)"}
                                      << QStringList{};
    QTest::newRow("long line cut in the message")
        << QByteArray("[s]\n" + QByteArray(100, 'x') + "\n")
        << QStringList{"2: '" + QString(60, QLatin1Char('x'))
                        + "...' is neither a [section] header nor a key = value line"}
        << QStringList{};
    QTest::newRow("NUL byte") << QByteArray("[s]\nk=v\nx\0y\n", 11) << QStringList{"3: binary or not UTF-8 text"}
                              << QStringList{};
    QTest::newRow("Latin-1, not UTF-8") << QByteArray("[s]\nname=M\xFCller\n")
                                        << QStringList{"2: binary or not UTF-8 text"} << QStringList{};
    QTest::newRow("ELF header") << QByteArray("\x7F" "ELF\x02\x01\x01\x00\x00\x00\x00\x00\x00\x00\x00\x00\x03\x00", 18)
                                << QStringList{"1: binary or not UTF-8 text"} << QStringList{};
    QTest::newRow("PNG header") << QByteArray("\x89PNG\r\n\x1A\n\x00\x00\x00\rIHDR", 16)
                                << QStringList{"1: binary or not UTF-8 text"} << QStringList{};
}

void TestIniFile::reportsProblems()
{
    QFETCH(QByteArray, contents);
    QFETCH(QStringList, problems);
    QFETCH(QStringList, entries);
    const IniDocument doc = IniDocument::parse(contents);
    QCOMPARE(describeProblems(doc), problems);
    QCOMPARE(describeEntries(doc), entries);
}

void TestIniFile::refusesHugeFiles()
{
    const QByteArray huge = "[s]\nk=" + QByteArray(IniDocument::maxFileSize, 'x') + "\n";
    const IniDocument doc = IniDocument::parse(huge);
    QCOMPARE(describeProblems(doc), QStringList{"0: larger than 1 MiB: not a config file"});
    QVERIFY(doc.entries.isEmpty());

    const QString path = newPath();
    writeAll(path, huge);
    QString error;
    QVERIFY(!readIniFile(path, &error).has_value());
    QCOMPARE(error, QStringLiteral("it is larger than 1 MiB: not a config file"));
}

void TestIniFile::readsSectionsWithLines()
{
    const IniDocument doc = IniDocument::parse(exampleAll());
    QCOMPARE(describeProblems(doc), QStringList{});
    QStringList sections;
    for (const IniDocument::Section &section : doc.sections)
        sections.append(QStringLiteral("%1 %2").arg(section.line).arg(section.name));
    QCOMPARE(sections, (QStringList{"1 defaults", "6 gpu-all", "13 process-all", "22 tty"}));
    QCOMPARE(doc.sectionLine(QStringLiteral("tty")), 22);
    QCOMPARE(doc.sectionLine(QStringLiteral("nope")), 0);
    QVERIFY(doc.find(QStringLiteral("tty"), QStringLiteral("enabled")));
    QCOMPARE(doc.find(QStringLiteral("tty"), QStringLiteral("enabled"))->line, 23);
    QCOMPARE(doc.find(QStringLiteral("tty"), QStringLiteral("enabled"))->value, QStringLiteral("True"));
    QVERIFY(!doc.find(QStringLiteral("tty"), QStringLiteral("cmd")));
}

void TestIniFile::readsThroughQSettingsVerbatim()
{
    const QString path = newPath();
    writeAll(path, "[Process-A]\nCMD = miner --pool \"a:1\" -u x,y\ndir=\\\\server\\share\npct=100%\n");
    QSettings settings(path, idlegpuIniFormat());
    QCOMPARE(settings.status(), QSettings::NoError);
    QCOMPARE(settings.allKeys(), (QStringList{"process-a/cmd", "process-a/dir", "process-a/pct"}));
    QCOMPARE(settings.value("process-a/cmd").toString(), QStringLiteral("miner --pool \"a:1\" -u x,y"));
    QCOMPARE(settings.value("process-a/dir").toString(), QStringLiteral("\\\\server\\share"));
    QCOMPARE(settings.value("process-a/pct").toString(), QStringLiteral("100%"));
    QCOMPARE(settings.childGroups(), QStringList{"process-a"});
    QCOMPARE(idlegpuIniFormat(), settings.format()); // registered once
}

void TestIniFile::changesOneValueInPlace_data()
{
    QTest::addColumn<QByteArray>("original");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QByteArray>("expected");

    const QByteArray example = exampleAll();
    QTest::newRow("README example") << example << "defaults/interval_seconds" << "5"
                                    << QByteArray(example).replace("interval_seconds=10\n", "interval_seconds=5\n");
    QTest::newRow("README example, tty") << example << "tty/whitelist" << "alice,bob"
                                         << QByteArray(example).replace("whitelist=user1,user2", "whitelist=alice,bob");
    QTest::newRow("spacing and spelling kept")
        << QByteArray("[Defaults]\n  Interval_Seconds  :  10   \n") << "defaults/interval_seconds"
        << "20" << QByteArray("[Defaults]\n  Interval_Seconds  :  20\n");
    QTest::newRow("empty value, spaced") << QByteArray("[s]\nk =\nj=1\n") << "s/k"
                                         << "v" << QByteArray("[s]\nk = v\nj=1\n");
    QTest::newRow("empty value, tight") << QByteArray("[s]\nk=\n") << "s/k" << "v" << QByteArray("[s]\nk=v\n");
    QTest::newRow("to empty") << QByteArray("[s]\nk = v\n") << "s/k" << "" << QByteArray("[s]\nk = \n");
    QTest::newRow("quotes verbatim") << QByteArray("[s]\ncmd=a\n") << "s/cmd" << "miner --pool \"a:1\" -u x,y"
                                     << QByteArray("[s]\ncmd=miner --pool \"a:1\" -u x,y\n");
    QTest::newRow("no final newline") << QByteArray("[s]\nk=v") << "s/k" << "w" << QByteArray("[s]\nk=w");
}

void TestIniFile::changesOneValueInPlace()
{
    QFETCH(QByteArray, original);
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QByteArray, expected);
    const QString path = newPath();
    writeAll(path, original);
    {
        QSettings settings(path, idlegpuIniFormat());
        QVERIFY(settings.contains(key));
        settings.setValue(key, value);
        settings.sync();
        QCOMPARE(settings.status(), QSettings::NoError);
    }
    QCOMPARE(readAll(path), expected);
}

void TestIniFile::addsKeyAtEndOfItsSection()
{
    const QString path = newPath();
    const QByteArray example = exampleAll();
    writeAll(path, example);
    {
        QSettings settings(path, idlegpuIniFormat());
        settings.setValue("process-all/env", "CUDA_DEVICE_ORDER=PCI_BUS_ID");
        settings.setValue("process-all/name", "miner");
        settings.sync();
        QCOMPARE(settings.status(), QSettings::NoError);
    }
    QCOMPARE(readAll(path), QByteArray(example).replace(
                                "log=/dev/null\n", "log=/dev/null\nenv=CUDA_DEVICE_ORDER=PCI_BUS_ID\nname=miner\n"));

    // The file's spacing and the section's indentation are followed.
    const QString spaced = newPath();
    writeAll(spaced, "[a]\n  x = 1\n      more\n; about b\n[b]\ny = 2\n");
    {
        QSettings settings(spaced, idlegpuIniFormat());
        settings.setValue("a/z", "3");
        settings.setValue("b/w", "4");
    }
    QCOMPARE(readAll(spaced), QByteArray("[a]\n  x = 1\n      more\n  z = 3\n; about b\n[b]\ny = 2\nw = 4\n"));
    QSettings reread(spaced, idlegpuIniFormat());
    QCOMPARE(reread.value("a/x").toString(), QStringLiteral("1\nmore"));
    QCOMPARE(reread.value("a/z").toString(), QStringLiteral("3"));
}

void TestIniFile::removesKeyLine()
{
    const QString path = newPath();
    const QByteArray example = exampleAll();
    writeAll(path, example);
    {
        QSettings settings(path, idlegpuIniFormat());
        settings.remove("gpu-all/ignore_programs");
    }
    QCOMPARE(readAll(path), QByteArray(example).replace("ignore_programs=nvidia-smi\n", ""));

    // With its continuation lines, leaving comments between them.
    const QString multi = newPath();
    writeAll(multi, "[s]\ncmd = a\n  b\n; note\n  c\nnext=1\n");
    {
        QSettings settings(multi, idlegpuIniFormat());
        settings.remove("s/cmd");
    }
    QCOMPARE(readAll(multi), QByteArray("[s]\n; note\nnext=1\n"));

    // A whole section's keys; the header stays.
    const QString group = newPath();
    writeAll(group, example);
    {
        QSettings settings(group, idlegpuIniFormat());
        settings.remove("tty");
    }
    QByteArray expected = example;
    expected.replace("enabled=True\nwhitelist=user1,user2\n", "").replace("idle_seconds=300\n", "");
    QCOMPARE(readAll(group), expected);
}

void TestIniFile::addsSectionAtEnd()
{
    const QString path = newPath();
    const QByteArray example = exampleAll();
    writeAll(path, example);
    {
        QSettings settings(path, idlegpuIniFormat());
        settings.setValue("process-boinc/cmd", "boinc --dir /var/lib/boinc");
        settings.setValue("process-boinc/gpus", "1");
    }
    QCOMPARE(readAll(path), example + "\n[process-boinc]\ncmd=boinc --dir /var/lib/boinc\ngpus=1\n");
}

void TestIniFile::unchangedSyncKeepsBytes()
{
    const QString path = newPath();
    const QByteArray original = "\xEF\xBB\xBF; odd but valid\r\n[S]  trailing\r\n  K :v  \r\n\t\t\tmore\r\n\r\n# end";
    writeAll(path, original);
    {
        QSettings settings(path, idlegpuIniFormat());
        settings.sync();
    }
    QCOMPARE(readAll(path), original);
    {
        // Every value set to what it is forces a write; it must produce the same bytes.
        QSettings settings(path, idlegpuIniFormat());
        QCOMPARE(settings.allKeys(), QStringList{"s/k"});
        settings.setValue("s/k", settings.value("s/k"));
        settings.sync();
        QCOMPARE(settings.status(), QSettings::NoError);
    }
    QCOMPARE(readAll(path), original);

    const QString example = newPath();
    writeAll(example, exampleAll());
    {
        QSettings settings(example, idlegpuIniFormat());
        const QStringList keys = settings.allKeys();
        for (const QString &key : keys)
            settings.setValue(key, settings.value(key));
    }
    QCOMPARE(readAll(example), exampleAll());
}

void TestIniFile::keepsMode_data()
{
    QTest::addColumn<uint>("mode");
    QTest::newRow("0600") << 0600u;
    QTest::newRow("0640") << 0640u;
}

void TestIniFile::keepsMode()
{
    QFETCH(uint, mode);
    const QString path = newPath();
    writeAll(path, exampleAll());
    QCOMPARE(::chmod(QFile::encodeName(path).constData(), mode), 0);
    struct stat before = {};
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &before), 0);
    {
        QSettings settings(path, idlegpuIniFormat());
        settings.setValue("defaults/interval_seconds", "30");
        settings.sync();
        QCOMPARE(settings.status(), QSettings::NoError);
    }
    QCOMPARE(uint(fileMode(path)), mode);
    struct stat after = {};
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &after), 0);
    QVERIFY2(after.st_ino != before.st_ino, "the file was rewritten in place, not replaced atomically (QSaveFile)");
    QVERIFY(readAll(path).contains("interval_seconds=30\n"));
    // No temporary or lock file is left behind.
    QCOMPARE(QDir(m_dir.path()).entryList({QFileInfo(path).fileName() + QLatin1Char('*')}, QDir::Files | QDir::Hidden),
             QStringList{QFileInfo(path).fileName()});
}

void TestIniFile::keepsFileOfComments()
{
    const QString path = newPath();
    const QByteArray comments
        = "# a config made only of comments\n;\n;; [not-a-section]\n# key=value\n\n   ; indented\n";
    writeAll(path, comments);
    {
        QSettings settings(path, idlegpuIniFormat());
        QVERIFY(settings.allKeys().isEmpty());
        settings.setValue("defaults/interval_seconds", "10");
    }
    QCOMPARE(readAll(path), comments + "\n[defaults]\ninterval_seconds=10\n");
}

void TestIniFile::writesMultiLineValues()
{
    const QString path = newPath();
    writeAll(path, "[s]\nk = v\n");
    {
        QSettings settings(path, idlegpuIniFormat());
        settings.setValue("s/k", "first\nsecond\n\nfourth");
        settings.setValue("s/new", "a\nb");
    }
    QCOMPARE(readAll(path), QByteArray("[s]\nk = first\n    second\n\n    fourth\nnew = a\n    b\n"));
    QSettings reread(path, idlegpuIniFormat());
    QCOMPARE(reread.value("s/k").toString(), QStringLiteral("first\nsecond\n\nfourth"));
    QCOMPARE(reread.value("s/new").toString(), QStringLiteral("a\nb"));
}

void TestIniFile::replacesMultiLineValue()
{
    const QString path = newPath();
    writeAll(path, "[s]\n  cmd = a\n    b\n  next = 1\n");
    {
        QSettings settings(path, idlegpuIniFormat());
        settings.setValue("s/cmd", "x\ny");
    }
    QCOMPARE(readAll(path), QByteArray("[s]\n  cmd = x\n      y\n  next = 1\n"));
    {
        QSettings settings(path, idlegpuIniFormat());
        settings.setValue("s/cmd", "z");
    }
    QCOMPARE(readAll(path), QByteArray("[s]\n  cmd = z\n  next = 1\n"));
}

void TestIniFile::keepsLineEndingsAndBom()
{
    const QString path = newPath();
    writeAll(path, "\xEF\xBB\xBF[s]\r\nk=1\r\n; c\r\n");
    {
        QSettings settings(path, idlegpuIniFormat());
        settings.setValue("s/k", "2");
        settings.setValue("s/j", "3");
        settings.setValue("t/x", "4");
    }
    QCOMPARE(readAll(path), QByteArray("\xEF\xBB\xBF[s]\r\nk=2\r\nj=3\r\n; c\r\n\r\n[t]\r\nx=4\r\n"));
}

void TestIniFile::createsNewFile()
{
    const QString path = newPath();
    {
        QSettings settings(path, idlegpuIniFormat());
        settings.setValue("process-0/cmd", "miner-run");
        settings.setValue("defaults/interval_seconds", 10);
        settings.setValue("tty/enabled", true);
        settings.setValue("tty/whitelist", QStringList{"user1", "user2"});
    }
    QCOMPARE(readAll(path), QByteArray("[defaults]\ninterval_seconds=10\n\n[process-0]\ncmd=miner-run\n\n[tty]\n"
                                       "enabled=true\nwhitelist=user1,user2\n"));
}

void TestIniFile::editsThroughSymlink()
{
    const QString target = newPath();
    const QString link = newPath();
    writeAll(target, "[s]\nk=1\n");
    QVERIFY(QFile::link(target, link));
    {
        QSettings settings(link, idlegpuIniFormat());
        settings.setValue("s/k", "2");
    }
    QVERIFY(QFileInfo(link).isSymLink());
    QCOMPARE(readAll(target), QByteArray("[s]\nk=2\n"));
}

void TestIniFile::refusesUnwritableValues_data()
{
    QTest::addColumn<QString>("key");
    QTest::addColumn<QVariant>("value");

    QTest::newRow("continuation line that reads as a comment") << "s/k" << QVariant("a\n; b");
    QTest::newRow("value with spaces around") << "s/k" << QVariant("  w  ");
    QTest::newRow("value line with spaces around") << "s/k" << QVariant("a\n  b");
    QTest::newRow("value ending in a line break") << "s/k" << QVariant("a\n");
    QTest::newRow("value with CRLF") << "s/k" << QVariant("a\r\nb");
    QTest::newRow("key with =") << "s/a=b" << QVariant("1");
    QTest::newRow("key with :") << "s/a:b" << QVariant("1");
    QTest::newRow("key starting with ;") << "s/;k" << QVariant("1");
    QTest::newRow("key starting with [") << "s/[k]" << QVariant("1");
    QTest::newRow("key with spaces around") << "s/ k" << QVariant("1");
    QTest::newRow("key without section") << "lonely" << QVariant("1");
    QTest::newRow("NUL in value") << "s/k" << QVariant(QString(QChar()));
    QTest::newRow("not text") << "s/k" << QVariant(QVariantMap{{"a", 1}});
    QTest::newRow("same key, other case, other value") << "S/K" << QVariant("2");
}

void TestIniFile::refusesUnwritableValues()
{
    QFETCH(QString, key);
    QFETCH(QVariant, value);
    const QString path = newPath();
    const QByteArray original = "[s]\nk=1\n";
    writeAll(path, original);
    {
        QSettings settings(path, idlegpuIniFormat());
        settings.setValue(key, value);
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression("^not saving "));
        settings.sync();
        QCOMPARE(settings.status(), QSettings::AccessError);
    }
    QCOMPARE(readAll(path), original);
}

void TestIniFile::leavesBinaryFileAlone()
{
    const QString path = newPath();
    const QByteArray binary("\x7F" "ELF\x02\x01\x01\x00[s]\nk=1\n", 16);
    writeAll(path, binary);
    {
        QSettings settings(path, idlegpuIniFormat());
        QCOMPARE(settings.status(), QSettings::FormatError);
        QVERIFY(settings.allKeys().isEmpty());
        settings.setValue("s/k", "2");
        QTest::ignoreMessage(QtWarningMsg, QRegularExpression("^not saving "));
        settings.sync();
    }
    QCOMPARE(readAll(path), binary);
}

void TestIniFile::leavesBrokenLinesAlone()
{
    const QString path = newPath();
    const QByteArray broken = "stray=1\n[s]\nk=1\nk=dup\njunk line\n[s]\nk=3\n";
    writeAll(path, broken);
    {
        QSettings settings(path, idlegpuIniFormat());
        QCOMPARE(settings.status(), QSettings::NoError); // syntax problems are IniDocument's to report
        QCOMPARE(settings.allKeys(), QStringList{"s/k"});
        QCOMPARE(settings.value("s/k").toString(), QStringLiteral("1"));
        settings.setValue("s/k", "2");
    }
    QCOMPARE(readAll(path), QByteArray("stray=1\n[s]\nk=2\nk=dup\njunk line\n[s]\nk=3\n"));
}

// ---------------------------------------------------------------------------------------------------------
// IniText and IniEdit: several edits on one parse, one result

namespace {
const QByteArray threeWorkloads = "# idlegpu\n"
                                  "[defaults]\n"
                                  "interval_seconds = 5\n"
                                  "\n"
                                  "; the first one\n"
                                  "# runs on GPU 0\n"
                                  "[process-one]\n"
                                  "cmd = sh -c 'sleep 1'\n"
                                  "# gpus = 1\n"
                                  "gpus = 0\n"
                                  "\n"
                                  "[process-two]\n"
                                  "cmd = true\n"
                                  "    --long\n"
                                  "\n"
                                  "\n"
                                  "; about three\n"
                                  "[process-three]\n"
                                  "cmd = false\n";
} // namespace

void TestIniFile::editMovesSectionWithItsComments_data()
{
    QTest::addColumn<QByteArray>("original");
    QTest::addColumn<QStringList>("atEnd");
    QTest::addColumn<QVariantMap>("setKeys");
    QTest::addColumn<QByteArray>("expected");

    QTest::newRow("first to the end, comments above and inside go with it")
        << threeWorkloads << QStringList{"process-one"} << QVariantMap()
        << QByteArray("# idlegpu\n[defaults]\ninterval_seconds = 5\n\n"
                      "[process-two]\ncmd = true\n    --long\n\n"
                      "; about three\n[process-three]\ncmd = false\n\n\n"
                      "; the first one\n# runs on GPU 0\n[process-one]\ncmd = sh -c 'sleep 1'\n# gpus = 1\ngpus = 0\n");
    QTest::newRow("two moved, edited where they stand")
        << threeWorkloads << QStringList{"process-two", "process-one"}
        << QVariantMap{{"process-one/gpus", "1"}, {"process-two/name", "second"}, {"defaults/interval_seconds", "6"}}
        << QByteArray("# idlegpu\n[defaults]\ninterval_seconds = 6\n\n"
                      "; about three\n[process-three]\ncmd = false\n\n"
                      "[process-two]\ncmd = true\n    --long\nname = second\n\n\n"
                      "; the first one\n# runs on GPU 0\n[process-one]\ncmd = sh -c 'sleep 1'\n# gpus = 1\ngpus = 1\n");
    QTest::newRow("last one without a newline moves up")
        << QByteArray("[a]\nk=1\n\n# b\n[b]\nk=2") << QStringList{"a"} << QVariantMap()
        << QByteArray("# b\n[b]\nk=2\n\n[a]\nk=1\n");
    QTest::newRow("CRLF and a new section after the moved one")
        << QByteArray("[a]\r\nk=1\r\n\r\n[b]\r\nk=2\r\n") << QStringList{"a", "c"} << QVariantMap{{"c/k", "3"}}
        << QByteArray("[b]\r\nk=2\r\n\r\n[a]\r\nk=1\r\n\r\n[c]\r\nk=3\r\n");
    QTest::newRow("a new section before a moved one")
        << QByteArray("[a]\nk=1\n\n[b]\nk=2\n") << QStringList{"c", "a"} << QVariantMap{{"c/k", "3"}}
        << QByteArray("[b]\nk=2\n\n[c]\nk=3\n\n[a]\nk=1\n");
    QTest::newRow("already at the end: unchanged")
        << threeWorkloads << QStringList{"process-three"} << QVariantMap() << threeWorkloads;
}

void TestIniFile::editMovesSectionWithItsComments()
{
    QFETCH(QByteArray, original);
    QFETCH(QStringList, atEnd);
    QFETCH(QVariantMap, setKeys);
    QFETCH(QByteArray, expected);
    IniEdit edit;
    edit.sectionsAtEnd = atEnd;
    for (auto it = setKeys.constBegin(); it != setKeys.constEnd(); ++it)
        edit.setKeys.insert(it.key(), it.value().toString());
    QString error;
    const std::optional<QByteArray> edited = IniText::parse(original).edited(edit, &error);
    QVERIFY2(edited, qPrintable(error));
    QCOMPARE(*edited, expected);
}

void TestIniFile::editRemovesSections_data()
{
    QTest::addColumn<QByteArray>("original");
    QTest::addColumn<QStringList>("removed");
    QTest::addColumn<QByteArray>("expected");

    QTest::newRow("middle one, its comments and one blank line")
        << threeWorkloads << QStringList{"process-one"}
        << QByteArray("# idlegpu\n[defaults]\ninterval_seconds = 5\n\n"
                      "[process-two]\ncmd = true\n    --long\n\n\n; about three\n[process-three]\ncmd = false\n");
    QTest::newRow("last one")
        << threeWorkloads << QStringList{"process-three"}
        << QByteArray("# idlegpu\n[defaults]\ninterval_seconds = 5\n\n; the first one\n# runs on GPU 0\n"
                      "[process-one]\ncmd = sh -c 'sleep 1'\n# gpus = 1\ngpus = 0\n\n"
                      "[process-two]\ncmd = true\n    --long\n\n\n");
    QTest::newRow("with its duplicate") << QByteArray("[a]\nk=1\n[b]\nk=2\n[a]\nj=3\n") << QStringList{"a"}
                                        << QByteArray("[b]\nk=2\n");
}

void TestIniFile::editRemovesSections()
{
    QFETCH(QByteArray, original);
    QFETCH(QStringList, removed);
    QFETCH(QByteArray, expected);
    IniEdit edit;
    edit.removeSections = removed;
    QString error;
    const std::optional<QByteArray> edited = IniText::parse(original).edited(edit, &error);
    QVERIFY2(edited, qPrintable(error));
    QCOMPARE(*edited, expected);
}

void TestIniFile::editWritesNewSectionsInOrder()
{
    // The order given, not the order of the keys: a workload's place is its priority.
    IniEdit edit;
    edit.setKeys = {{"process-b/cmd", "b"}, {"process-a/cmd", "a"}, {"tty/enabled", "true"}};
    edit.sectionsAtEnd = {"process-b", "process-a"};
    edit.removeKeys = {"defaults/interval_seconds"};
    QString error;
    const std::optional<QByteArray> edited
        = IniText::parse("[defaults]\ninterval_seconds=5\nstart_delay_seconds=1\n").edited(edit, &error);
    QVERIFY2(edited, qPrintable(error));
    QCOMPARE(*edited, QByteArray("[defaults]\nstart_delay_seconds=1\n\n[process-b]\ncmd=b\n\n[process-a]\ncmd=a\n\n"
                                 "[tty]\nenabled=true\n"));
    const IniText empty;
    QVERIFY(empty.document().sections.isEmpty());
    QCOMPARE(empty.edited(edit, &error).value_or("<refused>"),
             QByteArray("[process-b]\ncmd=b\n\n[process-a]\ncmd=a\n\n[tty]\nenabled=true\n"));
}

void TestIniFile::unchangedEditKeepsBytes()
{
    const QByteArray original = "\xEF\xBB\xBF; odd but valid\r\n[S]  trailing\r\n  K :v  \r\n\t\t\tmore\r\n\r\n# end";
    const IniText text = IniText::parse(original);
    QCOMPARE(text.contents(), original);
    QString error;
    QCOMPARE(text.edited(IniEdit(), &error).value_or("<refused>"), original);
    IniEdit same;
    same.setKeys = {{"s/k", "v\nmore"}};
    QCOMPARE(text.edited(same, &error).value_or("<refused>"), original);

    const IniText example = IniText::parse(exampleAll());
    IniEdit all;
    for (const IniDocument::Entry &entry : example.document().entries)
        all.setKeys.insert(entry.section + QLatin1Char('/') + entry.key, entry.value);
    QCOMPARE(example.edited(all, &error).value_or("<refused>"), exampleAll());
}

void TestIniFile::editRefusesWhatWouldNotReadBack_data()
{
    QTest::addColumn<QByteArray>("original");
    QTest::addColumn<QString>("key");
    QTest::addColumn<QString>("value");
    QTest::addColumn<QStringList>("removed");

    QTest::newRow("value with spaces around") << QByteArray("[s]\nk=1\n") << "s/k" << "  w  " << QStringList();
    QTest::newRow("key without section") << QByteArray("[s]\nk=1\n") << "lonely" << "1" << QStringList();
    QTest::newRow("section removed and edited") << QByteArray("[s]\nk=1\n") << "s/k" << "2" << QStringList{"s"};
    QTest::newRow("binary file") << QByteArray("\x7F" "ELF\x02\x01\x01\x00[s]\nk=1\n", 16) << "s/k" << "2"
                                 << QStringList();
    QTest::newRow("duplicate key comes up") << QByteArray("[s]\nk=1\nk=dup\n") << "" << "" << QStringList();
}

void TestIniFile::editRefusesWhatWouldNotReadBack()
{
    QFETCH(QByteArray, original);
    QFETCH(QString, key);
    QFETCH(QString, value);
    QFETCH(QStringList, removed);
    IniEdit edit;
    if (!key.isEmpty())
        edit.setKeys.insert(key, value);
    else
        edit.removeKeys = {"s/k"};
    edit.removeSections = removed;
    QString error;
    QVERIFY(!IniText::parse(original).edited(edit, &error));
    QVERIFY(!error.isEmpty());
}

void TestIniFile::replaceIsOneAtomicRenameKeepingMode_data()
{
    QTest::addColumn<uint>("mode");
    QTest::newRow("0600") << 0600u;
    QTest::newRow("0640") << 0640u;
}

void TestIniFile::replaceIsOneAtomicRenameKeepingMode()
{
    QFETCH(uint, mode);
    const QString path = newPath();
    writeAll(path, exampleAll());
    QCOMPARE(::chmod(QFile::encodeName(path).constData(), mode), 0);
    struct stat before = {};
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &before), 0);
    QString error;
    QVERIFY2(replaceIniFile(path, "[defaults]\ninterval_seconds=30\n", &error), qPrintable(error));
    QCOMPARE(uint(fileMode(path)), mode);
    struct stat after = {};
    QCOMPARE(::stat(QFile::encodeName(path).constData(), &after), 0);
    QVERIFY2(after.st_ino != before.st_ino, "the file was rewritten in place, not replaced atomically");
    QCOMPARE(readAll(path), QByteArray("[defaults]\ninterval_seconds=30\n"));
    QCOMPARE(QDir(m_dir.path()).entryList({QFileInfo(path).fileName() + QLatin1Char('*')}, QDir::Files | QDir::Hidden),
             QStringList{QFileInfo(path).fileName()});

    // Through a link, the target is replaced and the link stays.
    const QString link = newPath();
    QVERIFY(QFile::link(path, link));
    QVERIFY2(replaceIniFile(link, "[s]\nk=2\n", &error), qPrintable(error));
    QVERIFY(QFileInfo(link).isSymLink());
    QCOMPARE(readAll(path), QByteArray("[s]\nk=2\n"));
    QCOMPARE(uint(fileMode(path)), mode);
}

void TestIniFile::replaceCreatesPrivateFile()
{
    const QString path = m_dir.filePath(QStringLiteral("new/folder/idlegpu.conf"));
    QString error;
    QVERIFY2(replaceIniFile(path, "[process-a]\ncmd=true\n", &error), qPrintable(error));
    QCOMPARE(fileMode(path), mode_t(0600));
    QCOMPARE(readAll(path), QByteArray("[process-a]\ncmd=true\n"));
}

QTEST_GUILESS_MAIN(TestIniFile)
#include "tst_inifile.moc"
