// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The config's word tables (config/configwords.h): every value of every enum a key takes has one word of its own,
// and each word is read back as its value by the loader and written back by the settings dialog's draft.
#include "config/config.h"
#include "config/configwords.h"
#include "config/inifile.h"
#include "settings/settingsdraft.h"

#include <QFile>
#include <QSet>
#include <QTemporaryDir>
#include <QtTest>

#include <iterator>
#include <string_view>
#include <utility>

namespace {

// Whether V is one of its enum's declared enumerators: GCC and Clang write a declared one by name in the function's
// signature ("V = BusyWhen::Memory") and any other value as a cast ("V = (BusyWhen)4").
template<auto V>
bool isEnumerator()
{
    const std::string_view signature = __PRETTY_FUNCTION__;
    const std::size_t value = signature.find("V = ");
    return value != std::string_view::npos && signature.at(value + 4) != '(';
}

// The enumerators of Enum among the values 0..31 (every enum here counts from 0).
template<typename Enum, int... Values>
QList<Enum> enumerators(std::integer_sequence<int, Values...>)
{
    QList<Enum> found;
    ((isEnumerator<Enum(Values)>() ? found.append(Enum(Values)) : void()), ...);
    return found;
}
template<typename Enum>
QList<Enum> enumerators()
{
    return enumerators<Enum>(std::make_integer_sequence<int, 32>());
}

// Each enumerator has exactly one word in its table, the table nothing else, and no two words are the same.
template<typename Enum>
void checkTable(const QStringList &otherWordsOfKey = {})
{
    const QList<Enum> values = enumerators<Enum>();
    QVERIFY(!values.isEmpty());
    QCOMPARE(qsizetype(std::size(ConfigWords<Enum>::words)), values.size());
    QSet<QString> words(otherWordsOfKey.cbegin(), otherWordsOfKey.cend());
    for (const ConfigWord<Enum> &entry : ConfigWords<Enum>::words) {
        QVERIFY2(values.contains(entry.value), entry.word);
        const QString word = QLatin1String(entry.word);
        QVERIFY2(!word.isEmpty() && word == word.toLower() && word.trimmed() == word, entry.word);
        QVERIFY2(!words.contains(word), entry.word);
        words.insert(word);
    }
    for (Enum value : values) {
        QVERIFY2(!configWord(value).isEmpty(), qPrintable(QString::number(int(value))));
        QCOMPARE(configValue<Enum>(configWord(value)), std::optional<Enum>(value));
        QCOMPARE(configValue<Enum>(QLatin1Char(' ') + configWord(value).toUpper() + QLatin1Char('\t')),
                 std::optional<Enum>(value));
    }
    QVERIFY(!configValue<Enum>(QStringLiteral("no such word")));
    QVERIFY(!configKey<Enum>().isEmpty());
}

} // namespace

class TestConfigWords : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void initTestCase() { QVERIFY(m_dir.isValid()); }

    void countsEnumerators()
    {
        // The count the table is checked against must itself be right, or every check passes.
        QCOMPARE(enumerators<BusyWhen>(),
                 (QList<BusyWhen>{BusyWhen::Auto, BusyWhen::Opened, BusyWhen::Computes, BusyWhen::Memory}));
        QVERIFY(isEnumerator<OnBattery::Run>());
        QVERIFY(!isEnumerator<OnBattery(2)>());
    }

    void everyValueHasOneWord()
    {
        checkTable<BusyWhen>();
        checkTable<WorkloadPriority>();
        checkTable<OnBattery>();
        checkTable<NotifyKind>({QLatin1String(ConfigWords<NotifyKind>::all),
                                QLatin1String(ConfigWords<NotifyKind>::none)});
        checkTable<GpuVendor>({QLatin1String(ConfigWords<GpuVendor>::automatic)});
    }

    void defaultsAreTheConfigs()
    {
        QVERIFY(!GpuGroupConfig().busyWhen); // absent: its default, which the policy reads as auto
        QCOMPARE(Config().busyRuleFor(0), BusyRule());
        QCOMPARE(WorkloadConfig().priority, ConfigWords<WorkloadPriority>::defaultValue);
        QCOMPARE(Config().onBattery, ConfigWords<OnBattery>::defaultValue);
        QCOMPARE(Config().vendors, QList<GpuVendor>{}); // auto
        QCOMPARE(Config().notify, NotifyConfig());       // all
    }

    void busyWhenRoundTrips()
    {
        for (BusyWhen value : enumerators<BusyWhen>()) {
            const Config read = load(section("gpu-all", "gpus = all", value));
            QCOMPARE(read.gpuGroups.size(), 1);
            QCOMPARE(read.gpuGroups.first().busyWhen, std::optional<BusyWhen>(value));
            const Config written = saved("[gpu-all]\ngpus = all\n", [value](SettingsDraft &draft) {
                draft.groups.first().busyWhen = value;
            });
            QCOMPARE(written.gpuGroups.first().busyWhen, std::optional<BusyWhen>(value));
        }
    }

    void priorityRoundTrips()
    {
        for (WorkloadPriority value : enumerators<WorkloadPriority>()) {
            const Config read = load(section("process-x", "cmd = /bin/true", value));
            QCOMPARE(read.workloads.size(), 1);
            QCOMPARE(read.workloads.first().priority, value);
            const Config written = saved("[process-x]\ncmd = /bin/true\n", [value](SettingsDraft &draft) {
                draft.workloads.first().priority = value;
            });
            QCOMPARE(written.workloads.first().priority, value);
        }
    }

    void onBatteryRoundTrips()
    {
        for (OnBattery value : enumerators<OnBattery>()) {
            QCOMPARE(load(section("defaults", "interval_seconds = 10", value)).onBattery, value);
            const Config written = saved("[defaults]\n", [value](SettingsDraft &draft) {
                draft.edit(ConfigKeys::row(QStringLiteral("defaults"), configKey<OnBattery>()),
                           [value](Config &config) { config.onBattery = value; });
            });
            QCOMPARE(written.onBattery, value);
        }
    }

    void notifyRoundTrips()
    {
        for (NotifyKind kind : enumerators<NotifyKind>()) {
            NotifyConfig only{false, false, false};
            only[kind] = true;
            QCOMPARE(load(section("defaults", "interval_seconds = 10", kind)).notify, only);
            const Config written = saved("[defaults]\n", [only](SettingsDraft &draft) {
                draft.edit(ConfigKeys::row(QStringLiteral("defaults"), configKey<NotifyKind>()),
                           [only](Config &config) { config.notify = only; });
            });
            QCOMPARE(written.notify, only);
        }
        for (const NotifyConfig &notify : {NotifyConfig(), NotifyConfig{false, false, false}}) {
            const Config written = saved("[defaults]\n", [notify](SettingsDraft &draft) {
                draft.edit(ConfigKeys::row(QStringLiteral("defaults"), configKey<NotifyKind>()),
                           [notify](Config &config) { config.notify = notify; });
            });
            QCOMPARE(written.notify, notify);
        }
    }

    // The settings dialog does not write vendors; --status shows each GPU's maker with the same word.
    void vendorsAreRead()
    {
        for (GpuVendor vendor : enumerators<GpuVendor>())
            QCOMPARE(load(section("defaults", "interval_seconds = 10", vendor)).vendors, QList<GpuVendor>{vendor});
    }

private:
    // "[name]\nother\nkey = word\n": a section giving the enum's key the value's word.
    template<typename Enum>
    static QByteArray section(const char *name, const char *other, Enum value)
    {
        return QStringLiteral("[%1]\n%2\n%3 = %4\n")
            .arg(QLatin1String(name), QLatin1String(other), configKey<Enum>(), configWord(value))
            .toUtf8();
    }

    // The file read by the loader, as idlegpu reads it; a failure to read fails the test.
    Config load(const QByteArray &contents)
    {
        const QString path = m_dir.filePath(QStringLiteral("idlegpu.conf"));
        QFile file(path);
        if (!file.open(QIODevice::WriteOnly | QIODevice::Truncate) || file.write(contents) != contents.size())
            qFatal("cannot write %s", qPrintable(path));
        file.close();
        const ConfigLoadResult result = ConfigLoader::load(path);
        if (!result.ok())
            qFatal("%s does not load: %s", contents.constData(),
                   qPrintable(result.diagnostics.first().toString()));
        return result.config;
    }

    // `contents` loaded into a draft, changed by `change`, saved as the settings dialog saves it, and loaded again.
    template<typename Change>
    Config saved(const QByteArray &contents, Change change)
    {
        const Config before = load(contents);
        const IniText text = IniText::parse(contents);
        const SettingsDraft baseline = SettingsDraft::fromConfig(before, text.document());
        SettingsDraft current = baseline;
        change(current);
        const QString path = m_dir.filePath(QStringLiteral("idlegpu.conf"));
        QString error;
        if (!SavePlan::make(baseline, current, text.document()).apply(path, text, &error))
            qFatal("cannot save: %s", qPrintable(error));
        QFile file(path);
        if (!file.open(QIODevice::ReadOnly))
            qFatal("cannot read %s", qPrintable(path));
        return load(file.readAll());
    }

    QTemporaryDir m_dir;
};

QTEST_GUILESS_MAIN(TestConfigWords)
#include "tst_configwords.moc"
