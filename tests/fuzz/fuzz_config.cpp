// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// libFuzzer target: the config reader (ConfigLoader::parse: IniDocument and every check)
// on arbitrary bytes. It must never crash, and a file it accepts must be usable as it reads it.
#include "config/config.h"
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
    const QByteArray contents(reinterpret_cast<const char *>(data), qsizetype(size));
    const ConfigLoadResult result = ConfigLoader::parse(contents, QStringLiteral("fuzz.conf"));
    if (result.ok()) {
        // What is applied must be what a workload can run: every workload has a command to start.
        for (const WorkloadConfig &workload : result.config.workloads)
            if (workload.argv.isEmpty() || workload.argv.first().isEmpty())
                std::abort();
    }
    return 0;
}
