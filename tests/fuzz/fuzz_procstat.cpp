// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// libFuzzer target: the /proc/<pid>/stat parser the holder scanner uses, on arbitrary bytes (as the scanner
// reads them: at most 1023 bytes, NUL-terminated, so a NUL inside ends the text early).
#include "fuzzsupport.h"
#include "holders/procparse.h"

#include <cstdint>
#include <cstring>
#include <vector>

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    silenceQtMessages();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    std::vector<char> text(size + 1, '\0');
    std::memcpy(text.data(), data, size);
    ProcStat stat;
    parseProcStat(text.data(), &stat);
    return 0;
}
