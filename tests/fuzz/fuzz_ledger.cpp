// SPDX-License-Identifier: GPL-3.0-or-later
// SPDX-FileCopyrightText: 2026 The idlegpu authors
// libFuzzer target: the ledger file (WorkLedger::restore) on arbitrary bytes, and what a restored ledger promises:
// a refusal says why, its summary and its bookkeeping go on without a fault, and what it writes reads back the same.
#include "base/clock.h"
#include "fuzzsupport.h"
#include "ledger/workledger.h"

#include <cstdint>
#include <cstdlib>

extern "C" int LLVMFuzzerInitialize(int *, char ***)
{
    silenceQtMessages();
    return 0;
}

extern "C" int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    FakeClock clock;
    WorkLedger ledger(&clock);
    QString error;
    if (!ledger.restore(QByteArray(reinterpret_cast<const char *>(data), qsizetype(size)), &error)) {
        if (error.isEmpty())
            std::abort(); // a refusal must say why
        return 0;
    }
    const QByteArray written = ledger.toJson();
    WorkLedger reread(&clock);
    if (!reread.restore(written, &error) || reread.toJson() != written)
        std::abort();
    ledger.summary();
    ledger.setActivity({{0, GpuActivity::Workload}, {1, GpuActivity::ForeignUse}});
    clock.advance(90'000'000); // past the timeline's 24 h and into another day
    ledger.addPreemption(PreemptionRecord());
    ledger.advance();
    const LedgerSummary summary = ledger.summary();
    if (summary.all.total.workloadMs < 90'000'000 || summary.recentPreemptions.size() > LedgerSummary::kRecentPreemptions)
        std::abort();
    return 0;
}
