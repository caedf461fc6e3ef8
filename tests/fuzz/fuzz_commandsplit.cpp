// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// libFuzzer target: splitCommand (cmd=) and parseEnvAssignments (env=) on arbitrary text.
#include "config/commandsplit.h"
#include "fuzzsupport.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    silenceQtMessages();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    const QString text = QString::fromUtf8(reinterpret_cast<const char *>(data), qsizetype(size));
    QString error;
    const std::optional<QStringList> words = splitCommand(text, &error);
    if (!words && error.isEmpty())
        std::abort(); // a refusal always says why
    error.clear();
    const auto assignments = parseEnvAssignments(text, &error);
    if (!assignments && error.isEmpty())
        std::abort();
    if (assignments) {
        for (const auto &[key, value] : *assignments)
            if (key.isEmpty() || key.contains(QLatin1Char('=')))
                std::abort(); // a variable name is never empty and never holds '='
    }
    return 0;
}
