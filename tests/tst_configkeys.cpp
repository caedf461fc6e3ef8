// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The table of the config's keys (config/configkeys.h) against what the user reads: docs/configuration.md's table
// and the example file resources/idlegpu.conf.example name the same keys as the table, both ways, each with its
// default and its range. And the table against itself: one row per key, each key's text read back as its value.
#include "config/config.h"
#include "config/configkeys.h"
#include "config/inifile.h"

#include <QFile>
#include <QRegularExpression>
#include <QtTest>

namespace {

const QString kSourceRoot = QStringLiteral(IDLEGPU_TEST_DATA "/../..");

QString readSource(const QString &path)
{
    QFile file(kSourceRoot + QLatin1Char('/') + path);
    return file.open(QIODevice::ReadOnly) ? QString::fromUtf8(file.readAll()) : QString();
}

// A default as the documents may write it and the table says it: lower case, without `code` quotes, "quotes",
// parentheses around the whole, or runs of spaces.
QString normalised(QString text)
{
    text.remove(QLatin1Char('`')).remove(QLatin1Char('"'));
    text = text.simplified().toLower();
    if (text.startsWith(QLatin1Char('(')) && text.endsWith(QLatin1Char(')')))
        text = text.mid(1, text.size() - 2);
    return text;
}

// "[defaults] interval_seconds", the table's name of a row.
QStringList names(const QList<const KeyRow *> &rows)
{
    QStringList result;
    for (const KeyRow *row : rows)
        result.append(row->name());
    return result;
}

// "1–3600" in the reference, "1-3600" in the example.
QString rangeText(const KeyRow &row, QChar dash)
{
    return QString::number(row.range.min) + dash + QString::number(row.range.max);
}

bool hasRange(const KeyRow &row)
{
    return row.kind == KeyKind::Seconds || row.kind == KeyKind::Number;
}

// The least a file needs around the key of `row`: its section ("[gpu-x]" for every GPU group), and for a workload's
// key the workload's command (a service's two commands for the keys of a service).
QString sectionAround(const KeyRow &row)
{
    QString base = QStringLiteral("[%1]\n").arg(
        QString(QLatin1String(row.section)).replace(QLatin1Char('*'), QLatin1Char('x')));
    if (row.repeated() && QLatin1String(row.section) == QLatin1String("process-*")) {
        const bool service = QLatin1String(row.key) != QLatin1String("cmd")
                             && (QLatin1String(row.key).contains(QLatin1String("_cmd"))
                                 || QLatin1String(row.key) == QLatin1String("command_timeout_seconds"));
        base += service ? QStringLiteral("start_cmd = a\nstop_cmd = b\n") : QStringLiteral("cmd = a\n");
    }
    return base;
}

// `base` with `key = value` in place of any line of that key.
QString withKey(const QString &base, const QString &key, const QString &value)
{
    QString with;
    for (const QString &line : base.split(QLatin1Char('\n'), Qt::SkipEmptyParts))
        if (!line.startsWith(key + QLatin1Char(' ')))
            with += line + QLatin1Char('\n');
    return with + QStringLiteral("%1 = %2\n").arg(key, value);
}

// One row of the reference's table of keys.
struct DocumentedKey
{
    QString defaultText;
    QString meaning;
};

// docs/configuration.md's "## Keys" table: "[section] key" -> its default and meaning. A row with an empty first cell
// is of the section above it.
QMap<QString, DocumentedKey> documentedKeys(QString *error)
{
    const QString text = readSource(QStringLiteral("docs/configuration.md"));
    const qsizetype start = text.indexOf(QLatin1String("\n## Keys\n"));
    if (start < 0) {
        *error = QStringLiteral("docs/configuration.md has no ## Keys");
        return {};
    }
    QMap<QString, DocumentedKey> keys;
    QString section;
    const QStringList lines = text.mid(start).split(QLatin1Char('\n')).mid(2);
    static const QRegularExpression row(QStringLiteral("^\\| *(`\\[([^]]+)\\]`)? *\\| *`([a-z_]+)` *\\| *([^|]*)\\| *(.*)\\|$"));
    for (const QString &line : lines) {
        if (line.startsWith(QLatin1String("## ")))
            break;
        const QRegularExpressionMatch match = row.match(line);
        if (!match.hasMatch())
            continue;
        if (!match.captured(2).isEmpty())
            section = match.captured(2);
        keys.insert(QStringLiteral("[%1] %2").arg(section, match.captured(3)),
                    {match.captured(4).trimmed(), match.captured(5).trimmed()});
    }
    return keys;
}

// One key in the example file: its value and the comments that explain it.
struct ExampleKey
{
    QString value;
    QString comment;
};

// resources/idlegpu.conf.example: "[section] key" (the table's section: [gpu-*] for every GPU group) -> each place
// the key stands.
QMultiMap<QString, ExampleKey> exampleKeys(QString *unknownSection)
{
    const QString text = readSource(QStringLiteral("resources/idlegpu.conf.example"));
    const QStringList lines = text.split(QLatin1Char('\n'));
    const IniDocument document = IniDocument::parse(text.toUtf8());
    QMultiMap<QString, ExampleKey> keys;
    for (const IniDocument::Entry &entry : document.entries) {
        const QString section = ConfigKeys::sectionOf(entry.section);
        if (section.isEmpty())
            *unknownSection = entry.section;
        // The comment lines right above the key, and above its section's header for the first key of a section.
        QStringList comment;
        for (int line = entry.line - 2; line >= 0; --line) {
            if (lines.at(line).startsWith(QLatin1Char('#')))
                comment.prepend(lines.at(line).mid(1).trimmed());
            else if (!lines.at(line).startsWith(QLatin1Char('[')) || line != entry.line - 2)
                break;
        }
        keys.insert(QStringLiteral("[%1] %2").arg(section, entry.key), {entry.value, comment.join(QLatin1Char(' '))});
    }
    return keys;
}

} // namespace

class TestConfigKeys : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    // One row per key of a section; a row's kind has what it needs.
    void rowsAreWhole()
    {
        QSet<QString> seen;
        for (const KeyRow *row : ConfigKeys::table()) {
            QVERIFY2(!seen.contains(row->name()), qPrintable(row->name()));
            seen.insert(row->name());
            QVERIFY2(row->text, qPrintable(row->name()));
            QCOMPARE(&ConfigKeys::row(QLatin1String(row->section), QLatin1String(row->key)), row);
            if (hasRange(*row))
                QVERIFY2(row->range.min <= row->range.max && row->range.max > 0, qPrintable(row->name()));
            if (row->kind == KeyKind::Number)
                QVERIFY2(row->unit, qPrintable(row->name()));
        }
        QCOMPARE(ConfigKeys::sections(), (QStringList{"defaults", "gpu-*", "process-*", "tty", "activity", "schedule",
                                                      "slurm", "metrics"}));
        QCOMPARE(ConfigKeys::sectionOf(QStringLiteral("gpu0")), QStringLiteral("gpu-*"));
        QCOMPARE(ConfigKeys::sectionOf(QStringLiteral("process-all")), QStringLiteral("process-*"));
        QCOMPARE(ConfigKeys::sectionOf(QStringLiteral("tty")), QStringLiteral("tty"));
        QCOMPARE(ConfigKeys::sectionOf(QStringLiteral("default")), QString());
    }

    // The text of a key of a single section reads back as the same value, at the default and at another: the
    // settings dialog writes such texts.
    void textReadsBack()
    {
        QFile file(QStringLiteral(IDLEGPU_TEST_DATA "/config_every_key.conf"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const Config everyKey = ConfigLoader::parse(file.readAll(), QStringLiteral("every.conf")).config;
        const Config defaults = ConfigLoader::parse(QByteArray(), QStringLiteral("empty.conf")).config;
        for (const Config &config : {defaults, everyKey})
            for (const KeyRow *row : ConfigKeys::table()) {
                if (row->repeated())
                    continue;
                const QString text = ConfigKeys::text(*row, config);
                QStringList problems;
                const Config read = ConfigKeys::withText(*row, text, Config(), &problems);
                QVERIFY2(problems.isEmpty(), qPrintable(row->name() + QLatin1String(": ") + problems.join(' ')));
                QCOMPARE(ConfigKeys::text(*row, read), text);
            }
    }

    // Every key is a setting that a reload compares: a file that differs from another in that key alone reads as other
    // settings (tests/data/config_every_key.conf gives each key a value other than its default).
    void everyKeyIsASetting()
    {
        QFile file(QStringLiteral(IDLEGPU_TEST_DATA "/config_every_key.conf"));
        QVERIFY(file.open(QIODevice::ReadOnly));
        const IniDocument everyKey = IniDocument::parse(file.readAll());
        for (const KeyRow *row : ConfigKeys::table()) {
            const IniDocument::Entry *given = nullptr;
            for (const IniDocument::Entry &entry : everyKey.entries)
                if (!given && ConfigKeys::sectionOf(entry.section) == QLatin1String(row->section)
                    && entry.key == QLatin1String(row->key))
                    given = &entry;
            QVERIFY2(given, qPrintable(row->name() + QStringLiteral(" is not in config_every_key.conf")));
            const QString base = sectionAround(*row);
            const IniDocument baseDocument = IniDocument::parse(base.toUtf8());
            const QString with = withKey(base, QLatin1String(row->key), given->value);
            const Config without = ConfigLoader::read(baseDocument, QStringLiteral("test.conf")).config;
            const Config withKey = ConfigLoader::parse(with.toUtf8(), QStringLiteral("test.conf")).config;
            QVERIFY2(withKey.settings() != without.settings(), qPrintable(row->name() + QLatin1String(": ") + with));
        }
    }

    // What the reader says of a wrong value reads as one phrase for every key: its unit, range and the meaning of 0
    // in one pair of parentheses at most, never two in a row ("of degrees Celsius (0: off) (0 to 150)"). A number's
    // message quotes the value as written, even one that looks like a placeholder of QString::arg().
    void messagesReadAsOnePhrase()
    {
        const QStringList wrongValues{QStringLiteral("x!"),      QStringLiteral("-1"),
                                      QStringLiteral("0"),       QStringLiteral("99999999999999999999"),
                                      QStringLiteral("a, ,b:c"), QStringLiteral("relative/path"),
                                      QStringLiteral("%1%2")};
        int messages = 0;
        for (const KeyRow *row : ConfigKeys::table()) {
            const QString base = sectionAround(*row);
            for (const QString &value : wrongValues) {
                const QString with = withKey(base, QLatin1String(row->key), value);
                const QList<ConfigDiagnostic> problems =
                    ConfigLoader::parse(with.toUtf8(), QStringLiteral("test.conf")).diagnostics;
                for (const ConfigDiagnostic &problem : problems) {
                    ++messages;
                    const QString &text = problem.message;
                    QVERIFY2(!text.contains(QLatin1String(") (")),
                             qPrintable(row->name() + QLatin1String(": ") + text));
                    QVERIFY2(text.count(QLatin1Char('(')) == text.count(QLatin1Char(')')),
                             qPrintable(row->name() + QLatin1String(": ") + text));
                    if (hasRange(*row) && text.startsWith(QLatin1String(row->key) + QLatin1Char(':')))
                        QVERIFY2(text.contains(QLatin1Char('\'') + value + QLatin1Char('\'')),
                                 qPrintable(row->name() + QLatin1String(": ") + text));
                }
            }
        }
        QVERIFY(messages > ConfigKeys::table().size()); // the wrong values are wrong for most keys
    }

    // docs/configuration.md's table has a row for every key of the table and none more, each with the table's
    // default and, for a number, its range.
    void referenceNamesEveryKey()
    {
        QString error;
        const QMap<QString, DocumentedKey> documented = documentedKeys(&error);
        QVERIFY2(error.isEmpty(), qPrintable(error));
        const QStringList table = names(ConfigKeys::table());
        for (const QString &name : documented.keys())
            QVERIFY2(table.contains(name), qPrintable(name + QStringLiteral(" is documented but no key of the table")));
        for (const KeyRow *row : ConfigKeys::table()) {
            const auto doc = documented.constFind(row->name());
            QVERIFY2(doc != documented.constEnd(), qPrintable(row->name() + QStringLiteral(" is not documented")));
            QVERIFY2(normalised(doc->defaultText).startsWith(normalised(row->defaultText())),
                     qPrintable(QStringLiteral("%1: documented default '%2', the table's '%3'")
                                    .arg(row->name(), doc->defaultText, row->defaultText())));
            if (hasRange(*row))
                QVERIFY2(doc->meaning.contains(rangeText(*row, QChar(0x2013))),
                         qPrintable(QStringLiteral("%1: the documentation does not give its range %2")
                                        .arg(row->name(), rangeText(*row, QChar(0x2013)))));
        }
    }

    // The example file sets every key of the table and none more; each at its default or with a comment that says the
    // default, and for a number a comment that gives its range.
    void exampleNamesEveryKey()
    {
        QString unknownSection;
        const QMultiMap<QString, ExampleKey> example = exampleKeys(&unknownSection);
        QVERIFY2(unknownSection.isEmpty(), qPrintable(unknownSection));
        const QStringList table = names(ConfigKeys::table());
        for (const QString &name : example.uniqueKeys())
            QVERIFY2(table.contains(name), qPrintable(name + QStringLiteral(" is in the example but no key of the table")));
        for (const KeyRow *row : ConfigKeys::table()) {
            const QList<ExampleKey> places = example.values(row->name());
            QVERIFY2(!places.isEmpty(), qPrintable(row->name() + QStringLiteral(" is not in the example")));
            const QString defaultText = normalised(row->defaultText());
            const bool saysDefault = std::any_of(places.cbegin(), places.cend(), [&](const ExampleKey &place) {
                return normalised(place.value) == defaultText || normalised(place.comment).contains(defaultText);
            });
            QVERIFY2(saysDefault, qPrintable(QStringLiteral("%1: the example neither sets nor names its default '%2'")
                                                 .arg(row->name(), row->defaultText())));
            if (hasRange(*row)) {
                const bool saysRange = std::any_of(places.cbegin(), places.cend(), [&](const ExampleKey &place) {
                    return place.comment.contains(rangeText(*row, QLatin1Char('-')));
                });
                QVERIFY2(saysRange, qPrintable(QStringLiteral("%1: the example's comment does not give its range %2")
                                                   .arg(row->name(), rangeText(*row, QLatin1Char('-')))));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestConfigKeys)
#include "tst_configkeys.moc"
