// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
#include "settings/workloadtemplates.h"

namespace {

WorkloadTemplate make(const QString &id, const QString &title, const QString &name, const QString &cmd,
                      const QString &explanation)
{
    WorkloadTemplate result;
    result.id = id;
    result.title = title;
    result.explanation = explanation;
    result.draft.name = name;
    result.draft.cmd = cmd;
    result.draft.templateId = id;
    return result;
}

} // namespace

QList<WorkloadTemplate> WorkloadTemplates::all(const QString &home)
{
    QList<WorkloadTemplate> templates;

    templates.append(make(QStringLiteral("custom"), tr("Custom command"), tr("workload"), QString(),
                          tr("Any program that computes on the GPU. idlegpu starts it once its GPUs are free and "
                             "stops it (SIGTERM, then SIGKILL after the stop timeout) the moment another program "
                             "opens one of them. The command runs without a shell: write sh -c '…' for pipes, "
                             "variables or ~.")));

    const QString boincDir = home + QStringLiteral("/boinc");
    WorkloadTemplate boinc = make(
        QStringLiteral("boinc"), tr("BOINC client"), QStringLiteral("boinc"), QStringLiteral("boinc"),
        tr("The BOINC client (Debian package boinc-client). It keeps its data in the working folder: create %1 "
           "first, then attach a project with boinccmd --project_attach URL KEY, or with BOINC Manager. The package "
           "also runs a client of its own as the boinc-client service: disable it (sudo systemctl disable --now "
           "boinc-client) so that only idlegpu starts BOINC.")
            .arg(boincDir));
    boinc.draft.dir = boincDir;
    boinc.draft.stopTimeout = QStringLiteral("30"); // it writes a checkpoint as it quits
    templates.append(boinc);

    WorkloadTemplate boincControl =
        make(QStringLiteral("boinc-control"), tr("BOINC (control the running client)"), QStringLiteral("boinc"),
             QString(),
             tr("Leaves the BOINC client of the boinc-client service running and only tells it when it may use the "
                "GPUs: boinccmd --set_gpu_mode auto lends them, never takes them back. The mode is global to all of "
                "BOINC's GPUs, so keep GPUs at all (or every GPU BOINC may use). Service programs: the client's name, "
                "boinc; add the names of your projects' GPU applications (ps shows them while they compute), or a "
                "paused one that stays in memory counts as another program. boinccmd must reach the client: run "
                "idlegpu as a user that can read /var/lib/boinc-client/gui_rpc_auth.cfg (in the group boinc)."));
    boincControl.draft.controlsService = true;
    boincControl.draft.startCmd = QStringLiteral("boinccmd --set_gpu_mode auto 0");
    boincControl.draft.stopCmd = QStringLiteral("boinccmd --set_gpu_mode never 0");
    boincControl.draft.servicePrograms = QStringLiteral("boinc");
    templates.append(boincControl);

    const QString fahDir = home + QStringLiteral("/fah");
    WorkloadTemplate fah = make(
        QStringLiteral("folding"), tr("Folding@home"), QStringLiteral("folding"), QStringLiteral("fah-client"),
        tr("Folding@home's client, version 8 (fah-client). It keeps its work in the working folder: create %1 "
           "first, and link the client to your account at app.foldingathome.org. Its package also installs a "
           "fah-client service: disable it (sudo systemctl disable --now fah-client) so that only idlegpu starts "
           "the client. For version 7 the command is FAHClient --user=NAME --team=0 --gpu=true.")
            .arg(fahDir));
    fah.draft.dir = fahDir;
    fah.draft.stopTimeout = QStringLiteral("30");
    templates.append(fah);

    WorkloadTemplate miner = make(
        QStringLiteral("miner"), tr("Miner"), QStringLiteral("miner"),
        QStringLiteral("lolMiner --algo ETCHASH --pool POOL_HOST:PORT --user WALLET.WORKER"),
        tr("A GPU miner: here lolMiner; T-Rex, NBMiner and the others take the same kind of options. Replace "
           "POOL_HOST:PORT with your pool's address, WALLET.WORKER with your wallet and a name for this computer, "
           "and ETCHASH with your coin's algorithm; Browse… picks the miner's program where it is not in PATH. A "
           "miner loses only the share it was working on when it stops, so its stop timeout is short."));
    miner.draft.log = home + QStringLiteral("/miner.log");
    miner.draft.stopTimeout = QStringLiteral("5");
    templates.append(miner);

    const QString script = home + QStringLiteral("/jobs/idle.sh");
    WorkloadTemplate batch = make(
        QStringLiteral("script"), tr("Batch script"), QStringLiteral("batch"),
        QStringLiteral("bash %1").arg(DraftRules::shellQuote(script)),
        tr("Your own script, run by bash: write in %1 whatever should run while the GPUs are idle (in the script, "
           "pipes, variables and loops work as in a terminal). CUDA_VISIBLE_DEVICES names the GPUs it may use. "
           "When a GPU is needed it gets SIGTERM: trap it to save your progress, or let it end; every process it "
           "started is stopped with it.")
            .arg(script));
    batch.draft.stopTimeout = QStringLiteral("30");
    templates.append(batch);

    WorkloadTemplate test = make(
        QStringLiteral("test"), tr("Test workload (only waits)"), QStringLiteral("idlegpu-test"),
        QStringLiteral("sh -c 'echo \"idlegpu test workload: running on GPU $CUDA_VISIBLE_DEVICES\"; "
                       "exec sleep infinity'"),
        tr("A harmless workload that only waits, to see idlegpu at work: it starts once its GPUs are free, writes a "
           "line to idlegpu's log, and stops the moment a program opens one of them, for instance a CUDA job such "
           "as python3 -c 'import torch; torch.ones(1).cuda(); input()' (nvidia-smi is ignored by default)."));
    test.draft.stopTimeout = QStringLiteral("5");
    templates.append(test);

    return templates;
}

std::optional<WorkloadTemplate> WorkloadTemplates::find(const QString &id, const QString &home)
{
    for (const WorkloadTemplate &candidate : all(home))
        if (candidate.id == id)
            return candidate;
    return std::nullopt;
}

WorkloadDraft WorkloadTemplates::withUniqueName(WorkloadDraft draft, const QStringList &taken)
{
    const QString base = draft.name;
    for (int n = 2; taken.contains(draft.name); ++n)
        draft.name = QStringLiteral("%1 %2").arg(base).arg(n);
    return draft;
}
