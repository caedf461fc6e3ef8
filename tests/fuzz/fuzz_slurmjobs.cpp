// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// libFuzzer target: the parser of `scontrol show job -d --oneliner` and the node's view of its jobs (Slurm mode),
// the host-list matcher on the same bytes, and the environ lookup of SLURM_JOB_ID.
#include "fuzzsupport.h"
#include "holders/procparse.h"
#include "slurm/slurmjobs.h"

#include <cstdint>

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
    const QList<Slurm::Job> jobs = Slurm::parseShowJobs(bytes);
    Slurm::viewOfNode(jobs, slurm, {0, 1, 2, 3});
    const QString text = QString::fromUtf8(bytes.left(256));
    Slurm::hostListContains(text, slurm.node);
    Slurm::parseIndexList(text);
    Slurm::gpuOfHoldName(text);
    int length = 0;
    environValue(bytes.constData(), int(bytes.size()), "SLURM_JOB_ID", &length);
    return 0;
}
