// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// libFuzzer target: the parser of the heartbeat for Slurm's prolog and health check (slurm/guardfile.h), which must
// refuse any file but idlegpu's own without crashing, and give back what it wrote; the escape of a process's name
// for a drain reason, which must leave nothing that ends the reason or starts a field (a space, `=`, a control
// character); and the parser of the node's state the guard reads (`sinfo --json`) on the same bytes.
#include "fuzzsupport.h"
#include "slurm/guardfile.h"
#include "slurm/slurmjobs.h"

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
    QString error;
    if (const std::optional<SlurmGuard::Heartbeat> heartbeat = SlurmGuard::parse(bytes, &error)) {
        const std::optional<SlurmGuard::Heartbeat> again = SlurmGuard::parse(SlurmGuard::toJson(*heartbeat), &error);
        if (!again || !(*again == *heartbeat))
            std::abort(); // what it accepts, it writes back the same
    }
    const QString text = SlurmGuard::reasonText(QString::fromUtf8(bytes));
    for (const QChar c : text)
        if (c == QLatin1Char(' ') || c == QLatin1Char('=') || c.category() == QChar::Other_Control
            || c.category() == QChar::Separator_Line || c.category() == QChar::Separator_Paragraph)
            std::abort();
    if (text.size() > 64 * 10)
        std::abort(); // 64 characters, each escaped to six at most
    Slurm::parseNodeJson(bytes, QStringLiteral("ws1"));
    return 0;
}
