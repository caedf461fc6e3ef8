// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// libFuzzer target: the parsers of `squeue --json` and `sinfo --json` (Slurm mode), the node's view of the jobs,
// which duplicate hold stays and the scancel that cancels the others, the host-list matcher on the same bytes, and
// the environ lookup of SLURM_JOB_ID. What passes for a hold must be one: root's, in the hold partition, by name.
#include "fuzzsupport.h"
#include "holders/procparse.h"
#include "slurm/slurmcommands.h"
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
    SlurmConfig slurm;
    slurm.node = QStringLiteral("ws1");
    if (const std::optional<QList<Slurm::Job>> jobs = Slurm::parseJobsJson(bytes)) {
        const Slurm::NodeView view = Slurm::viewOfNode(*jobs, slurm, {0, 1, 2, 3});
        for (auto it = view.holds.begin(); it != view.holds.end(); ++it) {
            for (const Slurm::Job &hold : it.value())
                if (hold.uid != 0 || hold.partition != slurm.partition || hold.name != Slurm::holdJobName(it.key()))
                    std::abort();
            const qsizetype kept = Slurm::holdToKeep(it.value(), it.value().first().id);
            if (kept < 0 || kept >= it.value().size())
                std::abort();
            Slurm::cancelArguments(slurm, it.key(), it.value());
        }
    }
    Slurm::parseNodeJson(bytes, slurm.node);
    const QString text = QString::fromUtf8(bytes.left(256));
    Slurm::hostListContains(text, slurm.node);
    Slurm::parseIndexList(text);
    Slurm::gpuOfHoldName(text);
    int length = 0;
    environValue(bytes.constData(), int(bytes.size()), "SLURM_JOB_ID", &length);
    return 0;
}
