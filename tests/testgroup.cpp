// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// The main() of a test group (tests/CMakeLists.txt): it runs the test registered under the name the executable was
// started as (build/bin/tst_config, a link to tests_unit), or under its first argument (tests_unit tst_config -v2).
// Without either it lists the group's tests.
#include "testgroup.h"

#include <cstdio>
#include <cstdlib>
#include <map>
#include <string>

namespace {

std::map<std::string, TestGroup::TestMain> &registeredTests()
{
    static std::map<std::string, TestGroup::TestMain> tests;
    return tests;
}

// "tst_config" for ".../tst_config.cpp" and for ".../bin/tst_config".
std::string testName(const char *path)
{
    std::string name = path;
    name.erase(0, name.rfind('/') + 1);
    const size_t dot = name.find('.');
    if (dot != std::string::npos)
        name.erase(dot);
    return name;
}

TestGroup::TestMain findTest(const char *path)
{
    const auto it = registeredTests().find(testName(path));
    return it == registeredTests().end() ? nullptr : it->second;
}

} // namespace

TestGroup::Registration::Registration(const char *sourceFile, TestMain main)
{
    const bool added = registeredTests().emplace(testName(sourceFile), main).second;
    if (!added) {
        fprintf(stderr, "two tests in one group are named %s\n", testName(sourceFile).c_str());
        std::abort();
    }
}

int main(int argc, char **argv)
{
    if (const TestGroup::TestMain test = findTest(argv[0]))
        return test(argc, argv);
    // The test's name takes the place of the program's, as if the test's own link had been started.
    if (argc > 1) {
        if (const TestGroup::TestMain test = findTest(argv[1]))
            return test(argc - 1, argv + 1);
    }
    fprintf(stderr, "usage: %s TEST [QtTest options], or the link build/bin/TEST. Its tests:\n", argv[0]);
    for (const auto &[name, test] : registeredTests())
        fprintf(stderr, "  %s\n", name.c_str());
    return 2;
}
