// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The translations are complete: lupdate extracts every source string of widgets/, app/ and the words of monitor/
// that the GUI shows into a scratch .ts;
// each must be translated (finished) in every translations/idlegpu_*.ts, with the same placeholders.
#include <QDir>
#include <QDirIterator>
#include <QFileInfo>
#include <QLibraryInfo>
#include <QProcess>
#include <QRegularExpression>
#include <QStandardPaths>
#include <QTemporaryDir>
#include <QTranslator>
#include <QXmlStreamReader>
#include <QtTest>

namespace {

// From the build definition, not __FILE__: a compiler cache may compile with relative paths.
const QString kSourceRoot = QStringLiteral(IDLEGPU_TEST_DATA "/../..");

struct Entry
{
    QString translation;
    QString type; // "" when finished; unfinished, vanished, obsolete
};

// context + '\x1f' + source -> entry
using Catalogue = QHash<QString, Entry>;

Catalogue readTs(const QString &path, QString *error)
{
    Catalogue catalogue;
    QFile file(path);
    if (!file.open(QIODevice::ReadOnly)) {
        *error = file.errorString();
        return catalogue;
    }
    QXmlStreamReader xml(&file);
    QString context;
    QString source;
    while (!xml.atEnd()) {
        xml.readNext();
        if (!xml.isStartElement())
            continue;
        if (xml.name() == QLatin1String("name")) {
            context = xml.readElementText();
        } else if (xml.name() == QLatin1String("source")) {
            source = xml.readElementText();
        } else if (xml.name() == QLatin1String("translation")) {
            Entry entry;
            entry.type = xml.attributes().value(QLatin1String("type")).toString();
            entry.translation = xml.readElementText(QXmlStreamReader::IncludeChildElements);
            catalogue.insert(context + QChar(0x1f) + source, entry);
        }
    }
    if (xml.hasError())
        *error = QStringLiteral("%1:%2: %3").arg(path).arg(xml.lineNumber()).arg(xml.errorString());
    return catalogue;
}

QString lupdatePath()
{
    const QString fromQt = QLibraryInfo::path(QLibraryInfo::BinariesPath) + QStringLiteral("/lupdate");
    if (QFileInfo(fromQt).isExecutable())
        return fromQt;
    if (QFileInfo(QStringLiteral("/usr/lib/qt6/bin/lupdate")).isExecutable())
        return QStringLiteral("/usr/lib/qt6/bin/lupdate");
    return QStandardPaths::findExecutable(QStringLiteral("lupdate"));
}

QStringList placeholders(const QString &text)
{
    static const QRegularExpression placeholder(QStringLiteral("%(\\d+|n)"));
    QStringList found;
    for (auto it = placeholder.globalMatch(text); it.hasNext();)
        found.append(it.next().captured());
    found.sort();
    found.removeDuplicates();
    return found;
}

QString describe(const QString &key)
{
    const QStringList parts = key.split(QChar(0x1f));
    return QStringLiteral("[%1] \"%2\"").arg(parts.value(0), parts.value(1));
}

} // namespace

class TestTranslations : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void initTestCase();
    void complete_data();
    void complete();
    void embeddedInTheLibrary_data();
    void embeddedInTheLibrary();

private:
    Catalogue m_sourceStrings;
};

void TestTranslations::initTestCase()
{
    const QString lupdate = lupdatePath();
    if (lupdate.isEmpty())
        QSKIP("lupdate not found (install qt6-l10n-tools)");
    QTemporaryDir dir;
    QVERIFY(dir.isValid());
    QStringList sources;
    for (const QString &folder : {QStringLiteral("widgets"), QStringLiteral("app")}) {
        QDirIterator it(kSourceRoot + QLatin1Char('/') + folder, {QStringLiteral("*.cpp"), QStringLiteral("*.h")},
                        QDir::Files, QDirIterator::Subdirectories);
        while (it.hasNext())
            sources.append(it.next());
    }
    // The words of monitor/ that the GUI shows (the log says them in English): as widgets/CMakeLists.txt lists them.
    sources.append(kSourceRoot + QStringLiteral("/monitor/policy/holdwords.cpp"));
    sources.append(kSourceRoot + QStringLiteral("/monitor/bus/remotemonitor.cpp"));
    QVERIFY2(sources.size() > 10, qPrintable(kSourceRoot));

    const QString scratch = dir.filePath(QStringLiteral("extracted.ts"));
    QProcess process;
    process.start(lupdate, QStringList{QStringLiteral("-silent"), QStringLiteral("-locations"), QStringLiteral("none")}
                               + sources + QStringList{QStringLiteral("-ts"), scratch});
    QVERIFY2(process.waitForFinished(60'000), qPrintable(process.errorString()));
    QVERIFY2(process.exitCode() == 0, process.readAllStandardError().constData());

    QString error;
    m_sourceStrings = readTs(scratch, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));
    QVERIFY(m_sourceStrings.size() > 50);
    // The tray's own strings, as a check that the extraction saw the sources at all.
    QVERIFY(m_sourceStrings.contains(QStringLiteral("TrayController") + QChar(0x1f) + QStringLiteral("Pause all")));
}

void TestTranslations::complete_data()
{
    QTest::addColumn<QString>("tsFile");
    const QDir translations(kSourceRoot + QStringLiteral("/translations"));
    const QStringList files = translations.entryList({QStringLiteral("idlegpu_*.ts")}, QDir::Files);
    QVERIFY(files.contains(QStringLiteral("idlegpu_zh_CN.ts")));
    QVERIFY(files.contains(QStringLiteral("idlegpu_zh_TW.ts")));
    for (const QString &file : files)
        QTest::newRow(qPrintable(file)) << translations.filePath(file);
}

void TestTranslations::complete()
{
    QFETCH(QString, tsFile);
    QString error;
    const Catalogue translated = readTs(tsFile, &error);
    QVERIFY2(error.isEmpty(), qPrintable(error));

    QStringList problems;
    for (auto it = m_sourceStrings.cbegin(); it != m_sourceStrings.cend(); ++it) {
        const auto found = translated.constFind(it.key());
        if (found == translated.cend())
            problems.append(QStringLiteral("missing: %1").arg(describe(it.key())));
        else if (!found->type.isEmpty())
            problems.append(QStringLiteral("%1: %2").arg(found->type, describe(it.key())));
        else if (found->translation.isEmpty())
            problems.append(QStringLiteral("empty: %1").arg(describe(it.key())));
        else if (placeholders(found->translation) != placeholders(it.key().section(QChar(0x1f), 1)))
            problems.append(QStringLiteral("placeholders differ: %1 -> \"%2\"").arg(describe(it.key()), found->translation));
    }
    // Entries no source has (any longer), and those lupdate has marked as gone.
    for (auto it = translated.cbegin(); it != translated.cend(); ++it)
        if (it->type == QLatin1String("vanished") || it->type == QLatin1String("obsolete"))
            problems.append(QStringLiteral("%1: %2").arg(it->type, describe(it.key())));
    problems.removeDuplicates();
    problems.sort();
    QVERIFY2(problems.isEmpty(), qPrintable(problems.join(QLatin1Char('\n'))));
}

void TestTranslations::embeddedInTheLibrary_data()
{
    QTest::addColumn<QString>("locale");
    QTest::addColumn<QString>("pauseAll");
    QTest::newRow("zh_CN") << QStringLiteral("zh_CN") << QStringLiteral("全部暂停");
    QTest::newRow("zh_TW") << QStringLiteral("zh_TW") << QStringLiteral("全部暫停");
}

// What runTray() loads: the .qm files built by qt_add_translations, under :/i18n.
void TestTranslations::embeddedInTheLibrary()
{
    QFETCH(QString, locale);
    QFETCH(QString, pauseAll);
    QTranslator translator;
    QVERIFY(translator.load(QLocale(locale), QStringLiteral("idlegpu"), QStringLiteral("_"), QStringLiteral(":/i18n")));
    QCOMPARE(translator.translate("TrayController", "Pause all"), pauseAll);
}

QTEST_MAIN(TestTranslations)
#include "tst_translations.moc"
