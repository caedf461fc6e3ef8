// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// libFuzzer target: the parser of a caller's /proc/PID/mountinfo (bus/procview.h), whose answer decides what the
// D-Bus service shows of other users' processes. Whatever the bytes, it must not crash, and its answer must be one
// the kernel could give: a hidepid= of off, noaccess, invisible or ptraceable.
#include "bus/procview.h"
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
    const QByteArray bytes(reinterpret_cast<const char *>(data), qsizetype(size));
    const ProcView::MountOptions options = ProcView::parseMountInfo(bytes);
    switch (options.hidePid) {
    case ProcView::HidePid::Off:
    case ProcView::HidePid::NoAccess:
    case ProcView::HidePid::Invisible:
    case ProcView::HidePid::Ptraceable: break;
    default: std::abort();
    }
    if (!options.found && (options.hidePid != ProcView::HidePid::Off || options.gid))
        std::abort(); // nothing found, nothing said
    // Without a proc mount nobody but root sees others.
    if (!options.found && ProcView::seesOthers(options, 1000, {0, 1, 27}))
        std::abort();
    return 0;
}
