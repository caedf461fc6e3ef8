// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#pragma once
// The hook that lets several QtTest classes share one executable, a test group (tests/CMakeLists.txt). Every test
// source is compiled with this header first, through the tests' precompiled header. It turns QTEST_MAIN,
// QTEST_GUILESS_MAIN and QTEST_APPLESS_MAIN into a registration of the same main() under the name of the test's
// file ("tst_config"), which testgroup.cpp runs when the group's executable starts under that name. So a test file
// stays a plain QtTest file, and it runs as it would in an executable of its own.
#include <QtTest/qtest.h>

namespace TestGroup {

using TestMain = int (*)(int argc, char **argv);

// Registers `main` under the base name of `sourceFile` without its extension (".../tst_config.cpp": tst_config).
struct Registration
{
    Registration(const char *sourceFile, TestMain main);
};

} // namespace TestGroup

// Qt 6.4's QTEST_MAIN, QTEST_GUILESS_MAIN and QTEST_APPLESS_MAIN all expand to QTEST_MAIN_WRAPPER, which defines
// main(). The same body, as a function of the test's own file and registered under its name.
#ifndef QTEST_MAIN_WRAPPER
#error "QtTest does not define QTEST_MAIN_WRAPPER: tests/testgroup.h cannot register the tests"
#endif
#undef QTEST_MAIN_WRAPPER
#define QTEST_MAIN_WRAPPER(TestObject, ...)                                                                           \
    static int testGroupMain(int argc, char *argv[])                                                                  \
    {                                                                                                                 \
        TESTLIB_SELFCOVERAGE_START(#TestObject)                                                                       \
        QT_PREPEND_NAMESPACE(QTest::Internal::callInitMain)<TestObject>();                                            \
        __VA_ARGS__                                                                                                   \
        TestObject tc;                                                                                                \
        QTEST_SET_MAIN_SOURCE_PATH                                                                                    \
        return QTest::qExec(&tc, argc, argv);                                                                         \
    }                                                                                                                 \
    static const TestGroup::Registration testGroupRegistration(__FILE__, testGroupMain);
