// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// splitCommand and parseEnvAssignments: shell word splitting without a shell. Every expected value of the
// splitting table was checked by hand against /bin/sh (dash) with `set -f; eval "set -- $cmd"`, except the
// rows marked "no expansion", where a shell would expand what idlegpu keeps literal.
#include "config/commandsplit.h"

#include <QTest>

class TestCommandSplit : public QObject
{
    Q_OBJECT

private slots:
    void splitsLikeTheShell_data();
    void splitsLikeTheShell();
    void reportsErrors_data();
    void reportsErrors();
    void parsesEnv_data();
    void parsesEnv();
    void rejectsBadEnv_data();
    void rejectsBadEnv();
};

void TestCommandSplit::splitsLikeTheShell_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QStringList>("words");

    QTest::newRow("one word") << "miner-run" << QStringList{"miner-run"};
    QTest::newRow("empty") << "" << QStringList{};
    QTest::newRow("only blanks") << " \t \n " << QStringList{};
    QTest::newRow("blanks around") << "  a   b  " << QStringList{"a", "b"};
    QTest::newRow("tab") << "a\tb" << QStringList{"a", "b"};
    QTest::newRow("newline separates words") << "miner\n--pool x" << QStringList{"miner", "--pool", "x"};
    QTest::newRow("gpu_mon README style") << R"(miner --pool "a:1" -u x,y)"
                                          << QStringList{"miner", "--pool", "a:1", "-u", "x,y"};
    QTest::newRow("single quotes") << "'a b' c" << QStringList{"a b", "c"};
    QTest::newRow("double quotes") << "\"a b\" c" << QStringList{"a b", "c"};
    QTest::newRow("adjacent parts join") << R"(a'b'"c"d)" << QStringList{"abcd"};
    QTest::newRow("empty quotes inside a word") << "a''b" << QStringList{"ab"};
    QTest::newRow("empty single-quoted word") << "'' x" << QStringList{"", "x"};
    QTest::newRow("empty double-quoted word") << "\"\"" << QStringList{""};
    QTest::newRow("empty word between") << "a \"\" b" << QStringList{"a", "", "b"};
    QTest::newRow("escaped blank") << R"(a\ b)" << QStringList{"a b"};
    QTest::newRow("escaped backslash") << R"(a\\b)" << QStringList{R"(a\b)"};
    QTest::newRow("backslash before a letter") << R"(a\tb)" << QStringList{"atb"};
    QTest::newRow("UNC path unquoted") << R"(\\server\share)" << QStringList{R"(\servershare)"};
    QTest::newRow("UNC path single-quoted") << R"('\\server\share')" << QStringList{R"(\\server\share)"};
    QTest::newRow("escaped double quote") << R"(\")" << QStringList{"\""};
    QTest::newRow("escaped single quote") << R"(\')" << QStringList{"'"};
    QTest::newRow("escaped hash") << R"(x \# y)" << QStringList{"x", "#", "y"};
    QTest::newRow("backslash-newline removed") << "a\\\nb" << QStringList{"ab"};
    QTest::newRow("in double quotes: \\\\") << R"("a\\b")" << QStringList{R"(a\b)"};
    QTest::newRow("in double quotes: \\\"") << R"("a\"b")" << QStringList{R"(a"b)"};
    QTest::newRow("in double quotes: \\`") << R"("\`")" << QStringList{"`"};
    QTest::newRow("in double quotes: \\$") << R"("\$HOME")" << QStringList{"$HOME"};
    QTest::newRow("in double quotes: \\n kept") << R"("a\nb")" << QStringList{R"(a\nb)"};
    QTest::newRow("in double quotes: \\t kept") << R"("a\tb")" << QStringList{R"(a\tb)"};
    QTest::newRow("in double quotes: backslash-newline") << "\"a\\\nb\"" << QStringList{"ab"};
    QTest::newRow("in double quotes: newline kept") << "\"a\nb\"" << QStringList{"a\nb"};
    QTest::newRow("in single quotes: backslash literal") << R"('a\nb')" << QStringList{R"(a\nb)"};
    QTest::newRow("single quote inside double") << R"(x "a'b")" << QStringList{"x", "a'b"};
    QTest::newRow("double quote inside single") << R"('a"b')" << QStringList{"a\"b"};
    QTest::newRow("comment") << "a #c" << QStringList{"a"};
    QTest::newRow("comment ends at newline") << "a #c\nb" << QStringList{"a", "b"};
    QTest::newRow("hash inside a word") << "a#b" << QStringList{"a#b"};
    QTest::newRow("only a comment") << "# only" << QStringList{};
    QTest::newRow("unicode") << QString::fromUtf8("'é' ünï 名前") << QStringList{QString::fromUtf8("é"),
                                                                             QString::fromUtf8("ünï"),
                                                                             QString::fromUtf8("名前")};
    QTest::newRow("no-break space is no blank")
        << QString::fromUtf8("a\u00a0b") << QStringList{QString::fromUtf8("a\u00a0b")};
    QTest::newRow("no expansion: variable") << "echo $HOME ${X}" << QStringList{"echo", "$HOME", "${X}"};
    QTest::newRow("no expansion: glob and tilde") << "ls *.txt ~/x" << QStringList{"ls", "*.txt", "~/x"};
    QTest::newRow("no expansion: command substitution") << "a `b` $(c)" << QStringList{"a", "`b`", "$(c)"};
    QTest::newRow("no expansion: operators are words") << "a | b > c" << QStringList{"a", "|", "b", ">", "c"};
    QTest::newRow("percent and semicolon kept") << "x 100% a;b" << QStringList{"x", "100%", "a;b"};
}

void TestCommandSplit::splitsLikeTheShell()
{
    QFETCH(QString, command);
    QFETCH(QStringList, words);
    QString error;
    const std::optional<QStringList> result = splitCommand(command, &error);
    QVERIFY2(result.has_value(), qPrintable(error));
    QCOMPARE(*result, words);
}

void TestCommandSplit::reportsErrors_data()
{
    QTest::addColumn<QString>("command");
    QTest::addColumn<QString>("error");

    QTest::newRow("unterminated single quote") << "miner 'abc"
                                               << "unterminated single quote: the ' at column 7 is never closed";
    QTest::newRow("unterminated double quote") << "miner \"abc\\\""
                                               << "unterminated double quote: the \" at column 7 is never closed";
    QTest::newRow("lone double quote") << "\"" << "unterminated double quote: the \" at column 1 is never closed";
    QTest::newRow("trailing backslash") << "miner \\"
                                        << "trailing backslash at column 7: nothing follows it to escape";
    QTest::newRow("quote opened after a hash inside a word")
        << "a#b 'c" << "unterminated single quote: the ' at column 5 is never closed";
}

void TestCommandSplit::reportsErrors()
{
    QFETCH(QString, command);
    QFETCH(QString, error);
    QString message;
    QVERIFY(!splitCommand(command, &message).has_value());
    QCOMPARE(message, error);
}

using EnvList = QList<QPair<QString, QString>>;

void TestCommandSplit::parsesEnv_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<EnvList>("env");

    QTest::newRow("empty") << "" << EnvList{};
    QTest::newRow("one") << "CUDA_DEVICE_ORDER=PCI_BUS_ID" << EnvList{{"CUDA_DEVICE_ORDER", "PCI_BUS_ID"}};
    QTest::newRow("order kept") << "B=2 A=1" << EnvList{{"B", "2"}, {"A", "1"}};
    QTest::newRow("empty value") << "EMPTY=" << EnvList{{"EMPTY", ""}};
    QTest::newRow("value with =") << "OPTS=a=b" << EnvList{{"OPTS", "a=b"}};
    QTest::newRow("quoted value") << R"(MSG="hello world" P='a b')" << EnvList{{"MSG", "hello world"}, {"P", "a b"}};
    QTest::newRow("underscore and digits") << "_X1=y" << EnvList{{"_X1", "y"}};
    QTest::newRow("no expansion") << "PATH=$PATH:/opt/bin" << EnvList{{"PATH", "$PATH:/opt/bin"}};
    QTest::newRow("repeated key kept in order") << "A=1 A=2" << EnvList{{"A", "1"}, {"A", "2"}};
}

void TestCommandSplit::parsesEnv()
{
    QFETCH(QString, text);
    QFETCH(EnvList, env);
    QString error;
    const auto result = parseEnvAssignments(text, &error);
    QVERIFY2(result.has_value(), qPrintable(error));
    QCOMPARE(*result, env);
}

void TestCommandSplit::rejectsBadEnv_data()
{
    QTest::addColumn<QString>("text");
    QTest::addColumn<QString>("error");

    QTest::newRow("no =") << "A=1 B" << "'B' is not of the form KEY=VALUE";
    QTest::newRow("empty key") << "=x"
                               << "'' is not a valid variable name (letters, digits and _, not starting with a digit)";
    QTest::newRow("leading digit") << "1X=2"
                                   << "'1X' is not a valid variable name (letters, digits and _, not starting with a "
                                      "digit)";
    QTest::newRow("dash in key") << "MY-VAR=1"
                                 << "'MY-VAR' is not a valid variable name (letters, digits and _, not starting with "
                                    "a digit)";
    QTest::newRow("quoted key with space") << "'A B=1'"
                                           << "'A B' is not a valid variable name (letters, digits and _, not "
                                              "starting with a digit)";
    QTest::newRow("unterminated quote") << "A='x" << "unterminated single quote: the ' at column 3 is never closed";
}

void TestCommandSplit::rejectsBadEnv()
{
    QFETCH(QString, text);
    QFETCH(QString, error);
    QString message;
    QVERIFY(!parseEnvAssignments(text, &message).has_value());
    QCOMPARE(message, error);
}

QTEST_APPLESS_MAIN(TestCommandSplit)
#include "tst_commandsplit.moc"
